package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
)

// keyWatch follows the changes to keys and accounts of one database (ports.KeyChanges): the
// Postgres watch (authWatch) hears of them through LISTEN/NOTIFY, the SQLite one (sqliteWatch)
// polls the counter row every write of a key or an account bumps. signal is the statement
// watchedWrite runs in the write's transaction so that the other processes learn of it.
type keyWatch interface {
	Generation() (gen uint64, ok bool)
	bump()
	signal() string
}

// The statements that tell the other processes of a change, run in the change's transaction.
const (
	pgSignal     = "SELECT pg_notify('" + authChannel + "', '')"
	sqliteSignal = "UPDATE auth_changes SET generation = generation + 1 WHERE id = 1"
)

func (w *authWatch) signal() string { return pgSignal }

// keyWatchOf returns the watch of changes to keys and accounts of db's database, nil when it has
// none (a pool opened otherwise than by this package).
func keyWatchOf(db *bun.DB) keyWatch {
	switch d := db.DB.Driver().(type) {
	case extrasDriver:
		return d.extras.auth
	case sqliteDriver:
		return d.watch
	}
	return nil
}

// sqliteDriver is the driver of a SQLite pool opened by this package, carrying its watch so that
// a repository finds it from its bun.DB (keyWatchOf), and its gate (ReportRefusals).
type sqliteDriver struct {
	driver.Driver
	watch *sqliteWatch
	gate  *gate // its writers' turn, and the report of their refusals (ReportRefusals)
}

// sqlitePoll is how often the SQLite watch reads the counter of changes (auth_changes): another
// process's change to a key or an account (svcctl, another svc-api on the same file) is seen
// within about that long. sqliteStale is how long a read vouches for the counter: when the
// watch has not read it for that long (a failure, a stalled process), nothing read may be kept.
const (
	sqlitePoll  = 50 * time.Millisecond
	sqliteStale = time.Second
)

// sqliteWatch follows the changes to keys and accounts committed by any process on a SQLite
// database: every write of a key or an account bumps the counter row of auth_changes in its own
// transaction (watchedWrite), and the watch reads that row every sqlitePoll, counting a change
// whenever it moved, and this process's own writes at once. It reads from the first call of
// Generation on (svcctl, which never authenticates, never starts it).
type sqliteWatch struct {
	db *sql.DB // set once the pool is open, before any Generation

	gen   atomic.Uint64
	epoch time.Time    // the origin of fresh: time.Since(epoch) is monotonic
	fresh atomic.Int64 // time.Since(epoch), in ns, until which the last read vouches
	start sync.Once
	stop  chan struct{}
	done  chan struct{}
}

func newSQLiteWatch() *sqliteWatch {
	return &sqliteWatch{epoch: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
}

// Generation returns a number that changes after every committed change to a key or an account
// (at once for this process's own writes, within about sqlitePoll for other processes'), and ok
// false while changes cannot be followed (not read yet, or not read for sqliteStale).
func (w *sqliteWatch) Generation() (gen uint64, ok bool) {
	w.start.Do(func() { go w.run() })
	ok = int64(time.Since(w.epoch)) < w.fresh.Load()
	return w.gen.Load(), ok
}

func (w *sqliteWatch) bump() { w.gen.Add(1) }

func (w *sqliteWatch) signal() string { return sqliteSignal }

// close stops reading.
func (w *sqliteWatch) close() {
	w.start.Do(func() { close(w.done) }) // never started
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}

// run reads the counter every sqlitePoll until close. A change is counted when the counter moved
// since the last read, and after a failed read (changes may be missed meanwhile).
func (w *sqliteWatch) run() {
	defer close(w.done)
	t := time.NewTicker(sqlitePoll)
	defer t.Stop()
	var (
		stmt *sql.Stmt
		last int64
		read bool // last holds a read
	)
	defer func() {
		if stmt != nil {
			_ = stmt.Close()
		}
	}()
	for {
		var (
			v   int64
			err error
		)
		at := time.Since(w.epoch)
		ctx, cancel := context.WithTimeout(context.Background(), sqliteStale)
		if stmt == nil {
			stmt, err = w.db.PrepareContext(ctx, "SELECT generation FROM auth_changes WHERE id = 1")
		}
		if err == nil {
			err = stmt.QueryRowContext(ctx).Scan(&v)
		}
		cancel()
		switch {
		case err != nil:
			w.fresh.Store(0)
			w.bump()
			read = false
		case !read || v != last:
			w.bump()
			last, read = v, true
		}
		if err == nil {
			w.fresh.Store(int64(at + sqliteStale))
		}
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
	}
}
