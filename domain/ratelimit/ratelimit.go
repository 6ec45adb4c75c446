// Package ratelimit names the request limits of the interface specification, part 8, and turns a
// limiter's verdict into the spec's error.
package ratelimit

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/svcagent/svc/domain"
)

// Limit allows Count requests per Period for one subject (a key or an account).
type Limit struct {
	Name   string
	Count  int
	Period time.Duration
}

// The limits of spec part 8.
var (
	PerKey      = Limit{Name: "key", Count: 120, Period: time.Minute}
	Chat        = Limit{Name: "chat", Count: 30, Period: time.Minute}
	Assistant   = Limit{Name: "assistant", Count: 30, Period: time.Minute}
	PageUploads = Limit{Name: "pages", Count: 20, Period: time.Hour}
	Crawls      = Limit{Name: "crawl", Count: 10, Period: time.Hour}
	Compat      = Limit{Name: "model", Count: 60, Period: time.Minute}
)

// PerMinute are the per-minute limits of spec part 8 that a plan may set otherwise (Counts): the
// self-hosted operator raises or lowers them per plan.
var PerMinute = []Limit{PerKey, Chat, Assistant, Compat}

// Counts are a plan's own counts of the PerMinute limits, by limit Name; a limit it does not name
// keeps the spec's count.
type Counts map[string]int

// Of returns l with the plan's count, when the plan sets one.
func (c Counts) Of(l Limit) Limit {
	if n, ok := c[l.Name]; ok {
		l.Count = n
	}
	return l
}

// AuthFailures throttles failed authentications per client address (Address): a burst of 100,
// then five every second. Only failures count, so a valid credential is never refused by it; the
// burst leaves a client's own mistakes (a revoked key tried on every route, an expired client
// token) their 401s, and a client failing at full speed meets 429s within a few hundred tries.
var AuthFailures = Limit{Name: "authfail", Count: 100, Period: 20 * time.Second}

// Check is one limit to count a request against, for one subject (see Subject).
type Check struct {
	Subject string
	Limit   Limit
}

// SignInAddress and SignInAccount throttle the console's sign-in attempts, per client address
// (Address) and per account (the e-mail's): 10 at once, then one every 90 seconds. Every attempt
// counts, before the password is checked, so a guess past the allowance is never even tried.
var (
	SignInAddress = Limit{Name: "signin-addr", Count: 10, Period: 15 * time.Minute}
	SignInAccount = Limit{Name: "signin-acct", Count: 10, Period: 15 * time.Minute}
)

// Result is a limiter's verdict on one request.
type Result struct {
	Limit      int // the Count of the limit as applied (a plan may set its own)
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration // when not allowed: how long until one request fits
	ResetAfter time.Duration // how long until the whole allowance is back
}

// Err returns nil when allowed, else 429 rate_limited carrying the wait in whole seconds (at least 1).
func (r Result) Err(l Limit) error {
	if r.Allowed {
		return nil
	}
	wait := r.RetryAfter.Round(time.Second)
	if wait < r.RetryAfter {
		wait += time.Second
	}
	if wait < time.Second {
		wait = time.Second
	}
	return &domain.Error{
		Code:       domain.CodeRateLimited,
		Message:    "too many requests: at most " + strconv.Itoa(l.Count) + " per " + periodName(l.Period) + "; try again later",
		RetryAfter: wait,
	}
}

// Subject is the limiter key of a limit for one subject, e.g. "key:key_123" or "chat:acct_9".
func Subject(l Limit, id string) string { return l.Name + ":" + id }

// Address is the subject of a client address for AuthFailures: an IPv4 address as it is, an
// IPv6 address as its /64 prefix (one network, which a single client commonly holds whole), and
// anything that is not an address as it is.
func Address(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return a.String()
	}
	return p.String()
}

func periodName(d time.Duration) string {
	switch d {
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.String()
}
