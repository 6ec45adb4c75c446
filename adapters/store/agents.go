package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/agent"
	"github.com/svcagent/svc/ports"
)

var _ ports.Agents = (*Agents)(nil)

// Agents implements ports.Agents.
type Agents struct{ db *bun.DB }

// NewAgents returns the agent profile repository of db.
func NewAgents(db *bun.DB) *Agents { return &Agents{db: db} }

// Get returns the account's profile, or agent.Default when it has none yet.
func (r *Agents) Get(ctx context.Context, accountID string) (agent.Profile, error) {
	var m agentModel
	err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return agent.Default(accountID), nil
	}
	if err != nil {
		return agent.Profile{}, fmt.Errorf("get agent: %w", err)
	}
	return m.domain()
}

// Save stores the profile, replacing the account's previous one.
func (r *Agents) Save(ctx context.Context, p agent.Profile) error {
	m, err := toAgentModel(p)
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
