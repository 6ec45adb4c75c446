package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// On Postgres a charge made outside a transaction (the relay's hold) is one statement (pgCharge)
// on the pool whose commits do not wait for the WAL flush. Under load many are in flight at once,
// each its own round trip, statement and commit. So at most pgHoldWriters of them are written at
// a time, and the charges arriving meanwhile wait and are then written together, as one
// statement (pgChargeMany) with one commit. A charge arriving while a writer is free is written
// alone, as its one statement, so nothing waits when there is no load; a group of one is written
// so too.
//
// The grouped statement charges every account of the group at once, all of its charges or none:
// an account's counter is raised by the sum of its charges only when the whole sum fits its limit
// (as ledger.Check decides, for charges of one cost). The charges of an account whose sum does not
// fit, or whose period has no counter row yet, are not written by it; each of them then takes the
// way of a charge alone (pgCharge, then the transaction that opens the period or refuses), one by
// one, so each is checked against the counter in turn and exactly those that do not fit are
// refused. The charges of one account and period in a group have one cost and one limit (one
// that differs is made alone, after the group), so that the counter after each charge is the
// counter before the group plus its rank among them times the cost. A failed grouped statement
// wrote nothing (one statement, one transaction): its charges are then made one by one as well.
//
// One process writes one group at a time (pgHoldWriters). The statement first locks the counters
// it will raise in the order of their accounts and periods (locked: sorted, and the update
// joins it, so that its row locks are taken in that order whatever the plan), the order in which the chat
// exchanges' groups (pggroup.go) and the groups of other processes take them, so that they wait
// for each other rather than deadlock. Were Postgres to end the statement as a deadlock all the
// same, it wrote nothing, and its charges are made one by one.

// pgHoldWriters bounds the charges (or groups) written at once on Postgres outside a transaction,
// in this process. One: a charge arriving while none is being written goes at once, alone, as
// before; under load the charges gather behind the one being written, and only one group
// statement of this process runs at a time, so its groups never wait for each other's locks.
var pgHoldWriters = 1

// maxHoldGroup bounds the charges of one grouped statement.
const maxHoldGroup = 64

// pgChargeMany is pgCharge for several charges: the arrays $1–$12 hold, in the order of their
// accounts and periods, each charge's id, account, action, cost, limit, reference, labels, period
// and time. It returns, for each charge it wrote, its place in the arrays (from 1) and the
// counter after it.
const pgChargeMany = `WITH input AS (
	SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[],
		$7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[])
		WITH ORDINALITY AS t(id, account_id, action, cost, spending_limit, ref, label_source,
			label_workflow, label_workflow_id, label_execution_id, period_start, created_at, n)
), wanted AS (
	SELECT account_id, period_start, min(cost) AS cost, min(spending_limit) AS spending_limit,
		count(*) AS charges, min(n) AS first
	FROM input GROUP BY account_id, period_start ORDER BY min(n)
), locked AS (
	SELECT u.account_id, u.period_start FROM usage_periods u
	JOIN wanted w ON u.account_id = w.account_id AND u.period_start = w.period_start
	ORDER BY u.account_id, u.period_start
	FOR UPDATE OF u
), counter AS (
	UPDATE usage_periods u SET spent = u.spent + w.cost * w.charges
	FROM wanted w, locked l
	WHERE u.account_id = w.account_id AND u.period_start = w.period_start
		AND l.account_id = u.account_id AND l.period_start = u.period_start
		AND (w.cost <= 0 OR u.spent + w.cost * w.charges <= w.spending_limit)
	RETURNING u.account_id, u.period_start, u.spent - w.cost * w.charges AS before, w.cost
), charged AS (
	SELECT i.*, c.before + c.cost * row_number() OVER (PARTITION BY i.account_id, i.period_start ORDER BY i.n) AS spent
	FROM input i JOIN counter c ON c.account_id = i.account_id AND c.period_start = i.period_start
), recorded AS (
	INSERT INTO charges (id, account_id, action, cost, ref, label_source, label_workflow,
		label_workflow_id, label_execution_id, period_start, created_at)
	SELECT id, account_id, action, cost, ref, label_source, label_workflow, label_workflow_id,
		label_execution_id, period_start, created_at FROM charged
)
SELECT n, spent FROM charged`

// pgHoldCall is one caller's charge waiting to be written on Postgres: once its group was
// written, charged and spent, or err, are set (neither: the caller charges alone).
type pgHoldCall struct {
	m     *chargeRow
	limit int

	spent   int
	charged bool  // written by its group: spent is the counter after it
	err     error // the group's commit failed
}

// chargeGrouped charges m within limit on Postgres outside a transaction: alone (one, the
// caller's usual way) when a writer is free, else in the next group of waiting charges (see
// handoff).
func (r *Usage) chargeGrouped(ctx context.Context, m *chargeRow, limit int, one func() (int, bool, error)) (total int, ok bool, err error) {
	call := &pgHoldCall{m: m, limit: limit}
	g, write := r.holds.enter(call, pgHoldWriters)
	switch {
	case !write:
		return call.result(one)
	case g == nil || len(g.calls) == 1:
		total, ok, err = one()
	default:
		r.writeHoldGroup(context.WithoutCancel(ctx), g.calls)
	}
	r.holds.leave(g, maxHoldGroup)
	if g != nil && len(g.calls) > 1 {
		return call.result(one)
	}
	return total, ok, err
}

// result is the outcome of a call its group wrote, or of one (the charge alone) when the group
// did not write it.
func (c *pgHoldCall) result(one func() (int, bool, error)) (int, bool, error) {
	switch {
	case c.err != nil:
		return 0, false, c.err
	case c.charged:
		return c.spent, true, nil
	}
	return one()
}

// writeHoldGroup writes the charges of group that it can in one statement (pgChargeMany) and
// sets their outcome; the others are left for their callers to charge alone. A failed statement
// leaves them all so; a failed commit fails them all.
func (r *Usage) writeHoldGroup(ctx context.Context, group []*pgHoldCall) {
	// In the order of the accounts and periods; of one account and period, only the charges of
	// the first one's cost and limit (the others are charged alone).
	ordered := slices.Clone(group)
	slices.SortStableFunc(ordered, func(a, b *pgHoldCall) int {
		return cmp.Or(strings.Compare(a.m.AccountID, b.m.AccountID), a.m.PeriodStart.Compare(b.m.PeriodStart))
	})
	rows := ordered[:0:0]
	for i, c := range ordered {
		if i > 0 {
			first := rows[len(rows)-1]
			if first.m.AccountID == c.m.AccountID && first.m.PeriodStart.Equal(c.m.PeriodStart) &&
				(first.m.Cost != c.m.Cost || first.limit != c.limit) {
				continue
			}
		}
		rows = append(rows, c)
	}
	if len(rows) < 2 {
		return // one charge goes its own way
	}
	stmt, prepared, err := r.many.on(ctx, r.db)
	if err != nil || !prepared {
		return
	}
	var a holdArrays
	for _, c := range rows {
		a.add(c.m, c.limit)
	}
	res, err := stmt.QueryContext(ctx, a.args()...)
	if err == nil {
		for res.Next() {
			var n, spent int
			if err = res.Scan(&n, &spent); err != nil {
				break
			}
			if n >= 1 && n <= len(rows) {
				rows[n-1].spent, rows[n-1].charged = spent, true
			}
		}
		err = cmp.Or(err, res.Err(), res.Close())
	}
	if err == nil {
		return
	}
	for _, c := range rows {
		c.charged = false
		if !isServerError(err) {
			// The connection failed: the statement may have been committed or not, so none of
			// its charges is made again.
			c.err = fmt.Errorf("charge: %w", err)
		}
	}
}

// isServerError reports whether err is Postgres refusing a statement (an error with its code),
// which then wrote nothing, rather than a failed connection.
func isServerError(err error) bool {
	var pg interface{ Field(byte) string }
	return errors.As(err, &pg) && pg.Field('C') != ""
}

// holdArrays are the arguments of pgChargeMany, as Postgres array literals.
type holdArrays struct {
	cols [12]strings.Builder
}

func (a *holdArrays) add(m *chargeRow, limit int) {
	for i, v := range [...]string{m.ID, m.AccountID, m.Action, strconv.Itoa(m.Cost), strconv.Itoa(limit), m.Ref,
		m.LabelSource, m.LabelWorkflow, m.LabelWorkflowID, m.LabelExecutionID,
		m.PeriodStart.Format(time.RFC3339Nano), m.CreatedAt.Format(time.RFC3339Nano)} {
		b := &a.cols[i]
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range v {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
}

func (a *holdArrays) args() []any {
	args := make([]any, len(a.cols))
	for i := range a.cols {
		args[i] = a.cols[i].String() + "}"
	}
	return args
}
