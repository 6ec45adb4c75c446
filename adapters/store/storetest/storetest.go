// Package storetest opens the real store for the tests of other packages (the use cases' tests
// run over it rather than over mocks of every repository): a migrated SQLite database in the
// test's temporary directory, and the accounts a test starts from.
package storetest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/account"
)

// SQLite returns a migrated store in t's temporary directory, closed when t ends.
func SQLite(t testing.TB) *bun.DB {
	t.Helper()
	db, closeDB, err := store.Open(t.Context(), "sqlite://"+filepath.Join(t.TempDir(), "svc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeDB)
	if err := store.Migrate(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// Account is an active starter account named by its id, made at at.
func Account(id string, at time.Time) account.Account {
	return account.Account{ID: id, Name: id, Plan: "starter", Status: account.Active, WidgetToken: "wt_" + id,
		CreatedAt: at, UpdatedAt: at}
}

// Accounts stores accts and returns the accounts repository of db.
func Accounts(t testing.TB, db *bun.DB, accts ...account.Account) *store.Accounts {
	t.Helper()
	r := store.NewAccounts(db)
	for _, a := range accts {
		if err := r.Create(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	return r
}
