package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

var _ ports.Profiles = (*Profiles)(nil)

// Profiles implements ports.Profiles.
type Profiles struct {
	db  *bun.DB
	get *prepared // Get, the read of every chat message
}

// NewProfiles returns the profile repository of db.
func NewProfiles(db *bun.DB) *Profiles {
	return &Profiles{db: db, get: byAccount(db, (*profileRow)(nil))}
}

// Get returns the account's profile, or profile.Default when it has none yet.
func (r *Profiles) Get(ctx context.Context, accountID string) (profile.Profile, error) {
	var m profileRow
	err := getByAccount(ctx, r.db, r.get, &m, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return profile.Default(accountID), nil
	}
	if err != nil {
		return profile.Profile{}, fmt.Errorf("get agent: %w", err)
	}
	return m.domain()
}

// Save stores the profile, replacing the account's previous one.
func (r *Profiles) Save(ctx context.Context, p profile.Profile) error {
	m, err := toProfileRow(p)
	if err != nil {
		return err
	}
	if _, err := idb(ctx, r.db).NewInsert().Model(m).
		On("CONFLICT (account_id) DO UPDATE").
		Set("business_name = EXCLUDED.business_name").
		Set("languages = EXCLUDED.languages").
		Set("tone = EXCLUDED.tone").
		Set("channel_api = EXCLUDED.channel_api").
		Set("channel_web = EXCLUDED.channel_web").
		Set("channel_messaging = EXCLUDED.channel_messaging").
		Set("description = EXCLUDED.description").
		Set("instructions = EXCLUDED.instructions").
		Set("contact = EXCLUDED.contact").
		Set("appearance = EXCLUDED.appearance").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx); err != nil {
		return fmt.Errorf("save agent: %w", err)
	}
	return nil
}
