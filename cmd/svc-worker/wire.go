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
	"github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// initWorker assembles svc-worker: the store, asynq on Redis, the processor and the relay.
func initWorker(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(
		boot.DB, boot.EventSet, boot.RedisConnOpt, boot.AsynqOptions,
		store.Set, boot.OutboxSet, clock.Set, asynqq.Set,
		events.NewProcessor, events.NewRelay, events.NewPublisher, events.NewNudges,
		wire.Bind(new(ports.Handler), new(*events.Processor)),
		boot.Plans, boot.CrawlOptions, crawl.Set, local.Set,
		wire.Bind(new(ports.Publisher), new(*events.Publisher)),
		accounts.NewLedger,
		knowledge.NewBrain,
		boot.Upstream, boot.Replier, boot.ChatOptions,
		chat.NewAgent, wire.Struct(new(chat.Deps), "*"),
		wire.Bind(new(chat.Brain), new(*knowledge.Brain)),
		wire.Bind(new(chat.Ledger), new(*accounts.Ledger)),
		wire.Struct(new(program), "*"),
	)
	return nil, nil, nil
}
