package tests

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const apiVersion = "2026-09-24"

// TestProduction runs svc-api and svc-worker as two processes over Postgres and Redis, as in
// production, and drives them with HTTP and svcctl.
func TestProduction(t *testing.T) {
	outer := t
	s := newProduction(t)
	acme := s.newAccount(t, "--name", "Acme Production", "--owner-email", "owner@acme.test")
	api := s.startAPI(t)
	worker := s.startWorker(t)

	t.Run("api info", func(t *testing.T) {
		r := call(t, "GET", api.URL()+"/v1")
		if r.status != http.StatusOK || r.body == nil {
			t.Fatalf("GET /v1: %s", r)
		}
		if got := r.body.str("object"); got != "api" {
			t.Errorf("object %q, want api", got)
		}
		if got := r.body.str("version"); got != apiVersion {
			t.Errorf("version %q, want %s", got, apiVersion)
		}
	})

	t.Run("account", func(t *testing.T) {
		r := call(t, "GET", api.URL()+"/v1/account", bearer(acme.key)...)
		if r.status != http.StatusOK || r.body == nil {
			t.Fatalf("GET /v1/account: %s", r)
		}
		checkAccount(t, r.body, wantAccount{id: acme.id, name: "Acme Production", plan: "starter", webChannels: true, limit: 1000})
	})

	t.Run("svcctl account show", func(t *testing.T) {
		out := ctl(t, s.env, "account", "show", "--account", acme.id)
		if out.str("id") != acme.id && out.str("account_id") != acme.id {
			t.Errorf("svcctl account show: %s, want the account %s", out, acme.id)
		}
		if got := out.str("plan"); got != "starter" {
			t.Errorf("svcctl account show: plan %q, want starter; %s", got, out)
		}
		if n, _ := out.num("interaction_limit"); n != 1000 {
			t.Errorf("svcctl account show: interaction_limit %v, want the starter plan's 1000; %s", n, out)
		}
	})

	t.Run("svcctl account create and list", func(t *testing.T) {
		created := ctl(t, s.env, "account", "create", "--name", "Listed", "--plan", "pro")
		if n, _ := created.num("interaction_limit"); n != 10000 {
			t.Errorf("svcctl account create --plan pro: interaction_limit %v, want 10000; %s", n, created)
		}
		custom := ctl(t, s.env, "account", "create", "--name", "Custom", "--interaction-limit", "42")
		if n, _ := custom.num("interaction_limit"); n != 42 {
			t.Errorf("svcctl account create --interaction-limit 42: interaction_limit %v, want 42; %s", n, custom)
		}
		ids := map[string]bool{}
		after := ""
		for page := 0; page < 10; page++ {
			args := []string{"account", "list", "--limit", "1"}
			if after != "" {
				args = append(args, "--after", after)
			}
			out := ctl(t, s.env, args...)
			data, _ := out["data"].([]any)
			for _, d := range data {
				ids[obj(d.(map[string]any)).str("account_id")] = true
			}
			if more, _ := out["has_more"].(bool); !more {
				break
			}
			after = out.str("next_cursor")
		}
		for _, id := range []string{acme.id, created.str("account_id"), custom.str("account_id")} {
			if !ids[id] {
				t.Errorf("svcctl account list, page by page: %s missing from %v", id, ids)
			}
		}
	})

	t.Run("svcctl errors", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			args []string
		}{
			{"unknown command", []string{"frobnicate"}},
			{"unknown account", []string{"account", "show", "--account", "acct_doesnotexist"}},
			{"unknown plan", []string{"account", "create", "--name", "X", "--plan", "gold"}},
			{"account without name", []string{"account", "create"}},
			{"unknown status", []string{"account", "set-status", "--account", acme.id, "--status", "paused"}},
			{"key of an unknown account", []string{"key", "create", "--account", "acct_doesnotexist"}},
			{"revoke an unknown key", []string{"key", "revoke", "--key-id", "key_doesnotexist"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := run(t, cmdTimeout, "svcctl", s.env, tc.args...)
				if res.code == 0 {
					t.Errorf("svcctl %s: exit 0, want non-zero; stdout %s", strings.Join(tc.args, " "), res.stdout)
				}
				if strings.TrimSpace(res.stderr) == "" {
					t.Errorf("svcctl %s: nothing on stderr", strings.Join(tc.args, " "))
				}
			})
		}
	})

	t.Run("authentication", func(t *testing.T) {
		for _, tc := range []struct {
			name    string
			headers []string
		}{
			{"no key", nil},
			{"wrong key", bearer("svc_live_" + randomHex(t, 32))},
			{"client session token", bearer("svc_cs_x")},
			{"widget token", bearer(acme.widgetToken)},
			{"key without Bearer", []string{"Authorization", acme.key}},
			{"basic scheme", []string{"Authorization", "Basic " + acme.key}},
			{"basic with a password", []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(acme.key+":x"))}},
			{"basic with a wrong key", []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("svc_live_"+randomHex(t, 32)+":"))}},
			{"empty bearer", []string{"Authorization", "Bearer "}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := call(t, "GET", api.URL()+"/v1/account", tc.headers...)
				wantError(t, r, http.StatusUnauthorized, "unauthorized")
			})
		}
	})

	// Basic with the key as user name and no password (`curl -u svc_live_…:`, as Stripe takes its
	// keys) is the key itself.
	t.Run("basic authentication", func(t *testing.T) {
		r := call(t, "GET", api.URL()+"/v1/account", "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(acme.key+":")))
		if r.status != http.StatusOK || r.body.str("id") != acme.id {
			t.Fatalf("basic with the key: %s, want 200 and the account", r)
		}
	})

	t.Run("account status", func(t *testing.T) {
		a := s.newAccount(t)
		ctl(t, s.env, "account", "set-status", "--account", a.id, "--status", "inactive")
		wantError(t, call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...), http.StatusForbidden, "account_inactive")
		ctl(t, s.env, "account", "set-status", "--account", a.id, "--status", "active")
		if r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...); r.status != http.StatusOK {
			t.Errorf("after set-status active: %s, want 200", r)
		}
	})

	t.Run("revoked key", func(t *testing.T) {
		id, key := s.newKey(t, acme.id, "--name", "to revoke")
		if r := call(t, "GET", api.URL()+"/v1/account", bearer(key)...); r.status != http.StatusOK {
			t.Fatalf("a new key: %s, want 200", r)
		}
		ctl(t, s.env, "key", "revoke", "--key-id", id)
		wantError(t, call(t, "GET", api.URL()+"/v1/account", bearer(key)...), http.StatusUnauthorized, "unauthorized")
		if r := call(t, "GET", api.URL()+"/v1/account", bearer(acme.key)...); r.status != http.StatusOK {
			t.Errorf("the account's other key after the revocation: %s, want 200", r)
		}
	})

	t.Run("plans", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			args []string
			want wantAccount
		}{
			{"free", []string{"--plan", "free"}, wantAccount{plan: "free", webChannels: false, limit: 100}},
			{"starter", []string{"--plan", "starter"}, wantAccount{plan: "starter", webChannels: true, limit: 1000}},
			{"pro", []string{"--plan", "pro"}, wantAccount{plan: "pro", webChannels: true, limit: 10000}},
			{"custom limit", []string{"--interaction-limit", "50"}, wantAccount{plan: "starter", webChannels: true, limit: 50}},
			{"pro with custom limit", []string{"--plan", "pro", "--interaction-limit", "50"}, wantAccount{plan: "pro", webChannels: true, limit: 50}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				name := "Plan " + tc.name
				a := s.newAccount(t, append([]string{"--name", name}, tc.args...)...)
				r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/account: %s", r)
				}
				want := tc.want
				want.id, want.name = a.id, name
				checkAccount(t, r.body, want)
			})
		}
	})

	t.Run("unknown routes and methods", func(t *testing.T) {
		for _, tc := range []struct{ method, path string }{
			{"GET", "/v1/nope"},
			{"GET", "/nope"},
			{"POST", "/v1/account"},
			{"DELETE", "/v1/account"},
			{"PUT", "/v1"},
		} {
			t.Run(tc.method+" "+tc.path, func(t *testing.T) {
				wantError(t, call(t, tc.method, api.URL()+tc.path, bearer(acme.key)...), http.StatusNotFound, "not_found")
			})
		}
	})

	t.Run("request id", func(t *testing.T) {
		for _, tc := range []struct {
			name    string
			path    string
			headers []string
			status  int
		}{
			{"ok", "/v1", nil, 200},
			{"authenticated", "/v1/account", bearer(acme.key), 200},
			{"unauthorized", "/v1/account", nil, 401},
			{"not found", "/v1/nope", nil, 404},
		} {
			t.Run(tc.name, func(t *testing.T) {
				mine := "e2e-" + randomHex(t, 8)
				r := call(t, "GET", api.URL()+tc.path, append([]string{"X-Request-Id", mine}, tc.headers...)...)
				if r.status != tc.status {
					t.Errorf("status %d, want %d: %s", r.status, tc.status, r)
				}
				if got := r.header.Get("X-Request-Id"); got != mine {
					t.Errorf("X-Request-Id %q, want the caller's %q", got, mine)
				}
				first := call(t, "GET", api.URL()+tc.path, tc.headers...).header.Get("X-Request-Id")
				second := call(t, "GET", api.URL()+tc.path, tc.headers...).header.Get("X-Request-Id")
				if first == "" || second == "" {
					t.Errorf("no X-Request-Id generated (%q, %q)", first, second)
				} else if first == second {
					t.Errorf("two requests got the same generated X-Request-Id %q", first)
				}
			})
		}
	})

	t.Run("health, readiness and metrics", func(t *testing.T) {
		checkOperations(t, api)
	})

	t.Run("openapi", func(t *testing.T) {
		checkOpenAPI(t, api)
		checkDescriptionCORS(t, api)
	})

	t.Run("outbox ping through the worker", func(t *testing.T) {
		checkPing(t, ctl(t, s.env, "ping", "--timeout", "60s"))
	})

	t.Run("ping waits for a worker", func(t *testing.T) {
		if code := worker.stop(t); code != 0 {
			t.Errorf("svc-worker exit code %d after SIGTERM, want 0", code)
		}
		res := run(t, cmdTimeout, "svcctl", s.env, "ping", "--timeout", "3s")
		if res.code == 0 {
			t.Errorf("svcctl ping --timeout 3s exited 0 with no worker running; stdout %s", res.stdout)
		} else {
			t.Logf("svcctl ping with no worker: exit %d, stdout %s, stderr %s", res.code, strings.TrimSpace(res.stdout), strings.TrimSpace(res.stderr))
		}
		if strings.TrimSpace(res.stderr) == "" {
			t.Errorf("svcctl ping failed without a message on stderr")
		}
		// The message waits, in the outbox or in the queue.
		waitMetrics(t, api, 30*time.Second, "the unconfirmed ping to show in svc_outbox_backlog + svc_queue_depth",
			func(backlog, depth float64) bool { return backlog+depth >= 1 })

		worker = s.startWorker(outliving{TB: t, outer: outer}) // runs until the SIGTERM subtest
		checkPing(t, ctl(t, s.env, "ping", "--timeout", "60s"))
		// The earlier message is taken too: nothing is left waiting.
		waitMetrics(t, api, 90*time.Second, "svc_outbox_backlog and svc_queue_depth to drop to 0",
			func(backlog, depth float64) bool { return backlog == 0 && depth == 0 })
	})

	t.Run("SIGTERM", func(t *testing.T) {
		if code := api.stop(t); code != 0 {
			t.Errorf("svc-api exit code %d after SIGTERM, want 0", code)
		}
		if code := worker.stop(t); code != 0 {
			t.Errorf("svc-worker exit code %d after SIGTERM, want 0", code)
		}
	})
}

// TestEmbedded runs svc-api alone over a fresh SQLite file: it migrates, creates a demo account
// and key once, and runs the outbox queue in process.
func TestEmbedded(t *testing.T) {
	s := newEmbedded(t)

	api := s.startAPI(t)
	demo := waitDemo(t, api)
	if !strings.HasPrefix(demo.str("account_id"), "acct_") || !strings.HasPrefix(demo.str("api_key"), "svc_live_") {
		t.Fatalf("demo log line: account_id %q api_key %q, want acct_… and svc_live_…: %s", demo.str("account_id"), demo.str("api_key"), demo)
	}
	key := demo.str("api_key")

	r := call(t, "GET", api.URL()+"/v1/account", bearer(key)...)
	if r.status != http.StatusOK || r.body == nil {
		t.Fatalf("GET /v1/account with the demo key: %s", r)
	}
	if got := r.body.str("id"); got != demo.str("account_id") {
		t.Errorf("account id %q, want the demo's %q", got, demo.str("account_id"))
	}
	if got := r.body.str("status"); got != "active" {
		t.Errorf("status %q, want active", got)
	}
	if r := call(t, "GET", api.URL()+"/v1"); r.status != http.StatusOK || r.body.str("version") != apiVersion {
		t.Errorf("GET /v1: %s", r)
	}
	checkDescriptionCORS(t, api)
	wantError(t, call(t, "GET", api.URL()+"/v1/account", bearer("svc_live_"+randomHex(t, 32))...), http.StatusUnauthorized, "unauthorized")
	checkOperations(t, api)

	// svcctl writes a ping into the outbox of the same file; the in-process queue of svc-api
	// takes it.
	checkPing(t, ctl(t, s.env, "ping", "--timeout", "60s"))

	// svcctl works on the same file while svc-api runs.
	a := s.newAccount(t, "--plan", "pro")
	if r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...); r.status != http.StatusOK || r.body.str("plan") != "pro" {
		t.Errorf("GET /v1/account with a key made by svcctl: %s", r)
	}

	if code := api.stop(t); code != 0 {
		t.Errorf("svc-api exit code %d after SIGTERM, want 0", code)
	}
	if n := len(demoEntries(api.log)); n != 1 {
		t.Errorf("%d demo log lines in the first run, want 1", n)
	}

	// A restart on the same file keeps the data and creates no second demo.
	again := s.startAPI(t)
	if r := call(t, "GET", again.URL()+"/v1/account", bearer(key)...); r.status != http.StatusOK {
		t.Errorf("the demo key after a restart: %s, want 200", r)
	}
	checkPing(t, ctl(t, s.env, "ping", "--timeout", "60s"))
	if code := again.stop(t); code != 0 {
		t.Errorf("svc-api exit code %d after SIGTERM (second run), want 0", code)
	}
	if d := demoEntries(again.log); len(d) != 0 {
		t.Errorf("a restart on the same database logged a demo again: %s", d[0])
	}
}

// TestRateLimit checks the limit of 120 requests per minute per key, in both environments.
func TestRateLimit(t *testing.T) {
	for _, tc := range stacks {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.stack(t)
			api := s.startAPI(t)
			a := s.newAccount(t)
			_, other := s.newKey(t, a.id, "--name", "other")
			url := api.URL() + "/v1/account"

			began := time.Now()
			for i := 1; i <= 120; i++ {
				if r := call(t, "GET", url, bearer(a.key)...); r.status != http.StatusOK {
					t.Fatalf("request %d of the first 120: %s, want 200", i, r)
				}
			}
			// A token bucket (GCRA) refills at 2 per second while the 120 go out; a fixed window
			// does not. Either way the limit must bite within that refill.
			var limited response
			for n := 121; ; n++ {
				r := call(t, "GET", url, bearer(a.key)...)
				if r.status == http.StatusTooManyRequests {
					limited = r
					if n > 121 {
						t.Logf("the first 429 came at request %d, %s after the first request", n, time.Since(began).Round(time.Millisecond))
					}
					break
				}
				if r.status != http.StatusOK {
					t.Fatalf("request %d: %s, want 200 or 429", n, r)
				}
				if refill := int(time.Since(began).Seconds()*2) + 1; n-120 > refill {
					t.Fatalf("request %d passed, %s after the first: over 120 per minute and no 429", n, time.Since(began).Round(time.Millisecond))
				}
			}
			wantError(t, limited, http.StatusTooManyRequests, "rate_limited")
			ra, err := strconv.Atoi(limited.header.Get("Retry-After"))
			if err != nil || ra < 1 {
				t.Errorf("Retry-After %q, want whole seconds >= 1", limited.header.Get("Retry-After"))
			}
			if v, ok := limited.body.num("error.retry_after"); !ok || v <= 0 {
				t.Errorf("error.retry_after missing or not a positive number: %s", limited.raw)
			}
			if limited.header.Get("X-Request-Id") == "" {
				t.Errorf("429 without X-Request-Id")
			}
			if r := call(t, "GET", url, bearer(other)...); r.status != http.StatusOK {
				t.Errorf("another key of the same account: %s, want 200", r)
			}
			wantError(t, call(t, "GET", url, bearer(a.key)...), http.StatusTooManyRequests, "rate_limited")
		})
	}
}

// TestConfig checks that every program refuses a malformed environment variable, naming it.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	base := map[string]string{
		"SVC_DATABASE_URL": "sqlite://" + filepath.Join(dir, "svc.db"),
		"SVC_HTTP_ADDR":    "127.0.0.1:0",
	}
	programs := []struct {
		name  string
		args  []string
		extra map[string]string
	}{
		{"svc-api", nil, nil},
		// A worker needs Redis; the bad value must stop it before it gets that far.
		{"svc-worker", nil, map[string]string{"SVC_REDIS_URL": "redis://127.0.0.1:6379/" + strconv.Itoa(e2eRedisDB)}},
		{"svcctl", []string{"migrate"}, nil},
	}
	cases := []struct{ name, value string }{
		{"SVC_ENV", "staging"},
		{"SVC_HTTP_ADDR", "nonsense"},
	}
	for _, p := range programs {
		for _, c := range cases {
			t.Run(p.name+"/"+c.name+"="+c.value, func(t *testing.T) {
				env := map[string]string{}
				for k, v := range base {
					env[k] = v
				}
				for k, v := range p.extra {
					env[k] = v
				}
				env[c.name] = c.value
				res := run(t, 30*time.Second, p.name, env, p.args...)
				if res.timedOut {
					t.Fatalf("%s kept running with %s=%s; stderr:\n%s", p.name, c.name, c.value, res.stderr)
				}
				if res.code == 0 {
					t.Errorf("%s exited 0 with %s=%s; stdout %s", p.name, c.name, c.value, res.stdout)
				}
				if !strings.Contains(res.stderr, c.name) {
					t.Errorf("stderr does not name %s:\n%s", c.name, res.stderr)
				}
			})
		}
	}
}

// ---------------------------------------------------------------------------------------------

// wantAccount is what GET /v1/account must say of a fresh account.
type wantAccount struct {
	id, name, plan string
	webChannels    bool
	limit          float64
}

func checkAccount(t *testing.T, got obj, want wantAccount) {
	t.Helper()
	strs := map[string]string{
		"object":       "account",
		"id":           want.id,
		"name":         want.name,
		"status":       "active",
		"plan":         want.plan,
		"agent.status": "not_configured",
	}
	for path, w := range strs {
		if g := got.str(path); g != w {
			t.Errorf("%s %q, want %q", path, g, w)
		}
	}
	bools := map[string]bool{
		"web_channels":             want.webChannels,
		"agent.configured":         false,
		"agent.channels.api":       true,
		"agent.channels.web":       true,
		"agent.channels.messaging": true,
	}
	for path, w := range bools {
		if g, ok := got.get(path); g != w {
			t.Errorf("%s %v (present %v), want %v", path, g, ok, w)
		}
	}
	nums := map[string]float64{
		"usage.interactions_spent":     0,
		"usage.interactions_remaining": want.limit,
		"usage.interactions_limit":     want.limit,
	}
	for path, w := range nums {
		if g, ok := got.num(path); !ok || g != w {
			t.Errorf("%s %v (a number: %v), want %v", path, g, ok, w)
		}
	}
	if d, ok := got.get("allowed_domains"); !ok {
		t.Errorf("allowed_domains missing")
	} else if l, isList := d.([]any); !isList || len(l) != 0 {
		t.Errorf("allowed_domains %#v, want []", d)
	}
	checkPeriod(t, got.str("usage.period_start"), got.str("usage.period_end"))
	if _, err := time.Parse(time.RFC3339, got.str("created_at")); err != nil {
		t.Errorf("created_at %q: %v", got.str("created_at"), err)
	}
	if t.Failed() {
		t.Logf("account: %s", got)
	}
}

// checkPeriod checks that the period is the current calendar month in UTC. The end may be given
// as the first instant of the next month (exclusive) or as the last moment of this one.
func checkPeriod(t *testing.T, start, end string) {
	t.Helper()
	if !strings.HasSuffix(start, "Z") || !strings.HasSuffix(end, "Z") {
		t.Errorf("period %q – %q: want UTC times ending in Z", start, end)
	}
	s, err1 := time.Parse(time.RFC3339Nano, start)
	e, err2 := time.Parse(time.RFC3339Nano, end)
	if err1 != nil || err2 != nil {
		t.Errorf("period %q – %q: %v %v", start, end, err1, err2)
		return
	}
	now := time.Now().UTC()
	ok := false
	for _, at := range []time.Time{now, now.Add(-time.Minute)} { // a month may turn during the test
		first := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)
		next := first.AddDate(0, 1, 0)
		if s.Equal(first) && !e.After(next) && !e.Before(next.Add(-time.Second)) {
			ok = true
		}
	}
	if !ok {
		t.Errorf("period %s – %s is not the current calendar month in UTC", start, end)
	}
}

// checkOperations checks /healthz, /readyz and /metrics, which is served on its own listener and
// not on the API's.
func checkOperations(t *testing.T, api *proc) {
	t.Helper()
	for _, path := range []string{"/healthz", "/readyz"} {
		if r := call(t, "GET", api.URL()+path); r.status != http.StatusOK {
			t.Errorf("GET %s: %s, want 200", path, r)
		}
	}
	wantError(t, call(t, "GET", api.URL()+"/metrics"), http.StatusNotFound, "not_found")
	r := call(t, "GET", api.MetricsURL())
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d", api.MetricsURL(), r.status)
	}
	for _, name := range []string{"svc_http_requests_total", "svc_http_request_duration_seconds", "svc_queue_depth", "svc_outbox_backlog"} {
		if !strings.Contains(string(r.raw), name) {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", r.raw)
	}
}

// checkOpenAPI checks the OpenAPI description.
func checkOpenAPI(t *testing.T, api *proc) {
	t.Helper()
	r := call(t, "GET", api.URL()+"/v1/openapi.json")
	if r.status != http.StatusOK || r.body == nil {
		t.Fatalf("GET /v1/openapi.json: %d %.300s", r.status, r.raw)
	}
	if v := r.body.str("openapi"); !strings.HasPrefix(v, "3.1.") {
		t.Errorf("openapi %q, want 3.1.x", v)
	}
	if v := r.body.str("info.version"); v != apiVersion {
		t.Errorf("info.version %q, want %s", v, apiVersion)
	}
	paths, _ := r.body.get("paths")
	pm, _ := paths.(map[string]any)
	for _, p := range []string{"/v1", "/v1/account"} {
		ops, _ := pm[p].(map[string]any)
		if _, ok := ops["get"]; !ok {
			t.Errorf("paths[%q] has no get operation", p)
		}
	}
}

// checkDescriptionCORS: GET /v1 and GET /v1/openapi.json need no credential, so a page on another
// origin (an API explorer) may read them: their answers, and their preflights, allow any origin.
// A route of an API key stays closed to browsers.
func checkDescriptionCORS(t *testing.T, api *proc) {
	t.Helper()
	origin := []string{"Origin", "https://explorer.example"}
	for _, path := range []string{"/v1", "/v1/openapi.json"} {
		if r := call(t, "GET", api.URL()+path, origin...); r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s from another origin: %d, Access-Control-Allow-Origin %q, want 200 and *", path, r.status, r.header.Get("Access-Control-Allow-Origin"))
		}
		pre := call(t, "OPTIONS", api.URL()+path, append(origin, "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "x-request-id")...)
		if pre.status != http.StatusNoContent || pre.header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(pre.header.Get("Access-Control-Allow-Methods"), "GET") {
			t.Errorf("OPTIONS %s: %d %v, want 204 allowing GET from any origin", path, pre.status, pre.header)
		}
	}
	if r := call(t, "OPTIONS", api.URL()+"/v1/account", append(origin, "Access-Control-Request-Method", "GET")...); r.status != http.StatusNotFound || r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("OPTIONS /v1/account: %d, Access-Control-Allow-Origin %q, want 404 without it", r.status, r.header.Get("Access-Control-Allow-Origin"))
	}
}

// checkPing checks the output of a successful svcctl ping.
func checkPing(t *testing.T, out obj) {
	t.Helper()
	if v, _ := out.get("done"); v != true {
		t.Errorf("svcctl ping: %s, want done:true", out)
	}
	if out.str("id") == "" {
		t.Errorf("svcctl ping: %s, want an id", out)
	}
	if ms, ok := out.num("latency_ms"); !ok || ms < 0 {
		t.Errorf("svcctl ping: %s, want latency_ms >= 0", out)
	}
}

// waitMetrics polls svc-api's /metrics until cond holds for the sums of svc_outbox_backlog and
// svc_queue_depth.
func waitMetrics(t *testing.T, api *proc, timeout time.Duration, what string, cond func(backlog, depth float64) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r := call(t, "GET", api.MetricsURL())
		backlog, ok1 := metricSum(string(r.raw), "svc_outbox_backlog")
		depth, ok2 := metricSum(string(r.raw), "svc_queue_depth")
		if ok1 && ok2 && cond(backlog, depth) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("waited %s for %s: svc_outbox_backlog %v (present %v), svc_queue_depth %v (present %v)", timeout, what, backlog, ok1, depth, ok2)
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// demoEntries returns the log entries that announce the demo account with its key.
func demoEntries(l *lineLog) []obj {
	var out []obj
	for _, e := range l.Entries() {
		msg, _ := e["msg"].(string)
		if !strings.Contains(strings.ToLower(msg), "demo") {
			continue
		}
		if _, ok := e["api_key"]; ok {
			out = append(out, obj(e))
		}
	}
	return out
}

// waitDemo waits for the demo log line of a first start.
func waitDemo(t *testing.T, api *proc) obj {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if d := demoEntries(api.log); len(d) > 0 {
			return d[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no demo log line (msg containing \"demo\" with account_id and api_key) on a fresh database; log:\n%s", api.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
