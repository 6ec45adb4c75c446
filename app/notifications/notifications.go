// Package notifications tells account owners what they should know: it stores a notification and,
// through the outbox, sends it by mail when the owner has an e-mail address and by Web Push to
// every browser the owner asked to be alerted on (push.go).
package notifications

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Deps are the ports a Notifier uses.
type Deps struct {
	Accounts      ports.Accounts
	Notifications ports.Notifications
	Outbox        ports.Outbox
	Mailer        ports.Mailer
	Clock         ports.Clock
	Subscriptions ports.PushSubscriptions
	Pusher        ports.PushSender
}

// Options are the Notifier's settings.
type Options struct {
	// PublicKey is the service's VAPID public key (base64url), the applicationServerKey browsers
	// subscribe with.
	PublicKey string
	// AllowPrivate lets push endpoints be loopback addresses over http, for local tests
	// (SVC_ALLOW_PRIVATE_TARGETS).
	AllowPrivate bool
}

// Notifier stores notifications, mails them and pushes them.
type Notifier struct {
	accounts      ports.Accounts
	notifications ports.Notifications
	outbox        ports.Outbox
	mailer        ports.Mailer
	clock         ports.Clock
	subscriptions ports.PushSubscriptions
	pusher        ports.PushSender
	opts          Options
}

// New returns a Notifier.
func New(d Deps, opts Options) *Notifier {
	return &Notifier{accounts: d.Accounts, notifications: d.Notifications, outbox: d.Outbox, mailer: d.Mailer, clock: d.Clock,
		subscriptions: d.Subscriptions, pusher: d.Pusher, opts: opts}
}

// Notify stores a notification for the account's owner and queues its e-mail and one push per
// browser the owner subscribed. Call it in the transaction of the change it tells of.
func (n *Notifier) Notify(ctx context.Context, accountID, kind, title, body string) error {
	acct, err := n.accounts.Get(ctx, accountID)
	if err != nil {
		return err
	}
	now := n.clock.Now().UTC()
	note := notification.Notification{ID: ident.New("ntf"), AccountID: accountID, Kind: kind, Title: title, Body: body, CreatedAt: now}
	if err := n.notifications.Create(ctx, note); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	if acct.OwnerEmail != "" {
		payload, err := json.Marshal(mailJSON{To: acct.OwnerEmail, Subject: title, Text: body})
		if err != nil {
			return fmt.Errorf("notify: %w", err)
		}
		if err := n.outbox.Add(ctx, outbox.Message{ID: "mail_" + note.ID, AccountID: accountID, Topic: outbox.TopicMail,
			Payload: payload, CreatedAt: now}); err != nil {
			return err
		}
	}
	return n.queuePushes(ctx, note)
}

// List returns the account's latest notifications.
func (n *Notifier) List(ctx context.Context, accountID string, limit int) ([]notification.Notification, error) {
	return n.notifications.List(ctx, accountID, limit)
}

type mailJSON struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	Text    string `json:"text"`
}

// SendMail sends a queued e-mail (the notify.mail topic's handler).
func (n *Notifier) SendMail(ctx context.Context, m outbox.Message) error {
	var mail mailJSON
	if err := json.Unmarshal(m.Payload, &mail); err != nil {
		return nil // not a mail we can send; retrying will not help
	}
	return n.mailer.Send(ctx, notification.Mail(mail))
}
