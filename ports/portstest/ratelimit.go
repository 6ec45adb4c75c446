package portstest

import (
	"context"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// RunRateLimiter runs the conformance suite of ports.RateLimiter. newLimiter returns a limiter
// that reads the real time (or a clock that stands still). Subjects carry a random suffix, so
// state left in a shared Redis by other runs never interferes.
func RunRateLimiter(t *testing.T, newLimiter func(t *testing.T) ports.RateLimiter) {
	// One request every 20 s once the burst of 3 is spent: the suite runs well within one.
	limit := ratelimit.Limit{Name: "portstest", Count: 3, Period: time.Minute}
	every := limit.Period / time.Duration(limit.Count)

	t.Run("BurstThenDenied", func(t *testing.T) {
		l := newLimiter(t)
		subject := limiterSubject("burst")
		for i := range limit.Count {
			r := limiterAllow(t, l, subject, limit)
			if !r.Allowed {
				t.Fatalf("request %d of %d denied: %+v", i+1, limit.Count, r)
			}
			if want := limit.Count - i - 1; r.Remaining != want {
				t.Errorf("request %d: Remaining = %d, want %d", i+1, r.Remaining, want)
			}
			if r.RetryAfter != 0 {
				t.Errorf("request %d: RetryAfter = %v on an allowed request, want 0", i+1, r.RetryAfter)
			}
		}
		r := limiterAllow(t, l, subject, limit)
		if r.Allowed {
			t.Fatalf("request %d allowed, want denied: %+v", limit.Count+1, r)
		}
		if r.Remaining != 0 {
			t.Errorf("denied: Remaining = %d, want 0", r.Remaining)
		}
		if r.RetryAfter <= every*9/10 || r.RetryAfter > every {
			t.Errorf("denied: RetryAfter = %v, want about %v (Period/Count)", r.RetryAfter, every)
		}
		if r.ResetAfter <= limit.Period*9/10 || r.ResetAfter > limit.Period {
			t.Errorf("denied: ResetAfter = %v, want about %v", r.ResetAfter, limit.Period)
		}
	})

	t.Run("SubjectsIndependent", func(t *testing.T) {
		l := newLimiter(t)
		a, b := limiterSubject("a"), limiterSubject("b")
		for range limit.Count {
			limiterAllow(t, l, a, limit)
		}
		if r := limiterAllow(t, l, a, limit); r.Allowed {
			t.Fatalf("%s: request past the burst allowed", a)
		}
		r := limiterAllow(t, l, b, limit)
		if !r.Allowed || r.Remaining != limit.Count-1 {
			t.Errorf("%s after %s spent its burst: %+v, want allowed with %d remaining", b, a, r, limit.Count-1)
		}
	})

	t.Run("LimitsIndependent", func(t *testing.T) {
		l := newLimiter(t)
		subject := limiterSubject("limits")
		other := ratelimit.Limit{Name: "portstest-other", Count: 5, Period: time.Minute}
		for range limit.Count {
			limiterAllow(t, l, ratelimit.Subject(limit, subject), limit)
		}
		r := limiterAllow(t, l, ratelimit.Subject(other, subject), other)
		if !r.Allowed || r.Remaining != other.Count-1 {
			t.Errorf("other limit of the same subject: %+v, want allowed with %d remaining", r, other.Count-1)
		}
	})

	// AllowAll counts each check as Allow does, against the same state, each on its own: one
	// limit spent does not stop the others from counting.
	t.Run("AllowAll", func(t *testing.T) {
		l := newLimiter(t)
		a, b := limiterSubject("all_a"), limiterSubject("all_b")
		other := ratelimit.Limit{Name: "portstest-other", Count: 5, Period: time.Minute}
		checks := []ratelimit.Check{{Subject: a, Limit: limit}, {Subject: b, Limit: other}}
		for i := range limit.Count {
			rs, err := l.AllowAll(context.Background(), checks)
			if err != nil {
				t.Fatalf("AllowAll: %v", err)
			}
			if len(rs) != 2 || !rs[0].Allowed || !rs[1].Allowed || rs[0].Remaining != limit.Count-i-1 || rs[1].Remaining != other.Count-i-1 {
				t.Fatalf("request %d: %+v, want both allowed with %d and %d remaining", i+1, rs, limit.Count-i-1, other.Count-i-1)
			}
		}
		if r := limiterAllow(t, l, a, limit); r.Allowed {
			t.Fatalf("Allow after AllowAll spent the burst: %+v, want denied", r)
		}
		rs, err := l.AllowAll(context.Background(), checks)
		if err != nil {
			t.Fatalf("AllowAll: %v", err)
		}
		if rs[0].Allowed || rs[0].RetryAfter <= every*8/10 || rs[0].RetryAfter > every {
			t.Errorf("spent limit: %+v, want denied with RetryAfter about %v", rs[0], every)
		}
		if !rs[1].Allowed || rs[1].Remaining != other.Count-limit.Count-1 {
			t.Errorf("other limit beside a spent one: %+v, want allowed with %d remaining", rs[1], other.Count-limit.Count-1)
		}
		if _, err := l.AllowAll(context.Background(), []ratelimit.Check{{Subject: a, Limit: ratelimit.Limit{Name: "zero"}}}); err == nil {
			t.Error("AllowAll with a limit of 0 per 0: no error")
		}
	})
}

func limiterAllow(t *testing.T, l ports.RateLimiter, subject string, limit ratelimit.Limit) ratelimit.Result {
	t.Helper()
	r, err := l.Allow(context.Background(), subject, limit)
	if err != nil {
		t.Fatalf("Allow(%s): %v", subject, err)
	}
	return r
}

// limiterSubject returns a subject of its own, apart from those of other runs sharing a Redis.
func limiterSubject(prefix string) string {
	return "portstest:" + prefix + "_" + strings.ToLower(rand.Text())
}
