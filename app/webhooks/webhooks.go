// Package webhooks manages an account's webhooks and delivers its events to them: one signed
// POST per matching webhook, retried 2 s and 4 s after failures, with the failure accounting that
// turns a dead receiver off.
package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	neturl "net/url"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

// Notifier tells the owner.
type Notifier interface {
	Notify(ctx context.Context, accountID, kind, title, body string) error
}

// Options tune the webhooks.
type Options struct {
	// AllowPrivate lets webhook URLs point at loopback addresses over http (local tests).
	AllowPrivate bool
}

// Manager runs the webhook use cases.
type Manager struct {
	tx         ports.Tx
	webhooks   ports.Webhooks
	deliveries ports.Deliveries
	outbox     ports.Outbox
	vault      ports.Vault
	sender     ports.WebhookSender
	notifier   Notifier
	clock      ports.Clock
	opts       Options
}

// Deps are the Manager's collaborators.
type Deps struct {
	Tx         ports.Tx
	Webhooks   ports.Webhooks
	Deliveries ports.Deliveries
	Outbox     ports.Outbox
	Vault      ports.Vault
	Sender     ports.WebhookSender
	Notifier   Notifier
	Clock      ports.Clock
}

// New returns a Manager.
func New(d Deps, opts Options) *Manager {
	return &Manager{tx: d.Tx, webhooks: d.Webhooks, deliveries: d.Deliveries, outbox: d.Outbox, vault: d.Vault,
		sender: d.Sender, notifier: d.Notifier, clock: d.Clock, opts: opts}
}

// Created is a new webhook with its signing secret, shown only this once.
type Created struct {
	Webhook webhook.Webhook
	Secret  string
}

// Create adds a webhook to the account (at most webhook.MaxPerAccount).
func (m *Manager) Create(ctx context.Context, accountID, url string, events []string) (Created, error) {
	if err := m.checkURL(url); err != nil {
		return Created{}, err
	}
	evs, err := webhook.ValidateEvents(events)
	if err != nil {
		return Created{}, err
	}
	random := make([]byte, webhook.SecretBytes)
	if _, err := rand.Read(random); err != nil {
		return Created{}, fmt.Errorf("webhook secret: %w", err)
	}
	secret := webhook.NewSecret(random)
	sealed, err := m.vault.Seal(secret)
	if err != nil {
		return Created{}, fmt.Errorf("seal webhook secret: %w", err)
	}
	now := m.clock.Now().UTC()
	w := webhook.Webhook{ID: ident.New("wh"), AccountID: accountID, URL: url, Events: evs, Active: true, SealedSecret: sealed,
		CreatedAt: now, UpdatedAt: now}
	created, err := m.webhooks.Create(ctx, w, webhook.MaxPerAccount)
	if err != nil {
		return Created{}, err
	}
	if !created {
		return Created{}, domain.Invalid("url", "an account may have at most %d webhooks; delete one first", webhook.MaxPerAccount)
	}
	return Created{Webhook: w, Secret: secret}, nil
}

// checkURL checks a receiver URL: the domain's rules, then its host read as a browser reads it
// (full-width digits, 2130706433, 0x7f.1, 127.1, a trailing dot …), which must be a public
// address or a public name (not localhost, not a single label). The delivery guard still checks
// the addresses a name resolves to.
func (m *Manager) checkURL(raw string) error {
	if err := webhook.ValidateURL(raw, m.opts.AllowPrivate); err != nil {
		return err
	}
	u, err := neturl.Parse(raw)
	if err != nil {
		return domain.Invalid("url", "url must be an absolute https URL")
	}
	if err := safehttp.CheckTarget(u, m.opts.AllowPrivate); err != nil {
		return domain.Invalid("url", "url must point to a public host: %s", safehttp.Explain(err))
	}
	return nil
}

// List returns the account's webhooks.
func (m *Manager) List(ctx context.Context, accountID string) ([]webhook.Webhook, error) {
	return m.webhooks.List(ctx, accountID)
}

// Get returns one webhook.
func (m *Manager) Get(ctx context.Context, accountID, id string) (webhook.Webhook, error) {
	return m.webhooks.Get(ctx, accountID, id)
}

// Patch changes a webhook; nil fields stay. Turning a webhook on again clears its failures.
type Patch struct {
	URL    *string
	Events *[]string
	Active *bool
}

// Update applies a patch.
func (m *Manager) Update(ctx context.Context, accountID, id string, p Patch) (webhook.Webhook, error) {
	if p.URL != nil {
		if err := m.checkURL(*p.URL); err != nil {
			return webhook.Webhook{}, err
		}
	}
	var events []string
	if p.Events != nil {
		var err error
		if events, err = webhook.ValidateEvents(*p.Events); err != nil {
			return webhook.Webhook{}, err
		}
	}
	return m.webhooks.Update(ctx, accountID, id, func(w *webhook.Webhook) error {
		if p.URL != nil {
			w.URL = *p.URL
		}
		if p.Events != nil {
			w.Events = events
		}
		if p.Active != nil {
			if *p.Active && !w.Active {
				w.Failures = 0
			}
			w.Active = *p.Active
		}
		w.UpdatedAt = m.clock.Now().UTC()
		return nil
	})
}

// Delete removes a webhook; its pending deliveries are dropped when they run.
func (m *Manager) Delete(ctx context.Context, accountID, id string) error {
	return m.webhooks.Delete(ctx, accountID, id)
}

// TestResult is the outcome of a test delivery.
type TestResult struct {
	EventID string
	Attempt webhook.Attempt
}

// Test sends a webhook.test event to the webhook at once and returns what the receiver answered
// to that first attempt. The test is a delivery like any other (spec part 6): when the first
// attempt fails, the two retries follow 2 s and 4 s later through the queue (a delivery message
// that carries the event, since a test event is not fanned out to the account's other webhooks),
// and the outcome counts in the webhook's failures; a delivered test resets them.
func (m *Manager) Test(ctx context.Context, accountID, id string) (TestResult, error) {
	w, err := m.webhooks.Get(ctx, accountID, id)
	if err != nil {
		return TestResult{}, err
	}
	now := m.clock.Now().UTC()
	e := event.Event{ID: ident.New("evt"), AccountID: accountID, Type: event.WebhookTest, CreatedAt: now,
		Data: map[string]any{"webhook_id": w.ID, "message": "This is a test event from svc."}}
	body, err := json.Marshal(envelope{ID: e.ID, Type: e.Type, CreatedAt: event.Stamp(now), Data: e.Data})
	if err != nil {
		return TestResult{}, err
	}
	a, err := m.attempt(ctx, w, e.ID, e.Type, body, 1)
	if err != nil {
		return TestResult{}, err
	}
	var retries []byte
	if !a.OK() {
		// The wait runs from the failure, not from the start of the attempt: a receiver that
		// timed out (10 s) still gets its 2 s before the next attempt, as every delivery does.
		retries, err = json.Marshal(delivery{WebhookID: w.ID, EventID: e.ID, Manual: true, Event: body, Next: 2,
			Due: m.clock.Now().UTC().Add(retryAfter(1))})
		if err != nil {
			return TestResult{}, err
		}
	}
	err = m.tx.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
		// A failed first attempt is not final: its retries follow.
		if _, _, err := m.webhooks.Record(ctx, accountID, a, false); err != nil {
			return err
		}
		if retries == nil {
			return nil
		}
		return m.outbox.Add(ctx, outbox.Message{ID: "dlv_" + e.ID + "_" + w.ID, AccountID: accountID,
			Topic: outbox.TopicDelivery, Payload: retries, CreatedAt: now})
	})
	if err != nil {
		return TestResult{}, err
	}
	return TestResult{EventID: e.ID, Attempt: a}, nil
}

// Deliveries lists the webhook's latest attempts.
func (m *Manager) Deliveries(ctx context.Context, accountID, id string, limit int) ([]webhook.Attempt, error) {
	if _, err := m.webhooks.Get(ctx, accountID, id); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > 100 {
		limit = 50
	}
	return m.deliveries.List(ctx, accountID, id, limit)
}

// Redeliver sends an event of the account to the webhook again, with the same SVC-Delivery id.
func (m *Manager) Redeliver(ctx context.Context, accountID, id, eventID string) error {
	if _, err := m.webhooks.Get(ctx, accountID, id); err != nil {
		return err
	}
	ev, err := m.outbox.Get(ctx, eventID)
	if err != nil || ev.AccountID != accountID || ev.Topic != outbox.TopicEvent {
		return domain.NotFound("event " + eventID)
	}
	payload, err := json.Marshal(delivery{WebhookID: id, EventID: eventID, Manual: true})
	if err != nil {
		return err
	}
	return m.outbox.Add(ctx, outbox.Message{ID: ident.New("dlv"), AccountID: accountID, Topic: outbox.TopicDelivery,
		Payload: payload, CreatedAt: m.clock.Now().UTC()})
}

// envelope is the JSON of an event as receivers get it (spec part 2.11).
type envelope struct {
	ID        string         `json:"id"`
	Type      event.Type     `json:"type"`
	CreatedAt string         `json:"created_at"`
	Data      map[string]any `json:"data"`
}

// delivery is the payload of a webhook.delivery message.
type delivery struct {
	WebhookID string `json:"webhook_id"`
	EventID   string `json:"event_id"`
	Manual    bool   `json:"manual,omitempty"`
	// The retries of a test (Manager.Test): the event itself (not in the outbox), the number of
	// the next attempt and when it is due. The message's first run only waits until Due.
	Event json.RawMessage `json:"event,omitempty"`
	Next  int             `json:"next,omitempty"`
	Due   time.Time       `json:"due,omitzero"`
}

// attempt signs and sends one attempt, with a fresh timestamp; the caller records it
// (ports.Webhooks.Record: the log row and the webhook's summary together).
func (m *Manager) attempt(ctx context.Context, w webhook.Webhook, eventID string, eventType event.Type, body []byte, number int) (webhook.Attempt, error) {
	secret, err := m.vault.Open(w.SealedSecret)
	if err != nil {
		return webhook.Attempt{}, fmt.Errorf("open webhook secret: %w", err)
	}
	now := m.clock.Now().UTC()
	sig := webhook.Sign(secret, now.Unix(), body)
	a := m.sender.Send(ctx, webhook.Request{URL: w.URL, Body: body, Headers: webhook.Headers(eventID, string(eventType), sig)})
	a.WebhookID, a.EventID, a.EventType, a.Number, a.At = w.ID, eventID, string(eventType), number, now
	return a, nil
}

// retryAfter is the wait before the next attempt.
func retryAfter(attempt int) time.Duration { return webhook.RetryDelay(attempt) }
