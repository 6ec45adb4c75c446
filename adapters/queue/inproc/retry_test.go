package inproc_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// runs records when a handler ran, when it failed and the Retry it was given.
type runs struct {
	mu      sync.Mutex
	starts  []time.Time
	fails   []time.Time
	retries []int
}

// handler fails the first len(errs) runs with errs, in order, and then succeeds.
func (r *runs) handler(errs ...error) handlerFunc {
	return func(_ context.Context, m outbox.Message) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.starts = append(r.starts, time.Now())
		r.retries = append(r.retries, m.Retry)
		if n := len(r.starts); n <= len(errs) {
			r.fails = append(r.fails, time.Now())
			return errs[n-1]
		}
		return nil
	}
}

func (r *runs) wait(t *testing.T, n int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		r.mu.Lock()
		got := len(r.starts)
		r.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("handled %d times in %v, want %d", got, within, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRetryLaterLandsOnTime(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 6 s")
	}
	var r runs
	h := r.handler(
		&ports.RetryLater{Delay: 2 * time.Second, Err: errors.New("status 500")},
		fmt.Errorf("deliver: %w", &ports.RetryLater{Delay: 4 * time.Second}), // wrapped
	)
	// The queue's own schedule would come far too late.
	q := start(t, h, inproc.Options{RetryDelay: fixedDelay(time.Minute)})
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "timed", Topic: "test.timed"}); err != nil {
		t.Fatal(err)
	}
	r.wait(t, 3, 15*time.Second)

	r.mu.Lock()
	defer r.mu.Unlock()
	for i, want := range []time.Duration{2 * time.Second, 4 * time.Second} {
		got := r.starts[i+1].Sub(r.fails[i])
		t.Logf("retry %d: %v after the failure (want %v ± 20%%)", i+1, got.Round(time.Microsecond), want)
		if got < want*8/10 || got > want*12/10 {
			t.Errorf("retry %d came %v after the failure, want %v ± 20%%", i+1, got, want)
		}
	}
	if !slices.Equal(r.retries, []int{0, 1, 2}) {
		t.Errorf("m.Retry was %v, want [0 1 2]", r.retries)
	}
}

func TestRetryCounts(t *testing.T) {
	var r runs
	h := r.handler(errors.New("first"), errors.New("second"))
	q := start(t, h, inproc.Options{RetryDelay: fixedDelay(10 * time.Millisecond)})
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "counted", Topic: "test.counted"}); err != nil {
		t.Fatal(err)
	}
	r.wait(t, 3, 5*time.Second)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Equal(r.retries, []int{0, 1, 2}) {
		t.Errorf("m.Retry was %v, want [0 1 2]", r.retries)
	}
}

func TestRetryLaterKeepsMaxRetry(t *testing.T) {
	var r runs
	later := &ports.RetryLater{Delay: 10 * time.Millisecond}
	h := r.handler(later, later, later, later)
	q := start(t, h, inproc.Options{MaxRetry: 1})
	if err := q.Enqueue(context.Background(), outbox.Message{ID: "capped", Topic: "test.capped"}); err != nil {
		t.Fatal(err)
	}
	r.wait(t, 2, 5*time.Second)
	time.Sleep(200 * time.Millisecond) // room for a wrong third run
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.starts) != 2 {
		t.Errorf("handled %d times, want 2 (once and MaxRetry 1)", len(r.starts))
	}
}
