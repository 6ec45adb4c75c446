package ports

import (
	"context"

	"github.com/svcagent/svc/domain/push"
)

//go:generate go tool mockgen -source=push.go -destination=mock/push.go -package=mock

// PushSubscriptions stores the owner's Web Push subscriptions. Every method is scoped to the
// account.
type PushSubscriptions interface {
	// Save stores s, or, when the account has a subscription of the same endpoint already, gives
	// it s's keys and created_at (one subscription per endpoint, whatever the races); then, when
	// the account has more than limit, it deletes the oldest. All in one transaction. It returns
	// the stored subscription (the existing id when the endpoint was known).
	Save(ctx context.Context, s push.Subscription, limit int) (push.Subscription, error)
	Get(ctx context.Context, accountID, id string) (push.Subscription, error)
	// List returns the account's subscriptions, newest first.
	List(ctx context.Context, accountID string) ([]push.Subscription, error)
	// Delete removes one subscription; not_found when the account has none of that id.
	Delete(ctx context.Context, accountID, id string) error
}

// PushSender sends one encrypted Web Push message to a subscription and returns the push
// service's status code; an error when no answer came.
type PushSender interface {
	Send(ctx context.Context, s push.Subscription, payload []byte) (status int, err error)
}
