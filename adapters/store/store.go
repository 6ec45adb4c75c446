// Package store adapts the store ports to SQL databases through bun: one code base for Postgres
// (pgdialect, pgdriver) and SQLite (sqlitedialect, the pure-Go modernc driver). bun models live
// only here; mappers turn them into domain types and back.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/wire"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/ports"
)

// Set provides the repositories, each bound to its port. The *bun.DB comes from Open.
var Set = wire.NewSet(
	NewTx, wire.Bind(new(ports.Tx), new(*Tx)),
	NewAccounts, wire.Bind(new(ports.Accounts), new(*Accounts)),
	NewKeys, wire.Bind(new(ports.Keys), new(*Keys)),
	NewProfiles, wire.Bind(new(ports.Profiles), new(*Profiles)),
	NewUsage, wire.Bind(new(ports.Usage), new(*Usage)),
	NewOutbox, // bound to ports.Outbox by each program, which watches its writes (events.Watched)
	NewKnowledge, wire.Bind(new(ports.Knowledge), new(*Knowledge)),
	NewConversations, wire.Bind(new(ports.Conversations), new(*Conversations)),
	NewReplyJobs, wire.Bind(new(ports.ReplyJobs), new(*ReplyJobs)),
	NewSessions, wire.Bind(new(ports.Sessions), new(*Sessions)),
	NewBookings, wire.Bind(new(ports.Bookings), new(*Bookings)),
	NewWebhooks, wire.Bind(new(ports.Webhooks), new(*Webhooks)),
	NewDeliveries, wire.Bind(new(ports.Deliveries), new(*Deliveries)),
	NewConversions, wire.Bind(new(ports.Conversions), new(*Conversions)),
	NewNotifications, wire.Bind(new(ports.Notifications), new(*Notifications)),
	NewIdempotency, wire.Bind(new(ports.Idempotency), new(*Idempotency)),
	NewWidgets, wire.Bind(new(ports.Widgets), new(*Widgets)),
	NewSettings,
	NewConnections, wire.Bind(new(ports.Connections), new(*Connections)),
	NewInbox, wire.Bind(new(ports.Inbox), new(*Inbox)),
	NewPinger, wire.Bind(new(ports.Pinger), new(*Pinger)),
	NewPlugins, wire.Bind(new(ports.PluginRequests), new(*Plugins)), wire.Bind(new(ports.PluginSites), new(*Plugins)),
	wire.Bind(new(ports.PluginOrders), new(*Plugins)),
	NewOwners, wire.Bind(new(ports.Owners), new(*Owners)),
	NewPushSubscriptions, wire.Bind(new(ports.PushSubscriptions), new(*PushSubscriptions)),
)

var (
	_ ports.Tx     = (*Tx)(nil)
	_ ports.Pinger = (*Pinger)(nil)
)

// txKey is the context key of the transaction open on db: a transaction never leaks to another
// database.
type txKey struct{ db *bun.DB }

// idb returns the transaction open on db in ctx, or db itself.
func idb(ctx context.Context, db *bun.DB) bun.IDB {
	if tx, ok := ctx.Value(txKey{db}).(bun.Tx); ok {
		return tx
	}
	return db
}

// inTx runs fn in the transaction of ctx, or in a new one that commits when fn returns nil and
// rolls back on an error or a panic (which goes on).
func inTx(ctx context.Context, db *bun.DB, fn func(ctx context.Context, tx bun.IDB) error) error {
	if tx, ok := ctx.Value(txKey{db}).(bun.Tx); ok {
		return fn(ctx, tx)
	}
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(context.WithValue(ctx, txKey{db}, tx), tx)
	})
}

// Tx implements ports.Tx: the transaction travels in the context to every repository of the
// same database.
type Tx struct{ db *bun.DB }

// NewTx returns the transaction runner of db.
func NewTx(db *bun.DB) *Tx { return &Tx{db: db} }

// InTx runs fn in a transaction, or in the caller's when ctx already carries one.
func (t *Tx) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return inTx(ctx, t.db, func(ctx context.Context, _ bun.IDB) error { return fn(ctx) })
}

// InSnapshot runs fn in a read-only transaction of one snapshot: REPEATABLE READ on Postgres (its
// snapshot is taken at the first statement), a deferred transaction on SQLite (the writer gate
// is not taken: see gatedConn.BeginTx), or in the caller's transaction when ctx carries one.
func (t *Tx) InSnapshot(ctx context.Context, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{t.db}).(bun.Tx); ok {
		return fn(ctx)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if t.db.Dialect().Name() == dialect.PG {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return t.db.RunInTx(ctx, opts, func(ctx context.Context, tx bun.Tx) error {
		return fn(context.WithValue(ctx, txKey{t.db}, tx))
	})
}

// Pinger implements ports.Pinger for the database.
type Pinger struct{ db *bun.DB }

// NewPinger returns a Pinger of db.
func NewPinger(db *bun.DB) *Pinger { return &Pinger{db: db} }

// Ping checks that the database answers.
func (p *Pinger) Ping(ctx context.Context) error {
	if err := p.db.PingContext(ctx); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// notFound turns sql.ErrNoRows into the not_found error of what, and wraps any other error.
func notFound(err error, what, op string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return domain.NotFound(what)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// lockForUpdate locks the selected row until the transaction ends. SQLite needs no row lock: its
// transactions begin immediate and so hold the database's write lock.
func lockForUpdate(q *bun.SelectQuery, db bun.IDB) *bun.SelectQuery {
	if db.Dialect().Name() == dialect.PG {
		return q.For("NO KEY UPDATE")
	}
	return q
}

// dbTime is how a time is stored: UTC, to the microsecond (what Postgres keeps).
func dbTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Microsecond)
}

// domainTime is how a stored time comes back: UTC, zero for NULL.
func domainTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}
