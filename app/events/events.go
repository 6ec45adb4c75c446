// Package events moves work through the transactional outbox: a Publisher writes account events
// in the caller's transaction, a Relay hands what was written to the queue, and a Processor runs a
// queued message and confirms it, so that nothing written is lost when a process dies.
package events

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

// Envelope is the JSON form of an event (spec part 2.11), as webhooks receive it.
type Envelope struct {
	ID        string         `json:"id"`
	Type      event.Type     `json:"type"`
	CreatedAt string         `json:"created_at"`
	Data      map[string]any `json:"data"`
}

// Encode renders the envelope of e.
func Encode(e event.Event) ([]byte, error) {
	data := e.Data
	if data == nil {
		data = map[string]any{}
	}
	return json.Marshal(Envelope{ID: e.ID, Type: e.Type, CreatedAt: event.Stamp(e.CreatedAt), Data: data})
}

// Publisher writes events to the outbox. Call it with the ctx of the transaction that makes the
// change, so the event exists exactly when the change does.
type Publisher struct {
	outbox ports.Outbox
	clock  ports.Clock
}

// NewPublisher returns a Publisher.
func NewPublisher(o ports.Outbox, c ports.Clock) *Publisher {
	return &Publisher{outbox: o, clock: c}
}

var _ ports.Publisher = (*Publisher)(nil)

// Publish writes an event of type t with data for an account and returns it.
func (p *Publisher) Publish(ctx context.Context, accountID string, t event.Type, data map[string]any) (event.Event, error) {
	e, m, err := p.envelope(accountID, t, data)
	if err != nil {
		return event.Event{}, err
	}
	if err := p.outbox.Add(ctx, m); err != nil {
		return event.Event{}, fmt.Errorf("publish %s: %w", t, err)
	}
	return e, nil
}

// Prepare returns the outbox message of an event as Publish would write it, for a caller that
// writes it in a statement of its own (ports.Conversations.Exchange). The write is noted (Pending)
// only when the caller's statement left the message pending: an event written done (one that only
// webhooks need, of an account without an active webhook) is nothing for the relay to hand on, and
// a nudge for it would only make the relay claim nothing.
func (p *Publisher) Prepare(_ context.Context, accountID string, t event.Type, data map[string]any) (outbox.Message, error) {
	_, m, err := p.envelope(accountID, t, data)
	if err != nil {
		return outbox.Message{}, err
	}
	return m, nil
}

// Pending notes, for the context's watch (Watch), that the caller wrote outbox messages that are
// not done, so that the relay is nudged once the caller's request is done.
func (p *Publisher) Pending(ctx context.Context) { noticed(ctx) }

// envelope makes the event of type t with data and its outbox message.
func (p *Publisher) envelope(accountID string, t event.Type, data map[string]any) (event.Event, outbox.Message, error) {
	if !event.Known(t) {
		return event.Event{}, outbox.Message{}, fmt.Errorf("publish: unknown event type %q", t)
	}
	now := p.clock.Now().UTC()
	e := event.Event{ID: ident.Ordered("evt", now), AccountID: accountID, Type: t, Data: data, CreatedAt: now}
	body, err := Encode(e)
	if err != nil {
		return event.Event{}, outbox.Message{}, fmt.Errorf("publish %s: %w", t, err)
	}
	return e, outbox.Message{ID: e.ID, AccountID: accountID, Topic: outbox.TopicEvent, Payload: body, CreatedAt: e.CreatedAt}, nil
}

// Ping writes a system.ping message, which a worker confirms as soon as it takes it: a check that
// the whole pipeline (outbox, relay, queue, worker) moves.
func (p *Publisher) Ping(ctx context.Context) (string, error) {
	m := outbox.Message{ID: ident.New("ping"), Topic: outbox.TopicPing, Payload: []byte("{}"), CreatedAt: p.clock.Now().UTC()}
	if err := p.outbox.Add(ctx, m); err != nil {
		return "", fmt.Errorf("ping: %w", err)
	}
	return m.ID, nil
}

// HandlerFunc does the work of one topic's messages. It may run more than once for one message.
type HandlerFunc func(ctx context.Context, m outbox.Message) error

// Handlers maps a topic to the function that does its work.
type Handlers map[string]HandlerFunc

// Processor runs queued messages by topic and confirms each in the outbox once its work is done.
type Processor struct {
	handlers Handlers
	outbox   ports.Outbox
	clock    ports.Clock
	nudges   Nudges
}

// NewProcessor returns a Processor. The ping topic is always handled. Work that writes to the
// outbox (a webhook fan-out) sends n once it is done, so that the relay hands its messages over
// at once.
func NewProcessor(h Handlers, o ports.Outbox, c ports.Clock, n Nudges) *Processor {
	all := Handlers{outbox.TopicPing: func(context.Context, outbox.Message) error { return nil }}
	for topic, fn := range h {
		all[topic] = fn
	}
	return &Processor{handlers: all, outbox: o, clock: c, nudges: n}
}

// Handle runs m's handler and confirms m. An error leaves m unconfirmed, for the queue to retry
// and, past that, for the relay to claim again after the lease.
func (p *Processor) Handle(ctx context.Context, m outbox.Message) error {
	fn, ok := p.handlers[m.Topic]
	if !ok {
		return fmt.Errorf("message %s: no handler for topic %q", m.ID, m.Topic)
	}
	work, wrote := Watch(ctx)
	err := fn(work, m)
	if wrote() {
		p.nudges.Send()
	}
	if err != nil {
		return fmt.Errorf("message %s (%s): %w", m.ID, m.Topic, err)
	}
	if err := p.outbox.Done(ctx, m.ID, p.clock.Now()); err != nil && !domain.IsNotFound(err) {
		return fmt.Errorf("confirm message %s: %w", m.ID, err)
	}
	return nil
}
