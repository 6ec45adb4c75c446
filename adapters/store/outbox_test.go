package store_test

import (
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/internal/testenv"
)

// TestOutboxClaimPrepared checks that the relay's claim, which every process runs 4 times a
// second whether or not anything was written, is a statement prepared once and then only executed
// (Postgres's pg_prepared_statements counts its plans), not text Postgres parses and plans on each
// call; and that it claims as before: the oldest first, each once within the lease.
func TestOutboxClaimPrepared(t *testing.T) {
	db := newDB(t, testenv.Postgres(t))
	db.DB.SetMaxOpenConns(1) // one connection: the statements prepared on it are the ones seen
	ctx := t.Context()
	o := store.NewOutbox(db)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"m_b", "m_a"} {
		if err := o.Add(ctx, outbox.Message{ID: id, Topic: outbox.TopicPing, Payload: []byte("{}"), CreatedAt: now.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatalf("Add: %v", err)
		}
	}
	got, err := o.Claim(ctx, now.Add(time.Minute), outbox.Lease, 10)
	if err != nil || len(got) != 2 || got[0].ID != "m_b" || got[1].ID != "m_a" || got[0].Attempts != 1 || !got[0].EnqueuedAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("Claim = %+v, %v; want m_b then m_a, enqueued at the claim, 1 attempt", got, err)
	}
	for range 3 {
		if again, err := o.Claim(ctx, now.Add(time.Minute+time.Second), outbox.Lease, 10); err != nil || len(again) != 0 {
			t.Fatalf("Claim within the lease = %+v, %v; want nothing", again, err)
		}
	}
	var plans int
	if err := db.NewRaw(`SELECT COALESCE(sum(generic_plans + custom_plans), 0) FROM pg_prepared_statements
		WHERE statement LIKE '%UPDATE "outbox"%'`).Scan(ctx, &plans); err != nil {
		t.Fatalf("pg_prepared_statements: %v", err)
	}
	if plans != 4 {
		t.Errorf("the prepared claim ran %d times; want 4 (each Claim)", plans)
	}
}
