package chat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/svcagent/svc/domain/conversation"
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

// RunSweep sweeps every interval until ctx ends; onErr receives failures.
func (a *Agent) RunSweep(ctx context.Context, interval time.Duration, onErr func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := a.Sweep(ctx); err != nil && ctx.Err() == nil {
			onErr(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
