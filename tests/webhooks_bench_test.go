package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The delivery benchmark makes events with FAQ upserts (one knowledge.updated event each) and
// gives every account hooksPerBenchAccount webhooks, the most an account may have, so that each
// event fans out into that many deliveries. An account's one key sends at most
// eventsPerBenchAccount upserts over the whole run, plus its webhook creations: below the 120
// requests a minute, so the benchmark measures deliveries, not 429s.
const (
	hooksPerBenchAccount  = 10
	eventsPerBenchAccount = 100
)

// BenchmarkWebhookDelivery measures webhook deliveries in the production environment: events go
// through the outbox, the relay and asynq on Redis to svc-worker, which POSTs them, signed, to a
// receiver the benchmark serves on loopback. b.N is the number of deliveries (rounded up to whole
// events of hooksPerBenchAccount deliveries). It reports deliveries per second from the first
// upsert to the last arrival, and the p50 and p99 of the time from an event's created_at (in its
// envelope) to the arrival of each of its deliveries, in milliseconds. "burst" makes all the
// events at once, as fast as the API takes them (the throughput; the latency then includes the
// wait in the backlog); "paced" makes pacedEventsPerSecond events a second, below the throughput
// (the latency of a pipeline that keeps up):
//
//	go test ./tests -run '^$' -bench BenchmarkWebhookDelivery -benchtime 5000x
func BenchmarkWebhookDelivery(b *testing.B) {
	// Set up at the first run of a sub-benchmark and shared by all later runs.
	var env *deliveryBench
	for _, tc := range []struct {
		name string
		rate float64 // events per second; 0: all at once
	}{
		{"production/burst", 0},
		{fmt.Sprintf("production/paced-%d-per-s", pacedEventsPerSecond*hooksPerBenchAccount), pacedEventsPerSecond},
	} {
		b.Run(tc.name, func(sb *testing.B) {
			if env == nil {
				env = newDeliveryBench(outliving{TB: sb, outer: b})
			}
			env.run(sb, tc.rate)
		})
	}
}

// pacedEventsPerSecond is the event rate of the paced sub-benchmark: 200 deliveries a second.
const pacedEventsPerSecond = 20

type deliveryBench struct {
	s      stack
	api    *proc
	rcv    *benchReceiver
	client *http.Client

	mu    sync.Mutex
	keys  []string // keys[i] (of account i, with its webhooks) serves events i*eventsPerBenchAccount up to the next
	made  atomic.Int64
	accts int
}

func newDeliveryBench(t testing.TB) *deliveryBench {
	s := newWebhookProduction(t, webhookBenchRedisDB)
	api := s.startAPI(t, append([]string{"SVC_LOG_LEVEL", "warn"}, privateTargets...)...)
	s.startWorker(t, append([]string{"SVC_LOG_LEVEL", "warn"}, privateTargets...)...)
	rcv := &benchReceiver{}
	rcv.srv = httptest.NewServer(http.HandlerFunc(rcv.serve))
	t.Cleanup(rcv.srv.Close)
	return &deliveryBench{
		s:   s,
		api: api,
		rcv: rcv,
		client: &http.Client{
			Timeout: httpTimeout,
			Transport: &http.Transport{
				MaxIdleConns:        64,
				MaxIdleConnsPerHost: 64,
				IdleConnTimeout:     time.Minute,
			},
		},
	}
}

// ensureAccounts makes accounts, each with a key and hooksPerBenchAccount webhooks to the
// receiver, until the events up to total are covered.
func (e *deliveryBench) ensureAccounts(b *testing.B, total int64) {
	need := int((total+eventsPerBenchAccount-1)/eventsPerBenchAccount) + 1
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.keys) < need {
		i := len(e.keys)
		a := e.s.newAccount(b, "--name", fmt.Sprintf("Delivery bench %d", i))
		for h := range hooksPerBenchAccount {
			createHook(b, e.api, a.key, e.rcv.srv.URL+fmt.Sprintf("/bench/%d/%d", i, h), "knowledge.updated")
		}
		e.keys = append(e.keys, a.key)
	}
}

// upsert sends one FAQ upsert (one event) with key.
func (e *deliveryBench) upsert(key string, n int64) error {
	status, raw, err := postJSON(e.client, e.api.URL()+"/v1/knowledge/faq", key, map[string]any{"items": []map[string]string{
		{"question": fmt.Sprintf("Benchmark question %d?", n), "answer": "An answer for the delivery benchmark."},
	}})
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("POST /v1/knowledge/faq: %d %s", status, raw)
	}
	return err
}

func (e *deliveryBench) run(b *testing.B, rate float64) {
	events := int64((b.N + hooksPerBenchAccount - 1) / hooksPerBenchAccount)
	first := e.made.Load()
	e.ensureAccounts(b, first+events)
	keys := e.keys
	want := int(events) * hooksPerBenchAccount

	// The events of this run, grouped by the account (key) that makes them.
	byKey := map[int][]int64{}
	for n := first; n < first+events; n++ {
		byKey[int(n/eventsPerBenchAccount)] = append(byKey[int(n/eventsPerBenchAccount)], n)
	}
	e.made.Add(events)

	began := time.Now()
	e.rcv.reset(began, want)
	b.ResetTimer()
	var wg sync.WaitGroup
	errs := make(chan error, events)
	if rate > 0 {
		// One event every 1/rate seconds, each upsert on its own.
		tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
		for n := first; n < first+events; n++ {
			if n > first {
				<-tick.C
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := e.upsert(keys[n/eventsPerBenchAccount], n); err != nil {
					errs <- err
				}
			}()
		}
		tick.Stop()
	} else {
		// Each account's upserts one after another, the accounts at once.
		for k, ns := range byKey {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, n := range ns {
					if err := e.upsert(keys[k], n); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	select {
	case <-e.rcv.done:
	case <-time.After(5 * time.Minute):
		b.Fatalf("%d of %d deliveries arrived within 5 minutes", e.rcv.count(), want)
	}
	b.StopTimer()

	latencies, last := e.rcv.results()
	if s := last.Sub(began).Seconds(); s > 0 {
		b.ReportMetric(float64(len(latencies))/s, "deliveries/s")
	}
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	b.ReportMetric(percentile(latencies, 0.50)/1000, "p50-ms")
	b.ReportMetric(percentile(latencies, 0.99)/1000, "p99-ms")
}

// benchReceiver answers every delivery 204 at once and records, for the first arrival of each
// (event, webhook), the time from the event's created_at.
type benchReceiver struct {
	srv *httptest.Server

	mu        sync.Mutex
	since     time.Time // deliveries of events made before are left out
	want      int
	seen      map[string]bool
	latencies []time.Duration
	last      time.Time
	done      chan struct{}
}

func (r *benchReceiver) reset(since time.Time, want int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.since, r.want = since.Add(-time.Millisecond), want // created_at is cut to milliseconds
	r.seen = map[string]bool{}
	r.latencies = make([]time.Duration, 0, want)
	r.done = make(chan struct{})
}

func (r *benchReceiver) serve(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(req.Body)
	w.WriteHeader(http.StatusNoContent)
	var env struct {
		ID        string `json:"id"`
		CreatedAt string `json:"created_at"`
	}
	if json.Unmarshal(body, &env) != nil {
		return
	}
	created, err := time.Parse(time.RFC3339Nano, env.CreatedAt)
	if err != nil {
		return
	}
	key := req.Header.Get("SVC-Delivery") + " " + req.URL.Path
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil || created.Before(r.since) || r.seen[key] {
		return
	}
	r.seen[key] = true
	r.latencies = append(r.latencies, at.Sub(created))
	r.last = at
	if len(r.latencies) == r.want {
		close(r.done)
	}
}

func (r *benchReceiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.latencies)
}

func (r *benchReceiver) results() ([]time.Duration, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.latencies...), r.last
}
