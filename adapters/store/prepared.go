package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// prepared is a Postgres statement of the per-request path (authentication, the charge), prepared
// once and then only bound and executed: bun sends every query as new text, which Postgres
// parses and plans each time, and for these queries planning costs more than running.
// database/sql keeps the statement prepared on each connection it runs on.
type prepared struct {
	query string

	mu   sync.Mutex
	stmt *sql.Stmt
}

// on returns the statement to run in ctx on db: in the transaction ctx carries, if any. ok is
// false when db is not Postgres, and the caller then runs its bun query.
func (p *prepared) on(ctx context.Context, db *bun.DB) (stmt *sql.Stmt, ok bool, err error) {
	if db.Dialect().Name() != dialect.PG {
		return nil, false, nil
	}
	p.mu.Lock()
	if p.stmt == nil {
		if p.stmt, err = db.DB.PrepareContext(ctx, p.query); err != nil {
			p.mu.Unlock()
			return nil, true, err
		}
	}
	stmt = p.stmt
	p.mu.Unlock()
	if tx, inTx := ctx.Value(txKey{db}).(bun.Tx); inTx {
		return tx.Tx.StmtContext(ctx, stmt), true, nil
	}
	return stmt, true, nil
}
