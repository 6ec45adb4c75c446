// Package ratelimit limits request rates with GCRA: bursts up to a limit's Count, then one request
// every Period/Count. Redis shares the state between replicas; Memory keeps it in one process.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
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

// Redis is a GCRA limiter whose state lives in Redis (go-redis/redis_rate, and allowAll for
// several limits in one round trip).
type Redis struct {
	client  redis.UniversalClient
	limiter *redis_rate.Limiter
}

// NewRedis returns a limiter on client.
func NewRedis(client redis.UniversalClient) *Redis {
	return &Redis{client: client, limiter: redis_rate.NewLimiter(client)}
}

// rateKeyPrefix is what redis_rate puts before a key: allowAll keeps the same keys, so both count
// against one state.
const rateKeyPrefix = "rate:"

// allowAll is redis_rate's GCRA script (allowN, cost 1) run for each key in turn, so that all
// the limits of a request are counted in one round trip: KEYS are the limits' keys, ARGV holds
// burst, rate and period (seconds) for each. It answers allowed (0 or 1), remaining, retry_after
// and reset_after (seconds, as strings) for each key.
var allowAll = redis.NewScript(`
redis.replicate_commands()
local jan_1_2017 = 1483228800
local now = redis.call("TIME")
now = (now[1] - jan_1_2017) + (now[2] / 1000000)
local out = {}
for i, key in ipairs(KEYS) do
  local burst = tonumber(ARGV[3*i-2])
  local rate = tonumber(ARGV[3*i-1])
  local period = tonumber(ARGV[3*i])
  local emission_interval = period / rate
  local burst_offset = emission_interval * burst
  local tat = redis.call("GET", key)
  if not tat then tat = now else tat = tonumber(tat) end
  tat = math.max(tat, now)
  local new_tat = tat + emission_interval
  local diff = now - (new_tat - burst_offset)
  local remaining = diff / emission_interval
  if remaining < 0 then
    table.insert(out, 0)
    table.insert(out, 0)
    table.insert(out, tostring(-diff))
    table.insert(out, tostring(tat - now))
  else
    local reset_after = new_tat - now
    if reset_after > 0 then
      redis.call("SET", key, new_tat, "EX", math.ceil(reset_after))
    end
    table.insert(out, 1)
    table.insert(out, remaining)
    table.insert(out, "-1")
    table.insert(out, tostring(reset_after))
  end
end
return out
`)

// AllowAll counts one request against each check in one round trip (one script).
func (r *Redis) AllowAll(ctx context.Context, checks []rl.Check) ([]rl.Result, error) {
	keys := make([]string, len(checks))
	args := make([]any, 0, 3*len(checks))
	for i, c := range checks {
		if err := validate(c.Limit); err != nil {
			return nil, err
		}
		keys[i] = rateKeyPrefix + keyPrefix + c.Subject
		args = append(args, c.Limit.Count, c.Limit.Count, c.Limit.Period.Seconds())
	}
	v, err := allowAll.Run(ctx, r.client, keys, args...).Slice()
	if err != nil {
		return nil, fmt.Errorf("rate limits: %w", err)
	}
	if len(v) != 4*len(checks) {
		return nil, fmt.Errorf("rate limits: %d values for %d limits", len(v), len(checks))
	}
	out := make([]rl.Result, len(checks))
	for i := range checks {
		allowed, _ := v[4*i].(int64)
		remaining, _ := v[4*i+1].(int64)
		retry, err1 := seconds(v[4*i+2])
		reset, err2 := seconds(v[4*i+3])
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("rate limits: %w", err)
		}
		out[i] = rl.Result{Allowed: allowed == 1, Remaining: int(remaining), ResetAfter: max(reset, 0)}
		if !out[i].Allowed {
			out[i].RetryAfter = max(retry, 0)
		}
	}
	return out, nil
}

// seconds reads a duration the script answered as a string of seconds.
func seconds(v any) (time.Duration, error) {
	s, _ := v.(string)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(f * float64(time.Second)), nil
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

// InProcess reports that the limiter answers in this process (ports.InProcess).
func (m *Memory) InProcess() bool { return true }

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
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	return m.allow(now, subject, l), nil
}

// AllowAll counts one request against each check, under one lock.
func (m *Memory) AllowAll(_ context.Context, checks []rl.Check) ([]rl.Result, error) {
	for _, c := range checks {
		if err := validate(c.Limit); err != nil {
			return nil, err
		}
	}
	now := m.clock.Now()
	out := make([]rl.Result, len(checks))
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	for i, c := range checks {
		out[i] = m.allow(now, c.Subject, c.Limit)
	}
	return out, nil
}

// allow counts one request of subject against l at now; m.mu is held.
func (m *Memory) allow(now time.Time, subject string, l rl.Limit) rl.Result {
	every := l.Period / time.Duration(l.Count)
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
	return out
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
