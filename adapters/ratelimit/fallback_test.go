package ratelimit

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/portstest"
)

// switchable is a limiter that fails while down, and counts its calls.
type switchable struct {
	mu    sync.Mutex
	down  bool
	calls int
}

func (s *switchable) set(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

func (s *switchable) Allow(context.Context, string, rl.Limit) (rl.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.down {
		return rl.Result{}, errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")
	}
	return rl.Result{Allowed: true, Remaining: 99}, nil
}

func (s *switchable) AllowAll(ctx context.Context, checks []rl.Check) ([]rl.Result, error) {
	return allowEach(ctx, s, checks)
}

// allowEach counts each check with l.Allow.
func allowEach(ctx context.Context, l ports.RateLimiter, checks []rl.Check) ([]rl.Result, error) {
	out := make([]rl.Result, len(checks))
	for i, c := range checks {
		r, err := l.Allow(ctx, c.Subject, c.Limit)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

func (s *switchable) callCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func TestFallback(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	primary := &switchable{}
	core, logs := observer.New(zapcore.InfoLevel)
	f := newFallback(primary, NewMemory(clock), clock, zap.New(core), Options{})
	limit := rl.Limit{Name: "test", Count: 3, Period: time.Minute}
	allow := func(what string) rl.Result {
		t.Helper()
		r, err := f.Allow(context.Background(), "key_1", limit)
		if err != nil {
			t.Fatalf("%s: %v, want no error whatever Redis does", what, err)
		}
		return r
	}
	wantState := func(what string, calls int, degraded bool, outages, counted float64) {
		t.Helper()
		if got := primary.callCount(); got != calls {
			t.Errorf("%s: Redis called %d times, want %d", what, got, calls)
		}
		if f.Degraded() != degraded {
			t.Errorf("%s: Degraded() = %v, want %v", what, f.Degraded(), degraded)
		}
		got := gather(t, f)
		want := map[string]float64{
			"svc_ratelimit_degraded":                map[bool]float64{true: 1}[degraded],
			"svc_ratelimit_fallbacks_total":         outages,
			"svc_ratelimit_fallback_requests_total": counted,
		}
		for name, v := range want {
			if got[name] != v {
				t.Errorf("%s: %s = %v, want %v", what, name, got[name], v)
			}
		}
	}

	if r := allow("Redis up"); r.Remaining != 99 {
		t.Errorf("Redis up: %+v, want Redis's result", r)
	}
	wantState("Redis up", 1, false, 0, 0)

	primary.set(true)
	for i := range 4 {
		r := allow("Redis down")
		if wantAllowed := i < limit.Count; r.Allowed != wantAllowed {
			t.Errorf("request %d in memory: Allowed %v, want %v (the limit still holds)", i+1, r.Allowed, wantAllowed)
		}
	}
	// The first request found Redis down; the three after it did not try it again.
	wantState("Redis down", 2, true, 1, 4)

	clock.advance(fallbackFor - time.Millisecond)
	allow("just before the interval")
	wantState("just before the interval", 2, true, 1, 5)

	clock.advance(time.Millisecond)
	allow("interval over, Redis still down")
	wantState("interval over, Redis still down", 3, true, 1, 6)
	allow("tried again")
	wantState("tried again", 3, true, 1, 7)

	// A minute on, a try that fails again is the outage's reminder.
	clock.advance(outage.Reminder)
	allow("a minute on, Redis still down")
	wantState("a minute on, Redis still down", 4, true, 1, 8)

	primary.set(false)
	clock.advance(fallbackFor)
	if r := allow("Redis back"); r.Remaining != 99 {
		t.Errorf("Redis back: %+v, want Redis's result", r)
	}
	wantState("Redis back", 5, false, 1, 8)
	allow("after the outage")
	wantState("after the outage", 6, false, 1, 8)

	primary.set(true)
	allow("second outage")
	wantState("second outage", 7, true, 2, 9)

	var msgs []string
	for _, e := range logs.All() {
		msgs = append(msgs, e.Level.String()+": "+e.Message)
	}
	want := []string{
		"warn: rate limits in Redis: failing",
		"warn: rate limits in Redis: still failing",
		"info: rate limits in Redis: back",
		"warn: rate limits in Redis: failing",
	}
	if len(msgs) != len(want) {
		t.Fatalf("logged %q, want one line per change: %q", msgs, want)
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("log line %d: %q, want %q", i, msgs[i], want[i])
		}
	}
}

// gather returns the value of each of f's metrics by name.
func gather(t *testing.T, f *Fallback) map[string]float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(f.Collectors()...)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range families {
		for _, m := range mf.GetMetric() {
			out[mf.GetName()] += m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	return out
}

// TestFallbackOneProbe checks that when the interval is over, one request tries Redis while the
// others go on in memory, rather than all of them waiting for Redis at once.
func TestFallbackOneProbe(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	primary := &blocking{entered: make(chan struct{}), release: make(chan struct{})}
	f := newFallback(primary, NewMemory(clock), clock, zap.NewNop(), Options{})
	f.failed(errors.New("down"))
	clock.advance(fallbackFor)
	limit := rl.Limit{Name: "test", Count: 100, Period: time.Minute}

	probeDone := make(chan error)
	go func() {
		_, err := f.Allow(context.Background(), "s", limit)
		probeDone <- err
	}()
	<-primary.entered
	for range 10 {
		if _, err := f.Allow(context.Background(), "s", limit); err != nil {
			t.Fatal(err)
		}
	}
	close(primary.release)
	if err := <-probeDone; err != nil {
		t.Fatal(err)
	}
	if primary.calls != 1 {
		t.Errorf("Redis called %d times while one request tried it, want 1", primary.calls)
	}
	if f.Degraded() {
		t.Error("still degraded after Redis answered")
	}
}

// TestFallbackRedisStalls checks that a Redis that stops answering without refusing (its
// connections kept open, no reply) holds a request for DefaultTimeout at most, not the client's
// read timeouts and retries: the request is counted in memory and the limiter is degraded.
func TestFallbackRedisStalls(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	limit := rl.Limit{Name: "test", Count: 100, Period: time.Minute}
	for _, allow := range []func(f *Fallback) error{
		func(f *Fallback) error { _, err := f.Allow(context.Background(), "s", limit); return err },
		func(f *Fallback) error {
			_, err := f.AllowAll(context.Background(), []rl.Check{{Subject: "s", Limit: limit}})
			return err
		},
	} {
		f := newFallback(stalled{}, NewMemory(clock), clock, zap.NewNop(), Options{})
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- allow(f) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("a request while Redis stalls: %v, want it counted in memory", err)
			}
			if took := time.Since(start); took > DefaultTimeout+time.Second {
				t.Errorf("a request waited %v for a stalled Redis, want at most about %v", took, DefaultTimeout)
			}
		case <-time.After(DefaultTimeout + 5*time.Second):
			t.Fatalf("a request still waits for a stalled Redis after %v", DefaultTimeout+5*time.Second)
		}
		if !f.Degraded() {
			t.Error("not degraded after Redis stalled")
		}
	}
}

// stalled is a limiter that never answers: each call waits until its context ends.
type stalled struct{}

func (stalled) Allow(ctx context.Context, _ string, _ rl.Limit) (rl.Result, error) {
	<-ctx.Done()
	return rl.Result{}, ctx.Err()
}

func (s stalled) AllowAll(ctx context.Context, checks []rl.Check) ([]rl.Result, error) {
	return allowEach(ctx, s, checks)
}

// blocking is a limiter whose first call waits to be released.
type blocking struct {
	entered, release chan struct{}
	calls            int
}

func (b *blocking) Allow(context.Context, string, rl.Limit) (rl.Result, error) {
	b.calls++
	if b.calls == 1 {
		close(b.entered)
		<-b.release
	}
	return rl.Result{Allowed: true}, nil
}

func (b *blocking) AllowAll(ctx context.Context, checks []rl.Check) ([]rl.Result, error) {
	return allowEach(ctx, b, checks)
}

// TestFallbackRedisDown runs the conformance suite on a Fallback whose Redis is a closed port, and
// checks that a request does not wait for Redis each time.
func TestFallbackRedisDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	client := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { _ = client.Close() })
	portstest.RunRateLimiter(t, func(*testing.T) ports.RateLimiter {
		return NewFallback(NewRedis(client), NewMemory(systemClock{}), systemClock{}, zap.NewNop(), Options{})
	})
}

// TestFallbackRedisUp runs the conformance suite on a Fallback over the test Redis.
func TestFallbackRedisUp(t *testing.T) {
	opts, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	t.Cleanup(func() { _ = client.Close() })
	portstest.RunRateLimiter(t, func(*testing.T) ports.RateLimiter {
		f := NewFallback(NewRedis(client), NewMemory(systemClock{}), systemClock{}, zap.NewNop(), Options{})
		t.Cleanup(func() {
			if f.Degraded() {
				t.Error("fell back with Redis up")
			}
		})
		return f
	})
}

// TestFallbackCheck: a check at start that finds Redis down logs the outage once and counts the
// next requests in the process; one that finds Redis up logs nothing.
func TestFallbackCheck(t *testing.T) {
	for _, down := range []bool{false, true} {
		clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		core, logs := observer.New(zapcore.InfoLevel)
		f := newFallback(&switchable{}, NewMemory(clock), clock, zap.New(core), Options{})
		f.Check(context.Background(), func(context.Context) error {
			if down {
				return errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")
			}
			return nil
		})
		if n := logs.FilterMessage("rate limits in Redis: failing").Len(); n != map[bool]int{false: 0, true: 1}[down] {
			t.Errorf("Redis down %v: the outage logged %d times at the check", down, n)
		}
		if f.Degraded() != down {
			t.Errorf("Redis down %v: Degraded %v after the check", down, f.Degraded())
		}
	}
}
