package store

import (
	"context"
	"database/sql"
	"time"
)

// SQLite in WAL mode appends every commit to the write-ahead log and copies the log back into the
// database file in a checkpoint. By default the commit that takes the log past 1,000 pages runs
// that checkpoint itself (copying the pages and syncing the file) before it returns, so every few
// hundred requests one request waits for it. This store's connections turn the automatic
// checkpoint off (wal_autocheckpoint(0)) and a goroutine of the process checkpoints instead, off
// any request's path: a PASSIVE checkpoint, which never waits for a writer or a reader, copies
// what no reader still needs; the next writer after a complete one starts the log over.

// checkpointEvery is how often the checkpointer runs; at 1,000 replies/s the log grows by a few
// thousand pages in that time, about what the default lets it reach.
const checkpointEvery = 250 * time.Millisecond

// checkpoints checkpoints db's log every checkpointEvery until the returned function is called.
func checkpoints(db *sql.DB) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// An error (the database closed, a busy lock) is retried at the next tick; the log
			// only grows meanwhile.
			_, _ = db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
