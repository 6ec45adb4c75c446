package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/svcagent/svc/domain"
)

// sqlState is an error with a Postgres SQLSTATE, as pgdriver.Error reports one.
type sqlState string

func (s sqlState) Error() string       { return "ERROR: (SQLSTATE=" + string(s) + ")" }
func (s sqlState) Field(k byte) string { return map[byte]string{'C': string(s)}[k] }

// liteError is an error with a SQLite result code, as the driver's *sqlite.Error reports one.
type liteError int

func (e liteError) Error() string { return fmt.Sprintf("sqlite error (%d)", int(e)) }
func (e liteError) Code() int     { return int(e) }

func TestBusy(t *testing.T) {
	tests := []struct {
		name string
		err  error
		busy bool
	}{
		{"SQLITE_BUSY", liteError(5), true},
		{"SQLITE_BUSY, wrapped", fmt.Errorf("insert: %w", liteError(5)), true},
		{"SQLITE_BUSY_SNAPSHOT", liteError(5 | 2<<8), true},
		{"SQLITE_BUSY_TIMEOUT", liteError(5 | 3<<8), true},
		{"the writer gate's timeout", fmt.Errorf("begin: %w", errGateTimeout), true},
		{"SQLITE_ERROR", liteError(1), false},
		{"SQLITE_CONSTRAINT_UNIQUE", liteError(2067), false},
		{"the words alone", errors.New("database is locked"), false},
		{"canceled by the caller", context.Canceled, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantClassified(t, busy, tt.err, tt.busy) })
	}
}

func TestUnavailable(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	reset := &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
	tests := []struct {
		name   string
		err    error
		outage bool
	}{
		{"dial refused", refused, true},
		{"dial refused, wrapped", fmt.Errorf("get key: %w", refused), true},
		{"connection reset", reset, true},
		{"broken pipe", fmt.Errorf("write: %w", syscall.EPIPE), true},
		{"server closed the connection", io.EOF, true},
		{"cut short", io.ErrUnexpectedEOF, true},
		{"bad connection", driver.ErrBadConn, true},
		{"closed connection", net.ErrClosed, true},
		{"i/o timeout", os.ErrDeadlineExceeded, true},
		{"admin shutdown", sqlState("57P01"), true},
		{"crash shutdown", sqlState("57P02"), true},
		{"starting up", sqlState("57P03"), true},
		{"too many connections", sqlState("53300"), true},
		{"connection failure", sqlState("08006"), true},
		{"unique violation", sqlState("23505"), false},
		{"syntax error", sqlState("42601"), false},
		{"NUL in text", sqlState("22021"), false},
		{"statement timeout", sqlState("57014"), false},
		{"SQLite busy (busy's, not a connection's)", liteError(5), false},
		{"canceled by the caller", context.Canceled, false},
		{"not found", domain.NotFound("key"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantClassified(t, unavailable, tt.err, tt.outage) })
	}
}

// wantClassified checks classify's err: a service_unavailable error with a retry, err kept in its
// chain and classified once, when want; err itself unchanged otherwise.
func wantClassified(t *testing.T, classify func(error) error, err error, want bool) {
	t.Helper()
	got := classify(err)
	if !want {
		if got != err { //nolint:errorlint // the same error must come back
			t.Fatalf("%v became %v, want the error unchanged", err, got)
		}
		return
	}
	e, ok := domain.AsError(got)
	if !ok || e.Code != domain.CodeServiceUnavailable || e.RetryAfter <= 0 {
		t.Fatalf("%v became %#v, want service_unavailable with a retry", err, got)
	}
	if !errors.Is(got, err) {
		t.Fatalf("%v lost the original error from the chain", err)
	}
	if classify(got) != got { //nolint:errorlint // classified once
		t.Fatal("classified twice")
	}
}

// loopbackPair returns the two ends of a new TCP connection on loopback.
func loopbackPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	t.Cleanup(func() { _, _ = client.Close(), server.Close() })
	return client, server
}

func TestConnAlive(t *testing.T) {
	client, server := loopbackPair(t)
	if err := connAlive(client); err != nil {
		t.Fatalf("open idle connection: %v, want alive", err)
	}
	if _, err := server.Write([]byte("N")); err != nil {
		t.Fatal(err)
	}
	waitErr(t, client, "unread data")

	client2, server2 := loopbackPair(t)
	_ = server2.Close()
	waitErr(t, client2, "closed by the server")
}

// TestPooledConnAliveAfterReadDeadline: a pooled connection whose last read deadline (set by
// pgdriver before each read) has passed while it was idle is still alive, and is still found
// dead when the server closes it.
func TestPooledConnAliveAfterReadDeadline(t *testing.T) {
	client, server := loopbackPair(t)
	if err := client.SetReadDeadline(time.Now().Add(-time.Second)); err != nil { // as after 10 s idle
		t.Fatal(err)
	}
	if connAlive(client) == nil {
		t.Fatal("connAlive of a connection past its read deadline: nil, want the deadline's error (the check this test is about)")
	}
	if err := client.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := pooledConnAlive(client); err != nil {
		t.Fatalf("open idle connection past its read deadline: %v, want alive", err)
	}
	_ = server.Close()
	deadline := time.Now().Add(5 * time.Second)
	for pooledConnAlive(client) == nil {
		if time.Now().After(deadline) {
			t.Fatal("closed by the server: pooledConnAlive still nil after 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitErr waits (bounded) until connAlive reports c dead: the bytes or the FIN take a moment to
// arrive.
func waitErr(t *testing.T, c net.Conn, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for connAlive(c) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("%s: connAlive still nil after 5 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRefused(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		refused bool
	}{
		{"SQLITE_FULL", liteError(13), true},
		{"SQLITE_FULL, wrapped", fmt.Errorf("insert: %w", liteError(13)), true},
		{"SQLITE_READONLY", liteError(8), true},
		{"SQLITE_READONLY_DBMOVED", liteError(8 | 4<<8), true},
		{"SQLITE_READONLY_DIRECTORY", liteError(8 | 6<<8), true},
		{"SQLITE_BUSY (busy's)", liteError(5), false},
		{"SQLITE_IOERR", liteError(10), false},
		{"SQLITE_CONSTRAINT_UNIQUE", liteError(2067), false},
		{"SQLITE_ERROR", liteError(1), false},
		{"the words alone", errors.New("database or disk is full"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantClassified(t, refused, tt.err, tt.refused) })
	}
}

// TestSQLiteRefusals makes the database file refuse writes as an operator meets it: a disk full
// (max_page_count leaves no room for the pages a write needs: SQLITE_FULL) and a file opened
// read-only (SQLITE_READONLY, what a read-only file, directory or mount gives a process that
// cannot write it; the tests run as root, whom chmod does not stop). A write, a transaction's
// statement and a writing query answer service_unavailable with a retry (503, not a 500 logged as
// an internal error), reads go on, the cause is reported once per refusal in the operator's words,
// and the first write that succeeds reports it back.
func TestSQLiteRefusals(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "refuse.db")
	db, closeDB, err := OpenSQLite(ctx, "sqlite://"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.NewRaw("PRAGMA page_count").Scan(ctx, &pages); err != nil {
		t.Fatal(err)
	}
	closeDB()

	big := strings.Repeat("x", 64<<10)
	for _, tt := range []struct{ name, dsn, cause string }{
		{"disk full", path + "?" + sqliteParams + fmt.Sprintf("&_pragma=max_page_count(%d)", pages+2), "SQLite: disk full"},
		{"read-only", "file:" + path + "?mode=ro&" + sqliteParams, "SQLite: database file is read-only"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGate(newLogCheckpointer())
			sqldb := sql.OpenDB(gatedConnector{drv: sqliteshim.Driver(), dsn: tt.dsn, gate: g, watch: newSQLiteWatch()})
			t.Cleanup(func() { _ = sqldb.Close() })
			db := bun.NewDB(sqldb, sqlitedialect.New())
			var reports []string
			ReportOutages(db, func(cause string, err error) {
				reports = append(reports, fmt.Sprintf("%s: %v", cause, err != nil))
			})

			wantRefused := func(what string, err error) {
				t.Helper()
				e, ok := domain.AsError(err)
				if !ok || e.Code != domain.CodeServiceUnavailable || e.RetryAfter <= 0 {
					t.Fatalf("%s: %v, want service_unavailable with a retry", what, err)
				}
			}
			_, err := db.ExecContext(ctx, "INSERT INTO t VALUES (?)", big)
			wantRefused("insert", err)
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = tx.ExecContext(ctx, "INSERT INTO t VALUES (?)", big)
			wantRefused("insert in a transaction", err)
			_ = tx.Rollback()
			var n int
			err = db.NewRaw("INSERT INTO t VALUES (?) RETURNING 1", big).Scan(ctx, &n)
			wantRefused("insert returning", err)
			if err := db.NewRaw("SELECT count(*) FROM t").Scan(ctx, &n); err != nil {
				t.Fatalf("read: %v", err)
			}
			if len(reports) != 3 || reports[0] != tt.cause+": true" {
				t.Fatalf("reported %q, want %q three times", reports, tt.cause+": true")
			}
		})
	}

	// Room again (no max_page_count): the first write that succeeds reports the cause back.
	g := newGate(newLogCheckpointer())
	sqldb := sql.OpenDB(gatedConnector{drv: sqliteshim.Driver(), dsn: path + "?" + sqliteParams + fmt.Sprintf("&_pragma=max_page_count(%d)", pages+2), gate: g, watch: newSQLiteWatch()})
	t.Cleanup(func() { _ = sqldb.Close() })
	sqldb.SetMaxOpenConns(1) // max_page_count is a connection's: the one connection is raised below
	db = bun.NewDB(sqldb, sqlitedialect.New())
	var back []string
	ReportOutages(db, func(cause string, err error) {
		if err == nil {
			back = append(back, cause)
		}
	})
	if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES (?)", big); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
		t.Fatalf("insert with the disk full: %v", err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA max_page_count = 100000"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES (?)", big); err != nil {
		t.Fatalf("insert with room again: %v", err)
	}
	if len(back) != 2 || back[0] != "SQLite: disk full" {
		t.Fatalf("reported back %q, want both refusals' causes once", back)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES ('y')"); err != nil || len(back) != 2 {
		t.Fatalf("a second write: %v, back reported %d times, want 2", err, len(back))
	}
}
