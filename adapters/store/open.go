package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// sqliteParams configure every SQLite connection: WAL so that readers run beside the writer, a
// busy timeout so that writers wait for each other instead of failing, foreign keys, and
// immediate transactions so that two transactions never deadlock upgrading a read lock.
// temp_store(MEMORY) keeps statement journals (the undo of one statement of a transaction, which
// SQLite keeps for a statement that writes several rows or may fail half-way) in small in-memory
// chunks: by default each starts as a 64 KiB buffer, which the pure-Go SQLite's allocator maps
// and unmaps from the kernel for every such statement. wal_autocheckpoint is the backstop of the
// log's checkpointer (checkpoint.go), for writers that leave it no moment to copy the log whole.
// A busy timeout the URL sets itself (sqlite://data/svc.db?_pragma=busy_timeout(2000)) replaces
// this one: the driver runs the busy_timeout pragmas first in no set order, so both cannot be
// given.
const sqliteParams = sqliteBusyTimeout + "&_pragma=journal_mode(WAL)" +
	"&_pragma=synchronous(NORMAL)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=temp_store(MEMORY)" +
	"&_pragma=wal_autocheckpoint(4000)" +
	"&_txlock=immediate"

// sqliteBusyTimeout is how long a connection waits for another process's write lock before it
// fails with SQLITE_BUSY (busy: 503 service_unavailable).
const sqliteBusyTimeout = "_pragma=busy_timeout(10000)"

// Open connects to the database at databaseURL, the store its scheme names (OpenSQLite or
// OpenPostgres), and checks that it answers. The programs do not use it: their injectors name the
// store. Errors never repeat the URL, which may hold a password.
func Open(ctx context.Context, databaseURL string) (*bun.DB, func(), error) {
	scheme, _, ok := strings.Cut(databaseURL, "://")
	if !ok {
		return nil, nil, errors.New("store: database URL needs a scheme: sqlite://PATH or postgres://…")
	}
	switch strings.ToLower(scheme) {
	case "sqlite":
		return OpenSQLite(ctx, databaseURL)
	case "postgres", "postgresql":
		return OpenPostgres(ctx, databaseURL)
	default:
		return nil, nil, fmt.Errorf("store: unsupported database URL scheme %q: use sqlite:// or postgres://", scheme)
	}
}

// OpenSQLite opens the SQLite database at databaseURL, sqlite://PATH (relative to the working
// directory, e.g. sqlite://data/svc.db) or sqlite:///ABSOLUTE/PATH, and checks that it answers.
// The returned function closes the database.
func OpenSQLite(ctx context.Context, databaseURL string) (*bun.DB, func(), error) {
	scheme, rest, ok := strings.Cut(databaseURL, "://")
	if !ok || !strings.EqualFold(scheme, "sqlite") {
		return nil, nil, errors.New("store: the SQLite store needs a sqlite://PATH URL")
	}
	db, watch, log, err := openSQLite(rest)
	if err != nil {
		return nil, nil, err
	}
	db, closeDB, err := ping(ctx, db, "sqlite")
	if err != nil {
		return nil, nil, err
	}
	go log.run()
	return db, func() {
		watch.close()
		log.close()
		closeDB()
	}, nil
}

// OpenPostgres connects to the PostgreSQL database at databaseURL, postgres://… or
// postgresql://…, and checks that it answers. The returned function closes the database. Errors
// never repeat the URL, which may hold a password.
func OpenPostgres(ctx context.Context, databaseURL string) (*bun.DB, func(), error) {
	scheme, _, ok := strings.Cut(databaseURL, "://")
	if !ok || (!strings.EqualFold(scheme, "postgres") && !strings.EqualFold(scheme, "postgresql")) {
		return nil, nil, errors.New("store: the PostgreSQL store needs a postgres://… URL")
	}
	db, err := openPostgres(databaseURL)
	if err != nil {
		return nil, nil, err
	}
	extras := pgExtrasOf(db)
	db, closeDB, err := ping(ctx, db, "postgres")
	if err != nil {
		extras.close()
		return nil, nil, err
	}
	return db, func() {
		closeDB()
		extras.close()
	}, nil
}

// ping checks that db answers; it closes db when it does not.
func ping(ctx context.Context, db *bun.DB, name string) (*bun.DB, func(), error) {
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("store: connect to %s database: %w", name, err)
	}
	return db, func() { _ = db.Close() }, nil
}

func openSQLite(rest string) (*bun.DB, *sqliteWatch, *logCheckpointer, error) {
	path, query, _ := strings.Cut(rest, "?")
	if path == "" || path == ":memory:" {
		return nil, nil, nil, errors.New("store: sqlite:// needs a file path, e.g. sqlite://data/svc.db")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, nil, nil, fmt.Errorf("store: create the SQLite directory: %w", err)
	}
	params := sqliteParams
	if strings.Contains(strings.ToLower(query), "busy_timeout") {
		params = strings.TrimPrefix(params, sqliteBusyTimeout+"&")
	}
	dsn := path + "?" + params
	if query != "" {
		dsn += "&" + query
	}
	// In WAL mode readers run concurrently; this process's writers take turns through one gate
	// (writer.go), so they never wait in SQLite's busy handler.
	keepAllocatorPages()
	watch, log := newSQLiteWatch(), newLogCheckpointer()
	sqldb := sql.OpenDB(gatedConnector{drv: sqliteshim.Driver(), dsn: dsn, gate: newGate(log), watch: watch})
	watch.db, log.db = sqldb, sqldb
	n := max(8, 2*runtime.GOMAXPROCS(0))
	sqldb.SetMaxOpenConns(n)
	sqldb.SetMaxIdleConns(n)
	return bun.NewDB(sqldb, sqlitedialect.New()), watch, log, nil
}

func openPostgres(databaseURL string) (db *bun.DB, err error) {
	if _, err := url.Parse(databaseURL); err != nil {
		return nil, errors.New("store: the postgres URL does not parse")
	}
	// pgdriver panics on an option it cannot parse (such as an unknown sslmode).
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("store: invalid postgres URL: %v", r)
		}
	}()
	// Failures to reach the server become service_unavailable errors (outageConnector), and a
	// pooled connection the server closed meanwhile is dropped before it is used (dropDeadConn),
	// so that the pool recovers by itself after a restart of the database.
	main := pgdriver.NewConnector(pgdriver.WithDSN(databaseURL), pgdriver.WithResetSessionFunc(dropDeadConn))
	n := max(8, 4*runtime.GOMAXPROCS(0))
	extras := &pgExtras{auth: newAuthWatch(pgdriver.NewConnector(pgdriver.WithDSN(databaseURL)))}
	if _, set := main.Config().ConnParams["synchronous_commit"]; !set {
		// The ledger's lone charges commit without waiting for the WAL flush (see NewUsage).
		params := maps.Clone(main.Config().ConnParams)
		if params == nil {
			params = map[string]any{}
		}
		params["synchronous_commit"] = "off"
		lazy := sql.OpenDB(outageConnector{Connector: pgdriver.NewConnector(pgdriver.WithDSN(databaseURL),
			pgdriver.WithConnParams(params), pgdriver.WithResetSessionFunc(dropDeadConn)), report: &extras.report})
		lazy.SetMaxOpenConns(n / 2)
		lazy.SetMaxIdleConns(n / 2)
		lazy.SetConnMaxIdleTime(5 * time.Minute)
		extras.lazy = lazy
	}
	sqldb := sql.OpenDB(outageConnector{Connector: main, extras: extras, report: &extras.report})
	sqldb.SetMaxOpenConns(n)
	sqldb.SetMaxIdleConns(n)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return bun.NewDB(sqldb, pgdialect.New()), nil
}
