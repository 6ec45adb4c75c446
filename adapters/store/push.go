package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/ports"
)

var _ ports.PushSubscriptions = (*PushSubscriptions)(nil)

type pushRow struct {
	bun.BaseModel `bun:"table:push_subscriptions"`

	ID        string    `bun:"id,pk"`
	AccountID string    `bun:"account_id"`
	Endpoint  string    `bun:"endpoint"`
	P256dh    string    `bun:"p256dh"`
	Auth      string    `bun:"auth"`
	CreatedAt time.Time `bun:"created_at"`
}

func (m pushRow) subscription() push.Subscription {
	return push.Subscription{ID: m.ID, AccountID: m.AccountID, Endpoint: m.Endpoint, P256dh: m.P256dh, Auth: m.Auth,
		CreatedAt: domainTime(m.CreatedAt)}
}

// PushSubscriptions implements ports.PushSubscriptions.
type PushSubscriptions struct{ db *bun.DB }

// NewPushSubscriptions returns the push subscription repository of db.
func NewPushSubscriptions(db *bun.DB) *PushSubscriptions { return &PushSubscriptions{db: db} }

// Save upserts s on (account, endpoint) and deletes the account's oldest past limit. Saves for
// one account queue on its row (SQLite's transactions are serialized already), so two never
// leave more than limit together.
func (r *PushSubscriptions) Save(ctx context.Context, s push.Subscription, limit int) (push.Subscription, error) {
	m := pushRow{ID: s.ID, AccountID: s.AccountID, Endpoint: s.Endpoint, P256dh: s.P256dh, Auth: s.Auth, CreatedAt: dbTime(s.CreatedAt)}
	var stored pushRow
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var id string
		q := tx.NewSelect().Model((*accountRow)(nil)).Column("id").Where("id = ?", s.AccountID)
		if err := lockForUpdate(q, tx).Scan(ctx, &id); err != nil {
			return notFound(err, "account", "save push subscription")
		}
		if _, err := tx.NewInsert().Model(&m).
			On("CONFLICT (account_id, endpoint) DO UPDATE").
			Set("p256dh = EXCLUDED.p256dh").Set("auth = EXCLUDED.auth").Set("created_at = EXCLUDED.created_at").
			Returning("*").Exec(ctx, &stored); err != nil {
			return fmt.Errorf("save push subscription: %w", err)
		}
		keep := tx.NewSelect().Model((*pushRow)(nil)).Column("id").Where("account_id = ?", s.AccountID).
			OrderExpr("created_at DESC, id DESC").Limit(int64(limit))
		if _, err := tx.NewDelete().Model((*pushRow)(nil)).Where("account_id = ?", s.AccountID).
			Where("id NOT IN (?)", keep).Exec(ctx); err != nil {
			return fmt.Errorf("trim push subscriptions: %w", err)
		}
		return nil
	})
	if err != nil {
		return push.Subscription{}, err
	}
	return stored.subscription(), nil
}

// Get returns one subscription of the account.
func (r *PushSubscriptions) Get(ctx context.Context, accountID, id string) (push.Subscription, error) {
	var m pushRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", id).Scan(ctx); err != nil {
		return push.Subscription{}, notFound(err, "push subscription", "get push subscription")
	}
	return m.subscription(), nil
}

// List returns the account's subscriptions, newest first.
func (r *PushSubscriptions) List(ctx context.Context, accountID string) ([]push.Subscription, error) {
	var ms []pushRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).
		OrderExpr("created_at DESC, id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list push subscriptions: %w", err)
	}
	out := make([]push.Subscription, len(ms))
	for i, m := range ms {
		out[i] = m.subscription()
	}
	return out, nil
}

// Delete removes one subscription of the account.
func (r *PushSubscriptions) Delete(ctx context.Context, accountID, id string) error {
	res, err := idb(ctx, r.db).NewDelete().Model((*pushRow)(nil)).Where("account_id = ?", accountID).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete push subscription: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return domain.NotFound("push subscription")
	}
	return nil
}
