package portstest

import (
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/owner"
	"github.com/svcagent/svc/ports"
)

// OwnerStores are the store ports of the console's sign-in, over the same database as Stores.
type OwnerStores struct {
	Stores
	Owners ports.Owners
}

// RunOwners runs the conformance suite of ports.Owners. newStores is called once per subtest and
// must return stores over an empty database of their own.
func RunOwners(t *testing.T, newStores func(t *testing.T) OwnerStores) {
	tests := []struct {
		name string
		run  func(t *testing.T, s OwnerStores)
	}{
		{"Credentials", testOwnerCredentials},
		{"CredentialsConcurrent", testOwnerCredentialsConcurrent},
		{"Sessions", testOwnerSessions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStores(t)
			createAccounts(t, s.Stores, "acct_a", "acct_b")
			tt.run(t, s)
		})
	}
}

func testOwnerCredentials(t *testing.T, s OwnerStores) {
	ctx := t.Context()
	if _, err := s.Owners.Credential(ctx, "lu@example.com"); !domain.IsNotFound(err) {
		t.Fatalf("Credential before any: %v, want not_found", err)
	}
	a := owner.Credential{AccountID: "acct_a", Email: "lu@example.com", Hash: "h1", UpdatedAt: t0}
	if err := s.Owners.SetCredential(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err := s.Owners.Credential(ctx, "lu@example.com")
	if err != nil || got != a {
		t.Fatalf("Credential = %+v, %v; want %+v", got, err, a)
	}
	// Another account may not take the e-mail.
	err = s.Owners.SetCredential(ctx, owner.Credential{AccountID: "acct_b", Email: "lu@example.com", Hash: "h2", UpdatedAt: t0})
	if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != "email" {
		t.Fatalf("SetCredential of a taken e-mail: %v, want invalid_request on email", err)
	}
	// The same account replaces its own, e-mail and hash.
	a2 := owner.Credential{AccountID: "acct_a", Email: "new@example.com", Hash: "h3", UpdatedAt: t0.Add(time.Minute)}
	if err := s.Owners.SetCredential(ctx, a2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Owners.Credential(ctx, "lu@example.com"); !domain.IsNotFound(err) {
		t.Fatalf("old e-mail after the change: %v, want not_found", err)
	}
	if got, err := s.Owners.Credential(ctx, "new@example.com"); err != nil || got != a2 {
		t.Fatalf("Credential = %+v, %v; want %+v", got, err, a2)
	}
	// The freed e-mail can now go to acct_b.
	if err := s.Owners.SetCredential(ctx, owner.Credential{AccountID: "acct_b", Email: "lu@example.com", Hash: "h4", UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
}

func testOwnerCredentialsConcurrent(t *testing.T, s OwnerStores) {
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.Owners.SetCredential(ctx, owner.Credential{AccountID: "acct_a", Email: "lu@example.com",
				Hash: "h", UpdatedAt: t0.Add(time.Duration(i) * time.Second)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("SetCredential %d: %v", i, err)
		}
	}
	if got, err := s.Owners.Credential(ctx, "lu@example.com"); err != nil || got.AccountID != "acct_a" {
		t.Fatalf("Credential = %+v, %v", got, err)
	}
	// Two accounts asking for one new e-mail at once: one gets it, the other is told it is taken.
	var both sync.WaitGroup
	race := make([]error, 2)
	for i, acct := range []string{"acct_a", "acct_b"} {
		both.Go(func() {
			race[i] = s.Owners.SetCredential(ctx, owner.Credential{AccountID: acct, Email: "shared@example.com", Hash: "h", UpdatedAt: t0})
		})
	}
	both.Wait()
	taken := 0
	for i, err := range race {
		if e, ok := domain.AsError(err); ok && e.Code == domain.CodeInvalidRequest && e.Field == "email" {
			taken++
		} else if err != nil {
			t.Errorf("SetCredential of account %d: %v, want nil or invalid_request on email", i, err)
		}
	}
	if taken != 1 {
		t.Errorf("%d of two accounts were told the e-mail is taken, want 1 (errors %v)", taken, race)
	}
}

func testOwnerSessions(t *testing.T, s OwnerStores) {
	ctx := t.Context()
	a1 := owner.NewSession("hash_a1", "acct_a", t0)
	a2 := owner.NewSession("hash_a2", "acct_a", t0)
	b1 := owner.NewSession("hash_b1", "acct_b", t0)
	for _, x := range []owner.Session{a1, a2, b1} {
		if err := s.Owners.CreateSession(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Owners.Session(ctx, "hash_a1", t0.Add(time.Hour)); err != nil || got != a1 {
		t.Fatalf("Session = %+v, %v; want %+v", got, err, a1)
	}
	if _, err := s.Owners.Session(ctx, "hash_a1", a1.ExpiresAt); !domain.IsNotFound(err) {
		t.Fatalf("Session at its expiry: %v, want not_found", err)
	}
	if _, err := s.Owners.Session(ctx, "hash_none", t0); !domain.IsNotFound(err) {
		t.Fatalf("unknown Session: %v, want not_found", err)
	}
	if err := s.Owners.EndSession(ctx, "hash_a1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Owners.Session(ctx, "hash_a1", t0); !domain.IsNotFound(err) {
		t.Fatalf("ended Session: %v, want not_found", err)
	}
	if err := s.Owners.EndSession(ctx, "hash_a1"); err != nil {
		t.Fatalf("ending it again: %v", err)
	}
	if _, err := s.Owners.Session(ctx, "hash_a2", t0); err != nil {
		t.Fatalf("the account's other session: %v", err)
	}
	if err := s.Owners.EndSessions(ctx, "acct_a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Owners.Session(ctx, "hash_a2", t0); !domain.IsNotFound(err) {
		t.Fatalf("after EndSessions: %v, want not_found", err)
	}
	if _, err := s.Owners.Session(ctx, "hash_b1", t0); err != nil {
		t.Fatalf("another account's session after EndSessions: %v", err)
	}
}
