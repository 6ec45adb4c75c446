package httpapi

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/golang/mock/gomock"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/profiles"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

var (
	testNow   = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	testPlans = ledger.Plans{
		"free":    {Name: "free", Interactions: 100},
		"starter": {Name: "starter", Interactions: 1000, WebChannels: true},
	}
	testKey = account.KeyPrefix + strings.Repeat("t", 43)
)

type deps struct {
	accounts *mock.MockAccounts
	keys     *mock.MockKeys
	usage    *mock.MockUsage
	profiles *mock.MockProfiles
	limiter  *mock.MockRateLimiter
	sessions *mock.MockSessions
	widgets  *mock.MockWidgets
	tx       *mock.MockTx
	convs    *mock.MockConversations // the sessions' conversations
}

// newTestServer returns a server on mocks, with options changed by opts.
func newTestServer(t *testing.T, opts ...func(*Options)) (*Server, deps) {
	ctrl := gomock.NewController(t)
	d := deps{
		accounts: mock.NewMockAccounts(ctrl),
		keys:     mock.NewMockKeys(ctrl),
		usage:    mock.NewMockUsage(ctrl),
		profiles: mock.NewMockProfiles(ctrl),
		limiter:  mock.NewMockRateLimiter(ctrl),
		sessions: mock.NewMockSessions(ctrl),
		widgets:  mock.NewMockWidgets(ctrl),
	}
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(testNow).AnyTimes()
	d.keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes() // a key's last use, written later
	queue := mock.NewMockQueue(ctrl)
	ob := mock.NewMockOutbox(ctrl)
	tx := mock.NewMockTx(ctrl)
	d.tx = tx
	d.convs = mock.NewMockConversations(ctrl)
	access := accounts.NewAccess(d.keys, d.limiter, testPlans, clock)
	ledgerUC := accounts.NewLedger(tx, d.accounts, d.usage, nil, testPlans, clock)
	uc := UseCases{Access: access, Overviews: accounts.NewOverviews(ledgerUC, d.profiles), Profiles: profiles.New(d.profiles, clock),
		Sessions: sessions.New(tx, d.sessions, d.convs, clock),
		Widgets: widgets.New(widgets.Deps{Widgets: d.widgets, Accounts: d.accounts, Profiles: d.profiles, Limiter: d.limiter,
			Conversations: mock.NewMockConversations(ctrl), Channels: access}, widgets.Options{ScriptURL: "http://svc.test/widget.js"})}
	o := Options{PublicURL: "http://svc.test", UpgradeURL: "http://svc.test/billing", MaxBodyBytes: 1024}
	for _, f := range opts {
		f(&o)
	}
	s := New(o, uc, Readiness{}, NewMetrics(queue, ob, nil), zap.NewNop())
	return s, d
}

func do(s *Server, method, path string, header map[string]string, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

func envelope(t *testing.T, rec *httptest.ResponseRecorder) apijson.ErrorBody {
	t.Helper()
	var env apijson.ErrorEnvelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code == "" {
		t.Fatalf("not an error envelope: %s", rec.Body.String())
	}
	return env.Error
}

// TestOpenAPIMatchesRoutes keeps openapi.json and the router equal, both ways. The CORS preflights
// it documents (OPTIONS) are answered by a middleware before routing: each must answer 204.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s, _ := newTestServer(t)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Info    struct{ Version string }              `json:"info"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") || doc.Info.Version != Version {
		t.Fatalf("openapi %q version %q", doc.OpenAPI, doc.Info.Version)
	}
	param := regexp.MustCompile(`\{([^}]+)\}`)
	var documented, routed []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "options" {
				w := httptest.NewRecorder()
				s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodOptions, path, nil))
				if w.Code != http.StatusNoContent {
					t.Errorf("OPTIONS %s is documented but answers %d, want 204", path, w.Code)
				}
				continue
			}
			documented = append(documented, strings.ToUpper(method)+" "+param.ReplaceAllString(path, ":$1"))
		}
	}
	for _, r := range s.Routes() {
		routed = append(routed, r.Method+" "+r.Path)
	}
	sort.Strings(documented)
	sort.Strings(routed)
	if strings.Join(documented, "\n") != strings.Join(routed, "\n") {
		t.Fatalf("openapi.json and the router differ\ndocumented:\n%s\n\nrouted:\n%s", strings.Join(documented, "\n"), strings.Join(routed, "\n"))
	}
}

// TestOpenAPIStatesTheAuthThrottle keeps the API key's description in openapi.json on the
// throttle of failed authentications as it is (ratelimit.AuthFailures): its burst and the rate
// after it. An outside client reads the published description, not the code.
func TestOpenAPIStatesTheAuthThrottle(t *testing.T) {
	var doc struct {
		Components struct {
			SecuritySchemes map[string]struct{ Description string } `json:"securitySchemes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatal(err)
	}
	l := ratelimit.AuthFailures
	desc := doc.Components.SecuritySchemes["apiKey"].Description
	for _, want := range []string{
		fmt.Sprintf("past a burst of %d,", l.Count),
		fmt.Sprintf("and %d more are allowed each second", l.Count/int(l.Period/time.Second)),
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("the apiKey description does not say %q (ratelimit.AuthFailures is %d per %s):\n%s", want, l.Count, l.Period, desc)
		}
	}
}

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		err        error
		status     int
		code       domain.Code
		param      string
		typ        string
		upgrade    bool
		retryAfter string
	}{
		{domain.Invalid("message", "message is required"), 400, domain.CodeInvalidRequest, "message", "", false, ""},
		{domain.Errorf(domain.CodeInputTooLarge, "too long"), 400, domain.CodeInputTooLarge, "", "", false, ""},
		{domain.Errorf(domain.CodeContentPolicy, "refused"), 400, domain.CodeContentPolicy, "", "", false, ""},
		{domain.Errorf(domain.CodeUnauthorized, "no"), 401, domain.CodeUnauthorized, "", "", false, ""},
		{domain.Errorf(domain.CodePlanRequired, "upgrade"), 402, domain.CodePlanRequired, "", "", true, ""},
		{ledger.LimitReached(), 402, domain.CodeInteractionLimitReached, "", "insufficient_quota", true, ""},
		{domain.Errorf(domain.CodeAccountInactive, "off"), 403, domain.CodeAccountInactive, "", "", false, ""},
		{domain.NotFound("conversation"), 404, domain.CodeNotFound, "", "", false, ""},
		{domain.Errorf(domain.CodeApprovalNotFound, "gone"), 404, domain.CodeApprovalNotFound, "", "", false, ""},
		{domain.Errorf(domain.CodeAgentNotConfigured, "set up"), 409, domain.CodeAgentNotConfigured, "", "", false, ""},
		{domain.Errorf(domain.CodeCrawlFailed, "no text"), 422, domain.CodeCrawlFailed, "", "", false, ""},
		{ratelimit.Result{RetryAfter: 2500 * time.Millisecond}.Err(ratelimit.Chat), 429, domain.CodeRateLimited, "", "", false, "3"},
		{domain.Errorf(domain.CodeAssistantError, "try again"), 500, domain.CodeAssistantError, "", "", false, ""},
		{domain.Errorf(domain.CodeAgentUnavailable, "off"), 503, domain.CodeAgentUnavailable, "", "", false, ""},
		{domain.Errorf(domain.CodeModelUnavailable, "down"), 503, domain.CodeModelUnavailable, "", "", false, ""},
		{&domain.Error{Code: domain.CodeServiceUnavailable, Message: "database down", RetryAfter: 2100 * time.Millisecond}, 503, domain.CodeServiceUnavailable, "", "", false, "3"},
		{errors.New("pq: password=hunter2 connection refused"), 500, domain.CodeInternal, "", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.code), func(t *testing.T) {
			s, _ := newTestServer(t)
			s.engine.GET("/test/fail", func(c *gin.Context) { s.fail(c, tt.err) })
			rec := do(s, "GET", "/test/fail", nil, "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			e := envelope(t, rec)
			if e.Code != tt.code || e.Param != tt.param || e.Type != tt.typ || (e.UpgradeURL != "") != tt.upgrade {
				t.Fatalf("envelope %+v", e)
			}
			if got := rec.Header().Get("Retry-After"); got != tt.retryAfter {
				t.Fatalf("Retry-After %q, want %q", got, tt.retryAfter)
			}
			if tt.retryAfter != "" && e.RetryAfter != 3 {
				t.Fatalf("retry_after %d", e.RetryAfter)
			}
			if tt.code == domain.CodeInternal && strings.Contains(rec.Body.String(), "hunter2") {
				t.Fatalf("internal detail leaked: %s", rec.Body.String())
			}
		})
	}
}

func TestUnknownRoutesAnswerTheEnvelope(t *testing.T) {
	s, _ := newTestServer(t)
	for _, tt := range []struct{ method, path string }{{"GET", "/v2/nothing"}, {"DELETE", "/v1"}, {"POST", "/v1/account"}, {"GET", "/"},
		// A trailing slash is another path: the envelope, never a redirect (gin's default answers 301
		// or 307 with an HTML body and none of the middleware's headers).
		{"GET", "/v1/"}, {"GET", "/v1/account/"}, {"PATCH", "/v1/agent/"}, {"POST", "/v1/chat/"}, {"GET", "/widget.js/"}} {
		rec := do(s, tt.method, tt.path, nil, "")
		if rec.Code != http.StatusNotFound || envelope(t, rec).Code != domain.CodeNotFound {
			t.Errorf("%s %s: %d %s", tt.method, tt.path, rec.Code, rec.Body.String())
		}
		if rec.Header().Get("X-Request-Id") == "" {
			t.Errorf("%s %s: no X-Request-Id", tt.method, tt.path)
		}
	}
}

func TestRequestID(t *testing.T) {
	s, _ := newTestServer(t)
	tests := []struct {
		name, sent string
		echoed     bool
	}{
		{"kept", "abc-123", true},
		{"generated when missing", "", false},
		{"replaced when too long", strings.Repeat("x", 129), false},
		{"replaced when it has spaces", "a b", false},
	}
	for _, tt := range tests {
		rec := do(s, "GET", "/healthz", map[string]string{"X-Request-Id": tt.sent}, "")
		got := rec.Header().Get("X-Request-Id")
		if tt.echoed && got != tt.sent || !tt.echoed && !strings.HasPrefix(got, "req_") {
			t.Errorf("%s: X-Request-Id %q", tt.name, got)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	type body struct {
		Message string `json:"message"`
		TTL     int    `json:"ttl_minutes"`
		Tags    []string
	}
	tests := []struct {
		name, in  string
		wantField string
		ok        bool
	}{
		{"valid", `{"message":"hi","ttl_minutes":5}`, "", true},
		{"empty", ``, "", false},
		{"blank", "  \n", "", false},
		{"malformed", `{"message":`, "", false},
		{"syntax", `{"message" "hi"}`, "", false},
		{"wrong type", `{"message":5}`, "message", false},
		{"wrong integer", `{"ttl_minutes":"five"}`, "ttl_minutes", false},
		{"fraction for integer", `{"ttl_minutes":1.5}`, "ttl_minutes", false},
		{"unknown field", `{"mesage":"hi"}`, "mesage", false},
		{"array body", `[1,2]`, "", false},
		{"null body", `null`, "", false},
		{"string body", `"hi"`, "", false},
		{"two objects", `{"message":"a"}{"message":"b"}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b body
			err := apijson.Decode(strings.NewReader(tt.in), &b, true)
			if (err == nil) != tt.ok {
				t.Fatalf("err %v", err)
			}
			if err == nil {
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.wantField {
				t.Fatalf("error %#v, want field %q", err, tt.wantField)
			}
		})
	}
}

func TestBodyCap(t *testing.T) {
	s := echoServer(t)
	rec := do(s, "POST", "/test/echo", nil, `{"a":"`+strings.Repeat("x", 2000)+`"}`)
	if rec.Code != 400 || !strings.Contains(envelope(t, rec).Message, "larger than 1024 bytes") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if rec := do(s, "POST", "/test/echo", nil, `{"a":"b"}`); rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}

func TestAccountRoute(t *testing.T) {
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	tests := []struct {
		name    string
		header  string
		setup   func(d deps)
		status  int
		code    domain.Code
		checkOK func(t *testing.T, body map[string]any)
	}{
		// Refused by its form alone, before any read: 401 at once, not counted by the throttle (the
		// mock limiter fails the test on any call).
		{name: "no header", status: 401, code: domain.CodeUnauthorized},
		{name: "basic auth", header: "Basic dXNlcjpwYXNz", status: 401, code: domain.CodeUnauthorized},
		// Basic with the key as its user name and no password (Stripe's `curl -u sk_…:`) is the
		// same credential as Bearer, through the same check; a password makes it none.
		{name: "basic auth key with a password", header: "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":x")), status: 401, code: domain.CodeUnauthorized},
		{name: "basic auth wrong key", header: "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":")), status: 401, code: domain.CodeUnauthorized, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{}, domain.NotFound("key"))
			failureCounted(d)
		}},
		{name: "basic auth key", header: "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":")), status: 200, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, ledger.PeriodAt(testNow)).Return(ports.Credential{Key: key,
				Account: account.Account{ID: "acct_1", Name: "Lu", Status: account.Active, Plan: "free", InteractionLimit: 50, CreatedAt: testNow}, Spent: 7}, nil)
			d.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).Return([]ratelimit.Result{{Allowed: true, Remaining: 119}}, nil)
			d.profiles.EXPECT().Get(gomock.Any(), "acct_1").Return(profile.Profile{BusinessName: "Padaria Lu", Channels: profile.Channels{API: true}}, nil)
		}, checkOK: func(t *testing.T, b map[string]any) {
			if b["object"] != "account" || b["plan"] != "free" {
				t.Fatalf("body %v", b)
			}
		}},
		{name: "not a key", header: "Bearer svc_live_wrong", status: 401, code: domain.CodeUnauthorized},
		{name: "wrong key", header: "Bearer " + testKey, status: 401, code: domain.CodeUnauthorized, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{}, domain.NotFound("key"))
			failureCounted(d)
		}},
		{name: "inactive", header: "Bearer " + testKey, status: 403, code: domain.CodeAccountInactive, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: account.Account{ID: "acct_1", Status: account.Inactive}}, nil)
		}},
		{name: "rate limited", header: "Bearer " + testKey, status: 429, code: domain.CodeRateLimited, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: account.Account{ID: "acct_1", Status: account.Active, Plan: "starter"}}, nil)
			d.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).Return([]ratelimit.Result{{RetryAfter: 400 * time.Millisecond}}, nil)
		}},
		{name: "free plan may read its account", header: "bearer " + testKey, status: 200, setup: func(d deps) {
			// The usage shown is the one read with the key, for the current period.
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, ledger.PeriodAt(testNow)).Return(ports.Credential{Key: key,
				Account: account.Account{ID: "acct_1", Name: "Lu", Status: account.Active, Plan: "free", InteractionLimit: 50, CreatedAt: testNow}, Spent: 7}, nil)
			d.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).Return([]ratelimit.Result{{Allowed: true, Remaining: 119}}, nil)
			d.profiles.EXPECT().Get(gomock.Any(), "acct_1").Return(profile.Profile{BusinessName: "Padaria Lu", Channels: profile.Channels{API: true}}, nil)
		}, checkOK: func(t *testing.T, b map[string]any) {
			u := b["usage"].(map[string]any)
			a := b["agent"].(map[string]any)
			if b["object"] != "account" || b["plan"] != "free" || b["web_channels"] != false ||
				u["interactions_spent"] != 7.0 || u["interactions_remaining"] != 43.0 || u["interactions_limit"] != 50.0 ||
				u["period_start"] != "2026-11-01T00:00:00Z" || u["period_end"] != "2026-12-01T00:00:00Z" ||
				a["status"] != "configured" || a["channels"].(map[string]any)["web"] != false {
				t.Fatalf("body %v", b)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := newTestServer(t)
			if tt.setup != nil {
				tt.setup(d)
			}
			rec := do(s, "GET", "/v1/account", map[string]string{"Authorization": tt.header}, "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			if tt.code != "" && envelope(t, rec).Code != tt.code {
				t.Fatalf("body %s", rec.Body.String())
			}
			if tt.status == 429 && (rec.Header().Get("Retry-After") != "1" || rec.Header().Get("X-RateLimit-Remaining") != "0") {
				t.Fatalf("headers %v", rec.Header())
			}
			if tt.checkOK != nil {
				if rec.Header().Get("X-RateLimit-Remaining") != "119" {
					t.Fatalf("headers %v", rec.Header())
				}
				var b map[string]any
				if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
					t.Fatal(err)
				}
				tt.checkOK(t, b)
			}
		})
	}
}

// TestTwoAuthorizationHeaders: a request with two Authorization headers (a proxy's added to the
// caller's, or two keys) names no one credential: 401 unauthorized at once, as a request with
// none, on the key routes and the client routes alike, not the first header's key let in (a proxy
// that reads the last header would have checked another credential than the one used). The mocks
// fail the test on any read of the key.
func TestTwoAuthorizationHeaders(t *testing.T) {
	s, _ := newTestServer(t)
	for _, path := range []string{"/v1/account", "/v1/client/messages"} {
		for _, second := range []string{"Bearer " + testKey, "Bearer svc_live_wrong", "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Header.Add("Authorization", "Bearer "+testKey)
			req.Header.Add("Authorization", second)
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			if rec.Code != http.StatusUnauthorized || envelope(t, rec).Code != domain.CodeUnauthorized {
				t.Errorf("GET %s with Authorization twice (then %q): %d %s, want 401 unauthorized", path, second, rec.Code, rec.Body.String())
			}
		}
	}
}

// failureCounted expects one failed authentication of httptest's client address, within the
// allowance.
func failureCounted(d deps) {
	d.limiter.EXPECT().Allow(gomock.Any(), "authfail:192.0.2.1", ratelimit.AuthFailures).Return(ratelimit.Result{Allowed: true}, nil)
}

// TestFailedAuthenticationThrottle checks that a failed authentication, of a key or a client
// token read and refused (not one refused by its form alone), counts against the client address (the peer, or the forwarded address only behind a
// trusted proxy) and answers 429 with Retry-After past the allowance, while a valid key from an
// address past it goes through without the failure limit being consulted (the mock limiter
// fails the test on any call not expected).
func TestFailedAuthenticationThrottle(t *testing.T) {
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	active := account.Account{ID: "acct_1", Status: account.Active, Plan: "starter", CreatedAt: testNow}
	over := ratelimit.Result{RetryAfter: 700 * time.Millisecond}
	tests := []struct {
		name    string
		proxies []string
		header  string
		setup   func(d deps)
		status  int
	}{
		{name: "wrong key past the allowance", header: "Bearer " + testKey, status: 429, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{}, domain.NotFound("key"))
			d.limiter.EXPECT().Allow(gomock.Any(), "authfail:192.0.2.1", ratelimit.AuthFailures).Return(over, nil)
		}},
		{name: "a forwarded address is not believed from an untrusted peer", header: "Bearer " + testKey, status: 429, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{}, domain.NotFound("key"))
			d.limiter.EXPECT().Allow(gomock.Any(), "authfail:192.0.2.1", ratelimit.AuthFailures).Return(over, nil)
		}},
		{name: "behind a trusted proxy the forwarded client counts", header: "Bearer " + testKey, proxies: []string{"192.0.2.0/24"}, status: 429, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{}, domain.NotFound("key"))
			d.limiter.EXPECT().Allow(gomock.Any(), "authfail:198.51.100.9", ratelimit.AuthFailures).Return(over, nil)
		}},
		// A request with no credential, or one of no credential's form, costs no read: 401 at
		// once, uncounted (spec part 5 rule 2), from any address (no limiter call is expected).
		{name: "no key is answered 401, uncounted", header: "", status: 401, setup: func(deps) {}},
		{name: "a malformed key is answered 401, uncounted", header: "Bearer svc_live_wrong", status: 401, setup: func(deps) {}},
		{name: "client route: a malformed token is answered 401, uncounted", header: "Bearer svc_cs_x", status: 401, setup: func(deps) {}},
		{name: "client route: wrong token past the allowance", header: "Bearer svc_cs_" + strings.Repeat("x", 40), status: 429, setup: func(d deps) {
			d.sessions.EXPECT().Credential(gomock.Any(), gomock.Any()).Return(ports.ClientCredential{}, domain.NotFound("client session"))
			d.limiter.EXPECT().Allow(gomock.Any(), "authfail:192.0.2.1", ratelimit.AuthFailures).Return(over, nil)
		}},
		{name: "valid key is never refused by the failure limit", header: "Bearer " + testKey, status: 200, setup: func(d deps) {
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: active}, nil)
			d.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).Return([]ratelimit.Result{{Allowed: true, Remaining: 119}}, nil)
			d.profiles.EXPECT().Get(gomock.Any(), "acct_1").Return(profile.Profile{}, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := newTestServer(t, func(o *Options) { o.TrustedProxies = tt.proxies })
			tt.setup(d)
			path := "/v1/account"
			if strings.HasPrefix(tt.header, "Bearer svc_cs_") {
				path = "/v1/client/agent"
			}
			rec := do(s, "GET", path, map[string]string{"Authorization": tt.header, "X-Forwarded-For": "198.51.100.9"}, "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			if tt.status == 429 && (envelope(t, rec).Code != domain.CodeRateLimited || rec.Header().Get("Retry-After") != "1") {
				t.Fatalf("429 without rate_limited and Retry-After: 1: %v %s", rec.Header(), rec.Body.String())
			}
		})
	}
}

type pingFunc func(context.Context) error

func (f pingFunc) Ping(ctx context.Context) error { return f(ctx) }

func TestReadiness(t *testing.T) {
	up := pingFunc(func(context.Context) error { return nil })
	down := pingFunc(func(context.Context) error { return errors.New("down") })
	tests := []struct {
		name   string
		ready  Readiness
		status int
		body   string
	}{
		{"all answer", Readiness{{Name: "store", Pinger: up}, {Name: "redis", Pinger: up, Degrades: true}},
			200, `{"checks":{"redis":"ok","store":"ok"},"status":"ready"}`},
		{"redis down degrades", Readiness{{Name: "store", Pinger: up}, {Name: "redis", Pinger: down, Degrades: true}},
			200, `{"checks":{"redis":"degraded","store":"ok"},"status":"degraded"}`},
		{"store down", Readiness{{Name: "store", Pinger: down}, {Name: "redis", Pinger: up, Degrades: true}},
			503, `{"checks":{"redis":"ok","store":"unavailable"},"status":"unavailable"}`},
		{"both down", Readiness{{Name: "store", Pinger: down}, {Name: "redis", Pinger: down, Degrades: true}},
			503, `{"checks":{"redis":"degraded","store":"unavailable"},"status":"unavailable"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestServer(t)
			s.ready = tt.ready
			rec := do(s, "GET", "/readyz", nil, "")
			if rec.Code != tt.status || rec.Body.String() != tt.body {
				t.Fatalf("%d %s, want %d %s", rec.Code, rec.Body.String(), tt.status, tt.body)
			}
		})
	}
}

func TestMetricsAreNotARoute(t *testing.T) {
	s, _ := newTestServer(t)
	if rec := do(s, "GET", "/metrics", nil, ""); rec.Code != http.StatusNotFound {
		t.Fatalf("GET /metrics on the API: %d, want 404 (metrics have their own listener)", rec.Code)
	}
}

// TestClientCORSExposesHeaders: an app in a browser reads the headers of a client route's answer
// only when they are exposed: the request id, Retry-After and the per-token rate-limit headers.
func TestClientCORSExposesHeaders(t *testing.T) {
	s, _ := newTestServer(t)
	rec := do(s, "OPTIONS", "/v1/client/chat", map[string]string{"Origin": "https://app.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}, "")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("preflight: %d %s", rec.Code, rec.Body.String())
	}
	exposed := strings.ToLower(rec.Header().Get("Access-Control-Expose-Headers"))
	for _, h := range []string{"x-request-id", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} {
		if !strings.Contains(exposed, h) {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, h)
		}
	}
}

// TestSessionBodyIsOptional: every field of POST /v1/sessions is optional, so no body means the
// defaults whether the client says so with Content-Length: 0 or with an empty chunked body.
func TestSessionBodyIsOptional(t *testing.T) {
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	active := account.Account{ID: "acct_1", Status: account.Active, Plan: "starter", CreatedAt: testNow}
	for _, tt := range []struct {
		name    string
		body    string
		chunked bool
	}{{"no body", "", false}, {"empty chunked body", "", true}, {"blank chunked body", " \n", true}, {"empty object", "{}", false}} {
		t.Run(tt.name, func(t *testing.T) {
			s, d := newTestServer(t)
			d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: active}, nil)
			d.limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true, Limit: 120, Remaining: 119}}, nil)
			d.tx.EXPECT().InTx(gomock.Any(), gomock.Any()).DoAndReturn(func(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) })
			d.convs.EXPECT().Open(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, c conversation.Conversation) (conversation.Conversation, error) { return c, nil })
			d.sessions.EXPECT().Create(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, cs session.Session) error {
				if cs.ExpiresAt.Sub(testNow) != time.Hour {
					t.Errorf("session for %s, want the default hour", cs.ExpiresAt.Sub(testNow))
				}
				return nil
			})
			req := httptest.NewRequest("POST", "/v1/sessions", strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer "+testKey)
			if tt.chunked {
				req.ContentLength = -1
				req.TransferEncoding = []string{"chunked"}
			}
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			if rec.Code != http.StatusCreated {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
		})
	}
}

// TestPublicDescriptionCORS: GET /v1 and GET /v1/openapi.json need no credential, so a page on
// any origin (an API explorer) may read them: a simple GET gets Access-Control-Allow-Origin: *,
// and a preflight 204 with it. The routes of an API key stay closed to browsers.
func TestPublicDescriptionCORS(t *testing.T) {
	s, _ := newTestServer(t)
	for _, path := range []string{"/v1", "/v1/openapi.json"} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			req := httptest.NewRequest(method, path, nil)
			req.Header.Set("Origin", "https://explorer.example")
			rec := httptest.NewRecorder()
			AnswerHead(s.Handler()).ServeHTTP(rec, req) // HEAD as svc-api answers it
			if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") != "*" ||
				rec.Header().Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("%s %s: %d, Access-Control-Allow-Origin %q, want 200 and *", method, path, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
			}
			if exposed := rec.Header().Get("Access-Control-Expose-Headers"); !strings.Contains(exposed, "X-Request-Id") {
				t.Errorf("%s %s: Access-Control-Expose-Headers %q lacks X-Request-Id", method, path, exposed)
			}
			// the Content-Type of every other JSON answer, charset included
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("%s %s: Content-Type %q, want application/json; charset=utf-8", method, path, ct)
			}
		}
		pre := do(s, http.MethodOptions, path, map[string]string{"Origin": "https://explorer.example",
			"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-request-id"}, "")
		if pre.Code != http.StatusNoContent || pre.Header().Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(pre.Header().Get("Access-Control-Allow-Methods"), "GET") ||
			!strings.Contains(strings.ToLower(pre.Header().Get("Access-Control-Allow-Headers")), "x-request-id") {
			t.Errorf("OPTIONS %s: %d %v, want 204 allowing GET from any origin", path, pre.Code, pre.Header())
		}
	}
	for _, path := range []string{"/v1/account", "/v1/", "/v1/openapi.json/"} {
		rec := do(s, http.MethodOptions, path, map[string]string{"Origin": "https://explorer.example", "Access-Control-Request-Method": "GET"}, "")
		if rec.Code != http.StatusNotFound || rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("OPTIONS %s: %d, Access-Control-Allow-Origin %q, want 404 without it", path, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
		}
	}
}

// TestOpenAPIIdempotentRoutes: an operation whose answers may be replays (Idempotent-Replayed,
// Idempotency-Key headers) documents the Idempotency-Key request header, and the other way round,
// so that a client generated from the description can send the key wherever it is read.
func TestOpenAPIIdempotentRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Ref string `json:"$ref"`
			} `json:"parameters"`
			Responses map[string]struct {
				Headers map[string]json.RawMessage `json:"headers"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openAPISpec, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			takes := false
			for _, p := range op.Parameters {
				takes = takes || p.Ref == "#/components/parameters/IdempotencyKey"
			}
			replays, echoes := false, false
			for _, r := range op.Responses {
				_, rp := r.Headers[headerIdempotentReplayed]
				_, ek := r.Headers[headerIdempotencyKey]
				replays, echoes = replays || rp, echoes || ek
			}
			if takes != replays || takes != echoes {
				t.Errorf("%s %s: takes Idempotency-Key %v, answers Idempotent-Replayed %v, Idempotency-Key %v: want all or none", strings.ToUpper(method), path, takes, replays, echoes)
			}
			if takes {
				n++
			}
		}
	}
	if n != 11 {
		t.Errorf("%d operations take Idempotency-Key, want the 11 POST routes README lists", n)
	}
}

// TestCompressedBody reads a body sent with Content-Encoding gzip or deflate decompressed, holds
// the decompressed bytes to the body cap (a zip bomb is the cap's 400, not memory), and refuses
// any other coding, or a stream that does not decompress, by naming the header.
func TestCompressedBody(t *testing.T) {
	s := echoServer(t)
	gz := func(b []byte) string {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.String()
	}
	zl := func(b []byte) string {
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.String()
	}
	fl := func(b []byte) string {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(b)
		w.Close()
		return buf.String()
	}
	body := []byte(`{"a":"b"}`)
	for _, tt := range []struct{ coding, body string }{
		{"gzip", gz(body)}, {"GZIP", gz(body)}, {"x-gzip", gz(body)}, {"deflate", zl(body)}, {"deflate", fl(body)},
		{"identity", string(body)}, {"gzip, identity", gz(body)},
	} {
		rec := do(s, "POST", "/test/echo", map[string]string{"Content-Encoding": tt.coding}, tt.body)
		if rec.Code != 200 || rec.Body.String() != `{"a":"b"}` {
			t.Fatalf("%s: %d %s", tt.coding, rec.Code, rec.Body.String())
		}
	}
	// 1 MB of spaces compresses to about 1 KB and would inflate past the 1024-byte cap.
	bomb := gz([]byte(`{"a":"` + strings.Repeat(" ", 1<<20) + `"}`))
	if len(bomb) > 4096 {
		t.Fatalf("bomb of %d bytes", len(bomb))
	}
	for _, tt := range []struct{ coding, body string }{{"gzip", bomb}, {"deflate", zl([]byte(strings.Repeat(" ", 1<<20)))}} {
		rec := do(s, "POST", "/test/echo", map[string]string{"Content-Encoding": tt.coding}, tt.body)
		if e := envelope(t, rec); rec.Code != 400 || e.Code != domain.CodeInvalidRequest || !strings.Contains(e.Message, "larger than 1024 bytes") {
			t.Fatalf("%s bomb: %d %s", tt.coding, rec.Code, rec.Body.String())
		}
	}
	for _, tt := range []struct{ coding, body, want string }{
		{"br", string(body), `"br" is not supported`},
		{"gzip, gzip", gz([]byte(gz(body))), "one Content-Encoding"},
		{"gzip", string(body), "not valid gzip"},
		{"deflate", "x", "not valid deflate"},
	} {
		rec := do(s, "POST", "/test/echo", map[string]string{"Content-Encoding": tt.coding}, tt.body)
		e := envelope(t, rec)
		if rec.Code != 400 || e.Code != domain.CodeInvalidRequest || e.Param != "Content-Encoding" || !strings.Contains(e.Message, tt.want) {
			t.Fatalf("%s: %d %s", tt.coding, rec.Code, rec.Body.String())
		}
	}
}

// TestBodyAndRouteHints: a JSON body after a UTF-8 byte order mark is read (RFC 8259 lets a
// parser ignore it; Windows editors write it, and `curl -d @body.json` sends it); form fields
// (`curl -d message=hi`) are refused with a message that says JSON is wanted; a known path with
// another method, or with a trailing slash, stays 404 but says what the path takes.
func TestBodyAndRouteHints(t *testing.T) {
	s := echoServer(t)
	for body, want := range map[string]string{
		"message=hello":         "not form fields",
		"message=hi&name=Ana+B": "not form fields",
		"[1]":                   "must be a JSON object",
	} {
		rec := do(s, "POST", "/test/echo", nil, body)
		if e := envelope(t, rec); rec.Code != 400 || !strings.Contains(e.Message, want) {
			t.Errorf("%q: %d %s, want %q", body, rec.Code, rec.Body.String(), want)
		}
	}
	for _, tt := range []struct{ method, path, want string }{
		{"PUT", "/v1/chat", "/v1/chat takes POST"},
		{"DELETE", "/v1/account", "/v1/account takes GET, HEAD"},
		{"POST", "/v1/conversations/conv_1", "/v1/conversations/conv_1 takes GET"},
		{"GET", "/v1/account/", "without the trailing slash: GET /v1/account"},
		{"POST", "/v1/chat/", "without the trailing slash: POST /v1/chat"},
		{"GET", "/v2/nothing", "no route GET /v2/nothing"},
	} {
		rec := do(s, tt.method, tt.path, nil, "")
		if e := envelope(t, rec); rec.Code != 404 || e.Code != domain.CodeNotFound || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s %s: %d %s, want %q", tt.method, tt.path, rec.Code, rec.Body.String(), tt.want)
		}
	}
}

// echoServer is a test server with a route POST /test/echo that answers the JSON object it reads
// (decodeJSON), or the error.
func echoServer(t *testing.T) *Server {
	s, _ := newTestServer(t)
	s.engine.POST("/test/echo", func(c *gin.Context) {
		var v map[string]any
		if err := decodeJSON(c, &v); err != nil {
			s.fail(c, err)
			return
		}
		c.JSON(200, v)
	})
	return s
}
