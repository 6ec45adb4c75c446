package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/portstest"
)

func TestRedis(t *testing.T) {
	opts, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	t.Cleanup(func() { _ = client.Close() })
	portstest.RunRateLimiter(t, func(*testing.T) ports.RateLimiter { return NewRedis(client) })
}

func TestMemory(t *testing.T) {
	portstest.RunRateLimiter(t, func(*testing.T) ports.RateLimiter { return NewMemory(systemClock{}) })
}

func TestMemoryRefill(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	m := NewMemory(clock)
	limit := rl.Limit{Name: "test", Count: 2, Period: 10 * time.Second} // one every 5 s
	allow := func(want bool) rl.Result {
		t.Helper()
		r, err := m.Allow(context.Background(), "s", limit)
		if err != nil {
			t.Fatal(err)
		}
		if r.Allowed != want {
			t.Fatalf("at %v: Allowed = %v, want %v (%+v)", clock.Now().Format(time.TimeOnly), r.Allowed, want, r)
		}
		return r
	}

	allow(true)
	if r := allow(true); r.Remaining != 0 || !near(r.ResetAfter, 10*time.Second) {
		t.Errorf("burst spent: %+v, want 0 remaining, reset after 10s", r)
	}
	if r := allow(false); !near(r.RetryAfter, 5*time.Second) {
		t.Errorf("RetryAfter = %v, want 5s", r.RetryAfter)
	}

	clock.advance(3 * time.Second)
	if r := allow(false); !near(r.RetryAfter, 2*time.Second) {
		t.Errorf("3s later: RetryAfter = %v, want 2s (a denied request costs nothing)", r.RetryAfter)
	}

	clock.advance(2 * time.Second) // one refilled
	if r := allow(true); r.Remaining != 0 {
		t.Errorf("after Period/Count: Remaining = %d, want 0", r.Remaining)
	}
	allow(false)

	clock.advance(time.Minute) // full again, never above the burst
	if r := allow(true); r.Remaining != 1 || !near(r.ResetAfter, 5*time.Second) {
		t.Errorf("after a long pause: %+v, want 1 remaining, reset after 5s", r)
	}
	allow(true)
	allow(false)
}

func TestMemoryLimitChange(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	m := NewMemory(clock)
	small := rl.Limit{Name: "test", Count: 1, Period: time.Minute}
	if r, _ := m.Allow(context.Background(), "s", small); !r.Allowed {
		t.Fatal("first request denied")
	}
	// The new limit applies from the first request that names it: the bucket is still empty, but
	// refills at the new rate.
	faster := rl.Limit{Name: "test", Count: 3, Period: time.Minute}
	if r, _ := m.Allow(context.Background(), "s", faster); r.Allowed || !near(r.RetryAfter, 20*time.Second) {
		t.Errorf("after raising the limit to 3 a minute: %+v, want denied for 20s", r)
	}
}

// near reports whether got is want, give or take the float rounding of x/time/rate.
func near(got, want time.Duration) bool { return (got - want).Abs() < time.Millisecond }

func TestMemoryEvictsIdleSubjects(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	m := NewMemory(clock)
	minute := rl.Limit{Name: "test", Count: 5, Period: time.Minute}
	hour := rl.Limit{Name: "test", Count: 5, Period: time.Hour}
	for i := range 1000 {
		_, _ = m.Allow(context.Background(), fmt.Sprint("minute", i), minute)
	}
	_, _ = m.Allow(context.Background(), "hourly", hour)

	clock.advance(2 * time.Minute)
	_, _ = m.Allow(context.Background(), "new", minute)
	if n := len(m.buckets); n != 2 {
		t.Errorf("after two idle minutes: %d subjects kept, want 2 (hourly, new)", n)
	}

	clock.advance(time.Hour)
	_, _ = m.Allow(context.Background(), "new", minute)
	if n := len(m.buckets); n != 1 {
		t.Errorf("after an idle hour: %d subjects kept, want 1", n)
	}
}

func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory(&fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)})
	limit := rl.Limit{Name: "test", Count: 50, Period: time.Minute}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		allowed int
	)
	for range 200 {
		wg.Go(func() {
			r, err := m.Allow(context.Background(), "shared", limit)
			if err != nil {
				t.Error(err)
			}
			if r.Allowed {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != limit.Count {
		t.Errorf("%d of 200 concurrent requests allowed, want %d", allowed, limit.Count)
	}
}

func TestInvalidLimit(t *testing.T) {
	m := NewMemory(systemClock{})
	if _, err := m.Allow(context.Background(), "s", rl.Limit{Name: "zero"}); err == nil {
		t.Error("a zero limit gave no error")
	}
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
