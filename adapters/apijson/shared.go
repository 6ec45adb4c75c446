package apijson

import (
	"time"

	"github.com/svcagent/svc/domain/ledger"
)

// Stamp renders a time as RFC 3339 in UTC.
func Stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// OffsetStamp writes a time in ISO 8601 with an explicit offset (+00:00).
func OffsetStamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05-07:00") }

// Label is a text that may be unset: the text, or null when it is empty.
func Label(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// List is a page of a list: its items, and the cursor of the next page when there is one.
type List[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// ListOf is the list of data, whole: no more pages.
func ListOf[T any](data []T) List[T] {
	if data == nil {
		data = []T{}
	}
	return List[T]{Object: "list", Data: data}
}

// Period is a period of time, [from, to).
type Period struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Interactions is the account's interactions of the period.
type Interactions struct {
	Spent     int `json:"interactions_spent"`
	Remaining int `json:"interactions_remaining"`
	Limit     int `json:"interactions_limit"`
}

// InteractionsOf is u's interactions.
func InteractionsOf(u ledger.Usage) Interactions {
	return Interactions{Spent: u.Spent, Remaining: u.Remaining(), Limit: u.Limit}
}
