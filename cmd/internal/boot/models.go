package boot

import (
	"github.com/svcagent/svc/adapters/model/local"
	"github.com/svcagent/svc/adapters/model/openai"
	"github.com/svcagent/svc/adapters/model/tokens"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/agents"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/models"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// Models assembles the model-compatible endpoints. With SVC_MODEL_BASE_URL set, the upstream
// answers svc and svc-assistant and makes the embeddings; without it, svc answers 503
// model_unavailable, svc-assistant is the built-in engine and the embeddings are the built-in
// embedder's (the Brain's own).
func Models(cfg config.Config, up *openai.Client, l *accounts.Ledger, p *agents.Profiles, b *knowledge.Brain,
	u ports.Usage, clock ports.Clock, emb *local.Embedder) *models.Service {
	d := models.Deps{Engine: local.NewEngine(), Embedder: emb, Tokens: tokens.New(), Ledger: l, Profiles: p, Brain: b,
		Usage: u, Clock: clock}
	if up != nil {
		d.Upstream, d.Embedder = up, up
	}
	return models.New(d, models.Options{UpstreamModel: cfg.ModelName})
}
