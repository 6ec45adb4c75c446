//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/ports"
)

// initCtl assembles svcctl: the store and the account use cases.
func initCtl(ctx context.Context, cfg config.Config, log *zap.Logger) (*ctl, func(), error) {
	wire.Build(
		boot.DB, boot.Plans,
		store.Set, boot.OutboxSet, clock.Set,
		events.NewPublisher,
		wire.Bind(new(ports.Publisher), new(*events.Publisher)),
		accounts.NewAdmin, accounts.NewLedger, accounts.NewOverviews,
		wire.Struct(new(ctl), "*"),
	)
	return nil, nil, nil
}
