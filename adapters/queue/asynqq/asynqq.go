// Package asynqq carries outbox messages over asynq on Redis: Queue enqueues them (ports.Queue)
// and Worker runs the asynq server that hands them to a ports.Handler.
package asynqq

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"time"

	"github.com/google/wire"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Task types: a task's type is the topic of the message it carries, one per outbox topic.
const (
	TypeEvent          = outbox.TopicEvent
	TypePing           = outbox.TopicPing
	TypeDelivery       = outbox.TopicDelivery
	TypeMail           = outbox.TopicMail
	TypePush           = outbox.TopicPush
	TypeMessagingReply = outbox.TopicMessagingReply
)

// Set provides the queue and the worker from an asynq.RedisConnOpt, Options, a ports.Handler and
// a *zap.Logger.
var Set = wire.NewSet(
	NewClient,
	NewInspector,
	NewQueue,
	wire.Bind(new(ports.Queue), new(*Queue)),
	NewWorker,
)

// Options tune the queue and the worker; zero fields take the defaults.
type Options struct {
	// Concurrency is how many messages a worker handles at once (default 10).
	Concurrency int
	// MaxRetry is how many times a failed message is retried (default 8; negative: never).
	MaxRetry int
	// RetryDelay is the wait before retry n+1 after the handler failed with err, n retries done so
	// far (default 1 s, 2 s, 4 s … capped at 1 min), unless err is a *ports.RetryLater, whose
	// Delay is used instead. It must not depend on chance: the worker calls it once to schedule a
	// retry and once to time it.
	RetryDelay func(n int, err error) time.Duration
	// ShutdownTimeout is how long Shutdown waits for running handlers; it must exceed the longest
	// task (default 60 s).
	ShutdownTimeout time.Duration
	// Queue names the asynq queue (default "default").
	Queue string
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
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = time.Minute
	}
	if o.Queue == "" {
		o.Queue = "default"
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

// payload is the task payload: the message without its outbox bookkeeping.
type payload struct {
	ID        string    `json:"id"`
	AccountID string    `json:"account_id"`
	Topic     string    `json:"topic"`
	Payload   []byte    `json:"payload"`
	CreatedAt time.Time `json:"created_at"`
}

// NewTask returns the task that carries m: its type is m.Topic and its payload the JSON of m.
func NewTask(m outbox.Message) (*asynq.Task, error) {
	b, err := json.Marshal(payload{
		ID:        m.ID,
		AccountID: m.AccountID,
		Topic:     m.Topic,
		Payload:   m.Payload,
		CreatedAt: m.CreatedAt,
	})
	if err != nil {
		return nil, fmt.Errorf("encode message %s: %w", m.ID, err)
	}
	return asynq.NewTask(m.Topic, b), nil
}

// ParseTask returns the message that t carries.
func ParseTask(t *asynq.Task) (outbox.Message, error) {
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return outbox.Message{}, fmt.Errorf("decode %s task: %w", t.Type(), err)
	}
	if p.ID == "" {
		return outbox.Message{}, fmt.Errorf("decode %s task: no message id", t.Type())
	}
	if p.Topic == "" {
		p.Topic = t.Type()
	}
	return outbox.Message{
		ID:        p.ID,
		AccountID: p.AccountID,
		Topic:     p.Topic,
		Payload:   p.Payload,
		CreatedAt: p.CreatedAt,
	}, nil
}

// Queue enqueues outbox messages as asynq tasks, one task id per message id.
type Queue struct {
	client    *asynq.Client
	inspector *asynq.Inspector
	opts      Options
}

// NewQueue returns a queue that enqueues with client and counts with inspector.
func NewQueue(client *asynq.Client, inspector *asynq.Inspector, opts Options) *Queue {
	return &Queue{client: client, inspector: inspector, opts: opts.withDefaults()}
}

// Enqueue adds m unless a task with its id is already waiting, running or waiting for a retry.
// A task archived after its last retry is replaced, so a message the outbox claims again runs
// again.
func (q *Queue) Enqueue(ctx context.Context, m outbox.Message) error {
	err := q.enqueue(ctx, m)
	if !errors.Is(err, asynq.ErrTaskIDConflict) {
		return err
	}
	info, err := q.inspector.GetTaskInfo(q.opts.Queue, m.ID)
	if err != nil || info.State != asynq.TaskStateArchived {
		return nil // waiting or running (or just done): keep it
	}
	if err := q.inspector.DeleteTask(q.opts.Queue, m.ID); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
		return fmt.Errorf("replace archived message %s: %w", m.ID, err)
	}
	if err := q.enqueue(ctx, m); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return err
	}
	return nil
}

func (q *Queue) enqueue(ctx context.Context, m outbox.Message) error {
	t, err := NewTask(m)
	if err != nil {
		return err
	}
	_, err = q.client.EnqueueContext(ctx, t,
		asynq.TaskID(m.ID),
		asynq.Queue(q.opts.Queue),
		asynq.MaxRetry(q.opts.MaxRetry),
		asynq.Retention(0),
	)
	if err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("enqueue message %s: %w", m.ID, err)
	}
	return err
}

// Room implements ports.Queue: Redis holds whatever is enqueued, so the queue has no bound.
func (q *Queue) Room(context.Context) (int, error) { return math.MaxInt, nil }

// Depth returns how many messages are pending, scheduled, waiting for a retry or running. A queue
// asynq does not know (nothing was enqueued since Redis started empty) holds none.
func (q *Queue) Depth(context.Context) (int, error) {
	info, err := q.inspector.GetQueueInfo(q.opts.Queue)
	if err != nil {
		// GetQueueInfo's error for an unknown queue does not wrap asynq.ErrQueueNotFound (as the
		// inspector's other methods do): look at the list of queues.
		if known, lerr := q.known(); lerr == nil && !known {
			return 0, nil
		}
		return 0, fmt.Errorf("queue %s depth: %w", q.opts.Queue, err)
	}
	return info.Pending + info.Scheduled + info.Retry + info.Active, nil
}

// known reports whether asynq lists the queue.
func (q *Queue) known() (bool, error) {
	names, err := q.inspector.Queues()
	if err != nil {
		return false, err
	}
	return slices.Contains(names, q.opts.Queue), nil
}

// NewClient returns an asynq client on r and a cleanup that closes it.
func NewClient(r asynq.RedisConnOpt) (*asynq.Client, func()) {
	c := asynq.NewClient(r)
	return c, func() { _ = c.Close() }
}

// NewInspector returns an asynq inspector on r and a cleanup that closes it.
func NewInspector(r asynq.RedisConnOpt) (*asynq.Inspector, func()) {
	i := asynq.NewInspector(r)
	return i, func() { _ = i.Close() }
}

// RedisOpt parses a redis:// or rediss:// URL (user, password, database, TLS and go-redis
// query options such as dial_timeout) into asynq connection options.
func RedisOpt(rawURL string) (asynq.RedisConnOpt, error) {
	o, err := redis.ParseURL(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("parse redis url: %w", err)
	}
	return asynq.RedisClientOpt{
		Network:      o.Network,
		Addr:         o.Addr,
		Username:     o.Username,
		Password:     o.Password,
		DB:           o.DB,
		DialTimeout:  o.DialTimeout,
		ReadTimeout:  o.ReadTimeout,
		WriteTimeout: o.WriteTimeout,
		PoolSize:     o.PoolSize,
		TLSConfig:    o.TLSConfig,
	}, nil
}
