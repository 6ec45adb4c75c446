package store

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

func TestWrites(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  bool
	}{
		{"SELECT 1", false},
		{"  select * from keys", false},
		{"(SELECT 1) UNION (SELECT 2)", false},
		{"PRAGMA journal_mode", false},
		{"EXPLAIN QUERY PLAN SELECT 1", false},
		{"INSERT INTO t VALUES (1)", true},
		{"update t set a = 1", true},
		{"DELETE FROM t", true},
		{"WITH c AS (UPDATE t SET n = n + 1 RETURNING n) SELECT n FROM c", true},
		{"CREATE TABLE t (a)", true},
		{"", true},
		{"BEGIN", true},
	} {
		if got := writes(tt.query); got != tt.want {
			t.Errorf("writes(%q) = %t, want %t", tt.query, got, tt.want)
		}
	}
}

// TestChargeOnConnectionOlderThanTables charges on a connection that last read the schema before
// the migrations made the tables on other connections: charge_hold's trigger names them, and
// SQLite does not read the schema again for a table missing from a trigger, so preparing the
// charge must (staleSchema).
func TestChargeOnConnectionOlderThanTables(t *testing.T) {
	ctx := t.Context()
	db, closeDB, err := Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "svc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	stale, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	if _, err := stale.ExecContext(ctx, "SELECT count(*) FROM sqlite_schema"); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db); err != nil { // on the pool's other connections, stale being held
		t.Fatal(err)
	}
	stmt, err := stale.PrepareContext(ctx, sqliteHold)
	if err != nil {
		t.Fatalf("prepare the charge: %v", err)
	}
	defer stmt.Close()
	at := sqliteTime(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	var spent sql.NullInt64
	var ok bool
	err = stmt.QueryRowContext(ctx, 1, "acct_a", at, 10, "chg_1", "chat_reply", "", "", "", "", "", at).Scan(&spent, &ok)
	if err != nil || spent.Valid || ok {
		t.Errorf("charge without a period = %v, %t, %v; want NULL, false, nil", spent, ok, err)
	}
}
