package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

var _ ports.Profiles = (*Profiles)(nil)

// Profiles implements ports.Profiles.
type Profiles struct {
	db  *bun.DB
	get *prepared // Get
	// withBrain is GetWithBrain, the read of every chat message the built-in engine answers
	withBrain *prepared
	state     *prepared // the Brain's state, for GetWithBrain before withBrain is prepared
}

// NewProfiles returns the profile repository of db.
func NewProfiles(db *bun.DB) *Profiles {
	return &Profiles{db: db, get: byAccount(db, (*profileRow)(nil)), state: byAccount(db, (*knowledgeStateRow)(nil)),
		withBrain: prepare(db, fmt.Sprintf(withBrainQuery, "$1::text"), fmt.Sprintf(withBrainQuery, "?1"))}
}

// withBrainQuery reads the agent and the Brain's state of one account (%s: its one argument),
// either of them absent (all its columns NULL) when the account has none yet.
const withBrainQuery = `SELECT a.account_id, a.business_name, a.languages, a.tone, a.channel_api, a.channel_web,
a.channel_messaging, a.description, a.instructions, a.contact, a.appearance, a.updated_at,
k.account_id AS brain_account_id, k.version AS brain_version, k.business_summary AS brain_business_summary,
k.site_url AS brain_site_url, k.updated_at AS brain_updated_at
FROM (SELECT %s AS id) AS x
LEFT JOIN agents AS a ON a.account_id = x.id
LEFT JOIN knowledge_state AS k ON k.account_id = x.id`

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

// GetWithBrain returns the account's profile (profile.Default when it has none yet) and its
// Brain's state (version 0 when it has none yet), in one statement.
func (r *Profiles) GetWithBrain(ctx context.Context, accountID string) (profile.Profile, knowledge.State, error) {
	stmt, ok, err := r.withBrain.on(ctx, r.db)
	switch {
	case err != nil:
		return profile.Profile{}, knowledge.State{}, fmt.Errorf("get agent: %w", err)
	case !ok: // not prepared yet, in a transaction: the two reads
		return r.getWithBrain(ctx, accountID)
	}
	var m profileBrainRow
	if err := scanOne(ctx, r.db, stmt, &m, accountID); err != nil { // the statement always makes one row
		return profile.Profile{}, knowledge.State{}, fmt.Errorf("get agent: %w", err)
	}
	p := profile.Default(accountID)
	if m.AccountID != "" {
		if p, err = m.profileRow.domain(); err != nil {
			return profile.Profile{}, knowledge.State{}, err
		}
	}
	state := knowledge.State{AccountID: accountID}
	if m.BrainAccountID != "" {
		k := knowledgeStateRow{AccountID: m.BrainAccountID, Version: m.BrainVersion, BusinessSummary: m.BrainBusinessSummary,
			SiteURL: m.BrainSiteURL, UpdatedAt: m.BrainUpdatedAt}
		state = k.domain()
	}
	return p, state, nil
}

// profileBrainRow is a row of withBrainQuery: the agent's columns (all NULL, so zero here, when
// the account has no agent yet) and the Brain state's, prefixed (NULL likewise).
type profileBrainRow struct {
	profileRow
	BrainAccountID       string    `bun:"brain_account_id"`
	BrainVersion         int64     `bun:"brain_version"`
	BrainBusinessSummary string    `bun:"brain_business_summary"`
	BrainSiteURL         string    `bun:"brain_site_url"`
	BrainUpdatedAt       time.Time `bun:"brain_updated_at"`
}

// getWithBrain is GetWithBrain in two reads.
func (r *Profiles) getWithBrain(ctx context.Context, accountID string) (profile.Profile, knowledge.State, error) {
	p, err := r.Get(ctx, accountID)
	if err != nil {
		return profile.Profile{}, knowledge.State{}, err
	}
	state, err := brainState(ctx, r.db, r.state, accountID)
	if err != nil {
		return profile.Profile{}, knowledge.State{}, err
	}
	return p, state, nil
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

// Update implements ports.Profiles.Update. The account's row is locked first (the profile's may
// not exist yet), so concurrent updates queue: each reads what the one before it saved, and no
// partial change overwrites another with what it read before that one's save.
func (r *Profiles) Update(ctx context.Context, accountID string, fn func(p *profile.Profile) error) (profile.Profile, error) {
	var out profile.Profile
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if _, err := getAccount(ctx, lockForUpdate(tx.NewSelect(), tx), accountID); err != nil {
			return err
		}
		p, err := r.Get(ctx, accountID)
		if err != nil {
			return err
		}
		if err := fn(&p); err != nil {
			return err
		}
		p.AccountID = accountID
		if err := r.Save(ctx, p); err != nil {
			return err
		}
		out = p
		return nil
	})
	return out, err
}
