package ports

import (
	"context"
	"fmt"
	"time"

	"github.com/svcagent/svc/domain/outbox"
)

//go:generate go tool mockgen -source=queue.go -destination=mock/queue.go -package=mock

// Queue hands outbox messages to workers. Enqueueing a message whose id is already waiting is not
// an error (the queue keeps one). Workers confirm a message through the outbox when done.
type Queue interface {
	Enqueue(ctx context.Context, m outbox.Message) error
	// Depth returns how many messages wait or are being retried.
	Depth(ctx context.Context) (int, error)
	// Room returns how many more messages Enqueue takes now (math.MaxInt for a queue without a
	// bound), so that the relay claims no message it could not hand over: a claimed message not
	// handed over waits for the claim's lease to end.
	Room(ctx context.Context) (int, error)
}

// Handler does the work of a message taken from the queue. An error makes the queue retry it,
// after the queue's own delay, or after the one a *RetryLater in the error asks for. The queue
// sets m.Retry to the number of failed runs before this one.
type Handler interface {
	Handle(ctx context.Context, m outbox.Message) error
}

// RetryLater is a handler's error that asks for the next run after exactly Delay instead of the
// queue's own schedule (a webhook delivery retries 2 s, then 4 s, after its failures). The
// queue's limit on retries still applies.
type RetryLater struct {
	Delay time.Duration
	Err   error
}

func (e *RetryLater) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("retry in %v", e.Delay)
	}
	return fmt.Sprintf("retry in %v: %v", e.Delay, e.Err)
}

// Unwrap returns the failure that made the handler ask for a retry.
func (e *RetryLater) Unwrap() error { return e.Err }
