package tests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/svcagent/svc/internal/testenv"
)

// Faults: the production stack (svc-api and svc-worker over Postgres and Redis) while Redis is
// stopped and while Postgres is cut off. Neither test touches the shared services: Redis is a
// redis-server of the test's own, and Postgres is reached through a proxy the test cuts.

// TestRedisOutage stops Redis in the middle of traffic. The API keeps answering authenticated
// calls at once (the rate limits, headers included, are counted in the process), /readyz says
// degraded with 200 within 1 s, every log line stays a JSON entry, the fallback is logged once and shows in /metrics; an FAQ change (its webhook event)
// and a ping accepted during the outage are delivered once Redis is back, and the limits go back
// to Redis.
func TestRedisOutage(t *testing.T) {
	s, rs := privateRedisStack(t)
	api := s.startAPI(t, privateTargets...)
	worker := s.startWorker(t, privateTargets...)
	a := s.newAccount(t)
	rcv := newHookReceiver(t, http.StatusOK)
	createHook(t, api, a.key, rcv.URL("/hooks"), "knowledge.updated")
	upsertFAQ(t, api, a.key, "Is the queue working?")
	rcv.waitCount(t, 60*time.Second, "/hooks", 1)

	rs.stop(t)
	for i := range 30 {
		began := time.Now()
		r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
		// A Redis that refuses connections fails at once: no call waits out the limiter's timeout.
		if took := time.Since(began); took > 400*time.Millisecond {
			t.Errorf("call %d with Redis down took %s, want under 400 ms", i+1, took.Round(time.Millisecond))
		}
		if r.status != http.StatusOK {
			t.Fatalf("call %d with Redis down: %s, want 200", i+1, r)
		}
		for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
			if r.header.Get(h) == "" {
				t.Fatalf("call %d with Redis down: no %s header", i+1, h)
			}
		}
	}
	upsertFAQ(t, api, a.key, "Does it work without Redis?")
	pinged := make(chan runResult, 1)
	go func() { pinged <- run(t, cmdTimeout, "svcctl", s.env, "ping", "--timeout", "90s") }() // run fails only if svcctl cannot start

	began := time.Now()
	ready := call(t, "GET", api.URL()+"/readyz")
	// Within the 1 s a load balancer's probe commonly waits (Kubernetes' default), or the
	// degraded instance is taken out of rotation after all.
	if took := time.Since(began); took > time.Second {
		t.Errorf("GET /readyz with Redis down took %s, want under 1 s", took.Round(time.Millisecond))
	}
	if ready.status != http.StatusOK || ready.body.str("status") != "degraded" || ready.body.str("checks.redis") != "degraded" ||
		ready.body.str("checks.store") != "ok" {
		t.Errorf("GET /readyz with Redis down: %s, want 200 status degraded, checks.redis degraded, checks.store ok", ready)
	}
	if v, ok := metricSum(string(call(t, "GET", api.MetricsURL()).raw), "svc_ratelimit_degraded"); !ok || v != 1 {
		t.Errorf("svc_ratelimit_degraded %v (present %v) with Redis down, want 1", v, ok)
	}
	if v, _ := metricSum(string(call(t, "GET", api.MetricsURL()).raw), "svc_ratelimit_fallback_requests_total"); v < 30 {
		t.Errorf("svc_ratelimit_fallback_requests_total %v, want at least the 30 calls", v)
	}

	rs.start(t)
	// The event was claimed by a relay that could not hand it over: it goes when the outbox lease
	// (30 s) runs out.
	rcv.waitFor(t, 90*time.Second, "the event of the FAQ changed during the outage delivered", func() bool {
		return len(rcv.byDelivery("/hooks")) >= 2
	})
	if res := <-pinged; res.code != 0 {
		t.Errorf("svcctl ping started during the outage: exit %d, stdout %s, stderr %s", res.code, res.stdout, res.stderr)
	} else {
		checkPing(t, parseObj(res.stdout))
	}
	waitLimitsInRedis(t, api, a.key)
	if r := call(t, "GET", api.URL()+"/readyz"); r.status != http.StatusOK || r.body.str("status") != "ready" {
		t.Errorf("GET /readyz after Redis returned: %s, want 200 ready", r)
	}
	if n := logCount(api.log, "rate limits in Redis: failing"); n != 1 {
		t.Errorf("the fallback was logged %d times, want once for the outage", n)
	}
	if n := logCount(api.log, "rate limits in Redis: back"); n != 1 {
		t.Errorf("the return of Redis was logged %d times, want once", n)
	}
	for _, p := range []*proc{api, worker} {
		if lines := notJSON(p.log.Lines()); len(lines) > 0 {
			t.Errorf("%s wrote %d log lines that are not JSON entries, e.g. %q", p.name, len(lines), lines[0])
		}
	}
}

// privateRedisStack is the production stack (migrated) over a Redis of the test's own, which it
// may stop and start.
func privateRedisStack(t *testing.T) (stack, *privateRedis) {
	t.Helper()
	rs := newPrivateRedis(t)
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": testenv.Postgres(t),
		"SVC_REDIS_URL":    rs.url,
	}}
	migrate(t, s)
	return s, rs
}

// notJSON returns the lines of a program's stderr that are not JSON objects (zap's entries).
func notJSON(lines []string) []string {
	var out []string
	for _, line := range lines {
		if strings.HasPrefix(line, "stdout: ") || strings.TrimSpace(line) == "" {
			continue
		}
		if !json.Valid([]byte(line)) || !strings.HasPrefix(strings.TrimSpace(line), "{") {
			out = append(out, line)
		}
	}
	return out
}

// TestWorkerWithoutRedis starts svc-worker with a Redis that cannot be reached: it stops within
// seconds with exit code 1 and one message naming SVC_REDIS_URL, rather than run and take nothing
// (its polls failing in the log); every other line it wrote is a JSON entry.
func TestWorkerWithoutRedis(t *testing.T) {
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": testenv.Postgres(t),
		"SVC_REDIS_URL":    "redis://" + freeAddr(t) + "/0", // nothing listens there
	}}
	migrate(t, s)
	started := time.Now()
	res := run(t, 60*time.Second, "svc-worker", s.env)
	if res.timedOut {
		t.Fatalf("svc-worker kept running without Redis; stderr:\n%s", res.stderr)
	}
	if res.code != 1 {
		t.Errorf("svc-worker exited %d without Redis, want 1", res.code)
	}
	if took := time.Since(started); took > 20*time.Second {
		t.Errorf("svc-worker took %s to give up, want under 20 s", took)
	}
	lines := notJSON(strings.Split(strings.TrimSpace(res.stderr), "\n"))
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "svc-worker: SVC_REDIS_URL: redis cannot be reached") {
		t.Errorf("stderr's lines other than JSON entries %q, want one: svc-worker: SVC_REDIS_URL: redis cannot be reached…", lines)
	}
}

// TestPostgresRestart cuts svc-api off Postgres, as a restart of Postgres looks to its clients
// (every connection closed, new ones refused): every call that needs the store answers 503
// service_unavailable with Retry-After, never 500, /readyz answers 503; once the database is
// back the API recovers by itself within 10 s, and stays up (no dead pooled connection fails a
// later call).
func TestPostgresRestart(t *testing.T) {
	s, proxy := postgresViaProxy(t)
	api := s.startAPI(t)
	a := s.newAccount(t)
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Outage Bakery"}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent: %s", r)
	}
	type request struct {
		method, path string
		body         any
	}
	requests := []request{
		{"GET", "/v1/account", nil},
		{"GET", "/v1/agent", nil},
		{"GET", "/v1/knowledge", nil},
		{"GET", "/v1/conversations", nil},
		{"GET", "/v1/webhooks", nil},
		{"GET", "/v1/usage", nil},
		{"POST", "/v1/chat", map[string]any{"message": "Are you open on Sunday?"}},
		{"POST", "/v1/knowledge/faq", map[string]any{"items": []map[string]string{{"question": "Sunday?", "answer": "Closed."}}}},
	}
	do := func(rq request) response {
		if rq.body == nil {
			return call(t, rq.method, api.URL()+rq.path, bearer(a.key)...)
		}
		return callJSON(t, rq.method, api.URL()+rq.path, rq.body, bearer(a.key)...)
	}
	for _, rq := range requests { // every route works, and the pool holds connections
		if r := do(rq); r.status >= 300 {
			t.Fatalf("%s %s before the outage: %s", rq.method, rq.path, r)
		}
	}

	proxy.Cut()
	for round := range 2 {
		for _, rq := range requests {
			r := do(rq)
			wantError(t, r, http.StatusServiceUnavailable, "service_unavailable")
			secs, err := strconv.Atoi(r.header.Get("Retry-After"))
			if err != nil || secs < 1 {
				t.Errorf("round %d, %s %s: Retry-After %q, want whole seconds", round+1, rq.method, rq.path, r.header.Get("Retry-After"))
			}
			if v, ok := r.body.num("error.retry_after"); !ok || int(v) != secs {
				t.Errorf("round %d, %s %s: error.retry_after %v, want %d as in Retry-After", round+1, rq.method, rq.path, v, secs)
			}
		}
	}
	if r := call(t, "GET", api.URL()+"/readyz"); r.status != http.StatusServiceUnavailable || r.body.str("checks.store") != "unavailable" {
		t.Errorf("GET /readyz with the database cut: %s, want 503 with checks.store unavailable", r)
	}
	if r := call(t, "GET", api.URL()+"/healthz"); r.status != http.StatusOK {
		t.Errorf("GET /healthz with the database cut: %s, want 200 (the process is alive)", r)
	}

	proxy.Restore()
	waitFor(t, 10*time.Second, "the API to recover after the database returned", func() (bool, string) {
		r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
		return r.status == http.StatusOK, r.String()
	})
	for range 3 {
		for _, rq := range requests {
			if r := do(rq); r.status >= 300 {
				t.Errorf("%s %s after the recovery: %s", rq.method, rq.path, r)
			}
		}
	}
	if r := call(t, "GET", api.URL()+"/readyz"); r.status != http.StatusOK {
		t.Errorf("GET /readyz after the recovery: %s, want 200", r)
	}
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error during the outage, want none", n)
	}
}

// postgresViaProxy is the production stack (migrated) over a Postgres of its own reached through
// a proxy the test can cut or stall.
func postgresViaProxy(t *testing.T) (stack, *testenv.Proxy) {
	t.Helper()
	pg, err := url.Parse(testenv.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewProxy(t, pg.Host)
	pg.Host = proxy.Addr()
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": pg.String(),
		"SVC_REDIS_URL":    productionRedis(t, e2eRedisDB),
	}}
	migrate(t, s)
	return s, proxy
}

// waitLimitsInRedis waits until api counts the rate limits in Redis again after an outage, each
// call answering 200.
func waitLimitsInRedis(t *testing.T, api *proc, key string) {
	t.Helper()
	waitFor(t, 30*time.Second, "the rate limits back in Redis", func() (bool, string) {
		if r := call(t, "GET", api.URL()+"/v1/account", bearer(key)...); r.status != http.StatusOK {
			t.Fatalf("after Redis returned: %s", r)
		}
		v, ok := metricSum(string(call(t, "GET", api.MetricsURL()).raw), "svc_ratelimit_degraded")
		return ok && v == 0, "svc_ratelimit_degraded " + strconv.FormatFloat(v, 'g', -1, 64)
	})
}

// migrate runs svcctl migrate in the stack.
func migrate(t *testing.T, s stack) {
	t.Helper()
	if v, _ := ctl(t, s.env, "migrate").get("migrated"); v != true {
		t.Fatal("svcctl migrate did not report migrated:true")
	}
}

// logCount counts a program's log entries whose message contains msg.
func logCount(l *lineLog, msg string) int {
	n := 0
	for _, e := range l.Entries() {
		if m, _ := e["msg"].(string); strings.Contains(m, msg) {
			n++
		}
	}
	return n
}

// stallTimed sends rq and checks that the answer comes within limit.
func stallTimed(t *testing.T, limit time.Duration, what string, send func() response) response {
	t.Helper()
	start := time.Now()
	r := send()
	if took := time.Since(start); took > limit {
		t.Errorf("%s: answered after %v, want within %v; %s", what, took.Round(time.Millisecond), limit, shorten(r.String(), 200))
	}
	return r
}

// TestRedisStall: Redis stops answering without closing its connections (a network partition, a
// hung server), which TestRedisOutage's stopped Redis does not show. Requests of that moment
// wait about a second, not the Redis client's timeouts and retries (10 s), then the rate limits
// are counted in the process: every call answers 200 within 3 s, /readyz says degraded within
// 1 s, and once Redis answers again the limits go back to it.
func TestRedisStall(t *testing.T) {
	rd, err := url.Parse(productionRedis(t, e2eRedisDB))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewProxy(t, rd.Host)
	rd.Host = proxy.Addr()
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": testenv.Postgres(t),
		"SVC_REDIS_URL":    rd.String(),
	}}
	migrate(t, s)
	api := s.startAPI(t)
	a := s.newAccount(t)
	if r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("GET /v1/account before the stall: %s", r)
	}

	proxy.Stall()
	done := make(chan response, 8)
	for range cap(done) { // the requests of the moment Redis stalls, at once
		go func() {
			done <- stallTimed(t, 3*time.Second, "GET /v1/account as Redis stalls", func() response {
				return call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
			})
		}()
	}
	for range cap(done) {
		if r := <-done; r.status != http.StatusOK {
			t.Errorf("GET /v1/account as Redis stalls: %s, want 200", shorten(r.String(), 200))
		}
	}
	for _, rq := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/v1/account", nil},
		{"POST", "/v1/knowledge/faq", map[string]any{"items": []map[string]string{{"question": "Stalled?", "answer": "No."}}}},
		{"GET", "/v1/knowledge", nil},
	} {
		r := stallTimed(t, 3*time.Second, rq.method+" "+rq.path+" while Redis stalls", func() response {
			if rq.body == nil {
				return call(t, rq.method, api.URL()+rq.path, bearer(a.key)...)
			}
			return callJSON(t, rq.method, api.URL()+rq.path, rq.body, bearer(a.key)...)
		})
		if r.status != http.StatusOK {
			t.Errorf("%s %s while Redis stalls: %s, want 200", rq.method, rq.path, shorten(r.String(), 200))
		}
	}
	// Within the 1 s a load balancer's probe commonly waits (Kubernetes' default), or the
	// degraded instance is taken out of rotation after all.
	ready := stallTimed(t, time.Second, "GET /readyz while Redis stalls", func() response { return call(t, "GET", api.URL()+"/readyz") })
	if ready.status != http.StatusOK || ready.body.str("checks.redis") != "degraded" || ready.body.str("checks.store") != "ok" {
		t.Errorf("GET /readyz while Redis stalls: %s, want 200 with checks.redis degraded, checks.store ok", ready)
	}

	proxy.Restore()
	waitLimitsInRedis(t, api, a.key)
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error while Redis stalled, want none", n)
	}
}

// TestPostgresStall: Postgres stops answering without closing its connections. A call that needs
// the store answers 503 service_unavailable with Retry-After within 15 s, never hangs or 500s,
// and the API serves again once the database answers.
func TestPostgresStall(t *testing.T) {
	s, proxy := postgresViaProxy(t)
	api := s.startAPI(t)
	a := s.newAccount(t)
	if r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("GET /v1/account before the stall: %s", r)
	}

	proxy.Stall()
	paths := []string{"/v1/account", "/v1/knowledge", "/v1/conversations"}
	done := make(chan response, len(paths))
	for _, p := range paths {
		go func() {
			done <- stallTimed(t, 15*time.Second, "GET "+p+" while Postgres stalls", func() response {
				return call(t, "GET", api.URL()+p, bearer(a.key)...)
			})
		}()
	}
	for range paths {
		r := <-done
		wantError(t, r, http.StatusServiceUnavailable, "service_unavailable")
		if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
			t.Errorf("Retry-After %q while Postgres stalls, want whole seconds", r.header.Get("Retry-After"))
		}
	}
	proxy.Restore()
	waitFor(t, 30*time.Second, "the API to serve after Postgres answered again", func() (bool, string) {
		r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
		return r.status == http.StatusOK, r.String()
	})
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error while Postgres stalled, want none", n)
	}
}

// TestUnmigratedStore starts svc-api and svc-worker of the production environment, which never
// migrates by itself, on a database svcctl migrate never ran on, and then on one whose last
// migration was not applied (a new version deployed before its migration): each stops at once
// with exit code 1 and one message that says to run svcctl migrate, rather than start and fail
// the calls that reach a missing table or column.
func TestUnmigratedStore(t *testing.T) {
	pg := testenv.Postgres(t)
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": pg,
		"SVC_REDIS_URL":    productionRedis(t, e2eRedisDB),
	}}
	check := func(t *testing.T) {
		for _, name := range []string{"svc-api", "svc-worker"} {
			env := s.with("SVC_HTTP_ADDR", freeAddr(t), "SVC_METRICS_ADDR", "")
			res := run(t, 60*time.Second, name, env)
			if res.timedOut {
				t.Fatalf("%s kept running on an unmigrated database; stderr:\n%s", name, res.stderr)
			}
			if res.code != 1 {
				t.Errorf("%s exited %d on an unmigrated database, want 1", name, res.code)
			}
			lines := notJSON(strings.Split(strings.TrimSpace(res.stderr), "\n"))
			if len(lines) != 1 || !strings.HasPrefix(lines[0], name+": SVC_DATABASE_URL: the database is not migrated") ||
				!strings.Contains(lines[0], "svcctl migrate") {
				t.Errorf("%s: stderr's lines other than JSON entries %q, want one saying to run svcctl migrate", name, lines)
			}
		}
	}
	t.Run("never migrated", check)

	migrate(t, s)
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(pg)))
	defer func() { _ = db.Close() }()
	// The record of the last migration set aside: to the programs it was never applied.
	for _, q := range []string{
		"CREATE TABLE set_aside AS SELECT * FROM bun_migrations WHERE id = (SELECT max(id) FROM bun_migrations)",
		"DELETE FROM bun_migrations WHERE id IN (SELECT id FROM set_aside)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("last migration not applied", check)

	if _, err := db.Exec("INSERT INTO bun_migrations SELECT * FROM set_aside"); err != nil {
		t.Fatal(err)
	}
	s.startWorker(t)
	if r := call(t, "GET", s.startAPI(t).URL()+"/readyz"); r.status != http.StatusOK {
		t.Errorf("GET /readyz once migrated: %s, want 200", r)
	}
}

// TestOutageLogLines counts the log lines of an outage of Redis: svc-api started while Redis is
// down says so at once, before any request; over 5 s of the outage each program writes a few
// warnings (one per cause when it starts, no stack trace), not one per poll; and svc-worker says
// when Redis is back.
func TestOutageLogLines(t *testing.T) {
	s, rs := privateRedisStack(t)
	worker := s.startWorker(t, privateTargets...)
	rs.stop(t)
	api := s.startAPI(t, privateTargets...)
	waitFor(t, 10*time.Second, "svc-api to log that Redis cannot be reached, before any request", func() (bool, string) {
		n := logCount(api.log, "rate limits in Redis: failing")
		return n == 1, strconv.Itoa(n) + " lines"
	})
	fewLinesDuring(t, 5*time.Second, 4, api, worker)
	rs.start(t)
	waitFor(t, 30*time.Second, "svc-worker to log that Redis is back", func() (bool, string) {
		n := logCount(worker.log, "redis: back")
		return n == 1, strconv.Itoa(n) + " lines"
	})
	if n := logCount(worker.log, "redis: failing"); n != 1 {
		t.Errorf("svc-worker logged the start of the outage %d times, want once", n)
	}
}

// fewLinesDuring checks that each of procs writes at most n warnings and errors over d (of an
// outage), none with a stack trace.
func fewLinesDuring(t *testing.T, d time.Duration, n int, procs ...*proc) {
	t.Helper()
	from := make([]int, len(procs))
	for i, p := range procs {
		from[i] = len(p.log.Entries())
	}
	time.Sleep(d)
	for i, p := range procs {
		var lines []string
		for _, e := range p.log.Entries()[from[i]:] {
			if lv, _ := e["level"].(string); lv == "warn" || lv == "error" {
				m, _ := e["msg"].(string)
				lines = append(lines, m)
				if _, ok := e["stacktrace"]; ok {
					t.Errorf("%s: %q carries a stack trace", p.name, m)
				}
			}
		}
		if len(lines) > n {
			t.Errorf("%s wrote %d warnings and errors in %s of the outage, want at most %d: %q", p.name, len(lines), d, n, lines)
		}
	}
}

// TestPostgresOutageLogLines cuts Postgres off: over 5 s each program writes a few warnings
// (the outbox relay's once, not every 250 ms), and each says when its relay works again.
func TestPostgresOutageLogLines(t *testing.T) {
	s, proxy := postgresViaProxy(t)
	api := s.startAPI(t, privateTargets...)
	worker := s.startWorker(t, privateTargets...)
	proxy.Cut()
	waitFor(t, 30*time.Second, "the outbox relays to log that they fail", func() (bool, string) {
		a, w := logCount(api.log, "outbox relay: failing"), logCount(worker.log, "outbox relay: failing")
		return a == 1 && w == 1, fmt.Sprintf("svc-api %d, svc-worker %d", a, w)
	})
	fewLinesDuring(t, 5*time.Second, 4, api, worker)
	proxy.Restore()
	waitFor(t, 60*time.Second, "the outbox relays to log that they work again", func() (bool, string) {
		a, w := logCount(api.log, "outbox relay: back"), logCount(worker.log, "outbox relay: back")
		return a == 1 && w == 1, fmt.Sprintf("svc-api %d, svc-worker %d", a, w)
	})
	for _, p := range []*proc{api, worker} {
		if n := logCount(p.log, "outbox relay: failing"); n != 1 {
			t.Errorf("%s logged the relay's failure %d times, want once", p.name, n)
		}
	}
}

// TestWorkerDrainCutShort stops svc-worker while it delivers a webhook event to a receiver that
// does not answer: with SVC_SHUTDOWN_TIMEOUT 1 s the drain cuts the delivery short and svc-worker
// exits 1, as svc-api does when its drain is cut short (a clean drain exits 0: TestProduction).
func TestWorkerDrainCutShort(t *testing.T) {
	s, _ := privateRedisStack(t)
	s.env["SVC_SHUTDOWN_TIMEOUT"] = "1s"
	api := s.startAPI(t, privateTargets...)
	worker := s.startWorker(t, privateTargets...)
	a := s.newAccount(t)
	reached, release := make(chan struct{}, 1), make(chan struct{})
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case reached <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hook.Close)
	t.Cleanup(func() { close(release) })
	createHook(t, api, a.key, hook.URL+"/hooks", "knowledge.updated")
	upsertFAQ(t, api, a.key, "Is the drain cut short?")
	select {
	case <-reached:
	case <-time.After(60 * time.Second):
		t.Fatal("the webhook event did not reach the receiver within 60 s")
	}
	if code := worker.stop(t); code != 1 {
		t.Errorf("svc-worker exit code %d after a drain cut short, want 1", code)
	}
}

// TestSQLiteLocked: another connection (an operator's sqlite3, svcctl) holds the embedded
// SQLite file's write lock past the busy timeout. A call that writes answers 503
// service_unavailable with Retry-After, as a Postgres outage does, never a 500 logged as an
// internal error; reads go on (WAL); the relay's failing pass is logged once, not every 250 ms;
// once the lock is let go every call works again.
func TestSQLiteLocked(t *testing.T) {
	s := newEmbedded(t)
	path := strings.TrimPrefix(s.env["SVC_DATABASE_URL"], "sqlite://")
	api := s.startAPI(t, "SVC_DATABASE_URL", s.env["SVC_DATABASE_URL"]+"?_pragma=busy_timeout(300)")
	a := s.newAccount(t)
	write := func() response {
		return callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Locked Bakery"}, bearer(a.key)...)
	}
	if r := write(); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent: %s", r)
	}

	db, err := sql.Open(sqliteshim.ShimName, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	hold, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		r := stallTimed(t, 5*time.Second, "PATCH /v1/agent with the database locked", write)
		wantError(t, r, http.StatusServiceUnavailable, "service_unavailable")
		if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
			t.Errorf("write %d: Retry-After %q, want whole seconds", i+1, r.header.Get("Retry-After"))
		}
	}
	if r := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); r.status != http.StatusOK {
		t.Errorf("GET /v1/agent with the database locked: %s, want 200 (reads go on)", r)
	}
	fewLinesDuring(t, 3*time.Second, 3, api)

	if _, err := hold.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	_ = hold.Close()
	if r := write(); r.status != http.StatusOK {
		t.Errorf("PATCH /v1/agent after the lock was let go: %s", r)
	}
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error while the database was locked, want none", n)
	}
	waitFor(t, 10*time.Second, "the outbox relay to log that it works again", func() (bool, string) {
		n := logCount(api.log, "outbox relay: back")
		return n == 1, strconv.Itoa(n) + " lines"
	})
}

// TestSQLiteDiskFull: svc-api on a SQLite file with no room left for the pages a write needs
// (max_page_count, what a full disk gives: SQLITE_FULL) answers a write 503 service_unavailable
// with Retry-After, not a 500 logged as an internal error; reads go on; the log names the cause
// once, as an outage an operator acts on.
func TestSQLiteDiskFull(t *testing.T) {
	s := newEmbedded(t)
	path := strings.TrimPrefix(s.env["SVC_DATABASE_URL"], "sqlite://")
	s.startAPI(t).stop(t) // migrated
	a := s.newAccount(t)
	db, err := sql.Open(sqliteshim.ShimName, path)
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.QueryRowContext(t.Context(), "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	api := s.startAPI(t, "SVC_DATABASE_URL", s.env["SVC_DATABASE_URL"]+fmt.Sprintf("?_pragma=max_page_count(%d)", pages+32))

	content := strings.Repeat("We bake bread every morning from six. ", 5000) // 190 kB: more than 32 pages
	for i := range 2 {
		r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{"pages": []map[string]any{
			{"url": "https://full.example/p", "title": "Bread", "content": content}}}, bearer(a.key)...)
		wantError(t, r, http.StatusServiceUnavailable, "service_unavailable")
		if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
			t.Errorf("write %d: Retry-After %q, want whole seconds", i+1, r.header.Get("Retry-After"))
		}
	}
	if r := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); r.status != http.StatusOK {
		t.Errorf("GET /v1/agent with the disk full: %s, want 200 (reads go on)", r)
	}
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error with the disk full, want none", n)
	}
	if n := logCount(api.log, "SQLite: disk full: failing"); n != 1 {
		t.Errorf("%d lines say the disk is full, want one:\n%s", n, api.log)
	}
}
