package chat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/messaging"
)

// Sweep takes over the replies whose lease ended (the process that accepted them died) and makes
// them. It returns how many it finished.
func (a *Agent) Sweep(ctx context.Context) (int, error) {
	jobs, err := a.jobs.ClaimExpired(ctx, a.clock.Now(), a.opts.Lease, 10)
	if err != nil {
		return 0, fmt.Errorf("sweep: %w", err)
	}
	// The claimed jobs run at once: each must finish within its own lease, which a batch made one
	// after another would outlive.
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		done     int
		firstErr error
	)
	for _, job := range jobs {
		wg.Go(func() {
			gctx, cancel := context.WithTimeout(ctx, a.opts.Generate)
			defer cancel()
			_, err := a.takeOver(gctx, job)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("sweep: reply job %s: %w", job.ID, err)
				}
				return
			}
			done++
		})
	}
	wg.Wait()
	return done, firstErr
}

// takeOver makes the reply of a job the sweep claimed, loading what it needs from the job.
// Nobody waits for it: a failure leaves the job for the next sweep while the job retries.
func (a *Agent) takeOver(ctx context.Context, job conversation.Job) (Reply, error) {
	unattended := func() bool { return true }
	t, err := a.load(ctx, job)
	if err != nil {
		return a.failed(ctx, job, err, unattended)
	}
	return a.generate(ctx, t, unattended)
}

// InboxSweepInterval is how often RunSweep deletes the records of inbound messages stored
// longer than messaging.InboxRetention.
const InboxSweepInterval = 10 * time.Minute

// SweepInbox deletes the records of inbound messages stored longer than
// messaging.InboxRetention, and returns how many.
func (a *Agent) SweepInbox(ctx context.Context) (int, error) {
	n, err := a.inbox.Sweep(ctx, a.clock.Now().Add(-messaging.InboxRetention))
	if err != nil {
		return 0, fmt.Errorf("sweep the inbox: %w", err)
	}
	return n, nil
}

// The causes RunSweep reports its outcomes under.
const (
	SweepReplies = "reply sweep"
	SweepInboxes = "inbox sweep"
)

// RunSweep sweeps every interval until ctx ends, and sweeps the inbox at once and then every
// InboxSweepInterval; report receives the outcome of each sweep (nil when it succeeded) under its
// cause, SweepReplies or SweepInboxes, so that a failure of one is not taken as the other's.
func (a *Agent) RunSweep(ctx context.Context, interval time.Duration, report func(cause string, err error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var inboxSwept time.Time
	for {
		if _, err := a.Sweep(ctx); ctx.Err() == nil {
			report(SweepReplies, err)
		}
		if now := a.clock.Now(); now.Sub(inboxSwept) >= InboxSweepInterval {
			inboxSwept = now
			if _, err := a.SweepInbox(ctx); ctx.Err() == nil {
				report(SweepInboxes, err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
