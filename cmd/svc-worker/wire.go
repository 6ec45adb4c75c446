//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// initWorker assembles svc-worker: the store, asynq on Redis, the processor and the relay.
func initWorker(ctx context.Context, cfg config.Config, log *zap.Logger) (*program, func(), error) {
	wire.Build(
		boot.DB, boot.Handlers, boot.RedisConnOpt, boot.AsynqOptions,
		store.Set, clock.Set, asynqq.Set,
		events.NewProcessor, events.NewRelay,
		wire.Bind(new(ports.Handler), new(*events.Processor)),
		wire.Struct(new(program), "*"),
	)
	return nil, nil, nil
}
