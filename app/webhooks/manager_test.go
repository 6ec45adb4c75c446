package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// clock is a clock the test moves.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// note is one call of the Notifier.
type note struct{ accountID, kind, title string }

type notes struct{ calls []note }

func (n *notes) Notify(_ context.Context, accountID, kind, title, _ string) error {
	n.calls = append(n.calls, note{accountID, kind, title})
	return nil
}

// env is a Manager over a real SQLite store and the real vault; the sender is a mock, since a
// request sent (or not) is the point of most of these tests.
type env struct {
	m          *webhooks.Manager
	hooks      *store.Webhooks
	deliveries *store.Deliveries
	outbox     *store.Outbox
	vault      *vault.AESGCM
	sender     *mock.MockWebhookSender
	notes      *notes
	clock      *clock
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.SQLite(t)
	storetest.Accounts(t, db, storetest.Account("acct_a", now), storetest.Account("acct_b", now))
	v, err := vault.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{hooks: store.NewWebhooks(db), deliveries: store.NewDeliveries(db), outbox: store.NewOutbox(db), vault: v,
		sender: mock.NewMockWebhookSender(gomock.NewController(t)), notes: &notes{}, clock: &clock{now}}
	e.m = webhooks.New(webhooks.Deps{Tx: store.NewTx(db), Webhooks: e.hooks, Deliveries: e.deliveries, Outbox: e.outbox, Vault: v,
		Sender: e.sender, Notifier: e.notes, Clock: e.clock}, webhooks.Options{})
	return e
}

func (e *env) create(t *testing.T, accountID string, events ...string) webhooks.Created {
	t.Helper()
	if len(events) == 0 {
		events = []string{webhook.AllEvents}
	}
	c, err := e.m.Create(t.Context(), accountID, "https://hooks.example.com/"+accountID, events)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (e *env) set(t *testing.T, w webhook.Webhook, fn func(w *webhook.Webhook)) {
	t.Helper()
	if _, err := e.hooks.Update(t.Context(), w.AccountID, w.ID, func(w *webhook.Webhook) error { fn(w); return nil }); err != nil {
		t.Fatal(err)
	}
}

func (e *env) get(t *testing.T, w webhook.Webhook) webhook.Webhook {
	t.Helper()
	got, err := e.hooks.Get(t.Context(), w.AccountID, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// queued returns the outbox messages of topic.
func (e *env) queued(t *testing.T, topic string) []outbox.Message {
	t.Helper()
	msgs, err := e.outbox.Claim(t.Context(), e.clock.t.Add(time.Hour), time.Nanosecond, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []outbox.Message
	for _, m := range msgs {
		if m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// addEvent stores an event message of the account, as the publisher writes it.
func (e *env) addEvent(t *testing.T, id, accountID string, typ event.Type) outbox.Message {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"id": id, "type": typ, "created_at": event.Stamp(now), "data": map[string]any{"plan": "starter"}})
	if err != nil {
		t.Fatal(err)
	}
	m := outbox.Message{ID: id, AccountID: accountID, Topic: outbox.TopicEvent, Payload: payload, CreatedAt: now}
	if err := e.outbox.Add(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

func wantCode(t *testing.T, err error, code domain.Code, field string) {
	t.Helper()
	de, ok := domain.AsError(err)
	if !ok || de.Code != code || de.Field != field {
		t.Fatalf("error %v, want %s naming %q", err, code, field)
	}
}

func TestCreateRefusesBadEventsAndTooMany(t *testing.T) {
	tests := []struct {
		name   string
		before int // webhooks the account has already
		events []string
		field  string
	}{
		{"no events", 0, nil, "events"},
		{"an unknown event", 0, []string{"message.replied", "message.sent"}, "events[1]"},
		{"* with others", 0, []string{"*", "message.replied"}, "events"},
		{"one more than the maximum", webhook.MaxPerAccount, []string{"*"}, "url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for range tt.before {
				e.create(t, "acct_a")
			}
			_, err := e.m.Create(t.Context(), "acct_a", "https://hooks.example.com/x", tt.events)
			wantCode(t, err, domain.CodeInvalidRequest, tt.field)
			if got, _ := e.m.List(t.Context(), "acct_a"); len(got) != tt.before {
				t.Errorf("%d webhooks, want %d", len(got), tt.before)
			}
		})
	}
}

func TestCreateSealsTheSecret(t *testing.T) {
	e := newEnv(t)
	c, err := e.m.Create(t.Context(), "acct_a", "https://hooks.example.com/a", []string{"message.replied", "booking.created", "message.replied"})
	if err != nil {
		t.Fatal(err)
	}
	w := e.get(t, c.Webhook)
	if !strings.HasPrefix(c.Secret, webhook.SecretPrefix) || strings.Contains(string(w.SealedSecret), c.Secret) {
		t.Fatalf("secret %q stored as %q: want a whsec_ secret stored sealed", c.Secret, w.SealedSecret)
	}
	if opened, err := e.vault.Open(w.SealedSecret); err != nil || opened != c.Secret {
		t.Errorf("the sealed secret opens to %q, %v", opened, err)
	}
	if !strings.HasPrefix(w.ID, webhook.IDPrefix) || w.AccountID != "acct_a" || !w.Active || w.Failures != 0 ||
		!slices.Equal(w.Events, []string{"message.replied", "booking.created"}) || !w.CreatedAt.Equal(now) {
		t.Errorf("stored %+v", w)
	}
}

// TestOtherAccountsWebhooksAreNotFound: every use case that names a webhook reads it within the
// caller's account, and leaves another account's alone.
func TestOtherAccountsWebhooksAreNotFound(t *testing.T) {
	e := newEnv(t)
	theirs := e.create(t, "acct_b").Webhook
	ev := e.addEvent(t, "evt_b", "acct_b", event.MessageReplied)
	off := false
	cases := map[string]func() error{
		"Get": func() error { _, err := e.m.Get(t.Context(), "acct_a", theirs.ID); return err },
		"Update": func() error {
			_, err := e.m.Update(t.Context(), "acct_a", theirs.ID, webhooks.Patch{Active: &off})
			return err
		},
		"Test":       func() error { _, err := e.m.Test(t.Context(), "acct_a", theirs.ID); return err },
		"Deliveries": func() error { _, err := e.m.Deliveries(t.Context(), "acct_a", theirs.ID, 10); return err },
		"Redeliver":  func() error { return e.m.Redeliver(t.Context(), "acct_a", theirs.ID, ev.ID) },
		"Delete":     func() error { return e.m.Delete(t.Context(), "acct_a", theirs.ID) },
	}
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			wantCode(t, call(), domain.CodeNotFound, "")
			if got := e.get(t, theirs); !got.Active || got.LastStatus != 0 {
				t.Errorf("acct_b's webhook became %+v", got)
			}
		})
	}
	if got, err := e.m.List(t.Context(), "acct_a"); err != nil || len(got) != 0 {
		t.Errorf("acct_a lists %+v, %v", got, err)
	}
	if msgs := e.queued(t, outbox.TopicDelivery); len(msgs) != 0 {
		t.Errorf("deliveries queued: %+v", msgs)
	}
}

func TestUpdate(t *testing.T) {
	on, off := true, false
	url := "https://other.example.com/in"
	bad := []string{"nope"}
	replied := []string{"message.replied"}
	tests := []struct {
		name         string
		start        func(w *webhook.Webhook)
		patch        webhooks.Patch
		field        string // the field an invalid patch names; "" when it applies
		wantActive   bool
		wantFailures int
		wantURL      string
		wantEvents   []string
	}{
		{"turning it on again clears its failures", func(w *webhook.Webhook) { w.Active, w.Failures = false, 20 }, webhooks.Patch{Active: &on}, "", true, 0, "", nil},
		{"turning it off keeps them", func(w *webhook.Webhook) { w.Failures = 3 }, webhooks.Patch{Active: &off}, "", false, 3, "", nil},
		{"an active one kept on keeps them", func(w *webhook.Webhook) { w.Failures = 3 }, webhooks.Patch{Active: &on}, "", true, 3, "", nil},
		{"url and events", func(*webhook.Webhook) {}, webhooks.Patch{URL: &url, Events: &replied}, "", true, 0, url, replied},
		{"unknown events change nothing", func(w *webhook.Webhook) { w.Failures = 3 }, webhooks.Patch{URL: &url, Events: &bad}, "events[0]", true, 3, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			w := e.create(t, "acct_a").Webhook
			e.set(t, w, tt.start)
			e.clock.t = now.Add(time.Minute)
			_, err := e.m.Update(t.Context(), "acct_a", w.ID, tt.patch)
			got := e.get(t, w)
			wantURL, wantEvents, wantUpdated := tt.wantURL, tt.wantEvents, now.Add(time.Minute)
			if wantURL == "" {
				wantURL = w.URL
			}
			if wantEvents == nil {
				wantEvents = w.Events
			}
			if tt.field != "" {
				wantCode(t, err, domain.CodeInvalidRequest, tt.field)
				wantUpdated = now
			} else if err != nil {
				t.Fatal(err)
			}
			if got.Active != tt.wantActive || got.Failures != tt.wantFailures || got.URL != wantURL ||
				!slices.Equal(got.Events, wantEvents) || !got.UpdatedAt.Equal(wantUpdated) {
				t.Errorf("webhook %+v; want active %v, failures %d, url %s, events %v, updated %v",
					got, tt.wantActive, tt.wantFailures, wantURL, wantEvents, wantUpdated)
			}
		})
	}
}

func TestTestSendsASignedAttempt(t *testing.T) {
	for _, status := range []int{200, 500} {
		t.Run(statusName(status), func(t *testing.T) {
			e := newEnv(t)
			c := e.create(t, "acct_a", "booking.created") // a test goes whatever the webhook subscribed to
			e.set(t, c.Webhook, func(w *webhook.Webhook) { w.Failures = 5 })
			var sent webhook.Request
			e.sender.EXPECT().Send(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r webhook.Request) webhook.Attempt {
				sent = r
				a := webhook.Attempt{StatusCode: status}
				if status != 200 {
					a.Error = webhook.FailHTTPStatus
				}
				return a
			}).Times(1)
			res, err := e.m.Test(t.Context(), "acct_a", c.Webhook.ID)
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				ID   string         `json:"id"`
				Type string         `json:"type"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal(sent.Body, &body); err != nil {
				t.Fatal(err)
			}
			if sent.URL != c.Webhook.URL || body.ID != res.EventID || body.Type != string(event.WebhookTest) || body.Data["webhook_id"] != c.Webhook.ID {
				t.Errorf("sent %s to %s, want the webhook.test event %s to %s", sent.Body, sent.URL, res.EventID, c.Webhook.URL)
			}
			if err := webhook.Verify(c.Secret, sent.Headers[webhook.HeaderSignature], sent.Body, now, 0); err != nil {
				t.Errorf("signature %q: %v", sent.Headers[webhook.HeaderSignature], err)
			}
			if sent.Headers[webhook.HeaderDelivery] != res.EventID || sent.Headers[webhook.HeaderEvent] != string(event.WebhookTest) {
				t.Errorf("headers %v", sent.Headers)
			}
			if res.Attempt.Number != 1 || res.Attempt.StatusCode != status || res.Attempt.WebhookID != c.Webhook.ID || !res.Attempt.At.Equal(now) {
				t.Errorf("attempt %+v", res.Attempt)
			}
			logged, err := e.m.Deliveries(t.Context(), "acct_a", c.Webhook.ID, 0)
			if err != nil || len(logged) != 1 || logged[0].EventID != res.EventID || logged[0].StatusCode != status {
				t.Errorf("deliveries %+v, %v; want the test attempt", logged, err)
			}
			// The last status changes. Delivered, the failures are reset and nothing is queued;
			// failed, the failures wait for the retries, which are queued.
			wantFails, wantQueued := 0, 0
			if status != 200 {
				wantFails, wantQueued = 5, 1
			}
			if w := e.get(t, c.Webhook); w.LastStatus != status || !w.LastDeliveryAt.Equal(now) || w.Failures != wantFails || !w.Active {
				t.Errorf("webhook after the test %+v, want failures %d", w, wantFails)
			}
			if msgs := e.queued(t, outbox.TopicDelivery); len(msgs) != wantQueued {
				t.Errorf("queued %+v, want %d", msgs, wantQueued)
			}
		})
	}
}

// TestTestRetries: a failed test is retried as any delivery is, 2 s then 4 s later, with the same
// event and delivery id, and its last failure counts; a retry that gets through resets the count.
func TestTestRetries(t *testing.T) {
	for _, lastOK := range []bool{false, true} {
		t.Run(fmt.Sprintf("last attempt delivered %v", lastOK), func(t *testing.T) {
			e := newEnv(t)
			c := e.create(t, "acct_a")
			e.set(t, c.Webhook, func(w *webhook.Webhook) { w.Failures = 5; w.Active = false }) // a test reaches an inactive webhook
			var bodies []string
			e.sender.EXPECT().Send(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r webhook.Request) webhook.Attempt {
				bodies = append(bodies, string(r.Body))
				if err := webhook.Verify(c.Secret, r.Headers[webhook.HeaderSignature], r.Body, e.clock.t, 0); err != nil {
					t.Errorf("attempt %d: signature: %v", len(bodies), err)
				}
				if lastOK && len(bodies) == webhook.MaxAttempts {
					return webhook.Attempt{StatusCode: 200}
				}
				return webhook.Attempt{StatusCode: 503, Error: webhook.FailHTTPStatus}
			}).Times(webhook.MaxAttempts)
			res, err := e.m.Test(t.Context(), "acct_a", c.Webhook.ID)
			if err != nil {
				t.Fatal(err)
			}
			msgs := e.queued(t, outbox.TopicDelivery)
			if len(msgs) != 1 {
				t.Fatalf("queued %+v, want the test's retries", msgs)
			}
			msg := msgs[0]
			// Its first run only waits for the second attempt, due 2 s after the first.
			e.clock.t = now.Add(500 * time.Millisecond)
			var later *ports.RetryLater
			if err := e.m.Deliver(t.Context(), msg); !errors.As(err, &later) || later.Delay != 1500*time.Millisecond {
				t.Fatalf("first run: %v, want a wait of 1.5 s", err)
			}
			wantDelays := []time.Duration{4 * time.Second, 0}
			for i, want := range wantDelays {
				msg.Retry = i + 1
				e.clock.t = e.clock.t.Add(later.Delay)
				err := e.m.Deliver(t.Context(), msg)
				later = nil
				switch {
				case want != 0 && (!errors.As(err, &later) || later.Delay != want):
					t.Fatalf("attempt %d: %v, want a retry in %v", i+2, err, want)
				case want == 0 && err != nil:
					t.Fatalf("attempt %d: %v, want done", i+2, err)
				}
			}
			for i, b := range bodies {
				if b != bodies[0] || !strings.Contains(b, res.EventID) {
					t.Errorf("attempt %d sent %s, want the test event %s again", i+1, b, res.EventID)
				}
			}
			logged, err := e.m.Deliveries(t.Context(), "acct_a", c.Webhook.ID, 0)
			if err != nil || len(logged) != webhook.MaxAttempts {
				t.Fatalf("deliveries %+v, %v", logged, err)
			}
			for _, a := range logged {
				if a.EventID != res.EventID {
					t.Errorf("logged %+v", a)
				}
			}
			wantFails := 6
			if lastOK {
				wantFails = 0
			}
			if w := e.get(t, c.Webhook); w.Failures != wantFails || w.Active {
				t.Errorf("webhook after the retries %+v, want failures %d, still inactive", w, wantFails)
			}
		})
	}
}

// TestTestRetryWaitsFromTheFailure: a first attempt that times out (webhook.Timeout) is followed by
// the second 2 s after it failed, as every delivery's (spec part 6), not at once.
func TestTestRetryWaitsFromTheFailure(t *testing.T) {
	e := newEnv(t)
	c := e.create(t, "acct_a")
	e.sender.EXPECT().Send(gomock.Any(), gomock.Any()).DoAndReturn(func(context.Context, webhook.Request) webhook.Attempt {
		e.clock.t = e.clock.t.Add(webhook.Timeout)
		return webhook.Attempt{Duration: webhook.Timeout, Error: webhook.FailTimeout}
	})
	if _, err := e.m.Test(t.Context(), "acct_a", c.Webhook.ID); err != nil {
		t.Fatal(err)
	}
	msgs := e.queued(t, outbox.TopicDelivery)
	if len(msgs) != 1 {
		t.Fatalf("queued %+v, want the test's retries", msgs)
	}
	var later *ports.RetryLater
	if err := e.m.Deliver(t.Context(), msgs[0]); !errors.As(err, &later) || later.Delay != webhook.RetryDelay(1) {
		t.Fatalf("first run right after the timed-out attempt: %v, want a wait of %v", err, webhook.RetryDelay(1))
	}
}

func statusName(status int) string { return "status " + string(rune('0'+status/100)) + "xx" }

func TestRedeliver(t *testing.T) {
	tests := []struct {
		name    string
		message func(e *env) outbox.Message
		want    bool // a delivery is queued
	}{
		{"the account's event", func(e *env) outbox.Message { return e.addEvent(t, "evt_a", "acct_a", event.MessageReplied) }, true},
		{"another account's event", func(e *env) outbox.Message { return e.addEvent(t, "evt_b", "acct_b", event.MessageReplied) }, false},
		{"a message that is not an event", func(e *env) outbox.Message {
			m := outbox.Message{ID: "mail_1", AccountID: "acct_a", Topic: outbox.TopicMail, Payload: []byte(`{}`), CreatedAt: now}
			if err := e.outbox.Add(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			return m
		}, false},
		{"no such event", func(*env) outbox.Message { return outbox.Message{ID: "evt_none"} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			w := e.create(t, "acct_a").Webhook
			ev := tt.message(e)
			err := e.m.Redeliver(t.Context(), "acct_a", w.ID, ev.ID)
			msgs := e.queued(t, outbox.TopicDelivery)
			if !tt.want {
				wantCode(t, err, domain.CodeNotFound, "")
				if len(msgs) != 0 {
					t.Errorf("queued %+v", msgs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) != 1 || msgs[0].AccountID != "acct_a" {
				t.Fatalf("queued %+v, want one delivery of acct_a", msgs)
			}
			var d map[string]any
			_ = json.Unmarshal(msgs[0].Payload, &d)
			if d["webhook_id"] != w.ID || d["event_id"] != ev.ID || d["manual"] != true {
				t.Errorf("delivery %v, want a manual one of %s to %s", d, ev.ID, w.ID)
			}
		})
	}
}

func TestFanOut(t *testing.T) {
	e := newEnv(t)
	all := e.create(t, "acct_a").Webhook
	bookings := e.create(t, "acct_a", "booking.created").Webhook
	replies := e.create(t, "acct_a", "message.replied", "limit.reached").Webhook
	off := e.create(t, "acct_a").Webhook
	e.set(t, off, func(w *webhook.Webhook) { w.Active = false })
	e.create(t, "acct_b")

	tests := []struct {
		name      string
		event     outbox.Message
		wantHooks []string
		wantNotes []note
	}{
		{"message.replied", e.addEvent(t, "evt_1", "acct_a", event.MessageReplied), []string{all.ID, replies.ID}, nil},
		{"booking.created", e.addEvent(t, "evt_2", "acct_a", event.BookingCreated), []string{all.ID, bookings.ID}, nil},
		{"limit.reached tells the owner", e.addEvent(t, "evt_3", "acct_a", event.LimitReached), []string{all.ID, replies.ID},
			[]note{{"acct_a", notification.KindLimitReached, "Interaction limit reached"}}},
		{"not an event envelope", outbox.Message{ID: "evt_4", AccountID: "acct_a", Topic: outbox.TopicEvent, Payload: []byte("{")}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.notes.calls = nil
			for range 2 { // a rerun writes none twice
				if err := e.m.FanOut(t.Context(), tt.event); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, m := range e.queued(t, outbox.TopicDelivery) {
				var d map[string]any
				_ = json.Unmarshal(m.Payload, &d)
				if d["event_id"] != tt.event.ID {
					continue
				}
				if m.AccountID != "acct_a" || m.ID != "dlv_"+tt.event.ID+"_"+d["webhook_id"].(string) {
					t.Errorf("delivery message %+v", m)
				}
				got = append(got, d["webhook_id"].(string))
			}
			slices.Sort(got)
			want := slices.Clone(tt.wantHooks)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("deliveries to %v, want %v", got, want)
			}
			if len(tt.wantNotes) > 0 {
				tt.wantNotes = append(tt.wantNotes, tt.wantNotes...) // the rerun tells again: a notice is not a delivery
			}
			if !slices.Equal(e.notes.calls, tt.wantNotes) {
				t.Errorf("notices %+v, want %+v", e.notes.calls, tt.wantNotes)
			}
		})
	}
}

func TestDeliver(t *testing.T) {
	type outcome int
	const (
		noSend outcome = iota
		ok
		fail
	)
	tests := []struct {
		name      string
		start     func(w *webhook.Webhook)
		eventAcct string // the account of the event; acct_a unless set
		deleted   bool
		manual    bool
		retry     int // m.Retry: failed runs before this one
		send      outcome
		wantRetry time.Duration // the RetryLater delay; 0: done
		wantFails int
		wantOn    bool
		wantNote  bool
	}{
		{name: "delivered", start: func(w *webhook.Webhook) { w.Failures = 7 }, send: ok, wantOn: true},
		{name: "first attempt fails: retry in 2 s", start: func(w *webhook.Webhook) { w.Failures = 7 }, send: fail, wantRetry: 2 * time.Second, wantFails: 7, wantOn: true},
		{name: "second attempt fails: retry in 4 s", retry: 1, send: fail, wantRetry: 4 * time.Second, wantOn: true},
		{name: "last attempt fails: one failure more", retry: 2, start: func(w *webhook.Webhook) { w.Failures = 7 }, send: fail, wantFails: 8, wantOn: true},
		{name: "the 20th failed delivery turns it off", retry: 2, start: func(w *webhook.Webhook) { w.Failures = webhook.DeactivateAfter - 1 },
			send: fail, wantFails: webhook.DeactivateAfter, wantNote: true},
		{name: "an inactive webhook gets nothing", start: func(w *webhook.Webhook) { w.Active = false }, send: noSend},
		{name: "a manual redelivery reaches an inactive webhook", start: func(w *webhook.Webhook) { w.Active = false }, manual: true, send: ok},
		{name: "another account's event is not sent", eventAcct: "acct_b", send: noSend, wantOn: true},
		{name: "a deleted webhook gets nothing", deleted: true, send: noSend},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			c := e.create(t, "acct_a")
			w := c.Webhook
			if tt.start != nil {
				e.set(t, w, tt.start)
			}
			acct := "acct_a"
			if tt.eventAcct != "" {
				acct = tt.eventAcct
			}
			ev := e.addEvent(t, "evt_1", acct, event.MessageReplied)
			if tt.deleted {
				if err := e.m.Delete(t.Context(), "acct_a", w.ID); err != nil {
					t.Fatal(err)
				}
			}
			switch tt.send {
			case ok, fail:
				e.sender.EXPECT().Send(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, r webhook.Request) webhook.Attempt {
					if r.URL != w.URL || string(r.Body) != string(ev.Payload) || r.Headers[webhook.HeaderDelivery] != ev.ID {
						t.Errorf("sent %s to %s with %v, want the event's payload to the webhook", r.Body, r.URL, r.Headers)
					}
					if err := webhook.Verify(c.Secret, r.Headers[webhook.HeaderSignature], r.Body, now, 0); err != nil {
						t.Errorf("signature: %v", err)
					}
					if tt.send == ok {
						return webhook.Attempt{StatusCode: 204}
					}
					return webhook.Attempt{StatusCode: 500, Error: webhook.FailHTTPStatus}
				}).Times(1)
			}
			payload, _ := json.Marshal(map[string]any{"webhook_id": w.ID, "event_id": ev.ID, "manual": tt.manual})
			err := e.m.Deliver(t.Context(), outbox.Message{ID: "dlv_1", AccountID: "acct_a", Topic: outbox.TopicDelivery, Payload: payload, Retry: tt.retry})
			var later *ports.RetryLater
			switch {
			case tt.wantRetry != 0:
				if !errors.As(err, &later) || later.Delay != tt.wantRetry {
					t.Errorf("Deliver = %v, want a retry in %v", err, tt.wantRetry)
				}
			case err != nil:
				t.Errorf("Deliver = %v, want done", err)
			}
			if tt.deleted {
				return
			}
			got := e.get(t, w)
			if got.Failures != tt.wantFails || got.Active != tt.wantOn {
				t.Errorf("webhook %+v, want failures %d, active %v", got, tt.wantFails, tt.wantOn)
			}
			logged, err := e.deliveries.List(t.Context(), "acct_a", w.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			if wantLogged := tt.send != noSend; (len(logged) == 1) != wantLogged || len(logged) > 1 {
				t.Errorf("attempts logged %+v, want %v", logged, wantLogged)
			} else if wantLogged && logged[0].Number != tt.retry+1 {
				t.Errorf("attempt number %d, want %d", logged[0].Number, tt.retry+1)
			}
			var wantNotes []note
			if tt.wantNote {
				wantNotes = []note{{"acct_a", notification.KindWebhookDeactivated, "A webhook was turned off"}}
			}
			if !slices.Equal(e.notes.calls, wantNotes) {
				t.Errorf("notices %+v, want %+v", e.notes.calls, wantNotes)
			}
		})
	}
}
