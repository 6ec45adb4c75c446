package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/internal/testenv"
)

// TestKeyChanges checks ports.KeyChanges: on Postgres the generation moves at once after this
// process's own write of a key or an account, and shortly after another process's (another pool
// on the same database stands for it), while a read moves nothing; SQLite never follows changes.
func TestKeyChanges(t *testing.T) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)

	t.Run("SQLite", func(t *testing.T) {
		db := newDB(t, testenv.SQLite(t))
		if _, ok := store.NewKeys(db).Generation(); ok {
			t.Fatal("SQLite follows changes; want ok false (svcctl writes from another process)")
		}
	})

	t.Run("Postgres", func(t *testing.T) {
		url := testenv.Postgres(t)
		db := newDB(t, url)
		other, closeOther, err := store.Open(ctx, url) // another process's pool
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(closeOther)
		keys := store.NewKeys(db)
		following := func() uint64 {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				gen, ok := keys.Generation()
				if ok {
					return gen
				}
				if time.Now().After(deadline) {
					t.Fatal("the watch never started listening")
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		createAccount(t, db, "acct_a", now)
		k := account.Key{ID: "key_a", AccountID: "acct_a", Hash: "hash_a", Last4: "aaaa", CreatedAt: now}
		if err := keys.Create(ctx, k); err != nil {
			t.Fatal(err)
		}
		gen := following()
		time.Sleep(100 * time.Millisecond) // the notifications of the writes above have arrived
		gen = following()

		if _, err := keys.List(ctx, "acct_a"); err != nil {
			t.Fatal(err)
		}
		if g, _ := keys.Generation(); g != gen {
			t.Fatalf("a read moved the generation from %d to %d", gen, g)
		}

		// This process's own writes: at once.
		for _, write := range []struct {
			name string
			do   func() error
		}{
			{"set a key's permission", func() error { _, err := keys.SetSendWithoutApproval(ctx, "key_a", true); return err }},
			{"update an account", func() error {
				return store.NewAccounts(db).Update(ctx, "acct_a", func(a *account.Account) error { a.Plan = "pro"; return nil })
			}},
			{"revoke a key", func() error { _, err := keys.Revoke(ctx, "key_a", now); return err }},
		} {
			before, _ := keys.Generation()
			if err := write.do(); err != nil {
				t.Fatalf("%s: %v", write.name, err)
			}
			if after, _ := keys.Generation(); after == before {
				t.Errorf("%s: the generation stayed %d", write.name, after)
			}
		}

		// Another process's write: once its notification arrives.
		time.Sleep(100 * time.Millisecond)
		before, _ := keys.Generation()
		if err := store.NewAccounts(other).Update(ctx, "acct_a", func(a *account.Account) error {
			a.Status = account.Inactive
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			if after, ok := keys.Generation(); ok && after != before {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("another process's change to an account was not heard of within 5 s")
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}
