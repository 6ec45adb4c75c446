package accounts

import (
	"context"
	"errors"
	"fmt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

// Publisher writes an account event to the outbox in the caller's transaction.
type Publisher interface {
	Publish(ctx context.Context, accountID string, t event.Type, data map[string]any) (event.Event, error)
}

// Ledger charges interactions and reports usage. Every channel charges through it, so the counting
// is the same everywhere.
type Ledger struct {
	tx       ports.Tx
	accounts ports.Accounts
	usage    ports.Usage
	events   Publisher
	plans    ledger.Plans
	clock    ports.Clock
}

// NewLedger returns a Ledger.
func NewLedger(tx ports.Tx, a ports.Accounts, u ports.Usage, e Publisher, plans ledger.Plans, c ports.Clock) *Ledger {
	return &Ledger{tx: tx, accounts: a, usage: u, events: e, plans: plans, clock: c}
}

func (l *Ledger) plan(acct account.Account) (ledger.Plan, error) {
	plan, ok := l.plans.Get(acct.Plan)
	if !ok {
		return ledger.Plan{}, fmt.Errorf("account %s has plan %q, which the plan table lacks", acct.ID, acct.Plan)
	}
	return plan, nil
}

// Usage returns what the account spent in the current period against its limit.
func (l *Ledger) Usage(ctx context.Context, acct account.Account) (ledger.Usage, error) {
	plan, err := l.plan(acct)
	if err != nil {
		return ledger.Usage{}, err
	}
	period := ledger.PeriodAt(l.clock.Now())
	spent, err := l.usage.Spent(ctx, acct.ID, period)
	if err != nil {
		return ledger.Usage{}, fmt.Errorf("usage: %w", err)
	}
	return ledger.Usage{Period: period, Spent: spent, Limit: ledger.Limit(plan, acct.InteractionLimit)}, nil
}

// Charge spends the cost of action for an account, atomically. When nothing is left it returns
// 402 interaction_limit_reached and spends nothing. When the account's allowance for the period
// runs out, a limit.reached event is written, once per period. The usage after the call is
// returned either way. Run it in the transaction that stores what was paid for.
func (l *Ledger) Charge(ctx context.Context, accountID string, action ledger.Action, ref string, labels ledger.Labels) (ledger.Usage, error) {
	acct, err := l.accounts.Get(ctx, accountID)
	if err != nil {
		return ledger.Usage{}, err
	}
	return l.ChargeAccount(ctx, acct, action, ref, labels)
}

// ChargeAccount is Charge for an account the caller has already loaded in this request (its plan
// and limit as loaded then), sparing a read on the hot path.
func (l *Ledger) ChargeAccount(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Usage, error) {
	accountID := acct.ID
	cost, ok := ledger.Cost(action)
	if !ok {
		return ledger.Usage{}, fmt.Errorf("charge: unknown action %q", action)
	}
	plan, err := l.plan(acct)
	if err != nil {
		return ledger.Usage{}, err
	}
	now := l.clock.Now().UTC()
	u := ledger.Usage{Period: ledger.PeriodAt(now), Limit: ledger.Limit(plan, acct.InteractionLimit)}
	refused := false
	err = l.tx.InTx(ctx, func(ctx context.Context) error {
		c := ledger.Charge{ID: ident.New("chg"), AccountID: accountID, Action: action, Cost: cost, Ref: ref, Labels: labels, At: now}
		spent, charged, err := l.usage.Charge(ctx, c, u.Period, u.Limit)
		if err != nil {
			return fmt.Errorf("charge: %w", err)
		}
		u.Spent, refused = spent, !charged
		if !u.Exhausted() {
			return nil
		}
		first, err := l.usage.MarkLimitReached(ctx, accountID, u.Period)
		if err != nil || !first {
			return err
		}
		_, err = l.events.Publish(ctx, accountID, event.LimitReached, map[string]any{"plan": acct.Plan})
		return err
	})
	if err != nil {
		return ledger.Usage{}, err
	}
	if refused {
		return u, ledger.LimitReached()
	}
	return u, nil
}

// IsLimitReached reports whether err is the ledger's 402.
func IsLimitReached(err error) bool {
	var e *domain.Error
	return errors.As(err, &e) && e.Code == domain.CodeInteractionLimitReached
}
