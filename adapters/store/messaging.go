package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/ports"
)

var (
	_ ports.Connections = (*Connections)(nil)
	_ ports.Inbox       = (*Inbox)(nil)
)

type connectionRow struct {
	bun.BaseModel `bun:"table:messaging_connections"`

	AccountID     string    `bun:"account_id,pk"`
	App           string    `bun:"app,pk"`
	Hook          string    `bun:"hook"`
	PhoneNumberID string    `bun:"phone_number_id"`
	Sealed        []byte    `bun:"sealed"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

func (m connectionRow) domain() messaging.Connection {
	return messaging.Connection{AccountID: m.AccountID, App: messaging.App(m.App), Hook: m.Hook, PhoneNumberID: m.PhoneNumberID,
		Sealed: m.Sealed, CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}
}

// Connections implements ports.Connections.
type Connections struct{ db *bun.DB }

// NewConnections returns the messaging connections of db.
func NewConnections(db *bun.DB) *Connections { return &Connections{db: db} }

// Save stores c, replacing the account's connection of the same app (its created_at is kept).
func (r *Connections) Save(ctx context.Context, c messaging.Connection) error {
	m := &connectionRow{AccountID: c.AccountID, App: string(c.App), Hook: c.Hook, PhoneNumberID: c.PhoneNumberID,
		Sealed: c.Sealed, CreatedAt: dbTime(c.CreatedAt), UpdatedAt: dbTime(c.UpdatedAt)}
	_, err := idb(ctx, r.db).NewInsert().Model(m).
		On("CONFLICT (account_id, app) DO UPDATE").
		Set("hook = EXCLUDED.hook").
		Set("phone_number_id = EXCLUDED.phone_number_id").
		Set("sealed = EXCLUDED.sealed").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("save %s connection: %w", c.App, err)
	}
	return nil
}

// Get returns the account's connection of app.
func (r *Connections) Get(ctx context.Context, accountID string, app messaging.App) (messaging.Connection, error) {
	var m connectionRow
	err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("app = ?", string(app)).Scan(ctx)
	if err != nil {
		return messaging.Connection{}, notFound(err, "connection", "get connection")
	}
	return m.domain(), nil
}

// ByHook returns the connection of app whose webhook URL carries hook.
func (r *Connections) ByHook(ctx context.Context, app messaging.App, hook string) (messaging.Connection, error) {
	var m connectionRow
	err := idb(ctx, r.db).NewSelect().Model(&m).Where("app = ?", string(app)).Where("hook = ?", hook).Scan(ctx)
	if err != nil {
		return messaging.Connection{}, notFound(err, "connection", "find connection")
	}
	return m.domain(), nil
}

type inboxRow struct {
	bun.BaseModel `bun:"table:messaging_inbox"`

	AccountID  string    `bun:"account_id,pk"`
	Key        string    `bun:"key,pk"`
	ReceivedAt time.Time `bun:"received_at"`
}

// Inbox implements ports.Inbox.
type Inbox struct{ db *bun.DB }

// NewInbox returns the inbound-message record of db.
func NewInbox(db *bun.DB) *Inbox { return &Inbox{db: db} }

// Record stores the account's key unless it is there from since on: one insert that, on a
// conflict, dates again a record made before since and does nothing to a later one, so that of
// concurrent calls exactly one reports fresh.
func (r *Inbox) Record(ctx context.Context, accountID, key string, at, since time.Time) (bool, error) {
	res, err := idb(ctx, r.db).NewInsert().Model(&inboxRow{AccountID: accountID, Key: key, ReceivedAt: dbTime(at)}).
		On("CONFLICT (account_id, key) DO UPDATE").
		Set("received_at = EXCLUDED.received_at").
		Where("?TableAlias.received_at < ?", dbTime(since)).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("record inbound message: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record inbound message: %w", err)
	}
	return n == 1, nil
}

// Sweep deletes every account's records made before before.
func (r *Inbox) Sweep(ctx context.Context, before time.Time) (int, error) {
	res, err := idb(ctx, r.db).NewDelete().Model((*inboxRow)(nil)).
		Where("received_at < ?", dbTime(before)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("sweep inbound messages: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
