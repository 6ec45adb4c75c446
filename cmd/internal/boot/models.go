package boot

import (
	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/model/local"
	"github.com/svcagent/svc/adapters/model/openai"
	"github.com/svcagent/svc/adapters/model/tokens"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// BuiltinModel has the built-in retrieval engine write the agent's replies (no
// SVC_MODEL_BASE_URL).
var BuiltinModel = wire.NewSet(local.NewEngine, wire.Bind(new(ports.Replier), new(*local.Engine)))

// UpstreamModel has the OpenAI-compatible upstream at SVC_MODEL_BASE_URL write the agent's
// replies.
var UpstreamModel = wire.NewSet(Upstream, ModelReplier, wire.Bind(new(ports.Replier), new(*chat.ModelReplier)))

// Upstream is the process's one client of the upstream, shared by the agent and the
// model-compatible endpoints.
func Upstream(cfg config.Config, log *zap.Logger) *openai.Client {
	return openai.New(openai.Options{BaseURL: cfg.ModelBaseURL, APIKey: cfg.ModelAPIKey, Model: cfg.ModelName,
		EmbeddingModel: cfg.ModelEmbeddingName, ImageModel: cfg.ModelImageName}, log.Named("model"))
}

// ModelReplier writes the agent's replies with the upstream's SVC_MODEL_NAME.
func ModelReplier(cfg config.Config, up *openai.Client) *chat.ModelReplier {
	return chat.NewModelReplier(up, cfg.ModelName)
}

// BuiltinCompat assembles the model-compatible endpoints without an upstream: svc answers 503
// model_unavailable, svc-assistant is the owner's assistant (o: its command grammar, for the
// owner's records) and the built-in engine, and the embeddings are the built-in
// embedder's (the Brain's own).
func BuiltinCompat(cfg config.Config, e *local.Engine, emb *local.Embedder, l *accounts.Ledger, p *profiles.Service,
	b *knowledge.Brain, o compat.Owner, u ports.Usage, clock ports.Clock) *compat.Service {
	d := compatDeps(l, p, b, o, u, clock)
	d.Engine, d.Embedder = e, emb
	d.Tokens = tokens.NewLazy() // the built-in engine's process mostly answers POST /v1/chat
	return compat.New(d, compat.Options{UpstreamModel: cfg.ModelName})
}

// UpstreamCompat assembles the model-compatible endpoints with an upstream: it answers svc and
// svc-assistant and makes the embeddings. The tokenizer is loaded when first needed: a relayed
// reply is counted by the upstream's own usage, so only a reply without it, an embeddings
// request or input given as token ids asks for it, which spares the relay's process the
// encoding's 24 MB of heap (and the collector's headroom over them) until then.
func UpstreamCompat(cfg config.Config, up *openai.Client, l *accounts.Ledger, p *profiles.Service,
	b *knowledge.Brain, o compat.Owner, u ports.Usage, clock ports.Clock) *compat.Service {
	d := compatDeps(l, p, b, o, u, clock)
	d.Upstream, d.Embedder, d.Tokens = up, up, tokens.NewLazy()
	return compat.New(d, compat.Options{UpstreamModel: cfg.ModelName})
}

func compatDeps(l *accounts.Ledger, p *profiles.Service, b *knowledge.Brain, o compat.Owner, u ports.Usage, clock ports.Clock) compat.Deps {
	return compat.Deps{Ledger: l, Profiles: p, Brain: b, Owner: o, Usage: u, Clock: clock}
}
