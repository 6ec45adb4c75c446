package tests

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// requestsPerKey is how many requests the benchmark sends with one key over the whole run: below
// the limit of 120 per minute, so the benchmark measures answers, not 429s.
const requestsPerKey = 100

// BenchmarkAccount measures an authenticated GET /v1/account (key lookup, rate limit, account
// and usage read) over loopback with keep-alive connections, in both environments:
//
//	go test ./tests -run '^$' -bench BenchmarkAccount -benchtime 2000x
func BenchmarkAccount(b *testing.B) {
	for _, tc := range []struct {
		name  string
		stack func(testing.TB) stack
	}{
		{"embedded", newEmbedded},
		{"production", newProduction},
	} {
		// Set up at the first run of the sub-benchmark and shared by its later runs: testing runs
		// a B's cleanups after every run of its function, so the set-up's belong to b.
		var env *benchEnv
		b.Run(tc.name, func(sb *testing.B) {
			if env == nil {
				env = newBenchEnv(outliving{TB: sb, outer: b}, tc.stack)
			}
			env.run(sb)
		})
	}
}

type benchEnv struct {
	s       stack
	api     *proc
	account account
	client  *http.Client
	url     string

	mu   sync.Mutex
	keys []string // keys[i] serves requests i*requestsPerKey up to the next
	sent atomic.Int64
}

func newBenchEnv(t testing.TB, newStack func(testing.TB) stack) *benchEnv {
	s := newStack(t)
	api := s.startAPI(t, "SVC_LOG_LEVEL", "warn")
	e := &benchEnv{
		s:       s,
		api:     api,
		account: s.newAccount(t, "--plan", "pro"),
		url:     api.URL() + "/v1/account",
		client: &http.Client{
			Timeout: httpTimeout,
			Transport: &http.Transport{
				MaxIdleConns:        256,
				MaxIdleConnsPerHost: 256,
				IdleConnTimeout:     time.Minute,
			},
		},
	}
	e.keys = []string{e.account.key}
	return e
}

// ensureKeys creates keys until requests up to total are covered.
func (e *benchEnv) ensureKeys(b *testing.B, total int64) {
	need := int(total/requestsPerKey) + 1
	e.mu.Lock()
	defer e.mu.Unlock()
	missing := need - len(e.keys)
	if missing <= 0 {
		return
	}
	made := makeInParallel(b, missing, setupWorkers(e.s), func(i int) (string, error) {
		res := run(b, cmdTimeout, "svcctl", e.s.env, "key", "create", "--account", e.account.id, "--name", fmt.Sprintf("bench %d", i))
		if o := parseObj(res.stdout); res.code == 0 && o.str("key") != "" {
			return o.str("key"), nil
		}
		return "", fmt.Errorf("svcctl key create: exit %d: %s %s", res.code, res.stdout, res.stderr)
	})
	e.keys = append(e.keys, made...)
}

func (e *benchEnv) run(b *testing.B) {
	first := e.sent.Load()
	e.ensureKeys(b, first+int64(b.N))
	keys := e.keys // not grown while the requests run

	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		failures  atomic.Int64
		firstFail atomic.Value
	)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		local := make([]time.Duration, 0, 1024)
		for pb.Next() {
			n := e.sent.Add(1) - 1
			key := keys[n/requestsPerKey]
			req, _ := http.NewRequest("GET", e.url, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			began := time.Now()
			resp, err := e.client.Do(req)
			if err != nil {
				failures.Add(1)
				firstFail.CompareAndSwap(nil, err.Error())
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			local = append(local, time.Since(began))
			if resp.StatusCode != http.StatusOK {
				failures.Add(1)
				firstFail.CompareAndSwap(nil, resp.Status)
			}
		}
		mu.Lock()
		latencies = append(latencies, local...)
		mu.Unlock()
	})
	b.StopTimer()
	if f := failures.Load(); f > 0 {
		b.Fatalf("%d of %d requests failed; the first: %v", f, b.N, firstFail.Load())
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(percentile(latencies, 0.50), "p50-µs")
	b.ReportMetric(percentile(latencies, 0.99), "p99-µs")
}

// percentile returns the q-th percentile of sorted durations, in microseconds.
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return float64(sorted[i]) / float64(time.Microsecond)
}

// setupWorkers is how many svcctl processes a benchmark's set-up runs at once: svcctl is a process
// per call, so a few at a time is quicker; SQLite takes one writer at a time, so the embedded
// store gets them one by one.
func setupWorkers(s stack) int {
	if s.production {
		return 4
	}
	return 1
}

// makeInParallel runs fn for 0..n-1 on at most workers goroutines and returns the results in
// order; the first error fails the benchmark once all have stopped. fn runs outside the
// benchmark's goroutine, so it reports failures instead of failing.
func makeInParallel(b *testing.B, n, workers int, fn func(i int) (string, error)) []string {
	made := make([]string, n)
	var (
		wg       sync.WaitGroup
		errMu    sync.Mutex
		firstErr error
		next     atomic.Int64
	)
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				v, err := fn(i)
				if err != nil {
					errMu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					errMu.Unlock()
					return
				}
				made[i] = v
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	return made
}

// benchAccount makes one pro account and a key with svcctl and returns the key.
func benchAccount(b *testing.B, s stack, name string) (string, error) {
	res := run(b, cmdTimeout, "svcctl", s.env, "account", "create", "--name", name, "--plan", "pro")
	acct := parseObj(res.stdout)
	if res.code != 0 || acct.str("account_id") == "" {
		return "", fmt.Errorf("svcctl account create: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	res = run(b, cmdTimeout, "svcctl", s.env, "key", "create", "--account", acct.str("account_id"))
	k := parseObj(res.stdout)
	if res.code != 0 || k.str("key") == "" {
		return "", fmt.Errorf("svcctl key create: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	return k.str("key"), nil
}
