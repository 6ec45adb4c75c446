package owners_test

import (
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/app/owners"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/owner"
	rl "github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type env struct {
	svc      *owners.Service
	pw       *owners.Passwords
	accounts *store.Accounts
	clock    *clock
}

// newEnv is the service over a real SQLite store and the in-memory limiter, with accounts acct_a
// (owner lu@example.com) and acct_b (owner bea@example.com).
func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.SQLite(t)
	c := &clock{now}
	e := &env{accounts: storetest.Accounts(t, db, storetest.Account("acct_a", now), storetest.Account("acct_b", now)), clock: c}
	e.svc = owners.New(store.NewTx(db), store.NewOwners(db), e.accounts, ratelimit.NewMemory(c), c)
	e.pw = owners.NewPasswords(store.NewTx(db), store.NewOwners(db), e.accounts, c)
	for id, email := range map[string]string{"acct_a": "Lu@Example.com", "acct_b": "bea@example.com"} {
		if err := e.pw.SetPassword(t.Context(), id, email, "correct horse "+id); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func code(err error) domain.Code { return domain.ErrorCode(err) }

func TestSignIn(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	tok, acct, err := e.svc.SignIn(ctx, " lu@example.COM", "correct horse acct_a", "10.0.0.1", "")
	if err != nil || acct != "acct_a" || !owner.LooksLikeToken(tok) {
		t.Fatalf("SignIn = %q, %q, %v", tok, acct, err)
	}
	got, err := e.svc.Authenticate(ctx, tok)
	if err != nil || got.ID != "acct_a" {
		t.Fatalf("Authenticate = %v, %v", got.ID, err)
	}
	for _, tt := range []struct{ email, password string }{
		{"lu@example.com", "correct horse acct_b"},
		{"nobody@example.com", "correct horse acct_a"},
		{"not an e-mail", "x"},
	} {
		if _, _, err := e.svc.SignIn(ctx, tt.email, tt.password, "10.0.0.2", ""); code(err) != domain.CodeUnauthorized {
			t.Errorf("SignIn(%q, %q) = %v, want unauthorized", tt.email, tt.password, err)
		}
	}
	// Signing in again rotates: the previous token ends.
	tok2, _, err := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.1", tok)
	if err != nil || tok2 == tok {
		t.Fatalf("second SignIn = %q, %v", tok2, err)
	}
	if _, err := e.svc.Authenticate(ctx, tok); code(err) != domain.CodeUnauthorized {
		t.Errorf("the previous token after rotation: %v, want unauthorized", err)
	}
	// Sign-out ends the session.
	if err := e.svc.SignOut(ctx, tok2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Authenticate(ctx, tok2); code(err) != domain.CodeUnauthorized {
		t.Errorf("after SignOut: %v, want unauthorized", err)
	}
	// Sessions expire.
	tok3, _, _ := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.1", "")
	e.clock.t = now.Add(owner.SessionTTL)
	if _, err := e.svc.Authenticate(ctx, tok3); code(err) != domain.CodeUnauthorized {
		t.Errorf("expired session: %v, want unauthorized", err)
	}
}

func TestPasswordChangeEndsSessions(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	a1, _, _ := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.1", "")
	a2, _, _ := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.3", "")
	b1, _, _ := e.svc.SignIn(ctx, "bea@example.com", "correct horse acct_b", "10.0.0.4", "")
	if err := e.pw.SetPassword(ctx, "acct_a", "lu@example.com", "another good one"); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{a1, a2} {
		if _, err := e.svc.Authenticate(ctx, tok); code(err) != domain.CodeUnauthorized {
			t.Errorf("a session after the password change: %v, want unauthorized", err)
		}
	}
	if _, err := e.svc.Authenticate(ctx, b1); err != nil {
		t.Errorf("another account's session: %v", err)
	}
	if _, _, err := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.5", ""); code(err) != domain.CodeUnauthorized {
		t.Errorf("the old password: %v", err)
	}
	if _, _, err := e.svc.SignIn(ctx, "lu@example.com", "another good one", "10.0.0.5", ""); err != nil {
		t.Errorf("the new password: %v", err)
	}
}

func TestSetPasswordChecks(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	tests := []struct {
		acct, email, password string
		code                  domain.Code
		field                 string
	}{
		{"acct_a", "lu@example.com", "short", domain.CodeInvalidRequest, "password"},
		{"acct_a", "nope", "long enough password", domain.CodeInvalidRequest, "email"},
		{"acct_a", "BEA@example.com", "long enough password", domain.CodeInvalidRequest, "email"}, // acct_b's
		{"acct_none", "x@example.com", "long enough password", domain.CodeNotFound, ""},
	}
	for _, tt := range tests {
		err := e.pw.SetPassword(ctx, tt.acct, tt.email, tt.password)
		de, _ := domain.AsError(err)
		if code(err) != tt.code || (tt.field != "" && de.Field != tt.field) {
			t.Errorf("SetPassword(%s, %q, %q) = %v, want %s %s", tt.acct, tt.email, tt.password, err, tt.code, tt.field)
		}
	}
}

func TestSignInThrottled(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	// Ten wrong passwords for one account, from one address: the eleventh attempt is refused
	// even with the right password, and from another address too (the account's limit).
	for i := range 10 {
		if _, _, err := e.svc.SignIn(ctx, "lu@example.com", "wrong password", "10.0.0.9", ""); code(err) != domain.CodeUnauthorized {
			t.Fatalf("attempt %d: %v, want unauthorized", i+1, err)
		}
	}
	for _, addr := range []string{"10.0.0.9", "10.0.0.10"} {
		_, _, err := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", addr, "")
		if de, ok := domain.AsError(err); !ok || de.Code != domain.CodeRateLimited || de.RetryAfter <= 0 {
			t.Errorf("after 10 failures, from %s: %v, want rate_limited with a wait", addr, err)
		}
	}
	// The address's limit: other accounts from the same address are refused too.
	if _, _, err := e.svc.SignIn(ctx, "bea@example.com", "correct horse acct_b", "10.0.0.9", ""); code(err) != domain.CodeRateLimited {
		t.Errorf("another account from the throttled address: %v, want rate_limited", err)
	}
	// Time lets one attempt in again.
	e.clock.t = now.Add(2 * time.Minute)
	if _, _, err := e.svc.SignIn(ctx, "bea@example.com", "correct horse acct_b", "10.0.0.9", ""); err != nil {
		t.Errorf("after the wait: %v", err)
	}
}

func TestSignInInactiveAccount(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	tok, _, _ := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.1", "")
	if err := e.accounts.Update(ctx, "acct_a", func(a *account.Account) error { a.Status = account.Inactive; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.svc.SignIn(ctx, "lu@example.com", "correct horse acct_a", "10.0.0.1", ""); code(err) != domain.CodeAccountInactive {
		t.Errorf("SignIn of an inactive account: %v", err)
	}
	if _, err := e.svc.Authenticate(ctx, tok); code(err) != domain.CodeAccountInactive {
		t.Errorf("Authenticate of an inactive account: %v", err)
	}
}

func TestSignInLimiterDown(t *testing.T) {
	ctrl := gomock.NewController(t)
	db := storetest.SQLite(t)
	c := &clock{now}
	l := mock.NewMockRateLimiter(ctrl)
	l.EXPECT().Allow(gomock.Any(), gomock.Any(), gomock.Any()).Return(rl.Result{}, errDown)
	svc := owners.New(store.NewTx(db), store.NewOwners(db), storetest.Accounts(t, db, storetest.Account("acct_a", now)), l, c)
	if _, _, err := svc.SignIn(t.Context(), "lu@example.com", "whatever password", "10.0.0.1", ""); err == nil || code(err) != domain.CodeInternal {
		t.Errorf("SignIn with the limiter down = %v, want an internal error (fail closed)", err)
	}
}

var errDown = errorString("limiter down")

type errorString string

func (e errorString) Error() string { return string(e) }

// TestSetPasswordGivesTheOwnerEmail: an account without an owner's e-mail takes the sign-in
// e-mail (its alerts go there, and it is "me" to the assistant); one with an owner's e-mail keeps it.
func TestSetPasswordGivesTheOwnerEmail(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	if a, err := e.accounts.Get(ctx, "acct_a"); err != nil || a.OwnerEmail != "lu@example.com" {
		t.Fatalf("acct_a owner e-mail = %q, %v; want the sign-in e-mail", a.OwnerEmail, err)
	}
	c := storetest.Account("acct_c", now)
	c.OwnerEmail = "billing@example.com"
	if err := e.accounts.Create(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := e.pw.SetPassword(ctx, "acct_c", "cai@example.com", "correct horse acct_c"); err != nil {
		t.Fatal(err)
	}
	if a, err := e.accounts.Get(ctx, "acct_c"); err != nil || a.OwnerEmail != "billing@example.com" {
		t.Errorf("acct_c owner e-mail = %q, %v; want billing@example.com kept", a.OwnerEmail, err)
	}
}
