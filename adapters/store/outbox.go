package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
)

var _ ports.Outbox = (*Outbox)(nil)

// Outbox implements ports.Outbox. It is system-wide: the relay works for every account.
type Outbox struct {
	db    *bun.DB
	claim *prepared // Claim's statement: every relay runs it every tick, mostly finding nothing
}

// NewOutbox returns the outbox of db.
func NewOutbox(db *bun.DB) *Outbox {
	return &Outbox{db: db, claim: prepare(db, pgClaim, sqliteClaim)}
}

// claimQuery is Claim's statement, bun's query with the cutoff (%[1]s), the time of the claim
// (%[2]s) and the limit (%[3]s) as arguments, prepared: the relay of every process runs it 4 times
// a second even when nothing was written, and as text Postgres parsed and planned it each time.
const claimQuery = `UPDATE "outbox" SET enqueued_at = %[2]s, attempts = attempts + 1
WHERE id IN (SELECT "id" FROM "outbox" WHERE (done_at IS NULL AND (enqueued_at IS NULL OR enqueued_at <= %[1]s))
ORDER BY "created_at", "id" LIMIT %[3]s%[4]s)
AND (done_at IS NULL AND (enqueued_at IS NULL OR enqueued_at <= %[1]s))
RETURNING "id", "account_id", "topic", "payload", "created_at", "enqueued_at", "done_at", "attempts"`

// Claim's statement in each dialect: on Postgres the candidates are locked as they are chosen and
// those another claimer holds are skipped.
var (
	pgClaim     = fmt.Sprintf(claimQuery, "$1", "$2", "$3", " FOR UPDATE SKIP LOCKED")
	sqliteClaim = fmt.Sprintf(claimQuery, "?1", "?2", "?3", "")
)

// Add writes a message, in the caller's transaction when ctx has one.
func (r *Outbox) Add(ctx context.Context, m outbox.Message) error {
	if _, err := idb(ctx, r.db).NewInsert().Model(toOutboxRow(m)).Exec(ctx); err != nil {
		return fmt.Errorf("add outbox message: %w", err)
	}
	return nil
}

// Ensure adds m unless a message with its id exists.
func (r *Outbox) Ensure(ctx context.Context, m outbox.Message) error {
	if _, err := idb(ctx, r.db).NewInsert().Model(toOutboxRow(m)).On("CONFLICT (id) DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("ensure outbox message: %w", err)
	}
	return nil
}

// Claim marks up to limit claimable messages as enqueued at now, adds one to their attempts and
// returns them, oldest first, in one statement: an update of the oldest claimable messages that
// checks the condition again on each row it changes, so that of two concurrent claimers only one
// gets a message (on Postgres the candidates are locked as they are chosen, and those another
// claimer holds are skipped; SQLite runs one writer at a time).
func (r *Outbox) Claim(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]outbox.Message, error) {
	if limit <= 0 {
		return nil, nil
	}
	now = dbTime(now)
	cutoff := now.Add(-lease)
	var rows []outboxRow
	stmt, ok, err := r.claim.on(ctx, r.db)
	switch {
	case err != nil:
		return nil, fmt.Errorf("claim outbox messages: %w", err)
	case ok:
		var found *sql.Rows
		if r.db.Dialect().Name() == dialect.PG {
			found, err = stmt.QueryContext(ctx, cutoff, now, limit)
		} else {
			found, err = stmt.QueryContext(ctx, sqliteTime(cutoff), sqliteTime(now), limit)
		}
		if err == nil {
			err = r.db.ScanRows(ctx, found, &rows)
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("claim outbox messages: %w", err)
		}
	default:
		if rows, err = r.claimText(ctx, cutoff, now, limit); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(rows, func(a, b outboxRow) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	claimed := make([]outbox.Message, len(rows))
	for i := range rows {
		claimed[i] = rows[i].domain()
	}
	return claimed, nil
}

// claimText is Claim's statement as bun's text, for when it is not prepared yet (in a
// transaction, before the schema existed).
func (r *Outbox) claimText(ctx context.Context, cutoff, now time.Time, limit int) ([]outboxRow, error) {
	db := idb(ctx, r.db)
	candidates := db.NewSelect().Model((*outboxRow)(nil)).
		Column("id").
		Where(claimable, cutoff).
		Order("created_at", "id").
		Limit(int64(limit))
	if db.Dialect().Name() == dialect.PG {
		candidates = candidates.For("UPDATE SKIP LOCKED")
	}
	var rows []outboxRow
	if err := db.NewUpdate().Model((*outboxRow)(nil)).
		Set("enqueued_at = ?", now).
		Set("attempts = attempts + 1").
		Where("id IN (?)", candidates).
		Where(claimable, cutoff).
		Returning("*").
		Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("claim outbox messages: %w", err)
	}
	return rows, nil
}

// claimable selects what outbox.Message.Claimable accepts: not done, and never enqueued or
// enqueued at the cutoff (now - lease) or before.
const claimable = "done_at IS NULL AND (enqueued_at IS NULL OR enqueued_at <= ?)"

// Done confirms a message. Confirming it again changes nothing; not_found when none.
func (r *Outbox) Done(ctx context.Context, id string, at time.Time) error {
	db := idb(ctx, r.db)
	res, err := db.NewUpdate().Model((*outboxRow)(nil)).
		Set("done_at = ?", dbTime(at)).
		Where("id = ?", id).
		Where("done_at IS NULL").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("confirm outbox message: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("confirm outbox message: %w", err)
	}
	if n == 0 { // already done, or unknown
		_, err = r.Get(ctx, id)
	}
	return err
}

// Get returns one message; not_found when none.
func (r *Outbox) Get(ctx context.Context, id string) (outbox.Message, error) {
	var m outboxRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("id = ?", id).Scan(ctx); err != nil {
		return outbox.Message{}, notFound(err, "outbox message", "get outbox message")
	}
	return m.domain(), nil
}

// Backlog counts the messages not done yet.
func (r *Outbox) Backlog(ctx context.Context) (int, error) {
	n, err := idb(ctx, r.db).NewSelect().Model((*outboxRow)(nil)).Where("done_at IS NULL").Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count outbox backlog: %w", err)
	}
	return int(n), nil
}
