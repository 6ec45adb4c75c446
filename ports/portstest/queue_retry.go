package portstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// RunQueueRetries checks how a queue reruns a failed message: a *ports.RetryLater (also wrapped)
// sets the wait before the next run, within ±20%, and m.Retry counts the runs before. newQueue
// starts a queue whose own retry delay is ownDelay.
func RunQueueRetries(t *testing.T, newQueue func(t *testing.T, h ports.Handler, ownDelay time.Duration) ports.Queue) {
	t.Run("RetryLaterLandsOnTime", func(t *testing.T) {
		if testing.Short() {
			t.Skip("takes 6 s")
		}
		r := &retryRuns{errs: []error{
			&ports.RetryLater{Delay: 2 * time.Second, Err: errors.New("status 500")},
			fmt.Errorf("deliver: %w", &ports.RetryLater{Delay: 4 * time.Second}), // wrapped
		}}
		q := newQueue(t, r, time.Minute) // the queue's own schedule would come far too late
		queueEnqueue(t, q, outbox.Message{ID: queueID("later"), Topic: "test.later"})
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
	})
	t.Run("RetryCountsRuns", func(t *testing.T) {
		r := &retryRuns{errs: []error{errors.New("first"), errors.New("second")}}
		q := newQueue(t, r, 100*time.Millisecond)
		queueEnqueue(t, q, outbox.Message{ID: queueID("counted"), Topic: "test.counted"})
		r.wait(t, 3, 10*time.Second)
		r.mu.Lock()
		defer r.mu.Unlock()
		if !slices.Equal(r.retries, []int{0, 1, 2}) {
			t.Errorf("m.Retry was %v, want [0 1 2]", r.retries)
		}
	})
}

// retryRuns fails the first len(errs) runs with errs, in order, then succeeds, and records when
// each run started, when it failed and the Retry it was given.
type retryRuns struct {
	errs    []error
	mu      sync.Mutex
	starts  []time.Time
	fails   []time.Time
	retries []int
}

func (r *retryRuns) Handle(_ context.Context, m outbox.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.starts = append(r.starts, time.Now())
	r.retries = append(r.retries, m.Retry)
	if n := len(r.starts); n <= len(r.errs) {
		r.fails = append(r.fails, time.Now())
		return r.errs[n-1]
	}
	return nil
}

func (r *retryRuns) wait(t *testing.T, n int, within time.Duration) {
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
