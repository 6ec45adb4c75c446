package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/internal/testenv"
)

// pipelineHook counts the pipelines of more than one script a client sends (the groups of
// AllowAll), and those answered NOSCRIPT; it fails them when fail is set, calls flush before
// sending them when set, and holds the first single script until hold is closed when hold is set.
type pipelineHook struct {
	groups, grouped, noScript atomic.Int64
	fail                      atomic.Bool
	flush                     func()
	hold                      chan struct{} // the first single script waits for it to be closed
	held                      chan struct{} // closed when it waits
	holding                   atomic.Bool
}

func (h *pipelineHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *pipelineHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.hold != nil && cmd.Name() == "evalsha" && h.holding.CompareAndSwap(false, true) {
			close(h.held)
			<-h.hold
		}
		return next(ctx, cmd)
	}
}

func (h *pipelineHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 1 && (cmds[0].Name() == "evalsha" || cmds[0].Name() == "eval") {
			h.groups.Add(1)
			h.grouped.Add(int64(len(cmds)))
			if h.fail.Load() {
				err := errors.New("pipeline refused by the test")
				for _, c := range cmds {
					c.SetErr(err)
				}
				return err
			}
			if h.flush != nil {
				h.flush()
			}
		}
		err := next(ctx, cmds)
		if len(cmds) > 1 && cmds[0].Name() == "evalsha" && redis.HasErrorPrefix(cmds[0].Err(), "NOSCRIPT") {
			h.noScript.Add(1)
		}
		return err
	}
}

// testRedis returns a client of the test Redis with hook, and a prefix of subjects for this
// test alone.
func testRedis(t *testing.T, hook redis.Hook) (*redis.Client, string) {
	t.Helper()
	opts, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	client.AddHook(hook)
	t.Cleanup(func() { _ = client.Close() })
	return client, fmt.Sprintf("pipe:%s:%d:", t.Name(), time.Now().UnixNano())
}

// TestAllowAllGroupedExact: many concurrent callers on keys near their limits, their scripts sent
// in shared pipelines, get exactly the answers they would alone: each key lets exactly its limit
// through, every caller gets its own result, and groups did form.
func TestAllowAllGroupedExact(t *testing.T) {
	hook := &pipelineHook{}
	client, prefix := testRedis(t, hook)
	r := NewRedis(client)

	const keys, perKey = 8, 40
	limits := make([]int, keys) // key i lets 5+3i through within the test (an hour's period)
	// Periods long enough that nothing is given back while the test runs.
	shared := rl.Limit{Name: "shared", Count: 100000, Period: 1000 * time.Hour}
	// A first call alone: the remaining of a subject's first call may be rounded down.
	if _, err := r.AllowAll(context.Background(), []rl.Check{{Subject: prefix + "shared", Limit: shared}}); err != nil {
		t.Fatal(err)
	}
	var allowed [keys]atomic.Int64
	var denied [keys]atomic.Int64
	var sharedSeen sync.Map // the shared limit's remaining, one value per caller
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range keys {
		limits[i] = 5 + 3*i
		l := rl.Limit{Name: "k", Count: limits[i], Period: time.Hour}
		for range perKey {
			wg.Go(func() {
				<-start
				res, err := r.AllowAll(context.Background(), []rl.Check{
					{Subject: prefix + fmt.Sprint(i), Limit: l},
					{Subject: prefix + "shared", Limit: shared},
				})
				if err != nil {
					t.Error(err)
					return
				}
				if !res[1].Allowed {
					t.Error("the shared limit refused a call")
				}
				if _, dup := sharedSeen.LoadOrStore(res[1].Remaining, true); dup {
					t.Errorf("two callers got the shared limit's remaining %d", res[1].Remaining)
				}
				switch {
				case res[0].Allowed && res[0].RetryAfter == 0:
					allowed[i].Add(1)
				case !res[0].Allowed && res[0].RetryAfter > 0:
					denied[i].Add(1)
				default:
					t.Errorf("result %+v", res[0])
				}
			})
		}
	}
	close(start)
	wg.Wait()
	for i := range keys {
		if a, d := allowed[i].Load(), denied[i].Load(); a != int64(limits[i]) || d != int64(perKey-limits[i]) {
			t.Errorf("key %d (limit %d of %d callers): %d allowed, %d denied", i, limits[i], perKey, a, d)
		}
	}
	// One more call alone: the shared limit counted every caller once.
	res, err := r.AllowAll(context.Background(), []rl.Check{{Subject: prefix + "shared", Limit: shared}})
	if err != nil {
		t.Fatal(err)
	}
	if want := shared.Count - 1 - keys*perKey - 1; res[0].Remaining != want {
		t.Errorf("shared limit: %d remaining, want %d", res[0].Remaining, want)
	}
	if hook.groups.Load() == 0 {
		t.Fatal("no group formed: every call went alone")
	}
	t.Logf("%d calls, %d of them in %d pipelines", keys*perKey, hook.grouped.Load(), hook.groups.Load())
}

// TestAllowAllGroupFails: a pipeline that fails fails each of its callers, and counts none of
// them (none is sent again); the calls that went alone are counted once each.
func TestAllowAllGroupFails(t *testing.T) {
	hook := &pipelineHook{}
	client, prefix := testRedis(t, hook)
	r := NewRedis(client)
	l := rl.Limit{Name: "k", Count: 1000, Period: 1000 * time.Hour}
	if _, err := r.AllowAll(context.Background(), []rl.Check{{Subject: prefix + "k", Limit: l}}); err != nil {
		t.Fatal(err)
	}
	hook.fail.Store(true)

	const callers = 200
	var ok, failed atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			<-start
			res, err := r.AllowAll(context.Background(), []rl.Check{{Subject: prefix + "k", Limit: l}})
			switch {
			case err != nil:
				failed.Add(1)
			case res[0].Allowed:
				ok.Add(1)
			default:
				t.Errorf("refused: %+v", res[0])
			}
		})
	}
	close(start)
	wg.Wait()
	if hook.groups.Load() == 0 {
		t.Fatal("no group formed: every call went alone")
	}
	if failed.Load() != hook.grouped.Load() {
		t.Errorf("%d callers failed, %d were in failed pipelines", failed.Load(), hook.grouped.Load())
	}
	hook.fail.Store(false)
	res, err := r.AllowAll(context.Background(), []rl.Check{{Subject: prefix + "k", Limit: l}})
	if err != nil {
		t.Fatal(err)
	}
	if want := l.Count - 1 - int(ok.Load()) - 1; res[0].Remaining != want {
		t.Errorf("%d remaining, want %d: %d calls went through", res[0].Remaining, want, ok.Load())
	}
}

// TestAllowAllWaitingCancelled: a caller whose context ends while it waits for the call in flight
// gets its context's error and is not counted; the others of its group are counted as usual.
func TestAllowAllWaitingCancelled(t *testing.T) {
	hook := &pipelineHook{hold: make(chan struct{}), held: make(chan struct{})}
	client, prefix := testRedis(t, hook)
	r := NewRedis(client)
	l := rl.Limit{Name: "k", Count: 1000, Period: 1000 * time.Hour}
	check := []rl.Check{{Subject: prefix + "k", Limit: l}}

	first := make(chan error, 1)
	go func() { // alone, held in the hook: the others wait for it
		_, err := r.AllowAll(context.Background(), check)
		first <- err
	}()
	<-hook.held

	const waiting = 10
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, waiting)
	for i := range waiting {
		c := context.Background()
		if i%2 == 1 {
			c = ctx
		}
		go func() {
			_, err := r.AllowAll(c, check)
			errs <- err
		}()
	}
	time.Sleep(100 * time.Millisecond) // let them reach the queue
	cancel()
	close(hook.hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	var cancelled, counted int
	for range waiting {
		switch err := <-errs; {
		case errors.Is(err, context.Canceled):
			cancelled++
		case err == nil:
			counted++
		default:
			t.Error(err)
		}
	}
	if cancelled != waiting/2 || counted != waiting/2 {
		t.Errorf("%d cancelled, %d counted; want %d each", cancelled, counted, waiting/2)
	}
	if hook.groups.Load() == 0 {
		t.Fatal("no group formed")
	}
	res, err := r.AllowAll(context.Background(), check)
	if err != nil {
		t.Fatal(err)
	}
	if want := l.Count - 1 - counted - 1; res[0].Remaining != want {
		t.Errorf("%d remaining, want %d", res[0].Remaining, want)
	}
}

// TestAllowAllScriptFlushed: a group sent when Redis no longer has the script (SCRIPT FLUSH just
// before its pipeline) is sent again with the script's text, each call counted once.
func TestAllowAllScriptFlushed(t *testing.T) {
	hook := &pipelineHook{}
	client, prefix := testRedis(t, hook)
	other, _ := testRedis(t, &pipelineHook{})
	hook.flush = func() {
		if err := other.ScriptFlush(context.Background()).Err(); err != nil {
			t.Error(err)
		}
	}
	r := NewRedis(client)
	l := rl.Limit{Name: "k", Count: 100000, Period: 1000 * time.Hour}
	check := []rl.Check{{Subject: prefix + "k", Limit: l}}
	var calls int
	for hook.noScript.Load() == 0 && calls < 5000 {
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				if _, err := r.AllowAll(context.Background(), check); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		calls += 50
	}
	if hook.noScript.Load() == 0 {
		t.Fatal("no group was answered NOSCRIPT")
	}
	hook.flush = nil
	res, err := r.AllowAll(context.Background(), check)
	if err != nil {
		t.Fatal(err)
	}
	if want := l.Count - calls - 1; res[0].Remaining != want {
		t.Errorf("%d remaining, want %d", res[0].Remaining, want)
	}
}
