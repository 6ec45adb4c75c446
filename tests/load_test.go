package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load harness (`make bench`) measures the service the way its users meet it: the real
// programs of each environment over loopback HTTP, against a fake OpenAI-compatible upstream that
// answers at once, with many accounts and keys (each request's key differs from the last, as in
// real traffic), alternating every measure with the same requests sent to the upstream directly,
// over several rounds. It writes BENCHMARKS.md (the table, the machine, the method) and prints
// it. TestLoad runs it when SVC_BENCH=1 (make bench); TestLoadSmoke runs it in quick mode in the
// embedded environment so that it keeps working.

// loadConfig is what one run measures; loadConfigFromEnv reads it from BENCH_* variables.
type loadConfig struct {
	envs         []string      // environments: embedded, production
	rounds       int           // rounds; each measures every system in turn
	duration     time.Duration // one timed phase (fixed rate or closed loop) of one system
	samples      int           // one-at-a-time requests per system and round
	streams      int           // one-at-a-time streams per system and round
	accounts     int           // relay accounts, one key each
	chatAccounts int           // accounts with an agent and a Brain for POST /v1/chat
	hookAccounts int           // accounts with hooksPerBenchAccount webhooks each
	events       int           // events per webhook phase (each fans out to hooksPerBenchAccount)
	rates        []float64     // fixed rates of the relay, requests per second
	clients      int           // closed-loop clients of the relay
	chatClients  int           // closed-loop clients of POST /v1/chat
	chatRate     float64       // fixed rate of POST /v1/chat
	programEnv   []string      // extra name, value pairs for every svc-api and svc-worker
	out          string        // the report file ("" writes none)
	note         string        // a sentence for the report (the state of the machine)
	quick        bool
	measures     map[string]bool // which measures run: relay, chat, hooks (all when empty)
	baseBin      string          // a directory with a previous build's programs, run beside this build's ("" for none)
	baseEnv      []string        // extra name, value pairs for the programs of baseBin
	countStmts   bool            // count the chat process's Postgres statements through a counting proxy
}

// runs reports whether the measure group m (relay, chat, hooks) is part of the run.
func (c loadConfig) runs(m string) bool { return len(c.measures) == 0 || c.measures[m] }

// defaultLoadConfig is a full run: about ten minutes for both environments.
func defaultLoadConfig() loadConfig {
	return loadConfig{
		envs: []string{"embedded", "production"}, rounds: 3, duration: 10 * time.Second,
		samples: 300, streams: 100, accounts: 150, chatAccounts: 150, hookAccounts: 10, events: 200,
		rates: []float64{100, 300}, clients: 32, chatClients: 16, chatRate: 300,
		programEnv: []string{"SVC_PLAN_PRO_RATE_LIMITS", loadRateLimits},
	}
}

// loadRateLimits lifts the per-minute limits of the pro plan (the accounts' plan) far above what
// the harness sends, so that limits never cap the load; they are still checked on every request.
const loadRateLimits = "key=1000000,chat=1000000,assistant=1000000,model=1000000"

// quickLoadConfig is a smoke run: every measure, briefly, with few accounts.
func quickLoadConfig() loadConfig {
	c := defaultLoadConfig()
	c.quick = true
	c.rounds, c.duration, c.samples, c.streams = 1, 400*time.Millisecond, 20, 5
	c.accounts, c.chatAccounts, c.hookAccounts, c.events = 4, 2, 1, 10
	c.rates, c.chatRate = []float64{20, 40}, 20
	c.clients, c.chatClients = 4, 2
	return c
}

// loadConfigFromEnv reads BENCH_QUICK (1: start from the quick configuration), BENCH_ENVS
// (embedded,production), BENCH_ROUNDS, BENCH_DURATION (a Go duration), BENCH_SAMPLES,
// BENCH_STREAMS, BENCH_ACCOUNTS, BENCH_CHAT_ACCOUNTS, BENCH_EVENTS, BENCH_RATES (100,300),
// BENCH_CLIENTS, BENCH_CHAT_CLIENTS, BENCH_CHAT_RATE, BENCH_PROGRAM_ENV (NAME=value pairs
// separated by spaces, the service's settings or the Go runtime's: programSetting; given to every program after the default SVC_PLAN_PRO_RATE_LIMITS),
// BENCH_OUT (the report file; "-" for none), BENCH_NOTE, BENCH_MEASURES (relay,chat,hooks: the
// groups of measures to run; all when unset), BENCH_BASE_BIN (a directory with another build's
// svc-api and svc-worker, e.g. of the main branch: each environment then runs twice, "<env>" with
// this build and "<env> (base)" with that one, alternating like the other systems, for a
// before/after in one run; BENCH_BASE_PROGRAM_ENV adds NAME=value pairs for those programs only,
// e.g. to compare one build with and without a setting) and BENCH_COUNT_STATEMENTS=1 (the chat process and the worker reach
// Postgres through a proxy in the harness that counts the statements they send; it adds a hop to
// each of their round trips, so compare only runs that both count). BENCH_TRACE=<file> appends a
// line per one-at-a-time request to file (see loadHarness.traceFile).
func loadConfigFromEnv(t testing.TB) loadConfig {
	t.Helper()
	c := defaultLoadConfig()
	if v := os.Getenv("BENCH_QUICK"); v != "" && v != "0" {
		c = quickLoadConfig()
	}
	c.out = filepath.Join(repoRoot(t), "BENCHMARKS.md")
	num := func(name string, into *int) {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				t.Fatalf("%s=%q: want a whole number", name, v)
			}
			*into = n
		}
	}
	rate := func(name string, into *float64) {
		if v := os.Getenv(name); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f <= 0 {
				t.Fatalf("%s=%q: want a positive number", name, v)
			}
			*into = f
		}
	}
	if v := os.Getenv("BENCH_ENVS"); v != "" {
		c.envs = nil
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e != "embedded" && e != "production" {
				t.Fatalf("BENCH_ENVS: %q is not embedded or production", e)
			}
			c.envs = append(c.envs, strings.TrimSpace(e))
		}
	}
	num("BENCH_ROUNDS", &c.rounds)
	num("BENCH_SAMPLES", &c.samples)
	num("BENCH_STREAMS", &c.streams)
	num("BENCH_ACCOUNTS", &c.accounts)
	num("BENCH_CHAT_ACCOUNTS", &c.chatAccounts)
	num("BENCH_EVENTS", &c.events)
	num("BENCH_CLIENTS", &c.clients)
	num("BENCH_CHAT_CLIENTS", &c.chatClients)
	rate("BENCH_CHAT_RATE", &c.chatRate)
	if v := os.Getenv("BENCH_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("BENCH_DURATION=%q: want a duration such as 10s", v)
		}
		c.duration = d
	}
	if v := os.Getenv("BENCH_RATES"); v != "" {
		c.rates = nil
		for _, f := range strings.Split(v, ",") {
			r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || r <= 0 {
				t.Fatalf("BENCH_RATES=%q: want positive numbers separated by commas", v)
			}
			c.rates = append(c.rates, r)
		}
	}
	for _, kv := range strings.Fields(os.Getenv("BENCH_PROGRAM_ENV")) {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !programSetting(name) {
			t.Fatalf("BENCH_PROGRAM_ENV: %q is not SVC_NAME=value (or a Go runtime setting: GOMAXPROCS, GOGC, GOMEMLIMIT, GODEBUG)", kv)
		}
		c.programEnv = append(c.programEnv, name, value)
	}
	if v := os.Getenv("BENCH_OUT"); v != "" {
		c.out = v
		if v == "-" {
			c.out = ""
		}
	}
	c.note = os.Getenv("BENCH_NOTE")
	if v := os.Getenv("BENCH_MEASURES"); v != "" {
		c.measures = map[string]bool{}
		for _, m := range strings.Split(v, ",") {
			if m = strings.TrimSpace(m); m != "relay" && m != "chat" && m != "hooks" {
				t.Fatalf("BENCH_MEASURES: %q is not relay, chat or hooks", m)
			}
			c.measures[strings.TrimSpace(m)] = true
		}
	}
	if v := os.Getenv("BENCH_BASE_BIN"); v != "" {
		for _, name := range []string{"svc-api", "svc-worker"} {
			if _, err := os.Stat(filepath.Join(v, name)); err != nil {
				t.Fatalf("BENCH_BASE_BIN=%q: %v (want a directory holding a build of svc-api and svc-worker)", v, err)
			}
		}
		c.baseBin = v
	}
	for _, kv := range strings.Fields(os.Getenv("BENCH_BASE_PROGRAM_ENV")) {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !programSetting(name) {
			t.Fatalf("BENCH_BASE_PROGRAM_ENV: %q is not SVC_NAME=value (or a Go runtime setting: GOMAXPROCS, GOGC, GOMEMLIMIT, GODEBUG)", kv)
		}
		c.baseEnv = append(c.baseEnv, name, value)
	}
	c.countStmts = os.Getenv("BENCH_COUNT_STATEMENTS") == "1"
	if c.rounds < 1 || c.accounts < 1 || c.chatAccounts < 1 {
		t.Fatal("BENCH_ROUNDS, BENCH_ACCOUNTS and BENCH_CHAT_ACCOUNTS must be at least 1")
	}
	return c
}

// programSetting reports whether name may be given to the programs by BENCH_PROGRAM_ENV and
// BENCH_BASE_PROGRAM_ENV: the service's settings, and the Go runtime's that an operator may set
// (to compare, say, one build with GOMAXPROCS=1 and without).
func programSetting(name string) bool {
	switch name {
	case "GOMAXPROCS", "GOGC", "GOMEMLIMIT", "GODEBUG":
		return true
	}
	return strings.HasPrefix(name, "SVC_")
}

// TestLoad is `make bench`: the full run of the load harness, skipped unless SVC_BENCH=1.
func TestLoad(t *testing.T) {
	if os.Getenv("SVC_BENCH") != "1" {
		t.Skip("the load harness runs with `make bench` (SVC_BENCH=1)")
	}
	cfg := loadConfigFromEnv(t)
	report := runLoad(t, cfg)
	fmt.Println(report)
}

// TestLoadSmoke runs the harness in quick mode in the embedded environment (a few hundred
// requests) and checks that every measure produced figures without errors, so that the harness
// keeps working between runs of `make bench`.
func TestLoadSmoke(t *testing.T) {
	binaries(t) // skips under -short
	cfg := quickLoadConfig()
	cfg.envs = []string{"embedded"}
	cfg.out = filepath.Join(t.TempDir(), "BENCHMARKS.md")
	report := runLoad(t, cfg)
	raw, err := os.ReadFile(cfg.out)
	if err != nil {
		t.Fatalf("the report file: %v", err)
	}
	if string(raw) != report {
		t.Error("the report file differs from the printed report")
	}
	for _, want := range []string{"one client at a time", "fixed 20/s", "fixed 40/s", "closed loop, 4 clients",
		"time to first byte", "POST /v1/chat, 2 clients", "POST /v1/chat, fixed 20/s", "webhook fan-out", "peak RSS",
		"One at a time, by the key's last use"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report has no %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "\n## Errors\n") {
		t.Errorf("requests failed under the smoke run's light load:\n%s", report)
	}
}

// ---------------------------------------------------------------------------------------------
// Systems under load

// loadSystem is one system the harness sends requests to: the upstream directly, or an
// environment of the service.
type loadSystem struct {
	name     string
	relayURL string   // base of /v1/chat/completions
	chatURL  string   // base of the API whose replies come from the built-in engine ("" for direct)
	keys     []string // relay keys (none for direct)
	chatKeys []string
	hookKeys []string // keys of accounts whose webhooks point at the receiver
	procs    []watchedProc
	next     atomic.Uint64
	hooksAt  string     // path prefix of this system's webhooks at the receiver
	stmts    *pgCounter // the statements of the chat process and the worker (nil: not counted)
	chatAPI  *proc
	relayAPI *proc // nil for the direct system
	made     atomic.Int64
	used     []atomic.Int64 // by relay key: when the harness last sent it (Unix nanoseconds; 0: never)
}

// key returns the relay key of the next request (each request's key differs from the last) and
// how long ago the harness last sent that key (neverUsed when it never did).
func (s *loadSystem) key() (string, time.Duration) {
	if len(s.keys) == 0 {
		return "", neverUsed
	}
	i := (s.next.Add(1) - 1) % uint64(len(s.keys))
	now := time.Now().UnixNano()
	idle := neverUsed
	if last := s.used[i].Swap(now); last != 0 {
		idle = time.Duration(now - last)
	}
	return s.keys[i], idle
}

// neverUsed is the idle time of a key the harness has not sent yet.
const neverUsed = time.Duration(1<<63 - 1)

func (s *loadSystem) chatKey(n uint64) string { return s.chatKeys[n%uint64(len(s.chatKeys))] }

// watchedProc is a process whose CPU time and memory the report shows.
type watchedProc struct {
	role string // svc-api (relay), svc-api (chat), svc-worker, redis-server, postgres, bench
	pid  int
	pids func() []int // when not nil, the processes of the role now (pid is unused)
}

// benchRole is the process of the harness itself: the clients and the fake upstream.
const benchRole = "bench (client + fake upstream)"

// loadHarness holds what one run shares: the upstream, the webhook receiver, the client.
type loadHarness struct {
	t        *testing.T
	cfg      loadConfig
	upstream *httptest.Server
	rcv      *benchReceiver
	client   *http.Client
	systems  []*loadSystem // direct first
	results  map[string]map[string][]phaseResult
	order    []string // measures in the order of the report
}

func runLoad(t *testing.T, cfg loadConfig) string {
	h := &loadHarness{t: t, cfg: cfg, results: map[string]map[string][]phaseResult{}}
	h.upstream = httptest.NewServer(http.HandlerFunc(benchUpstream))
	t.Cleanup(h.upstream.Close)
	h.rcv = &benchReceiver{}
	h.rcv.srv = httptest.NewServer(http.HandlerFunc(h.rcv.serve))
	t.Cleanup(h.rcv.srv.Close)
	h.client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		MaxIdleConns: 2048, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute, DisableCompression: true,
	}}
	t.Cleanup(h.client.CloseIdleConnections)
	started := time.Now()
	loadBefore := readLoadavg()
	h.systems = append(h.systems, &loadSystem{name: "direct", relayURL: h.upstream.URL,
		procs: []watchedProc{{role: benchRole, pid: os.Getpid()}}})
	for _, name := range cfg.envs {
		h.systems = append(h.systems, h.startSystem(t, name, name, ""))
		if cfg.baseBin != "" {
			h.systems = append(h.systems, h.startSystem(t, name, name+" (base)", cfg.baseBin))
		}
	}
	t.Logf("set up in %s", time.Since(started).Round(time.Second))
	h.warmUp(t)
	for r := range cfg.rounds {
		h.round(t, r)
	}
	if profileDir() != "" {
		for _, s := range h.systems {
			if s.chatAPI != nil {
				profileAPI(t, s.chatAPI, "")
				_ = os.Rename(filepath.Join(profileDir(), ".heap.pprof"), filepath.Join(profileDir(), "load-chat-"+fileName(s.name)+".heap.pprof"))
			}
		}
	}
	report := h.report(started, loadBefore)
	if cfg.out != "" {
		if err := os.WriteFile(cfg.out, []byte(report), 0o644); err != nil {
			t.Fatalf("writing %s: %v", cfg.out, err)
		}
	}
	return report
}

// startSystem starts environment env as system name: an svc-api whose model is the fake upstream
// (the relay), an svc-api with the built-in engine (POST /v1/chat, webhooks) and, in production,
// an svc-worker, from the programs in bin ("": this build's); then it makes the accounts.
func (h *loadHarness) startSystem(t *testing.T, env, name, bin string) *loadSystem {
	t.Helper()
	cfg := h.cfg
	common := append([]string{"SVC_LOG_LEVEL", "warn", "SVC_DEMO", "false"}, privateTargets...)
	common = append(common, cfg.programEnv...)
	if bin != "" {
		common = append(common, binDirEnv, bin)
		common = append(common, cfg.baseEnv...)
	}
	var relayStack, chatStack stack
	switch env {
	case "embedded":
		relayStack, chatStack = newEmbedded(t), newEmbedded(t) // SQLite: one file each
	case "production":
		relayStack = newWebhookProduction(t, webhookBenchRedisDB)
		chatStack = relayStack // one Postgres database and Redis for the three programs
	}
	if bin != "" { // provisioned by the base's own svcctl (run), which knows the schema its svc-api made
		relayStack.env[binDirEnv], chatStack.env[binDirEnv] = bin, bin
	}
	relay := relayStack.startAPI(t, append(common,
		"SVC_MODEL_BASE_URL", h.upstream.URL+"/v1", "SVC_MODEL_API_KEY", mcUpstreamKey, "SVC_MODEL_NAME", mcUpstreamModel)...)
	chatEnv := common
	var counter *pgCounter
	if cfg.countStmts && chatStack.production {
		counter = newPGCounter(t, chatStack.env["SVC_DATABASE_URL"])
		chatEnv = append(append([]string(nil), common...), "SVC_DATABASE_URL", counter.dsn)
	}
	chat := chatStack.startAPI(t, chatEnv...)
	s := &loadSystem{name: name, stmts: counter, chatAPI: chat, relayAPI: relay, relayURL: relay.URL(), chatURL: chat.URL(), hooksAt: "/load/" + fileName(name),
		procs: []watchedProc{{role: "svc-api (relay)", pid: relay.cmd.Process.Pid}, {role: "svc-api (chat)", pid: chat.cmd.Process.Pid}}}
	if chatStack.production {
		worker := chatStack.startWorker(t, chatEnv...)
		s.procs = append(s.procs, watchedProc{role: "svc-worker", pid: worker.cmd.Process.Pid},
			watchedProc{role: "postgres", pids: postgresBackends(t, chatStack.env["SVC_DATABASE_URL"])})
		if pid := redisPid(chatStack.env["SVC_REDIS_URL"]); pid > 0 {
			s.procs = append(s.procs, watchedProc{role: "redis-server", pid: pid})
		}
	}
	s.procs = append(s.procs, watchedProc{role: benchRole, pid: os.Getpid()})

	began := time.Now()
	s.keys = provision(t, relayStack, cfg.accounts, fmt.Sprintf("Load relay %s", name), nil)
	s.used = make([]atomic.Int64, len(s.keys))
	s.chatKeys = provision(t, chatStack, cfg.chatAccounts, fmt.Sprintf("Load chat %s", name), func(key string) error {
		return setUpBakery(h.client, chat.URL(), key)
	})
	s.hookKeys = provision(t, chatStack, cfg.hookAccounts, fmt.Sprintf("Load hooks %s", name), func(key string) error {
		for i := range hooksPerBenchAccount {
			status, raw, err := postJSON(h.client, chat.URL()+"/v1/webhooks", key, map[string]any{
				"url":    h.rcv.srv.URL + fmt.Sprintf("%s/%s/%d", s.hooksAt, key[len(key)-6:], i),
				"events": []string{"knowledge.updated"}})
			if err == nil && status != http.StatusCreated {
				err = fmt.Errorf("POST /v1/webhooks: %d %s", status, raw)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	t.Logf("%s: %d relay, %d chat and %d webhook accounts made in %s", name, len(s.keys), len(s.chatKeys),
		len(s.hookKeys), time.Since(began).Round(time.Second))
	return s
}

// provision makes n pro accounts (no interaction cap) with a key each, a few svcctl runs at a
// time, and readies each with then (when not nil); it returns the keys.
func provision(t *testing.T, s stack, n int, name string, then func(key string) error) []string {
	t.Helper()
	one := func(i int) (string, error) {
		key, err := benchAccount(t, s, fmt.Sprintf("%s %d", name, i), "--interaction-limit", "1000000000")
		if err == nil && then != nil {
			err = then(key)
		}
		return key, err
	}
	keys := makeInParallel(t, n, 6, func(i int) (key string, err error) {
		for range 3 { // SQLite may refuse a writer now and then
			if key, err = one(i); err == nil {
				break
			}
		}
		return key, err
	})
	return keys
}

// warmUp sends a few requests of each kind to every system (connections, first lookups) before
// anything is measured.
func (h *loadHarness) warmUp(t *testing.T) {
	for _, s := range h.systems {
		for range 8 {
			if err := h.relay(s, false, nil, nil); err != nil {
				t.Fatalf("warm-up of %s: %v", s.name, err)
			}
		}
		if s.chatURL != "" {
			if err := h.chat(s, s.next.Add(1)); err != nil {
				t.Fatalf("warm-up of %s, POST /v1/chat: %v", s.name, err)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Requests

// relay sends one chat completion (streamed when stream) to s and returns nil when it succeeded;
// with stream, ttfb receives the time to the first data line; idle (when not nil) receives how
// long ago the harness last sent the request's key (see loadSystem.key).
func (h *loadHarness) relay(s *loadSystem, stream bool, ttfb, idle *time.Duration) error {
	body := modelBenchBody
	if stream {
		body = modelBenchStreamBody
	}
	req, _ := http.NewRequest("POST", s.relayURL+"/v1/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	key, gap := s.key()
	if idle != nil {
		*idle = gap
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	} else {
		req.Header.Set("Authorization", "Bearer "+mcUpstreamKey)
	}
	began := time.Now()
	resp, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s", resp.Status, shorten(string(raw), 200))
	}
	if !stream {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	r := bufio.NewReader(resp.Body)
	for {
		line, err := r.ReadString('\n')
		if strings.HasPrefix(line, "data:") {
			if ttfb != nil {
				*ttfb = time.Since(began)
			}
			break
		}
		if err != nil {
			return fmt.Errorf("the stream ended before a data line: %v", err)
		}
	}
	_, err = io.Copy(io.Discard, r)
	return err
}

// chat sends message n of POST /v1/chat to s (a new conversation) and wants a completed reply.
func (h *loadHarness) chat(s *loadSystem, n uint64) error {
	body, _ := json.Marshal(map[string]any{"message": chatBenchQuestions[n%uint64(len(chatBenchQuestions))]})
	req, _ := http.NewRequest("POST", s.chatURL+"/v1/chat", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.chatKey(n))
	resp, err := h.client.Do(req)
	if err != nil {
		return err
	}
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(`"status":"completed"`)) {
		return fmt.Errorf("%s: %s", resp.Status, shorten(string(raw), 200))
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// Load shapes

// phaseResult is one measure of one system in one round.
type phaseResult struct {
	latencies []time.Duration // of the requests that succeeded, sorted
	ok, errs  int
	firstErr  string
	wall      time.Duration   // from the first intended send to the last answer
	warm      []time.Duration // one at a time: the latencies of requests whose key was sent within keyKeptFor, sorted
	cold      []time.Duration // one at a time: those of the others (the key's check is read), sorted
	cpu       map[string]float64
	stmts     pgCounts // Postgres statements and round trips of the chat process and the worker, when counted
}

// collector gathers the outcomes of a phase's requests from many goroutines.
type collector struct {
	mu  sync.Mutex
	res phaseResult
}

func (c *collector) add(d time.Duration, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.res.errs++
		if c.res.firstErr == "" {
			c.res.firstErr = err.Error()
		}
		return
	}
	c.res.ok++
	c.res.latencies = append(c.res.latencies, d)
}

func (c *collector) done(wall time.Duration) phaseResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.res.wall = wall
	sortDurations(c.res.latencies)
	return c.res
}

// openLoop sends rate requests a second for d, each on its own goroutine at its intended time
// whatever the answers before it, and measures each from its intended send time: a system that
// falls behind shows it in the latencies (no coordinated omission).
func openLoop(rate float64, d time.Duration, do func(n uint64) error) phaseResult {
	return openLoopTraced(rate, d, do, nil)
}

// openLoopTraced is openLoop that also hands each request's index, intended send time, how late
// it was sent (the harness's own delay), latency and error to trace (when not nil), from the
// request's goroutine.
func openLoopTraced(rate float64, d time.Duration, do func(n uint64) error, trace func(n int, intended time.Time, late, d time.Duration, err error)) phaseResult {
	n := int(rate * d.Seconds())
	if n < 1 {
		n = 1
	}
	interval := time.Duration(float64(time.Second) / rate)
	var (
		c  collector
		wg sync.WaitGroup
	)
	start := time.Now()
	for i := range n {
		intended := start.Add(time.Duration(i) * interval)
		if wait := time.Until(intended); wait > 0 {
			time.Sleep(wait)
		}
		wg.Go(func() {
			late := time.Since(intended)
			err := do(uint64(i))
			took := time.Since(intended)
			c.add(took, err)
			if trace != nil {
				trace(i, intended, late, took, err)
			}
		})
	}
	wg.Wait()
	return c.done(time.Since(start))
}

// closedLoop runs clients goroutines that each send a request as soon as the last was answered,
// for d.
func closedLoop(clients int, d time.Duration, do func(n uint64) error) phaseResult {
	var (
		c    collector
		wg   sync.WaitGroup
		next atomic.Uint64
	)
	start := time.Now()
	deadline := start.Add(d)
	for range clients {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				began := time.Now()
				err := do(next.Add(1))
				c.add(time.Since(began), err)
			}
		})
	}
	wg.Wait()
	return c.done(time.Since(start))
}

// ---------------------------------------------------------------------------------------------
// Rounds

// measure runs fn for system s as measure name, with the CPU time of s's processes around it.
func (h *loadHarness) measure(name string, s *loadSystem, fn func() phaseResult) {
	before, stmts := cpuOf(s.procs), s.stmts.snapshot()
	res := fn()
	res.cpu = cpuOf(s.procs).since(before)
	res.stmts = s.stmts.snapshot().since(stmts)
	h.record(name, s.name, res)
}

func (h *loadHarness) record(name, system string, res phaseResult) {
	if h.results[name] == nil {
		h.results[name] = map[string][]phaseResult{}
		h.order = append(h.order, name)
	}
	h.results[name][system] = append(h.results[name][system], res)
}

// inTurn returns the systems (with the direct baseline when withDirect) starting at a different
// one each round, so that no system always runs first.
func (h *loadHarness) inTurn(round int, withDirect bool) []*loadSystem {
	var list []*loadSystem
	for _, s := range h.systems {
		if withDirect || s.chatURL != "" {
			list = append(list, s)
		}
	}
	k := round % len(list)
	return append(append([]*loadSystem(nil), list[k:]...), list[:k]...)
}

func (h *loadHarness) round(t *testing.T, r int) {
	cfg := h.cfg
	t.Logf("round %d of %d", r+1, cfg.rounds)

	if cfg.runs("relay") {
		h.relayRound(r)
	}
	if cfg.runs("chat") {
		h.chatRound(r)
	}
	if cfg.runs("hooks") && cfg.hookAccounts > 0 && cfg.events > 0 {
		name := fmt.Sprintf("webhook fan-out: %d events × %d webhooks at once", cfg.events, hooksPerBenchAccount)
		for _, s := range h.inTurn(r, false) {
			h.measure(name, s, func() phaseResult { return h.fanOut(s) })
		}
	}
}

// relayRound measures the relay in round r.
func (h *loadHarness) relayRound(r int) {
	cfg := h.cfg
	// One client at a time: the systems alternate request by request.
	h.serial(r, "chat completion, one client at a time", cfg.samples, func(s *loadSystem, idle *time.Duration) (time.Duration, error) {
		began := time.Now()
		err := h.relay(s, false, nil, idle)
		return time.Since(began), err
	})
	for _, rate := range cfg.rates {
		name := fmt.Sprintf("chat completion, fixed %g/s", rate)
		for _, s := range h.inTurn(r, true) {
			h.measure(name, s, func() phaseResult {
				return openLoop(rate, cfg.duration, func(uint64) error { return h.relay(s, false, nil, nil) })
			})
		}
	}
	name := fmt.Sprintf("chat completion, closed loop, %d clients", cfg.clients)
	for _, s := range h.inTurn(r, true) {
		h.measure(name, s, func() phaseResult {
			if r == 0 && profileDir() != "" && s.relayAPI != nil { // SVC_TEST_PROFILE_DIR: the first round's closed loop
				_ = os.Setenv("SVC_TEST_PROFILE_SECONDS", strconv.Itoa(max(1, int(cfg.duration.Seconds()))))
				defer profileAPI(h.t, s.relayAPI, "load-relay-"+fileName(s.name))()
			}
			return closedLoop(cfg.clients, cfg.duration, func(uint64) error { return h.relay(s, false, nil, nil) })
		})
	}
	h.serial(r, "streamed chat completion, time to first byte, one at a time", cfg.streams, func(s *loadSystem, idle *time.Duration) (time.Duration, error) {
		var ttfb time.Duration
		err := h.relay(s, true, &ttfb, idle)
		return ttfb, err
	})
}

// chatRound measures POST /v1/chat in round r.
func (h *loadHarness) chatRound(r int) {
	cfg := h.cfg
	name := fmt.Sprintf("POST /v1/chat, %d clients", cfg.chatClients)
	for _, s := range h.inTurn(r, false) {
		h.measure(name, s, func() phaseResult {
			if r == 0 && profileDir() != "" { // SVC_TEST_PROFILE_DIR: profiles of the first round's run
				_ = os.Setenv("SVC_TEST_PROFILE_SECONDS", strconv.Itoa(max(1, int(cfg.duration.Seconds()))))
				defer profileAPI(h.t, s.chatAPI, "load-chat-"+fileName(s.name))()
			}
			return closedLoop(cfg.chatClients, cfg.duration, func(n uint64) error { return h.chat(s, n) })
		})
	}
	name = fmt.Sprintf("POST /v1/chat, fixed %g/s", cfg.chatRate)
	for _, s := range h.inTurn(r, false) {
		h.measure(name, s, func() phaseResult {
			var trace func(int, time.Time, time.Duration, time.Duration, error)
			if f := h.traceFile(); f != nil { // BENCH_TRACE: every request of the fixed rate too
				var mu sync.Mutex
				defer func() { _ = f.Close() }()
				trace = func(n int, intended time.Time, late, d time.Duration, err error) {
					mu.Lock()
					defer mu.Unlock()
					fmt.Fprintf(f, "%s\t%d\t%s\t%d\t%.1f\t%.3f\t%v\t%.1f\n", name, r+1, s.name, n, float64(d)/float64(time.Microsecond),
						float64(intended.UnixMicro())/1e6, err != nil, float64(late)/float64(time.Microsecond))
				}
			}
			return openLoopTraced(cfg.chatRate, cfg.duration, func(n uint64) error { return h.chat(s, n) }, trace)
		})
	}
}

// serial sends n requests per system one at a time, the systems (direct included) in turn
// request by request, so that all see the same moments of the machine.
func (h *loadHarness) serial(r int, name string, n int, do func(s *loadSystem, idle *time.Duration) (time.Duration, error)) {
	systems := h.inTurn(r, true)
	cols := make([]collector, len(systems))
	walls := make([]time.Duration, len(systems))
	before := make([]cpuSnap, len(systems))
	warm := make([][]time.Duration, len(systems))
	cold := make([][]time.Duration, len(systems))
	for i, s := range systems {
		before[i] = cpuOf(s.procs)
	}
	trace := h.traceFile()
	for k := range n {
		for i, s := range systems {
			began := time.Now()
			idle := neverUsed
			d, err := do(s, &idle)
			walls[i] += time.Since(began)
			cols[i].add(d, err)
			if err == nil && s.keys != nil {
				if idle < keyKeptFor {
					warm[i] = append(warm[i], d)
				} else {
					cold[i] = append(cold[i], d)
				}
			}
			if trace != nil {
				idleMs := -1.0
				if idle != neverUsed {
					idleMs = ms(idle)
				}
				fmt.Fprintf(trace, "%s\t%d\t%s\t%d\t%.1f\t%.1f\t%v\n", name, r+1, s.name, k, float64(d)/float64(time.Microsecond), idleMs, err != nil)
			}
		}
	}
	if trace != nil {
		_ = trace.Close()
	}
	for i, s := range systems {
		res := cols[i].done(walls[i])
		res.cpu = cpuOf(s.procs).since(before[i])
		delete(res.cpu, benchRole) // the harness's process served every system of the phase
		sortDurations(warm[i])
		sortDurations(cold[i])
		res.warm, res.cold = warm[i], cold[i]
		h.record(name, s.name, res)
	}
}

// keyKeptFor is accounts.KeptFor: how long the service reuses a check of a key. A one-at-a-time
// request whose key the harness sent within it is "warm" (its key's check may be reused), else
// "cold" (the service reads the key).
const keyKeptFor = 10 * time.Second

// traceFile opens BENCH_TRACE (when set) for appending one line per one-at-a-time request:
// measure, round, system, index, latency µs, ms since the harness last sent its key (-1: never),
// failed; and one per request of POST /v1/chat's fixed rate: measure, round, system, index,
// latency µs, intended send time (Unix seconds), failed, how late the harness sent it µs.
func (h *loadHarness) traceFile() *os.File {
	path := os.Getenv("BENCH_TRACE")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		h.t.Fatalf("BENCH_TRACE: %v", err)
	}
	return f
}

// fanOut makes cfg.events events (FAQ upserts, one knowledge.updated each) spread over the
// system's webhook accounts, all at once, and waits until each of their deliveries reached the
// receiver. The latencies are from each event's created_at to each delivery's arrival; the wall
// time ends at the last arrival.
func (h *loadHarness) fanOut(s *loadSystem) phaseResult {
	events := h.cfg.events
	want := events * hooksPerBenchAccount
	began := time.Now()
	h.rcv.reset(began, want)
	var (
		wg   sync.WaitGroup
		errs atomic.Int64
		errM sync.Mutex
		errS string
	)
	for a, key := range s.hookKeys {
		wg.Go(func() {
			for n := a; n < events; n += len(s.hookKeys) {
				id := s.made.Add(1)
				status, raw, err := postJSON(h.client, s.chatURL+"/v1/knowledge/faq", key, map[string]any{
					"items": []map[string]string{{"question": fmt.Sprintf("Load question %d?", id), "answer": "An answer of the load harness."}}})
				if err == nil && status != http.StatusOK {
					err = fmt.Errorf("POST /v1/knowledge/faq: %d %s", status, shorten(string(raw), 200))
				}
				if err != nil {
					errs.Add(hooksPerBenchAccount)
					errM.Lock()
					if errS == "" {
						errS = err.Error()
					}
					errM.Unlock()
				}
			}
		})
	}
	wg.Wait()
	timeout := 2 * time.Minute
	if h.cfg.quick {
		timeout = 20 * time.Second
	}
	select {
	case <-h.rcv.done:
	case <-time.After(timeout):
	}
	lat, last := h.rcv.results()
	sortDurations(lat)
	res := phaseResult{latencies: lat, ok: len(lat), errs: int(errs.Load()), firstErr: errS, wall: last.Sub(began)}
	if missing := want - res.errs - res.ok; missing > 0 {
		res.errs += missing
		if res.firstErr == "" {
			res.firstErr = fmt.Sprintf("%d deliveries had not arrived after %s", missing, timeout)
		}
	}
	return res
}

// fileName is a system's name as part of a path: "embedded (base)" is embedded-base.
func fileName(system string) string {
	return strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(system)
}
