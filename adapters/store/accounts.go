package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/ports"
)

var _ ports.Accounts = (*Accounts)(nil)

// Accounts implements ports.Accounts.
type Accounts struct{ db *bun.DB }

// NewAccounts returns the account repository of db.
func NewAccounts(db *bun.DB) *Accounts { return &Accounts{db: db} }

// Create stores a new account.
func (r *Accounts) Create(ctx context.Context, a account.Account) error {
	m, err := toAccountRow(a)
	if err != nil {
		return err
	}
	if _, err := idb(ctx, r.db).NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("create account: %w", err)
	}
	return nil
}

// Get returns the account; not_found when there is none.
func (r *Accounts) Get(ctx context.Context, accountID string) (account.Account, error) {
	return getAccount(ctx, idb(ctx, r.db).NewSelect(), accountID)
}

// Update loads the account, lets fn change it and saves it, in one transaction. The id and the
// creation time stay as they were.
func (r *Accounts) Update(ctx context.Context, accountID string, fn func(a *account.Account) error) error {
	return watchedWrite(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		a, err := getAccount(ctx, lockForUpdate(tx.NewSelect(), tx), accountID)
		if err != nil {
			return err
		}
		if err := fn(&a); err != nil {
			return err
		}
		m, err := toAccountRow(a)
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(m).
			ExcludeColumn("id", "created_at").
			Where("id = ?", accountID).
			Exec(ctx); err != nil {
			return fmt.Errorf("update account: %w", err)
		}
		return nil
	})
}

// Count returns the number of accounts.
func (r *Accounts) Count(ctx context.Context) (int, error) {
	n, err := idb(ctx, r.db).NewSelect().Model((*accountRow)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count accounts: %w", err)
	}
	return int(n), nil
}

// List returns up to limit accounts whose id sorts after the given one, in id order.
func (r *Accounts) List(ctx context.Context, after string, limit int) ([]account.Account, error) {
	var ms []accountRow
	q := idb(ctx, r.db).NewSelect().Model(&ms).Order("id").Limit(int64(limit))
	if after != "" {
		q = q.Where("id > ?", after)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list accounts: %w", err)
	}
	out := make([]account.Account, 0, len(ms))
	for _, m := range ms {
		a, err := m.domain()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func getAccount(ctx context.Context, q *bun.SelectQuery, accountID string) (account.Account, error) {
	var m accountRow
	if err := q.Model(&m).Where("id = ?", accountID).Scan(ctx); err != nil {
		return account.Account{}, notFound(err, "account", "get account")
	}
	return m.domain()
}
