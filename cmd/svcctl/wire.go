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

// admin is svcctl on any store: the store's repositories (over the *bun.DB each injector opens)
// and the account use cases.
var admin = wire.NewSet(
	boot.Plans,
	store.Set, boot.OutboxSet, clock.Set,
	events.NewPublisher,
	wire.Bind(new(ports.Publisher), new(*events.Publisher)),
	accounts.NewAdmin, accounts.NewLedger, accounts.NewOverviews,
	wire.Struct(new(ctl), "*"),
)

// initCtlSQLite assembles svcctl on SQLite.
func initCtlSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*ctl, func(), error) {
	wire.Build(admin, boot.SQLite)
	return nil, nil, nil
}

// initCtlPostgres assembles svcctl on PostgreSQL.
func initCtlPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*ctl, func(), error) {
	wire.Build(admin, boot.Postgres)
	return nil, nil, nil
}
