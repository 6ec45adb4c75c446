package store_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/internal/testenv"
)

// TestChargesGroupedPostgres charges several accounts from many goroutines at once on Postgres,
// outside a transaction (the relay's holds), so that the charges waiting for a writer are written
// in groups (pghold.go): fewer transactions than charges, and the counters exact. The accounts'
// limits leave room for some of their charges only, and one account's period has no counter yet.
func TestChargesGroupedPostgres(t *testing.T) {
	db := newDB(t, testenv.Postgres(t))
	ctx := t.Context()
	u := store.NewUsage(db)
	period := ledger.PeriodAt(holdsAt)
	const perAccount = 40
	limits := map[string]int{"acct_a": 1000, "acct_b": 25, "acct_c": 7, "acct_d": 30}
	for id, limit := range limits {
		createAccount(t, db, id, holdsAt)
		if id != "acct_d" { // acct_d's period opens with its first charge
			if _, ok, err := u.Charge(ctx, chargeOf("chg_"+id+"_open", id, 1), period, limit); err != nil || !ok {
				t.Fatalf("opening charge of %s: %t, %v", id, ok, err)
			}
		}
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		charged = map[string]map[int]bool{}
		start   = make(chan struct{})
	)
	for id, limit := range limits {
		charged[id] = map[int]bool{}
		for i := range perAccount {
			wg.Go(func() {
				<-start
				spent, ok, err := u.Charge(ctx, chargeOf(fmt.Sprintf("chg_%s_%02d", id, i), id, 1), period, limit)
				if err != nil {
					t.Errorf("Charge: %v", err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if ok && charged[id][spent] {
					t.Errorf("%s: two charges with the counter at %d after them", id, spent)
				}
				if ok {
					charged[id][spent] = true
				}
			})
		}
	}
	close(start)
	wg.Wait()
	for id, limit := range limits {
		opened := 1
		if id == "acct_d" {
			opened = 0
		}
		want := min(limit, opened+perAccount)
		if got, err := u.Spent(ctx, id, period); err != nil || got != want {
			t.Errorf("Spent(%s) = %d, %v; want %d", id, got, err, want)
		}
		if n := len(charged[id]); n != want-opened {
			t.Errorf("%s: %d charges went through; want %d", id, n, want-opened)
		}
		for v := opened + 1; v <= want; v++ {
			if !charged[id][v] {
				t.Errorf("%s: no charge reported the counter at %d", id, v)
			}
		}
		var rows int
		if err := db.NewRaw("SELECT count(*) FROM charges WHERE account_id = ?", id).Scan(ctx, &rows); err != nil || rows != want {
			t.Errorf("%s: %d charge rows, %v; want %d", id, rows, err, want)
		}
	}
	var charges, txs int
	if err := db.NewRaw("SELECT count(*), count(DISTINCT xmin::text) FROM charges").Scan(ctx, &charges, &txs); err != nil {
		t.Fatal(err)
	}
	if txs >= charges {
		t.Errorf("%d charges in %d transactions; want groups of several", charges, txs)
	}
	t.Logf("%d charges in %d transactions", charges, txs)
}

// TestChargesGroupedAlone checks that with every writer free the grouping changes nothing: a
// charge made alone is its own transaction.
func TestChargesGroupedAlone(t *testing.T) {
	db := newDB(t, testenv.Postgres(t))
	ctx := t.Context()
	u := store.NewUsage(db)
	createAccount(t, db, "acct_a", holdsAt)
	period := ledger.PeriodAt(holdsAt)
	for i := range 3 {
		spent, ok, err := u.Charge(ctx, chargeOf(fmt.Sprintf("chg_%d", i), "acct_a", 2), period, 5)
		if want := min(2*(i+1), 4); err != nil || ok != (i < 2) || spent != want {
			t.Errorf("Charge #%d = %d, %t, %v; want %d, %t", i, spent, ok, err, want, i < 2)
		}
	}
	var charges, txs int
	if err := db.NewRaw("SELECT count(*), count(DISTINCT xmin::text) FROM charges").Scan(ctx, &charges, &txs); err != nil || charges != 2 || txs != 2 {
		t.Errorf("%d charges in %d transactions, %v; want 2 in 2", charges, txs, err)
	}
}

// holdsAt is when the charges of these tests are made.
var holdsAt = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// chargeOf is a relay's hold of cost for account acct.
func chargeOf(id, acct string, cost int) ledger.Charge {
	return ledger.Charge{ID: id, AccountID: acct, Action: ledger.ModelReply, Cost: cost, Ref: "chatcmpl_" + id,
		Labels: ledger.Labels{Source: "n8n", Workflow: `say "hi" \ there`, ExecutionID: "ex_" + id}, At: holdsAt}
}
