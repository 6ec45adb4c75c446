package store

import (
	"context"
	"database/sql/driver"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/svcagent/svc/internal/testenv"
)

// TestPreparedStatementLostClosesConn: a prepared statement whose answer did not come in time
// (the read deadline passed while the server was still working) leaves its connection out of step
// with the server, so the connection is closed and the pool drops it, as pgdriver does itself
// for its unprepared queries: reused, it would hand the late answer to the next query (after a
// stall, "query returned 22 columns, but Scan dest has 12 items"). An error the server answered
// in step (a division by zero) keeps the connection, which then answers the next query.
func TestPreparedStatementLostClosesConn(t *testing.T) {
	url := testenv.Postgres(t)
	ctx := context.Background()
	connect := func() outageConn {
		t.Helper()
		c := outageConnector{Connector: pgdriver.NewConnector(pgdriver.WithDSN(url), pgdriver.WithResetSessionFunc(dropDeadConn)), report: &reporter{}}
		cn, err := c.Connect(ctx)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		oc, ok := cn.(outageConn)
		if !ok {
			t.Fatalf("connect: %T, want outageConn", cn)
		}
		t.Cleanup(func() { _ = oc.Close() })
		return oc
	}

	t.Run("timed out", func(t *testing.T) {
		oc := connect()
		st, err := oc.PrepareContext(ctx, "SELECT pg_sleep(0.5)")
		if err != nil {
			t.Fatalf("prepare: %v", err)
		}
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := st.(driver.StmtExecContext).ExecContext(short, nil); err == nil {
			t.Fatal("a statement of 0.5 s answered within 50 ms")
		}
		if oc.IsValid() {
			t.Error("the connection whose statement timed out is still valid: the pool would use it again")
		}
		if err := oc.ResetSession(ctx); err == nil {
			t.Error("ResetSession of the connection whose statement timed out: nil, want driver.ErrBadConn")
		}
	})

	t.Run("answered in step", func(t *testing.T) {
		oc := connect()
		st, err := oc.PrepareContext(ctx, "SELECT 1 / $1::int")
		if err != nil {
			t.Fatalf("prepare: %v", err)
		}
		if _, err := st.(driver.StmtExecContext).ExecContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: int64(0)}}); err == nil {
			t.Fatal("1 / 0 answered without an error")
		}
		if !oc.IsValid() {
			t.Fatal("a connection whose statement the server refused in step was closed")
		}
		rows, err := st.(driver.StmtQueryContext).QueryContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: int64(1)}})
		if err != nil {
			t.Fatalf("the same statement again: %v", err)
		}
		dest := make([]driver.Value, 1)
		if err := rows.Next(dest); err != nil {
			t.Fatalf("its row: %v", err)
		}
		_ = rows.Close()
		if got, ok := dest[0].(int64); !ok || got != 1 {
			t.Errorf("1 / 1 = %v (%T), want 1", dest[0], dest[0])
		}
	})
}
