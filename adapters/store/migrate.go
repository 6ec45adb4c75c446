package store

import (
	"context"
	"embed"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLockID keys the Postgres advisory lock that serialises concurrent Migrate calls.
const migrateLockID = 7_400_211_026

// Migrate brings the schema up to date. It is idempotent and safe to run from several processes
// at once: on Postgres they take turns on an advisory lock, and each migration file runs in one
// transaction and is then recorded as applied (with an upsert), so a repeated run skips it. The
// record, not the statements, is what makes a rerun harmless: CREATE TABLE and CREATE INDEX say
// IF NOT EXISTS, but ALTER TABLE … ADD COLUMN (brain, session_keys, message_order) and the
// backfilling UPDATEs of message_order would fail or redo work if a file ran twice.
func Migrate(ctx context.Context, db *bun.DB) error {
	migrations := migrate.NewMigrations()
	if err := migrations.Discover(migrationFiles); err != nil {
		return fmt.Errorf("migrate: discover: %w", err)
	}
	if db.Dialect().Name() == dialect.PG {
		unlock, err := advisoryLock(ctx, db)
		if err != nil {
			return err
		}
		defer unlock()
	}
	m := migrate.NewMigrator(db, migrations,
		migrate.WithMarkAppliedOnSuccess(true),
		migrate.WithUpsert(true),
	)
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", err)
	}
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// advisoryLock holds a session-level advisory lock on a dedicated connection until unlock.
func advisoryLock(ctx context.Context, db *bun.DB) (unlock func(), err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrateLockID); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("migrate: lock: %w", err)
	}
	return func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrateLockID)
		_ = conn.Close()
	}, nil
}

// Unapplied returns the names of the migrations of this version not applied to db, in order: all
// of them when it was never migrated. It reads and changes nothing else.
func Unapplied(ctx context.Context, db *bun.DB) ([]string, error) {
	migrations := migrate.NewMigrations()
	if err := migrations.Discover(migrationFiles); err != nil {
		return nil, fmt.Errorf("migrate: discover: %w", err)
	}
	var exists bool
	q := "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bun_migrations')"
	if db.Dialect().Name() == dialect.PG {
		q = "SELECT to_regclass('bun_migrations') IS NOT NULL"
	}
	if err := db.QueryRowContext(ctx, q).Scan(&exists); err != nil {
		return nil, fmt.Errorf("migrate: status: %w", err)
	}
	all := migrations.Sorted()
	if exists {
		var err error
		if all, err = migrate.NewMigrator(db, migrations).MigrationsWithStatus(ctx); err != nil {
			return nil, fmt.Errorf("migrate: status: %w", err)
		}
	}
	var names []string
	for _, m := range all.Unapplied() {
		names = append(names, m.Name)
	}
	return names, nil
}
