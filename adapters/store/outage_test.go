package store_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/testenv"
)

// TestPostgresOutage opens the store through a proxy to Postgres and cuts it, which is what a
// restart of Postgres looks like to the pool. A quick restart while the pool is idle costs no
// query: the pooled connections the server closed are dropped before use. During a longer one
// every query fails with service_unavailable (never an unclassified error), and once the proxy
// accepts again the very first query succeeds.
func TestPostgresOutage(t *testing.T) {
	dbURL := testenv.Postgres(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewProxy(t, u.Host)
	u.Host = proxy.Addr()
	db := newDB(t, u.String())
	ping := store.NewPinger(db)
	ctx := context.Background()

	const conns = 4
	fillPool(t, db, conns)
	proxy.Cut()
	proxy.Restore()
	var n int
	for i := range conns + 2 {
		if err := db.NewSelect().ColumnExpr("1").Scan(ctx, &n); err != nil || n != 1 {
			t.Fatalf("select %d after a quick restart with %d idle connections: %d, %v", i+1, conns, n, err)
		}
	}

	fillPool(t, db, conns)
	proxy.Cut()
	for i := range 3 {
		err := ping.Ping(ctx)
		if domain.ErrorCode(err) != domain.CodeServiceUnavailable {
			t.Fatalf("query %d with the database cut: %v, want service_unavailable", i+1, err)
		}
		e, _ := domain.AsError(err)
		if e.RetryAfter <= 0 || e.RetryAfter > 10*time.Second {
			t.Errorf("retry after %v", e.RetryAfter)
		}
	}
	if err := db.NewSelect().ColumnExpr("1").Scan(ctx, &n); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
		t.Fatalf("select with the database cut: %v, want service_unavailable", err)
	}
	if _, err := db.BeginTx(ctx, nil); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
		t.Fatalf("begin with the database cut: %v, want service_unavailable", err)
	}

	proxy.Restore()
	for i := range conns + 2 {
		if err := ping.Ping(ctx); err != nil {
			t.Fatalf("query %d after the database returned: %v, want success at once", i+1, err)
		}
		if err := db.NewSelect().ColumnExpr("1").Scan(ctx, &n); err != nil || n != 1 {
			t.Fatalf("select %d after the database returned: %d, %v", i+1, n, err)
		}
	}
}

// fillPool leaves n idle connections in db's pool.
func fillPool(t *testing.T, db *bun.DB, n int) {
	t.Helper()
	txs := make([]bun.Tx, n)
	for i := range txs {
		tx, err := db.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		txs[i] = tx
	}
	for _, tx := range txs {
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
	}
	if idle := db.Stats().Idle; idle < n {
		t.Fatalf("%d idle connections in the pool, want %d", idle, n)
	}
}
