// Package inproc carries outbox messages inside one process (the embedded environment): a
// bounded buffer, a fixed set of worker goroutines and timed retries. Nothing survives the
// process; the outbox claims what was never confirmed again.
package inproc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

// Set provides the queue from a ports.Handler, Options and a *zap.Logger.
var Set = wire.NewSet(New, wire.Bind(new(ports.Queue), new(*Queue)))

// Errors of Enqueue.
var (
	ErrFull    = errors.New("inproc queue: full")
	ErrStopped = errors.New("inproc queue: stopped")
)

// Options tune the queue; zero fields take the defaults.
type Options struct {
	// Concurrency is how many messages are handled at once (default 10).
	Concurrency int
	// MaxRetry is how many times a failed message is retried (default 8; negative: never).
	MaxRetry int
	// RetryDelay is the wait before retry n+1 after the handler failed with err, n retries done so
	// far (default 1 s, 2 s, 4 s … capped at 1 min), unless err is a *ports.RetryLater, whose
	// Delay is used instead.
	RetryDelay func(n int, err error) time.Duration
	// Capacity is how many messages the queue holds at once, waiting, running or waiting for a
	// retry (default 1000); past it Enqueue fails with ErrFull.
	Capacity int
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = 10
	}
	switch {
	case o.MaxRetry == 0:
		o.MaxRetry = 8
	case o.MaxRetry < 0:
		o.MaxRetry = 0
	}
	if o.RetryDelay == nil {
		o.RetryDelay = exponentialDelay
	}
	if o.Capacity <= 0 {
		o.Capacity = 1000
	}
	return o
}

// exponentialDelay waits 1 s after the first failure and doubles each time, up to a minute.
func exponentialDelay(n int, _ error) time.Duration {
	if n >= 6 {
		return time.Minute
	}
	return time.Second << max(n, 0)
}

type job struct {
	m       outbox.Message
	retried int
}

// Queue is an in-process ports.Queue that runs its own workers.
type Queue struct {
	h    ports.Handler
	opts Options
	log  *zap.Logger

	// jobs holds the messages ready to run. Every message in it, running or waiting for a retry
	// is in held, once; len(held) ≤ Capacity = cap(jobs), so sending to jobs never blocks.
	jobs chan job
	quit chan struct{}
	wg   sync.WaitGroup

	mu        sync.Mutex
	held      map[string]struct{}
	timers    map[string]*time.Timer
	started   bool
	stopped   bool
	cancelRun context.CancelFunc // cancels the handlers' context
}

// New returns a queue that hands messages to h once started.
func New(h ports.Handler, opts Options, log *zap.Logger) *Queue {
	opts = opts.withDefaults()
	return &Queue{
		h:      h,
		opts:   opts,
		log:    log,
		jobs:   make(chan job, opts.Capacity),
		quit:   make(chan struct{}),
		held:   make(map[string]struct{}),
		timers: make(map[string]*time.Timer),
	}
}

// Start starts the workers. They take work until Stop is called or ctx ends; handlers run with
// ctx's values, and their context is canceled only when Stop gives up waiting.
func (q *Queue) Start(ctx context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started || q.stopped {
		return
	}
	q.started = true
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	q.cancelRun = cancel
	q.wg.Add(q.opts.Concurrency)
	for range q.opts.Concurrency {
		go q.work(ctx, runCtx)
	}
}

// Stop stops taking work, drops pending retries and waiting messages (the outbox claims them
// again) and waits for running handlers until ctx ends, when it cancels their context, waits up
// to outage.CutGrace for them to return, and returns ctx's error.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	if !q.stopped {
		q.stopped = true
		close(q.quit)
		for id, t := range q.timers {
			t.Stop()
			delete(q.timers, id)
			delete(q.held, id)
		}
	}
	cancel := q.cancelRun
	q.mu.Unlock()

	done := make(chan struct{})
	go func() {
		q.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		if cancel != nil {
			cancel()
		}
		// The handlers canceled are given outage.CutGrace to return, so that none is still writing
		// when the program closes the store after Stop.
		t := time.NewTimer(outage.CutGrace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			q.log.Warn("handlers still running after the queue's stop and their cancellation", zap.Duration("waited", outage.CutGrace))
		}
		return fmt.Errorf("stop inproc queue: %w", ctx.Err())
	}
}

// Enqueue adds m unless its id is already waiting, running or waiting for a retry. It never
// blocks: it fails with ErrFull when the queue holds Capacity messages, ErrStopped after Stop.
func (q *Queue) Enqueue(_ context.Context, m outbox.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return ErrStopped
	}
	if _, ok := q.held[m.ID]; ok {
		return nil
	}
	if len(q.held) >= q.opts.Capacity {
		return fmt.Errorf("enqueue message %s: %w (%d messages)", m.ID, ErrFull, q.opts.Capacity)
	}
	q.held[m.ID] = struct{}{}
	q.jobs <- job{m: m}
	return nil
}

// Room returns how many more messages Enqueue takes before Capacity.
func (q *Queue) Room(context.Context) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return max(q.opts.Capacity-len(q.held), 0), nil
}

// Depth returns how many messages wait, run or wait for a retry.
func (q *Queue) Depth(context.Context) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.held), nil
}

func (q *Queue) work(ctx, runCtx context.Context) {
	defer q.wg.Done()
	for {
		select {
		case <-q.quit:
			return
		case <-ctx.Done():
			return
		case j := <-q.jobs:
			select {
			case <-q.quit: // Stop came while both were ready
				q.forget(j.m.ID)
				return
			default:
			}
			q.run(runCtx, j)
		}
	}
}

// run handles j and then forgets it, or sets a timer to make it ready again.
func (q *Queue) run(ctx context.Context, j job) {
	m := j.m
	m.Retry = j.retried
	err := q.handle(ctx, m)
	q.mu.Lock()
	defer q.mu.Unlock()
	if err == nil {
		delete(q.held, j.m.ID)
		return
	}
	fields := []zap.Field{
		zap.String("message_id", j.m.ID),
		zap.String("topic", j.m.Topic),
		zap.Int("attempt", j.retried+1),
		zap.Error(err),
	}
	if q.stopped {
		// Cut short by Stop (or failed while the queue stops): never confirmed, so the outbox
		// claims it again once its lease runs out, in this process restarted or another.
		delete(q.held, j.m.ID)
		q.log.Warn("message failed while the queue stopped; the outbox hands it over again", fields...)
		return
	}
	if j.retried >= q.opts.MaxRetry {
		delete(q.held, j.m.ID)
		q.log.Error("message failed; giving up", fields...)
		return
	}
	q.log.Warn("message failed; will retry", fields...)
	var d time.Duration
	if rl, ok := errors.AsType[*ports.RetryLater](err); ok {
		d = max(rl.Delay, 0)
	} else {
		d = q.opts.RetryDelay(j.retried, err)
	}
	j.retried++
	q.timers[j.m.ID] = time.AfterFunc(d, func() { q.ready(j) })
}

// handle calls the handler, turning a panic into an error.
func (q *Queue) handle(ctx context.Context, m outbox.Message) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("handler panicked: %v", r)
		}
	}()
	return q.h.Handle(ctx, m)
}

// ready puts a message whose retry is due back in line.
func (q *Queue) ready(j job) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.timers, j.m.ID)
	if q.stopped {
		delete(q.held, j.m.ID)
		return
	}
	q.jobs <- j
}

func (q *Queue) forget(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.held, id)
}
