package accounts

import (
	"context"
	"crypto/subtle"
	"fmt"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
)

// Principal is who a request acts for: an API key and its account, as loaded when it was checked.
type Principal struct {
	Account             account.Account
	KeyID               string
	SendWithoutApproval bool
}

// Access authenticates API keys and applies the plan's channel rule and the request limits.
type Access struct {
	accounts ports.Accounts
	keys     ports.Keys
	limiter  ports.RateLimiter
	plans    ledger.Plans
}

// NewAccess returns an Access.
func NewAccess(a ports.Accounts, k ports.Keys, l ports.RateLimiter, plans ledger.Plans) *Access {
	return &Access{accounts: a, keys: k, limiter: l, plans: plans}
}

func unauthorized() error {
	return domain.Errorf(domain.CodeUnauthorized, "the API key is missing, wrong or revoked; send it as Authorization: Bearer svc_live_…")
}

// Authenticate checks an API key: 401 unauthorized when missing, wrong or revoked, 403
// account_inactive when its account is not active.
func (a *Access) Authenticate(ctx context.Context, secret string) (Principal, error) {
	if !account.LooksLikeKey(secret) {
		return Principal{}, unauthorized()
	}
	hash := account.HashSecret(secret)
	k, err := a.keys.ByHash(ctx, hash)
	if domain.IsNotFound(err) {
		return Principal{}, unauthorized()
	}
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(k.Hash), []byte(hash)) != 1 || k.Revoked() {
		return Principal{}, unauthorized()
	}
	acct, err := a.accounts.Get(ctx, k.AccountID)
	if err != nil {
		return Principal{}, fmt.Errorf("authenticate: %w", err)
	}
	if err := acct.Usable(); err != nil {
		return Principal{}, err
	}
	return Principal{Account: acct, KeyID: k.ID, SendWithoutApproval: k.SendWithoutApproval}, nil
}

// RequireWebChannels returns 402 plan_required when the account's plan lacks the web channels.
func (a *Access) RequireWebChannels(acct account.Account) error {
	plan, ok := a.plans.Get(acct.Plan)
	if !ok {
		return fmt.Errorf("account %s has plan %q, which the plan table lacks", acct.ID, acct.Plan)
	}
	return ledger.CheckChannel(plan, acct.DeveloperBonus)
}

// Limit counts one request of subject (a key or an account id) against l. Past the limit it
// returns 429 rate_limited with the wait; the result is returned either way for the headers.
func (a *Access) Limit(ctx context.Context, subject string, l ratelimit.Limit) (ratelimit.Result, error) {
	res, err := a.limiter.Allow(ctx, ratelimit.Subject(l, subject), l)
	if err != nil {
		return ratelimit.Result{}, fmt.Errorf("rate limit %s: %w", l.Name, err)
	}
	return res, res.Err(l)
}
