package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

var (
	now   = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	plans = ledger.Plans{
		"free":    {Name: "free", Interactions: 100},
		"starter": {Name: "starter", Interactions: 1000, WebChannels: true},
		"pro": {Name: "pro", Interactions: 10000, WebChannels: true,
			RateLimits: ratelimit.Counts{"key": 1200, "model": 600}},
	}
	goodKey = account.KeyPrefix + strings.Repeat("k", 43)
)

type fixture struct {
	tx       *mock.MockTx
	accounts *mock.MockAccounts
	keys     *mock.MockKeys
	usage    *mock.MockUsage
	limiter  *mock.MockRateLimiter
	clock    *mock.MockClock
	events   *fakePublisher
}

// fakePublisher records published events; the outbox write itself is the events package's test.
type fakePublisher struct{ published []event.Type }

func (f *fakePublisher) Publish(_ context.Context, _ string, t event.Type, _ map[string]any) (event.Event, error) {
	f.published = append(f.published, t)
	return event.Event{Type: t}, nil
}

func (f *fakePublisher) Prepare(_ context.Context, _ string, t event.Type, _ map[string]any) (outbox.Message, error) {
	f.published = append(f.published, t)
	return outbox.Message{}, nil
}

func (f *fakePublisher) Pending(context.Context) {}

func newFixture(t *testing.T) fixture {
	ctrl := gomock.NewController(t)
	f := fixture{
		tx:       mock.NewMockTx(ctrl),
		accounts: mock.NewMockAccounts(ctrl),
		keys:     mock.NewMockKeys(ctrl),
		usage:    mock.NewMockUsage(ctrl),
		limiter:  mock.NewMockRateLimiter(ctrl),
		clock:    mock.NewMockClock(ctrl),
		events:   &fakePublisher{},
	}
	f.clock.EXPECT().Now().Return(now).AnyTimes()
	// Every authentication notes its key's use, written later (lastuse_test.go checks how).
	f.keys.EXPECT().Touch(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes()
	f.tx.EXPECT().InTx(gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }).AnyTimes()
	return f
}

func TestAdmitAuthenticates(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	tests := []struct {
		name      string
		secret    string
		setup     func(f fixture)
		want      domain.Code
		wantKey   string
		wantUsage ledger.Usage
	}{
		{name: "empty", secret: "", want: domain.CodeUnauthorized},
		{name: "client token", secret: "svc_cs_" + strings.Repeat("x", 43), want: domain.CodeUnauthorized},
		{name: "unknown key", secret: goodKey, want: domain.CodeUnauthorized, setup: func(f fixture) {
			f.keys.EXPECT().Credential(gomock.Any(), account.HashSecret(goodKey), ledger.PeriodAt(now)).Return(ports.Credential{}, domain.NotFound("key"))
		}},
		{name: "revoked key", secret: goodKey, want: domain.CodeUnauthorized, setup: func(f fixture) {
			revoked := key
			revoked.RevokedAt = now
			f.keys.EXPECT().Credential(gomock.Any(), gomock.Any(), gomock.Any()).Return(ports.Credential{Key: revoked, Account: active}, nil)
		}},
		{name: "inactive account", secret: goodKey, want: domain.CodeAccountInactive, setup: func(f fixture) {
			inactive := account.Account{ID: "acct_1", Plan: "starter", Status: account.Inactive}
			f.keys.EXPECT().Credential(gomock.Any(), gomock.Any(), gomock.Any()).Return(ports.Credential{Key: key, Account: inactive}, nil)
		}},
		{name: "store failure", secret: goodKey, want: domain.CodeInternal, setup: func(f fixture) {
			f.keys.EXPECT().Credential(gomock.Any(), gomock.Any(), gomock.Any()).Return(ports.Credential{}, errors.New("connection refused"))
		}},
		{name: "plan missing from the table", secret: goodKey, want: domain.CodeInternal, setup: func(f fixture) {
			gold := active
			gold.Plan = "gold"
			f.keys.EXPECT().Credential(gomock.Any(), gomock.Any(), gomock.Any()).Return(ports.Credential{Key: key, Account: gold}, nil)
		}},
		{name: "valid", secret: goodKey, wantKey: "key_1", setup: func(f fixture) {
			f.keys.EXPECT().Credential(gomock.Any(), account.HashSecret(goodKey), ledger.PeriodAt(now)).Return(ports.Credential{Key: key, Account: active, Spent: 7}, nil)
		}, wantUsage: ledger.Usage{Period: ledger.PeriodAt(now), Spent: 7, Limit: 1000}},
		{name: "valid with the account's own limit", secret: goodKey, wantKey: "key_1", setup: func(f fixture) {
			own := active
			own.InteractionLimit = 50
			f.keys.EXPECT().Credential(gomock.Any(), gomock.Any(), gomock.Any()).Return(ports.Credential{Key: key, Account: own, Spent: 50}, nil)
		}, wantUsage: ledger.Usage{Period: ledger.PeriodAt(now), Spent: 50, Limit: 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.setup != nil {
				tt.setup(f)
			}
			f.limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).Return([]ratelimit.Result{{Allowed: true}}, nil).AnyTimes()
			ad, err := NewAccess(f.keys, f.limiter, plans, f.clock).Admit(context.Background(), tt.secret)
			p := ad.Principal
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q (%v)", got, tt.want, err)
			}
			if p.KeyID != tt.wantKey {
				t.Fatalf("key %q, want %q", p.KeyID, tt.wantKey)
			}
			if p.Usage != tt.wantUsage {
				t.Fatalf("usage %+v, want %+v", p.Usage, tt.wantUsage)
			}
		})
	}
}

// TestAdmitCountsLimits checks that Admit counts the per-key limit for the key and the others
// for its account, the first time a key comes and when it is known; that an authentication
// failure wins over a limit; and that a limit not asked for is an error.
func TestAdmitCountsLimits(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	f := newFixture(t)
	access := NewAccess(f.keys, f.limiter, plans, f.clock)
	ctx := context.Background()
	cred := ports.Credential{Key: key, Account: active}

	// First request: authenticated, then counted.
	f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(cred, nil)
	f.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}, {Subject: "model:acct_1", Limit: ratelimit.Compat}}).
		Return([]ratelimit.Result{{Allowed: true, Remaining: 119}, {RetryAfter: time.Second}}, nil)
	ad, err := access.Admit(ctx, goodKey, ratelimit.Compat)
	if err != nil || ad.Principal.KeyID != "key_1" {
		t.Fatalf("first Admit: %+v, %v", ad.Principal, err)
	}
	if res, err := ad.Limit(ratelimit.PerKey); err != nil || res.Remaining != 119 {
		t.Fatalf("per-key limit: %+v, %v", res, err)
	}
	if _, err := ad.Limit(ratelimit.Compat); domain.ErrorCode(err) != domain.CodeRateLimited {
		t.Fatalf("model limit: %v; want rate_limited", err)
	}
	if _, err := ad.Limit(ratelimit.Chat); domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("a limit not counted: %v; want an internal error", err)
	}

	// Known key: counted while it is checked, by the ids remembered.
	f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(cred, nil)
	f.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).
		Return([]ratelimit.Result{{Allowed: true, Remaining: 118}}, nil)
	if ad, err = access.Admit(ctx, goodKey); err != nil {
		t.Fatalf("second Admit: %v", err)
	}
	if res, err := ad.Limit(ratelimit.PerKey); err != nil || res.Remaining != 118 {
		t.Fatalf("per-key limit of a known key: %+v, %v", res, err)
	}

	// Revoked since: still counted, but the answer is 401, not the limit's 429.
	revoked := key
	revoked.RevokedAt = now
	f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: revoked, Account: active}, nil)
	f.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}).
		Return([]ratelimit.Result{{RetryAfter: time.Second}}, nil)
	if _, err = access.Admit(ctx, goodKey); domain.ErrorCode(err) != domain.CodeUnauthorized {
		t.Fatalf("revoked key: %v; want unauthorized", err)
	}
}

// TestRefused checks that a 401 counts against the client address's failures and becomes 429
// past them; that other errors are neither counted nor changed; and that a limiter that cannot
// count leaves the 401 as it is.
func TestRefused(t *testing.T) {
	denied := domain.Errorf(domain.CodeUnauthorized, "wrong key")
	inactive := domain.Errorf(domain.CodeAccountInactive, "inactive")
	tests := []struct {
		name      string
		address   string
		err       error
		limiter   func(f fixture)
		want      domain.Code
		wantRetry time.Duration
	}{
		{name: "failure within the allowance", address: "203.0.113.7", err: denied, want: domain.CodeUnauthorized, limiter: func(f fixture) {
			f.limiter.EXPECT().Allow(gomock.Any(), "authfail:203.0.113.7", ratelimit.AuthFailures).Return(ratelimit.Result{Allowed: true, Remaining: 3}, nil)
		}},
		{name: "failure past the allowance", address: "203.0.113.7", err: denied, want: domain.CodeRateLimited, wantRetry: time.Second, limiter: func(f fixture) {
			f.limiter.EXPECT().Allow(gomock.Any(), "authfail:203.0.113.7", ratelimit.AuthFailures).Return(ratelimit.Result{RetryAfter: 400 * time.Millisecond}, nil)
		}},
		{name: "an IPv6 client counts for its /64", address: "2001:db8:0:1::9", err: denied, want: domain.CodeRateLimited, wantRetry: 2 * time.Second, limiter: func(f fixture) {
			f.limiter.EXPECT().Allow(gomock.Any(), "authfail:2001:db8:0:1::/64", ratelimit.AuthFailures).Return(ratelimit.Result{RetryAfter: 1500 * time.Millisecond}, nil)
		}},
		{name: "limiter down", address: "203.0.113.7", err: denied, want: domain.CodeUnauthorized, limiter: func(f fixture) {
			f.limiter.EXPECT().Allow(gomock.Any(), gomock.Any(), gomock.Any()).Return(ratelimit.Result{}, errors.New("connection refused"))
		}},
		{name: "inactive account is not a failure", address: "203.0.113.7", err: inactive, want: domain.CodeAccountInactive},
		{name: "store failure is not a failure", address: "203.0.113.7", err: errors.New("db down"), want: domain.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.limiter != nil {
				tt.limiter(f)
			}
			err := NewAccess(f.keys, f.limiter, plans, f.clock).Refused(context.Background(), tt.address, tt.err)
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q (%v)", got, tt.want, err)
			}
			if tt.want != domain.CodeRateLimited {
				if err != tt.err {
					t.Fatalf("error %v, want the original %v", err, tt.err)
				}
				return
			}
			e, _ := domain.AsError(err)
			if e.RetryAfter != tt.wantRetry || !strings.Contains(e.Message, "failed authentications") {
				t.Fatalf("429 %+v, want retry %v and a message about failed authentications", e, tt.wantRetry)
			}
		})
	}
}

func TestRequireWebChannels(t *testing.T) {
	tests := []struct {
		name string
		acct account.Account
		want domain.Code
	}{
		{"starter", account.Account{Plan: "starter"}, ""},
		{"free", account.Account{Plan: "free"}, domain.CodePlanRequired},
		{"free with bonus", account.Account{Plan: "free", DeveloperBonus: true}, ""},
		{"plan missing from the table", account.Account{Plan: "gold"}, domain.CodeInternal},
	}
	for _, tt := range tests {
		f := newFixture(t)
		err := NewAccess(f.keys, f.limiter, plans, f.clock).RequireWebChannels(tt.acct)
		if got := domain.ErrorCode(err); got != tt.want {
			t.Errorf("%s: code %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		name      string
		res       ratelimit.Result
		err       error
		want      domain.Code
		wantRetry time.Duration
	}{
		{"allowed", ratelimit.Result{Allowed: true, Remaining: 5}, nil, "", 0},
		{"denied", ratelimit.Result{RetryAfter: 1500 * time.Millisecond}, nil, domain.CodeRateLimited, 2 * time.Second},
		{"limiter down", ratelimit.Result{}, errors.New("redis: connection refused"), domain.CodeInternal, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.limiter.EXPECT().Allow(gomock.Any(), "chat:acct_1", ratelimit.Chat).Return(tt.res, tt.err)
			_, err := NewAccess(f.keys, f.limiter, plans, f.clock).Limit(context.Background(), "starter", "acct_1", ratelimit.Chat)
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q", got, tt.want)
			}
			if e, ok := domain.AsError(err); ok && e.RetryAfter != tt.wantRetry {
				t.Fatalf("retry after %v, want %v", e.RetryAfter, tt.wantRetry)
			}
		})
	}
}

// TestPlanLimits checks that the limits counted are those the account's plan sets, for a key the
// first time and when known, and through Limit.
func TestPlanLimits(t *testing.T) {
	pro := account.Account{ID: "acct_1", Plan: "pro", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	f := newFixture(t)
	access := NewAccess(f.keys, f.limiter, plans, f.clock)
	ctx := context.Background()
	perKey, model := ratelimit.PerKey, ratelimit.Compat
	perKey.Count, model.Count = 1200, 600
	for range 2 {
		f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: pro}, nil)
		f.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: perKey}, {Subject: "model:acct_1", Limit: model}}).
			Return([]ratelimit.Result{{Allowed: true, Remaining: 1199}, {RetryAfter: time.Second}}, nil)
		ad, err := access.Admit(ctx, goodKey, ratelimit.Compat)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := ad.Limit(ratelimit.PerKey); err != nil || res.Limit != 1200 || res.Remaining != 1199 {
			t.Fatalf("per-key limit of a pro key: %+v, %v", res, err)
		}
		if _, err := ad.Limit(ratelimit.Compat); !strings.Contains(err.Error(), "at most 600 per minute") {
			t.Fatalf("model limit of a pro account: %v", err)
		}
	}
	f.limiter.EXPECT().Allow(gomock.Any(), "chat:acct_1", ratelimit.Chat).Return(ratelimit.Result{Allowed: true}, nil)
	if res, err := access.Limit(ctx, "pro", "acct_1", ratelimit.Chat); err != nil || res.Limit != 30 {
		t.Fatalf("chat limit the pro plan leaves as the spec's: %+v, %v", res, err)
	}
}

func TestCharge(t *testing.T) {
	period := ledger.PeriodAt(now)
	tests := []struct {
		name        string
		acct        account.Account
		action      ledger.Action
		wantLimit   int
		spentAfter  int
		charged     bool
		firstMark   bool
		wantMark    bool
		want        domain.Code
		wantEvents  int
		wantSpent   int
		wantRemains int
	}{
		{name: "plain charge", acct: account.Account{ID: "a", Plan: "starter"}, action: ledger.ChatReply,
			wantLimit: 1000, spentAfter: 1, charged: true, wantSpent: 1, wantRemains: 999},
		{name: "custom limit", acct: account.Account{ID: "a", Plan: "starter", InteractionLimit: 10}, action: ledger.Picture,
			wantLimit: 10, spentAfter: 10, charged: true, wantMark: true, firstMark: true, wantEvents: 1, wantSpent: 10},
		{name: "last interaction emits limit.reached", acct: account.Account{ID: "a", Plan: "starter"}, action: ledger.ChatReply,
			wantLimit: 1000, spentAfter: 1000, charged: true, wantMark: true, firstMark: true, wantEvents: 1, wantSpent: 1000},
		{name: "refused when exhausted, event already sent", acct: account.Account{ID: "a", Plan: "starter"}, action: ledger.ChatReply,
			wantLimit: 1000, spentAfter: 1000, charged: false, wantMark: true, firstMark: false,
			want: domain.CodeInteractionLimitReached, wantSpent: 1000},
		{name: "refused picture with five left: not exhausted", acct: account.Account{ID: "a", Plan: "starter"}, action: ledger.Picture,
			wantLimit: 1000, spentAfter: 995, charged: false, want: domain.CodeInteractionLimitReached, wantSpent: 995, wantRemains: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.accounts.EXPECT().Get(gomock.Any(), "a").Return(tt.acct, nil)
			cost, _ := ledger.Cost(tt.action)
			f.usage.EXPECT().Charge(gomock.Any(), gomock.Any(), period, tt.wantLimit).DoAndReturn(
				func(_ context.Context, c ledger.Charge, _ ledger.Period, _ int) (int, bool, error) {
					if c.Cost != cost || c.AccountID != "a" || c.Action != tt.action || !strings.HasPrefix(c.ID, "chg_") {
						t.Errorf("charge %+v", c)
					}
					return tt.spentAfter, tt.charged, nil
				})
			if tt.wantMark {
				f.usage.EXPECT().MarkLimitReached(gomock.Any(), "a", period).Return(tt.firstMark, nil)
			}
			l := NewLedger(f.tx, f.accounts, f.usage, f.events, plans, f.clock)
			u, err := l.Charge(context.Background(), "a", tt.action, "msg_1", ledger.Labels{})
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q", got, tt.want)
			}
			if u.Spent != tt.wantSpent || u.Remaining() != tt.wantRemains || u.Limit != tt.wantLimit {
				t.Fatalf("usage %+v", u)
			}
			if len(f.events.published) != tt.wantEvents {
				t.Fatalf("events %v, want %d", f.events.published, tt.wantEvents)
			}
			if tt.wantEvents > 0 && f.events.published[0] != event.LimitReached {
				t.Fatalf("event %q", f.events.published[0])
			}
		})
	}
}

// TestHold checks a hold's life: taken at once (no event until it is kept), kept (the
// limit.reached event when it used the allowance up), released (refunded by its charge id), and
// refused like a charge.
func TestHold(t *testing.T) {
	period := ledger.PeriodAt(now)
	acct := account.Account{ID: "a", Plan: "starter", InteractionLimit: 2}
	f := newFixture(t)
	l := NewLedger(f.tx, f.accounts, f.usage, f.events, plans, f.clock)
	ctx := context.Background()

	var charged []ledger.Charge
	f.usage.EXPECT().Charge(gomock.Any(), gomock.Any(), period, 2).DoAndReturn(
		func(_ context.Context, c ledger.Charge, _ ledger.Period, _ int) (int, bool, error) {
			charged = append(charged, c)
			return len(charged), true, nil
		}).Times(2)
	first, err := l.Hold(ctx, acct, ledger.ModelReply, "chatcmpl-1", ledger.Labels{Source: "n8n"})
	if err != nil || first.Usage.Spent != 1 || first.Charge.Ref != "chatcmpl-1" || first.Charge.Labels.Source != "n8n" {
		t.Fatalf("first hold: %+v, %v", first, err)
	}
	if err := l.Keep(ctx, acct, first); err != nil || len(f.events.published) != 0 {
		t.Fatalf("keep with room left: %v, events %v", err, f.events.published)
	}
	last, err := l.Hold(ctx, acct, ledger.ModelReply, "chatcmpl-2", ledger.Labels{})
	if err != nil || last.Usage.Spent != 2 || !last.Usage.Exhausted() {
		t.Fatalf("last hold: %+v, %v", last, err)
	}
	if len(f.events.published) != 0 {
		t.Fatalf("an event before the hold was kept: %v", f.events.published)
	}

	f.usage.EXPECT().Refund(gomock.Any(), "a", last.Charge.ID).Return(nil)
	if err := l.Release(ctx, last); err != nil {
		t.Fatalf("release: %v", err)
	}
	if len(f.events.published) != 0 {
		t.Fatalf("a released hold wrote %v", f.events.published)
	}

	f.usage.EXPECT().MarkLimitReached(gomock.Any(), "a", period).Return(true, nil)
	if err := l.Keep(ctx, acct, last); err != nil || len(f.events.published) != 1 || f.events.published[0] != event.LimitReached {
		t.Fatalf("keep of the last interaction: %v, events %v", err, f.events.published)
	}

	f.usage.EXPECT().Charge(gomock.Any(), gomock.Any(), period, 2).Return(2, false, nil)
	f.usage.EXPECT().MarkLimitReached(gomock.Any(), "a", period).Return(false, nil)
	refused, err := l.Hold(ctx, acct, ledger.ModelReply, "chatcmpl-3", ledger.Labels{})
	if domain.ErrorCode(err) != domain.CodeInteractionLimitReached || refused.Usage.Spent != 2 || refused.Charge.ID != "" {
		t.Fatalf("hold with nothing left: %+v, %v", refused, err)
	}

	f.usage.EXPECT().Refund(gomock.Any(), "a", first.Charge.ID).Return(errors.New("connection refused"))
	if err := l.Release(ctx, first); domain.ErrorCode(err) != domain.CodeInternal {
		t.Fatalf("release failing: %v", err)
	}
}

// TestReleaseDuringAnOutage: a refund the database cannot take (service_unavailable) is tried
// again until it is back, so that work that failed because of the outage is not charged.
func TestReleaseDuringAnOutage(t *testing.T) {
	was := refundPauses
	refundPauses = []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}
	t.Cleanup(func() { refundPauses = was })
	acct := account.Account{ID: "a", Plan: "starter", InteractionLimit: 2}
	f := newFixture(t)
	l := NewLedger(f.tx, f.accounts, f.usage, f.events, plans, f.clock)
	f.usage.EXPECT().Charge(gomock.Any(), gomock.Any(), gomock.Any(), 2).Return(1, true, nil)
	h, err := l.Hold(t.Context(), acct, ledger.AssistantReply, "", ledger.Labels{})
	if err != nil {
		t.Fatal(err)
	}
	outage := &domain.Error{Code: domain.CodeServiceUnavailable, Message: "the database cannot be reached"}
	refunded := make(chan struct{})
	gomock.InOrder(
		f.usage.EXPECT().Refund(gomock.Any(), "a", h.Charge.ID).Return(outage).Times(2),
		f.usage.EXPECT().Refund(gomock.Any(), "a", h.Charge.ID).DoAndReturn(func(context.Context, string, string) error {
			close(refunded)
			return nil
		}),
	)
	if err := l.Release(t.Context(), h); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
		t.Fatalf("release during the outage: %v", err)
	}
	select {
	case <-refunded:
	case <-time.After(5 * time.Second):
		t.Fatal("the refund was not tried again once the database was back")
	}
}

// TestSettleOnlyAHeldHold checks that keeping or releasing a hold that is not held (one refused
// for want of interactions, or one settled already) is refused and touches nothing: no refund,
// no limit.reached event.
func TestSettleOnlyAHeldHold(t *testing.T) {
	acct := account.Account{ID: "a", Plan: "starter", InteractionLimit: 2}
	f := newFixture(t)
	l := NewLedger(f.tx, f.accounts, f.usage, f.events, plans, f.clock)
	ctx := context.Background()
	exhausted := ledger.Usage{Period: ledger.PeriodAt(now), Spent: 2, Limit: 2}
	held := ledger.NewHold(ledger.Charge{ID: "chg_1", AccountID: "a", Action: ledger.ModelReply, Cost: 1}, exhausted)
	kept, _ := held.Keep()
	released, _ := held.Release()
	for name, h := range map[string]ledger.Hold{"refused": {Usage: exhausted}, "kept": kept, "released": released} {
		if err := l.Keep(ctx, acct, h); !errors.Is(err, ledger.ErrNotHeld) {
			t.Errorf("keep a %s hold: %v, want ErrNotHeld", name, err)
		}
		if err := l.Release(ctx, h); !errors.Is(err, ledger.ErrNotHeld) {
			t.Errorf("release a %s hold: %v, want ErrNotHeld", name, err)
		}
	}
	if len(f.events.published) != 0 {
		t.Errorf("events %v, want none", f.events.published)
	}
}

func TestAdminCreate(t *testing.T) {
	tests := []struct {
		name      string
		in        NewAccount
		want      domain.Code
		wantField string
		wantPlan  string
	}{
		{name: "defaults to starter", in: NewAccount{Name: " Acme "}, wantPlan: "starter"},
		{name: "free", in: NewAccount{Name: "Acme", Plan: "free"}, wantPlan: "free"},
		{name: "unknown plan", in: NewAccount{Name: "Acme", Plan: "gold"}, want: domain.CodeInvalidRequest, wantField: "plan"},
		{name: "no name", in: NewAccount{Name: ""}, want: domain.CodeInvalidRequest, wantField: "name"},
		{name: "negative limit", in: NewAccount{Name: "Acme", InteractionLimit: -5}, want: domain.CodeInvalidRequest, wantField: "interaction_limit"},
		{name: "bad e-mail", in: NewAccount{Name: "Acme", OwnerEmail: "nope"}, want: domain.CodeInvalidRequest, wantField: "owner_email"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.want == "" {
				f.accounts.EXPECT().Create(gomock.Any(), gomock.Any()).Return(nil)
			}
			a, err := NewAdmin(f.tx, f.accounts, f.keys, plans, f.clock).Create(context.Background(), tt.in)
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q (%v)", got, tt.want, err)
			}
			if e, ok := domain.AsError(err); ok && e.Field != tt.wantField {
				t.Fatalf("field %q, want %q", e.Field, tt.wantField)
			}
			if err == nil && (a.Plan != tt.wantPlan || a.Name != "Acme" || a.Status != account.Active ||
				!strings.HasPrefix(a.ID, "acct_") || !strings.HasPrefix(a.WidgetToken, "wt_") || !a.CreatedAt.Equal(now)) {
				t.Fatalf("account %+v", a)
			}
		})
	}
}

func TestCreateKeyStoresOnlyTheHash(t *testing.T) {
	f := newFixture(t)
	f.accounts.EXPECT().Get(gomock.Any(), "acct_1").Return(account.Account{ID: "acct_1"}, nil)
	var stored account.Key
	f.keys.EXPECT().Create(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, k account.Key) error {
		stored = k
		return nil
	})
	k, secret, err := NewAdmin(f.tx, f.accounts, f.keys, plans, f.clock).CreateKey(context.Background(), NewKey{AccountID: "acct_1", Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if !account.LooksLikeKey(secret) || stored.Hash != account.HashSecret(secret) || k.Hash != stored.Hash {
		t.Fatalf("secret %q stored %+v", secret, stored)
	}
	if strings.Contains(stored.Hash, secret) || stored.Last4 != secret[len(secret)-4:] {
		t.Fatalf("stored key holds the secret: %+v", stored)
	}
}

func TestDemo(t *testing.T) {
	t.Run("store has accounts", func(t *testing.T) {
		f := newFixture(t)
		f.accounts.EXPECT().Count(gomock.Any()).Return(1, nil)
		_, _, ok, err := NewAdmin(f.tx, f.accounts, f.keys, plans, f.clock).Demo(context.Background())
		if err != nil || ok {
			t.Fatalf("ok %v err %v", ok, err)
		}
	})
	t.Run("empty store", func(t *testing.T) {
		f := newFixture(t)
		pro := ledger.Plans{"pro": {Name: "pro", Interactions: 10000, WebChannels: true}}
		f.accounts.EXPECT().Count(gomock.Any()).Return(0, nil)
		f.accounts.EXPECT().Create(gomock.Any(), gomock.Any()).Return(nil)
		f.accounts.EXPECT().Get(gomock.Any(), gomock.Any()).Return(account.Account{}, nil)
		f.keys.EXPECT().Create(gomock.Any(), gomock.Any()).Return(nil)
		a, secret, ok, err := NewAdmin(f.tx, f.accounts, f.keys, pro, f.clock).Demo(context.Background())
		if err != nil || !ok || a.Plan != "pro" || !account.LooksLikeKey(secret) {
			t.Fatalf("demo %+v %q %v %v", a, secret, ok, err)
		}
	})
}

// inProcessLimiter is a limiter that answers in this process (ports.InProcess).
type inProcessLimiter struct{ *mock.MockRateLimiter }

func (inProcessLimiter) InProcess() bool { return true }

// TestAdmitInProcessLimiter checks that with a limiter in this process a known key is counted
// after its read, not beside it: in that order, and not at all when the read refuses the key
// (the mock fails on a call not expected).
func TestAdmitInProcessLimiter(t *testing.T) {
	active := account.Account{ID: "acct_1", Plan: "starter", Status: account.Active}
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(goodKey)}
	f := newFixture(t)
	access := NewAccess(f.keys, inProcessLimiter{f.limiter}, plans, f.clock)
	ctx := context.Background()
	perKey := []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}}
	allowed := []ratelimit.Result{{Allowed: true, Remaining: 100}}
	for i := range 2 { // unknown, then known
		gomock.InOrder(
			f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: active}, nil),
			f.limiter.EXPECT().AllowAll(gomock.Any(), perKey).Return(allowed, nil),
		)
		if _, err := access.Admit(ctx, goodKey); err != nil {
			t.Fatalf("Admit #%d: %v", i, err)
		}
	}
	revoked := key
	revoked.RevokedAt = now
	f.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: revoked, Account: active}, nil)
	if _, err := access.Admit(ctx, goodKey); domain.ErrorCode(err) != domain.CodeUnauthorized {
		t.Fatalf("revoked key: %v; want unauthorized", err)
	}
}
