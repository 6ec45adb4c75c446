package notifications

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/internal/safehttp"
)

// PublicKey returns the VAPID public key browsers subscribe with (base64url).
func (n *Notifier) PublicKey() string { return n.opts.PublicKey }

// Subscribe keeps a browser's push subscription for the account (PushSubscription.toJSON's
// endpoint and keys): the same endpoint again is the same subscription, with the keys it gives
// now; past push.MaxPerAccount browsers the oldest is replaced. The endpoint must be an https URL
// of a public host, checked as webhook URLs are.
func (n *Notifier) Subscribe(ctx context.Context, accountID, endpoint, p256dh, auth string) (push.Subscription, error) {
	endpoint, p256dh, auth = strings.TrimSpace(endpoint), strings.TrimSpace(p256dh), strings.TrimSpace(auth)
	if err := push.Validate(endpoint, p256dh, auth, n.opts.AllowPrivate); err != nil {
		return push.Subscription{}, err
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return push.Subscription{}, domain.Invalid("endpoint", "endpoint must be an absolute https URL")
	}
	if err := safehttp.CheckTarget(u, n.opts.AllowPrivate); err != nil {
		return push.Subscription{}, domain.Invalid("endpoint", "endpoint must point to a public host: %s", safehttp.Explain(err))
	}
	s := push.Subscription{ID: ident.New("push"), AccountID: accountID, Endpoint: endpoint, P256dh: p256dh, Auth: auth,
		CreatedAt: n.clock.Now().UTC()}
	return n.subscriptions.Save(ctx, s, push.MaxPerAccount)
}

// Devices returns the account's push subscriptions, newest first.
func (n *Notifier) Devices(ctx context.Context, accountID string) ([]push.Subscription, error) {
	return n.subscriptions.List(ctx, accountID)
}

// Unsubscribe deletes one of the account's push subscriptions; not_found when it has none of that
// id.
func (n *Notifier) Unsubscribe(ctx context.Context, accountID, id string) error {
	return n.subscriptions.Delete(ctx, accountID, id)
}

// pushJSON is a queued push: the subscription it goes to (read again when it is sent, so that a
// browser turned off in between gets nothing) and the message.
type pushJSON struct {
	Subscription string       `json:"subscription"`
	Message      push.Message `json:"message"`
}

// queuePushes queues one push of note per subscription of its account.
func (n *Notifier) queuePushes(ctx context.Context, note notification.Notification) error {
	subs, err := n.subscriptions.List(ctx, note.AccountID)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	msg := push.NewMessage(note.Title, note.Body)
	for _, s := range subs {
		payload, err := json.Marshal(pushJSON{Subscription: s.ID, Message: msg})
		if err != nil {
			return fmt.Errorf("notify: %w", err)
		}
		if err := n.outbox.Add(ctx, outbox.Message{ID: "push_" + note.ID + "_" + s.ID, AccountID: note.AccountID, Topic: outbox.TopicPush,
			Payload: payload, CreatedAt: note.CreatedAt}); err != nil {
			return err
		}
	}
	return nil
}

// SendPush sends a queued push (the notify.push topic's handler). A subscription deleted since is
// skipped; one its push service says is gone (404, 410) is deleted; any other failure is
// returned, for the queue to try again.
func (n *Notifier) SendPush(ctx context.Context, m outbox.Message) error {
	var p pushJSON
	if err := json.Unmarshal(m.Payload, &p); err != nil {
		return nil // not a push we can send; retrying will not help
	}
	s, err := n.subscriptions.Get(ctx, m.AccountID, p.Subscription)
	if domain.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	body, err := json.Marshal(p.Message)
	if err != nil {
		return nil // cannot happen for strings; retrying would not help either
	}
	status, err := n.pusher.Send(ctx, s, body)
	switch {
	case err != nil:
		return err
	case push.Gone(status):
		if err := n.subscriptions.Delete(ctx, s.AccountID, s.ID); err != nil && !domain.IsNotFound(err) {
			return err
		}
		return nil
	case push.Delivered(status):
		return nil
	default:
		return fmt.Errorf("push to %s: the push service answered %d", s.Host(), status)
	}
}
