package events

import (
	"context"
	"sync/atomic"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Nudges tells a relay that messages were committed to the outbox, so that it makes a pass now
// rather than at its next tick. Everything in one process that writes to the outbox shares one.
type Nudges chan struct{}

// NewNudges returns a Nudges.
func NewNudges() Nudges { return make(Nudges, 1) }

// Send nudges without waiting: nudges sent before the relay's next pass count as one.
func (n Nudges) Send() {
	select {
	case n <- struct{}{}:
	default:
	}
}

type watchKey struct{}

// Watch returns a context under which writes to a Watched outbox are noticed, and a function
// that reports whether any was made. A request, or a queued message's work, is watched so that
// the relay is nudged after it only when it wrote to the outbox, once its transaction committed.
func Watch(ctx context.Context) (context.Context, func() bool) {
	var wrote atomic.Bool
	return context.WithValue(ctx, watchKey{}, &wrote), wrote.Load
}

// Watched is an outbox whose writes are noticed by Watch.
type Watched struct{ ports.Outbox }

// NewWatched returns o watched.
func NewWatched(o ports.Outbox) *Watched { return &Watched{Outbox: o} }

// Add adds m, and notes the write for the context's watch.
func (o *Watched) Add(ctx context.Context, m outbox.Message) error {
	if err := o.Outbox.Add(ctx, m); err != nil {
		return err
	}
	noticed(ctx)
	return nil
}

// Ensure adds m unless it exists, and notes the write for the context's watch.
func (o *Watched) Ensure(ctx context.Context, m outbox.Message) error {
	if err := o.Outbox.Ensure(ctx, m); err != nil {
		return err
	}
	noticed(ctx)
	return nil
}

func noticed(ctx context.Context) {
	if wrote, ok := ctx.Value(watchKey{}).(*atomic.Bool); ok {
		wrote.Store(true)
	}
}
