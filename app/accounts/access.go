package accounts

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// Principal is who a request acts for: an API key and its account, as loaded when it was checked,
// and the account's interactions as they stood then.
type Principal struct {
	Account             account.Account
	KeyID               string
	SendWithoutApproval bool
	Usage               ledger.Usage
}

// knownKeys is how many keys an Access remembers the ids of (see Admit).
const knownKeys = 10_000

// keyIDs are the ids of an API key and its account, which never change once the key is made,
// and the account's plan as it was when the key last authenticated here.
type keyIDs struct{ key, account, plan string }

// Access authenticates API keys and applies the plan's channel rule and the request limits.
type Access struct {
	keys    ports.Keys
	changes ports.KeyChanges // nil when the store cannot tell changes: nothing is kept then
	limiter ports.RateLimiter
	inline  bool // the limiter answers in this process (ports.InProcess): count after the read, not beside it
	plans   ledger.Plans
	clock   ports.Clock
	known   *lru.Cache[string, keyIDs]    // by key hash: the ids of keys that authenticated here
	kept    *lru.Cache[string, keptCheck] // by key hash: checks AdmitKept may reuse
	limited *lru.Cache[string, time.Time] // by account id: when a rate limit last refused a request (Admission.Limited)
	uses    *keyUses                      // the keys' last uses, written off the request path

	renewing sync.Map // by key hash: a kept check being read again ahead of time (renew)
}

// keptCheck is a successful check of a key: the principal as it was made, the store's generation
// before the read (ports.KeyChanges) and when it was made.
type keptCheck struct {
	principal Principal
	gen       uint64
	at        time.Time
}

// LimitedFor is how long after a rate limit refused a request of an account its admissions
// report Limited.
const LimitedFor = time.Minute

// KeptFor is how long AdmitKept reuses a check of a key at most, even when the store reports no
// change: a change made around the store (by hand in the database) is seen after that.
const KeptFor = 10 * time.Second

// RenewAfter is how old a kept check is when the request that reuses it also has the key read
// again, off its path (see AdmitKept), so that a key in steady use keeps a fresh check and none
// of its requests waits for the read; a check is still never reused past KeptFor.
const RenewAfter = KeptFor - 2*time.Second

// renewTimeout bounds the read that renews a kept check.
const renewTimeout = 5 * time.Second

// NewAccess returns an Access.
func NewAccess(k ports.Keys, l ports.RateLimiter, plans ledger.Plans, c ports.Clock) *Access {
	known, err := lru.New[string, keyIDs](knownKeys)
	if err != nil {
		panic(err) // only for a size below 1
	}
	kept, err := lru.New[string, keptCheck](knownKeys)
	if err != nil {
		panic(err)
	}
	limited, err := lru.New[string, time.Time](knownKeys)
	if err != nil {
		panic(err)
	}
	changes, _ := k.(ports.KeyChanges)
	return &Access{keys: k, changes: changes, limiter: l, inline: ports.IsInProcess(l), plans: plans, clock: c,
		known: known, kept: kept, limited: limited, uses: newKeyUses(k, c)}
}

// Admission is a request let in by Admit: who it acts for, and how its rate limits came out,
// for the caller to apply in its own order after the authentication (a 401 or 403 always wins).
type Admission struct {
	Principal Principal
	// Limited reports that a rate limit of the account refused a request in this process within
	// the last minute (see LimitedFor): the request is likely to be refused too.
	Limited bool
	// Kept reports that the principal is a check of the key made at an earlier request and reused
	// (AdmitKept): its Usage is the account's usage as it was then, which the charge checks again.
	Kept  bool
	tally *tally
}

// tally is how an Admission's limits came out; those of a reused check (AdmitKept) are counted
// when first asked for (see Admission.Limit).
type tally struct {
	once    sync.Once
	count   func() []counted // nil when counted already
	counted []counted
}

func (t *tally) get() []counted {
	if t == nil {
		return nil
	}
	t.once.Do(func() {
		if t.count != nil {
			t.counted, t.count = t.count(), nil
		}
	})
	return t.counted
}

type counted struct {
	limit  ratelimit.Limit // as the account's plan sets it
	result ratelimit.Result
	err    error
}

// Limit returns how limit l (named as in package ratelimit; the count the account's plan sets
// applies) came out: its result (for the rate-limit headers), and 429 rate_limited past it. A
// limit Admit was not asked to count is an internal error.
//
// The limits of a check that AdmitKept reused are counted at the first call of Limit, on the
// caller's goroutine: the caller may start what does not depend on them first (the model
// endpoints start the charge, whose round trip to the store then overlaps the limiter's). The
// caller must call Limit before anything the limits guard.
func (a Admission) Limit(l ratelimit.Limit) (ratelimit.Result, error) {
	for _, c := range a.tally.get() {
		if c.limit.Name == l.Name {
			return c.result, c.err
		}
	}
	return ratelimit.Result{}, fmt.Errorf("admission: limit %q was not counted", l.Name)
}

// Admit authenticates an API key (401 unauthorized when missing, wrong or revoked, 403
// account_inactive when its account is not active) and counts the request against the
// per-key limit and against each of accountLimits for the key's account, all at once, each with
// the count the account's plan sets. When this process has let the key in before, it knows the
// key's and the account's ids (they never change) and the account's plan, so the limits are
// counted while the key is being checked rather than after: the round trips to the limiter
// overlap the one to the store. A request whose key turns out revoked, or whose account inactive,
// has then still been counted against their limits, which is harmless; so is the one request
// counted with the plan's former limits after the plan changed.
func (a *Access) Admit(ctx context.Context, secret string, accountLimits ...ratelimit.Limit) (Admission, error) {
	return a.admit(ctx, secret, false, accountLimits)
}

// AdmitKept is Admit for a route whose charge checks the account's allowance again, atomically
// (the model-compatible endpoints): when this process checked the key within KeptFor and the store
// reports that no key or account changed since, in any process (ports.KeyChanges), that check
// is reused and the store is not read. A key revoked, an account suspended or its plan changed
// is therefore seen at once by the process that made the change and within moments by the others
// (Postgres notifies them; on SQLite they read a counter of changes every 50 ms); without a store
// that can tell, every request is read. The principal's usage is then as it was at that check: the
// check before the upstream is asked may let a request through that the charge refuses (402,
// and the upstream's answer is dropped); a check that found the allowance used up is never
// reused. The limits of a reused check are counted when the admission's Limit is first called
// (see Admission.Limit), so that the caller can start the charge before.
func (a *Access) AdmitKept(ctx context.Context, secret string, accountLimits ...ratelimit.Limit) (Admission, error) {
	return a.admit(ctx, secret, true, accountLimits)
}

func (a *Access) admit(ctx context.Context, secret string, reuse bool, accountLimits []ratelimit.Limit) (Admission, error) {
	if !account.LooksLikeKey(secret) {
		return Admission{}, domain.Unread(unauthorized())
	}
	limits := append([]ratelimit.Limit{ratelimit.PerKey}, accountLimits...)
	hash := account.HashSecret(secret)
	gen, follow := uint64(0), false
	if reuse && a.changes != nil {
		gen, follow = a.changes.Generation() // before the read: a change during it voids what it read
	}
	if c, ok := a.reusable(hash, gen, follow); ok {
		p := c.principal
		if a.clock.Now().Sub(c.at) >= RenewAfter {
			a.renew(hash)
		}
		ad := a.admitted(p, nil)
		ad.Kept = true
		ad.tally.count = func() []counted { return a.count(ctx, p.KeyID, p.Account.ID, p.Account.Plan, limits) }
		return ad, nil
	}
	p, counted, err := a.check(ctx, hash, limits)
	if err != nil {
		return Admission{}, err
	}
	if follow && ledger.Check(p.Usage, 1) == nil {
		a.kept.Add(hash, keptCheck{principal: p, gen: gen, at: a.clock.Now()})
	}
	return a.admitted(p, counted), nil
}

// admitted is the one place every successful authentication of a key ends, read or reused.
func (a *Access) admitted(p Principal, counted []counted) Admission {
	a.uses.Note(p.KeyID)
	at, limited := a.limited.Get(p.Account.ID)
	return Admission{Principal: p, Limited: limited && a.clock.Now().Sub(at) < LimitedFor,
		tally: &tally{counted: counted}}
}

// reusable returns the kept check of the key of hash when it may stand for a read (AdmitKept):
// made within KeptFor, at the store's generation gen, in this period, with room left.
func (a *Access) reusable(hash string, gen uint64, follow bool) (keptCheck, bool) {
	if !follow {
		return keptCheck{}, false
	}
	c, ok := a.kept.Get(hash)
	now := a.clock.Now()
	if !ok || c.gen != gen || now.Sub(c.at) >= KeptFor || c.principal.Usage.Period != ledger.PeriodAt(now) {
		return keptCheck{}, false
	}
	return c, true
}

// renew reads the key of hash again in the background, once at a time, and keeps the new check
// in place of the old one; when the key no longer passes, its allowance is used up or the read
// fails, the old check is dropped, so that the key's next request reads it on its own path and
// answers what that read says. The kept check reused meanwhile is still bound by KeptFor.
func (a *Access) renew(hash string) {
	if _, busy := a.renewing.LoadOrStore(hash, struct{}{}); busy {
		return
	}
	go func() {
		defer a.renewing.Delete(hash)
		gen, follow := a.changes.Generation() // before the read, as in admit
		if !follow {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), renewTimeout)
		defer cancel()
		if p, err := a.authenticate(ctx, hash); err == nil && ledger.Check(p.Usage, 1) == nil {
			a.kept.Add(hash, keptCheck{principal: p, gen: gen, at: a.clock.Now()})
			return
		}
		a.kept.Remove(hash)
	}()
}

// check reads the key of hash (authenticate) and counts the request against limits: after the
// read for a key this process has not seen or when the limiter is in this process (a goroutine
// would cost more than the call), beside it for a key it has seen otherwise (see Admit).
func (a *Access) check(ctx context.Context, hash string, limits []ratelimit.Limit) (Principal, []counted, error) {
	ids, known := a.known.Get(hash)
	if !known || a.inline {
		p, err := a.authenticate(ctx, hash)
		if err != nil {
			return Principal{}, nil, err
		}
		a.known.Add(hash, keyIDs{key: p.KeyID, account: p.Account.ID, plan: p.Account.Plan})
		return p, a.count(ctx, p.KeyID, p.Account.ID, p.Account.Plan, limits), nil
	}
	var (
		counted []counted
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		counted = a.count(ctx, ids.key, ids.account, ids.plan, limits)
	}()
	p, err := a.authenticate(ctx, hash)
	<-done
	if err != nil {
		return Principal{}, nil, err
	}
	if p.Account.Plan != ids.plan {
		a.known.Add(hash, keyIDs{key: p.KeyID, account: p.Account.ID, plan: p.Account.Plan})
	}
	return p, counted, nil
}

// count counts one request against each limit at once, in one call of the limiter (one round
// trip to Redis): PerKey for the key, the others for the account, each as plan sets it.
func (a *Access) count(ctx context.Context, keyID, accountID, plan string, limits []ratelimit.Limit) []counted {
	out := make([]counted, len(limits))
	checks := make([]ratelimit.Check, len(limits))
	for i, l := range limits {
		subject := accountID
		if l.Name == ratelimit.PerKey.Name {
			subject = keyID
		}
		l = a.plans.RateLimit(plan, l)
		out[i].limit = l
		checks[i] = ratelimit.Check{Subject: ratelimit.Subject(l, subject), Limit: l}
	}
	results, err := a.limiter.AllowAll(ctx, checks)
	for i := range out {
		if err != nil {
			out[i].err = fmt.Errorf("rate limit %s: %w", out[i].limit.Name, err)
			continue
		}
		out[i].result = results[i]
		out[i].result.Limit = out[i].limit.Count
		if out[i].err = results[i].Err(out[i].limit); out[i].err != nil {
			a.limited.Add(accountID, a.clock.Now())
		}
	}
	return out
}

func unauthorized() *domain.Error {
	return domain.Errorf(domain.CodeUnauthorized, "the API key is missing, wrong or revoked; send it as Authorization: Bearer svc_live_…")
}

// authenticate checks the key of hash: 401 unauthorized when unknown or revoked, 403
// account_inactive when its account is not active.
func (a *Access) authenticate(ctx context.Context, hash string) (Principal, error) {
	period := ledger.PeriodAt(a.clock.Now())
	cred, err := a.keys.Credential(ctx, hash, period)
	if domain.IsNotFound(err) {
		return Principal{}, unauthorized()
	}
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	k, acct := cred.Key, cred.Account
	if subtle.ConstantTimeCompare([]byte(k.Hash), []byte(hash)) != 1 || k.Revoked() {
		return Principal{}, unauthorized()
	}
	if err := acct.Usable(); err != nil {
		return Principal{}, err
	}
	plan, err := a.plan(acct)
	if err != nil {
		return Principal{}, err
	}
	usage := ledger.Usage{Period: period, Spent: cred.Spent, Limit: ledger.Limit(plan, acct.InteractionLimit, acct.DeveloperBonus)}
	return Principal{Account: acct, KeyID: k.ID, SendWithoutApproval: k.SendWithoutApproval, Usage: usage}, nil
}

func (a *Access) plan(acct account.Account) (ledger.Plan, error) {
	plan, ok := a.plans.Get(acct.Plan)
	if !ok {
		return ledger.Plan{}, fmt.Errorf("account %s has plan %q, which the plan table lacks", acct.ID, acct.Plan)
	}
	return plan, nil
}

// RequireWebChannels returns 402 plan_required when the account's plan lacks the web channels.
func (a *Access) RequireWebChannels(acct account.Account) error {
	plan, err := a.plan(acct)
	if err != nil {
		return err
	}
	return ledger.CheckChannel(plan, acct.DeveloperBonus)
}

// Limit counts one request of subject (a key, session or account id) against l with the count
// that plan (the account's plan) sets. Past the limit it returns 429 rate_limited with the wait;
// the result is returned either way for the headers, its Limit the count in force.
func (a *Access) Limit(ctx context.Context, plan, subject string, l ratelimit.Limit) (ratelimit.Result, error) {
	l = a.plans.RateLimit(plan, l)
	res, err := a.limiter.Allow(ctx, ratelimit.Subject(l, subject), l)
	if err != nil {
		return ratelimit.Result{}, fmt.Errorf("rate limit %s: %w", l.Name, err)
	}
	res.Limit = l.Count
	return res, res.Err(l)
}

// Refused is what to answer a request whose authentication failed with err. A failed
// authentication (401 unauthorized: a key or client token wrong, expired or revoked) is counted
// against the failures of the client address, and past the allowance of ratelimit.AuthFailures
// the answer becomes 429 rate_limited with the wait. A refusal decided before any read (no
// credential sent, or one of no credential's form: domain.ErrUnread) costs nothing and is
// answered 401 at once, uncounted, as the spec has it (part 5 rule 2). Any other error
// (403 account_inactive, an outage) is returned as it is, uncounted. Only failures are counted,
// so a valid credential from the same address is never refused, nor made to wait on the limiter.
// When the limiter cannot count, the failure is answered with its 401: the throttle only slows
// failing callers down, so it never turns a refusal into a 500.
func (a *Access) Refused(ctx context.Context, address string, err error) error {
	if domain.ErrorCode(err) != domain.CodeUnauthorized || errors.Is(err, domain.ErrUnread) {
		return err
	}
	l := ratelimit.AuthFailures
	res, lerr := a.limiter.Allow(ctx, ratelimit.Subject(l, ratelimit.Address(address)), l)
	if lerr != nil || res.Allowed {
		return err
	}
	over := res.Err(l)
	if e, ok := domain.AsError(over); ok {
		e.Message = "too many failed authentications from this address; try again later"
	}
	return over
}
