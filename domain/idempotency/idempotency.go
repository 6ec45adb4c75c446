// Package idempotency holds the rules of idempotent requests (Stripe's Idempotency-Key): a key
// the client chooses names one request of one caller; the first request with it runs and its
// answer is kept for a day; the same request again gets the kept answer, and another request
// with the same key is refused.
package idempotency

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/svcagent/svc/domain"
)

// Field names the key in errors: the request header that carries it.
const Field = "Idempotency-Key"

// MaxKeyLen is the longest key, in characters (printable ASCII, so bytes).
const MaxKeyLen = 255

// Lifetime is how long a key names its request: past it the key is free again and a request
// with it runs anew.
const Lifetime = 24 * time.Hour

// Lease is how long a request may hold its key without an answer: a reservation older than that
// was left by a process that died (no request of the API runs that long), and counts as absent.
const Lease = 10 * time.Minute

// Scopes of the credentials a key belongs to. A key of an API key's request is the account's
// (every key of the account shares it, as Stripe's keys do); a client session token's key is its
// session's: two apps' sessions of one account never see each other's answers. A website chat
// widget's key is the account's widget's: the request's body names its visitor, so that the same
// key with another visitor's message is refused, never answered with that visitor's reply.
const (
	ScopeKey    = "key"
	ScopeWidget = "widget"
)

// ClientScope is the scope of the keys of a client session's requests.
func ClientScope(sessionID string) string { return "client:" + sessionID }

// Response is a request's kept answer. Code is the error code of an answer that is an error (the
// envelope's error.code), which Keeps reads; it is not kept.
type Response struct {
	Status      int
	ContentType string
	Body        []byte
	Code        domain.Code
}

// Record is a key's reservation and, once its request was answered, the answer. Route is the
// request's method and path; BodyHash the hex SHA-256 of its raw body.
type Record struct {
	AccountID string
	Scope     string
	Key       string
	Route     string
	BodyHash  string
	CreatedAt time.Time
	// Response is the kept answer; its Status is 0 while the request runs.
	Response Response
}

// ValidateKey checks a key: 1 to MaxKeyLen printable ASCII characters (space to tilde).
func ValidateKey(key string) error {
	if key == "" {
		return domain.Invalid(Field, "%s must not be empty", Field)
	}
	if len(key) > MaxKeyLen {
		return domain.Invalid(Field, "%s must be at most %d characters", Field, MaxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return domain.Invalid(Field, "%s must be printable ASCII characters only", Field)
		}
	}
	return nil
}

// New returns the reservation of key for a request of route (method and path) with body, by
// the caller accountID and scope, made at now; invalid_request naming the field when the key is
// not valid.
func New(accountID, scope, key, route string, body []byte, now time.Time) (Record, error) {
	if err := ValidateKey(key); err != nil {
		return Record{}, err
	}
	sum := sha256.Sum256(body)
	return Record{AccountID: accountID, Scope: scope, Key: key, Route: route, BodyHash: hex.EncodeToString(sum[:]),
		CreatedAt: now}, nil
}

// Ref names the request the record was made for: the hex SHA-256 of its caller (account and
// scope), route, key and body. The same request sent again with its key has the same Ref; another
// body or route under the same key (once the key was freed) has another. A request's use case
// keeps it with what the request stored, to find it again when the key was freed and the request
// is retried (a chat message whose reply failed: conversation.Job.RequestKey).
func (r Record) Ref() string {
	h := sha256.New()
	for _, f := range []string{r.AccountID, r.Scope, r.Route, r.Key, r.BodyHash} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Answered reports whether the record holds its request's answer.
func (r Record) Answered() bool { return r.Response.Status != 0 }

// ExpiresAt is when the key is free again.
func (r Record) ExpiresAt() time.Time { return r.CreatedAt.Add(Lifetime) }

// Expired reports whether the key is free again at now.
func (r Record) Expired(now time.Time) bool { return !now.Before(r.ExpiresAt()) }

// Abandoned reports whether the record, still without an answer at now, was left by a request
// that will never answer (Lease).
func (r Record) Abandoned(now time.Time) bool {
	return !r.Answered() && !now.Before(r.CreatedAt.Add(Lease))
}

// Stale reports whether the record counts as absent at now: expired or abandoned.
func (r Record) Stale(now time.Time) bool { return r.Expired(now) || r.Abandoned(now) }

// ExpiredBefore is the creation time at or before which a record has expired at now.
func ExpiredBefore(now time.Time) time.Time { return now.Add(-Lifetime) }

// AbandonedBefore is the creation time at or before which a record without an answer is abandoned at
// now.
func AbandonedBefore(now time.Time) time.Time { return now.Add(-Lease) }

// Matches checks that req, a request with the key of r, is the request r was made for: the same
// route and the same body. Otherwise it is invalid_request naming the key, as Stripe answers.
func (r Record) Matches(req Record) error {
	if r.Route != req.Route {
		return domain.Invalid(Field, "Keys for idempotent requests can only be used with the same parameters they were first used with: "+
			"this key was first used with %s", r.Route)
	}
	if r.BodyHash != req.BodyHash {
		return domain.Invalid(Field, "Keys for idempotent requests can only be used with the same parameters they were first used with: "+
			"this request's body differs from the first's")
	}
	return nil
}

// Keeps reports whether an answer of status, an error of code when it is one, is kept for the
// key: every answer of the request's own, success or refusal, but not a failure of the service
// (5xx) or a rate limit (429), nor a refusal of the account's state rather than of the request
// (its interactions used up, its agent not set up yet): after those the same request may succeed
// once the state changes (the limit raised, the agent set up), and it ran nothing, so the key is
// freed for it.
func Keeps(status int, code domain.Code) bool {
	switch code {
	case domain.CodeInteractionLimitReached, domain.CodeAgentNotConfigured:
		return false
	}
	return status >= 100 && status < 500 && status != 429
}
