package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/netconn"
)

// retryAfterOutage is the wait a caller is told when the database cannot be reached: about what
// a restart of Postgres takes.
const retryAfterOutage = 2 * time.Second

// unavailable returns err as a service_unavailable domain error when it says that the database
// cannot be reached (refused or reset connections, a connection that ended, a server shutting
// down or starting up), and err itself otherwise. The original error stays in the chain, so that
// database/sql still recognizes driver.ErrBadConn and discards the connection.
func unavailable(err error) error {
	return classify(err, isOutage, "the database cannot be reached right now; try again shortly")
}

// classify returns err as a service_unavailable domain error saying message when is says so of
// it (and it is not one already), and err itself otherwise.
func classify(err error, is func(error) bool, message string) error {
	if err == nil || !is(err) || domain.ErrorCode(err) == domain.CodeServiceUnavailable {
		return err
	}
	return &domain.Error{Code: domain.CodeServiceUnavailable, Message: message, RetryAfter: retryAfterOutage, Err: err}
}

// busy returns err as a service_unavailable domain error when it says that SQLite's database
// stayed locked past the wait for it (SQLITE_BUSY after the busy timeout: another process, such
// as svcctl or an operator's sqlite3, holds the write lock; or this process's writer gate after
// gateWait), and err itself otherwise. To the caller a locked database is a temporary
// unavailability, as a Postgres that cannot be reached is (unavailable), not a bug: 503 with
// Retry-After, never a 500 logged as an internal error. The original error stays in the chain.
func busy(err error) error {
	return classify(err, isBusy, "the database is busy right now; try again shortly")
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any of its extended codes) or the writer
// gate's timeout.
func isBusy(err error) bool {
	if errors.Is(err, errGateTimeout) {
		return true
	}
	var lite interface{ Code() int }
	return errors.As(err, &lite) && lite.Code()&0xff == sqliteBusy
}

// SQLite's primary result codes SQLITE_BUSY, SQLITE_READONLY and SQLITE_FULL; their extended
// codes keep them in the low byte.
const (
	sqliteBusy     = 5
	sqliteReadonly = 8
	sqliteFull     = 13
)

// refusal names what an error of SQLite says when the database file cannot take writes, in the
// words an operator acts on: "disk full" (SQLITE_FULL: the disk, or a max_page_count, has no room
// for the pages a write needs) or "database file is read-only" (SQLITE_READONLY, any of its
// extended codes: the file, its directory or its mount made read-only, the file opened read-only
// or replaced under the process); "" for any other error. This store never makes a database
// read-only itself, so either is the environment's doing, never a bug of the statement.
func refusal(err error) string {
	var lite interface{ Code() int }
	if err == nil || !errors.As(err, &lite) {
		return ""
	}
	switch lite.Code() & 0xff {
	case sqliteFull:
		return diskFull
	case sqliteReadonly:
		return readOnly
	}
	return ""
}

// The refusals, in the words of the log.
const (
	diskFull = "disk full"
	readOnly = "database file is read-only"
)

// refused returns err as a service_unavailable domain error when the database file cannot take
// writes (refusal), and err itself otherwise.
func refused(err error) error {
	return classify(err, func(err error) bool { return refusal(err) != "" },
		"the database cannot store changes right now; try again later")
}

// Report is told of a cause that failed (err not nil) or works again (err nil), as
// outage.Log.Report is.
type Report func(cause string, err error)

// reporter holds the Report of one kind of outage of a database, set once the program has its
// log.
type reporter struct {
	report  atomic.Pointer[Report]
	failing atomic.Bool // failed was told and worked not since
}

// failed reports a failure of cause.
func (r *reporter) failed(cause string, err error) {
	r.failing.Store(true)
	if f := r.report.Load(); f != nil {
		(*f)(cause, err)
	}
}

// worked reports the end of causes' failures, when failed was told since the last time: on the
// hot path, one atomic load.
func (r *reporter) worked(causes ...string) {
	if !r.failing.Load() || !r.failing.CompareAndSwap(true, false) {
		return
	}
	if f := r.report.Load(); f != nil {
		for _, cause := range causes {
			(*f)(cause, nil)
		}
	}
}

// pgConnects is the cause under which Postgres refusing new connections is reported: the server
// cannot be reached, is at its connection limit (53300, "too many clients" or "too many
// connections for role"), or is shutting down or starting up (57P01–57P03).
const pgConnects = "Postgres: new connections"

// ReportOutages has report told of db's outages that a caller meets as 503 service_unavailable
// and an operator must act on, in the words of their cause (outage.Log writes them: "…: failing",
// "…: still failing" at most once a minute, "…: back"). On SQLite: writes the file refuses,
// "SQLite: disk full" or "SQLite: database file is read-only", back at the first write that
// succeeds. On Postgres: new connections that fail (pgConnects), back at the next one made; the
// error says why ("too many connections for role", "the database system is shutting down",
// "connection refused").
func ReportOutages(db *bun.DB, report Report) {
	switch d := db.DB.Driver().(type) {
	case sqliteDriver:
		d.gate.report.report.Store(&report)
	case extrasDriver:
		d.extras.report.report.Store(&report)
	}
}

// isOutage reports whether err is a failure of the connection to Postgres rather than of the
// statement: the SQL errors a query can cause and a canceled context are not. (SQLite has no
// connection to lose; its locked database is classified by busy.)
func isOutage(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	if e, ok := domain.AsError(err); ok {
		return e.Code == domain.CodeServiceUnavailable
	}
	var sqlState interface{ Field(byte) string }
	if errors.As(err, &sqlState) {
		return outageState(sqlState.Field('C'))
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) {
		return true
	}
	var nerr net.Error
	return errors.As(err, &nerr)
}

// outageState reports whether a Postgres SQLSTATE says that the server cannot serve the
// connection: class 08 (connection exception), 53300 (too many connections), 57P01–57P03 (the
// server is shutting down, crashed or is starting up).
func outageState(code string) bool {
	switch code {
	case "53300", "57P01", "57P02", "57P03":
		return true
	}
	return strings.HasPrefix(code, "08")
}

// outageConnector is a driver.Connector that turns the connection-level failures of the one it
// wraps (pgdriver's) into service_unavailable errors, so that every repository reports an outage
// the same way without a check of its own.
type outageConnector struct {
	driver.Connector
	extras *pgExtras // what the main pool's repositories share (pgExtrasOf); nil on other pools
	report *reporter // of failed connections (pgConnects): the main pool's extras' own
}

// pgExtras is what the repositories of one Postgres database share beside its pool: the pool
// whose commits do not wait for the WAL flush (lazyPool) and the watch of changes to keys and
// accounts (keyWatchOf).
type pgExtras struct {
	lazy   *sql.DB    // nil when the database URL sets synchronous_commit itself
	auth   *authWatch // never nil
	report reporter   // of the database's outages (ReportOutages)
}

// Driver is the wrapped connector's driver, carrying the extras when there are any, so that a
// repository finds them from its bun.DB (pgExtrasOf).
func (c outageConnector) Driver() driver.Driver {
	if c.extras == nil {
		return c.Connector.Driver()
	}
	return extrasDriver{Driver: c.Connector.Driver(), extras: c.extras}
}

// extrasDriver is the driver of a Postgres pool with its extras.
type extrasDriver struct {
	driver.Driver
	extras *pgExtras
}

// pgExtrasOf returns the extras of db's database; nil on SQLite.
func pgExtrasOf(db *bun.DB) *pgExtras {
	if d, ok := db.DB.Driver().(extrasDriver); ok {
		return d.extras
	}
	return nil
}

// lazyPool returns the pool of db's database whose sessions commit with synchronous_commit off,
// or nil when there is none (SQLite; a database URL that sets synchronous_commit itself).
func lazyPool(db *bun.DB) *sql.DB {
	if x := pgExtrasOf(db); x != nil {
		return x.lazy
	}
	return nil
}

// close closes the extras.
func (x *pgExtras) close() {
	if x.lazy != nil {
		_ = x.lazy.Close()
	}
	x.auth.close()
}

func (c outageConnector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := c.Connector.Connect(ctx)
	if err != nil {
		err = unavailable(err)
		if domain.ErrorCode(err) == domain.CodeServiceUnavailable {
			c.report.failed(pgConnects, err)
		}
		return nil, err
	}
	c.report.worked(pgConnects)
	pc, ok := cn.(*pgdriver.Conn)
	if !ok {
		return cn, nil
	}
	return outageConn{pc}, nil
}

// outageConn is a pgdriver connection whose failures are classified by unavailable.
type outageConn struct{ *pgdriver.Conn }

func (c outageConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.Conn.PrepareContext(ctx, query)
	if err != nil {
		closeIfLost(c.Conn, err)
		return nil, unavailable(err)
	}
	return outageStmt{Stmt: st, cn: c.Conn}, nil
}

func (c outageConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil {
		return nil, unavailable(err)
	}
	return outageTx{tx}, nil
}

func (c outageConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	res, err := c.Conn.ExecContext(ctx, query, args)
	return res, unavailable(err)
}

func (c outageConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.Conn.QueryContext(ctx, query, args)
	if err != nil {
		return nil, unavailable(err)
	}
	return outageRows{rows}, nil
}

func (c outageConn) Ping(ctx context.Context) error { return unavailable(c.Conn.Ping(ctx)) }

type outageTx struct{ driver.Tx }

func (t outageTx) Commit() error   { return unavailable(t.Tx.Commit()) }
func (t outageTx) Rollback() error { return unavailable(t.Tx.Rollback()) }

// outageStmt is a prepared statement of an outageConn (pgdriver's statements do the context
// variants).
type outageStmt struct {
	driver.Stmt
	cn *pgdriver.Conn
}

func (s outageStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	res, err := s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
	closeIfLost(s.cn, err)
	return res, unavailable(err)
}

func (s outageStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		closeIfLost(s.cn, err)
		return nil, unavailable(err)
	}
	return outageRows{rows}, nil
}

func (s outageStmt) Close() error {
	err := s.Stmt.Close()
	closeIfLost(s.cn, err)
	return err
}

// closeIfLost closes cn when err leaves it out of step with the server: a network error or a
// timeout, after which the server's answer may still be on its way, or a fatal error (pgdriver's
// own rule for its unprepared queries, which it applies itself). pgdriver does not for a
// statement's preparation, execution or closing, and a connection left open would hand the late
// answer to the next query run on it (after a stall: "query returned 22 columns, but Scan dest
// has 12 items"). Closed, the pool drops it (its ResetSession and IsValid say so). An error the
// server answered in step (a constraint, a bad value) keeps the connection.
func closeIfLost(cn *pgdriver.Conn, err error) {
	if err == nil {
		return
	}
	var pe pgdriver.Error
	if errors.As(err, &pe) {
		switch {
		case pe.Field('V') == "FATAL", pe.Field('V') == "PANIC",
			pe.Field('C') == "25P02", pe.Field('C') == "57014": // as pgdriver's isBadConn
		default:
			return
		}
	}
	_ = cn.Close()
}

// outageRows classifies a failure while the rows are read; io.EOF, the end of the rows, stays as
// it is.
type outageRows struct{ driver.Rows }

func (r outageRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err == io.EOF { //nolint:errorlint // database/sql compares with io.EOF itself
		return err
	}
	return unavailable(err)
}

// dropDeadConn is pgdriver's ResetSessionFunc: before a pooled connection is used again, it
// checks that the server has not closed it meanwhile (a restart, a proxy that dropped it), so
// that the first query after an outage runs on a new connection instead of failing on the old
// one.
func dropDeadConn(_ context.Context, cn *pgdriver.Conn) error {
	if err := pooledConnAlive(cn.Conn()); err != nil {
		return driver.ErrBadConn
	}
	return nil
}

// pooledConnAlive is connAlive for a pooled Postgres connection (one whose last query ended in
// step with the server: a connection a failed read left out of step is closed, by pgdriver or by
// closeIfLost, and never reaches this check). pgdriver sets the socket's read
// deadline before each of its reads (its ReadTimeout, 10 s, or the query's context) and leaves it
// there, so a connection idle for longer has a deadline in the past, and a read then fails with
// a timeout without looking at the socket: every connection of the pool idle for over 10 s was
// taken for dead and replaced by a new one (a backend started and authenticated) just when
// requests came back after a quiet spell. The deadline is cleared first: pgdriver sets its own
// again before it reads.
func pooledConnAlive(c net.Conn) error {
	_ = c.SetReadDeadline(time.Time{})
	return connAlive(c)
}

// connAlive reads from an idle connection without blocking (netconn.Alive).
var connAlive = netconn.Alive
