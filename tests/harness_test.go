// Package tests holds the black-box tests of the service: they build the real programs (svc-api,
// svc-worker, svcctl), start them against real Postgres and Redis (or an SQLite file), and drive
// them over HTTP and the svcctl command line. Nothing of the module is imported here except
// internal/testenv, which finds the test databases.
package tests

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svcagent/svc/internal/testenv"
)

const modulePath = "github.com/svcagent/svc"

// Generous limits: the test machine may have two cores and run other packages' tests at once.
const (
	startTimeout = 90 * time.Second // from exec to a healthy /healthz
	stopTimeout  = 45 * time.Second // from SIGTERM to exit
	cmdTimeout   = 2 * time.Minute  // one svcctl run
	httpTimeout  = 30 * time.Second // one HTTP request
)

// e2eRedisDB is the Redis database index the end-to-end tests and the benchmark own when there is no
// redis-server for a Redis of their own (productionRedis). Each test that
// uses it flushes it first, so the tests of this package must not run in parallel with each other.
const e2eRedisDB = 5

var (
	buildOnce sync.Once
	buildDir  string
	buildOut  []byte
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// repoRoot finds the module root (the directory holding the go.mod of this module) upwards from
// the working directory, which is tests/ under `go test`.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("getwd: %v", err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(data, []byte("module "+modulePath)) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of %s above the working directory", modulePath)
		}
		dir = parent
	}
}

// binaries builds svc-api, svc-worker and svcctl once per test binary run and returns the
// directory that holds them.
func binaries(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the test builds and starts the programs")
	}
	if dir := os.Getenv("SVC_TEST_BIN_DIR"); dir != "" {
		return dir // programs built beforehand (the load harness measuring a given build)
	}
	root := repoRoot(t)
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "svc-e2e-bin-")
		if buildErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", buildDir+string(os.PathSeparator),
			"./cmd/svc-api", "./cmd/svc-worker", "./cmd/svcctl")
		cmd.Dir = root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/svc-api ./cmd/svc-worker ./cmd/svcctl: %v\n%s", buildErr, buildOut)
	}
	return buildDir
}

// programEnv is the environment of a started program: the test process's environment without any
// SVC_* variable (a developer's shell must not leak in), plus env.
func programEnv(env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SVC_") {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// handedOut holds every address freeAddr has returned in this test process. The kernel may give a
// port that was just closed to the next listener that asks for port 0, so two calls a moment apart
// could otherwise return the same port (seen in CI: a program's metrics listener on the port of
// another's HTTP server).
var handedOut sync.Map

// freeAddr returns a loopback address with a port that was free a moment ago and that no earlier
// call in this test process returned.
func freeAddr(t testing.TB) string {
	t.Helper()
	for range 1000 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("finding a free port: %v", err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		if _, taken := handedOut.LoadOrStore(addr, true); !taken {
			return addr
		}
	}
	t.Fatal("finding a free port: every port the kernel offered was handed out before")
	return ""
}

// ---------------------------------------------------------------------------------------------
// Captured output

// lineLog collects the lines a program writes. It is safe for concurrent use.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

// writer returns an io.Writer whose complete lines are appended with prefix.
func (l *lineLog) writer(prefix string) io.Writer { return &lineWriter{log: l, prefix: prefix} }

type lineWriter struct {
	log    *lineLog
	prefix string
	buf    bytes.Buffer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	w.buf.Write(p)
	for {
		i := bytes.IndexByte(w.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		line := string(w.buf.Next(i + 1))
		w.log.lines = append(w.log.lines, w.prefix+strings.TrimRight(line, "\r\n"))
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	if w.buf.Len() > 0 {
		w.log.lines = append(w.log.lines, w.prefix+w.buf.String())
		w.buf.Reset()
	}
}

// Lines returns a copy of the lines so far.
func (l *lineLog) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func (l *lineLog) String() string { return strings.Join(l.Lines(), "\n") }

// has reports whether a line so far contains s.
func (l *lineLog) has(s string) bool {
	return slices.ContainsFunc(l.Lines(), func(line string) bool { return strings.Contains(line, s) })
}

// Entries returns the lines that are JSON objects (zap's log entries), decoded.
func (l *lineLog) Entries() []map[string]any {
	var out []map[string]any
	for _, line := range l.Lines() {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// Started programs

// proc is one started program.
type proc struct {
	name    string
	addr    string // host:port of SVC_HTTP_ADDR
	metrics string // host:port of SVC_METRICS_ADDR (svc-api serves /metrics there)
	env     map[string]string
	cmd     *exec.Cmd
	log     *lineLog
	stdout  *lineWriter
	stderr  *lineWriter
	done    chan struct{}
	err     error // from Wait, valid after done is closed
}

// URL returns the base URL of the program's HTTP server.
func (p *proc) URL() string { return "http://" + p.addr }

// MetricsURL returns the URL of the program's /metrics, on its own listener.
func (p *proc) MetricsURL() string { return "http://" + p.metrics + "/metrics" }

// exited reports whether the program has exited.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitCode returns the exit code once the program has exited (-1 when a signal ended it).
func (p *proc) exitCode() int {
	<-p.done
	if p.cmd.ProcessState == nil {
		return -1
	}
	return p.cmd.ProcessState.ExitCode()
}

type readiness int

const (
	waitHealthz readiness = iota // poll GET /healthz until it answers 200
	waitAlive                    // the program serves /healthz or is still running after a moment
)

// start starts the program name (svc-api, svc-worker) with env plus a free SVC_HTTP_ADDR and a
// free SVC_METRICS_ADDR (unless env names them) and waits until it is ready. The program is killed at the end of the test if it
// is still running, and its log is printed when the test failed.
func start(t testing.TB, name string, env map[string]string, ready readiness) *proc {
	t.Helper()
	return startFrom(t, binaries(t), name, env, ready)
}

// startFrom is start with the program taken from the directory dir (the load harness's baseline
// build, BENCH_BASELINE_BIN).
func startFrom(t testing.TB, dir, name string, env map[string]string, ready readiness) *proc {
	t.Helper()
	bin := filepath.Join(dir, name)
	envCopy := map[string]string{}
	for k, v := range env {
		envCopy[k] = v
	}
	if dir := envCopy[binDirEnv]; dir != "" { // another build's program (the load harness's base)
		bin = filepath.Join(dir, name)
	}
	delete(envCopy, binDirEnv)
	_, chosenMetrics := envCopy["SVC_METRICS_ADDR"]
	ours := envCopy["SVC_HTTP_ADDR"] == "" && !chosenMetrics // the addresses are the harness's to pick
	if !ours && envCopy["SVC_HTTP_ADDR"] == "" {
		envCopy["SVC_HTTP_ADDR"] = freeAddr(t)
	}
	for attempt := 1; ; attempt++ {
		if ours {
			envCopy["SVC_HTTP_ADDR"] = freeAddr(t)
			envCopy["SVC_METRICS_ADDR"] = freeAddr(t) // never the default port, which parallel programs would share
		}
		p := launch(t, bin, name, envCopy)
		// Another process (a client's outgoing connection, say) may take a port between freeAddr
		// and the program's listen: the program then exits at once, and gets fresh ports.
		if p.ready(t, ready, ours && attempt < 3) {
			return p
		}
		t.Logf("%s could not listen on %s or %s; starting it again on other ports", name, p.addr, p.metrics)
	}
}

// launch starts the program bin with env; the program is killed at the end of the test if it is
// still running, and its log is printed when the test failed.
func launch(t testing.TB, bin, name string, envCopy map[string]string) *proc {
	t.Helper()
	if _, set := envCopy["SVC_METRICS_ADDR"]; !set {
		envCopy["SVC_METRICS_ADDR"] = freeAddr(t) // never the default port, which parallel programs would share
	}
	if envCopy["SVC_LOG_LEVEL"] == "" {
		envCopy["SVC_LOG_LEVEL"] = "info"
	}
	if name == "svc-api" && profileDir() != "" {
		envCopy["SVC_PROFILING"] = "true"
	}
	p := &proc{name: name, addr: envCopy["SVC_HTTP_ADDR"], metrics: envCopy["SVC_METRICS_ADDR"], env: envCopy,
		log: &lineLog{}, done: make(chan struct{})}
	if name == "svc-api" {
		checkAnswers(t, p.addr)
	}
	p.cmd = exec.Command(bin)
	p.cmd.Env = programEnv(envCopy)
	p.cmd.Dir = t.TempDir() // a relative sqlite://data/... never lands in the source tree
	p.stdout = p.log.writer("stdout: ").(*lineWriter)
	p.stderr = p.log.writer("").(*lineWriter)
	p.cmd.Stdout = p.stdout
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		p.stdout.flush()
		p.stderr.flush()
		close(p.done)
	}()
	t.Cleanup(func() {
		if !p.exited() {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("---- log of %s (%s) ----\n%s\n---- end of log of %s ----", name, p.addr, p.log, name)
		}
	})
	return p
}

// ready waits until the program is ready. When retryBind is set and the program exited because
// one of its addresses was taken, it reports false instead of failing the test.
func (p *proc) ready(t testing.TB, ready readiness, retryBind bool) bool {
	t.Helper()
	if retryBind {
		deadline := time.Now().Add(time.Second) // a taken port makes the program exit at once
		for time.Now().Before(deadline) && !p.exited() && !p.log.has("listening") {
			time.Sleep(10 * time.Millisecond)
		}
		if p.exited() && strings.Contains(p.log.String(), "address already in use") {
			return false
		}
	}
	switch ready {
	case waitHealthz:
		p.waitHealthy(t, startTimeout)
	case waitAlive:
		p.waitAlive(t)
	}
	return true
}

func (p *proc) waitHealthy(t testing.TB, timeout time.Duration) {
	t.Helper()
	client := checkingClient(2 * time.Second)
	deadline := time.Now().Add(timeout)
	for {
		if p.exited() {
			t.Fatalf("%s exited before it was healthy (code %d, %v); log:\n%s", p.name, p.exitCode(), p.err, p.log)
		}
		resp, err := client.Get(p.URL() + "/healthz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not healthy at %s/healthz after %s (last error %v); log:\n%s", p.name, p.URL(), timeout, err, p.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitAlive waits until the program answers /healthz, or has kept running for a few seconds (a
// worker need not serve HTTP).
func (p *proc) waitAlive(t testing.TB) {
	t.Helper()
	client := checkingClient(time.Second)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if p.exited() {
			t.Fatalf("%s exited at start (code %d, %v); log:\n%s", p.name, p.exitCode(), p.err, p.log)
		}
		if resp, err := client.Get(p.URL() + "/healthz"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if p.exited() {
		t.Fatalf("%s exited at start (code %d, %v); log:\n%s", p.name, p.exitCode(), p.err, p.log)
	}
}

// stop sends SIGTERM and waits for the program to exit; it returns the exit code. A program that
// does not exit within stopTimeout is killed and the test fails.
func (p *proc) stop(t testing.TB) int {
	t.Helper()
	if p.exited() {
		return p.exitCode()
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatalf("SIGTERM to %s: %v", p.name, err)
	}
	select {
	case <-p.done:
	case <-time.After(stopTimeout):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Errorf("%s did not exit within %s of SIGTERM; killed it", p.name, stopTimeout)
	}
	return p.exitCode()
}

// kill ends the program with SIGKILL (no chance to drain) and waits for it.
func (p *proc) kill(t testing.TB) {
	t.Helper()
	if p.exited() {
		return
	}
	_ = p.cmd.Process.Kill()
	<-p.done
}

// outliving runs a test's set-up (failing it there) but hands the cleanups, the temporary
// directories and the failure log to outer, so that what is set up outlives the test: a program
// started in a subtest that the following subtests still use, or a benchmark's servers.
type outliving struct {
	testing.TB
	outer testing.TB
}

func (w outliving) Cleanup(f func())                { w.outer.Cleanup(f) }
func (w outliving) TempDir() string                 { return w.outer.TempDir() }
func (w outliving) Failed() bool                    { return w.outer.Failed() || w.TB.Failed() }
func (w outliving) Logf(format string, args ...any) { w.outer.Logf(format, args...) }

// ---------------------------------------------------------------------------------------------
// svcctl and one-shot runs

// runResult is what a one-shot run of a program left.
type runResult struct {
	stdout, stderr string
	code           int
	timedOut       bool
}

// run runs the program name with args and env (never reading the caller's SVC_* variables) and
// waits for it to exit, at most timeout.
func run(t testing.TB, timeout time.Duration, name string, env map[string]string, args ...string) runResult {
	t.Helper()
	bin := filepath.Join(binaries(t), name)
	if dir := env[binDirEnv]; dir != "" { // the load harness's base: its own svcctl, which knows its schema
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			bin = filepath.Join(dir, name)
		}
		env = maps.Clone(env)
		delete(env, binDirEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = programEnv(env)
	cmd.Dir = t.TempDir()
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := runResult{stdout: stdout.String(), stderr: stderr.String(), timedOut: ctx.Err() != nil}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.code = 0
	case errors.As(err, &exitErr):
		res.code = exitErr.ExitCode()
	default:
		t.Fatalf("running %s %s: %v", name, strings.Join(args, " "), err)
	}
	return res
}

// ctl runs svcctl with args, fails the test unless it exits 0 with a JSON object on stdout, and
// returns that object.
func ctl(t testing.TB, env map[string]string, args ...string) obj {
	t.Helper()
	res := run(t, cmdTimeout, "svcctl", env, args...)
	if res.code != 0 {
		t.Fatalf("svcctl %s: exit %d (timed out: %v)\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, res.timedOut, res.stdout, res.stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(res.stdout)), &m); err != nil {
		t.Fatalf("svcctl %s: stdout is not one JSON object: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, res.stdout, res.stderr)
	}
	return obj(m)
}

// ---------------------------------------------------------------------------------------------
// Decoded JSON

// obj is a decoded JSON object with path lookups ("usage.interactions_limit").
type obj map[string]any

// get returns the value at a dotted path, and whether it is there.
func (o obj) get(path string) (any, bool) {
	var cur any = map[string]any(o)
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[part]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// str returns the string at path ("" when missing or not a string).
func (o obj) str(path string) string {
	v, _ := o.get(path)
	s, _ := v.(string)
	return s
}

// num returns the number at path, and whether there is a number there.
func (o obj) num(path string) (float64, bool) {
	v, _ := o.get(path)
	f, ok := v.(float64)
	return f, ok
}

func (o obj) String() string {
	b, _ := json.Marshal(map[string]any(o))
	return string(b)
}

// ---------------------------------------------------------------------------------------------
// HTTP

// response is an HTTP answer with its body decoded when it is a JSON object.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   obj // nil unless the body is a JSON object
}

func (r response) String() string {
	return fmt.Sprintf("%d %s", r.status, bytes.TrimSpace(r.raw))
}

// httpClient is the client of the tests; each answer of a svc-api is checked against its OpenAPI
// description (checkingTransport).
var httpClient = checkingClient(httpTimeout)

// call sends a request without a body; headers come in name, value pairs.
func call(t testing.TB, method, url string, headers ...string) response {
	t.Helper()
	return callRaw(t, method, url, nil, headers...)
}

// callJSON sends a request with a JSON body: a string or []byte goes as it is, anything else is
// encoded with encoding/json. Content-Type is application/json unless headers (name, value pairs)
// set another.
func callJSON(t testing.TB, method, url string, body any, headers ...string) response {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(body); err != nil {
			t.Fatalf("%s %s: encoding the body: %v", method, url, err)
		}
	}
	if raw == nil {
		raw = []byte{}
	}
	return callRaw(t, method, url, raw, append([]string{"Content-Type", "application/json"}, headers...)...)
}

// callRaw sends a request with body (none when nil); headers come in name, value pairs.
func callRaw(t testing.TB, method, url string, body []byte, headers ...string) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(withTest(context.Background(), t), method, url, rd)
	if err != nil {
		t.Fatalf("request %s %s: %v", method, url, err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	r := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		r.body = obj(m)
	}
	return r
}

// viaProxy is the trusted-proxy setting under which anotherClient works: svc-api believes the
// X-Forwarded-For of requests from loopback.
var viaProxy = []string{"SVC_TRUSTED_PROXIES", "127.0.0.1/32"}

var clients atomic.Int64

// anotherClient returns headers (name, value pairs) that make a request come from a client
// address no request of this test binary came from before, through an svc-api started with
// viaProxy: a test that expects many 401s sends each from its own address, so the throttle of
// failed authentications per address (100, then five a second) leaves them 401s.
func anotherClient(headers ...string) []string {
	n := clients.Add(1)
	return append([]string{"X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)}, headers...)
}

// bearer returns the Authorization header pair for key.
func bearer(key string) []string { return []string{"Authorization", "Bearer " + key} }

// wantError checks that r is the error envelope with status and code.
func wantError(t testing.TB, r response, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	if r.body == nil {
		t.Errorf("body is not a JSON object (want the error envelope): %q", r.raw)
		return
	}
	if got := r.body.str("error.code"); got != code {
		t.Errorf("error.code %q, want %q; body %s", got, code, r.raw)
	}
	if r.body.str("error.message") == "" {
		t.Errorf("error.message is empty; body %s", r.raw)
	}
	if ct := r.header.Get("Content-Type"); !strings.Contains(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
}

// ---------------------------------------------------------------------------------------------
// Environments

// stack is one environment of the service under test: the variables all three programs get.
type stack struct {
	name       string // "embedded" or "production"
	env        map[string]string
	production bool
}

// with returns the stack's environment plus extra variables.
func (s stack) with(extra ...string) map[string]string {
	m := map[string]string{}
	for k, v := range s.env {
		m[k] = v
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return m
}

// stacks are the environments most end-to-end tests run in: svc-api alone over SQLite, and
// svc-api (with svc-worker where a test starts one) over Postgres and Redis, skipped when they do
// not answer, unless CI=true.
var stacks = []struct {
	name  string
	stack func(testing.TB) stack
}{
	{"embedded", newEmbedded},
	{"production", newProduction},
}

// newEmbedded returns the embedded environment over a fresh SQLite file: no Redis, svc-api runs
// the queue and the limiter in process.
func newEmbedded(t testing.TB) stack {
	t.Helper()
	path := filepath.Join(t.TempDir(), "svc.db")
	return stack{name: "embedded", env: map[string]string{
		"SVC_DATABASE_URL": "sqlite://" + path, // an absolute path: sqlite:///tmp/.../svc.db
		"SVC_ENV":          "dev",
	}}
}

// newProduction returns the production environment over a fresh Postgres database and a Redis
// of its own (productionRedis). It is migrated with svcctl migrate. It skips (or fails
// under CI=true) when Postgres or Redis does not answer.
func newProduction(t testing.TB) stack {
	t.Helper()
	pg := testenv.Postgres(t)
	rd := productionRedis(t, e2eRedisDB)
	s := stack{name: "production", production: true, env: map[string]string{
		"SVC_DATABASE_URL": pg,
		"SVC_REDIS_URL":    rd,
	}}
	out := ctl(t, s.env, "migrate")
	if v, _ := out.get("migrated"); v != true {
		t.Fatalf("svcctl migrate: %s, want migrated:true", out)
	}
	return s
}

// startAPI starts svc-api in the stack and waits for /healthz.
func (s stack) startAPI(t testing.TB, extra ...string) *proc {
	t.Helper()
	env := s.with(extra...)
	addr := freeAddr(t)
	env["SVC_HTTP_ADDR"] = addr
	env["SVC_PUBLIC_URL"] = "http://" + addr
	return start(t, "svc-api", env, waitHealthz)
}

// startWorker starts svc-worker in the stack.
func (s stack) startWorker(t testing.TB, extra ...string) *proc {
	t.Helper()
	return start(t, "svc-worker", s.with(extra...), waitAlive)
}

// account is an account made with svcctl and one of its keys.
type account struct {
	id, widgetToken string
	keyID, key      string
}

// newAccount creates an account with svcctl account create args (a name is added when missing)
// and one key.
func (s stack) newAccount(t testing.TB, args ...string) account {
	t.Helper()
	hasName := false
	for _, a := range args {
		if a == "--name" {
			hasName = true
		}
	}
	full := append([]string{"account", "create"}, args...)
	if !hasName {
		full = append(full, "--name", "Acme "+t.Name())
	}
	out := ctl(t, s.env, full...)
	a := account{id: out.str("account_id"), widgetToken: out.str("widget_token")}
	if !strings.HasPrefix(a.id, "acct_") {
		t.Fatalf("svcctl account create: account_id %q, want acct_…; output %s", a.id, out)
	}
	a.keyID, a.key = s.newKey(t, a.id)
	return a
}

// newKey creates a key of the account with svcctl and returns its id and secret.
func (s stack) newKey(t testing.TB, accountID string, args ...string) (id, key string) {
	t.Helper()
	out := ctl(t, s.env, append([]string{"key", "create", "--account", accountID}, args...)...)
	id, key = out.str("id"), out.str("key")
	if !strings.HasPrefix(id, "key_") || !strings.HasPrefix(key, "svc_live_") {
		t.Fatalf("svcctl key create: id %q key %q, want key_… and svc_live_…; output %s", id, key, out)
	}
	return id, key
}

// ---------------------------------------------------------------------------------------------
// Redis

// productionRedis returns the Redis of a new production stack: a redis-server of its own on a free
// loopback port when redis-server is installed, else database db of the test Redis
// (SVC_TEST_REDIS_URL), flushed. A server of its own keeps every other user of the machine's Redis
// away from the stack's queue: another run of these tests flushing the shared database (which
// emptied asynq's list of queues, and svc_queue_depth read NaN) or its svc-worker taking the
// stack's tasks from the shared queue and dropping them (a ping never confirmed).
func productionRedis(t testing.TB, db int) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err == nil {
		return newPrivateRedis(t).url
	}
	return ownRedisDB(t, testenv.Redis(t), db)
}

// privateRedis is a redis-server of the test's own, on a free loopback port, without persistence:
// stopping it loses its data, as a restarted Redis without persistence does.
type privateRedis struct {
	bin, port, url string
	cmd            *exec.Cmd
	done           chan struct{}
}

func newPrivateRedis(t testing.TB) *privateRedis {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the test needs Redis")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not installed")
		}
		t.Skip("redis-server is not installed")
	}
	_, port, _ := net.SplitHostPort(freeAddr(t))
	r := &privateRedis{bin: bin, port: port, url: "redis://127.0.0.1:" + port + "/0"}
	r.start(t)
	t.Cleanup(func() {
		if r.cmd != nil {
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// start starts the server and waits until it answers.
func (r *privateRedis) start(t testing.TB) {
	t.Helper()
	r.cmd = exec.Command(r.bin, "--port", r.port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	r.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(r.cmd, r.done)
	u, _ := url.Parse(r.url)
	waitFor(t, 15*time.Second, "redis-server to answer on port "+r.port, func() (bool, string) {
		err := redisDo(u, "PING")
		return err == nil, fmt.Sprint(err)
	})
}

// stop shuts the server down without saving and waits for it to exit.
func (r *privateRedis) stop(t testing.TB) {
	t.Helper()
	u, _ := url.Parse(r.url)
	_ = redisDo(u, "SHUTDOWN", "NOSAVE") // the server closes the connection instead of answering
	select {
	case <-r.done:
	case <-time.After(15 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
	r.cmd = nil
}

// ownRedisDB rewrites the database index of a redis:// URL to db, empties that database with
// FLUSHDB and returns the URL.
func ownRedisDB(t testing.TB, raw string, db int) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("redis URL %q: %v", raw, err)
	}
	if u.Scheme != "redis" {
		t.Fatalf("redis URL %q: only redis:// is supported by the e2e tests", raw)
	}
	u.Path = "/" + strconv.Itoa(db)
	if err := redisDo(u, "FLUSHDB"); err != nil {
		t.Fatalf("FLUSHDB on %s: %v", u.Redacted(), err)
	}
	return u.String()
}

// redisDo runs one command (with simple-string reply) on the database of u, speaking RESP.
func redisDo(u *url.URL, args ...string) error {
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "6379")
	}
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	send := func(args ...string) error {
		var b bytes.Buffer
		fmt.Fprintf(&b, "*%d\r\n", len(args))
		for _, a := range args {
			fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := conn.Write(b.Bytes()); err != nil {
			return err
		}
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if strings.HasPrefix(line, "-") {
			return fmt.Errorf("%s: %s", args[0], strings.TrimSpace(line[1:]))
		}
		return nil
	}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			authArgs := []string{"AUTH", pw}
			if name := u.User.Username(); name != "" {
				authArgs = []string{"AUTH", name, pw}
			}
			if err := send(authArgs...); err != nil {
				return err
			}
		}
	}
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" {
		db = "0"
	}
	if err := send("SELECT", db); err != nil {
		return err
	}
	return send(args...)
}

// ---------------------------------------------------------------------------------------------
// Metrics

// metricSum returns the sum of all samples of the Prometheus metric name (over its label sets) in
// the text exposition, and whether there was any sample.
func metricSum(text, name string) (float64, bool) {
	var sum float64
	found := false
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(line, name)
		if !ok || (rest != "" && rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		fields := strings.Fields(line[strings.LastIndex(line, "}")+1:])
		if strings.HasPrefix(rest, " ") {
			fields = strings.Fields(rest)
		}
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			continue
		}
		sum += v
		found = true
	}
	return sum, found
}

// parseObj decodes a JSON object (nil when s is not one).
func parseObj(s string) obj {
	var m map[string]any
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &m) != nil {
		return nil
	}
	return obj(m)
}
