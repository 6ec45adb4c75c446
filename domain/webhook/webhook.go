// Package webhook holds the account's webhooks, the signed deliveries of events to them, and the
// rules of retries and failure accounting (spec parts 2.10, 3.4, 6; DESIGN.md part 4).
package webhook

import (
	"slices"
	"strings"
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
	Error      string // why it failed, one of the Fail… categories; empty on success
	At         time.Time
}

// OK reports whether the receiver answered with a 2xx status.
func (a Attempt) OK() bool { return a.StatusCode >= 200 && a.StatusCode < 300 && a.Error == "" }

// Why an attempt failed (Attempt.Error): a stable category, never the transport's own words (they
// name the service's resolver and addresses).
const (
	FailDNS            = "dns_error"       // the receiver's host name did not resolve
	FailConnectRefused = "connect_refused" // nothing accepted the connection
	FailTimeout        = "timeout"         // no complete answer within Timeout
	FailTLS            = "tls_error"       // the TLS handshake or the receiver's certificate failed
	FailRedirect       = "redirect"        // a 3xx answer: redirects are not followed
	FailHTTPStatus     = "http_status"     // any other answer that is not 2xx; StatusCode holds it
	FailBlocked        = "blocked_address" // the receiver's address is not public
	FailInvalidURL     = "invalid_url"     // the URL cannot be requested
	FailCanceled       = "canceled"        // the attempt was abandoned (shutdown, caller gone)
	FailNetwork        = "network_error"   // any other failure to connect, send or read
)

// Failure returns why the attempt failed, as one of the Fail… categories; empty when it succeeded. Attempts
// logged before the categories existed carry the transport's words, which are never shown: their
// category is told from the status code, or is FailNetwork.
func (a Attempt) Failure() string {
	switch {
	case a.OK():
		return ""
	case slices.Contains([]string{FailDNS, FailConnectRefused, FailTimeout, FailTLS, FailRedirect, FailHTTPStatus,
		FailBlocked, FailInvalidURL, FailCanceled, FailNetwork}, a.Error):
		return a.Error
	case a.StatusCode >= 300 && a.StatusCode < 400:
		return FailRedirect
	case a.StatusCode != 0 && (a.StatusCode < 200 || a.StatusCode >= 300):
		return FailHTTPStatus
	case strings.HasPrefix(a.Error, "refused"):
		return FailBlocked
	}
	return FailNetwork
}
