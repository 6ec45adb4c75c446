package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"github.com/svcagent/svc/ports"
)

// On Postgres a reply's exchange is one statement (pgExchange), and its commit waits for the
// write-ahead log to be flushed to disk: a reply acknowledged to the customer must be durable.
// Under load the database's sessions spend most of their time in that wait (sampled in
// pg_stat_activity during `POST /v1/chat` with 16 clients: nearly three in four of the active
// sessions' samples were WALWrite or WALSync waits), one flush and one commit record per reply, and
// every session waiting on the log's lock is woken by a system call. So at most pgWriters exchanges
// are written at a time (a bounded number of the database's sessions on a machine of few cores),
// and the exchanges that arrive meanwhile wait and are then written together, one transaction of
// their statements with one commit and one flush. An exchange arriving while a writer is free is
// written alone, as its one statement, so nothing waits when there is no load. Nobody is answered
// before the commit of their exchange, so nothing acknowledged is lost; a failed commit fails every
// exchange of its group (none of it was stored).
//
// Within a group the exchanges are written in the order of their accounts and conversations, the
// order in which every group takes the locks of the accounts' counters and conversations, so two
// groups written at once wait for each other rather than deadlock. An exchange refused by its
// statement (no row: another channel's conversation, a charge that does not fit) wrote nothing
// and is refused alone; a statement failing (a message id taken, a concurrent message in the same
// conversation, a deadlock with a writer of another path) ends the group's transaction, and its
// exchanges are then written one by one, each as its own statement, as when they arrive alone.

// pgWriters bounds the exchanges written at once on Postgres: twice the cores (at least 4), so that
// at moderate load exchanges rarely wait (the database still groups the flushes of concurrent
// commits), and half the connections of the pool (openPostgres) are left to the reads of the
// requests (in the profiles of the build before, the reads waited for a connection as long as the
// exchanges: the pool's eight were mostly held by exchanges waiting for the flush). Measured with
// 16 clients against as many as the cores (2): 592–657 against 529–627 replies/s, p50 18 against
// 22 ms.
var pgWriters = 2 * max(2, runtime.GOMAXPROCS(0))

// maxPGGroup bounds the exchanges of one Postgres transaction.
const maxPGGroup = 16

// pgExchangeCall is one caller's exchange waiting to be written on Postgres: once its group was
// written, w and err are set.
type pgExchangeCall struct {
	x    ports.Exchange
	args []any
	w    written
	err  error
}

// exchangePG stores x with stmt (pgExchange, prepared), alone when a writer is free, else in the
// next group of waiting exchanges. The group's transaction does not end with one caller's context.
func (r *Conversations) exchangePG(ctx context.Context, stmt *sql.Stmt, x ports.Exchange) (written, error) {
	args, err := exchangeArgs(x)
	if err != nil {
		return written{}, err
	}
	call := &pgExchangeCall{x: x, args: args}
	g, write := r.pgGroups.enter(call, pgWriters)
	switch {
	case !write:
		return call.w, call.err
	case g == nil:
		call.w, call.err = pgExchangeOne(ctx, stmt, args)
	default:
		r.writePGGroup(context.WithoutCancel(ctx), stmt, g.calls)
	}
	r.pgGroups.leave(g, maxPGGroup)
	return call.w, call.err
}

// pgExchangeOne runs one exchange's statement on its own (its own transaction).
func pgExchangeOne(ctx context.Context, stmt *sql.Stmt, args []any) (written, error) {
	var w written
	err := stmt.QueryRowContext(ctx, args...).Scan(&w.spent, &w.pending)
	switch {
	case errors.Is(err, sql.ErrNoRows), isUniqueViolation(err), isLockConflict(err):
		// One statement on its own: refused whole, it wrote nothing. A concurrent message in
		// the same conversation may clash on the messages' order or deadlock with it; the
		// caller's transaction path then takes turns.
		return written{}, ports.ErrNotExchanged
	case err != nil:
		return written{}, fmt.Errorf("store exchange: %w", err)
	}
	return w, nil
}

// writePGGroup stores the exchanges of group and sets each call's outcome: a group of one as its
// statement alone, a larger one in one transaction (pgGroupTx), or, when a statement of that
// transaction failed, each exchange alone.
func (r *Conversations) writePGGroup(ctx context.Context, stmt *sql.Stmt, group []*pgExchangeCall) {
	if len(group) > 1 && r.pgGroupTx(ctx, stmt, group) {
		return
	}
	for _, c := range group {
		c.w, c.err = pgExchangeOne(ctx, stmt, c.args)
	}
}

// pgGroupTx writes the exchanges of group in one transaction, in the order of their accounts and
// conversations; false when a statement failed (the transaction is rolled back and nothing of
// the group stored). A failed commit fails every exchange of the group.
func (r *Conversations) pgGroupTx(ctx context.Context, stmt *sql.Stmt, group []*pgExchangeCall) bool {
	ordered := slices.Clone(group)
	slices.SortStableFunc(ordered, func(a, b *pgExchangeCall) int {
		return cmp.Or(cmp.Compare(a.x.Conversation.AccountID, b.x.Conversation.AccountID),
			cmp.Compare(a.x.Conversation.ID, b.x.Conversation.ID))
	})
	tx, err := r.db.DB.BeginTx(ctx, nil)
	if err != nil {
		return false
	}
	ts := tx.StmtContext(ctx, stmt)
	for _, c := range ordered {
		var w written
		err := ts.QueryRowContext(ctx, c.args...).Scan(&w.spent, &w.pending)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			c.w, c.err = written{}, ports.ErrNotExchanged // refused: its statement wrote nothing
		case err != nil:
			_ = tx.Rollback()
			return false
		default:
			c.w, c.err = w, nil
		}
	}
	if err := tx.Commit(); err != nil {
		for _, c := range group {
			c.w, c.err = written{}, fmt.Errorf("store exchange: %w", err)
		}
	}
	return true
}
