// Package event holds the account events of the interface specification, part 6.
package event

import (
	"slices"
	"time"
)

// Type is an event kind.
type Type string

// The event kinds of spec part 6.
const (
	MessageReplied   Type = "message.replied"
	BookingCreated   Type = "booking.created"
	LimitReached     Type = "limit.reached"
	KnowledgeUpdated Type = "knowledge.updated"
	WebhookTest      Type = "webhook.test"
)

// Types lists every event kind, in the order of the specification.
var Types = []Type{MessageReplied, BookingCreated, LimitReached, KnowledgeUpdated, WebhookTest}

// Known reports whether t is an event kind of the specification.
func Known(t Type) bool { return slices.Contains(Types, t) }

// HooksOnly reports whether an event of kind t sets off no work but its webhooks' deliveries (a
// limit.reached event also notifies the owner): an account without an active webhook needs
// nothing done for it.
func HooksOnly(t Type) bool { return t != LimitReached }

// IDPrefix starts every event id.
const IDPrefix = "evt_"

// Event is something that happened in an account. Data holds the fields of its kind.
type Event struct {
	ID        string
	AccountID string
	Type      Type
	Data      map[string]any
	CreatedAt time.Time
}

// TimeFormat is the envelope's created_at layout: ISO 8601 with milliseconds and Z.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Stamp renders t as the envelope's created_at.
func Stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }
