package conversions_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports/mock"
)

// mockService returns the service over a mocked conversions store (the others are not used by
// Report) and a snapshot that runs its function: each Report reads in one.
func mockService(t *testing.T) (*conversions.Service, *mock.MockConversions) {
	ctrl := gomock.NewController(t)
	store := mock.NewMockConversions(ctrl)
	tx := mock.NewMockTx(ctrl)
	tx.EXPECT().InSnapshot(gomock.Any(), gomock.Any()).AnyTimes().DoAndReturn(
		func(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) })
	return conversions.New(tx, store, nil, &notes{}, fixedClock{now}), store
}

// TestReportAsksTheStoreAPage: a page of the report is one List of the store (the period
// resolved, the kind, the limit and the cursor passed on as given) and one Totals of the period
// and kind: what the store answers is the report, nothing read beyond it.
func TestReportAsksTheStoreAPage(t *testing.T) {
	svc, store := mockService(t)
	period := ledger.PeriodAt(now)
	after := &conversation.Cursor{CreatedAt: now.Add(-time.Minute), ID: "cv_x"}
	page := conversion.Page{HasMore: true, Conversions: []conversion.Conversion{
		{ID: "cv_2", Kind: conversion.KindSale, CreatedAt: now.Add(-2 * time.Minute)},
		{ID: "cv_1", Kind: conversion.KindSale, CreatedAt: now.Add(-3 * time.Minute)},
	}}
	totals := []conversion.Total{{Kind: conversion.KindSale, Currency: "EUR", Count: 40, Amount: 120}}
	gomock.InOrder(
		store.EXPECT().List(gomock.Any(), "acct_a", conversion.Query{From: period.Start, To: period.End,
			Kind: conversion.KindSale, Limit: 2, After: after}).Return(page, nil),
		store.EXPECT().Totals(gomock.Any(), "acct_a", period.Start, period.End, conversion.KindSale).Return(totals, nil),
	)
	r, err := svc.Report(t.Context(), "acct_a", conversion.Query{Kind: conversion.KindSale, Limit: 2, After: after})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Conversions, page.Conversions) || !r.HasMore || !slices.Equal(r.Totals, totals) ||
		!r.From.Equal(period.Start) || !r.To.Equal(period.End) {
		t.Errorf("report %+v, want the store's page and totals over the current period", r)
	}
}

// TestReportWholePagesThroughTheStore: a report without a limit (the console's) lists the period
// whole by pages of MaxLimit, each after the last of the one before, and says no more follow.
func TestReportWholePagesThroughTheStore(t *testing.T) {
	svc, store := mockService(t)
	from, to := now.Add(-time.Hour), now
	var all []conversion.Conversion
	for i := range 2*conversion.MaxLimit + 1 {
		all = append(all, conversion.Conversion{ID: fmt.Sprintf("cv_%03d", 999-i), Kind: conversion.KindLead, CreatedAt: now.Add(-time.Second)})
	}
	var after *conversation.Cursor
	var expects []*gomock.Call
	for start := 0; start < len(all); start += conversion.MaxLimit {
		end := min(start+conversion.MaxLimit, len(all))
		expects = append(expects, store.EXPECT().List(gomock.Any(), "acct_a", conversion.Query{From: from, To: to, Limit: conversion.MaxLimit, After: after}).
			Return(conversion.Page{Conversions: all[start:end], HasMore: end < len(all)}, nil))
		last := all[end-1]
		after = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	expects = append(expects, store.EXPECT().Totals(gomock.Any(), "acct_a", from, to, "").
		Return([]conversion.Total{{Kind: conversion.KindLead, Count: len(all)}}, nil))
	gomock.InOrder(expects...)
	r, err := svc.Report(t.Context(), "acct_a", conversion.Query{From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Conversions, all) || r.HasMore {
		t.Errorf("whole report: %d conversions, has more %v; want %d, false", len(r.Conversions), r.HasMore, len(all))
	}
}

// TestReportStoreFails: a failing List or Totals fails the report; a bad query reaches no store.
func TestReportStoreFails(t *testing.T) {
	boom := errors.New("database gone")
	svc, store := mockService(t)
	store.EXPECT().List(gomock.Any(), "acct_a", gomock.Any()).Return(conversion.Page{}, boom)
	if _, err := svc.Report(t.Context(), "acct_a", conversion.Query{Limit: 5}); !errors.Is(err, boom) {
		t.Errorf("List failing: %v, want %v", err, boom)
	}
	store.EXPECT().List(gomock.Any(), "acct_a", gomock.Any()).Return(conversion.Page{}, nil)
	store.EXPECT().Totals(gomock.Any(), "acct_a", gomock.Any(), gomock.Any(), "").Return(nil, boom)
	if _, err := svc.Report(t.Context(), "acct_a", conversion.Query{Limit: 5}); !errors.Is(err, boom) {
		t.Errorf("Totals failing: %v, want %v", err, boom)
	}
	for _, q := range []conversion.Query{{Limit: conversion.MaxLimit + 1}, {Kind: "refund"}, {From: now, To: now}} {
		if _, err := svc.Report(t.Context(), "acct_a", q); err == nil {
			t.Errorf("Report(%+v) passed", q)
		}
	}
}
