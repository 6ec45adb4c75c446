package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/owner"
	"github.com/svcagent/svc/ports"
)

var _ ports.Owners = (*Owners)(nil)

// Owners implements ports.Owners.
type Owners struct{ db *bun.DB }

// NewOwners returns the owners' credential and session repository of db.
func NewOwners(db *bun.DB) *Owners { return &Owners{db: db} }

type ownerCredentialRow struct {
	bun.BaseModel `bun:"table:owner_credentials"`

	AccountID    string    `bun:"account_id,pk"`
	Email        string    `bun:"email"`
	PasswordHash string    `bun:"password_hash"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

type ownerSessionRow struct {
	bun.BaseModel `bun:"table:owner_sessions"`

	Hash      string    `bun:"hash,pk"`
	AccountID string    `bun:"account_id"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
}

// SetCredential stores the account's credential, replacing the one it had, in one transaction
// that first checks that no other account's credential has the e-mail (the unique index stops a
// concurrent one).
func (r *Owners) SetCredential(ctx context.Context, c owner.Credential) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		// Writers of the same e-mail or the same account take turns, so that the check below and
		// the upsert are one step (SQLite's write lock already makes them so).
		if tx.Dialect().Name() == dialect.PG {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext(?))", "owner_email:"+c.Email); err != nil {
				return fmt.Errorf("set owner credential: %w", err)
			}
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext(?))", "owner_account:"+c.AccountID); err != nil {
				return fmt.Errorf("set owner credential: %w", err)
			}
		}
		taken, err := tx.NewSelect().Model((*ownerCredentialRow)(nil)).
			Where("email = ? AND account_id <> ?", c.Email, c.AccountID).Exists(ctx)
		if err != nil {
			return fmt.Errorf("set owner credential: %w", err)
		}
		if taken {
			return domain.Invalid("email", "another account's owner signs in with this e-mail")
		}
		m := ownerCredentialRow{AccountID: c.AccountID, Email: c.Email, PasswordHash: c.Hash, UpdatedAt: dbTime(c.UpdatedAt)}
		if _, err := tx.NewInsert().Model(&m).
			On("CONFLICT (account_id) DO UPDATE").
			Set("email = EXCLUDED.email, password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at").
			Exec(ctx); err != nil {
			return fmt.Errorf("set owner credential: %w", err)
		}
		return nil
	})
}

// Credential finds a credential by e-mail; not_found when none. It is the sign-in lookup, so it
// is not scoped to an account.
func (r *Owners) Credential(ctx context.Context, email string) (owner.Credential, error) {
	var m ownerCredentialRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("email = ?", email).Scan(ctx); err != nil {
		return owner.Credential{}, notFound(err, "owner", "get owner credential")
	}
	return owner.Credential{AccountID: m.AccountID, Email: m.Email, Hash: m.PasswordHash, UpdatedAt: domainTime(m.UpdatedAt)}, nil
}

// CreateSession stores a new session.
func (r *Owners) CreateSession(ctx context.Context, s owner.Session) error {
	m := ownerSessionRow{Hash: s.Hash, AccountID: s.AccountID, CreatedAt: dbTime(s.CreatedAt), ExpiresAt: dbTime(s.ExpiresAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create owner session: %w", err)
	}
	return nil
}

// Session finds an unexpired session by its token's hash; not_found otherwise. It is the
// authentication lookup, so it is not scoped to an account.
func (r *Owners) Session(ctx context.Context, hash string, now time.Time) (owner.Session, error) {
	var m ownerSessionRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).
		Where("hash = ? AND expires_at > ?", hash, dbTime(now)).Scan(ctx); err != nil {
		return owner.Session{}, notFound(err, "session", "get owner session")
	}
	return owner.Session{Hash: m.Hash, AccountID: m.AccountID, CreatedAt: domainTime(m.CreatedAt), ExpiresAt: domainTime(m.ExpiresAt)}, nil
}

// EndSession deletes one session.
func (r *Owners) EndSession(ctx context.Context, hash string) error {
	if _, err := idb(ctx, r.db).NewDelete().Model((*ownerSessionRow)(nil)).Where("hash = ?", hash).Exec(ctx); err != nil {
		return fmt.Errorf("end owner session: %w", err)
	}
	return nil
}

// EndSessions deletes every session of the account.
func (r *Owners) EndSessions(ctx context.Context, accountID string) error {
	if _, err := idb(ctx, r.db).NewDelete().Model((*ownerSessionRow)(nil)).Where("account_id = ?", accountID).Exec(ctx); err != nil {
		return fmt.Errorf("end owner sessions: %w", err)
	}
	return nil
}
