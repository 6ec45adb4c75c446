package events

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Relay moves outbox messages to the queue. Each pass claims what was never handed over and what
// was handed over longer than a lease ago without being confirmed (a process died, or the queue
// lost it), so the same loop is the relay and the sweep. Several relays may run at once: a claim
// is exclusive for the lease.
type Relay struct {
	outbox ports.Outbox
	queue  ports.Queue
	clock  ports.Clock
	batch  int
	lease  time.Duration
	nudges Nudges
}

// NewRelay returns a Relay with the outbox lease and batches of 100, which makes a pass when n is
// sent.
func NewRelay(o ports.Outbox, q ports.Queue, c ports.Clock, n Nudges) *Relay {
	return &Relay{outbox: o, queue: q, clock: c, batch: 100, lease: outbox.Lease, nudges: n}
}

// Pass claims one batch, no larger than the queue has room for, and enqueues it. It returns how
// many messages it handed over. A message the queue refused stays claimed and is claimed again
// after the lease; a full queue makes the pass claim nothing (the next pass tries again).
func (r *Relay) Pass(ctx context.Context) (int, error) {
	room, err := r.queue.Room(ctx)
	if err != nil {
		return 0, fmt.Errorf("relay: queue room: %w", err)
	}
	if room <= 0 {
		return 0, nil
	}
	msgs, err := r.outbox.Claim(ctx, r.clock.Now(), r.lease, min(r.batch, room))
	if err != nil {
		return 0, fmt.Errorf("relay: claim: %w", err)
	}
	var errs []error
	sent := 0
	for _, m := range msgs {
		if err := r.queue.Enqueue(ctx, m); err != nil {
			errs = append(errs, fmt.Errorf("relay: enqueue %s: %w", m.ID, err))
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}

// Nudge asks a running relay for a pass now rather than at its next tick (after a commit that
// wrote to the outbox). It never blocks.
func (r *Relay) Nudge() { r.nudges.Send() }

// nudgeGap is the least time between the start of a pass and a pass a nudge asks for: under
// load, when every request nudges, the nudges of that time make one pass (one claim of the store)
// rather than one each, and an event waits at most that much longer.
const nudgeGap = 10 * time.Millisecond

// Run makes passes every interval, and soon when nudged (at most one nudged pass every
// nudgeGap), until ctx ends. A full batch is followed at once by another pass. report receives
// the outcome of each pass: its error, nil when it succeeded (so that the end of an outage can be
// told).
func (r *Relay) Run(ctx context.Context, interval time.Duration, report func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		began := time.Now()
		n, err := r.Pass(ctx)
		if ctx.Err() == nil {
			report(err)
		}
		if n >= r.batch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.nudges:
			if wait := nudgeGap - time.Since(began); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
		}
	}
}
