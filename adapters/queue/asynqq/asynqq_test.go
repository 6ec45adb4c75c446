package asynqq_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap/zaptest"

	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/portstest"
)

// testDB is the Redis database of these tests, apart from other packages' tests.
const testDB = 3

func TestQueue(t *testing.T) {
	portstest.RunQueue(t, func(t *testing.T, h ports.Handler) ports.Queue {
		return start(t, h, asynqq.Options{RetryDelay: fixedDelay(100 * time.Millisecond)})
	})
}

func TestQueueRetries(t *testing.T) {
	portstest.RunQueueRetries(t, func(t *testing.T, h ports.Handler, own time.Duration) ports.Queue {
		return start(t, h, asynqq.Options{RetryDelay: fixedDelay(own)})
	})
}

func TestRetriesLandOnTime(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 6 s")
	}
	var (
		mu     sync.Mutex
		starts []time.Time
		fails  []time.Time
	)
	h := handlerFunc(func(context.Context, outbox.Message) error {
		mu.Lock()
		defer mu.Unlock()
		starts = append(starts, time.Now())
		if len(starts) <= 2 {
			fails = append(fails, time.Now())
			return errors.New("planned failure")
		}
		return nil
	})
	q := start(t, h, asynqq.Options{RetryDelay: func(n int, _ error) time.Duration {
		return []time.Duration{2 * time.Second, 4 * time.Second}[min(n, 1)]
	}})
	enqueue(t, q, outbox.Message{ID: testName("timed"), Topic: "test.timed"})

	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		n := len(starts)
		mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("handled %d times in 15 s, want 3", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, want := range []time.Duration{2 * time.Second, 4 * time.Second} {
		got := starts[i+1].Sub(fails[i])
		t.Logf("retry %d: %v after the failure (want %v ± 20%%)", i+1, got.Round(time.Microsecond), want)
		if got < want*8/10 || got > want*12/10 {
			t.Errorf("retry %d came %v after the failure, want %v ± 20%%", i+1, got, want)
		}
	}
}

func TestEnqueueReplacesArchived(t *testing.T) {
	var (
		mu    sync.Mutex
		calls int
	)
	h := handlerFunc(func(context.Context, outbox.Message) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return errors.New("planned failure")
		}
		return nil
	})
	opts := asynqq.Options{MaxRetry: -1, Queue: testName("q")}
	q := start(t, h, opts)
	m := outbox.Message{ID: testName("archived"), Topic: "test.archived"}
	enqueue(t, q, m)

	inspector := asynq.NewInspector(redisOpt(t))
	t.Cleanup(func() { _ = inspector.Close() })
	waitFor(t, "the task archived", func() bool {
		info, err := inspector.GetTaskInfo(opts.Queue, m.ID)
		return err == nil && info.State == asynq.TaskStateArchived
	})

	enqueue(t, q, m) // the outbox claimed it again after the lease
	waitFor(t, "a second run", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return calls == 2
	})
}

func TestTaskRoundTrip(t *testing.T) {
	for _, typ := range []string{asynqq.TypeEvent, asynqq.TypePing, asynqq.TypeDelivery, asynqq.TypeMail, asynqq.TypePush, asynqq.TypeMessagingReply} {
		m := outbox.Message{
			ID:        "msg_1",
			AccountID: "acct_1",
			Topic:     typ,
			Payload:   []byte{0, 1, 2, 255},
			CreatedAt: time.Date(2026, 11, 21, 12, 0, 0, 42, time.UTC),
		}
		task, err := asynqq.NewTask(m)
		if err != nil {
			t.Fatal(err)
		}
		if task.Type() != typ {
			t.Errorf("type %q, want %q", task.Type(), typ)
		}
		got, err := asynqq.ParseTask(task)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != m.ID || got.AccountID != m.AccountID || got.Topic != m.Topic ||
			string(got.Payload) != string(m.Payload) || !got.CreatedAt.Equal(m.CreatedAt) {
			t.Errorf("round trip gave %+v, want %+v", got, m)
		}
	}
	if _, err := asynqq.ParseTask(asynq.NewTask("x", []byte("{"))); err == nil {
		t.Error("a broken payload parsed")
	}
	if _, err := asynqq.ParseTask(asynq.NewTask("x", []byte("{}"))); err == nil {
		t.Error("a payload without id parsed")
	}
}

func TestRedisOpt(t *testing.T) {
	opt, err := asynqq.RedisOpt("redis://user:secret@redis.internal:6380/2")
	if err != nil {
		t.Fatal(err)
	}
	o, ok := opt.(asynq.RedisClientOpt)
	if !ok || o.Addr != "redis.internal:6380" || o.Username != "user" || o.Password != "secret" || o.DB != 2 || o.TLSConfig != nil {
		t.Errorf("RedisOpt = %+v", opt)
	}
	if opt, _ := asynqq.RedisOpt("rediss://redis.internal"); opt.(asynq.RedisClientOpt).TLSConfig == nil {
		t.Error("rediss:// without TLS")
	}
	for _, bad := range []string{"http://redis.internal", "redis://:secret@redis.internal/x", "redis://:secret@[bad"} {
		_, err := asynqq.RedisOpt(bad)
		if err == nil {
			t.Errorf("RedisOpt(%q) gave no error", bad)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("RedisOpt(%q) error shows the password: %v", bad, err)
		}
	}
}

// start returns a queue with a started worker on a queue of its own (unless opts names one),
// shut down and deleted when the test ends.
func start(t *testing.T, h ports.Handler, opts asynqq.Options) *asynqq.Queue {
	t.Helper()
	r := redisOpt(t)
	if opts.Queue == "" {
		opts.Queue = testName("q")
	}
	opts.ShutdownTimeout = 5 * time.Second

	client, closeClient := asynqq.NewClient(r)
	inspector, closeInspector := asynqq.NewInspector(r)
	w := asynqq.NewWorker(r, h, opts, zaptest.NewLogger(t))
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Shutdown(); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := inspector.DeleteQueue(opts.Queue, true); err != nil && !errors.Is(err, asynq.ErrQueueNotFound) {
			t.Errorf("delete queue %s: %v", opts.Queue, err)
		}
		deleteKeys(t, r, "svc:asynqq:due:"+opts.Queue+":*")
		closeInspector()
		closeClient()
	})
	return asynqq.NewQueue(client, inspector, opts)
}

// redisOpt returns the test Redis on database testDB.
func redisOpt(t *testing.T) asynq.RedisClientOpt {
	t.Helper()
	opt, err := asynqq.RedisOpt(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	o := opt.(asynq.RedisClientOpt)
	o.DB = testDB
	return o
}

func deleteKeys(t *testing.T, r asynq.RedisClientOpt, pattern string) {
	t.Helper()
	rdb := r.MakeRedisClient().(redis.UniversalClient)
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, pattern).Result()
	if err == nil && len(keys) > 0 {
		err = rdb.Del(ctx, keys...).Err()
	}
	if err != nil {
		t.Errorf("delete %s: %v", pattern, err)
	}
}

func enqueue(t *testing.T, q *asynqq.Queue, m outbox.Message) {
	t.Helper()
	if err := q.Enqueue(context.Background(), m); err != nil {
		t.Fatalf("Enqueue(%s): %v", m.ID, err)
	}
}

func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 10 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// testName returns a name of its own, apart from those of other runs sharing the Redis.
func testName(prefix string) string { return "test_" + prefix + "_" + strings.ToLower(rand.Text()) }

func fixedDelay(d time.Duration) func(int, error) time.Duration {
	return func(int, error) time.Duration { return d }
}

type handlerFunc func(ctx context.Context, m outbox.Message) error

func (f handlerFunc) Handle(ctx context.Context, m outbox.Message) error { return f(ctx, m) }

// TestDepthOfAnUnknownQueue: a queue nothing was ever enqueued to (a fresh Redis, or one that
// restarted empty) has depth 0, not an error (the metric would read NaN).
func TestDepthOfAnUnknownQueue(t *testing.T) {
	r := redisOpt(t)
	client, closeClient := asynqq.NewClient(r)
	defer closeClient()
	inspector, closeInspector := asynqq.NewInspector(r)
	defer closeInspector()
	q := asynqq.NewQueue(client, inspector, asynqq.Options{Queue: testName("never")})
	n, err := q.Depth(t.Context())
	if err != nil || n != 0 {
		t.Fatalf("Depth of a queue never used = %d, %v; want 0, nil", n, err)
	}
}

// TestShutdownCutShort: Shutdown returns ErrCutShort when a task still runs at the shutdown
// timeout, and nil after a clean drain.
func TestShutdownCutShort(t *testing.T) {
	for _, c := range []struct {
		name  string
		block bool
	}{{"clean", false}, {"cut short", true}} {
		t.Run(c.name, func(t *testing.T) {
			r := redisOpt(t)
			opts := asynqq.Options{Queue: testName("cut"), ShutdownTimeout: 300 * time.Millisecond}
			started, handled := make(chan struct{}, 1), make(chan struct{}, 1)
			var returned atomic.Bool
			h := handlerFunc(func(ctx context.Context, _ outbox.Message) error {
				started <- struct{}{}
				if c.block {
					<-ctx.Done()
					time.Sleep(200 * time.Millisecond) // what a handler cut short still writes
					returned.Store(true)
					return ctx.Err()
				}
				handled <- struct{}{}
				return nil
			})
			client, closeClient := asynqq.NewClient(r)
			inspector, closeInspector := asynqq.NewInspector(r)
			t.Cleanup(func() {
				if err := inspector.DeleteQueue(opts.Queue, true); err != nil && !errors.Is(err, asynq.ErrQueueNotFound) {
					t.Errorf("delete queue %s: %v", opts.Queue, err)
				}
				closeInspector()
				closeClient()
			})
			w := asynqq.NewWorker(r, h, opts, zaptest.NewLogger(t))
			if err := w.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			enqueue(t, asynqq.NewQueue(client, inspector, opts), outbox.Message{ID: testName("m"), Topic: "test.cut"})
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("the task did not start within 10 s")
			}
			if !c.block {
				<-handled
			}
			err := w.Shutdown()
			if c.block != errors.Is(err, asynqq.ErrCutShort) || (!c.block && err != nil) {
				t.Errorf("Shutdown: %v, want ErrCutShort %v", err, c.block)
			}
			if !c.block {
				return
			}
			// The handler cut short has returned (the program closes the store after Shutdown),
			// and its task is back in the queue, to run again.
			if !returned.Load() {
				t.Error("Shutdown returned before the handler it cut short did")
			}
			if info, err := inspector.GetQueueInfo(opts.Queue); err != nil || info.Pending != 1 {
				t.Errorf("queue after the task was cut short: %+v, %v; want 1 pending", info, err)
			}
		})
	}
}
