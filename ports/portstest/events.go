package portstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/webhook"
)

func newWebhook(id, accountID string, created time.Time) webhook.Webhook {
	return webhook.Webhook{
		ID:           id,
		AccountID:    accountID,
		URL:          "https://" + accountID + ".example/hooks/" + id,
		Events:       []string{"message.replied", "limit.reached"},
		Active:       true,
		SealedSecret: []byte("sealed " + id),
		CreatedAt:    created,
		UpdatedAt:    created,
	}
}

func createWebhooks(t *testing.T, s Stores, ws ...webhook.Webhook) {
	t.Helper()
	for _, w := range ws {
		if created, err := s.Webhooks.Create(t.Context(), w, webhook.MaxPerAccount); err != nil || !created {
			t.Fatalf("Webhooks.Create(%s) = %t, %v; want created", w.ID, created, err)
		}
	}
}

// listWebhooks returns the account's webhooks by id: the port leaves List's order open.
func listWebhooks(t *testing.T, s Stores, accountID string) []webhook.Webhook {
	t.Helper()
	ws, err := s.Webhooks.List(t.Context(), accountID)
	if err != nil {
		t.Fatalf("Webhooks.List(%s): %v", accountID, err)
	}
	slices.SortFunc(ws, func(a, b webhook.Webhook) int { return strings.Compare(a.ID, b.ID) })
	return ws
}

// equalList is equal for lists, where nil and empty are the same.
func equalList[T any](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	equal(t, what, got, want)
}

// testWebhooks checks that a webhook comes back as stored (times in UTC), that Update saves what
// fn changed and nothing when fn fails, that Delete removes it, and that every method keeps to
// the account.
func testWebhooks(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	west := time.FixedZone("UTC-8", -8*3600)

	w1 := newWebhook("wh_1", "acct_a", t0)
	w1.Events = []string{webhook.AllEvents}
	w1.Failures, w1.LastStatus = 3, 503
	w1.LastDeliveryAt, w1.UpdatedAt = t0.Add(time.Minute), t0.Add(2*time.Minute)
	// Never delivered, off, and created with times outside UTC.
	w2 := newWebhook("wh_2", "acct_a", t0.Add(time.Second).In(west))
	w2.Active = false
	w2.UpdatedAt = t0.Add(3 * time.Second).In(west)
	w3 := newWebhook("wh_3", "acct_b", t0)
	createWebhooks(t, s, w2, w3, w1)
	stored2 := w2
	stored2.CreatedAt, stored2.UpdatedAt = w2.CreatedAt.UTC(), w2.UpdatedAt.UTC()

	for _, want := range []webhook.Webhook{w1, stored2, w3} {
		got, err := s.Webhooks.Get(ctx, want.AccountID, want.ID)
		if err != nil {
			t.Fatalf("Get(%s): %v", want.ID, err)
		}
		equal(t, "Get "+want.ID, got, want)
	}
	equal(t, "List of acct_a", listWebhooks(t, s, "acct_a"), []webhook.Webhook{w1, stored2})
	equal(t, "List of acct_b", listWebhooks(t, s, "acct_b"), []webhook.Webhook{w3})
	equalList(t, "List of an unknown account", listWebhooks(t, s, "acct_missing"), nil)

	if created, err := s.Webhooks.Create(ctx, newWebhook(w1.ID, "acct_a", t0), webhook.MaxPerAccount); err == nil || created || domain.IsNotFound(err) {
		t.Errorf("Create with a taken id = %t, %v; want an error other than not_found", created, err)
	}

	for _, id := range []struct{ name, accountID, webhookID string }{
		{"another account's webhook", "acct_b", w1.ID},
		{"unknown webhook", "acct_a", "wh_missing"},
	} {
		tests := []struct {
			name string
			call func() error
		}{
			{"Get", func() error { _, err := s.Webhooks.Get(ctx, id.accountID, id.webhookID); return err }},
			{"Update", func() error {
				_, err := s.Webhooks.Update(ctx, id.accountID, id.webhookID, func(*webhook.Webhook) error {
					t.Error("Update called fn for a webhook it should not find")
					return nil
				})
				return err
			}},
			{"Delete", func() error { return s.Webhooks.Delete(ctx, id.accountID, id.webhookID) }},
		}
		for _, tt := range tests {
			t.Run(id.name+"/"+tt.name, func(t *testing.T) {
				if code := domain.ErrorCode(tt.call()); code != domain.CodeNotFound {
					t.Errorf("code = %q; want %q", code, domain.CodeNotFound)
				}
			})
		}
	}
	got, _ := s.Webhooks.Get(ctx, "acct_a", w1.ID)
	equal(t, "Get after another account's Update and Delete", got, w1)

	want := w1
	want.URL, want.Events, want.Active = "https://acct_a.example/new", []string{"booking.created"}, false
	want.SealedSecret = []byte("sealed again")
	want.Failures, want.LastStatus = 0, 204
	want.LastDeliveryAt, want.UpdatedAt = t0.Add(time.Hour), t0.Add(time.Hour)
	got, err := s.Webhooks.Update(ctx, "acct_a", w1.ID, func(w *webhook.Webhook) error {
		equal(t, "Update's webhook", *w, w1)
		*w = want
		return nil
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	equal(t, "Update's result", got, want)
	got, _ = s.Webhooks.Get(ctx, "acct_a", w1.ID)
	equal(t, "Get after Update", got, want)

	got, err = s.Webhooks.Update(ctx, "acct_a", w1.ID, func(w *webhook.Webhook) error {
		w.AccountID, w.ID = "acct_b", "wh_moved"
		return nil
	})
	if err != nil {
		t.Fatalf("Update changing the ids: %v", err)
	}
	equal(t, "Update changing the ids", got, want)
	equal(t, "acct_a after Update changing the ids", listWebhooks(t, s, "acct_a"), []webhook.Webhook{want, stored2})
	equal(t, "acct_b after Update changing the ids", listWebhooks(t, s, "acct_b"), []webhook.Webhook{w3})

	_, err = s.Webhooks.Update(ctx, "acct_a", w1.ID, func(w *webhook.Webhook) error {
		w.URL, w.Failures = "https://acct_a.example/not-saved", 99
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Errorf("Update with a failing fn = %v; want its error", err)
	}
	got, _ = s.Webhooks.Get(ctx, "acct_a", w1.ID)
	equal(t, "Get after a failed Update", got, want)

	if err := s.Webhooks.Delete(ctx, "acct_a", w1.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Webhooks.Get(ctx, "acct_a", w1.ID); !domain.IsNotFound(err) {
		t.Errorf("Get after Delete: err = %v; want not_found", err)
	}
	if err := s.Webhooks.Delete(ctx, "acct_a", w1.ID); !domain.IsNotFound(err) {
		t.Errorf("second Delete = %v; want not_found", err)
	}
	equal(t, "acct_a after Delete", listWebhooks(t, s, "acct_a"), []webhook.Webhook{stored2})
	equal(t, "acct_b after Delete", listWebhooks(t, s, "acct_b"), []webhook.Webhook{w3})
}

// testWebhookLimit checks that Create stores nothing once the account has limit webhooks, that
// the count is the account's own, that a deleted webhook makes room, and that an unknown account
// is not_found.
func testWebhookLimit(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	steps := []struct {
		name      string
		id        string
		accountID string
		limit     int
		want      bool
	}{
		{"first", "wh_a1", "acct_a", 3, true},
		{"second", "wh_a2", "acct_a", 3, true},
		{"reaches the limit", "wh_a3", "acct_a", 3, true},
		{"over the limit", "wh_a4", "acct_a", 3, false},
		{"another account", "wh_b1", "acct_b", 3, true},
		{"a higher limit", "wh_a5", "acct_a", 4, true},
		{"at the higher limit", "wh_a6", "acct_a", 4, false},
		{"below the count", "wh_a7", "acct_a", 2, false},
		{"limit 0", "wh_b2", "acct_b", 0, false},
	}
	for i, st := range steps {
		w := newWebhook(st.id, st.accountID, t0.Add(time.Duration(i)*time.Second))
		if created, err := s.Webhooks.Create(ctx, w, st.limit); err != nil || created != st.want {
			t.Errorf("%s: Create(%s, limit %d) = %t, %v; want %t", st.name, st.id, st.limit, created, err, st.want)
		}
	}
	ids := func(accountID string) []string {
		t.Helper()
		var out []string
		for _, w := range listWebhooks(t, s, accountID) {
			out = append(out, w.ID)
		}
		return out
	}
	equal(t, "acct_a's webhooks", ids("acct_a"), []string{"wh_a1", "wh_a2", "wh_a3", "wh_a5"})
	equal(t, "acct_b's webhooks", ids("acct_b"), []string{"wh_b1"})
	for _, id := range []string{"wh_a4", "wh_a6", "wh_a7"} {
		if _, err := s.Webhooks.Get(ctx, "acct_a", id); !domain.IsNotFound(err) {
			t.Errorf("Get(%s) refused by the limit: err = %v; want not_found", id, err)
		}
	}

	if err := s.Webhooks.Delete(ctx, "acct_a", "wh_a2"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if created, err := s.Webhooks.Create(ctx, newWebhook("wh_a8", "acct_a", t0), 4); err != nil || !created {
		t.Errorf("Create after a Delete made room = %t, %v; want created", created, err)
	}
	equal(t, "acct_a's webhooks after Delete and Create", ids("acct_a"), []string{"wh_a1", "wh_a3", "wh_a5", "wh_a8"})

	created, err := s.Webhooks.Create(ctx, newWebhook("wh_x", "acct_missing", t0), webhook.MaxPerAccount)
	if code := domain.ErrorCode(err); code != domain.CodeNotFound || created {
		t.Errorf("Create for an unknown account = %t, %v; want not_found", created, err)
	}
}

// testWebhookLimitConcurrent checks that creates for one account racing each other never pass
// the limit together.
func testWebhookLimitConcurrent(t *testing.T, s Stores) {
	const creators, limit = 16, 10
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		created atomic.Int32
	)
	for i := range creators {
		wg.Go(func() {
			<-start
			ok, err := s.Webhooks.Create(ctx, newWebhook(fmt.Sprintf("wh_%02d", i), "acct_a", t0), limit)
			if err != nil {
				t.Errorf("Create #%d: %v", i, err)
			}
			if ok {
				created.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := created.Load(); n != limit {
		t.Errorf("%d concurrent creates with limit %d: %d created; want %d", creators, limit, n, limit)
	}
	if ws := listWebhooks(t, s, "acct_a"); len(ws) != limit {
		t.Errorf("%d webhooks stored; want %d", len(ws), limit)
	}
}

// testDeliveries checks that List returns a webhook's attempts as recorded (Webhooks.Record), newest first, at most
// limit of them, and only those of the account and webhook asked for.
func testDeliveries(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	createWebhooks(t, s, newWebhook("wh_a1", "acct_a", t0), newWebhook("wh_a2", "acct_a", t0), newWebhook("wh_b1", "acct_b", t0))
	east := time.FixedZone("UTC+5:30", 5*3600+30*60)
	attempt := func(webhookID, eventID string, number, status int, errText string, at time.Time) webhook.Attempt {
		return webhook.Attempt{WebhookID: webhookID, EventID: eventID, EventType: "message.replied", Number: number,
			StatusCode: status, Duration: time.Duration(100*number+status) * time.Millisecond, Error: errText, At: at}
	}
	e1n1 := attempt("wh_a1", "evt_1", 1, 500, "status 500", t0)
	e1n2 := attempt("wh_a1", "evt_1", 2, 0, "timeout", t0.Add(2*time.Second))
	e1n3 := attempt("wh_a1", "evt_1", 3, 204, "", t0.Add(6*time.Second))
	e2n1 := attempt("wh_a1", "evt_2", 1, 200, "", t0.Add(10*time.Second).In(east))
	e2n1.EventType = "webhook.test"
	other := attempt("wh_a2", "evt_1", 1, 204, "", t0.Add(20*time.Second))
	// Newer than all of acct_a's.
	b := attempt("wh_b1", "evt_3", 1, 204, "", t0.Add(time.Minute))
	adds := []struct {
		accountID string
		a         webhook.Attempt
	}{
		{"acct_a", e1n2}, {"acct_b", b}, {"acct_a", e2n1}, {"acct_a", e1n1}, {"acct_a", other}, {"acct_a", e1n3},
	}
	for _, add := range adds {
		if _, _, err := s.Webhooks.Record(ctx, add.accountID, add.a, false); err != nil {
			t.Fatalf("Record(%s #%d of %s): %v", add.a.WebhookID, add.a.Number, add.a.EventID, err)
		}
	}
	e2n1.At = e2n1.At.UTC()

	tests := []struct {
		name      string
		accountID string
		webhookID string
		limit     int
		want      []webhook.Attempt
	}{
		{"all", "acct_a", "wh_a1", 10, []webhook.Attempt{e2n1, e1n3, e1n2, e1n1}},
		{"exactly all", "acct_a", "wh_a1", 4, []webhook.Attempt{e2n1, e1n3, e1n2, e1n1}},
		{"latest two", "acct_a", "wh_a1", 2, []webhook.Attempt{e2n1, e1n3}},
		{"latest one", "acct_a", "wh_a1", 1, []webhook.Attempt{e2n1}},
		{"another webhook", "acct_a", "wh_a2", 10, []webhook.Attempt{other}},
		{"another account", "acct_b", "wh_b1", 10, []webhook.Attempt{b}},
		{"another account's webhook", "acct_b", "wh_a1", 10, nil},
		{"webhook of the other account", "acct_a", "wh_b1", 10, nil},
		{"unknown webhook", "acct_a", "wh_missing", 10, nil},
	}
	for _, tt := range tests {
		got, err := s.Deliveries.List(ctx, tt.accountID, tt.webhookID, tt.limit)
		if err != nil {
			t.Errorf("List %s: %v", tt.name, err)
			continue
		}
		equalList(t, "List "+tt.name, got, tt.want)
	}
}

// testWebhookRecord checks Webhooks.Record: an attempt's log row and its webhook's summary are
// written together, and a failure (a webhook gone, or the caller's transaction rolled back)
// writes neither; concurrent attempts of one webhook all count.
func testWebhookRecord(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	createWebhooks(t, s, newWebhook("wh_a1", "acct_a", t0), newWebhook("wh_a2", "acct_a", t0))
	attempt := func(webhookID, eventID string, number, status int, at time.Time) webhook.Attempt {
		a := webhook.Attempt{WebhookID: webhookID, EventID: eventID, EventType: "message.replied", Number: number,
			StatusCode: status, Duration: 7 * time.Millisecond, At: at}
		if status/100 != 2 {
			a.Error = "http_status"
		}
		return a
	}
	logged := func(accountID, webhookID string) []webhook.Attempt {
		t.Helper()
		got, err := s.Deliveries.List(ctx, accountID, webhookID, 100)
		if err != nil {
			t.Fatalf("Deliveries.List: %v", err)
		}
		return got
	}
	summary := func(id string) webhook.Webhook {
		t.Helper()
		w, err := s.Webhooks.Get(ctx, "acct_a", id)
		if err != nil {
			t.Fatalf("Webhooks.Get(%s): %v", id, err)
		}
		return w
	}

	first := attempt("wh_a1", "evt_1", 1, 500, t0.Add(time.Second))
	w, deactivated, err := s.Webhooks.Record(ctx, "acct_a", first, false)
	if err != nil || deactivated || w.LastStatus != 500 || w.Failures != 0 || !w.LastDeliveryAt.Equal(first.At) {
		t.Fatalf("Record(first, not final) = %+v, %t, %v; want status 500, no failure counted", w, deactivated, err)
	}
	equalList(t, "log after the first attempt", logged("acct_a", "wh_a1"), []webhook.Attempt{first})
	equal(t, "summary after the first attempt", summary("wh_a1"), w)

	last := attempt("wh_a1", "evt_1", 3, 502, t0.Add(7*time.Second))
	if w, _, err := s.Webhooks.Record(ctx, "acct_a", last, true); err != nil || w.Failures != 1 || w.LastStatus != 502 {
		t.Fatalf("Record(last, final) = %+v, %v; want 1 failure, status 502", w, err)
	}
	equalList(t, "log after the last attempt", logged("acct_a", "wh_a1"), []webhook.Attempt{last, first})

	// A failure after the attempt's row: the webhook is another account's, or gone.
	if _, _, err := s.Webhooks.Record(ctx, "acct_b", attempt("wh_a1", "evt_2", 1, 204, t0.Add(8*time.Second)), true); !domain.IsNotFound(err) {
		t.Errorf("Record of another account's webhook: %v; want not found", err)
	}
	equalList(t, "log of another account's webhook", logged("acct_b", "wh_a1"), nil)
	if err := s.Webhooks.Delete(ctx, "acct_a", "wh_a2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Webhooks.Record(ctx, "acct_a", attempt("wh_a2", "evt_2", 1, 204, t0.Add(8*time.Second)), true); !domain.IsNotFound(err) {
		t.Errorf("Record of a deleted webhook: %v; want not found", err)
	}
	equalList(t, "log of a deleted webhook", logged("acct_a", "wh_a2"), nil)

	// The caller's transaction rolled back takes back both.
	before := summary("wh_a1")
	err = s.Tx.InTx(ctx, func(ctx context.Context) error {
		if _, _, err := s.Webhooks.Record(ctx, "acct_a", attempt("wh_a1", "evt_3", 1, 204, t0.Add(9*time.Second)), true); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("InTx = %v; want boom", err)
	}
	equalList(t, "log after a rollback", logged("acct_a", "wh_a1"), []webhook.Attempt{last, first})
	equal(t, "summary after a rollback", summary("wh_a1"), before)

	// The 20th failed delivery in a row turns the webhook off, once; concurrent attempts all
	// count, each with its row.
	const n = webhook.DeactivateAfter - 1
	var wg sync.WaitGroup
	var turnedOff atomic.Int32
	for i := range n {
		wg.Go(func() {
			_, deactivated, err := s.Webhooks.Record(ctx, "acct_a", attempt("wh_a1", fmt.Sprint("evt_c", i), 3, 500, t0.Add(time.Minute)), true)
			if err != nil {
				t.Errorf("concurrent Record: %v", err)
			}
			if deactivated {
				turnedOff.Add(1)
			}
		})
	}
	wg.Wait()
	if w := summary("wh_a1"); w.Failures != 1+n || w.Active || turnedOff.Load() != 1 {
		t.Errorf("after %d concurrent final failures: failures %d, active %t, turned off %d times; want %d, false, once",
			n, w.Failures, w.Active, turnedOff.Load(), 1+n)
	}
	if got := len(logged("acct_a", "wh_a1")); got != 2+n {
		t.Errorf("log rows = %d; want %d", got, 2+n)
	}
}

// testConversionsSnapshot checks Tx.InSnapshot: a page of conversions and the totals read in it
// agree (the page holds the whole period: the totals count what it lists) while conversions are
// recorded concurrently; read apart, a conversion committed between them is in one and not the
// other. Each round records into an account of its own while the reader reads again and again.
func testConversionsSnapshot(t *testing.T, s Stores) {
	ctx := t.Context()
	const rounds, perRound = 8, 60
	from, to := t0, t0.Add(time.Hour)
	reads, mismatches := 0, 0
	for r := range rounds {
		accountID := fmt.Sprint("acct_", r)
		createAccounts(t, s, accountID)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range perRound {
				c := conversion.Conversion{ID: fmt.Sprintf("cv_%d_%03d", r, i), AccountID: accountID, Kind: conversion.KindSale,
					Amount: 2, HasAmount: true, Currency: "EUR", CreatedAt: t0.Add(time.Duration(i) * time.Second)}
				if err := s.Conversions.Create(ctx, c); err != nil {
					t.Errorf("Create: %v", err)
					return
				}
			}
		}()
		for running := true; running; {
			select {
			case <-done:
				running = false // one read more, after the last
			default:
			}
			var page conversion.Page
			var totals []conversion.Total
			err := s.Tx.InSnapshot(ctx, func(ctx context.Context) error {
				var err error
				if page, err = s.Conversions.List(ctx, accountID, conversion.Query{From: from, To: to, Limit: 100}); err != nil {
					return err
				}
				totals, err = s.Conversions.Totals(ctx, accountID, from, to, "")
				return err
			})
			if err != nil {
				t.Fatalf("InSnapshot: %v", err)
			}
			count, amount := 0, 0.0
			for _, tt := range totals {
				count, amount = count+tt.Count, amount+tt.Amount
			}
			reads++
			if page.HasMore || count != len(page.Conversions) || amount != 2*float64(len(page.Conversions)) {
				mismatches++
				if mismatches == 1 {
					t.Errorf("round %d: the page lists %d conversions (more: %t), the totals count %d worth %.0f",
						r, len(page.Conversions), page.HasMore, count, amount)
				}
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d reads disagreed", mismatches, reads)
	}
	// A snapshot is read-only: a write in it fails, and nothing is kept.
	err := s.Tx.InSnapshot(ctx, func(ctx context.Context) error {
		return s.Conversions.Create(ctx, conversion.Conversion{ID: "cv_ro", AccountID: "acct_0", Kind: conversion.KindLead, CreatedAt: t0})
	})
	if err == nil {
		t.Errorf("a write in a snapshot succeeded")
	}
}

// testConversions checks that List returns the account's conversions as created, in [from, to)
// (instants compared, whatever the zone), newest first.
func testConversions(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	conv := func(id, accountID string, at time.Time) conversion.Conversion {
		return conversion.Conversion{ID: id, AccountID: accountID, Kind: conversion.KindLead, CreatedAt: at}
	}
	before := conv("conv_before", "acct_a", from.Add(-time.Microsecond))
	first := conv("conv_first", "acct_a", from)
	sale := conv("conv_sale", "acct_a", from.Add(500*time.Millisecond))
	sale.Kind, sale.Amount, sale.HasAmount, sale.Currency = conversion.KindSale, 12.5, true, "EUR"
	sale.Reference, sale.ConversationID = "order-42", "conv-chat-1"
	free := conv("conv_free", "acct_a", t0)
	free.Kind, free.HasAmount, free.Currency = conversion.KindSignup, true, "USD"
	last := conv("conv_last", "acct_a", to.Add(-time.Microsecond))
	last.Kind = conversion.KindBooking
	atEnd := conv("conv_end", "acct_a", to)
	b := conv("conv_b", "acct_b", t0)
	for _, c := range []conversion.Conversion{sale, atEnd, b, first, last, before, free} {
		if err := s.Conversions.Create(ctx, c); err != nil {
			t.Fatalf("Create(%s): %v", c.ID, err)
		}
	}

	east := time.FixedZone("UTC+5:30", 5*3600+30*60)
	tests := []struct {
		name      string
		accountID string
		from, to  time.Time
		want      []conversion.Conversion
	}{
		{"the month", "acct_a", from, to, []conversion.Conversion{last, free, sale, first}},
		{"the month outside UTC", "acct_a", from.In(east), to.In(east), []conversion.Conversion{last, free, sale, first}},
		{"from a fraction of a second in", "acct_a", from.Add(time.Millisecond), to, []conversion.Conversion{last, free, sale}},
		{"the next month", "acct_a", to, to.AddDate(0, 1, 0), []conversion.Conversion{atEnd}},
		{"the month before", "acct_a", from.AddDate(0, -1, 0), from, []conversion.Conversion{before}},
		{"empty range", "acct_a", t0, t0, nil},
		{"another account", "acct_b", from, to, []conversion.Conversion{b}},
		{"unknown account", "acct_missing", from, to, nil},
	}
	for _, tt := range tests {
		got, err := s.Conversions.List(ctx, tt.accountID, conversion.Query{From: tt.from, To: tt.to, Limit: conversion.MaxLimit})
		if err != nil {
			t.Errorf("List %s: %v", tt.name, err)
			continue
		}
		if got.HasMore {
			t.Errorf("List %s: has more, want the whole period", tt.name)
		}
		equalList(t, "List "+tt.name, got.Conversions, tt.want)
	}
}

// testConversionPages checks List's pages and Totals: across pages of every size, of all kinds or
// one, every conversion of the period is listed exactly once, newest first with equal times
// ordered by id (descending), the last page says no more follow, and another account's
// conversions or those outside the period are never seen; Totals sums the whole period (of the
// kind) as conversion.Totals does, one aggregate per kind and currency.
func testConversionPages(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	from := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	// 23 conversions of acct_a in the period, in 4 instants (so that ties span pages), created in
	// an order that is neither their time's nor their id's; acct_b's at the same instants, with
	// ids between acct_a's, and acct_a's just outside the period.
	instants := []time.Time{from, from.Add(time.Microsecond), t0, to.Add(-time.Microsecond)}
	kinds := []string{conversion.KindSale, conversion.KindLead, conversion.KindSale, conversion.KindBooking, conversion.KindSignup}
	var mine, all []conversion.Conversion
	for i := range 23 {
		j := (i * 7) % 23 // creation order shuffled
		c := conversion.Conversion{ID: fmt.Sprintf("cv_a%02d", j), AccountID: "acct_a", Kind: kinds[j%len(kinds)],
			CreatedAt: instants[j%len(instants)]}
		switch j % 3 {
		case 0:
			c.HasAmount, c.Amount, c.Currency = true, float64(j)+0.25, "EUR"
		case 1:
			c.HasAmount, c.Amount, c.Currency = true, 0.1, "USD"
		}
		mine = append(mine, c)
		other := c
		other.ID, other.AccountID = fmt.Sprintf("cv_a%02db", j), "acct_b"
		all = append(all, c, other)
	}
	outside := []conversion.Conversion{
		{ID: "cv_before", AccountID: "acct_a", Kind: conversion.KindSale, CreatedAt: from.Add(-time.Microsecond), HasAmount: true, Amount: 5, Currency: "EUR"},
		{ID: "cv_end", AccountID: "acct_a", Kind: conversion.KindLead, CreatedAt: to},
	}
	for _, c := range append(all, outside...) {
		if err := s.Conversions.Create(ctx, c); err != nil {
			t.Fatalf("Create(%s): %v", c.ID, err)
		}
	}
	newestFirst := func(cs []conversion.Conversion) []conversion.Conversion {
		return slices.SortedFunc(slices.Values(cs), func(a, b conversion.Conversion) int {
			if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
				return c
			}
			return strings.Compare(b.ID, a.ID)
		})
	}
	for _, kind := range append([]string{""}, conversion.Kinds...) {
		var want []conversion.Conversion
		for _, c := range mine {
			if kind == "" || c.Kind == kind {
				want = append(want, c)
			}
		}
		want = newestFirst(want)
		totals, err := s.Conversions.Totals(ctx, "acct_a", from, to, kind)
		if err != nil {
			t.Fatalf("Totals of kind %q: %v", kind, err)
		}
		equalList(t, fmt.Sprintf("Totals of kind %q", kind), totals, conversion.Totals(want))
		for _, limit := range []int{1, 2, 3, 5, 22, 23, 24, conversion.MaxLimit} {
			var got []conversion.Conversion
			q := conversion.Query{From: from, To: to, Kind: kind, Limit: limit}
			for pages := 0; ; pages++ {
				if pages > len(want) {
					t.Fatalf("kind %q limit %d: more pages than conversions", kind, limit)
				}
				page, err := s.Conversions.List(ctx, "acct_a", q)
				if err != nil {
					t.Fatalf("List kind %q limit %d: %v", kind, limit, err)
				}
				if len(page.Conversions) > limit || page.HasMore && len(page.Conversions) < limit {
					t.Fatalf("kind %q limit %d: a page of %d, has more %v", kind, limit, len(page.Conversions), page.HasMore)
				}
				got = append(got, page.Conversions...)
				if !page.HasMore {
					break
				}
				last := page.Conversions[len(page.Conversions)-1]
				q.After = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
			}
			equalList(t, fmt.Sprintf("pages of kind %q, limit %d", kind, limit), got, want)
		}
	}
	// a cursor in another zone is the same instant; one after the last lists nothing
	last := newestFirst(mine)[5]
	east := time.FixedZone("UTC+5:30", 5*3600+30*60)
	page, err := s.Conversions.List(ctx, "acct_a", conversion.Query{From: from.In(east), To: to.In(east), Limit: 1,
		After: &conversation.Cursor{CreatedAt: last.CreatedAt.In(east), ID: last.ID}})
	if err != nil {
		t.Fatal(err)
	}
	equalList(t, "the page after a cursor given outside UTC", page.Conversions, newestFirst(mine)[6:7])
	page, err = s.Conversions.List(ctx, "acct_a", conversion.Query{From: from, To: to, Limit: 5,
		After: &conversation.Cursor{CreatedAt: from, ID: "cv_a00"}})
	if err != nil || len(page.Conversions) != 0 || page.HasMore {
		t.Errorf("after the oldest: %+v, %v; want an empty page", page, err)
	}
	// the totals of a period of none, and of another account
	if totals, err := s.Conversions.Totals(ctx, "acct_missing", from, to, ""); err != nil || len(totals) != 0 {
		t.Errorf("Totals of an unknown account: %+v, %v; want none", totals, err)
	}
	var theirs []conversion.Conversion
	for _, c := range all {
		if c.AccountID == "acct_b" {
			theirs = append(theirs, c)
		}
	}
	totals, err := s.Conversions.Totals(ctx, "acct_b", from, to, "")
	if err != nil {
		t.Fatal(err)
	}
	equalList(t, "Totals of acct_b", totals, conversion.Totals(theirs))
	totals, err = s.Conversions.Totals(ctx, "acct_a", from.Add(-time.Hour), to.Add(time.Hour), conversion.KindSale)
	if err != nil {
		t.Fatal(err)
	}
	var sales []conversion.Conversion
	for _, c := range append(mine, outside...) {
		if c.Kind == conversion.KindSale {
			sales = append(sales, c)
		}
	}
	equalList(t, "Totals of the sales of a wider period", totals, conversion.Totals(sales))
}

// testNotifications checks that List returns the account's notifications as created, newest
// first, at most limit of them.
func testNotifications(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	note := func(id, accountID, kind string, at time.Time) notification.Notification {
		return notification.Notification{ID: id, AccountID: accountID, Kind: kind, Title: "Title " + id, Body: "Body of " + id, CreatedAt: at}
	}
	n1 := note("ntf_1", "acct_a", notification.KindConversion, t0)
	n1.ReadAt = t0.Add(time.Hour)
	n2 := note("ntf_2", "acct_a", notification.KindWebhookDeactivated, t0.Add(time.Second))
	n3 := note("ntf_3", "acct_a", notification.KindLimitReached, t0.Add(2*time.Second))
	n3.Body = ""
	n4 := note("ntf_4", "acct_a", notification.KindConversion, t0.Add(3*time.Second))
	// Newer than all of acct_a's.
	b := note("ntf_b", "acct_b", notification.KindConversion, t0.Add(time.Minute))
	for _, n := range []notification.Notification{n3, b, n1, n4, n2} {
		if err := s.Notifications.Create(ctx, n); err != nil {
			t.Fatalf("Create(%s): %v", n.ID, err)
		}
	}
	tests := []struct {
		name      string
		accountID string
		limit     int
		want      []notification.Notification
	}{
		{"all", "acct_a", 10, []notification.Notification{n4, n3, n2, n1}},
		{"exactly all", "acct_a", 4, []notification.Notification{n4, n3, n2, n1}},
		{"latest two", "acct_a", 2, []notification.Notification{n4, n3}},
		{"latest one", "acct_a", 1, []notification.Notification{n4}},
		{"another account", "acct_b", 10, []notification.Notification{b}},
		{"unknown account", "acct_missing", 10, nil},
	}
	for _, tt := range tests {
		got, err := s.Notifications.List(ctx, tt.accountID, tt.limit)
		if err != nil {
			t.Errorf("List %s: %v", tt.name, err)
			continue
		}
		equalList(t, "List "+tt.name, got, tt.want)
	}
}
