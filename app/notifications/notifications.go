// Package notifications tells account owners what they should know: it stores a notification and, when
// the owner has an e-mail address, sends it by mail through the outbox.
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

// Notifier stores notifications and mails them.
type Notifier struct {
	accounts      ports.Accounts
	notifications ports.Notifications
	outbox        ports.Outbox
	mailer        ports.Mailer
	clock         ports.Clock
}

// New returns a Notifier.
func New(a ports.Accounts, n ports.Notifications, o ports.Outbox, m ports.Mailer, c ports.Clock) *Notifier {
	return &Notifier{accounts: a, notifications: n, outbox: o, mailer: m, clock: c}
}

// Notify stores a notification for the account's owner and queues its e-mail. Call it in the
// transaction of the change it tells of.
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
	if acct.OwnerEmail == "" {
		return nil
	}
	payload, err := json.Marshal(mailJSON{To: acct.OwnerEmail, Subject: title, Text: body})
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return n.outbox.Add(ctx, outbox.Message{ID: "mail_" + note.ID, AccountID: accountID, Topic: outbox.TopicMail, Payload: payload, CreatedAt: now})
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
