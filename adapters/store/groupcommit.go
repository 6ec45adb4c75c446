package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/ports"
)

// SQLite commits one transaction at a time, and each commit appends every page it changed to the
// write-ahead log (two writes per page) and updates the log's index. Replies stored at the same
// time (Conversations.Exchange, outside a caller's transaction) are therefore stored together: the
// first caller to arrive while no group is being written writes the group, one transaction in
// which an exchange that cannot be stored (ports.ErrNotExchanged, or any error) leaves nothing
// behind (writeChecked, or writeSavepoints: each exchange its own savepoint, rolled back alone);
// the others wait for the commit. A page
// that several exchanges of a group change (the b-trees' upper pages, a busy account's rows) is
// written once. Nobody is answered before the commit, so nothing acknowledged is lost; when the
// commit fails, every exchange of the group fails with it.

// maxGroup bounds the exchanges of one transaction.
const maxGroup = 32

// checkpointEvery is how many exchanges are stored between two checkpoints of the write-ahead log
// (copying its pages back into the database file, so that the log can start again from its
// beginning): a few thousand pages of the log.
const checkpointEvery = 128

// checkpoints runs the checkpoints of the log beside the writers. Left to SQLite, the checkpoint
// runs in the commit that takes the log past wal_autocheckpoint pages, which holds the writer's
// turn all the while (and a group's callers wait for it): every writer of the process waits tens
// of milliseconds, several times a second under load. A passive checkpoint on a connection of its
// own waits for nobody and makes nobody wait: the writers append to the log while it copies the
// pages committed before it began. SQLite's own checkpoint (sqliteParams' wal_autocheckpoint)
// stays as a backstop for the writes of everything else, well above what the exchanges write
// between two of these.
type checkpoints struct {
	stored  atomic.Int64 // exchanges stored since the last checkpoint began
	running atomic.Bool
}

// after notes n exchanges stored, and starts a checkpoint of db's log in a goroutine when
// checkpointEvery were stored since the last began and none is running.
func (c *checkpoints) after(db *bun.DB, n int) {
	if c.stored.Add(int64(n)) < checkpointEvery || !c.running.CompareAndSwap(false, true) {
		return
	}
	c.stored.Store(0)
	go func() {
		defer c.running.Store(false)
		// A read for the writer gate (it takes no write lock); PASSIVE never waits, and a
		// failure only leaves the pages for the next checkpoint.
		_, _ = db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
	}()
}

// exchangeCall is one caller's exchange waiting in a group.
type exchangeCall struct {
	x   ports.Exchange
	w   written
	err error
	// done receives true when the call is to write the next group itself, false when it has
	// been written (w and err are set).
	done chan bool
}

// exchangeGroups gathers concurrent exchanges into groups.
type exchangeGroups struct {
	mu      sync.Mutex
	waiting []*exchangeCall
	writing bool // a caller is writing a group
}

// exchangeGrouped stores x in a group of concurrent exchanges (SQLite, outside a transaction).
// The group's transaction does not end with one caller's context.
func (r *Conversations) exchangeGrouped(ctx context.Context, x ports.Exchange) (written, error) {
	ctx = context.WithoutCancel(ctx)
	g := &r.groups
	call := &exchangeCall{x: x, done: make(chan bool, 1)}
	g.mu.Lock()
	g.waiting = append(g.waiting, call)
	lead := !g.writing
	g.writing = true
	g.mu.Unlock()
	if !lead && !<-call.done {
		return call.w, call.err
	}
	// This caller writes the next group, which holds its own exchange (it was waiting).
	g.mu.Lock()
	n := min(len(g.waiting), maxGroup)
	group := g.waiting[:n:n]
	g.waiting = g.waiting[n:]
	g.mu.Unlock()
	r.writeGroup(ctx, group)
	g.mu.Lock()
	if len(g.waiting) > 0 {
		g.waiting[0].done <- true // the first waiting writes the next group
	} else {
		g.writing = false
	}
	g.mu.Unlock()
	for _, c := range group {
		if c != call {
			c.done <- false
		}
	}
	r.checkpoints.after(r.db, len(group))
	return call.w, call.err
}

// sqliteExchangeFits reads, in the writer's transaction, whether an exchange will be stored: its
// conversation is new or of the same channel (sqliteExchangeOpen's WHERE), and the period's
// counter exists and has room for the charge (sqliteCount's WHERE). ?1 account, ?2 conversation,
// ?3 channel, ?4 period start, ?5 cost, ?6 limit.
const sqliteExchangeFits = `SELECT COALESCE((SELECT channel = ?3 FROM conversations WHERE account_id = ?1 AND id = ?2), 1)
	AND EXISTS (SELECT 1 FROM usage_periods WHERE account_id = ?1 AND period_start = ?4 AND (?5 <= 0 OR spent + ?5 <= ?6))`

// errSavepoints ends writeChecked's transaction when an exchange failed half-way: the group is
// written again, each exchange in a savepoint.
var errSavepoints = errors.New("store: exchange group: write with savepoints")

// writeGroup stores the exchanges of group in one transaction and sets each call's outcome. A
// group of several is written with writeChecked; when that cannot finish, each exchange in a
// savepoint of its own.
func (r *Conversations) writeGroup(ctx context.Context, group []*exchangeCall) {
	if len(group) > 1 && r.writeChecked(ctx, group) {
		return
	}
	r.writeSavepoints(ctx, group)
}

// writeChecked stores the exchanges of group in one transaction without savepoints: a savepoint
// makes SQLite copy every page an exchange changes to the savepoint's journal first (in the
// profiles, a sixth of the process's CPU went to those copies and their memory), while the
// exchanges of a group change the same pages. Instead each exchange is stored only when a read
// in the transaction (sqliteExchangeFits; the writer's turn and SQLite's write lock are held, so
// only the group's own earlier exchanges change what it sees) says that its statements will be
// stored whole, and an exchange that does not fit writes nothing (ports.ErrNotExchanged). Should
// a statement fail all the same, the transaction is rolled back and false returned, for the
// group to be written with savepoints; a failed commit fails every exchange of the group.
func (r *Conversations) writeChecked(ctx context.Context, group []*exchangeCall) bool {
	err := inTx(ctx, r.db, func(ctx context.Context, _ bun.IDB) error {
		fits, ok, err := r.xFits.on(ctx, r.db)
		if err != nil || !ok {
			return errSavepoints
		}
		for _, c := range group {
			x := c.x
			ch := toChargeRow(x.Charge, x.Period)
			var fit bool
			if err := fits.QueryRowContext(ctx, x.Conversation.AccountID, x.Conversation.ID, string(x.Conversation.Channel),
				sqliteTime(ch.PeriodStart), ch.Cost, x.Limit).Scan(&fit); err != nil {
				return errSavepoints
			}
			if !fit {
				c.w, c.err = written{}, ports.ErrNotExchanged
				continue
			}
			w, done, err := r.exchangePrepared(ctx, x)
			if err != nil || !done {
				return errSavepoints
			}
			c.w, c.err = w, nil
		}
		return nil
	})
	if errors.Is(err, errSavepoints) {
		return false
	}
	for _, c := range group {
		if err != nil {
			c.w, c.err = written{}, err // the transaction failed: nothing of the group was stored
		}
	}
	return true
}

// writeSavepoints stores the exchanges of group in one transaction, each in a savepoint of its
// own, and sets each call's outcome.
func (r *Conversations) writeSavepoints(ctx context.Context, group []*exchangeCall) {
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if len(group) == 1 {
			group[0].w, group[0].err = r.exchangeInTx(ctx, tx, group[0].x)
			return group[0].err
		}
		for _, c := range group {
			if _, err := tx.ExecContext(ctx, "SAVEPOINT exchange"); err != nil {
				return err
			}
			c.w, c.err = r.exchangeInTx(ctx, tx, c.x)
			if c.err != nil {
				if _, err := tx.ExecContext(ctx, "ROLLBACK TO exchange"); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "RELEASE exchange"); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range group {
		if c.err == nil {
			c.err = err // the transaction failed: nothing of the group was stored
		}
		if isUniqueViolation(c.err) {
			c.err = ports.ErrNotExchanged
		}
	}
}
