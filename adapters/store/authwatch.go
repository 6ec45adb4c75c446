package store

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"
)

// authChannel is the Postgres notification channel of changes to keys and accounts.
const authChannel = "svc_auth"

// authPing is the payload of the watch's own notifications, which tell that it still listens.
const authPing = "ping"

// authWatch follows the changes to keys and accounts committed by any process on a Postgres
// database, so that authentication may keep what it read while nothing changed
// (ports.KeyChanges): every write of a key or an account notifies authChannel in its own
// transaction (write), and the watch counts the changes it hears of, and its own writes at once.
// It listens on a connection of its own from the first call of Generation on (svcctl, which
// never authenticates, never opens it).
type authWatch struct {
	connector *pgdriver.Connector

	gen   atomic.Uint64
	live  atomic.Bool // listening: every committed change will be heard of
	start sync.Once
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{}

	mu sync.Mutex
	ln *pgdriver.Listener // the listener now, closed by close so that a waiting read ends
}

// authQuiet is how long the listening connection may hear nothing before it is checked with a
// notification of its own; authBackoff is the wait before listening again after a failure.
const (
	authQuiet   = 5 * time.Second
	authBackoff = time.Second
)

// authFirstPing is how long the watch waits for its first ping to come back before it sends
// another: until one comes back, it does not count as listening.
const authFirstPing = 100 * time.Millisecond

func newAuthWatch(c *pgdriver.Connector) *authWatch {
	ctx, stop := context.WithCancel(context.Background())
	return &authWatch{connector: c, ctx: ctx, stop: stop, done: make(chan struct{})}
}

// Generation returns a number that changes after every committed change to a key or an account
// (at once for this process's own writes, within moments for other processes'), and ok false
// while changes cannot be followed (not yet listening, or the connection was lost).
func (w *authWatch) Generation() (gen uint64, ok bool) {
	w.start.Do(func() { go w.run() })
	ok = w.live.Load()
	return w.gen.Load(), ok
}

// bump records a change.
func (w *authWatch) bump() { w.gen.Add(1) }

// close stops listening.
func (w *authWatch) close() {
	w.stop()
	w.start.Do(func() { close(w.done) }) // never started
	w.mu.Lock()
	if w.ln != nil {
		_ = w.ln.Close()
	}
	w.mu.Unlock()
	<-w.done
}

// run listens until close, listening again after a failure; while it does not listen, live is
// false and every change is assumed.
func (w *authWatch) run() {
	defer close(w.done)
	db := bun.NewDB(sql.OpenDB(w.connector), pgdialect.New()) // the listener's own connection
	defer func() { _ = db.Close() }()
	for w.ctx.Err() == nil {
		w.listen(db)
		w.live.Store(false)
		w.bump()
		select {
		case <-w.ctx.Done():
		case <-time.After(authBackoff):
		}
	}
}

// listen listens on one connection until it fails or the watch closes. pgdriver's Listen only
// sends LISTEN, so the watch counts as listening once a notification of its own, sent through
// another connection, has come back. A connection quiet for authQuiet is sent such a
// notification; when that does not arrive within another authQuiet, the connection is taken for
// lost.
func (w *authWatch) listen(db *bun.DB) {
	ln := pgdriver.NewListener(db)
	defer func() { _ = ln.Close() }()
	w.mu.Lock()
	w.ln = ln
	w.mu.Unlock()
	if w.ctx.Err() != nil {
		return // closed meanwhile
	}
	if err := ln.Listen(w.ctx, authChannel); err != nil {
		return
	}
	ping := func() bool {
		ctx, cancel := context.WithTimeout(w.ctx, authQuiet)
		defer cancel()
		return pgdriver.Notify(ctx, db, authChannel, authPing) == nil
	}
	if !ping() {
		return
	}
	pinged, unanswered := true, 0
	for {
		wait := authQuiet
		if !w.live.Load() {
			wait = authFirstPing
		}
		_, payload, err := ln.ReceiveTimeout(w.ctx, wait)
		var ne net.Error
		timeout := errors.As(err, &ne) && ne.Timeout()
		switch {
		case err == nil && payload == authPing:
			if !w.live.Load() {
				w.bump() // changes may have been missed before
				w.live.Store(true)
			}
			pinged = false
		case err == nil:
			w.bump()
		case timeout && !w.live.Load():
			// The first ping may have been sent before the LISTEN was in force (a busy
			// server): ping again, for as long as a quiet connection is given.
			if unanswered++; time.Duration(unanswered)*authFirstPing >= authQuiet || !ping() {
				return
			}
		case timeout && !pinged:
			if !ping() {
				return
			}
			pinged = true
		default:
			return
		}
	}
}

// watchedWrite runs fn in a transaction (ctx's, or a new one) that also tells the other
// processes of the change (the watch's signal: a notification on Postgres, the counter of
// auth_changes bumped on SQLite), and records the change in this process before and after it.
// Without a watch it is inTx.
func watchedWrite(ctx context.Context, db *bun.DB, fn func(ctx context.Context, tx bun.IDB) error) error {
	w := keyWatchOf(db)
	if w == nil {
		return inTx(ctx, db, fn)
	}
	w.bump()
	err := inTx(ctx, db, func(ctx context.Context, tx bun.IDB) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, w.signal())
		return err
	})
	w.bump() // after the commit, unless ctx carried the caller's transaction: the other processes' signal does it then
	return err
}
