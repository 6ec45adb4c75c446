package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/idempotency"
)

//go:generate go tool mockgen -source=idempotency.go -destination=mock/idempotency.go -package=mock

// Idempotency stores the keys of idempotent requests (idempotency.Record), one per account,
// scope and key. Every method but Sweep is scoped to the account.
type Idempotency interface {
	// Reserve stores r when its account, scope and key hold no record, or only a stale one (made
	// at or before expiredBefore, or without an answer and made at or before abandonedBefore,
	// which it replaces), and reports reserved true. Otherwise it returns the record there and
	// false. It is atomic: of any number of concurrent calls with the same account, scope and key,
	// exactly one reserves.
	Reserve(ctx context.Context, r idempotency.Record, expiredBefore, abandonedBefore time.Time) (stored idempotency.Record, reserved bool, err error)
	// Get returns the record of the account's scope and key; not_found when none.
	Get(ctx context.Context, accountID, scope, key string) (idempotency.Record, error)
	// Complete stores the answer of the reservation r (made at r.CreatedAt); not_found when it is
	// gone.
	Complete(ctx context.Context, r idempotency.Record, resp idempotency.Response) error
	// Release deletes the reservation r (made at r.CreatedAt) when it has no answer yet, so that
	// the key is free; releasing one that is gone does nothing.
	Release(ctx context.Context, r idempotency.Record) error
	// Sweep deletes the records of every account made at or before expiredBefore and returns how
	// many it deleted.
	Sweep(ctx context.Context, expiredBefore time.Time) (int, error)
}
