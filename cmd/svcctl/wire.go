//go:build wireinject

package main

import (
	"context"

	"github.com/google/wire"
	"github.com/uptrace/bun"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/app/owners"
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
	owners.NewPasswords,
	wire.Struct(new(ctl), "*"),
)

// initConnector assembles what connects a messaging app, over the database svcctl opened: only
// the command that needs it reads the vault's key (which migrate must not, on an empty database).
func initConnector(ctx context.Context, cfg config.Config, log *zap.Logger, db *bun.DB) (*messaging.Connector, error) {
	wire.Build(boot.ConnectorSet, clock.Set,
		store.NewAccounts, wire.Bind(new(ports.Accounts), new(*store.Accounts)),
		store.NewConnections, wire.Bind(new(ports.Connections), new(*store.Connections)),
		store.NewSettings)
	return nil, nil
}

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
