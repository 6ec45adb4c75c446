// Package agents holds the use cases of the account's agent: reading and changing its business
// profile, its appearance and its channel switches.
package agents

import (
	"context"
	"fmt"

	"github.com/svcagent/svc/domain/agent"
	"github.com/svcagent/svc/ports"
)

// Profiles reads and changes agent profiles.
type Profiles struct {
	tx     ports.Tx
	agents ports.Agents
	clock  ports.Clock
}

// NewProfiles returns a Profiles.
func NewProfiles(tx ports.Tx, a ports.Agents, c ports.Clock) *Profiles {
	return &Profiles{tx: tx, agents: a, clock: c}
}

// Get returns the account's agent profile (the default one when nothing was set).
func (p *Profiles) Get(ctx context.Context, accountID string) (agent.Profile, error) {
	return p.agents.Get(ctx, accountID)
}

// Update applies a partial change of the profile: a field left out keeps its value.
func (p *Profiles) Update(ctx context.Context, accountID string, ch agent.Patch) (agent.Profile, error) {
	return p.change(ctx, accountID, func(prof *agent.Profile) error { return prof.Apply(ch) })
}

// UpdateAppearance applies a partial change of the appearance.
func (p *Profiles) UpdateAppearance(ctx context.Context, accountID string, ch agent.AppearancePatch) (agent.Profile, error) {
	return p.change(ctx, accountID, func(prof *agent.Profile) error { return prof.ApplyAppearance(ch) })
}

func (p *Profiles) change(ctx context.Context, accountID string, fn func(*agent.Profile) error) (agent.Profile, error) {
	var out agent.Profile
	err := p.tx.InTx(ctx, func(ctx context.Context) error {
		prof, err := p.agents.Get(ctx, accountID)
		if err != nil {
			return fmt.Errorf("load agent: %w", err)
		}
		if err := fn(&prof); err != nil {
			return err
		}
		prof.AccountID = accountID
		prof.UpdatedAt = p.clock.Now().UTC()
		if err := p.agents.Save(ctx, prof); err != nil {
			return fmt.Errorf("save agent: %w", err)
		}
		out = prof
		return nil
	})
	return out, err
}
