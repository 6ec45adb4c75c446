package accounts

import (
	"context"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

// changingKeys is a Keys store that can tell changes (ports.KeyChanges).
type changingKeys struct {
	*mock.MockKeys
	gen    uint64
	follow bool
}

func (k *changingKeys) Generation() (uint64, bool) { return k.gen, k.follow }

// keptFixture is an Access over a store that follows changes, a limiter that lets everything in
// and a clock at now.
func keptFixture(t *testing.T) (*changingKeys, *Access) {
	ctrl := gomock.NewController(t)
	keys := &changingKeys{MockKeys: mock.NewMockKeys(ctrl), follow: true}
	keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes() // the key's last use
	limiter := mock.NewMockRateLimiter(ctrl)
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(now).AnyTimes()
	limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}}, nil).AnyTimes()
	return keys, NewAccess(keys, limiter, plans, clock)
}

// TestAdmitKept checks when AdmitKept reuses a check of the key instead of reading the store:
// only while the store follows changes and reports none, within KeptFor, in the same period,
// with room left in the allowance; and that Admit never reuses one.
func TestAdmitKept(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	cred := ports.Credential{Key: key, Account: active, Spent: 7}
	usedUp := ports.Credential{Key: key, Account: active, Spent: 1000}
	revoked := key
	revoked.RevokedAt = now

	for _, tt := range []struct {
		name   string
		follow bool
		first  ports.Credential
		change func(k *changingKeys, clock *time.Time) // between the two requests
		reads  int                                     // store reads of the two requests
		want   domain.Code                             // of the second request ("" for admitted)
	}{
		{name: "reused while nothing changed", follow: true, first: cred, reads: 1},
		{name: "read again after a change", follow: true, first: cred, reads: 2,
			change: func(k *changingKeys, _ *time.Time) { k.gen++ }},
		{name: "read again after KeptFor", follow: true, first: cred, reads: 2,
			change: func(_ *changingKeys, c *time.Time) { *c = c.Add(KeptFor) }},
		{name: "read again in a new period", follow: true, first: cred, reads: 2,
			change: func(_ *changingKeys, c *time.Time) { *c = ledger.PeriodAt(*c).End.Add(time.Second) }},
		{name: "an allowance used up is not kept", follow: true, first: usedUp, reads: 2},
		{name: "nothing kept while changes cannot be followed", follow: false, first: cred, reads: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			keys := &changingKeys{MockKeys: mock.NewMockKeys(ctrl), follow: tt.follow}
			keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes() // the key's last use
			limiter := mock.NewMockRateLimiter(ctrl)
			clock := mock.NewMockClock(ctrl)
			at := now
			clock.EXPECT().Now().DoAndReturn(func() time.Time { return at }).AnyTimes()
			limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}, {Allowed: true}}, nil).Times(2)
			keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(tt.first, nil).Times(tt.reads)
			access := NewAccess(keys, limiter, plans, clock)
			if _, err := access.AdmitKept(context.Background(), goodKey, ratelimit.Compat); err != nil {
				t.Fatalf("first AdmitKept: %v", err)
			}
			if tt.change != nil {
				tt.change(keys, &at)
			}
			ad, err := access.AdmitKept(context.Background(), goodKey, ratelimit.Compat)
			if err != nil || ad.Principal.KeyID != "key_1" {
				t.Fatalf("second AdmitKept: %+v, %v", ad.Principal, err)
			}
			if _, err := ad.Limit(ratelimit.Compat); err != nil {
				t.Fatalf("the limit of a reused check: %v", err)
			}
		})
	}

	t.Run("a revocation is read after the change", func(t *testing.T) {
		keys, access := keptFixture(t)
		keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(cred, nil)
		if _, err := access.AdmitKept(context.Background(), goodKey); err != nil {
			t.Fatalf("before: %v", err)
		}
		keys.gen++
		keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: revoked, Account: active}, nil)
		if _, err := access.AdmitKept(context.Background(), goodKey); domain.ErrorCode(err) != domain.CodeUnauthorized {
			t.Fatalf("after the revocation: %v; want unauthorized", err)
		}
	})

	t.Run("a reused check notes the key's use", func(t *testing.T) {
		ctrl := gomock.NewController(t)
		keys := &changingKeys{MockKeys: mock.NewMockKeys(ctrl), follow: true}
		limiter := mock.NewMockRateLimiter(ctrl)
		limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}}, nil).AnyTimes()
		calls := make(chan touch, 4)
		touchRecorder(keys.MockKeys, calls, nil, func() error { return nil })
		keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(cred, nil).Times(2) // never for the reuse
		clock := newMovingClock(now)
		access := NewAccess(keys, limiter, plans, clock)
		if _, err := access.AdmitKept(context.Background(), goodKey); err != nil {
			t.Fatal(err)
		}
		if c := nextTouch(t, calls); !c.at.Equal(now) {
			t.Fatalf("first use written at %v, want %v", c.at, now)
		}
		clock.set(now.Add(TouchEvery - 5*time.Second))
		keys.gen++ // a change: read again, and the use is within a minute of the last write
		if _, err := access.AdmitKept(context.Background(), goodKey); err != nil {
			t.Fatal(err)
		}
		noTouch(t, calls)
		reused := now.Add(TouchEvery + time.Second) // within KeptFor of the read before
		clock.set(reused)
		if _, err := access.AdmitKept(context.Background(), goodKey); err != nil {
			t.Fatal(err)
		}
		if c := nextTouch(t, calls); !c.at.Equal(reused) {
			t.Fatalf("reused check's use written at %v, want %v", c.at, reused)
		}
	})

	t.Run("Admit always reads", func(t *testing.T) {
		keys, access := keptFixture(t)
		keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(cred, nil).Times(3)
		if _, err := access.AdmitKept(context.Background(), goodKey); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := access.Admit(context.Background(), goodKey); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestAdmitKeptCountsWhenAsked checks that the limits of a reused check are counted at the first
// Limit, once, and that a refusal marks the account Limited for LimitedFor.
func TestAdmitKeptCountsWhenAsked(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	ctrl := gomock.NewController(t)
	keys := &changingKeys{MockKeys: mock.NewMockKeys(ctrl), follow: true}
	keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
	keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: active}, nil).Times(2)
	limiter := mock.NewMockRateLimiter(ctrl)
	clock := newMovingClock(now)
	access := NewAccess(keys, limiter, plans, clock)
	ctx := context.Background()

	limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}, {Allowed: true}}, nil)
	if _, err := access.AdmitKept(ctx, goodKey, ratelimit.Compat); err != nil { // read, counted at once
		t.Fatal(err)
	}
	ad, err := access.AdmitKept(ctx, goodKey, ratelimit.Compat) // reused: nothing counted yet (the mock fails a call)
	if err != nil || ad.Limited {
		t.Fatalf("reused: %+v, %v", ad, err)
	}
	limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}, {RetryAfter: time.Second}}, nil)
	if _, err := ad.Limit(ratelimit.PerKey); err != nil {
		t.Fatalf("per-key limit: %v", err)
	}
	if _, err := ad.Limit(ratelimit.Compat); domain.ErrorCode(err) != domain.CodeRateLimited {
		t.Fatalf("model limit: %v; want rate_limited, from the same count", err)
	}
	if ad, _ = access.AdmitKept(ctx, goodKey, ratelimit.Compat); !ad.Limited {
		t.Fatal("after a refusal: not Limited")
	}
	clock.set(now.Add(LimitedFor)) // past KeptFor too: read and counted again
	limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}, {Allowed: true}}, nil)
	if ad, _ = access.AdmitKept(ctx, goodKey, ratelimit.Compat); ad.Limited {
		t.Fatal("LimitedFor after the refusal: still Limited")
	}
}

// TestAdmitKeptRenews checks that a kept check older than RenewAfter has its key read again off
// the request's path, that the new check then stands for the reads after the old one's KeptFor,
// and that a renewal finding the key revoked drops the check, so that the next request reads it.
func TestAdmitKeptRenews(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	revoked := key
	revoked.RevokedAt = now

	fixture := func(t *testing.T) (*changingKeys, *movingClock, *Access, chan ports.Credential) {
		ctrl := gomock.NewController(t)
		keys := &changingKeys{MockKeys: mock.NewMockKeys(ctrl), follow: true}
		keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
		limiter := mock.NewMockRateLimiter(ctrl)
		limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}}, nil).AnyTimes()
		reads := make(chan ports.Credential, 4) // what each read of the key answers, in turn
		keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).DoAndReturn(
			func(context.Context, string, ledger.Period) (ports.Credential, error) {
				select {
				case c := <-reads:
					return c, nil
				default:
					t.Error("an unexpected read of the key")
					return ports.Credential{}, domain.NotFound("key")
				}
			}).AnyTimes()
		clock := newMovingClock(now)
		return keys, clock, NewAccess(keys, limiter, plans, clock), reads
	}
	admit := func(t *testing.T, access *Access) (Admission, error) {
		t.Helper()
		return access.AdmitKept(context.Background(), goodKey)
	}
	renewed := func(t *testing.T, reads chan ports.Credential) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); len(reads) > 0; {
			if time.Now().After(deadline) {
				t.Fatal("the kept check was not renewed: the key was not read again")
			}
			time.Sleep(time.Millisecond)
		}
	}

	t.Run("renewed off the path and reused past the first check's KeptFor", func(t *testing.T) {
		_, clock, access, reads := fixture(t)
		reads <- ports.Credential{Key: key, Account: active, Spent: 7}
		if _, err := admit(t, access); err != nil {
			t.Fatal(err)
		}
		clock.set(now.Add(RenewAfter - time.Second))
		if _, err := admit(t, access); err != nil { // reused, too young to renew
			t.Fatal(err)
		}
		reads <- ports.Credential{Key: key, Account: active, Spent: 9}
		clock.set(now.Add(RenewAfter))
		ad, err := admit(t, access) // reused, and renewed in the background
		if err != nil || ad.Principal.Usage.Spent != 7 || !ad.Kept {
			t.Fatalf("at RenewAfter: %+v, %v; want the kept check (spent 7)", ad.Principal.Usage, err)
		}
		renewed(t, reads)
		for range 100 { // the renewal's check is kept once it is read; wait for it
			if c, ok := access.kept.Peek(key.Hash); ok && c.principal.Usage.Spent == 9 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		clock.set(now.Add(KeptFor + time.Second))
		ad, err = admit(t, access) // past the first check's KeptFor: the renewed one stands, no read
		if err != nil || ad.Principal.Usage.Spent != 9 || !ad.Kept {
			t.Fatalf("after KeptFor: %+v, %v; want the renewed check (spent 9)", ad.Principal.Usage, err)
		}
	})

	t.Run("a renewal that finds the key revoked drops the check", func(t *testing.T) {
		_, clock, access, reads := fixture(t)
		reads <- ports.Credential{Key: key, Account: active, Spent: 7}
		if _, err := admit(t, access); err != nil {
			t.Fatal(err)
		}
		reads <- ports.Credential{Key: revoked, Account: active}
		clock.set(now.Add(RenewAfter))
		if _, err := admit(t, access); err != nil { // reused; the renewal reads the revocation
			t.Fatal(err)
		}
		renewed(t, reads)
		for range 100 {
			if _, ok := access.kept.Peek(key.Hash); !ok {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		reads <- ports.Credential{Key: revoked, Account: active}
		if _, err := admit(t, access); domain.ErrorCode(err) != domain.CodeUnauthorized {
			t.Fatalf("after the renewal: %v; want unauthorized", err)
		}
	})
}
