package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/ports"
)

// FanOut handles an event message: one delivery message per active webhook that wants the event,
// written together (a rerun writes none twice; no transaction when there is nothing to write),
// and a notice to the owner for limit.reached.
func (m *Manager) FanOut(ctx context.Context, msg outbox.Message) error {
	var env envelope
	if err := json.Unmarshal(msg.Payload, &env); err != nil {
		return nil // not an event envelope: nothing can deliver it
	}
	hooks, err := m.webhooks.List(ctx, msg.AccountID)
	if err != nil {
		return err
	}
	wanted := slices.DeleteFunc(hooks, func(w webhook.Webhook) bool { return !w.Active || !w.Wants(string(env.Type)) })
	if len(wanted) == 0 && event.HooksOnly(env.Type) {
		return nil // nothing to write: no transaction
	}
	return m.tx.InTx(ctx, func(ctx context.Context) error {
		for _, w := range wanted {
			payload, err := json.Marshal(delivery{WebhookID: w.ID, EventID: msg.ID})
			if err != nil {
				return err
			}
			if err := m.outbox.Ensure(ctx, outbox.Message{ID: "dlv_" + msg.ID + "_" + w.ID, AccountID: msg.AccountID,
				Topic: outbox.TopicDelivery, Payload: payload, CreatedAt: m.clock.Now().UTC()}); err != nil {
				return err
			}
		}
		if env.Type == event.LimitReached {
			return m.notifier.Notify(ctx, msg.AccountID, notification.KindLimitReached, "Interaction limit reached",
				fmt.Sprintf("Your %v plan's interactions for this period are used up: the agent stops replying on the web channels until the next period or an upgrade.", env.Data["plan"]))
		}
		return nil
	})
}

// errNotDue is the first run of a test's retries, before the next attempt is due.
var errNotDue = errors.New("the test's next attempt is not due yet")

// Deliver handles a delivery message: one attempt; a failure before the last attempt asks the
// queue to run it again after the retry delay. The last attempt's outcome counts in the
// webhook's failures, and the 20th consecutive failed delivery turns it off and tells the owner.
func (m *Manager) Deliver(ctx context.Context, msg outbox.Message) error {
	var d delivery
	if err := json.Unmarshal(msg.Payload, &d); err != nil {
		return nil
	}
	w, err := m.webhooks.Get(ctx, msg.AccountID, d.WebhookID)
	if domain.IsNotFound(err) {
		return nil // deleted since
	}
	if err != nil {
		return err
	}
	if !w.Active && !d.Manual {
		return nil
	}
	number := msg.Retry + 1
	body := []byte(d.Event)
	if d.Next > 0 {
		// A test's retries: the first run waits until the next attempt is due; the runs after it
		// are attempts d.Next, d.Next+1 ….
		if msg.Retry == 0 {
			return &ports.RetryLater{Delay: max(d.Due.Sub(m.clock.Now()), time.Millisecond), Err: errNotDue}
		}
		number = d.Next + msg.Retry - 1
	} else {
		ev, err := m.outbox.Get(ctx, d.EventID)
		if domain.IsNotFound(err) || (err == nil && ev.AccountID != msg.AccountID) {
			return nil
		}
		if err != nil {
			return err
		}
		body = ev.Payload
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.ID != d.EventID {
		return nil
	}
	a, err := m.attempt(ctx, w, d.EventID, env.Type, body, number)
	if err != nil {
		return err
	}
	final := a.OK() || number >= webhook.MaxAttempts
	// The attempt's log row, the webhook's summary and, when this attempt turned it off, the
	// owner's notice are written in one transaction: none is seen or kept without the others.
	err = m.tx.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
		updated, deactivated, err := m.webhooks.Record(ctx, w.AccountID, a, final)
		if err != nil || !deactivated {
			return err
		}
		return m.notifier.Notify(ctx, w.AccountID, notification.KindWebhookDeactivated, "A webhook was turned off",
			fmt.Sprintf("The webhook %s (%s) failed %d deliveries in a row and was turned off. Fix the receiver, then turn it on again with PATCH /v1/webhooks/%s {\"active\": true}.", w.ID, w.URL, updated.Failures, w.ID))
	})
	if err != nil && !domain.IsNotFound(err) {
		return err
	}
	if !final {
		return &ports.RetryLater{Delay: retryAfter(number), Err: errors.New("delivery failed: " + a.Error)}
	}
	return nil
}
