package asynqq_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/queue/asynqq"
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

func (r *runs) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.starts)
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
	q := start(t, h, asynqq.Options{RetryDelay: fixedDelay(time.Minute)})
	enqueue(t, q, outbox.Message{ID: testName("later"), Topic: "test.later"})

	deadline := time.Now().Add(15 * time.Second)
	for r.count() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("handled %d times in 15 s, want 3", r.count())
		}
		time.Sleep(10 * time.Millisecond)
	}
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
	q := start(t, h, asynqq.Options{RetryDelay: fixedDelay(100 * time.Millisecond)})
	enqueue(t, q, outbox.Message{ID: testName("counted"), Topic: "test.counted"})
	waitFor(t, "three runs", func() bool { return r.count() == 3 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Equal(r.retries, []int{0, 1, 2}) {
		t.Errorf("m.Retry was %v, want [0 1 2]", r.retries)
	}
}
