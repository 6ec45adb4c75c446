package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain/ledger"
)

// GET /v1/account

type usageJSON struct {
	InteractionsSpent     int    `json:"interactions_spent"`
	InteractionsRemaining int    `json:"interactions_remaining"`
	InteractionsLimit     int    `json:"interactions_limit"`
	PeriodStart           string `json:"period_start"`
	PeriodEnd             string `json:"period_end"`
}

func usageOf(u ledger.Usage) usageJSON {
	return usageJSON{
		InteractionsSpent:     u.Spent,
		InteractionsRemaining: u.Remaining(),
		InteractionsLimit:     u.Limit,
		PeriodStart:           stamp(u.Period.Start),
		PeriodEnd:             stamp(u.Period.End),
	}
}

type channelsJSON struct {
	API       bool `json:"api"`
	Web       bool `json:"web"`
	Messaging bool `json:"messaging"`
}

type agentStatusJSON struct {
	Configured bool         `json:"configured"`
	Status     string       `json:"status"`
	Channels   channelsJSON `json:"channels"`
}

type accountJSON struct {
	Object         string          `json:"object"`
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Status         string          `json:"status"`
	Plan           string          `json:"plan"`
	WebChannels    bool            `json:"web_channels"`
	DeveloperBonus developerJSON   `json:"developer_bonus"`
	Usage          usageJSON       `json:"usage"`
	AllowedDomains []string        `json:"allowed_domains"`
	Agent          agentStatusJSON `json:"agent"`
	CreatedAt      string          `json:"created_at"`
}

// developerJSON is the developer bonus: active while the account has it; since and client tell
// of the first MCP connection (null before one); interactions is the bonus a period when active.
type developerJSON struct {
	Active       bool    `json:"active"`
	Since        *string `json:"since"`
	Client       *string `json:"client"`
	Interactions int     `json:"interactions"`
}

func developerOf(o accounts.Overview) developerJSON {
	b := o.Bonus()
	out := developerJSON{Active: b.Active, Interactions: b.Interactions}
	if !b.Since.IsZero() {
		since, client := stamp(b.Since), b.Client
		out.Since, out.Client = &since, &client
	}
	return out
}

func accountOf(o accounts.Overview) accountJSON {
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
	return accountJSON{
		Object:         "account",
		ID:             a.ID,
		Name:           a.Name,
		Status:         string(a.Status),
		Plan:           a.Plan,
		WebChannels:    o.Plan.WebChannels || a.DeveloperBonus,
		DeveloperBonus: developerOf(o),
		Usage:          usageOf(o.Usage),
		AllowedDomains: domains,
		Agent: agentStatusJSON{
			Configured: o.Agent.Configured(),
			Status:     status,
			Channels:   channelsJSON{API: ch.API, Web: ch.Web, Messaging: ch.Messaging},
		},
		CreatedAt: stamp(a.CreatedAt),
	}
}

// account answers GET /v1/account. It is the one key call a plan without web channels may make.
func (s *Server) account(c *gin.Context) {
	p, _ := principal(c)
	o, err := s.uc.Overviews.For(c.Request.Context(), p)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, accountOf(o))
}
