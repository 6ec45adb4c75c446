package boot

import (
	"github.com/google/wire"

	"github.com/svcagent/svc/adapters/mail"
	"github.com/svcagent/svc/adapters/model/openai"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/unconnected"
	"github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// AssistantSet provides the owner's assistant: its stores, the account mail connectors, the
// unconnected messaging connectors and images, and the use cases. The instruction reader comes
// from BuiltinAssistant or UpstreamAssistant; each program binds assistant.Ledger, Profiles and
// Brain to the use cases it has.
var AssistantSet = wire.NewSet(
	store.AssistantSet, unconnected.Set,
	mail.NewMailboxes, wire.Bind(new(ports.MailSender), new(*mail.Mailboxes)),
	assistant.New, wire.Struct(new(assistant.Deps), "*"),
)

// BuiltinImages: without an upstream no picture can be made.
func BuiltinImages() ports.Images { return unconnected.NewImages() }

// UpstreamImages has the upstream make pictures with SVC_MODEL_IMAGE_NAME; without it no
// picture can be made.
func UpstreamImages(cfg config.Config, up *openai.Client) ports.Images {
	if cfg.ModelImageName == "" {
		return unconnected.NewImages()
	}
	return up
}

// BuiltinAssistant has the local command grammar read the assistant's instructions.
func BuiltinAssistant() assistant.Options { return assistant.Options{} }

// UpstreamAssistant has the upstream model read the assistant's instructions, with tool calling
// over the action catalogue.
func UpstreamAssistant(cfg config.Config, up *openai.Client) assistant.Options {
	return assistant.Options{Model: cfg.ModelName, Upstream: up}
}
