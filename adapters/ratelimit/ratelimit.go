// Package ratelimit limits request rates with GCRA: bursts up to a limit's Count, then one request
// every Period/Count. Redis shares the state between replicas; Memory keeps it in one process.
package ratelimit

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/google/wire"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// MemorySet provides the in-memory limiter from a ports.Clock.
var MemorySet = wire.NewSet(NewMemory, wire.Bind(new(ports.RateLimiter), new(*Memory)))

// keyPrefix starts the Redis key of every subject (redis_rate adds its own "rate:" before it).
const keyPrefix = "svc:rl:"

func validate(l rl.Limit) error {
	if l.Count < 1 || l.Period <= 0 {
		return fmt.Errorf("rate limit %q: %d per %v is not a limit", l.Name, l.Count, l.Period)
	}
	return nil
}

// Redis is a GCRA limiter whose state lives in Redis (go-redis/redis_rate).
type Redis struct {
	limiter *redis_rate.Limiter
}

// NewRedis returns a limiter on client.
func NewRedis(client redis.UniversalClient) *Redis {
	return &Redis{limiter: redis_rate.NewLimiter(client)}
}

// Allow counts one request of subject against l.
func (r *Redis) Allow(ctx context.Context, subject string, l rl.Limit) (rl.Result, error) {
	if err := validate(l); err != nil {
		return rl.Result{}, err
	}
	res, err := r.limiter.Allow(ctx, keyPrefix+subject, redis_rate.Limit{
		Rate:   l.Count,
		Burst:  l.Count,
		Period: l.Period,
	})
	if err != nil {
		return rl.Result{}, fmt.Errorf("rate limit %s: %w", subject, err)
	}
	out := rl.Result{
		Allowed:    res.Allowed > 0,
		Remaining:  res.Remaining,
		ResetAfter: max(res.ResetAfter, 0),
	}
	if !out.Allowed {
		out.RetryAfter = max(res.RetryAfter, 0)
	}
	return out, nil
}

// Memory is a GCRA limiter kept in this process: one golang.org/x/time/rate limiter per subject,
// read at the injected clock's time. A subject idle for a whole Period is full again and is
// dropped, so memory follows the subjects active within the longest period. Safe for concurrent
// use.
type Memory struct {
	clock ports.Clock

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

// bucket is the state of one subject.
type bucket struct {
	lim   *rate.Limiter
	limit rl.Limit
	last  time.Time // last request
}

// sweepEvery is how often Allow looks for idle subjects to drop.
const sweepEvery = time.Minute

// NewMemory returns an empty in-memory limiter that reads the time from clock.
func NewMemory(clock ports.Clock) *Memory {
	return &Memory{clock: clock, buckets: make(map[string]*bucket)}
}

// Allow counts one request of subject against l.
func (m *Memory) Allow(_ context.Context, subject string, l rl.Limit) (rl.Result, error) {
	if err := validate(l); err != nil {
		return rl.Result{}, err
	}
	now := m.clock.Now()
	every := l.Period / time.Duration(l.Count)

	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	b, ok := m.buckets[subject]
	switch {
	case !ok:
		b = &bucket{lim: rate.NewLimiter(rate.Every(every), l.Count), limit: l}
		m.buckets[subject] = b
	case b.limit != l:
		b.lim.SetLimitAt(now, rate.Every(every))
		b.lim.SetBurstAt(now, l.Count)
		b.limit = l
	}
	b.last = now

	var out rl.Result
	r := b.lim.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		out.RetryAfter = delay
	} else {
		out.Allowed = true
	}
	tokens := max(b.lim.TokensAt(now), 0)
	out.Remaining = int(math.Floor(tokens))
	out.ResetAfter = time.Duration((float64(l.Count) - tokens) * float64(every))
	return out, nil
}

// sweep drops the subjects idle for their whole period (full again, so nothing is lost).
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.lastSweep) < sweepEvery {
		return
	}
	m.lastSweep = now
	for subject, b := range m.buckets {
		if now.Sub(b.last) >= b.limit.Period {
			delete(m.buckets, subject)
		}
	}
}
