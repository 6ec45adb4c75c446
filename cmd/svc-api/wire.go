//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/crawl"
	"github.com/svcagent/svc/adapters/httpapi"
	"github.com/svcagent/svc/adapters/model/local"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/agents"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/app/notices"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

var common = wire.NewSet(
	boot.Plans, boot.HTTPOptions, boot.EventSet,
	store.Set, boot.OutboxSet, clock.Set, httpapi.Set,
	events.NewPublisher, events.NewRelay, events.NewProcessor, events.NewNudges,
	wire.Bind(new(ports.Publisher), new(*events.Publisher)),
	wire.Bind(new(ports.Handler), new(*events.Processor)),
	accounts.NewAccess, accounts.NewAdmin, accounts.NewLedger, accounts.NewOverviews,
	agents.NewProfiles,
	boot.CrawlOptions, crawl.Set, local.Set,
	knowledge.NewBrain,
	boot.Upstream, boot.Replier, boot.ChatOptions, sessions.New,
	conversions.New, wire.Bind(new(conversions.Notifier), new(*notices.Notifier)),
	chat.NewAgent, wire.Struct(new(chat.Deps), "*"),
	wire.Bind(new(chat.Brain), new(*knowledge.Brain)),
	wire.Bind(new(chat.Ledger), new(*accounts.Ledger)),
	boot.Models,
	wire.Struct(new(program), "*"),
)

// initEmbedded assembles svc-api with SQLite (or the configured store), the in-process queue and
// the in-memory rate limiter.
func initEmbedded(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, boot.MigratedDB,
		boot.InprocOptions, inproc.Set, wire.Bind(new(jobs), new(*inproc.Queue)),
		ratelimit.MemorySet,
		boot.EmbeddedReadiness, boot.EmbeddedCollectors,
	)
	return nil, nil, nil
}

// initProduction assembles svc-api with the configured store, asynq on Redis and the Redis rate
// limiter (counting in the process while Redis cannot be reached); svc-worker runs the tasks.
func initProduction(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(common, boot.DB,
		boot.RedisConnOpt, boot.AsynqOptions,
		asynqq.NewClient, asynqq.NewInspector, asynqq.NewQueue, wire.Bind(new(ports.Queue), new(*asynqq.Queue)),
		newNoJobs, wire.Bind(new(jobs), new(noJobs)),
		boot.Redis, wire.Bind(new(redis.UniversalClient), new(*redis.Client)), ratelimit.FallbackSet,
		boot.NewRedisPinger, boot.ProductionReadiness, boot.ProductionCollectors,
	)
	return nil, nil, nil
}
