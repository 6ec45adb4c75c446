package tests

import (
	"errors"
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
func BenchmarkAccount(b *testing.B) { eachStack(b, newBenchEnv) }

type benchEnv struct {
	s       stack
	api     *proc
	account account
	client  *http.Client
	url     string
	keys    *keyPool
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
	e.keys = newKeyPool(requestsPerKey, setupWorkers(s), func(b *testing.B, i int) (string, error) {
		res := run(b, cmdTimeout, "svcctl", s.env, "key", "create", "--account", e.account.id, "--name", fmt.Sprintf("bench %d", i))
		if o := parseObj(res.stdout); res.code == 0 && o.str("key") != "" {
			return o.str("key"), nil
		}
		return "", fmt.Errorf("svcctl key create: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}, e.account.key)
	return e
}

func (e *benchEnv) run(b *testing.B) {
	e.keys.cover(b, int64(b.N))
	defer profileAPI(b, e.api, "account-"+e.s.name)()
	latencies := timeParallel(b, func() (time.Duration, error) {
		_, key := e.keys.next()
		req, _ := http.NewRequest("GET", e.url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		began := time.Now()
		resp, err := e.client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, errors.New(resp.Status)
		}
		return time.Since(began), nil
	})
	b.ReportMetric(percentile(latencies, 0.50), "p50-µs")
	b.ReportMetric(percentile(latencies, 0.99), "p99-µs")
}

// eachStack runs a sub-benchmark per environment of stacks. Each sets its environment up
// with setUp at its first run and shares it with its later runs: testing runs a B's cleanups
// after every run of its function, so the set-up's belong to b.
func eachStack[E interface{ run(*testing.B) }](b *testing.B, setUp func(testing.TB, func(testing.TB) stack) E) {
	for _, tc := range stacks {
		var env E
		ready := false
		b.Run(tc.name, func(sb *testing.B) {
			if !ready {
				env, ready = setUp(outliving{TB: sb, outer: b}, tc.stack), true
			}
			env.run(sb)
		})
	}
}

// timeParallel calls do b.N times from b.RunParallel with the timer running, and returns the
// latencies do measured, sorted. Failed calls fail the benchmark once all have run, with the
// first failure.
func timeParallel(b *testing.B, do func() (time.Duration, error)) []time.Duration {
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, b.N)
		failures  atomic.Int64
		firstFail atomic.Value
	)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		local := make([]time.Duration, 0, 256)
		for pb.Next() {
			d, err := do()
			if err != nil {
				failures.Add(1)
				firstFail.CompareAndSwap(nil, err.Error())
				continue
			}
			local = append(local, d)
		}
		mu.Lock()
		latencies = append(latencies, local...)
		mu.Unlock()
	})
	b.StopTimer()
	if f := failures.Load(); f > 0 {
		b.Fatalf("%d of %d calls failed; the first: %v", f, b.N, firstFail.Load())
	}
	sortDurations(latencies)
	return latencies
}

func sortDurations(d []time.Duration) { sort.Slice(d, func(i, j int) bool { return d[i] < d[j] }) }

// keyPool hands out the keys of a benchmark's requests so that none (nor, when each has its own
// account, its account) gets more than per of them over the whole run, staying below the rate
// limits; keys are made as the requests to cover grow.
type keyPool struct {
	per     int64
	workers int                                       // keys made at once
	newKey  func(b *testing.B, i int) (string, error) // makes key i, outside the benchmark's goroutine

	mu   sync.Mutex
	keys []string // keys[i] serves requests i*per up to the next
	sent atomic.Int64
}

// newKeyPool returns a pool whose keys are made by newKey, workers at a time, starting with those
// given.
func newKeyPool(per int64, workers int, newKey func(b *testing.B, i int) (string, error), keys ...string) *keyPool {
	return &keyPool{per: per, workers: workers, newKey: newKey, keys: keys}
}

// cover makes keys until the next n requests are covered. Call it before the requests go out: next
// reads the keys without the lock.
func (p *keyPool) cover(b *testing.B, n int64) {
	need := int((p.sent.Load() + n + p.per - 1) / p.per)
	p.mu.Lock()
	defer p.mu.Unlock()
	missing := need - len(p.keys)
	if missing <= 0 {
		return
	}
	base := len(p.keys)
	made := makeInParallel(b, missing, p.workers, func(i int) (string, error) { return p.newKey(b, base+i) })
	p.keys = append(p.keys, made...)
}

// next returns the number of the next request and its key.
func (p *keyPool) next() (int64, string) {
	n := p.sent.Add(1) - 1
	return n, p.keys[n/p.per]
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
func makeInParallel(b testing.TB, n, workers int, fn func(i int) (string, error)) []string {
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

// benchAccount makes one pro account (with svcctl account create's extra arguments) and a key
// with svcctl and returns the key.
func benchAccount(b testing.TB, s stack, name string, extra ...string) (string, error) {
	res := run(b, cmdTimeout, "svcctl", s.env, append([]string{"account", "create", "--name", name, "--plan", "pro"}, extra...)...)
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
