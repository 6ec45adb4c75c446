package store

import (
	"context"
	"database/sql"
	"time"
)

// SQLite copies the write-ahead log's pages back into the database file (a checkpoint) in the
// commit that takes the log past wal_autocheckpoint pages: that commit's statement, and every
// writer of the process behind it at the gate, waits for the copy and for the two flushes to disk
// around it (the log's, then the database file's). On a busy disk that was 17–170 ms, once every
// thousand charges or so: the relay's slowest requests. The log's checkpointer does that work
// beside the writers instead: a passive checkpoint on a connection of the pool waits for nobody
// and makes nobody wait, copying the pages committed before it began while the writers append
// behind them. The log starts again from its beginning (and stays short) only when a writer
// begins while every page of it has been copied, so the checkpointer runs passes until one
// copies the log whole: each pass copies what was committed during the last, fewer pages each
// time, and one that no commit overlaps leaves the log whole copied. SQLite's own checkpoint
// stays as the backstop for writers that leave it no moment between two commits.

// Every pause after a write the checkpointer copies the log (the pages of that long's commits,
// a few hundred at the relay's 300 requests a second), making at most checkpointPasses passes.
const (
	checkpointPause  = 100 * time.Millisecond
	checkpointPasses = 10
)

// logCheckpointer runs the checkpoints of a SQLite database's log beside its writers.
type logCheckpointer struct {
	db    *sql.DB       // set once the pool is open, before any write
	wrote chan struct{} // holds a signal when a writer left the gate since the last look
	stop  chan struct{}
	done  chan struct{}
}

func newLogCheckpointer() *logCheckpointer {
	return &logCheckpointer{wrote: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// written notes that a writer committed (or ended) a write.
func (c *logCheckpointer) written() {
	select {
	case c.wrote <- struct{}{}:
	default:
	}
}

// run checkpoints the log checkpointPause after each write until close.
func (c *logCheckpointer) run() {
	defer close(c.done)
	t := time.NewTimer(checkpointPause)
	t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-c.wrote:
		}
		t.Reset(checkpointPause)
		select {
		case <-c.stop:
			t.Stop()
			return
		case <-t.C:
		}
		c.checkpoint()
	}
}

// checkpoint runs passive checkpoints until one leaves the log copied whole, at most
// checkpointPasses. A failure (the database closing, say) leaves the pages to the next.
func (c *logCheckpointer) checkpoint() {
	for range checkpointPasses {
		// A read for the writer gate: it takes no write lock, and PASSIVE never waits.
		var busy, log, copied int
		err := c.db.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied)
		if err != nil || busy != 0 || copied >= log {
			return
		}
	}
}

// close stops the checkpointer.
func (c *logCheckpointer) close() {
	close(c.stop)
	<-c.done
}
