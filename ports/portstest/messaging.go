package portstest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/ports"
)

// Messaging are the messaging-channel store ports of one adapter, over one database with its
// accounts.
type Messaging struct {
	Tx          ports.Tx
	Accounts    ports.Accounts
	Connections ports.Connections
	Inbox       ports.Inbox
}

// RunMessaging runs the messaging store conformance suite. newStores is called once per subtest
// and must return stores over an empty database of their own.
func RunMessaging(t *testing.T, newStores func(t *testing.T) Messaging) {
	tests := []struct {
		name string
		run  func(t *testing.T, s Messaging)
	}{
		{"Connections", testConnections},
		{"InboxRecordsOnce", testInboxOnce},
		{"InboxConcurrent", testInboxConcurrent},
		{"InboxRollsBack", testInboxRollsBack},
		{"InboxForgets", testInboxForgets},
		{"InboxSweep", testInboxSweep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStores(t)) })
	}
}

func createMessagingAccounts(t *testing.T, s Messaging, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := s.Accounts.Create(t.Context(), newAccount(id)); err != nil {
			t.Fatalf("Accounts.Create(%s): %v", id, err)
		}
	}
}

// testConnections checks that a connection is stored per account and app, found by its hook only
// for its app, replaced by a second Save (keeping created_at), and that one account's connection
// is never another's.
func testConnections(t *testing.T, s Messaging) {
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a", "acct_b")
	wa := messaging.Connection{AccountID: "acct_a", App: messaging.WhatsApp, Hook: "mh_aaaaaaaaaaaaaaaaaaaaaaaa", PhoneNumberID: "1055",
		Sealed: []byte("sealed-a"), CreatedAt: t0, UpdatedAt: t0}
	tg := messaging.Connection{AccountID: "acct_b", App: messaging.Telegram, Hook: "mh_bbbbbbbbbbbbbbbbbbbbbbbb",
		Sealed: []byte("sealed-b"), CreatedAt: t0, UpdatedAt: t0}
	for _, c := range []messaging.Connection{wa, tg} {
		if err := s.Connections.Save(ctx, c); err != nil {
			t.Fatalf("Save: %v", err)
		}
	}
	got, err := s.Connections.Get(ctx, "acct_a", messaging.WhatsApp)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "Get", got, wa)
	got, err = s.Connections.ByHook(ctx, messaging.Telegram, tg.Hook)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "ByHook", got, tg)
	for _, probe := range []func() error{
		func() error { _, err := s.Connections.Get(ctx, "acct_b", messaging.WhatsApp); return err },
		func() error { _, err := s.Connections.Get(ctx, "acct_a", messaging.Telegram); return err },
		func() error { _, err := s.Connections.ByHook(ctx, messaging.WhatsApp, tg.Hook); return err },
		func() error { _, err := s.Connections.ByHook(ctx, messaging.Telegram, "mh_unknown"); return err },
	} {
		if err := probe(); !domain.IsNotFound(err) {
			t.Errorf("lookup of another account's or app's connection: %v; want not_found", err)
		}
	}
	again := wa
	again.Hook, again.PhoneNumberID, again.Sealed = "mh_cccccccccccccccccccccccc", "2077", []byte("sealed-a2")
	again.CreatedAt, again.UpdatedAt = t0.Add(1e9), t0.Add(2e9)
	if err := s.Connections.Save(ctx, again); err != nil {
		t.Fatalf("Save again: %v", err)
	}
	got, err = s.Connections.Get(ctx, "acct_a", messaging.WhatsApp)
	if err != nil {
		t.Fatal(err)
	}
	want := again
	want.CreatedAt = t0
	equal(t, "Get after a second Save", got, want)
	if _, err := s.Connections.ByHook(ctx, messaging.WhatsApp, wa.Hook); !domain.IsNotFound(err) {
		t.Errorf("the replaced hook still finds the connection: %v", err)
	}
}

// testInboxOnce checks that a key is fresh once per account.
func testInboxOnce(t *testing.T, s Messaging) {
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a", "acct_b")
	for _, step := range []struct {
		account, key string
		fresh        bool
	}{
		{"acct_a", "whatsapp:wamid.1", true},
		{"acct_a", "whatsapp:wamid.1", false},
		{"acct_a", "telegram:wamid.1", true},
		{"acct_b", "whatsapp:wamid.1", true},
		{"acct_a", "whatsapp:wamid.2", true},
		{"acct_b", "whatsapp:wamid.1", false},
	} {
		fresh, err := s.Inbox.Record(ctx, step.account, step.key, t0, time.Time{})
		if err != nil || fresh != step.fresh {
			t.Errorf("Record(%s, %s) = %v, %v; want %v", step.account, step.key, fresh, err, step.fresh)
		}
	}
}

// testInboxConcurrent checks that of concurrent records of one key exactly one is fresh.
func testInboxConcurrent(t *testing.T, s Messaging) {
	const callers = 16
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a")
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		fresh atomic.Int32
	)
	for i := range callers {
		wg.Go(func() {
			<-start
			// In a transaction, as the agent records it with the message it accepts.
			err := s.Tx.InTx(ctx, func(ctx context.Context) error {
				ok, err := s.Inbox.Record(ctx, "acct_a", "telegram:42", t0, time.Time{})
				if ok {
					fresh.Add(1)
				}
				return err
			})
			if err != nil {
				t.Errorf("Record #%d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := fresh.Load(); n != 1 {
		t.Errorf("%d concurrent records of one key: %d fresh; want 1", callers, n)
	}
}

// testInboxRollsBack checks that a record made in a transaction that rolls back is gone.
func testInboxRollsBack(t *testing.T, s Messaging) {
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a")
	err := s.Tx.InTx(ctx, func(ctx context.Context) error {
		if _, err := s.Inbox.Record(ctx, "acct_a", "whatsapp:x", t0, time.Time{}); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("InTx: %v", err)
	}
	fresh, err := s.Inbox.Record(ctx, "acct_a", "whatsapp:x", t0, time.Time{})
	if err != nil || !fresh {
		t.Errorf("Record after a rolled-back record = %v, %v; want fresh", fresh, err)
	}
}

// testInboxForgets checks that a record made before since is forgotten: recording its key again
// is fresh, once, and dates the record anew; a record made at or after since is kept.
func testInboxForgets(t *testing.T, s Messaging) {
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a")
	day := 24 * time.Hour
	for _, step := range []struct {
		name      string
		at, since time.Time
		fresh     bool
	}{
		{"first", t0, time.Time{}, true},
		{"within the keep", t0.Add(day), t0.Add(-day), false},
		{"made at since", t0.Add(2 * day), t0, false},
		{"after the keep", t0.Add(3 * day), t0.Add(day), true},
		{"again after the keep: dated anew", t0.Add(3*day + time.Minute), t0.Add(day), false},
		{"within the keep of the new date", t0.Add(4 * day), t0.Add(2 * day), false},
	} {
		fresh, err := s.Inbox.Record(ctx, "acct_a", "telegram:1:42", step.at, step.since)
		if err != nil || fresh != step.fresh {
			t.Errorf("%s: Record = %v, %v; want %v", step.name, fresh, err, step.fresh)
		}
	}
}

// testInboxSweep checks that Sweep deletes every account's records made before its time, and
// only those.
func testInboxSweep(t *testing.T, s Messaging) {
	ctx := t.Context()
	createMessagingAccounts(t, s, "acct_a", "acct_b")
	hour := time.Hour
	for _, r := range []struct {
		account, key string
		at           time.Time
	}{
		{"acct_a", "whatsapp:old", t0},
		{"acct_b", "telegram:7:1", t0.Add(hour)},
		{"acct_a", "whatsapp:new", t0.Add(2 * hour)},
	} {
		if _, err := s.Inbox.Record(ctx, r.account, r.key, r.at, time.Time{}); err != nil {
			t.Fatalf("Record(%s): %v", r.key, err)
		}
	}
	n, err := s.Inbox.Sweep(ctx, t0.Add(2*hour))
	if err != nil || n != 2 {
		t.Fatalf("Sweep = %d, %v; want 2 deleted", n, err)
	}
	// A key swept is fresh again, even for a since that would keep it; one kept is not.
	for _, r := range []struct {
		account, key string
		fresh        bool
	}{
		{"acct_a", "whatsapp:old", true},
		{"acct_b", "telegram:7:1", true},
		{"acct_a", "whatsapp:new", false},
	} {
		fresh, err := s.Inbox.Record(ctx, r.account, r.key, t0.Add(3*hour), time.Time{})
		if err != nil || fresh != r.fresh {
			t.Errorf("Record(%s, %s) after the sweep = %v, %v; want %v", r.account, r.key, fresh, err, r.fresh)
		}
	}
}
