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
