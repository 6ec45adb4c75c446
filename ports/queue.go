package ports

import (
	"context"

	"github.com/svcagent/svc/domain/outbox"
)

//go:generate go tool mockgen -source=queue.go -destination=mock/queue.go -package=mock

// Queue hands outbox messages to workers. Enqueueing a message whose id is already waiting is not
// an error (the queue keeps one). Workers confirm a message through the outbox when done.
type Queue interface {
	Enqueue(ctx context.Context, m outbox.Message) error
	// Depth returns how many messages wait or are being retried.
	Depth(ctx context.Context) (int, error)
}

// Handler does the work of a message taken from the queue. An error makes the queue retry it.
type Handler interface {
	Handle(ctx context.Context, m outbox.Message) error
}
