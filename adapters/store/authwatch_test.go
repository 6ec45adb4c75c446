package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/internal/testenv"
)

// TestKeyChanges checks ports.KeyChanges on both stores: the generation moves at once after this
// process's own write of a key or an account, and shortly after another process's (another pool
// on the same database stands for it), while a read, a key's creation or its last use moves
// nothing.
func TestKeyChanges(t *testing.T) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)

	for _, tc := range []struct {
		name string
		url  func(testing.TB) string
	}{
		{"SQLite", func(t testing.TB) string { return testenv.SQLite(t) }},
		{"Postgres", func(t testing.TB) string { return testenv.Postgres(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
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
						t.Fatal("the watch never started following")
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
			time.Sleep(200 * time.Millisecond) // the signals of the writes above have arrived
			gen = following()

			if _, err := keys.List(ctx, "acct_a"); err != nil {
				t.Fatal(err)
			}
			if err := keys.Touch(ctx, now, []string{"key_a"}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond) // a signal would have arrived
			if g, _ := keys.Generation(); g != gen {
				t.Fatalf("a read or a key's last use moved the generation from %d to %d", gen, g)
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

			// Another process's writes: once their signal arrives.
			for _, write := range []struct {
				name string
				do   func() error
			}{
				{"update an account", func() error {
					return store.NewAccounts(other).Update(ctx, "acct_a", func(a *account.Account) error {
						a.Status = account.Inactive
						return nil
					})
				}},
				{"set a key's permission", func() error {
					_, err := store.NewKeys(other).SetSendWithoutApproval(ctx, "key_a", false)
					return err
				}},
			} {
				time.Sleep(200 * time.Millisecond)
				before, _ := keys.Generation()
				if err := write.do(); err != nil {
					t.Fatalf("%s: %v", write.name, err)
				}
				deadline := time.Now().Add(5 * time.Second)
				for {
					if after, ok := keys.Generation(); ok && after != before {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("another process's write (%s) was not heard of within 5 s", write.name)
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		})
	}
}
