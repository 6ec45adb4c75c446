package store_test

import (
	"context"
	"database/sql"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/driver/sqliteshim"

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

// TestSQLiteBusy holds the SQLite file with another connection's BEGIN EXCLUSIVE (what svcctl or
// an operator's sqlite3 may do) past the store's busy timeout: a write, a transaction and a
// writing query fail with service_unavailable and a retry (a 503 with Retry-After, not a 500),
// reads go on, and once the lock is let go the same writes succeed.
func TestSQLiteBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	ctx := context.Background()
	db, closeDB, err := store.OpenSQLite(ctx, "sqlite://"+path+"?_pragma=busy_timeout(100)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeDB)
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (x INTEGER)"); err != nil {
		t.Fatal(err)
	}

	other, err := sql.Open(sqliteshim.ShimName, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	hold, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}

	wantBusy := func(what string, err error) {
		t.Helper()
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeServiceUnavailable || e.RetryAfter <= 0 {
			t.Fatalf("%s with the database locked: %v, want service_unavailable with a retry", what, err)
		}
	}
	_, err = db.ExecContext(ctx, "INSERT INTO t VALUES (1)")
	wantBusy("insert", err)
	_, err = db.BeginTx(ctx, nil)
	wantBusy("begin", err)
	var n int
	err = db.NewRaw("INSERT INTO t VALUES (2) RETURNING x").Scan(ctx, &n)
	wantBusy("insert returning", err)
	if err := db.NewSelect().ColumnExpr("count(*)").TableExpr("t").Scan(ctx, &n); err != nil || n != 0 {
		t.Fatalf("read with the database locked: %d, %v", n, err)
	}

	if _, err := hold.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES (1)"); err != nil {
		t.Fatalf("insert after the lock was let go: %v", err)
	}
	if err := db.NewRaw("INSERT INTO t VALUES (2) RETURNING x").Scan(ctx, &n); err != nil || n != 2 {
		t.Fatalf("insert returning after the lock was let go: %d, %v", n, err)
	}
}

// TestPostgresRefusesConnections meets Postgres refusing the pool's connections as an operator
// does: a role at its connection limit (53300, what "too many clients" is too) and connections
// terminated by an administrator (57P01, as at a fast shutdown). A call that needs a new
// connection answers service_unavailable with a retry, the refusal is reported with the server's
// words, and the next connection made reports it back; a query whose connection is terminated
// answers service_unavailable, and the idle connections terminated with it are dropped before
// use.
func TestPostgresRefusesConnections(t *testing.T) {
	dbURL := testenv.Postgres(t)
	ctx := context.Background()
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dbURL)))
	t.Cleanup(func() { _ = admin.Close() })
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	role := "svc_limited_" + strings.TrimPrefix(path.Base(u.Path), "svc_test_") // the test database's own
	if _, err := admin.ExecContext(ctx, "CREATE ROLE "+role+" LOGIN CONNECTION LIMIT 2"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.ExecContext(context.Background(), "DROP ROLE IF EXISTS "+role) })
	u.User = url.User(role)
	db, closeDB, err := store.OpenPostgres(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeDB)
	var mu sync.Mutex
	var reports []string
	store.ReportOutages(db, func(cause string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			reports = append(reports, cause+": "+err.Error())
		} else {
			reports = append(reports, cause+": back")
		}
	})
	reported := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reports)
	}

	var txs []bun.Tx
	for range 2 {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	_, err = db.BeginTx(ctx, nil)
	if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeServiceUnavailable || e.RetryAfter <= 0 {
		t.Fatalf("begin past the role's connection limit: %v, want service_unavailable with a retry", err)
	}
	if r := reported(); len(r) != 1 || !strings.HasPrefix(r[0], "Postgres: new connections: ") ||
		!strings.Contains(r[0], "too many connections") || !strings.Contains(r[0], "53300") {
		t.Fatalf("reported %q, want the refused connection with the server's words", r)
	}
	for _, tx := range txs {
		_ = tx.Rollback()
	}
	// Free one of the two connections for good: the next call makes a new one.
	db.SetMaxIdleConns(1)
	db.SetMaxIdleConns(2)
	// Terminate the idle connections, and wait until their backends are gone: until then they
	// count against the role's limit.
	backends := func(query string) int {
		t.Helper()
		var n int
		if err := admin.QueryRowContext(ctx, query, role).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10 s for %s", what)
			}
		}
	}
	_ = backends("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = $1")
	wait("the terminated backends to end", func() bool {
		return backends("SELECT count(*) FROM pg_stat_activity WHERE usename = $1") == 0
	})

	done := make(chan error, 1)
	go func() { _, err := db.ExecContext(ctx, "SELECT pg_sleep(10)"); done <- err }()
	wait("the sleeping query to be terminated", func() bool {
		return backends("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = $1 AND query LIKE 'SELECT pg_sleep%'") > 0
	})
	wait("the terminated backend to end", func() bool {
		return backends("SELECT count(*) FROM pg_stat_activity WHERE usename = $1 AND query LIKE 'SELECT pg_sleep%'") == 0
	})
	if err := <-done; domain.ErrorCode(err) != domain.CodeServiceUnavailable || !strings.Contains(err.Error(), "57P01") {
		t.Fatalf("query terminated by an administrator: %v, want service_unavailable (57P01)", err)
	}
	var n int
	for i := range 3 {
		if err := db.NewSelect().ColumnExpr("1").Scan(ctx, &n); err != nil {
			t.Fatalf("select %d after the connections were terminated: %v", i+1, err)
		}
	}
	if r := reported(); len(r) != 2 || r[1] != "Postgres: new connections: back" {
		t.Fatalf("reported %q, want the refusal and then its end", r)
	}
}
