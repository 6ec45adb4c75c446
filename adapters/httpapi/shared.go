package httpapi

import (
	"time"

	"github.com/svcagent/svc/domain/ledger"
)

// Response pieces several features share.

// stamp renders a time as RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

type interactionsJSON struct {
	Spent     int `json:"interactions_spent"`
	Remaining int `json:"interactions_remaining"`
	Limit     int `json:"interactions_limit"`
}

func interactionsOf(u ledger.Usage) interactionsJSON {
	return interactionsJSON{Spent: u.Spent, Remaining: u.Remaining(), Limit: u.Limit}
}
