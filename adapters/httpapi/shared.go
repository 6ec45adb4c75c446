package httpapi

import (
	"time"

	"github.com/svcagent/svc/domain/ledger"
)

// Response pieces several features share.

// stamp renders a time as RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// listJSON is a page of a list: its items, and the cursor of the next page when there is one.
type listJSON[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// listOf is the list of data, whole: no more pages.
func listOf[T any](data []T) listJSON[T] {
	return listJSON[T]{Object: "list", Data: data}
}

// periodJSON is a period of time, [from, to).
type periodJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type interactionsJSON struct {
	Spent     int `json:"interactions_spent"`
	Remaining int `json:"interactions_remaining"`
	Limit     int `json:"interactions_limit"`
}

func interactionsOf(u ledger.Usage) interactionsJSON {
	return interactionsJSON{Spent: u.Spent, Remaining: u.Remaining(), Limit: u.Limit}
}
