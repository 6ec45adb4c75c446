//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/console"
	"github.com/svcagent/svc/adapters/crawl"
	"github.com/svcagent/svc/adapters/httpapi"
	"github.com/svcagent/svc/adapters/mcpserver"
	"github.com/svcagent/svc/adapters/model/local"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/app/owners"
	"github.com/svcagent/svc/app/plugins"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// common is svc-api in every setup: the use cases, the HTTP adapter, the store's repositories
// (over the *bun.DB each injector opens), the clock, the crawler and the built-in embedder.
var common = wire.NewSet(
	boot.Plans, boot.HTTPOptions, boot.EventSet,
	store.Set, boot.OutboxSet, clock.Set, httpapi.Set,
	boot.ConsoleOptions, console.Set, owners.New, wire.Bind(new(httpapi.ConnectPages), new(*console.Console)),
	boot.MCPOptions, mcpserver.Set, wire.Bind(new(httpapi.MCP), new(*mcpserver.Server)),
	events.NewPublisher, events.NewRelay, events.NewProcessor, events.NewNudges,
	wire.Bind(new(ports.Publisher), new(*events.Publisher)),
	wire.Bind(new(ports.Handler), new(*events.Processor)),
	accounts.NewAccess, accounts.NewAdmin, accounts.NewLedger, accounts.NewOverviews,
	accounts.NewDevelopers, wire.Bind(new(accounts.Notifier), new(*notifications.Notifier)),
	profiles.New,
	boot.CrawlOptions, crawl.Set, local.Set,
	knowledge.NewBrain,
	boot.ChatOptions, sessions.New,
	conversions.New, wire.Bind(new(conversions.Notifier), new(*notifications.Notifier)),
	chat.NewAgent, wire.Struct(new(chat.Deps), "*"),
	wire.Bind(new(chat.Brain), new(*knowledge.Brain)),
	wire.Bind(new(chat.Ledger), new(*accounts.Ledger)),
	boot.AssistantSet,
	wire.Bind(new(assistant.Ledger), new(*accounts.Ledger)),
	wire.Bind(new(assistant.Profiles), new(*profiles.Service)),
	wire.Bind(new(assistant.Brain), new(*knowledge.Brain)),
	wire.Bind(new(compat.Owner), new(*assistant.Service)),
	boot.WidgetOptions, widgets.New, wire.Struct(new(widgets.Deps), "*"),
	wire.Bind(new(widgets.Agent), new(*chat.Agent)), wire.Bind(new(widgets.Channels), new(*accounts.Access)),
	plugins.New, wire.Struct(new(plugins.Deps), "*"),
	idempotent.New,
	wire.Bind(new(plugins.Brain), new(*knowledge.Brain)), wire.Bind(new(plugins.Conversions), new(*conversions.Service)),
	wire.Bind(new(plugins.Channels), new(*accounts.Access)),
	wire.Struct(new(program), "*"),
)

// embedded is the embedded environment: the in-process queue, run by svc-api itself, and the
// in-memory rate limiter; readiness is the store's.
var embedded = wire.NewSet(
	boot.InprocOptions, inproc.Set, wire.Bind(new(jobs), new(*inproc.Queue)),
	ratelimit.MemorySet,
	boot.EmbeddedReadiness, boot.EmbeddedCollectors, noStartCheck,
)

// production is the production environment: asynq on Redis, whose tasks svc-worker runs, and the
// Redis rate limiter (counting in the process while Redis cannot be reached); readiness is the
// store's, and Redis's as a degradation.
var production = wire.NewSet(
	boot.RedisConnOpt, boot.AsynqOptions,
	asynqq.NewClient, asynqq.NewInspector, asynqq.NewQueue, wire.Bind(new(ports.Queue), new(*asynqq.Queue)),
	newNoJobs, wire.Bind(new(jobs), new(noJobs)),
	boot.Redis, wire.Bind(new(redis.UniversalClient), new(*redis.Client)), ratelimit.FallbackSet, boot.RateLimitOptions,
	boot.NewRedisPinger, boot.ProductionReadiness, boot.ProductionCollectors, redisStartCheck,
)

// builtin is the built-in engine: it writes the agent's replies and answers svc-assistant; the
// model svc answers 503 model_unavailable.
var builtin = wire.NewSet(boot.BuiltinModel, boot.BuiltinCompat, boot.BuiltinAssistant, boot.BuiltinImages)

// upstream is the upstream model at SVC_MODEL_BASE_URL: it writes the agent's replies and answers
// the model-compatible endpoints.
var upstream = wire.NewSet(boot.UpstreamModel, boot.UpstreamCompat, boot.UpstreamAssistant, boot.UpstreamImages)

// initEmbeddedSQLite assembles svc-api embedded on SQLite (migrated at start) with the built-in
// engine: the default, nothing else needed.
func initEmbeddedSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, embedded, boot.MigratedSQLite, builtin)
	return nil, nil, nil
}

// initEmbeddedSQLiteUpstream assembles svc-api embedded on SQLite (migrated at start) with the
// upstream model.
func initEmbeddedSQLiteUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, embedded, boot.MigratedSQLite, upstream)
	return nil, nil, nil
}

// initEmbeddedPostgres assembles svc-api embedded on PostgreSQL (migrated at start) with the
// built-in engine.
func initEmbeddedPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, embedded, boot.MigratedPostgres, builtin)
	return nil, nil, nil
}

// initEmbeddedPostgresUpstream assembles svc-api embedded on PostgreSQL (migrated at start) with
// the upstream model.
func initEmbeddedPostgresUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, embedded, boot.MigratedPostgres, upstream)
	return nil, nil, nil
}

// initProductionPostgres assembles svc-api in production on PostgreSQL (migrated by svcctl
// migrate) with the built-in engine.
func initProductionPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, production, boot.CurrentPostgres, builtin)
	return nil, nil, nil
}

// initProductionPostgresUpstream assembles svc-api in production on PostgreSQL (migrated by
// svcctl migrate) with the upstream model.
func initProductionPostgresUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, production, boot.CurrentPostgres, upstream)
	return nil, nil, nil
}

// initProductionSQLite assembles svc-api in production on SQLite (migrated by svcctl migrate)
// with the built-in engine.
func initProductionSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, production, boot.CurrentSQLite, builtin)
	return nil, nil, nil
}

// initProductionSQLiteUpstream assembles svc-api in production on SQLite (migrated by svcctl
// migrate) with the upstream model.
func initProductionSQLiteUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, production, boot.CurrentSQLite, upstream)
	return nil, nil, nil
}
