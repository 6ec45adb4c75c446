package conversions_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/notification"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// note is one call of the Notifier.
type note struct{ accountID, kind, title, body string }

// notes records what the owner was told; err, when set, is what Notify answers.
type notes struct {
	calls []note
	err   error
}

func (n *notes) Notify(_ context.Context, accountID, kind, title, body string) error {
	if n.err != nil {
		return n.err
	}
	n.calls = append(n.calls, note{accountID, kind, title, body})
	return nil
}

type env struct {
	svc         *conversions.Service
	conversions *store.Conversions
	convs       *store.Conversations
	notes       *notes
}

// newEnv builds the service over a real SQLite store with the accounts acct_a and acct_b, each
// with a conversation c_a / c_b.
func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.SQLite(t)
	storetest.Accounts(t, db, storetest.Account("acct_a", now), storetest.Account("acct_b", now))
	e := &env{conversions: store.NewConversions(db), convs: store.NewConversations(db), notes: &notes{}}
	for _, id := range []string{"acct_a", "acct_b"} {
		conv := "c_" + strings.TrimPrefix(id, "acct_")
		if _, err := e.convs.Open(t.Context(), conversation.Conversation{AccountID: id, ID: conv, Channel: conversation.ChannelAPI,
			ContactID: conversation.ContactID(conversation.ChannelAPI, conv), CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	e.svc = conversions.New(store.NewTx(db), e.conversions, e.convs, e.notes, fixedClock{now})
	return e
}

// stored returns the account's conversions of the current period.
func (e *env) stored(t *testing.T, accountID string) []conversion.Conversion {
	t.Helper()
	page, err := e.conversions.List(t.Context(), accountID, conversion.Query{From: now.Add(-time.Hour), To: now.Add(time.Hour), Limit: conversion.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	return page.Conversions
}

func (e *env) tags(t *testing.T, accountID, convID string) []string {
	t.Helper()
	c, err := e.convs.Get(t.Context(), accountID, convID)
	if err != nil {
		t.Fatal(err)
	}
	return c.Tags
}

// wantNothingWritten checks that no conversion, tag or notice was written for either account.
func (e *env) wantNothingWritten(t *testing.T) {
	t.Helper()
	for _, id := range []string{"acct_a", "acct_b"} {
		if cs := e.stored(t, id); len(cs) != 0 {
			t.Errorf("%s has conversions %+v, want none", id, cs)
		}
		conv := "c_" + strings.TrimPrefix(id, "acct_")
		if tags := e.tags(t, id, conv); len(tags) != 0 {
			t.Errorf("%s's conversation tagged %v, want untouched", id, tags)
		}
	}
	if len(e.notes.calls) != 0 {
		t.Errorf("the owner was told %+v, want nothing", e.notes.calls)
	}
}

func wantCode(t *testing.T, err error, code domain.Code, field string) {
	t.Helper()
	de, ok := domain.AsError(err)
	if !ok || de.Code != code || de.Field != field {
		t.Fatalf("error %v, want %s naming %q", err, code, field)
	}
}

func TestRecordRefusesBadInput(t *testing.T) {
	tests := []struct {
		name  string
		in    conversion.Conversion
		field string
	}{
		{"unknown kind", conversion.Conversion{Kind: "refund", ConversationID: "c_a"}, "kind"},
		{"no kind", conversion.Conversion{}, "kind"},
		{"negative amount", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: -1, Currency: "EUR"}, "amount"},
		{"amount too large", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 2e12, Currency: "EUR"}, "amount"},
		{"amount without currency", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 10}, "currency"},
		{"unknown currency", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 10, Currency: "EURO"}, "currency"},
		{"reference too long", conversion.Conversion{Kind: conversion.KindLead, Reference: strings.Repeat("r", conversion.MaxReference+1)}, "reference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.svc.Record(t.Context(), "acct_a", tt.in)
			wantCode(t, err, domain.CodeInvalidRequest, tt.field)
			e.wantNothingWritten(t)
		})
	}
}

func TestRecordScopesTheConversationToTheAccount(t *testing.T) {
	for _, conv := range []string{"c_b", "c_unknown"} {
		t.Run(conv, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.svc.Record(t.Context(), "acct_a", conversion.Conversion{Kind: conversion.KindSale, ConversationID: conv})
			wantCode(t, err, domain.CodeNotFound, "")
			if !strings.Contains(err.Error(), conv) {
				t.Errorf("error %q does not name the conversation %s", err, conv)
			}
			e.wantNothingWritten(t)
		})
	}
}

func TestRecordTagsAndTellsTheOwner(t *testing.T) {
	tests := []struct {
		name      string
		in        conversion.Conversion
		wantTitle string
		wantBody  string
		wantCurr  string
	}{
		{
			name:      "sale with amount, conversation and reference",
			in:        conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 12.5, Currency: "eur", ConversationID: "c_a", Reference: "ord-1"},
			wantTitle: "New sale: 12.50 EUR",
			wantBody:  "A sale was reported from conversation c_a (reference ord-1).",
			wantCurr:  "EUR",
		},
		{
			name:      "lead alone",
			in:        conversion.Conversion{Kind: conversion.KindLead},
			wantTitle: "New lead",
			wantBody:  "A lead was reported.",
		},
		{
			name:      "booking with a conversation",
			in:        conversion.Conversion{Kind: conversion.KindBooking, ConversationID: "c_a"},
			wantTitle: "New booking",
			wantBody:  "A booking was reported from conversation c_a.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			// The caller's account and id are not the caller's to choose.
			in := tt.in
			in.ID, in.AccountID = "cv_mine", "acct_b"
			got, err := e.svc.Record(t.Context(), "acct_a", in)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.ID, "cv_") || got.ID == "cv_mine" || got.AccountID != "acct_a" || !got.CreatedAt.Equal(now) || got.Currency != tt.wantCurr {
				t.Errorf("recorded %+v, want a new cv_ id, acct_a, created now, currency %q", got, tt.wantCurr)
			}
			if cs := e.stored(t, "acct_a"); len(cs) != 1 || cs[0].ID != got.ID || cs[0].Kind != tt.in.Kind {
				t.Errorf("stored %+v, want the one recorded", cs)
			}
			if cs := e.stored(t, "acct_b"); len(cs) != 0 {
				t.Errorf("acct_b has conversions %+v", cs)
			}
			wantTags := []string(nil)
			if tt.in.ConversationID != "" {
				wantTags = []string{tt.in.Kind}
			}
			if tags := e.tags(t, "acct_a", "c_a"); !slices.Equal(tags, wantTags) {
				t.Errorf("conversation tags %v, want %v", tags, wantTags)
			}
			want := []note{{"acct_a", notification.KindConversion, tt.wantTitle, tt.wantBody}}
			if !slices.Equal(e.notes.calls, want) {
				t.Errorf("the owner was told %+v, want %+v", e.notes.calls, want)
			}
		})
	}
}

func TestRecordWritesNothingWhenTheNoticeFails(t *testing.T) {
	e := newEnv(t)
	e.notes.err = errors.New("notifications table gone")
	_, err := e.svc.Record(t.Context(), "acct_a", conversion.Conversion{Kind: conversion.KindSale, ConversationID: "c_a"})
	if !errors.Is(err, e.notes.err) {
		t.Fatalf("error %v, want the notifier's", err)
	}
	e.notes.err = nil
	e.wantNothingWritten(t)
}

func TestReport(t *testing.T) {
	e := newEnv(t)
	for _, rec := range []struct {
		acct string
		c    conversion.Conversion
	}{
		{"acct_a", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 10, Currency: "EUR"}},
		{"acct_a", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 2.5, Currency: "EUR"}},
		{"acct_a", conversion.Conversion{Kind: conversion.KindLead}},
		{"acct_b", conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 99, Currency: "EUR"}},
	} {
		if _, err := e.svc.Record(t.Context(), rec.acct, rec.c); err != nil {
			t.Fatal(err)
		}
	}
	period := ledger.PeriodAt(now)
	tests := []struct {
		name       string
		from, to   time.Time
		wantFrom   time.Time
		wantTo     time.Time
		wantTotals []conversion.Total
	}{
		{"zero times: the current period", time.Time{}, time.Time{}, period.Start, period.End,
			[]conversion.Total{{Kind: conversion.KindSale, Currency: "EUR", Count: 2, Amount: 12.5}, {Kind: conversion.KindLead, Count: 1}}},
		{"a range around now", now.Add(-time.Minute), now.Add(time.Minute), now.Add(-time.Minute), now.Add(time.Minute),
			[]conversion.Total{{Kind: conversion.KindSale, Currency: "EUR", Count: 2, Amount: 12.5}, {Kind: conversion.KindLead, Count: 1}}},
		{"to is exclusive", now.Add(-time.Hour), now, now.Add(-time.Hour), now, []conversion.Total{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := e.svc.Report(t.Context(), "acct_a", conversion.Query{From: tt.from, To: tt.to})
			if err != nil {
				t.Fatal(err)
			}
			if !r.From.Equal(tt.wantFrom) || !r.To.Equal(tt.wantTo) {
				t.Errorf("report of [%v, %v), want [%v, %v)", r.From, r.To, tt.wantFrom, tt.wantTo)
			}
			if !slices.Equal(r.Totals, tt.wantTotals) {
				t.Errorf("totals %+v, want %+v", r.Totals, tt.wantTotals)
			}
			n := 0
			for _, tot := range tt.wantTotals {
				n += tot.Count
			}
			if len(r.Conversions) != n {
				t.Errorf("%d conversions, want %d", len(r.Conversions), n)
			}
			for _, c := range r.Conversions {
				if c.AccountID != "acct_a" {
					t.Errorf("the report of acct_a lists %+v", c)
				}
			}
		})
	}
	for _, bad := range [][2]time.Time{{now, now}, {now, now.Add(-time.Second)}} {
		_, err := e.svc.Report(t.Context(), "acct_a", conversion.Query{From: bad[0], To: bad[1]})
		wantCode(t, err, domain.CodeInvalidRequest, "to")
	}
}

// TestReportPages: a report lists a page of its conversions, newest first, after a cursor (the
// last of the page before), with has_more; the totals are the whole period's (of the kind asked,
// when one is). Every conversion here has the same time: the id orders them.
func TestReportPages(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for i := range 7 {
		c := conversion.Conversion{Kind: conversion.KindSale, HasAmount: true, Amount: 1, Currency: "EUR"}
		if i%3 == 2 {
			c = conversion.Conversion{Kind: conversion.KindLead}
		}
		stored, err := e.svc.Record(t.Context(), "acct_a", c)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, stored.ID)
	}
	all, err := e.svc.Report(t.Context(), "acct_a", conversion.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Conversions) != 7 || all.HasMore {
		t.Fatalf("without a limit: %d conversions, has_more %v; want 7, false", len(all.Conversions), all.HasMore)
	}
	var seen []string
	q := conversion.Query{Limit: 3}
	for pages := 0; ; pages++ {
		if pages > 3 {
			t.Fatal("more pages than 7 conversions in 3s make")
		}
		r, err := e.svc.Report(t.Context(), "acct_a", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Conversions) > 3 {
			t.Fatalf("page of %d, want at most 3", len(r.Conversions))
		}
		if !slices.Equal(r.Totals, all.Totals) {
			t.Errorf("a page's totals %+v, want the period's %+v", r.Totals, all.Totals)
		}
		for _, c := range r.Conversions {
			seen = append(seen, c.ID)
		}
		if !r.HasMore {
			break
		}
		last := r.Conversions[len(r.Conversions)-1]
		q.After = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	var want []string
	for _, c := range all.Conversions {
		want = append(want, c.ID)
	}
	if !slices.Equal(seen, want) {
		t.Errorf("pages listed %v, want %v", seen, want)
	}
	leads, err := e.svc.Report(t.Context(), "acct_a", conversion.Query{Kind: conversion.KindLead})
	if err != nil {
		t.Fatal(err)
	}
	if len(leads.Conversions) != 2 || !slices.Equal(leads.Totals, []conversion.Total{{Kind: conversion.KindLead, Count: 2}}) {
		t.Errorf("kind lead: %d conversions, totals %+v; want 2 leads", len(leads.Conversions), leads.Totals)
	}
	_, err = e.svc.Report(t.Context(), "acct_a", conversion.Query{Kind: "refund"})
	wantCode(t, err, domain.CodeInvalidRequest, "kind")
}

// TestReportTotalsCountItsConversions: the owner report of the whole period (the console's) lists
// what its totals count while conversions are recorded meanwhile: the pages and the totals are
// read in one snapshot.
func TestReportTotalsCountItsConversions(t *testing.T) {
	e := newEnv(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 150 {
			c := conversion.Conversion{ID: fmt.Sprintf("cv_%03d", i), AccountID: "acct_a", Kind: conversion.KindLead, CreatedAt: now}
			if err := e.conversions.Create(t.Context(), c); err != nil {
				t.Errorf("Create: %v", err)
				return
			}
		}
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		r, err := e.svc.Report(t.Context(), "acct_a", conversion.Query{})
		if err != nil {
			t.Error(err)
			break
		}
		count := 0
		for _, tt := range r.Totals {
			count += tt.Count
		}
		if count != len(r.Conversions) {
			t.Errorf("the report lists %d conversions, its totals count %d", len(r.Conversions), count)
			break
		}
	}
	<-done
}
