package asynqq

import (
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/internal/outage"
)

type stoppedClock struct{ now time.Time }

func (c stoppedClock) Now() time.Time { return c.now }

// TestAsynqLog: asynq's failed polls of a Redis that cannot be reached (4 a second while it is
// down) make one warning, without a stack trace; its other warnings and errors are logged as they
// come, also without one; asynq's level follows the logger's.
func TestAsynqLog(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	l := newAsynqLog(zap.New(core), outage.New(zap.New(core), stoppedClock{time.Now()}, outage.Reminder))
	for range 20 {
		l.Error("Failed to write server state data: UNKNOWN: redis command error: SADD failed: dial tcp 127.0.0.1:6391: connect: connection refused")
		l.Error("Dequeue error: UNKNOWN: redis eval error: dial tcp 127.0.0.1:6391: connect: connection refused")
		l.Warn("Failed to forward scheduled tasks: INTERNAL_ERROR: EOF")
	}
	l.Warn("Quitting worker. task id=abc")
	l.Debug("dropped at info")
	l.Info("Starting processing")
	var msgs []string
	for _, e := range logs.All() {
		msgs = append(msgs, e.Level.String()+" "+e.Message)
		if e.Stack != "" {
			t.Errorf("%q carries a stack trace", e.Message)
		}
	}
	want := []string{"warn redis: failing", "warn Quitting worker. task id=abc", "info Starting processing"}
	if len(msgs) != len(want) {
		t.Fatalf("lines %q, want %q", msgs, want)
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("line %d %q, want %q", i, msgs[i], want[i])
		}
	}
	if lv := l.level(); lv != asynq.InfoLevel {
		t.Errorf("asynq's level %v, want info", lv)
	}
}
