package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

var _ ports.Usage = (*Usage)(nil)

// Usage implements ports.Usage with one counter row per account and period.
type Usage struct {
	db      *bun.DB
	charge  *prepared            // Postgres: the whole charge in one statement (in a caller's transaction)
	alone   *prepared            // Postgres: the same on its own, committed without waiting for the WAL flush
	many    *prepared            // Postgres: several charges on their own, as alone (pgChargeMany)
	holds   handoff[*pgHoldCall] // Postgres: charges waiting for a writer (pghold.go)
	hold    *prepared            // SQLite: the whole charge in one statement (through charge_hold)
	counter *prepared            // SQLite: the counter's update
	record  *prepared            // SQLite: the charge's row
}

// NewUsage returns the usage repository of db.
//
// On Postgres a charge made outside a transaction (the relay's hold) runs on a pool of its own
// whose sessions have synchronous_commit off (lazyPool): its commit returns once the change is
// in the server's WAL buffers, not after the WAL is flushed to disk. A crash of the Postgres
// server (not of this program) may then lose the charges of the last moments (at most about
// three times wal_writer_delay, 0.6 s by default), all of a charge or none of it: the counter and
// the charge's row are one transaction. Nothing else is committed so; an operator who wants
// these charges durable too sets synchronous_commit=on in SVC_DATABASE_URL. SQLite commits with
// synchronous=NORMAL, the same trade (an operating-system crash may lose the last commits).
func NewUsage(db *bun.DB) *Usage {
	u := &Usage{
		db:      db,
		charge:  prepare(db, pgCharge, ""),
		hold:    prepare(db, "", sqliteHold),
		counter: prepare(db, "", sqliteCount),
		record:  prepare(db, "", sqliteRecord),
	}
	if pool := lazyPool(db); pool != nil {
		u.alone = prepareOn(db, pool, pgCharge, "")
		u.many = prepareOn(db, pool, pgChargeMany, "")
	}
	return u
}

// InProcess reports whether the store is in this process, SQLite (ports.InProcess): a charge
// there is a call of some tens of microseconds, cheaper made inline than beside other work.
func (r *Usage) InProcess() bool { return r.db.Dialect().Name() == dialect.SQLite }

// Spent returns what the account spent in the period (0 when nothing yet).
func (r *Usage) Spent(ctx context.Context, accountID string, period ledger.Period) (int, error) {
	return spent(ctx, idb(ctx, r.db), accountID, dbTime(period.Start))
}

// pgCharge adds to the period's counter and records the charge in one statement, atomic on its
// own: the insert takes its row from the update, so nothing is recorded when the update matched
// nothing (no counter row yet, or over the limit), and then no row comes back.
const pgCharge = `WITH counter AS (
	UPDATE usage_periods SET spent = spent + $1
	WHERE account_id = $2 AND period_start = $3 AND ($1 <= 0 OR spent + $1 <= $4)
	RETURNING spent
)
INSERT INTO charges (id, account_id, action, cost, ref, label_source, label_workflow,
	label_workflow_id, label_execution_id, period_start, created_at)
SELECT $5, $2, $6, $1, $7, $8, $9, $10, $11, $3, $12 FROM counter
RETURNING (SELECT spent FROM counter)`

// SQLite has no data-modifying WITH. There the usual charge is one statement all the same: an
// insert into charge_hold, a view of every connection's own (TEMP, made when the connection
// opens: connectionSchema) whose INSTEAD OF trigger makes the conditional update of the counter
// and then, only when it matched a row (changes() = 1), inserts the charge's row. One statement
// in autocommit is its own transaction, so it needs neither BEGIN and COMMIT nor the statement
// journal SQLite keeps for a statement of a longer transaction (which, in the pure-Go SQLite,
// maps and unmaps memory on every charge): in the embedded relay the two-statement transaction
// was 40 % of svc-api's CPU. Its RETURNING is evaluated after the trigger ran: the counter after
// (NULL when the period has no row yet: the caller then takes the transaction below) and whether
// the charge's row exists (0 when the charge did not fit).
//
// The transaction of two prepared statements remains for the first charge of a period: the
// conditional update of the counter, then the charge's row.
const (
	sqliteHold = `INSERT INTO charge_hold (cost, account_id, period_start, spending_limit, id, action, ref,
	label_source, label_workflow, label_workflow_id, label_execution_id, created_at)
	VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
	RETURNING (SELECT spent FROM usage_periods WHERE account_id = ?2 AND period_start = ?3),
		EXISTS (SELECT 1 FROM charges WHERE id = ?5 AND account_id = ?2)`
	sqliteCount = `UPDATE usage_periods SET spent = spent + ?1
	WHERE account_id = ?2 AND period_start = ?3 AND (?1 <= 0 OR spent + ?1 <= ?4)
	RETURNING spent`
	sqliteRecord = `INSERT INTO charges (id, account_id, action, cost, ref, label_source, label_workflow,
	label_workflow_id, label_execution_id, period_start, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// connectionSchema is run on every SQLite connection when it opens (gatedConnector): the view
// charge_hold and its trigger (sqliteHold). TEMP objects live in the connection's own temporary
// database, so they write nothing to the file, and the trigger's tables are looked up when it
// runs, not when it is made (before the migrations on a new database).
var connectionSchema = []string{
	`CREATE TEMP VIEW IF NOT EXISTS charge_hold AS SELECT
	NULL AS cost, NULL AS account_id, NULL AS period_start, NULL AS spending_limit, NULL AS id,
	NULL AS action, NULL AS ref, NULL AS label_source, NULL AS label_workflow,
	NULL AS label_workflow_id, NULL AS label_execution_id, NULL AS created_at`,
	`CREATE TEMP TRIGGER IF NOT EXISTS charge_hold_insert INSTEAD OF INSERT ON charge_hold BEGIN
	UPDATE usage_periods SET spent = spent + NEW.cost
	WHERE account_id = NEW.account_id AND period_start = NEW.period_start
		AND (NEW.cost <= 0 OR spent + NEW.cost <= NEW.spending_limit);
	INSERT INTO charges (id, account_id, action, cost, ref, label_source, label_workflow,
		label_workflow_id, label_execution_id, period_start, created_at)
	SELECT NEW.id, NEW.account_id, NEW.action, NEW.cost, NEW.ref, NEW.label_source, NEW.label_workflow,
		NEW.label_workflow_id, NEW.label_execution_id, NEW.period_start, NEW.created_at
	WHERE changes() = 1;
END`,
}

// Charge adds c.Cost to the period's counter when the total stays within limit (as ledger.Check
// decides: a cost of zero or less always fits) and records c, atomically (in the caller's
// transaction when ctx has one). The conditional update makes concurrent charges queue on the
// counter row, so they never overspend. On Postgres the usual case, an open period with room
// left, is one prepared statement; the first charge of a period and a refusal take a
// transaction. On SQLite every charge of an open period is one prepared statement (sqliteHold),
// a refusal included; the first of a period takes the transaction.
func (r *Usage) Charge(ctx context.Context, c ledger.Charge, period ledger.Period, limit int) (total int, ok bool, err error) {
	if stmt, prepared, err := r.hold.on(ctx, r.db); err != nil {
		return 0, false, fmt.Errorf("charge: %w", err)
	} else if prepared {
		m := toChargeRow(c, period)
		var spent sql.NullInt64
		err = stmt.QueryRowContext(ctx, m.Cost, m.AccountID, sqliteTime(m.PeriodStart), limit, m.ID, m.Action, m.Ref,
			m.LabelSource, m.LabelWorkflow, m.LabelWorkflowID, m.LabelExecutionID, sqliteTime(m.CreatedAt)).Scan(&spent, &ok)
		if err != nil {
			return 0, false, fmt.Errorf("charge: %w", err)
		}
		if spent.Valid {
			return int(spent.Int64), ok, nil
		}
	}
	if _, inTx := ctx.Value(txKey{r.db}).(bun.Tx); !inTx && r.alone != nil {
		// Concurrent charges outside a transaction are written together (pghold.go).
		return r.chargeGrouped(ctx, toChargeRow(c, period), limit, func() (int, bool, error) {
			return r.chargeOne(ctx, r.alone, c, period, limit)
		})
	}
	return r.chargeOne(ctx, r.charge, c, period, limit)
}

// chargeOne is Charge on Postgres with statement (pgCharge, in the caller's transaction or on
// its own), or with bun's queries where it is not prepared.
func (r *Usage) chargeOne(ctx context.Context, statement *prepared, c ledger.Charge, period ledger.Period, limit int) (total int, ok bool, err error) {
	stmt, prepared, err := statement.on(ctx, r.db)
	if err != nil {
		return 0, false, fmt.Errorf("charge: %w", err)
	}
	if prepared {
		m := toChargeRow(c, period)
		err = stmt.QueryRowContext(ctx, m.Cost, m.AccountID, m.PeriodStart, limit, m.ID, m.Action, m.Ref,
			m.LabelSource, m.LabelWorkflow, m.LabelWorkflowID, m.LabelExecutionID, m.CreatedAt).Scan(&total)
		if err == nil {
			return total, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, fmt.Errorf("charge: %w", err)
		}
	}
	start := dbTime(period.Start)
	err = inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		// The period's row exists but for the first charge of a period: try the update first and
		// open the period only when nothing matched (a no-op when a concurrent charge opened it
		// meanwhile), then try once more; a second miss is a refusal.
		err := r.count(ctx, tx, c, start, limit, &total)
		if errors.Is(err, sql.ErrNoRows) {
			if err := ensurePeriod(ctx, tx, c.AccountID, start); err != nil {
				return err
			}
			if err = r.count(ctx, tx, c, start, limit, &total); errors.Is(err, sql.ErrNoRows) {
				total, err = spent(ctx, tx, c.AccountID, start)
				return err
			}
		}
		if err != nil {
			return fmt.Errorf("charge: %w", err)
		}
		if err := r.insert(ctx, tx, toChargeRow(c, period)); err != nil {
			return fmt.Errorf("record charge: %w", err)
		}
		ok = true
		return nil
	})
	if err != nil {
		return 0, false, err
	}
	return total, ok, nil
}

// count adds c.Cost to the period's counter of start when it stays within limit, in tx, and sets
// total to the counter after; sql.ErrNoRows when nothing matched.
func (r *Usage) count(ctx context.Context, tx bun.IDB, c ledger.Charge, start time.Time, limit int, total *int) error {
	stmt, prepared, err := r.counter.on(ctx, r.db)
	switch {
	case err != nil:
		return err
	case prepared:
		return stmt.QueryRowContext(ctx, c.Cost, c.AccountID, sqliteTime(start), limit).Scan(total)
	}
	return tx.NewUpdate().Model((*usagePeriodRow)(nil)).
		Set("spent = spent + ?", c.Cost).
		Where("account_id = ?", c.AccountID).
		Where("period_start = ?", start).
		Where("(? <= 0 OR spent + ? <= ?)", c.Cost, c.Cost, limit).
		Returning("spent").
		Scan(ctx, total)
}

// insert stores the charge's row m in tx.
func (r *Usage) insert(ctx context.Context, tx bun.IDB, m *chargeRow) error {
	stmt, prepared, err := r.record.on(ctx, r.db)
	switch {
	case err != nil:
		return err
	case prepared:
		_, err = stmt.ExecContext(ctx, m.ID, m.AccountID, m.Action, m.Cost, m.Ref, m.LabelSource, m.LabelWorkflow,
			m.LabelWorkflowID, m.LabelExecutionID, sqliteTime(m.PeriodStart), sqliteTime(m.CreatedAt))
		return err
	}
	_, err = tx.NewInsert().Model(m).Exec(ctx)
	return err
}

// Refund deletes the account's charge of id and takes its cost off its period's counter, in one
// transaction; nothing when there is no such charge. Of two concurrent refunds of one charge,
// only the one whose delete removed the row gives the cost back.
func (r *Usage) Refund(ctx context.Context, accountID, id string) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var m chargeRow
		err := tx.NewSelect().Model(&m).
			Column("cost", "period_start").
			Where("id = ?", id).
			Where("account_id = ?", accountID).
			Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("refund: %w", err)
		}
		res, err := tx.NewDelete().Model((*chargeRow)(nil)).
			Where("id = ?", id).
			Where("account_id = ?", accountID).
			Exec(ctx)
		if err != nil {
			return fmt.Errorf("refund: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return err
		}
		if _, err := tx.NewUpdate().Model((*usagePeriodRow)(nil)).
			Set("spent = spent - ?", m.Cost).
			Where("account_id = ?", accountID).
			Where("period_start = ?", dbTime(m.PeriodStart)).
			Exec(ctx); err != nil {
			return fmt.Errorf("refund: %w", err)
		}
		return nil
	})
}

// MarkLimitReached flags the period as reached and reports whether this call was the first.
func (r *Usage) MarkLimitReached(ctx context.Context, accountID string, period ledger.Period) (bool, error) {
	db := idb(ctx, r.db)
	start := dbTime(period.Start)
	if err := ensurePeriod(ctx, db, accountID, start); err != nil {
		return false, err
	}
	res, err := db.NewUpdate().Model((*usagePeriodRow)(nil)).
		Set("limit_reached_at = ?", dbTime(time.Now())).
		Where("account_id = ?", accountID).
		Where("period_start = ?", start).
		Where("limit_reached_at IS NULL").
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("mark limit reached: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("mark limit reached: %w", err)
	}
	return n == 1, nil
}

// ensurePeriod creates the period's counter row unless it exists.
func ensurePeriod(ctx context.Context, db bun.IDB, accountID string, start time.Time) error {
	if _, err := db.NewInsert().
		Model(&usagePeriodRow{AccountID: accountID, PeriodStart: start}).
		On("CONFLICT (account_id, period_start) DO NOTHING").
		Exec(ctx); err != nil {
		return fmt.Errorf("open usage period: %w", err)
	}
	return nil
}

func spent(ctx context.Context, db bun.IDB, accountID string, start time.Time) (int, error) {
	var n int
	err := db.NewSelect().Model((*usagePeriodRow)(nil)).
		Column("spent").
		Where("account_id = ?", accountID).
		Where("period_start = ?", start).
		Scan(ctx, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("get usage: %w", err)
	}
	return n, nil
}

// Statement groups the account's charges made in [from, to) by action and labels: how many and
// what they cost, ordered by action, then labels.
func (r *Usage) Statement(ctx context.Context, accountID string, from, to time.Time) ([]ledger.Line, error) {
	var rows []struct {
		Action       string `bun:"action"`
		Source       string `bun:"label_source"`
		Workflow     string `bun:"label_workflow"`
		WorkflowID   string `bun:"label_workflow_id"`
		ExecutionID  string `bun:"label_execution_id"`
		Requests     int    `bun:"requests"`
		Interactions int    `bun:"interactions"`
	}
	err := idb(ctx, r.db).NewSelect().Model((*chargeRow)(nil)).
		Column("action", "label_source", "label_workflow", "label_workflow_id", "label_execution_id").
		ColumnExpr("COUNT(*) AS requests").
		ColumnExpr("COALESCE(SUM(cost), 0) AS interactions").
		Where("account_id = ?", accountID).
		Where("created_at >= ?", dbTime(from)).
		Where("created_at < ?", dbTime(to)).
		Group("action", "label_source", "label_workflow", "label_workflow_id", "label_execution_id").
		Order("action", "label_source", "label_workflow", "label_workflow_id", "label_execution_id").
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("usage statement: %w", err)
	}
	lines := make([]ledger.Line, len(rows))
	for i, row := range rows {
		lines[i] = ledger.Line{
			Action:       ledger.Action(row.Action),
			Labels:       ledger.Labels{Source: row.Source, Workflow: row.Workflow, WorkflowID: row.WorkflowID, ExecutionID: row.ExecutionID},
			Requests:     row.Requests,
			Interactions: row.Interactions,
		}
	}
	return lines, nil
}

// Daily sums the account's charges made in period per calendar day (UTC), read through the
// (account_id, created_at) index. Times are stored in UTC on both stores: Postgres names the day
// with to_char in UTC, SQLite with the text's first ten characters (its times are stored as
// "2006-01-02 15:04:05…+00:00").
func (r *Usage) Daily(ctx context.Context, accountID string, period ledger.Period) ([]ledger.Day, error) {
	day := "substr(created_at, 1, 10)"
	if r.db.Dialect().Name() == dialect.PG {
		day = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	var rows []struct {
		Day          string `bun:"day"`
		Interactions int    `bun:"interactions"`
	}
	err := idb(ctx, r.db).NewSelect().Model((*chargeRow)(nil)).
		ColumnExpr(day+" AS day").
		ColumnExpr("COALESCE(SUM(cost), 0) AS interactions").
		Where("account_id = ?", accountID).
		Where("created_at >= ?", dbTime(period.Start)).
		Where("created_at < ?", dbTime(period.End)).
		GroupExpr("1").
		OrderExpr("1").
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("usage per day: %w", err)
	}
	days := make([]ledger.Day, 0, len(rows))
	for _, row := range rows {
		d, err := time.Parse(time.DateOnly, row.Day)
		if err != nil {
			return nil, fmt.Errorf("usage per day: day %q: %w", row.Day, err)
		}
		days = append(days, ledger.Day{Date: d, Interactions: row.Interactions})
	}
	return days, nil
}
