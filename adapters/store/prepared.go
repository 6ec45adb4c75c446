package store

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// prepared is a statement of the per-request path (authentication, the charge), prepared once and
// then only bound and executed: bun sends every query as new text, which Postgres parses and plans
// and SQLite compiles each time, and for these queries that costs more than running them.
// database/sql keeps the statement prepared on each connection it runs on.
type prepared struct {
	query string  // for the database's dialect; "" when the statement is not prepared there
	pool  *sql.DB // the pool it is prepared on: the bun.DB's own, or another of the same database

	mu   sync.Mutex
	stmt *sql.Stmt
}

// prepareTimeout bounds preparing a statement when its repository is made.
const prepareTimeout = 5 * time.Second

// prepare returns the statement of db's dialect (pg or sqlite; "" for none), prepared now when
// the database answers, else at its first use outside a transaction.
func prepare(db *bun.DB, pg, sqlite string) *prepared {
	return prepareOn(db, db.DB, pg, sqlite)
}

// prepareOn is prepare on pool, a pool of db's database other than db's own (a statement of
// pool's runs only outside db's transactions).
func prepareOn(db *bun.DB, pool *sql.DB, pg, sqlite string) *prepared {
	p := &prepared{query: sqlite, pool: pool}
	if db.Dialect().Name() == dialect.PG {
		p.query = pg
	}
	if p.query != "" {
		ctx, cancel := context.WithTimeout(context.Background(), prepareTimeout)
		defer cancel()
		p.stmt, _ = pool.PrepareContext(ctx, p.query) // when this fails, the first use tries again
	}
	return p
}

// on returns the statement to run in ctx on db: in the transaction ctx carries, if any. ok is
// false when the statement is not prepared on db's dialect, or not yet while ctx has a
// transaction (preparing then would need a second connection, which other transactions waiting
// on this one's locks may hold: a deadlock); the caller then runs its bun query.
func (p *prepared) on(ctx context.Context, db *bun.DB) (stmt *sql.Stmt, ok bool, err error) {
	if p.query == "" {
		return nil, false, nil
	}
	tx, inTx := ctx.Value(txKey{db}).(bun.Tx)
	p.mu.Lock()
	if p.stmt == nil && !inTx {
		p.stmt, err = p.pool.PrepareContext(ctx, p.query)
	}
	stmt = p.stmt
	p.mu.Unlock()
	switch {
	case err != nil:
		return nil, true, err
	case stmt == nil:
		return nil, false, nil
	case inTx:
		return tx.Tx.StmtContext(ctx, stmt), true, nil
	}
	return stmt, true, nil
}

// scanOne runs stmt with args and scans its one row into dest as bun would (sql.ErrNoRows when
// there is none).
func scanOne(ctx context.Context, db *bun.DB, stmt *sql.Stmt, dest any, args ...any) error {
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := db.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// sqliteTime is t as bun writes a time into a SQLite query, for a statement's argument that is
// compared with stored times.
func sqliteTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.999999-07:00")
}

// byAccount is the statement selecting model's row of one account (its one argument), as bun
// would select it, prepared on either database.
func byAccount(db *bun.DB, model any) *prepared {
	arg := "?1"
	if db.Dialect().Name() == dialect.PG {
		arg = "$1"
	}
	q := db.NewSelect().Model(model).Where("account_id = ?", bun.Safe(arg)).String()
	return prepare(db, q, q)
}

// getByAccount scans the row of accountID into dest with p (byAccount), or with bun's query when
// p is not prepared; sql.ErrNoRows when there is none.
func getByAccount(ctx context.Context, db *bun.DB, p *prepared, dest any, accountID string) error {
	stmt, ok, err := p.on(ctx, db)
	switch {
	case err != nil:
		return err
	case ok:
		return scanOne(ctx, db, stmt, dest, accountID)
	}
	return idb(ctx, db).NewSelect().Model(dest).Where("account_id = ?", accountID).Scan(ctx)
}
