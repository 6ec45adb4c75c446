package apijson

import (
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain/ledger"
)

// Usage is the interactions of the current period (GET /v1/account's usage).
type Usage struct {
	InteractionsSpent     int    `json:"interactions_spent"`
	InteractionsRemaining int    `json:"interactions_remaining"`
	InteractionsLimit     int    `json:"interactions_limit"`
	PeriodStart           string `json:"period_start"`
	PeriodEnd             string `json:"period_end"`
}

// UsageOf is u as GET /v1/account gives it.
func UsageOf(u ledger.Usage) Usage {
	return Usage{
		InteractionsSpent:     u.Spent,
		InteractionsRemaining: u.Remaining(),
		InteractionsLimit:     u.Limit,
		PeriodStart:           Stamp(u.Period.Start),
		PeriodEnd:             Stamp(u.Period.End),
	}
}

// Channels are the channels the agent answers on.
type Channels struct {
	API       bool `json:"api"`
	Web       bool `json:"web"`
	Messaging bool `json:"messaging"`
}

// AgentStatus is whether the agent is configured, in GET /v1/account.
type AgentStatus struct {
	Configured bool     `json:"configured"`
	Status     string   `json:"status"`
	Channels   Channels `json:"channels"`
}

// Account is the body of GET /v1/account (the get_account tool).
type Account struct {
	Object         string         `json:"object"`
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	Status         string         `json:"status"`
	Plan           string         `json:"plan"`
	WebChannels    bool           `json:"web_channels"`
	DeveloperBonus DeveloperBonus `json:"developer_bonus"`
	Usage          Usage          `json:"usage"`
	AllowedDomains []string       `json:"allowed_domains"`
	Agent          AgentStatus    `json:"agent"`
	CreatedAt      string         `json:"created_at"`
}

// DeveloperBonus is the developer bonus: active while the account has it; since and client tell
// of the first MCP connection (null before one); interactions is the bonus a period when active.
type DeveloperBonus struct {
	Active       bool    `json:"active"`
	Since        *string `json:"since"`
	Client       *string `json:"client"`
	Interactions int     `json:"interactions"`
}

// DeveloperBonusOf is the developer bonus of the account of o.
func DeveloperBonusOf(o accounts.Overview) DeveloperBonus {
	b := o.Bonus()
	out := DeveloperBonus{Active: b.Active, Interactions: b.Interactions}
	if !b.Since.IsZero() {
		since, client := Stamp(b.Since), b.Client
		out.Since, out.Client = &since, &client
	}
	return out
}

// AccountOf is the account of o.
func AccountOf(o accounts.Overview) Account {
	a := o.Account
	domains := a.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	status := "not_configured"
	if o.Agent.Configured() {
		status = "configured"
	}
	ch := o.Agent.Channels
	return Account{
		Object:         "account",
		ID:             a.ID,
		Name:           a.Name,
		Status:         string(a.Status),
		Plan:           a.Plan,
		WebChannels:    o.Plan.WebChannels || a.DeveloperBonus,
		DeveloperBonus: DeveloperBonusOf(o),
		Usage:          UsageOf(o.Usage),
		AllowedDomains: domains,
		Agent: AgentStatus{
			Configured: o.Agent.Configured(),
			Status:     status,
			Channels:   Channels{API: ch.API, Web: ch.Web, Messaging: ch.Messaging},
		},
		CreatedAt: Stamp(a.CreatedAt),
	}
}
