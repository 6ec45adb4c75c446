package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/ports"
)

var _ ports.Keys = (*Keys)(nil)

// Keys implements ports.Keys.
type Keys struct{ db *bun.DB }

// NewKeys returns the API key repository of db.
func NewKeys(db *bun.DB) *Keys { return &Keys{db: db} }

// Create stores a new key.
func (r *Keys) Create(ctx context.Context, k account.Key) error {
	if _, err := idb(ctx, r.db).NewInsert().Model(toKeyModel(k)).Exec(ctx); err != nil {
		return fmt.Errorf("create key: %w", err)
	}
	return nil
}

// ByHash finds a key, revoked or not, by the hash of its secret; not_found when none. It is the
// authentication lookup, so it is not scoped to an account.
func (r *Keys) ByHash(ctx context.Context, hash string) (account.Key, error) {
	return r.get(ctx, "hash = ?", hash)
}

// List returns the account's keys, oldest first.
func (r *Keys) List(ctx context.Context, accountID string) ([]account.Key, error) {
	var ms []keyModel
	if err := idb(ctx, r.db).NewSelect().Model(&ms).
		Where("account_id = ?", accountID).
		Order("created_at", "id").
		Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	keys := make([]account.Key, len(ms))
	for i := range ms {
		keys[i] = ms[i].domain()
	}
	return keys, nil
}

// Revoke marks the key revoked at at, unless it already was, and returns it; not_found when
// none. It is an admin call by key id.
func (r *Keys) Revoke(ctx context.Context, keyID string, at time.Time) (account.Key, error) {
	if _, err := idb(ctx, r.db).NewUpdate().Model((*keyModel)(nil)).
		Set("revoked_at = ?", dbTime(at)).
		Where("id = ?", keyID).
		Where("revoked_at IS NULL").
		Exec(ctx); err != nil {
		return account.Key{}, fmt.Errorf("revoke key: %w", err)
	}
	return r.get(ctx, "id = ?", keyID)
}

func (r *Keys) get(ctx context.Context, where string, arg any) (account.Key, error) {
	var m keyModel
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where(where, arg).Scan(ctx); err != nil {
		return account.Key{}, notFound(err, "key", "get key")
	}
	return m.domain(), nil
}
