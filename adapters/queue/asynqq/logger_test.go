package asynqq

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/internal/outage"
)

type stoppedClock struct{ now time.Time }

func (c stoppedClock) Now() time.Time { return c.now }

// TestAsynqLog: asynq's failed polls of a Redis that cannot be reached (4 a second while it is
// down) make one warning, without a stack trace; its other warnings and errors are logged as they
// come, also without one, even one with the same words about another address (a task's own
// failure is not an outage of Redis); asynq's level follows the logger's.
func TestAsynqLog(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	seen := &unreachable{}
	l := newAsynqLog(zap.New(core), outage.New(zap.New(core), stoppedClock{time.Now()}, outage.Reminder), seen)
	// What the worker's Redis client met, as its hook sees it.
	seen.note(&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 6391},
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}})
	seen.note(io.EOF)
	seen.note(redis.Nil)
	l.Error("Failed to handle task: webhook: dial tcp 10.0.0.9:443: connect: connection refused")
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
	want := []string{"error Failed to handle task: webhook: dial tcp 10.0.0.9:443: connect: connection refused",
		"warn redis: failing", "warn Quitting worker. task id=abc", "info Starting processing"}
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

// TestUnreachableErr: the errors of the Redis client that say Redis cannot be reached are told by
// their types, not their words.
func TestUnreachableErr(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"dial refused", refused, true},
		{"dial refused, wrapped", fmt.Errorf("redis eval error: %w", refused), true},
		{"name not resolved", &net.DNSError{Err: "no such host", Name: "redis.internal", IsNotFound: true}, true},
		{"connection ended", io.EOF, true},
		{"closed client", redis.ErrClosed, true},
		{"pool full", redis.ErrPoolTimeout, true},
		{"out of time", context.DeadlineExceeded, true},
		{"no value", redis.Nil, false},
		{"canceled", context.Canceled, false},
		{"the words alone", errors.New("connection refused"), false},
	}
	for _, tt := range tests {
		if got := unreachableErr(tt.err); got != tt.want {
			t.Errorf("%s: unreachableErr(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}
