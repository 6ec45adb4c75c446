package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// Overview is what GET /v1/account shows: the account, its plan, the usage of the current period
// and the agent's status.
type Overview struct {
	Account account.Account
	Plan    ledger.Plan
	Usage   ledger.Usage
	Agent   profile.Profile
}

// Overviews builds account overviews.
type Overviews struct {
	ledger   *Ledger
	profiles ports.Profiles
}

// NewOverviews returns an Overviews.
func NewOverviews(l *Ledger, a ports.Profiles) *Overviews {
	return &Overviews{ledger: l, profiles: a}
}

// Get returns the overview of an account loaded by id, reading its usage.
func (o *Overviews) Get(ctx context.Context, acct account.Account) (Overview, error) {
	usage, err := o.ledger.Usage(ctx, acct)
	if err != nil {
		return Overview{}, err
	}
	return o.of(ctx, acct, usage)
}

// For returns the overview of an authenticated request's account, with the usage read with its
// key.
func (o *Overviews) For(ctx context.Context, p Principal) (Overview, error) {
	return o.of(ctx, p.Account, p.Usage)
}

func (o *Overviews) of(ctx context.Context, acct account.Account, usage ledger.Usage) (Overview, error) {
	plan, err := o.ledger.plan(acct)
	if err != nil {
		return Overview{}, err
	}
	prof, err := o.profiles.Get(ctx, acct.ID)
	if err != nil {
		return Overview{}, fmt.Errorf("agent: %w", err)
	}
	return Overview{Account: acct, Plan: plan, Usage: usage, Agent: prof}, nil
}

// Bonus is the developer bonus of an account (see Developers): whether it is active, when and
// from which client the account was first connected through MCP (zero and "" before), and the
// interactions a period it adds while active.
type Bonus struct {
	Active       bool
	Since        time.Time
	Client       string
	Interactions int
}

// Bonus returns the overview's developer bonus.
func (o Overview) Bonus() Bonus {
	b := Bonus{Active: o.Account.DeveloperBonus, Since: o.Account.DeveloperSince, Client: o.Account.DeveloperClient}
	if b.Active {
		b.Interactions = o.Plan.DeveloperBonus
	}
	return b
}

// Days returns the interactions the account spent on each day of the current period so far (the
// overview's chart).
func (o *Overviews) Days(ctx context.Context, acct account.Account) ([]ledger.Day, error) {
	return o.ledger.Days(ctx, acct)
}
