package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/messaging"
)

//go:generate go tool mockgen -source=messaging.go -destination=mock/messaging.go -package=mock

// Connections stores the messaging apps connected to each account, one per account and app.
type Connections interface {
	// Save stores c, replacing the account's connection of the same app.
	Save(ctx context.Context, c messaging.Connection) error
	// Get returns the account's connection of app; not_found when none.
	Get(ctx context.Context, accountID string, app messaging.App) (messaging.Connection, error)
	// ByHook returns the connection of app whose webhook URL carries hook (an inbound webhook
	// request: the hook names the account); not_found when none.
	ByHook(ctx context.Context, app messaging.App, hook string) (messaging.Connection, error)
}

// Inbox records the inbound messages of the messaging apps, so that a message delivered twice is
// answered once.
type Inbox interface {
	// Record stores the account's key and reports whether this call did: false when the key was
	// recorded before, atomically even under concurrent calls. Called in the transaction that
	// accepts the message, so that the key exists exactly when the message does.
	// A record made before since is forgotten: recording its key again is fresh, and dates the
	// record at.
	Record(ctx context.Context, accountID, key string, at, since time.Time) (fresh bool, err error)
	// Sweep deletes every account's records made before before, and returns how many.
	Sweep(ctx context.Context, before time.Time) (int, error)
}

// Messenger sends text to a contact through one messaging app. A refusal by the app is a
// *messaging.SendError.
type Messenger interface {
	Send(ctx context.Context, c messaging.Connection, s messaging.Secrets, to, text string) error
}

// BotWebhooks registers the webhook URL of a Telegram bot (setWebhook) with the secret token the
// bot's updates will carry.
type BotWebhooks interface {
	SetWebhook(ctx context.Context, botToken, url, secretToken string) error
}
