// Package accounts holds the account use cases: administration (svcctl), authentication and
// request limits (Access), the account overview, and the interaction ledger.
package accounts

import (
	"context"
	"fmt"
	"strings"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

// Admin runs the administrative commands: accounts, plans and keys.
type Admin struct {
	tx       ports.Tx
	accounts ports.Accounts
	keys     ports.Keys
	plans    ledger.Plans
	clock    ports.Clock
}

// NewAdmin returns an Admin.
func NewAdmin(tx ports.Tx, a ports.Accounts, k ports.Keys, plans ledger.Plans, c ports.Clock) *Admin {
	return &Admin{tx: tx, accounts: a, keys: k, plans: plans, clock: c}
}

// NewAccount is what creating an account takes. Plan defaults to "starter".
type NewAccount struct {
	Name             string
	Plan             string
	InteractionLimit int
	OwnerEmail       string
	DeveloperBonus   bool
}

// Create makes an active account with a widget token.
func (a *Admin) Create(ctx context.Context, in NewAccount) (account.Account, error) {
	if in.Plan == "" {
		in.Plan = "starter"
	}
	if err := account.ValidateName(in.Name); err != nil {
		return account.Account{}, err
	}
	if err := account.ValidateEmail(in.OwnerEmail); err != nil {
		return account.Account{}, err
	}
	if err := a.checkPlan(in.Plan, in.InteractionLimit); err != nil {
		return account.Account{}, err
	}
	now := a.clock.Now().UTC()
	acct := account.Account{
		ID:               ident.New("acct"),
		Name:             strings.TrimSpace(in.Name),
		Plan:             in.Plan,
		InteractionLimit: in.InteractionLimit,
		Status:           account.Active,
		OwnerEmail:       in.OwnerEmail,
		WidgetToken:      ident.New("wt"),
		AllowedDomains:   []string{},
		DeveloperBonus:   in.DeveloperBonus,
		CreatedAt:        now,
		UpdatedAt:        now,
	}
	if err := a.accounts.Create(ctx, acct); err != nil {
		return account.Account{}, fmt.Errorf("create account: %w", err)
	}
	return acct, nil
}

func (a *Admin) checkPlan(plan string, limit int) error {
	if _, ok := a.plans.Get(plan); !ok {
		return domain.Invalid("plan", "plan must be one of %s", strings.Join(a.plans.Names(), ", "))
	}
	if limit < 0 {
		return domain.Invalid("interaction_limit", "interaction_limit must not be negative")
	}
	return nil
}

// Get returns an account.
func (a *Admin) Get(ctx context.Context, accountID string) (account.Account, error) {
	return a.accounts.Get(ctx, accountID)
}

// MaxList is the most accounts List returns at once.
const MaxList = 1000

// List returns up to limit accounts whose id sorts after the given one, in id order, and whether
// more follow.
func (a *Admin) List(ctx context.Context, after string, limit int) ([]account.Account, bool, error) {
	if limit < 1 || limit > MaxList {
		return nil, false, domain.Invalid("limit", "limit must be between 1 and %d", MaxList)
	}
	list, err := a.accounts.List(ctx, after, limit+1)
	if err != nil {
		return nil, false, err
	}
	if len(list) > limit {
		return list[:limit], true, nil
	}
	return list, false, nil
}

// Allowance returns the interactions a period gives the account: its custom limit when it has
// one, else its plan's.
func (a *Admin) Allowance(acct account.Account) int {
	plan, _ := a.plans.Get(acct.Plan)
	return ledger.Limit(plan, acct.InteractionLimit, acct.DeveloperBonus)
}

// SetStatus activates or deactivates an account.
func (a *Admin) SetStatus(ctx context.Context, accountID string, status account.Status) (account.Account, error) {
	return a.update(ctx, accountID, func(acct *account.Account) error {
		acct.Status = status
		return nil
	})
}

// PlanChange changes an account's plan, custom limit or developer bonus; nil fields stay.
type PlanChange struct {
	Plan             *string
	InteractionLimit *int
	DeveloperBonus   *bool
}

// SetPlan applies a plan change.
func (a *Admin) SetPlan(ctx context.Context, accountID string, ch PlanChange) (account.Account, error) {
	return a.update(ctx, accountID, func(acct *account.Account) error {
		if ch.Plan != nil {
			acct.Plan = *ch.Plan
		}
		if ch.InteractionLimit != nil {
			acct.InteractionLimit = *ch.InteractionLimit
		}
		if ch.DeveloperBonus != nil {
			acct.DeveloperBonus = *ch.DeveloperBonus
		}
		return a.checkPlan(acct.Plan, acct.InteractionLimit)
	})
}

func (a *Admin) update(ctx context.Context, accountID string, fn func(*account.Account) error) (account.Account, error) {
	var out account.Account
	err := a.accounts.Update(ctx, accountID, func(acct *account.Account) error {
		if err := fn(acct); err != nil {
			return err
		}
		acct.UpdatedAt = a.clock.Now().UTC()
		out = *acct
		return nil
	})
	return out, err
}

// NewKey is what creating an API key takes.
type NewKey struct {
	AccountID           string
	Name                string
	SendWithoutApproval bool
}

// CreateKey makes an API key for an account and returns it with its secret, which is shown only
// this once: only its hash is kept.
func (a *Admin) CreateKey(ctx context.Context, in NewKey) (account.Key, string, error) {
	if _, err := a.accounts.Get(ctx, in.AccountID); err != nil {
		return account.Key{}, "", err
	}
	secret := ident.Secret(account.KeyPrefix)
	k := account.Key{
		ID:                  ident.New("key"),
		AccountID:           in.AccountID,
		Name:                strings.TrimSpace(in.Name),
		Hash:                account.HashSecret(secret),
		Last4:               account.Last4Of(secret),
		SendWithoutApproval: in.SendWithoutApproval,
		CreatedAt:           a.clock.Now().UTC(),
	}
	if err := a.keys.Create(ctx, k); err != nil {
		return account.Key{}, "", fmt.Errorf("create key: %w", err)
	}
	return k, secret, nil
}

// RevokeKey revokes a key at once; requests with it get 401 from then on.
func (a *Admin) RevokeKey(ctx context.Context, keyID string) (account.Key, error) {
	return a.keys.Revoke(ctx, keyID, a.clock.Now().UTC())
}

// SetSendWithoutApproval switches a key's Send without approval permission (spec 4.7 rule 6):
// with it on, the assistant sends e-mails, messages and posts in mode do without asking.
func (a *Admin) SetSendWithoutApproval(ctx context.Context, keyID string, on bool) (account.Key, error) {
	return a.keys.SetSendWithoutApproval(ctx, keyID, on)
}

// Keys lists an account's keys (without secrets).
func (a *Admin) Keys(ctx context.Context, accountID string) ([]account.Key, error) {
	if _, err := a.accounts.Get(ctx, accountID); err != nil {
		return nil, err
	}
	return a.keys.List(ctx, accountID)
}

// Demo makes, on an empty store, one account on the pro plan with one key, so that a first start
// can be tried with one request. It returns ok false when the store already has accounts.
func (a *Admin) Demo(ctx context.Context) (acct account.Account, secret string, ok bool, err error) {
	err = a.tx.InTx(ctx, func(ctx context.Context) error {
		n, err := a.accounts.Count(ctx)
		if err != nil || n > 0 {
			return err
		}
		acct, err = a.Create(ctx, NewAccount{Name: "Demo business", Plan: "pro"})
		if err != nil {
			return err
		}
		_, secret, err = a.CreateKey(ctx, NewKey{AccountID: acct.ID, Name: "demo"})
		ok = err == nil
		return err
	})
	return acct, secret, ok, err
}

// ownKey returns the account's key of keyID; not_found when the account has none of that id, so
// that an owner never reaches another account's key.
func (a *Admin) ownKey(ctx context.Context, accountID, keyID string) error {
	keys, err := a.keys.List(ctx, accountID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.ID == keyID {
			return nil
		}
	}
	return domain.NotFound("key")
}

// RevokeOwnKey revokes a key of the account (the owner console); not_found for another
// account's key.
func (a *Admin) RevokeOwnKey(ctx context.Context, accountID, keyID string) (account.Key, error) {
	if err := a.ownKey(ctx, accountID, keyID); err != nil {
		return account.Key{}, err
	}
	return a.RevokeKey(ctx, keyID)
}

// SetOwnSendWithoutApproval switches Send without approval on a key of the account (the owner
// console, after its warning); not_found for another account's key.
func (a *Admin) SetOwnSendWithoutApproval(ctx context.Context, accountID, keyID string, on bool) (account.Key, error) {
	if err := a.ownKey(ctx, accountID, keyID); err != nil {
		return account.Key{}, err
	}
	return a.SetSendWithoutApproval(ctx, keyID, on)
}
