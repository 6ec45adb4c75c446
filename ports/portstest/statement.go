package portstest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/ledger"
)

// testUsageStatement checks the usage statement: charges grouped by action and labels within
// [from, to), ordered, and scoped to the account.
func testUsageStatement(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	period := ledger.PeriodAt(t0)
	n8n := ledger.Labels{Source: "n8n", Workflow: "Orders", WorkflowID: "wf_1", ExecutionID: "ex_1"}
	zapier := ledger.Labels{Source: "zapier"}
	charges := []struct {
		account string
		action  ledger.Action
		cost    int
		labels  ledger.Labels
		at      time.Time
	}{
		{"acct_a", ledger.ModelReply, 1, n8n, period.Start},                        // the first instant is in
		{"acct_a", ledger.ModelReply, 1, n8n, t0},                                  // same group
		{"acct_a", ledger.ModelReply, 1, zapier, t0},                               // other labels
		{"acct_a", ledger.Embeddings, 1, n8n, t0},                                  // other action
		{"acct_a", ledger.ChatReply, 1, ledger.Labels{}, t0},                       // no labels
		{"acct_a", ledger.Approval, 0, ledger.Labels{}, t0},                        // free: counted, costs 0
		{"acct_a", ledger.ModelReply, 1, n8n, period.End},                          // the end is out
		{"acct_a", ledger.ModelReply, 1, n8n, period.Start.Add(-time.Microsecond)}, // before
		{"acct_b", ledger.ModelReply, 1, n8n, t0},                                  // another account
	}
	for i, c := range charges {
		ch := ledger.Charge{ID: fmt.Sprintf("chg_st_%d", i), AccountID: c.account, Action: c.action, Cost: c.cost,
			Ref: "ref", Labels: c.labels, At: c.at}
		if _, ok, err := s.Usage.Charge(ctx, ch, ledger.PeriodAt(c.at), 1000); err != nil || !ok {
			t.Fatalf("charge %d: %t, %v", i, ok, err)
		}
	}
	got, err := s.Usage.Statement(ctx, "acct_a", period.Start, period.End)
	if err != nil {
		t.Fatal(err)
	}
	want := []ledger.Line{
		{Action: ledger.Approval, Requests: 1, Interactions: 0},
		{Action: ledger.ChatReply, Requests: 1, Interactions: 1},
		{Action: ledger.Embeddings, Labels: n8n, Requests: 1, Interactions: 1},
		{Action: ledger.ModelReply, Labels: n8n, Requests: 2, Interactions: 2},
		{Action: ledger.ModelReply, Labels: zapier, Requests: 1, Interactions: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Statement:\n got %+v\nwant %+v", got, want)
	}
	if got, err := s.Usage.Statement(ctx, "acct_b", period.Start, period.End); err != nil || len(got) != 1 || got[0].Requests != 1 {
		t.Errorf("another account: %+v, %v", got, err)
	}
	if got, err := s.Usage.Statement(ctx, "acct_none", period.Start, period.End); err != nil || got == nil || len(got) != 0 {
		t.Errorf("no charges: %#v, %v; want an empty list", got, err)
	}
}

// testRefund checks that a refund takes the charge off the statement and its cost off the
// counter, once, and only for the charge's own account.
func testRefund(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	period := ledger.PeriodAt(t0)
	for i, id := range []string{"chg_r1", "chg_r2"} {
		ch := ledger.Charge{ID: id, AccountID: "acct_a", Action: ledger.ModelReply, Cost: 1, Ref: fmt.Sprint("ref", i), At: t0}
		if _, ok, err := s.Usage.Charge(ctx, ch, period, 2); err != nil || !ok {
			t.Fatalf("charge %s: %t, %v", id, ok, err)
		}
	}
	check := func(name string, wantSpent, wantRequests int) {
		t.Helper()
		spent, err := s.Usage.Spent(ctx, "acct_a", period)
		if err != nil || spent != wantSpent {
			t.Errorf("%s: spent %d, %v; want %d", name, spent, err, wantSpent)
		}
		lines, err := s.Usage.Statement(ctx, "acct_a", period.Start, period.End)
		requests := 0
		for _, l := range lines {
			requests += l.Requests
		}
		if err != nil || requests != wantRequests {
			t.Errorf("%s: statement %+v, %v; want %d requests", name, lines, err, wantRequests)
		}
	}
	check("before", 2, 2)
	if err := s.Usage.Refund(ctx, "acct_b", "chg_r1"); err != nil {
		t.Fatalf("Refund by another account: %v", err)
	}
	check("refund by another account", 2, 2)
	if err := s.Usage.Refund(ctx, "acct_a", "chg_r1"); err != nil {
		t.Fatalf("Refund: %v", err)
	}
	check("refunded", 1, 1)
	if err := s.Usage.Refund(ctx, "acct_a", "chg_r1"); err != nil {
		t.Fatalf("second Refund: %v", err)
	}
	check("refunded twice", 1, 1)
	if err := s.Usage.Refund(ctx, "acct_a", "chg_none"); err != nil {
		t.Fatalf("Refund of no charge: %v", err)
	}
	// What was given back can be spent again, within the limit.
	ch := ledger.Charge{ID: "chg_r3", AccountID: "acct_a", Action: ledger.ModelReply, Cost: 1, At: t0}
	if spent, ok, err := s.Usage.Charge(ctx, ch, period, 2); err != nil || !ok || spent != 2 {
		t.Fatalf("charge after the refund: %d, %t, %v; want 2, true", spent, ok, err)
	}
}

// testUsageDaily checks the per-day read of the ledger: the cost of the charges of every action
// (the agent's replies, with the built-in engine or an upstream model, and the model endpoints
// alike) summed per UTC day of the period, the period's bounds and midnight respected, refunds
// taken off, days without charges left out, and scoped to the account.
func testUsageDaily(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	period := ledger.PeriodAt(t0) // March 2026
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	charges := []struct {
		account string
		action  ledger.Action
		cost    int
		at      time.Time
	}{
		{"acct_a", ledger.ChatReply, 1, period.Start},                                 // the first instant is in
		{"acct_a", ledger.ModelReply, 2, day(1).Add(24*time.Hour - time.Microsecond)}, // the day's last instant
		{"acct_a", ledger.ChatReply, 1, day(2)},                                       // the next day's first
		{"acct_a", ledger.Embeddings, 1, day(2).Add(12 * time.Hour)},
		{"acct_a", ledger.Approval, 0, day(2).Add(13 * time.Hour)}, // free: nothing added
		{"acct_a", ledger.ChatReply, 1, t0},                        // the 14th
		{"acct_a", ledger.ChatReply, 1, t0.Add(time.Minute)},       // refunded below
		{"acct_a", ledger.ChatReply, 1, period.End},                // the end is out
		{"acct_a", ledger.ChatReply, 1, period.Start.Add(-time.Microsecond)},
		{"acct_b", ledger.ChatReply, 5, t0}, // another account
	}
	for i, c := range charges {
		ch := ledger.Charge{ID: fmt.Sprintf("chg_day_%d", i), AccountID: c.account, Action: c.action, Cost: c.cost,
			Ref: "ref", At: c.at}
		if _, ok, err := s.Usage.Charge(ctx, ch, ledger.PeriodAt(c.at), 1000); err != nil || !ok {
			t.Fatalf("charge %d: %t, %v", i, ok, err)
		}
	}
	if err := s.Usage.Refund(ctx, "acct_a", "chg_day_6"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Usage.Daily(ctx, "acct_a", period)
	if err != nil {
		t.Fatal(err)
	}
	want := []ledger.Day{{Date: day(1), Interactions: 3}, {Date: day(2), Interactions: 2}, {Date: day(14), Interactions: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Daily:\n got %+v\nwant %+v", got, want)
	}
	for _, d := range got {
		if d.Date.Location() != time.UTC {
			t.Errorf("day %v is not in UTC", d.Date)
		}
	}
	spent, err := s.Usage.Spent(ctx, "acct_a", period)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range got {
		sum += d.Interactions
	}
	if sum != spent {
		t.Errorf("the days add up to %d, the period's counter says %d", sum, spent)
	}
	if got, err := s.Usage.Daily(ctx, "acct_b", period); err != nil || !reflect.DeepEqual(got, []ledger.Day{{Date: day(14), Interactions: 5}}) {
		t.Errorf("another account: %+v, %v", got, err)
	}
	if got, err := s.Usage.Daily(ctx, "acct_none", period); err != nil || len(got) != 0 {
		t.Errorf("no charges: %+v, %v; want none", got, err)
	}
}
