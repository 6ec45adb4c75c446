package idempotency_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func TestValidateKey(t *testing.T) {
	tests := []struct {
		name string
		key  string
		ok   bool
	}{
		{"uuid", "5f0c7a3e-2d5b-4c1e-9a4f-0b8e6d2c1a77", true},
		{"one character", "a", true},
		{"printable punctuation and space", "order #42: retry ~1", true},
		{"255 characters", strings.Repeat("k", 255), true},
		{"empty", "", false},
		{"256 characters", strings.Repeat("k", 256), false},
		{"tab", "a\tb", false},
		{"newline", "a\nb", false},
		{"DEL", "a\x7fb", false},
		{"NUL", "a\x00b", false},
		{"non-ASCII", "chave-ção", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := idempotency.ValidateKey(tt.key)
			if tt.ok {
				if err != nil {
					t.Fatalf("ValidateKey(%q) = %v, want nil", tt.key, err)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != "Idempotency-Key" {
				t.Fatalf("ValidateKey(%q) = %v, want invalid_request naming Idempotency-Key", tt.key, err)
			}
		})
	}
}

func TestNewFingerprint(t *testing.T) {
	r, err := idempotency.New("acct_a", idempotency.ScopeKey, "k1", "POST /v1/conversions", []byte(`{"kind":"sale"}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	// sha256 of {"kind":"sale"}
	if len(r.BodyHash) != 64 || r.BodyHash == "" {
		t.Fatalf("BodyHash = %q, want 64 hex characters", r.BodyHash)
	}
	if r.Answered() {
		t.Fatal("a new reservation is answered")
	}
	if _, err := idempotency.New("acct_a", idempotency.ScopeKey, "", "POST /v1/conversions", nil, t0); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Fatalf("New with an empty key = %v, want invalid_request", err)
	}
	if idempotency.ClientScope("cs_1") == idempotency.ScopeKey || idempotency.ClientScope("cs_1") == idempotency.ClientScope("cs_2") {
		t.Fatal("client scopes must differ from the key scope and from each other")
	}
}

func TestMatches(t *testing.T) {
	first, _ := idempotency.New("acct_a", idempotency.ScopeKey, "k1", "POST /v1/conversions", []byte(`{"kind":"sale"}`), t0)
	tests := []struct {
		name  string
		route string
		body  string
		ok    bool
	}{
		{"same route and body", "POST /v1/conversions", `{"kind":"sale"}`, true},
		{"another body", "POST /v1/conversions", `{"kind":"lead"}`, false},
		{"the same body spaced otherwise", "POST /v1/conversions", `{"kind": "sale"}`, false},
		{"another route", "POST /v1/chat", `{"kind":"sale"}`, false},
		{"another path of one route", "POST /v1/webhooks/wh_2/test", `{"kind":"sale"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			again, _ := idempotency.New("acct_a", idempotency.ScopeKey, "k1", tt.route, []byte(tt.body), t0.Add(time.Minute))
			err := first.Matches(again)
			if tt.ok {
				if err != nil {
					t.Fatalf("Matches = %v, want nil", err)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != idempotency.Field ||
				!strings.Contains(e.Message, "can only be used with the same parameters") {
				t.Fatalf("Matches = %v, want invalid_request naming %s with Stripe's message", err, idempotency.Field)
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	running, _ := idempotency.New("acct_a", idempotency.ScopeKey, "k1", "POST /v1/chat", nil, t0)
	answered := running
	answered.Response = idempotency.Response{Status: 200, ContentType: "application/json", Body: []byte(`{}`)}
	tests := []struct {
		name                        string
		r                           idempotency.Record
		at                          time.Duration
		expired, abandoned, isStale bool
	}{
		{"running, fresh", running, time.Second, false, false, false},
		{"running, just before the lease", running, idempotency.Lease - time.Second, false, false, false},
		{"running, past the lease", running, idempotency.Lease, false, true, true},
		{"answered, past the lease", answered, idempotency.Lease + time.Hour, false, false, false},
		{"answered, just before a day", answered, idempotency.Lifetime - time.Second, false, false, false},
		{"answered, a day on", answered, idempotency.Lifetime, true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0.Add(tt.at)
			if got := tt.r.Expired(now); got != tt.expired {
				t.Errorf("Expired = %v, want %v", got, tt.expired)
			}
			if got := tt.r.Abandoned(now); got != tt.abandoned {
				t.Errorf("Abandoned = %v, want %v", got, tt.abandoned)
			}
			if got := tt.r.Stale(now); got != tt.isStale {
				t.Errorf("Stale = %v, want %v", got, tt.isStale)
			}
			// The store's cut-offs agree with the record's own rules.
			if got := tt.r.CreatedAt.Before(idempotency.ExpiredBefore(now)) || tt.r.CreatedAt.Equal(idempotency.ExpiredBefore(now)); got != tt.expired {
				t.Errorf("ExpiredBefore disagrees: %v, want %v", got, tt.expired)
			}
		})
	}
}

func TestKeeps(t *testing.T) {
	tests := []struct {
		status int
		code   domain.Code
		keep   bool
	}{
		{200, "", true}, {201, "", true}, {202, "", true}, {400, domain.CodeInvalidRequest, true}, {402, domain.CodePlanRequired, true},
		{404, domain.CodeNotFound, true}, {409, "", true}, {422, "", true},
		{402, domain.CodeInteractionLimitReached, false}, {409, domain.CodeAgentNotConfigured, false},
		{429, domain.CodeRateLimited, false}, {500, "", false}, {503, "", false}, {0, "", false},
	}
	for _, tt := range tests {
		if got := idempotency.Keeps(tt.status, tt.code); got != tt.keep {
			t.Errorf("Keeps(%d, %q) = %v, want %v", tt.status, tt.code, got, tt.keep)
		}
	}
}

// TestRef names a request: the same request sent again with its key has the same Ref, another
// caller, route, key or body another.
func TestRef(t *testing.T) {
	rec := func(acct, scope, key, route, body string) idempotency.Record {
		t.Helper()
		r, err := idempotency.New(acct, scope, key, route, []byte(body), t0)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	base := rec("acct_1", idempotency.ScopeKey, "k1", "POST /v1/chat", `{"message":"hi"}`)
	if again := rec("acct_1", idempotency.ScopeKey, "k1", "POST /v1/chat", `{"message":"hi"}`); again.Ref() != base.Ref() || len(base.Ref()) != 64 {
		t.Errorf("the same request: %s and %s", base.Ref(), again.Ref())
	}
	for _, other := range []idempotency.Record{
		rec("acct_2", idempotency.ScopeKey, "k1", "POST /v1/chat", `{"message":"hi"}`),
		rec("acct_1", idempotency.ClientScope("ses_1"), "k1", "POST /v1/chat", `{"message":"hi"}`),
		rec("acct_1", idempotency.ScopeKey, "k2", "POST /v1/chat", `{"message":"hi"}`),
		rec("acct_1", idempotency.ScopeKey, "k1", "POST /v1/client/chat", `{"message":"hi"}`),
		rec("acct_1", idempotency.ScopeKey, "k1", "POST /v1/chat", `{"message":"hi!"}`),
	} {
		if other.Ref() == base.Ref() {
			t.Errorf("%+v has the Ref of %+v", other, base)
		}
	}
}
