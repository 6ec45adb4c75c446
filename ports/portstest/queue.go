package portstest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// queueWait bounds how long the queue suite waits for a message to be handled.
const queueWait = 15 * time.Second

// RunQueue runs the conformance suite of ports.Queue. newQueue returns a queue whose workers hand
// every message to h and are already started; it registers their shutdown with t.Cleanup. The
// queue should retry a failed message within a second or so.
func RunQueue(t *testing.T, newQueue func(t *testing.T, h ports.Handler) ports.Queue) {
	t.Run("HandlesMessage", func(t *testing.T) {
		rec := newQueueRecorder()
		q := newQueue(t, rec)
		m := outbox.Message{
			ID:        queueID("msg"),
			AccountID: queueID("acct"),
			Topic:     "portstest.echo",
			Payload:   []byte(`{"hello":"world"}`),
			CreatedAt: time.Date(2026, 11, 21, 12, 30, 15, 123456789, time.UTC),
		}
		queueEnqueue(t, q, m)
		rec.waitFor(t, m.ID, 1)
		got := rec.first(m.ID)
		if got.ID != m.ID || got.AccountID != m.AccountID || got.Topic != m.Topic ||
			!bytes.Equal(got.Payload, m.Payload) || !got.CreatedAt.Equal(m.CreatedAt) {
			t.Errorf("handled %+v, want %+v", got, m)
		}
		waitQueueDepth(t, q, 0)
		if n := rec.count(m.ID); n != 1 {
			t.Errorf("handled %d times, want once", n)
		}
	})

	t.Run("HandlesMany", func(t *testing.T) {
		rec := newQueueRecorder()
		q := newQueue(t, rec)
		ids := make([]string, 100)
		for i := range ids {
			ids[i] = queueID(fmt.Sprintf("many%03d", i))
			queueEnqueue(t, q, outbox.Message{ID: ids[i], AccountID: "acct_many", Topic: "portstest.many", CreatedAt: time.Now()})
		}
		for _, id := range ids {
			rec.waitFor(t, id, 1)
		}
		waitQueueDepth(t, q, 0)
	})

	t.Run("RetriesFailure", func(t *testing.T) {
		rec := newQueueRecorder()
		rec.fail = func(m outbox.Message, calls int) error {
			if calls <= 2 {
				return fmt.Errorf("portstest: planned failure %d", calls)
			}
			return nil
		}
		q := newQueue(t, rec)
		m := outbox.Message{ID: queueID("retry"), AccountID: "acct_retry", Topic: "portstest.retry", CreatedAt: time.Now()}
		queueEnqueue(t, q, m)
		rec.waitFor(t, m.ID, 3)
		waitQueueDepth(t, q, 0)
		if n := rec.count(m.ID); n != 3 {
			t.Errorf("handled %d times, want 3 (two failures, then success)", n)
		}
	})

	t.Run("KeepsOneOfSameID", func(t *testing.T) {
		rec := newQueueRecorder()
		release := make(chan struct{})
		rec.block = release
		q := newQueue(t, rec)
		m := outbox.Message{ID: queueID("dup"), AccountID: "acct_dup", Topic: "portstest.dup", CreatedAt: time.Now()}
		queueEnqueue(t, q, m)
		queueEnqueue(t, q, m) // waiting, or running and blocked: either way kept once
		rec.waitFor(t, m.ID, 1)
		queueEnqueue(t, q, m) // running and blocked
		close(release)
		// Depth counts what waits, runs or waits for a retry: at 0 no second run can come.
		waitQueueDepth(t, q, 0)
		if n := rec.count(m.ID); n != 1 {
			t.Errorf("handled %d times, want once", n)
		}
	})

	t.Run("DepthDrains", func(t *testing.T) {
		rec := newQueueRecorder()
		release := make(chan struct{})
		rec.block = release
		q := newQueue(t, rec)
		m := outbox.Message{ID: queueID("depth"), AccountID: "acct_depth", Topic: "portstest.depth", CreatedAt: time.Now()}
		queueEnqueue(t, q, m)
		rec.waitFor(t, m.ID, 1)
		if n := queueDepth(t, q); n != 1 {
			t.Errorf("Depth while running = %d, want 1", n)
		}
		close(release)
		waitQueueDepth(t, q, 0)
	})
}

// queueRecorder is a ports.Handler that records what it handles.
type queueRecorder struct {
	// fail, when set, decides the result of the calls-th call for m.
	fail func(m outbox.Message, calls int) error
	// block, when set, holds every call until it is closed.
	block chan struct{}

	mu    sync.Mutex
	calls map[string][]outbox.Message
}

func newQueueRecorder() *queueRecorder {
	return &queueRecorder{calls: make(map[string][]outbox.Message)}
}

func (r *queueRecorder) Handle(ctx context.Context, m outbox.Message) error {
	r.mu.Lock()
	r.calls[m.ID] = append(r.calls[m.ID], m)
	n := len(r.calls[m.ID])
	r.mu.Unlock()
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if r.fail != nil {
		return r.fail(m, n)
	}
	return nil
}

func (r *queueRecorder) count(id string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls[id])
}

func (r *queueRecorder) first(id string) outbox.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[id][0]
}

// waitFor waits until id was handled at least n times.
func (r *queueRecorder) waitFor(t *testing.T, id string, n int) {
	t.Helper()
	waitQueue(t, func() error {
		if got := r.count(id); got < n {
			return fmt.Errorf("message %s handled %d times, want %d", id, got, n)
		}
		return nil
	})
}

func queueEnqueue(t *testing.T, q ports.Queue, m outbox.Message) {
	t.Helper()
	if err := q.Enqueue(context.Background(), m); err != nil {
		t.Fatalf("Enqueue(%s): %v", m.ID, err)
	}
}

func queueDepth(t *testing.T, q ports.Queue) int {
	t.Helper()
	n, err := q.Depth(context.Background())
	if err != nil {
		t.Fatalf("Depth: %v", err)
	}
	return n
}

func waitQueueDepth(t *testing.T, q ports.Queue, want int) {
	t.Helper()
	waitQueue(t, func() error {
		if n := queueDepth(t, q); n != want {
			return fmt.Errorf("Depth = %d, want %d", n, want)
		}
		return nil
	})
}

// waitQueue polls check until it returns nil, failing the test after queueWait.
func waitQueue(t *testing.T, check func() error) {
	t.Helper()
	deadline := time.Now().Add(queueWait)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// queueID returns a message id of its own, apart from those of other runs sharing a Redis.
func queueID(prefix string) string { return prefix + "_" + strings.ToLower(rand.Text()) }
