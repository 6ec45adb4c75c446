package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/ports"
)

var _ ports.Idempotency = (*Idempotency)(nil)

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys"`

	AccountID   string    `bun:"account_id,pk"`
	Scope       string    `bun:"scope,pk"`
	Key         string    `bun:"idem_key,pk"`
	Route       string    `bun:"route"`
	BodyHash    string    `bun:"body_hash"`
	Status      int       `bun:"status"`
	ContentType string    `bun:"content_type"`
	Body        []byte    `bun:"body"`
	CreatedAt   time.Time `bun:"created_at"`
}

func (m idempotencyRow) record() idempotency.Record {
	return idempotency.Record{AccountID: m.AccountID, Scope: m.Scope, Key: m.Key, Route: m.Route, BodyHash: m.BodyHash,
		CreatedAt: domainTime(m.CreatedAt),
		Response:  idempotency.Response{Status: m.Status, ContentType: m.ContentType, Body: m.Body}}
}

// Idempotency implements ports.Idempotency.
type Idempotency struct{ db *bun.DB }

// NewIdempotency returns the repository of the keys of idempotent requests of db.
func NewIdempotency(db *bun.DB) *Idempotency { return &Idempotency{db: db} }

// reserveTries bounds Reserve's rounds: each round either inserts, finds a live record, or
// deletes a stale one (or finds the record gone), and another request would have to replace
// the record between every two statements for a round to end without an answer.
const reserveTries = 5

// Reserve inserts r unless a record holds its key (INSERT … ON CONFLICT DO NOTHING: one
// statement, which the primary key makes atomic); when one does, it reads it, and deletes it and
// tries again when it is stale. The common path, a new key, is one statement.
func (r *Idempotency) Reserve(ctx context.Context, rec idempotency.Record, expiredBefore, abandonedBefore time.Time) (idempotency.Record, bool, error) {
	m := idempotencyRow{AccountID: rec.AccountID, Scope: rec.Scope, Key: rec.Key, Route: rec.Route, BodyHash: rec.BodyHash,
		CreatedAt: dbTime(rec.CreatedAt)}
	db := idb(ctx, r.db)
	for range reserveTries {
		res, err := db.NewInsert().Model(&m).Column("account_id", "scope", "idem_key", "route", "body_hash", "created_at").
			On("CONFLICT (account_id, scope, idem_key) DO NOTHING").Exec(ctx)
		if err != nil {
			return idempotency.Record{}, false, fmt.Errorf("reserve idempotency key: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return idempotency.Record{}, false, fmt.Errorf("reserve idempotency key: %w", err)
		} else if n == 1 {
			return m.record(), true, nil
		}
		var got idempotencyRow
		err = db.NewSelect().Model(&got).Where("account_id = ?", rec.AccountID).Where("scope = ?", rec.Scope).
			Where("idem_key = ?", rec.Key).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			continue // released since the insert: try again
		}
		if err != nil {
			return idempotency.Record{}, false, fmt.Errorf("read idempotency key: %w", err)
		}
		stale := !got.CreatedAt.After(dbTime(expiredBefore)) || (got.Status == 0 && !got.CreatedAt.After(dbTime(abandonedBefore)))
		if !stale {
			return got.record(), false, nil
		}
		if _, err := db.NewDelete().Model((*idempotencyRow)(nil)).Where("account_id = ?", rec.AccountID).
			Where("scope = ?", rec.Scope).Where("idem_key = ?", rec.Key).
			WhereGroup(" AND ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
				return q.Where("created_at <= ?", dbTime(expiredBefore)).
					WhereGroup(" OR ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
						return q.Where("status = 0").Where("created_at <= ?", dbTime(abandonedBefore))
					})
			}).Exec(ctx); err != nil {
			return idempotency.Record{}, false, fmt.Errorf("delete stale idempotency key: %w", err)
		}
	}
	return idempotency.Record{}, false, fmt.Errorf("reserve idempotency key: the key changed hands %d times", reserveTries)
}

// Get returns the record of the account's scope and key.
func (r *Idempotency) Get(ctx context.Context, accountID, scope, key string) (idempotency.Record, error) {
	var m idempotencyRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("scope = ?", scope).
		Where("idem_key = ?", key).Scan(ctx); err != nil {
		return idempotency.Record{}, notFound(err, "idempotency key", "get idempotency key")
	}
	return m.record(), nil
}

// Complete stores the answer of the reservation rec.
func (r *Idempotency) Complete(ctx context.Context, rec idempotency.Record, resp idempotency.Response) error {
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	res, err := idb(ctx, r.db).NewUpdate().Model((*idempotencyRow)(nil)).
		Set("status = ?", resp.Status).Set("content_type = ?", resp.ContentType).Set("body = ?", body).
		Where("account_id = ?", rec.AccountID).Where("scope = ?", rec.Scope).Where("idem_key = ?", rec.Key).
		Where("created_at = ?", dbTime(rec.CreatedAt)).Where("status = 0").Exec(ctx)
	if err != nil {
		return fmt.Errorf("complete idempotency key: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return domain.NotFound("idempotency key")
	}
	return nil
}

// Release deletes the reservation rec while it has no answer.
func (r *Idempotency) Release(ctx context.Context, rec idempotency.Record) error {
	if _, err := idb(ctx, r.db).NewDelete().Model((*idempotencyRow)(nil)).
		Where("account_id = ?", rec.AccountID).Where("scope = ?", rec.Scope).Where("idem_key = ?", rec.Key).
		Where("created_at = ?", dbTime(rec.CreatedAt)).Where("status = 0").Exec(ctx); err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// Sweep deletes every account's records made at or before expiredBefore.
func (r *Idempotency) Sweep(ctx context.Context, expiredBefore time.Time) (int, error) {
	res, err := idb(ctx, r.db).NewDelete().Model((*idempotencyRow)(nil)).
		Where("created_at <= ?", dbTime(expiredBefore)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("sweep idempotency keys: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
