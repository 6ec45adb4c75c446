// Package webhook holds the account's webhooks, the signed deliveries of events to them, and the
// rules of retries and failure accounting (spec parts 2.10, 3.4, 6; DESIGN.md part 4).
package webhook

import (
	"time"
)

// IDPrefix starts every webhook id; SecretPrefix every signing secret.
const (
	IDPrefix     = "wh_"
	SecretPrefix = "whsec_"
)

// Webhook is a receiver of an account's events. The signing secret is kept sealed; only its
// creation response shows it.
type Webhook struct {
	ID             string
	AccountID      string
	URL            string
	Events         []string // event types, or ["*"]
	Active         bool
	SealedSecret   []byte
	Failures       int // consecutive failed deliveries
	LastStatus     int // last HTTP status from the receiver (0: none or no answer)
	LastDeliveryAt time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Request is one HTTP attempt to deliver an event: the signed POST the receiver gets.
type Request struct {
	URL     string
	Body    []byte
	Headers map[string]string
}

// Attempt is what one delivery attempt got.
type Attempt struct {
	WebhookID  string
	EventID    string
	EventType  string
	Number     int // 1, 2, 3
	StatusCode int // 0 when no HTTP answer
	Duration   time.Duration
	Error      string // why it failed; empty on success
	At         time.Time
}

// OK reports whether the receiver answered with a 2xx status.
func (a Attempt) OK() bool { return a.StatusCode >= 200 && a.StatusCode < 300 && a.Error == "" }
