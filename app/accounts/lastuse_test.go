package accounts

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

// movingClock is a clock the test moves.
type movingClock struct{ at atomic.Pointer[time.Time] }

func newMovingClock(t time.Time) *movingClock {
	c := &movingClock{}
	c.set(t)
	return c
}

func (c *movingClock) Now() time.Time  { return *c.at.Load() }
func (c *movingClock) set(t time.Time) { c.at.Store(&t) }

// touch is one call of Keys.Touch.
type touch struct {
	at  time.Time
	ids []string
}

// touchRecorder answers Keys.Touch: each call is sent on calls, then waits for release (when set)
// and returns err.
func touchRecorder(keys *mock.MockKeys, calls chan<- touch, release <-chan struct{}, err func() error) {
	keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, at time.Time, ids []string) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			calls <- touch{at: at, ids: append([]string(nil), ids...)}
			if release != nil {
				<-release
			}
			return err()
		}).AnyTimes()
}

func nextTouch(t *testing.T, calls <-chan touch) touch {
	t.Helper()
	select {
	case c := <-calls:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no write of the keys' last use")
		return touch{}
	}
}

func noTouch(t *testing.T, calls <-chan touch) {
	t.Helper()
	select {
	case c := <-calls:
		t.Fatalf("an unexpected write of last use: %+v", c)
	default:
	}
}

// admitter authenticates keys by their secret against a mock store that knows keys k1 and k2.
func admitter(t *testing.T, clock ports.Clock) (*Access, *mock.MockKeys, map[string]string) {
	ctrl := gomock.NewController(t)
	keys := mock.NewMockKeys(ctrl)
	limiter := mock.NewMockRateLimiter(ctrl)
	limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}}, nil).AnyTimes()
	secrets := map[string]string{}
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	for _, id := range []string{"key_1", "key_2"} {
		secret := account.KeyPrefix + id + "_" + goodKey[len(account.KeyPrefix):]
		secrets[id] = secret
		k := account.Key{ID: id, AccountID: "acct_1", Hash: account.HashSecret(secret)}
		keys.EXPECT().Credential(gomock.Any(), k.Hash, gomock.Any()).Return(ports.Credential{Key: k, Account: active}, nil).AnyTimes()
	}
	return NewAccess(keys, limiter, plans, clock), keys, secrets
}

func admit(t *testing.T, a *Access, secret string) {
	t.Helper()
	if _, err := a.Admit(context.Background(), secret); err != nil {
		t.Fatalf("Admit: %v", err)
	}
}

// TestLastUseAtMostOnceAMinute: a key's first use is written, the uses within the next minute
// are not, and the first one a minute or more later is.
func TestLastUseAtMostOnceAMinute(t *testing.T) {
	clock := newMovingClock(now)
	a, keys, secrets := admitter(t, clock)
	calls := make(chan touch, 10)
	touchRecorder(keys, calls, nil, func() error { return nil })

	admit(t, a, secrets["key_1"])
	if c := nextTouch(t, calls); !c.at.Equal(now) || len(c.ids) != 1 || c.ids[0] != "key_1" {
		t.Fatalf("first write %+v, want key_1 at %v", c, now)
	}
	for _, d := range []time.Duration{0, 30 * time.Second, TouchEvery - time.Millisecond} {
		clock.set(now.Add(d))
		admit(t, a, secrets["key_1"])
	}
	clock.set(now.Add(TouchEvery))
	admit(t, a, secrets["key_1"])
	if c := nextTouch(t, calls); !c.at.Equal(now.Add(TouchEvery)) || len(c.ids) != 1 {
		t.Fatalf("second write %+v, want key_1 at %v (the uses within the minute not written)", c, now.Add(TouchEvery))
	}
	noTouch(t, calls)
}

// TestLastUseOffTheRequestPath: while a write hangs, authentications go on without waiting for
// it, and the keys used meanwhile are written together in the next write.
func TestLastUseOffTheRequestPath(t *testing.T) {
	clock := newMovingClock(now)
	a, keys, secrets := admitter(t, clock)
	calls := make(chan touch, 10)
	release := make(chan struct{})
	touchRecorder(keys, calls, release, func() error { return nil })

	admit(t, a, secrets["key_1"])
	first := nextTouch(t, calls) // now hanging until released
	if len(first.ids) != 1 || first.ids[0] != "key_1" {
		t.Fatalf("first write %+v", first)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		clock.set(now.Add(2 * time.Second))
		admit(t, a, secrets["key_2"])
		clock.set(now.Add(TouchEvery + time.Second))
		admit(t, a, secrets["key_1"])
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("authentication waited for the hanging write")
	}
	noTouch(t, calls)
	close(release)
	second := nextTouch(t, calls)
	if !second.at.Equal(now.Add(TouchEvery+time.Second)) || len(second.ids) != 2 || second.ids[0] != "key_2" || second.ids[1] != "key_1" {
		t.Fatalf("second write %+v, want key_2 and key_1 together at the latest use", second)
	}
}

// TestLastUseRetriedAfterFailure: a write that fails is not retried in a loop, and the key's next
// use, even within the minute, writes it.
func TestLastUseRetriedAfterFailure(t *testing.T) {
	clock := newMovingClock(now)
	a, keys, secrets := admitter(t, clock)
	calls := make(chan touch, 10)
	var fail atomic.Bool
	fail.Store(true)
	touchRecorder(keys, calls, nil, func() error {
		if fail.Load() {
			return errors.New("connection refused")
		}
		return nil
	})
	admit(t, a, secrets["key_1"])
	nextTouch(t, calls)
	// The writer forgets the failed key before it stops; wait for that, then check no retry came.
	waitIdle(t, a.uses)
	noTouch(t, calls)
	fail.Store(false)
	clock.set(now.Add(time.Second))
	admit(t, a, secrets["key_1"])
	if c := nextTouch(t, calls); !c.at.Equal(now.Add(time.Second)) {
		t.Fatalf("write after the failure %+v", c)
	}
}

// waitIdle waits until u's writer has stopped.
func waitIdle(t *testing.T, u *keyUses) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		u.mu.Lock()
		idle := !u.flushing
		u.mu.Unlock()
		if idle {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the writer never stopped")
}

// TestDays: the overview's chart reads the ledger's days of the current period, for the account,
// and fills in the days without charges up to today.
func TestDays(t *testing.T) {
	f := newFixture(t)
	period := ledger.PeriodAt(now) // now is the 21st
	f.usage.EXPECT().Daily(gomock.Any(), "acct_1", period).Return([]ledger.Day{
		{Date: period.Start, Interactions: 3}, {Date: period.Start.AddDate(0, 0, 19), Interactions: 5}}, nil)
	o := NewOverviews(NewLedger(f.tx, f.accounts, f.usage, f.events, plans, f.clock), nil)
	days, err := o.Days(context.Background(), account.Account{ID: "acct_1", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 21 || days[0].Interactions != 3 || days[19].Interactions != 5 || days[20].Interactions != 0 || days[1].Interactions != 0 {
		t.Fatalf("days %+v", days)
	}
	f.usage.EXPECT().Daily(gomock.Any(), "acct_1", period).Return(nil, errors.New("connection refused"))
	if _, err := o.Days(context.Background(), account.Account{ID: "acct_1", Plan: "starter"}); err == nil {
		t.Fatal("an outage is not an error")
	}
}

// BenchmarkKeyUseNote is what an authentication adds for its key's last use in the usual case:
// the key was written within the minute, so only memory is looked at.
func BenchmarkKeyUseNote(b *testing.B) {
	ctrl := gomock.NewController(b)
	keys := mock.NewMockKeys(ctrl)
	keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
	u := newKeyUses(keys, newMovingClock(now))
	u.Note("key_1")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			u.Note("key_1")
		}
	})
}

// TestLastUseWritesTogether: keys first used one after another, each after a write of the last
// one would have ended, are written together, touchDelay after the first use, rather than each at
// once beside the request that used it (on SQLite that write took the writer's turn the
// request's own charge then waited for).
func TestLastUseWritesTogether(t *testing.T) {
	ctrl := gomock.NewController(t)
	keys := mock.NewMockKeys(ctrl)
	calls := make(chan touch, 10)
	touchRecorder(keys, calls, nil, func() error { return nil })
	u := newKeyUses(keys, newMovingClock(now))
	u.delay = 300 * time.Millisecond
	began := time.Now()
	for _, id := range []string{"key_1", "key_2", "key_3"} {
		u.Note(id)
		time.Sleep(20 * time.Millisecond) // a write made at once would have been made by now
	}
	c := nextTouch(t, calls)
	if waited := time.Since(began); len(c.ids) != 3 || waited < u.delay {
		t.Fatalf("the first write named %v after %s, want key_1, key_2 and key_3 together after %s", c.ids, waited, u.delay)
	}
	waitIdle(t, u)
	noTouch(t, calls)
}

// TestLastUseBatches: many keys noted during one write go out in writes of at most touchBatch
// keys, each key once.
func TestLastUseBatches(t *testing.T) {
	ctrl := gomock.NewController(t)
	keys := mock.NewMockKeys(ctrl)
	calls := make(chan touch, 10)
	release := make(chan struct{})
	touchRecorder(keys, calls, release, func() error { return nil })
	u := newKeyUses(keys, newMovingClock(now))
	u.Note("key_first")
	nextTouch(t, calls) // hanging
	const n = 2*touchBatch + 7
	for i := range n {
		u.Note(fmt.Sprintf("key_%d", i))
	}
	close(release)
	seen := map[string]bool{}
	for len(seen) < n {
		c := nextTouch(t, calls)
		if len(c.ids) > touchBatch || !c.at.Equal(now) {
			t.Fatalf("a write of %d keys at %v", len(c.ids), c.at)
		}
		for _, id := range c.ids {
			if seen[id] {
				t.Fatalf("%s written twice", id)
			}
			seen[id] = true
		}
	}
	waitIdle(t, u)
	noTouch(t, calls)
}
