package accounts

import (
	"context"
	"fmt"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/agent"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

// Overview is what GET /v1/account shows: the account, its plan, the usage of the current period
// and the agent's status.
type Overview struct {
	Account account.Account
	Plan    ledger.Plan
	Usage   ledger.Usage
	Agent   agent.Profile
}

// Overviews builds account overviews.
type Overviews struct {
	ledger *Ledger
	agents ports.Agents
}

// NewOverviews returns an Overviews.
func NewOverviews(l *Ledger, a ports.Agents) *Overviews {
	return &Overviews{ledger: l, agents: a}
}

// Get returns the overview of an account already loaded (by authentication or by id).
func (o *Overviews) Get(ctx context.Context, acct account.Account) (Overview, error) {
	plan, err := o.ledger.plan(acct)
	if err != nil {
		return Overview{}, err
	}
	usage, err := o.ledger.Usage(ctx, acct)
	if err != nil {
		return Overview{}, err
	}
	profile, err := o.agents.Get(ctx, acct.ID)
	if err != nil {
		return Overview{}, fmt.Errorf("agent: %w", err)
	}
	return Overview{Account: acct, Plan: plan, Usage: usage, Agent: profile}, nil
}
