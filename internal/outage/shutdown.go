package outage

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/svcagent/svc/domain"
)

// ShuttingDown is the cause with which a program cancels the requests still running when its
// drain at shutdown runs out (context.WithCancelCause): they end as a dependency that is away
// does, 503 service_unavailable with Retry-After (another instance, or this one restarted,
// answers a retry), never as a 500 internal error.
var ShuttingDown = &domain.Error{Code: domain.CodeServiceUnavailable,
	Message: "the service is restarting; try again shortly", RetryAfter: time.Second}

// Cut returns ShuttingDown when ctx was cancelled by it (see ShuttingDown) and err carries no
// code of its own, or only internal (a canceled context, a query cut short), and err otherwise:
// what a request cut short by the shutdown answers.
func Cut(ctx context.Context, err error) error {
	if err == nil || !errors.Is(context.Cause(ctx), ShuttingDown) {
		return err
	}
	if code := domain.ErrorCode(err); code != "" && code != domain.CodeInternal {
		return err
	}
	return ShuttingDown
}

// CutGrace bounds a shutdown's wait, after it cancelled the work still running (requests, a
// queue's handlers), for that work to return: a piece cut short returns in about a round trip to
// the store, and none should still be writing when the program closes it.
const CutGrace = 5 * time.Second

// Stopping reports whether ctx was cancelled by ShuttingDown.
func Stopping(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ShuttingDown) }

// Running counts the work in progress (requests, tasks) that a shutdown waits for once it has
// cancelled it, so that none is still writing when the store closes.
type Running struct{ n atomic.Int64 }

// Add adds delta (1 when a piece of work starts, -1 when it ends).
func (r *Running) Add(delta int64) { r.n.Add(delta) }

// Count is the work in progress.
func (r *Running) Count() int64 { return r.n.Load() }

// Wait waits until no work is in progress, for at most d; it reports whether none is.
func (r *Running) Wait(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for r.n.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
