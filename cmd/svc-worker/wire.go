//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/crawl"
	"github.com/svcagent/svc/adapters/model/local"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// worker is svc-worker in every setup (always the production environment): asynq on Redis, the
// processor, the relay and the reply sweep, the store's repositories (over the *bun.DB each
// injector opens), the clock, the crawler and the built-in embedder.
var worker = wire.NewSet(
	boot.EventSet, boot.RedisConnOpt, boot.AsynqOptions,
	store.Set, boot.OutboxSet, clock.Set, asynqq.Set,
	events.NewProcessor, events.NewRelay, events.NewPublisher, events.NewNudges,
	wire.Bind(new(ports.Handler), new(*events.Processor)),
	boot.Plans, boot.CrawlOptions, crawl.Set, local.Set,
	wire.Bind(new(ports.Publisher), new(*events.Publisher)),
	accounts.NewLedger,
	knowledge.NewBrain,
	boot.ChatOptions,
	chat.NewAgent, wire.Struct(new(chat.Deps), "*"),
	idempotent.New, // the sweep of expired idempotency keys
	// the agent's reads of the assistant's conversations (the API's); the worker makes none
	store.NewAssistantHistory, wire.Bind(new(ports.AssistantHistory), new(*store.AssistantHistory)),
	wire.Bind(new(chat.Brain), new(*knowledge.Brain)),
	wire.Bind(new(chat.Ledger), new(*accounts.Ledger)),
	wire.Struct(new(program), "*"),
)

// initWorkerPostgres assembles svc-worker on PostgreSQL with the built-in engine.
func initWorkerPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(worker, boot.CurrentPostgres, boot.BuiltinModel)
	return nil, nil, nil
}

// initWorkerPostgresUpstream assembles svc-worker on PostgreSQL with the upstream model.
func initWorkerPostgresUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(worker, boot.CurrentPostgres, boot.UpstreamModel)
	return nil, nil, nil
}

// initWorkerSQLite assembles svc-worker on SQLite with the built-in engine.
func initWorkerSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(worker, boot.CurrentSQLite, boot.BuiltinModel)
	return nil, nil, nil
}

// initWorkerSQLiteUpstream assembles svc-worker on SQLite with the upstream model.
func initWorkerSQLiteUpstream(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(worker, boot.CurrentSQLite, boot.UpstreamModel)
	return nil, nil, nil
}
