package boot

import (
	"github.com/google/wire"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/adapters/webhookhttp"
	"github.com/svcagent/svc/adapters/webpush"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/ports"
)

// OutboxSet provides the outbox every writer uses: the store's, watched so that a request or a
// queued message's work nudges the relay only when it wrote to it.
var OutboxSet = wire.NewSet(WatchedOutbox, wire.Bind(new(ports.Outbox), new(*events.Watched)))

// WatchedOutbox is the store's outbox, watched.
func WatchedOutbox(o *store.Outbox) *events.Watched { return events.NewWatched(o) }

// EventSet provides what handles the outbox's messages in every process that runs them: webhook
// fan-out and delivery, owner notices and their e-mail, and the messaging channel's replies.
var EventSet = wire.NewSet(
	Vault, wire.Bind(new(ports.Vault), new(*vault.AESGCM)),
	Mailer,
	SenderOptions, webhookhttp.Set,
	WebhookOptions, webhooks.New, wire.Struct(new(webhooks.Deps), "*"),
	wire.Bind(new(webhooks.Notifier), new(*notifications.Notifier)),
	notifications.New, wire.Struct(new(notifications.Deps), "*"), NotifierOptions,
	PushKeys, PushOptions, webpush.Set,
	MessagingSet,
	EventHandlers,
)
