package asynqq

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

const (
	// An idle worker looks for work this often.
	taskCheckInterval = 100 * time.Millisecond
	// Due retries move to the pending list this often.
	delayedTaskCheckInterval = 200 * time.Millisecond
	// asynq keeps retry times in whole seconds, so a retry may become pending up to a second early
	// (never late, thanks to this lead over the check intervals); the worker then waits for the
	// exact time, which it keeps in Redis under dueKeyPrefix.
	retryLead    = 2 * (taskCheckInterval + delayedTaskCheckInterval)
	maxDueWait   = time.Second + retryLead
	dueKeyPrefix = "svc:asynqq:due:"
)

// Worker runs an asynq server that hands every task of its queue to one ports.Handler.
type Worker struct {
	srv     *asynq.Server
	rdb     redis.UniversalClient
	h       ports.Handler
	opts    Options
	log     *zap.Logger
	outages *outage.Log

	stopWatch context.CancelFunc // ends watch
	watched   chan struct{}      // closed when watch returned
	stopping  atomic.Bool        // Shutdown began
	running   outage.Running     // handlers running
	cut       atomic.Bool        // a handler's context was canceled by Shutdown
}

// NewWorker returns a worker on r that handles every message of opts.Queue with h. Like
// asynq.NewServer, it panics when r makes no Redis client (a RedisConnOpt of asynq's own types
// always does).
func NewWorker(r asynq.RedisConnOpt, h ports.Handler, opts Options, log *zap.Logger) *Worker {
	opts = opts.withDefaults()
	rdb, ok := r.MakeRedisClient().(redis.UniversalClient)
	if !ok {
		panic(fmt.Sprintf("asynqq: unsupported RedisConnOpt %T", r))
	}
	w := &Worker{rdb: rdb, h: h, opts: opts, log: log, outages: outage.New(log, outage.System, outage.Reminder)}
	seen := &unreachable{}
	rdb.AddHook(seen)
	alog := newAsynqLog(log.Named("asynq"), w.outages, seen)
	w.srv = asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency:              opts.Concurrency,
		Queues:                   map[string]int{opts.Queue: 1},
		TaskCheckInterval:        taskCheckInterval,
		DelayedTaskCheckInterval: delayedTaskCheckInterval,
		RetryDelayFunc:           w.retryDelay,
		ShutdownTimeout:          opts.ShutdownTimeout,
		ErrorHandler:             asynq.ErrorHandlerFunc(w.logError),
		Logger:                   alog,
		LogLevel:                 alog.level(),
	})
	return w
}

// startCheckTimeout bounds the check of Redis at Start.
const startCheckTimeout = 10 * time.Second

// Start checks that Redis answers and starts handling tasks; it returns at once. A Redis that
// cannot be reached at start fails it (the worker would take nothing and only log the failures of
// its polls), so that a wrong or unreachable SVC_REDIS_URL stops the program with one message.
func (w *Worker) Start(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, startCheckTimeout)
	defer cancel()
	if err := w.rdb.Ping(pctx).Err(); err != nil {
		return fmt.Errorf("redis cannot be reached: %w", err)
	}
	if err := w.srv.Start(asynq.HandlerFunc(w.process)); err != nil {
		return fmt.Errorf("start asynq worker: %w", err)
	}
	wctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	w.stopWatch, w.watched = stop, make(chan struct{})
	go w.watch(wctx)
	return nil
}

const (
	// watchInterval is how often the worker checks Redis, to log when it is back after an outage.
	watchInterval = time.Second
	// watchTimeout bounds a check: longer than go-redis's dials of a refused connection take, so
	// that the error logged says what failed rather than that the check ran out of time.
	watchTimeout = 3 * time.Second
)

// watch pings Redis every watchInterval until ctx ends, reporting each outcome to the outage log
// that asynq's failed polls also go to: an outage of Redis is logged when it starts, at most once
// a minute while it lasts, and when Redis answers again.
func (w *Worker) watch(ctx context.Context) {
	defer close(w.watched)
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, watchTimeout)
		err := w.rdb.Ping(pctx).Err()
		cancel()
		if ctx.Err() == nil {
			w.outages.Report(redisCause, err)
		}
	}
}

// ErrCutShort is returned by Shutdown when tasks were still running at ShutdownTimeout: their
// contexts were canceled and they go back to the queue.
var ErrCutShort = errors.New("tasks cut short by the shutdown timeout")

// Shutdown stops taking tasks, waits up to ShutdownTimeout for running handlers (tasks still
// running then go back to the queue, their contexts canceled) and closes the Redis connection. It
// returns an error wrapping ErrCutShort when tasks were cut short, nil after a clean drain.
func (w *Worker) Shutdown() error {
	w.stopping.Store(true)
	if w.stopWatch != nil {
		w.stopWatch()
		<-w.watched
	}
	w.srv.Shutdown()
	// asynq stops waiting at the timeout without waiting for the handlers it canceled (it has
	// put their tasks back in the queue): one that has not returned yet was cut short too. They
	// are given outage.CutGrace to return, so that none is still writing when the program closes the
	// store after Shutdown (a write it finished would otherwise fail on a closed database).
	// running is read first: a handler counts itself cut before it stops counting as running.
	cut := w.running.Count() > 0
	if cut && !w.running.Wait(outage.CutGrace) {
		w.log.Warn("tasks still running after the shutdown timeout and their cancellation",
			zap.Int64("tasks", w.running.Count()), zap.Duration("waited", outage.CutGrace))
	}
	cut = w.cut.Load() || cut
	if err := w.rdb.Close(); err != nil {
		w.log.Warn("close redis", zap.Error(err))
	}
	if cut {
		return fmt.Errorf("%w (after %s; they go back to the queue)", ErrCutShort, w.opts.ShutdownTimeout)
	}
	return nil
}

// process decodes a task, waits for the exact time of a retry and calls the handler. On failure
// it keeps the time of the next attempt, and hands the delay to retryDelay in the error.
func (w *Worker) process(ctx context.Context, t *asynq.Task) error {
	w.running.Add(1)
	defer func() {
		// Shutdown cancels the contexts of the handlers still running at its timeout (a task's
		// own deadline ends it with DeadlineExceeded instead).
		if w.stopping.Load() && errors.Is(ctx.Err(), context.Canceled) {
			w.cut.Store(true)
		}
		w.running.Add(-1)
	}()
	m, err := ParseTask(t)
	if err != nil {
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	id, _ := asynq.GetTaskID(ctx)
	n, _ := asynq.GetRetryCount(ctx)
	if n > 0 {
		if err := w.waitDue(ctx, id); err != nil {
			return err
		}
	}
	m.Retry = n
	err = w.h.Handle(ctx, m)
	if err == nil {
		return nil
	}
	if maxRetry, _ := asynq.GetMaxRetry(ctx); n >= maxRetry {
		return err
	}
	d := w.nextDelay(n, err)
	due := time.Now().Add(d)
	if serr := w.rdb.Set(ctx, w.dueKey(id), due.UnixNano(), d+time.Minute).Err(); serr != nil {
		w.log.Warn("keep retry time", zap.String("message_id", id), zap.Error(serr))
	}
	return &retryError{err: err, delay: d}
}

// nextDelay is the wait before the next run after the handler failed with err, n retries done:
// the delay of a *ports.RetryLater in err, else the configured schedule.
func (w *Worker) nextDelay(n int, err error) time.Duration {
	if rl, ok := errors.AsType[*ports.RetryLater](err); ok {
		return max(rl.Delay, 0)
	}
	return w.opts.RetryDelay(n, err)
}

// waitDue sleeps until the time kept for the task's retry, if it is still ahead.
func (w *Worker) waitDue(ctx context.Context, id string) error {
	v, err := w.rdb.Get(ctx, w.dueKey(id)).Result()
	if err != nil {
		return nil // none kept (or Redis hiccup): run now
	}
	ns, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	wait := min(time.Until(time.Unix(0, ns)), maxDueWait)
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *Worker) dueKey(id string) string { return dueKeyPrefix + w.opts.Queue + ":" + id }

// retryDelay schedules the next attempt retryLead early; process waits for the exact time.
func (w *Worker) retryDelay(n int, err error, _ *asynq.Task) time.Duration {
	var rerr *retryError
	if errors.As(err, &rerr) {
		return max(rerr.delay-retryLead, 0)
	}
	return w.nextDelay(n, err)
}

// logError logs a failed attempt, never the payload.
func (w *Worker) logError(ctx context.Context, t *asynq.Task, err error) {
	id, _ := asynq.GetTaskID(ctx)
	n, _ := asynq.GetRetryCount(ctx)
	maxRetry, _ := asynq.GetMaxRetry(ctx)
	fields := []zap.Field{
		zap.String("message_id", id),
		zap.String("topic", t.Type()),
		zap.Int("attempt", n+1),
		zap.Error(err),
	}
	if n >= maxRetry || errors.Is(err, asynq.SkipRetry) {
		w.log.Error("message failed; giving up", fields...)
		return
	}
	w.log.Warn("message failed; will retry", fields...)
}

// retryError carries the delay process chose for the next attempt to retryDelay.
type retryError struct {
	err   error
	delay time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }

func (e *retryError) Unwrap() error { return e.err }
