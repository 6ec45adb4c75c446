package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// soleConn is one SQLite connection kept out of the pool for the writes of the request path
// made outside a transaction (the ledger's charge), one at a time. In WAL mode a connection
// keeps its page cache only while no other connection has written: when the charges of
// concurrent requests took turns over the pool's connections, each found its cache stale and
// read the pages it changes again. Writers take turns anyway (the writer gate, writer.go), so
// one connection for them costs no concurrency; reads still run on the pool, beside it.
type soleConn struct {
	pool  *sql.DB
	turn  chan struct{} // held while a statement runs
	conn  *sql.Conn     // nil until the first statement, and after a failure
	stmts map[string]*sql.Stmt
	shut  bool
}

var errSoleClosed = errors.New("store: the database is closed")

func newSoleConn() *soleConn { return &soleConn{turn: make(chan struct{}, 1)} }

// soleConnOf returns the sole connection of db's database; nil on Postgres.
func soleConnOf(db *bun.DB) *soleConn {
	if d, ok := db.DB.Driver().(sqliteDriver); ok {
		return d.sole
	}
	return nil
}

// run runs fn with query prepared on the connection, waiting for its turn as long as ctx lasts.
// A failure other than sql.ErrNoRows closes the connection, which the next call opens again.
func (s *soleConn) run(ctx context.Context, query string, fn func(stmt *sql.Stmt) error) error {
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.turn }()
	if s.shut {
		return errSoleClosed
	}
	stmt, err := s.prepared(ctx, query)
	if err == nil {
		err = fn(stmt)
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		s.drop()
	}
	return err
}

func (s *soleConn) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if s.conn == nil {
		conn, err := s.pool.Conn(ctx)
		if err != nil {
			return nil, err
		}
		s.conn, s.stmts = conn, map[string]*sql.Stmt{}
	}
	if stmt, ok := s.stmts[query]; ok {
		return stmt, nil
	}
	stmt, err := s.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s.stmts[query] = stmt
	return stmt, nil
}

// drop closes the connection and its statements.
func (s *soleConn) drop() {
	if s.conn == nil {
		return
	}
	for _, stmt := range s.stmts {
		_ = stmt.Close()
	}
	_ = s.conn.Close()
	s.conn, s.stmts = nil, nil
}

// close gives the connection back before the pool closes; later calls fail.
func (s *soleConn) close() {
	s.turn <- struct{}{}
	s.shut = true
	s.drop()
	<-s.turn
}
