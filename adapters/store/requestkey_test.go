package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
)

// TestReplyJobsByRequestKey finds the job of a request sent with an Idempotency-Key
// (conversation.Job.RequestKey), on both dialects: the done or pending one before the failed ones
// (a retry made it after they failed), else the latest failed; none of another key, of another
// account, or made before since; and the migration's down and up files apply.
func TestReplyJobsByRequestKey(t *testing.T) {
	const name = "migrations/20261130000000_reply_jobs_request_key.tx."
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			for _, file := range []string{"down.sql", "up.sql"} {
				applyFile(t, db, name+file)
			}
			t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
			storetest.Accounts(t, db, storetest.Account("acct_a", t0), storetest.Account("acct_b", t0))
			jobs := store.NewReplyJobs(db)
			add := func(id, acct, key string, status conversation.JobStatus, at time.Time) {
				t.Helper()
				if err := jobs.Create(ctx, conversation.Job{ID: id, AccountID: acct, ConversationID: "c", MessageID: "msg_1", Channel: conversation.ChannelAPI,
					Status: status, LeaseUntil: at, RequestKey: key, CreatedAt: at, UpdatedAt: at}); err != nil {
					t.Fatal(err)
				}
			}
			add("job_old", "acct_a", "k1", conversation.JobFailed, t0.Add(-48*time.Hour))
			add("job_1", "acct_a", "k1", conversation.JobFailed, t0)
			add("job_2", "acct_a", "k1", conversation.JobFailed, t0.Add(time.Second))
			add("job_b", "acct_b", "k2", conversation.JobDone, t0)
			add("job_none", "acct_a", "", conversation.JobDone, t0)
			find := func(acct, key string, since time.Time) string {
				t.Helper()
				j, err := jobs.ByRequestKey(ctx, acct, key, since)
				if domain.IsNotFound(err) {
					return ""
				}
				if err != nil {
					t.Fatal(err)
				}
				if j.RequestKey != key {
					t.Errorf("job %s: request key %q, want %q", j.ID, j.RequestKey, key)
				}
				return j.ID
			}
			since := t0.Add(-24 * time.Hour)
			if got := find("acct_a", "k1", since); got != "job_2" {
				t.Errorf("all failed: %q, want the latest, job_2", got)
			}
			add("job_3", "acct_a", "k1", conversation.JobPending, t0.Add(-time.Second))
			if got := find("acct_a", "k1", since); got != "job_3" {
				t.Errorf("a pending one: %q, want job_3", got)
			}
			for _, c := range []struct {
				acct, key string
				since     time.Time
			}{{"acct_a", "k2", since}, {"acct_b", "k1", since}, {"acct_a", "", since}, {"acct_a", "k1", t0.Add(time.Hour)}} {
				if got := find(c.acct, c.key, c.since); got != "" {
					t.Errorf("ByRequestKey(%s, %q, %s) = %s, want none", c.acct, c.key, c.since, got)
				}
			}
		})
	}
}

// TestExchangeKeepsTheRequestKey: a reply stored in one exchange (the built-in engine's inline
// path) keeps its job's request key, on both dialects and on each way Exchange stores (its own
// statement or group, and within the caller's transaction), so that a retry of the request finds
// the reply rather than store the message again.
func TestExchangeKeepsTheRequestKey(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
			createAccount(t, db, "acct_k", now)
			if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: "chg_open", AccountID: "acct_k", Action: ledger.ChatReply, Cost: 1, At: now},
				ledger.PeriodAt(now), 100); err != nil || !ok {
				t.Fatalf("opening charge: %t %v", ok, err)
			}
			convs, jobs := store.NewConversations(db), store.NewReplyJobs(db)
			for i, inTx := range []bool{false, true} {
				x := groupExchange(i, "acct_k", fmt.Sprint("c", i), fmt.Sprint("msg_c", i), fmt.Sprint("msg_r", i), 100, now)
				x.Job.RequestKey = fmt.Sprint("ref-", i)
				var err error
				if inTx {
					err = store.NewTx(db).InTx(ctx, func(ctx context.Context) error { _, _, _, err := convs.Exchange(ctx, x); return err })
				} else {
					_, _, _, err = convs.Exchange(ctx, x)
				}
				if err != nil {
					t.Fatalf("exchange %d: %v", i, err)
				}
				j, err := jobs.ByRequestKey(ctx, "acct_k", x.Job.RequestKey, now.Add(-time.Hour))
				if err != nil || j.ID != x.Job.ID || j.Status != conversation.JobDone {
					t.Errorf("exchange %d (in a transaction: %t): job %+v, %v; want %s, done", i, inTx, j, err, x.Job.ID)
				}
			}
		})
	}
}
