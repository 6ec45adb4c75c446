package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/webhook"
)

//go:generate go tool mockgen -source=events.go -destination=mock/events.go -package=mock

// Publisher records an account event, for the account's webhooks, in the outbox. Call it with the
// ctx of the transaction that makes the change, so that the event exists exactly when the change
// does.
type Publisher interface {
	Publish(ctx context.Context, accountID string, t event.Type, data map[string]any) (event.Event, error)
	// Prepare returns the outbox message Publish would write, for a caller that writes it in a
	// statement of its own (Conversations.Exchange). It does not note the write as Publish does:
	// the caller calls Pending once it wrote a message the relay must hand on.
	Prepare(ctx context.Context, accountID string, t event.Type, data map[string]any) (outbox.Message, error)
	// Pending notes, as Publish does its own write, that the caller wrote outbox messages that
	// are not done (Conversations.Exchange's pending), so that the relay is nudged once the
	// caller's request is done. Messages written done need no nudge: the relay never hands them on.
	Pending(ctx context.Context)
}

// Webhooks stores webhooks. Every method is scoped to the account.
type Webhooks interface {
	// Create stores w unless its account already has limit webhooks (created is false then).
	// Creates for one account are serialized, so concurrent ones never pass the limit together.
	Create(ctx context.Context, w webhook.Webhook, limit int) (created bool, err error)
	Get(ctx context.Context, accountID, webhookID string) (webhook.Webhook, error)
	List(ctx context.Context, accountID string) ([]webhook.Webhook, error)
	// Update loads the webhook, lets fn change it and saves it, in one transaction.
	Update(ctx context.Context, accountID, webhookID string, fn func(w *webhook.Webhook) error) (webhook.Webhook, error)
	// Record logs attempt a in the delivery log and accounts for it on its webhook's summary
	// (webhook.Webhook.Record with final: last status, last delivery, failures, active), in one
	// transaction (the caller's when ctx carries one): a reader sees both or neither, and a
	// failure writes neither. It returns the webhook as saved and whether this attempt turned it
	// off; a webhook deleted since is not found, and nothing is written.
	Record(ctx context.Context, accountID string, a webhook.Attempt, final bool) (w webhook.Webhook, deactivated bool, err error)
	Delete(ctx context.Context, accountID, webhookID string) error
}

// Deliveries reads the log of delivery attempts (Webhooks.Record writes it).
type Deliveries interface {
	// List returns the webhook's latest attempts, newest first.
	List(ctx context.Context, accountID, webhookID string, limit int) ([]webhook.Attempt, error)
}

// Conversions stores conversions.
type Conversions interface {
	Create(ctx context.Context, c conversion.Conversion) error
	// List pages through the account's conversions created in [q.From, q.To) (both given), of
	// q.Kind when it is given, newest first (by created_at, then id), after q.After: at most
	// q.Limit of them (at least 1), and whether more follow. It reads no more than the page (and
	// the one after it that says so), through the index (account_id, created_at, id).
	List(ctx context.Context, accountID string, q conversion.Query) (conversion.Page, error)
	// Totals sums the account's conversions created in [from, to), of kind when it is given (""
	// for all), by kind and currency, in conversion.SortTotals' order, with one aggregate query.
	Totals(ctx context.Context, accountID string, from, to time.Time, kind string) ([]conversion.Total, error)
}

// Notifications stores the owner's notifications.
type Notifications interface {
	Create(ctx context.Context, n notification.Notification) error
	// List returns the account's latest notifications, newest first.
	List(ctx context.Context, accountID string, limit int) ([]notification.Notification, error)
}
