package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"time"
)

// SQLite lets one connection write at a time. Left to itself, a connection that wants to write
// while another writes waits in SQLite's busy handler, which sleeps (1, 2, 5, 10 … 100 ms) and
// tries again: under concurrent writes most of the time goes to those sleeps, not to work. The
// writer gate makes this process's writers take turns in Go instead: a transaction holds the gate
// from BEGIN (IMMEDIATE: it takes SQLite's write lock at once) to COMMIT or ROLLBACK, and a write
// statement outside a transaction holds it while it runs, so SQLite never sees two of this
// process's writers at once and the next writer starts the moment the last one ends. Reads
// outside a transaction never take it: in WAL mode they run beside the writer. Another process
// (svcctl) still meets the busy timeout, as before.

// gateWait bounds how long a writer waits for its turn, like the busy timeout it replaces.
const gateWait = 10 * time.Second

// errGateTimeout is the error of a writer that waited gateWait for its turn.
var errGateTimeout = errors.New("store: database is busy: waited 10s for the writer's turn")

// gate is the turn of this process's one SQLite writer.
type gate struct {
	turn chan struct{}
	log  *logCheckpointer // told of every write

	report reporter // the operator's log of refused writes (ReportOutages)
}

// failed classifies err of a statement: a database locked past the wait (busy) or one whose file
// cannot take writes (refused, reported to the operator as the cause "SQLite: disk full" or
// "SQLite: database file is read-only") is service_unavailable; any other error stays as it is.
func (g *gate) failed(err error) error {
	if err == nil {
		return nil
	}
	cause := refusal(err)
	if cause == "" {
		return busy(err)
	}
	g.report.failed(refusalCause(cause), err)
	return refused(err)
}

// written classifies err of a write that ended (failed); one that succeeded ends the refusal
// reported, if any.
func (g *gate) written(err error) error {
	if err != nil {
		return g.failed(err)
	}
	g.report.worked(refusalCauses[:]...)
	return nil
}

// refusalCauses are the causes of refusal as reported.
var refusalCauses = [...]string{refusalCause(diskFull), refusalCause(readOnly)}

// refusalCause is the cause a refusal is reported as.
func refusalCause(refusal string) string { return "SQLite: " + refusal }

func newGate(log *logCheckpointer) *gate { return &gate{turn: make(chan struct{}, 1), log: log} }

// enter waits for the turn, at most gateWait and as long as ctx lasts.
func (g *gate) enter(ctx context.Context) error {
	select {
	case g.turn <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(gateWait)
	defer t.Stop()
	select {
	case g.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errGateTimeout
	}
}

// leave ends the turn of a writer.
func (g *gate) leave() {
	<-g.turn
	g.log.written()
}

// writes reports whether query may write: anything but a SELECT (or a PRAGMA or EXPLAIN, which
// this store only reads with). A CTE (WITH) is taken for a write, as it may end in one.
func writes(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	if len(q) < 7 {
		return true
	}
	switch strings.ToUpper(q[:6]) {
	case "SELECT", "PRAGMA":
		return false
	}
	return !strings.EqualFold(q[:7], "EXPLAIN")
}

// gatedConnector opens SQLite connections whose writers take turns through one gate.
type gatedConnector struct {
	drv   driver.Driver
	dsn   string
	gate  *gate
	watch *sqliteWatch // the changes to keys and accounts (keyWatchOf)
}

func (c gatedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	gc, err := newGatedConn(conn, c.gate)
	if err != nil {
		return nil, err
	}
	// The connection's own (TEMP) objects: they write nothing to the database file, so they
	// neither take the gate nor need the schema to exist yet.
	for _, q := range connectionSchema {
		if _, err := gc.sqliteConn.ExecContext(ctx, q, nil); err != nil {
			_ = gc.Close()
			return nil, err
		}
	}
	return gc, nil
}

// Driver is the SQLite driver, carrying the watch (keyWatchOf).
func (c gatedConnector) Driver() driver.Driver {
	return sqliteDriver{Driver: c.drv, watch: c.watch, gate: c.gate}
}

// sqliteConn is what the SQLite driver's connections implement.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// gatedConn is a SQLite connection whose writes take the gate.
type gatedConn struct {
	sqliteConn
	gate *gate
	inTx bool // a transaction of this connection holds the gate
}

func newGatedConn(c driver.Conn, g *gate) (*gatedConn, error) {
	sc, ok := c.(sqliteConn)
	if !ok {
		_ = c.Close()
		return nil, errors.New("store: the SQLite driver's connections lack the context methods")
	}
	return &gatedConn{sqliteConn: sc, gate: g}, nil
}

func (c *gatedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx takes the gate for the transaction's whole life. A read-only transaction (Tx.InSnapshot)
// takes none: the driver begins it deferred (not IMMEDIATE), and in WAL mode it reads one
// snapshot beside the writer.
func (c *gatedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.ReadOnly {
		// query_only refuses a write in it (SQLite's deferred transaction would otherwise
		// take the write lock for it, beside the gate); the end of the transaction lifts it.
		if _, err := c.sqliteConn.ExecContext(ctx, "PRAGMA query_only = 1", nil); err != nil {
			return nil, c.gate.failed(err)
		}
		tx, err := c.sqliteConn.BeginTx(ctx, opts)
		if err != nil {
			_, _ = c.sqliteConn.ExecContext(context.Background(), "PRAGMA query_only = 0", nil)
			return nil, c.gate.failed(err)
		}
		return readTx{Tx: tx, conn: c.sqliteConn}, nil
	}
	if err := c.gate.enter(ctx); err != nil {
		return nil, c.gate.failed(err)
	}
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		c.gate.leave()
		return nil, c.gate.failed(err)
	}
	c.inTx = true
	return &gatedTx{Tx: tx, conn: c}, nil
}

// outside reports whether a statement of query must take the gate itself: it may write and no
// transaction of this connection holds the gate.
func (c *gatedConn) outside(query string) bool { return !c.inTx && writes(query) }

func (c *gatedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if !c.outside(query) {
		res, err := c.sqliteConn.ExecContext(ctx, query, args)
		return res, c.gate.failed(err)
	}
	if err := c.gate.enter(ctx); err != nil {
		return nil, c.gate.failed(err)
	}
	defer c.gate.leave()
	res, err := c.sqliteConn.ExecContext(ctx, query, args)
	return res, c.gate.written(err)
}

func (c *gatedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if !c.outside(query) {
		// A read's rows are not wrapped (one allocation a query): in WAL mode a reader does not
		// wait for the write lock, so its steps do not meet SQLITE_BUSY.
		rows, err := c.sqliteConn.QueryContext(ctx, query, args)
		return rows, c.gate.failed(err)
	}
	if err := c.gate.enter(ctx); err != nil {
		return nil, c.gate.failed(err)
	}
	rows, err := c.sqliteConn.QueryContext(ctx, query, args)
	if err != nil {
		c.gate.leave()
		return nil, c.gate.failed(err)
	}
	return &gatedRows{Rows: rows, gate: c.gate}, nil
}

func (c *gatedConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *gatedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	s, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil && c.staleSchema(ctx, err) {
		s, err = c.sqliteConn.PrepareContext(ctx, query)
	}
	if err != nil {
		return nil, c.gate.failed(err)
	}
	ss, ok := s.(sqliteStmt)
	if !ok {
		_ = s.Close()
		return nil, errors.New("store: the SQLite driver's statements lack the context methods")
	}
	return &gatedStmt{sqliteStmt: ss, conn: c, writes: writes(query)}, nil
}

// staleSchema reports whether err is a table missing from this connection's copy of the schema,
// which it has now read again. A connection keeps a copy of the schema, and SQLite reads it again
// when a table a statement names is missing from it, but not when the table is named in a
// trigger's body (charge_hold's, connectionSchema): a connection that last ran a statement
// before another connection made the table (the migrations, at start-up) failed to prepare the
// charge until it happened to run some other statement. A read of sqlite_schema checks the copy
// against the database and drops it when it is stale.
func (c *gatedConn) staleSchema(ctx context.Context, err error) bool {
	var lite interface{ Code() int }
	if !errors.As(err, &lite) || lite.Code() != sqliteError || !strings.Contains(err.Error(), "no such table") {
		return false
	}
	_, err = c.sqliteConn.ExecContext(ctx, "SELECT 1 FROM sqlite_schema LIMIT 1", nil)
	return err == nil
}

// sqliteError is SQLite's generic error code (SQLITE_ERROR), which a missing table gives.
const sqliteError = 1

// gatedTx gives the gate back when the transaction ends.
type gatedTx struct {
	driver.Tx
	conn *gatedConn
}

func (t *gatedTx) Commit() error {
	defer t.end()
	return t.conn.gate.written(t.Tx.Commit())
}

func (t *gatedTx) Rollback() error {
	defer t.end()
	return t.conn.gate.failed(t.Tx.Rollback())
}

func (t *gatedTx) end() {
	t.conn.inTx = false
	t.conn.gate.leave()
}

// readTx is a read-only transaction (no gate); its end lets the connection write again.
type readTx struct {
	driver.Tx
	conn sqliteConn
}

func (t readTx) Commit() error   { return t.end(t.Tx.Commit()) }
func (t readTx) Rollback() error { return t.end(t.Tx.Rollback()) }

func (t readTx) end(err error) error {
	if _, perr := t.conn.ExecContext(context.Background(), "PRAGMA query_only = 0", nil); perr != nil {
		// A connection left read-only is dropped by the pool, not handed to a writer.
		return errors.Join(err, perr, driver.ErrBadConn)
	}
	return err
}

// sqliteStmt is what the SQLite driver's prepared statements implement.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// gatedStmt is a prepared statement whose writes outside a transaction take the gate.
type gatedStmt struct {
	sqliteStmt
	conn   *gatedConn
	writes bool
}

func (s *gatedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if s.conn.inTx || !s.writes {
		res, err := s.sqliteStmt.ExecContext(ctx, args)
		return res, s.conn.gate.failed(err)
	}
	if err := s.conn.gate.enter(ctx); err != nil {
		return nil, s.conn.gate.failed(err)
	}
	defer s.conn.gate.leave()
	res, err := s.sqliteStmt.ExecContext(ctx, args)
	return res, s.conn.gate.written(err)
}

func (s *gatedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if s.conn.inTx || !s.writes {
		rows, err := s.sqliteStmt.QueryContext(ctx, args)
		return rows, s.conn.gate.failed(err)
	}
	if err := s.conn.gate.enter(ctx); err != nil {
		return nil, s.conn.gate.failed(err)
	}
	rows, err := s.sqliteStmt.QueryContext(ctx, args)
	if err != nil {
		s.conn.gate.leave()
		return nil, s.conn.gate.failed(err)
	}
	return &gatedRows{Rows: rows, gate: s.conn.gate}, nil
}

// gatedRows give the gate back when closed: a writing statement (INSERT … RETURNING) holds
// SQLite's write lock until its rows are closed.
type gatedRows struct {
	driver.Rows
	gate   *gate
	closed bool
	ended  bool // Next reached the end (or failed)
}

func (r *gatedRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err != nil {
		r.ended = true
	}
	return r.gate.failedNext(err)
}

// failedNext classifies an error of Next (failed); io.EOF, the end of the rows, stays as it is.
func (g *gate) failedNext(err error) error {
	if err == nil || err == io.EOF { //nolint:errorlint // database/sql compares with io.EOF itself
		return err
	}
	return g.failed(err)
}

func (r *gatedRows) Close() error {
	if !r.closed && !r.ended {
		// Step the statement to its end before it is reset (a step after the end would run it
		// again): SQLite commits an autocommit statement when it halts either way, but runs the
		// commit's hooks, the log's automatic checkpoint among them, only when a step reaches the
		// end: the charge (an INSERT … RETURNING read for its one row) never checkpointed, and
		// the log grew without bound (TestChargesCheckpoint).
		dest := make([]driver.Value, len(r.Rows.Columns()))
		for r.Next(dest) == nil {
		}
	}
	err := r.Rows.Close()
	if !r.closed {
		r.closed = true
		r.gate.leave()
	}
	return err
}
