package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/google/wire"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

// FallbackSet provides the production limiter: Redis, falling back to memory while Redis cannot
// be reached. It needs a redis.UniversalClient, a ports.Clock and a *zap.Logger.
var FallbackSet = wire.NewSet(NewRedis, NewMemory, NewFallback, wire.Bind(new(ports.RateLimiter), new(*Fallback)))

// fallbackFor is how long the limits are counted in memory after Redis failed, before one
// request tries Redis again: a Redis that is down costs one failed try per interval, not one per
// request.
const fallbackFor = 2 * time.Second

// DefaultTimeout is Options.Timeout when it is not set (SVC_REDIS_TIMEOUT's default).
const DefaultTimeout = time.Second

// Options are the fallback's settings.
type Options struct {
	// Timeout bounds every request's use of Redis, so that a Redis that stops answering without
	// closing its connections (a network partition, a hung or stalled server) delays the
	// requests of that moment by this much, not by the client's read timeouts and retries
	// (about 10 s), before they fall back to memory. A Redis that answers takes well under a
	// millisecond. The one request that tries Redis again after a failure waits half of it, so
	// that a Redis that does not answer at all delays it by that much at most. Zero:
	// DefaultTimeout.
	Timeout time.Duration
}

// Fallback counts requests with Redis (shared by every replica) and, while Redis cannot be
// reached, with a limiter in this process, so that an outage of Redis never takes the API down:
// during it each replica enforces the limits on its own share of the traffic. It works like a
// circuit breaker: after a failure it counts in memory for a short interval, then lets one request
// try Redis again. An outage is logged as the relay's and the sweeps' are (outage.Log, cause
// redisCause): once when it starts, with the error, a reminder at most once a minute while the
// tries keep failing, and once when Redis answers again; it is counted in the metrics
// (Collectors). Safe for concurrent use.
type Fallback struct {
	redis  ports.RateLimiter
	memory ports.RateLimiter
	clock  ports.Clock
	log    *outage.Log

	callTimeout  time.Duration // Options.Timeout
	probeTimeout time.Duration // half of it

	mu      sync.Mutex
	down    bool      // Redis failed and has not answered since
	retryAt time.Time // while down: when a request may try Redis again
	probing bool      // while down: a request is trying Redis

	degraded prometheus.Gauge
	outages  prometheus.Counter
	counted  prometheus.Counter
}

// NewFallback returns a limiter that counts with r, and with m while r cannot be reached.
func NewFallback(r *Redis, m *Memory, clock ports.Clock, log *zap.Logger, opts Options) *Fallback {
	return newFallback(r, m, clock, log, opts)
}

func newFallback(r, m ports.RateLimiter, clock ports.Clock, log *zap.Logger, opts Options) *Fallback {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Fallback{
		redis: r, memory: m, clock: clock, log: outage.New(log.Named("ratelimit"), clock, outage.Reminder),
		callTimeout: opts.Timeout, probeTimeout: opts.Timeout / 2,
		degraded: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "svc_ratelimit_degraded",
			Help: "1 while Redis cannot be reached and the rate limits are counted in this process, else 0.",
		}),
		outages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_ratelimit_fallbacks_total",
			Help: "Times the rate limits fell back to this process because Redis could not be reached.",
		}),
		counted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_ratelimit_fallback_requests_total",
			Help: "Rate-limit checks counted in this process because Redis could not be reached.",
		}),
	}
}

// Collectors returns the fallback's metrics.
func (f *Fallback) Collectors() []prometheus.Collector {
	return []prometheus.Collector{f.degraded, f.outages, f.counted}
}

// Degraded reports whether the limits are being counted in this process.
func (f *Fallback) Degraded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.down
}

// Allow counts one request of subject against l, with Redis unless it is down.
func (f *Fallback) Allow(ctx context.Context, subject string, l rl.Limit) (rl.Result, error) {
	if err := validate(l); err != nil {
		return rl.Result{}, err
	}
	return through(ctx, f,
		func(ctx context.Context) (rl.Result, error) { return f.redis.Allow(ctx, subject, l) },
		func() (rl.Result, error) { return f.memory.Allow(ctx, subject, l) })
}

// AllowAll counts one request against each check, with Redis (one round trip) unless it is down.
func (f *Fallback) AllowAll(ctx context.Context, checks []rl.Check) ([]rl.Result, error) {
	for _, c := range checks {
		if err := validate(c.Limit); err != nil {
			return nil, err
		}
	}
	return through(ctx, f,
		func(ctx context.Context) ([]rl.Result, error) { return f.redis.AllowAll(ctx, checks) },
		func() ([]rl.Result, error) { return f.memory.AllowAll(ctx, checks) })
}

// through counts with inRedis unless Redis is down, and with inMemory while it is, or when
// inRedis fails.
func through[T any](ctx context.Context, f *Fallback, inRedis func(context.Context) (T, error), inMemory func() (T, error)) (T, error) {
	probe, useRedis := f.route()
	if !useRedis {
		f.counted.Inc()
		return inMemory()
	}
	timeout := f.callTimeout
	if probe {
		timeout = f.probeTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := inRedis(rctx)
	if err != nil && ctx.Err() == nil {
		f.failed(err)
		f.counted.Inc()
		return inMemory()
	}
	if probe {
		f.answered(err == nil)
	}
	return res, err
}

// route decides how a request is counted: with Redis (and whether it is the one request that
// tries Redis again after a failure), or in memory.
func (f *Fallback) route() (probe, useRedis bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.down {
		return false, true
	}
	if f.probing || f.clock.Now().Before(f.retryAt) {
		return false, false
	}
	f.probing = true
	return true, true
}

// redisCause names an outage of Redis as the rate limiter sees it, in its log: "rate limits in
// Redis: failing" (meanwhile they are counted in this process), "…: still failing", "…: back".
const redisCause = "rate limits in Redis"

// failed notes that Redis failed: the start of an outage is logged, and a try that fails again
// is counted for the outage's reminder.
func (f *Fallback) failed(err error) {
	f.log.Failed(redisCause, err)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.probing = false
	f.retryAt = f.clock.Now().Add(fallbackFor)
	if f.down {
		return
	}
	f.down = true
	f.degraded.Set(1)
	f.outages.Inc()
}

// answered ends the try of a probe; ok when Redis answered, which ends the outage (logged once).
func (f *Fallback) answered(ok bool) {
	f.mu.Lock()
	f.probing = false
	if !ok || !f.down {
		f.mu.Unlock()
		return
	}
	f.down = false
	f.degraded.Set(0)
	f.mu.Unlock()
	f.log.Succeeded(redisCause)
}

// Check tries Redis with ping at start, as a request would: a Redis that cannot be reached is
// logged now, once, rather than at the first request, and requests are counted in the process
// from the first. Check does nothing while an outage is already known.
func (f *Fallback) Check(ctx context.Context, ping func(context.Context) error) {
	probe, useRedis := f.route()
	if !useRedis {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, f.probeTimeout)
	defer cancel()
	err := ping(pctx)
	if err != nil && ctx.Err() == nil {
		f.failed(err)
		return
	}
	if probe {
		f.answered(err == nil)
	}
}
