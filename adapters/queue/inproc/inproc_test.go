package inproc_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/portstest"
)

func TestQueue(t *testing.T) {
	portstest.RunQueue(t, func(t *testing.T, h ports.Handler) ports.Queue {
		return start(t, h, inproc.Options{RetryDelay: fixedDelay(50 * time.Millisecond)})
	})
}

func TestStopWaitsForRunningHandler(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	q := inproc.New(handlerFunc(func(context.Context, outbox.Message) error {
		close(started)
		<-release
		finished.Store(true)
		return nil
	}), inproc.Options{}, zaptest.NewLogger(t))
	q.Start(context.Background())
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "m1"}); err != nil {
		t.Fatal(err)
	}
	<-started

	stopped := make(chan error, 1)
	go func() { stopped <- q.Stop(context.Background()) }()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while a handler ran", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "m2"}); !errors.Is(err, inproc.ErrStopped) {
		t.Errorf("Enqueue while stopping: %v, want ErrStopped", err)
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if !finished.Load() {
		t.Error("Stop returned before the handler finished")
	}
}

func TestStopGivesUpWithContext(t *testing.T) {
	started := make(chan struct{})
	canceled := make(chan struct{})
	q := inproc.New(handlerFunc(func(ctx context.Context, _ outbox.Message) error {
		close(started)
		<-ctx.Done()
		close(canceled)
		return ctx.Err()
	}), inproc.Options{}, zap.NewNop()) // it logs the failure after the test ends
	q.Start(context.Background())
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "stuck"}); err != nil {
		t.Fatal(err)
	}
	<-started

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := q.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop: %v, want deadline exceeded", err)
	}
	select {
	case <-canceled:
	case <-time.After(time.Second):
		t.Error("the handler's context was not canceled when Stop gave up")
	}
}

// TestStopWaitsForCanceledHandler: a handler canceled when Stop gave up has returned when Stop
// returns (up to outage.CutGrace), so that the program closes the store after it, not under it.
func TestStopWaitsForCanceledHandler(t *testing.T) {
	started := make(chan struct{})
	var returned atomic.Bool
	q := inproc.New(handlerFunc(func(ctx context.Context, _ outbox.Message) error {
		close(started)
		<-ctx.Done()
		time.Sleep(200 * time.Millisecond) // what a handler cut short still writes
		returned.Store(true)
		return ctx.Err()
	}), inproc.Options{}, zap.NewNop())
	q.Start(context.Background())
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "slow to stop"}); err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := q.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop: %v, want deadline exceeded", err)
	}
	if !returned.Load() {
		t.Error("Stop returned before the handler it canceled did")
	}
}

func TestEnqueueFailsWhenFull(t *testing.T) {
	q := inproc.New(handlerFunc(func(context.Context, outbox.Message) error { return nil }),
		inproc.Options{Capacity: 2}, zaptest.NewLogger(t)) // not started: nothing drains
	ctx := context.Background()
	for i, id := range []string{"a", "b", "a"} {
		if room, _ := q.Room(ctx); room != 2-min(i, 2) {
			t.Errorf("Room before Enqueue(%s) = %d, want %d", id, room, 2-min(i, 2))
		}
		if err := q.Enqueue(ctx, outbox.Message{ID: id}); err != nil {
			t.Fatalf("Enqueue(%s): %v", id, err)
		}
	}
	if room, _ := q.Room(ctx); room != 0 {
		t.Errorf("Room when full = %d, want 0", room)
	}
	if err := q.Enqueue(ctx, outbox.Message{ID: "c"}); !errors.Is(err, inproc.ErrFull) {
		t.Errorf("Enqueue past capacity: %v, want ErrFull", err)
	}
	if n, _ := q.Depth(ctx); n != 2 {
		t.Errorf("Depth = %d, want 2", n)
	}
}

func TestQueueRetries(t *testing.T) {
	portstest.RunQueueRetries(t, func(t *testing.T, h ports.Handler, own time.Duration) ports.Queue {
		return start(t, h, inproc.Options{RetryDelay: fixedDelay(own)})
	})
}

func TestRetryLaterKeepsMaxRetry(t *testing.T) {
	var calls atomic.Int32
	q := start(t, handlerFunc(func(context.Context, outbox.Message) error {
		calls.Add(1)
		return &ports.RetryLater{Delay: 10 * time.Millisecond}
	}), inproc.Options{MaxRetry: 1})
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "capped"}); err != nil {
		t.Fatal(err)
	}
	// Depth counts the messages that wait, run or wait for a retry: at 0 the queue has given up
	// on the message, and no further run can come.
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := q.Depth(context.Background()); calls.Load() < 2 || n != 0; n, _ = q.Depth(context.Background()) {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s: handled %d times, Depth %d; want the queue to give up after 2 runs", calls.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("handled %d times, want 2 (once and MaxRetry 1)", n)
	}
}

func TestGivesUpAfterMaxRetry(t *testing.T) {
	var calls atomic.Int32
	q := start(t, handlerFunc(func(context.Context, outbox.Message) error {
		calls.Add(1)
		panic("boom") // a panic is a failure like any other
	}), inproc.Options{MaxRetry: 2, RetryDelay: fixedDelay(10 * time.Millisecond)})
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "doomed"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := q.Depth(context.Background()); n != 0; n, _ = q.Depth(context.Background()) {
		if time.Now().After(deadline) {
			t.Fatalf("Depth = %d after 5s, want 0", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("handled %d times, want 3 (once and 2 retries)", n)
	}
}

// start returns a started queue, stopped when the test ends.
func start(t *testing.T, h ports.Handler, opts inproc.Options) *inproc.Queue {
	t.Helper()
	q := inproc.New(h, opts, zaptest.NewLogger(t))
	q.Start(context.Background())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return q
}

func fixedDelay(d time.Duration) func(int, error) time.Duration {
	return func(int, error) time.Duration { return d }
}

type handlerFunc func(ctx context.Context, m outbox.Message) error

func (f handlerFunc) Handle(ctx context.Context, m outbox.Message) error { return f(ctx, m) }
