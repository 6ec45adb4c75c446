package boot

import (
	"github.com/google/wire"

	"github.com/svcagent/svc/adapters/messaging/telegram"
	"github.com/svcagent/svc/adapters/messaging/whatsapp"
	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/app/chat"
	appmessaging "github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/ports"
)

// MessagingSet provides the messaging-app channel where the apps' webhooks are answered and the
// replies sent (svc-api, svc-worker): the apps' clients and the channel's use cases over the
// agent. It needs the vault (EventSet).
var MessagingSet = wire.NewSet(
	WhatsAppOptions, whatsapp.Set,
	TelegramOptions, telegram.Set,
	Messengers,
	appmessaging.New, wire.Struct(new(appmessaging.Deps), "*"),
	ChannelAgent,
)

// ConnectorSet provides what connects an account's messaging apps (svcctl): the vault, the Bot
// API client (setWebhook) and the connector.
var ConnectorSet = wire.NewSet(
	Vault, wire.Bind(new(ports.Vault), new(*vault.AESGCM)),
	TelegramOptions, telegram.Set, wire.Bind(new(ports.BotWebhooks), new(*telegram.Client)),
	ConnectorOptions, appmessaging.NewConnector, wire.Struct(new(appmessaging.ConnectorDeps), "*"),
)

// WhatsAppOptions returns the WhatsApp Cloud API client's settings.
func WhatsAppOptions(cfg config.Config) whatsapp.Options {
	return whatsapp.Options{BaseURL: cfg.WhatsAppAPIURL, AllowPrivate: cfg.AllowPrivateTargets}
}

// TelegramOptions returns the Telegram Bot API client's settings.
func TelegramOptions(cfg config.Config) telegram.Options {
	return telegram.Options{BaseURL: cfg.TelegramAPIURL, AllowPrivate: cfg.AllowPrivateTargets}
}

// Messengers maps each messaging app to its client.
func Messengers(w *whatsapp.Client, t *telegram.Client) appmessaging.Messengers {
	return appmessaging.Messengers{messaging.WhatsApp: w, messaging.Telegram: t}
}

// ConnectorOptions returns the connector's settings.
func ConnectorOptions(cfg config.Config) appmessaging.Options {
	return appmessaging.Options{PublicURL: cfg.PublicURL}
}

// ChannelAgent is the agent the messaging channel hands messages to: the one of every channel.
func ChannelAgent(a *chat.Agent) appmessaging.Agent { return a }
