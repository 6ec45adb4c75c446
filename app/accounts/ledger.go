package accounts

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

// Ledger charges interactions and reports usage. Every channel charges through it, so the counting
// is the same everywhere.
type Ledger struct {
	tx       ports.Tx
	accounts ports.Accounts
	usage    ports.Usage
	events   ports.Publisher
	plans    ledger.Plans
	clock    ports.Clock
}

// NewLedger returns a Ledger.
func NewLedger(tx ports.Tx, a ports.Accounts, u ports.Usage, e ports.Publisher, plans ledger.Plans, c ports.Clock) *Ledger {
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
	return ledger.Usage{Period: period, Spent: spent, Limit: ledger.Limit(plan, acct.InteractionLimit, acct.DeveloperBonus)}, nil
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
//
// The charge is atomic on its own (one statement where the store can), so a caller with nothing
// else to store needs no transaction of its own. The limit.reached mark and event follow it in a
// transaction: the caller's when there is one, so that everything commits together. Without one,
// a failure between the two leaves the event to the period's next charge, which finds the
// allowance still used up and writes it then.
func (l *Ledger) ChargeAccount(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Usage, error) {
	h, err := l.Hold(ctx, acct, action, ref, labels)
	if err != nil {
		return h.Usage, err
	}
	return h.Usage, l.Keep(ctx, acct, h)
}

// Quote returns the hold that Hold would take for action, not yet charged: the charge with its id
// and time, the period and the account's limit (Usage.Spent is 0). A caller that writes the charge
// in a statement of its own (ports.Conversations.Exchange) sets Usage.Spent from it and settles the
// hold with Keep, as after Hold.
func (l *Ledger) Quote(acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error) {
	cost, ok := ledger.Cost(action)
	if !ok {
		return ledger.Hold{}, fmt.Errorf("charge: unknown action %q", action)
	}
	plan, err := l.plan(acct)
	if err != nil {
		return ledger.Hold{}, err
	}
	now := l.clock.Now().UTC()
	return ledger.NewHold(ledger.Charge{ID: ident.Ordered("chg", now), AccountID: acct.ID, Action: action, Cost: cost, Ref: ref, Labels: labels, At: now},
		ledger.Usage{Period: ledger.PeriodAt(now), Limit: ledger.Limit(plan, acct.InteractionLimit, acct.DeveloperBonus)}), nil
}

// InProcess reports whether the ledger's store answers in this process (ports.InProcess).
func (l *Ledger) InProcess() bool { return ports.IsInProcess(l.usage) }

// Hold charges the cost of action to the account now, as ChargeAccount does (402
// interaction_limit_reached, spending nothing, when nothing is left), for something still being
// made. Keep it when that succeeds; Release it when that fails, and nothing was charged. The
// charge is written while the work goes on, so the work's caller does not wait for it after.
func (l *Ledger) Hold(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error) {
	h, err := l.Quote(acct, action, ref, labels)
	if err != nil {
		return ledger.Hold{}, err
	}
	spent, charged, err := l.usage.Charge(ctx, h.Charge, h.Usage.Period, h.Usage.Limit)
	if err != nil {
		return ledger.Hold{}, fmt.Errorf("charge: %w", err)
	}
	h.Usage.Spent = spent
	if charged {
		return h, nil
	}
	if h.Usage.Exhausted() {
		if err := l.limitReached(ctx, acct, h.Usage.Period); err != nil {
			return ledger.Hold{}, err
		}
	}
	return ledger.Hold{Usage: h.Usage}, ledger.LimitReached()
}

// Keep settles a hold whose work succeeded: when it used up the account's allowance for the
// period, the limit.reached event is written (once per period). A hold that is not held
// (ledger.Hold.Keep refuses it) is an error and changes nothing.
func (l *Ledger) Keep(ctx context.Context, acct account.Account, h ledger.Hold) error {
	if _, err := h.Keep(); err != nil {
		return fmt.Errorf("keep: %w", err)
	}
	if !h.Usage.Exhausted() {
		return nil
	}
	return l.limitReached(ctx, acct, h.Usage.Period)
}

// Release gives a hold back: its charge is deleted and its cost returned to the period, as if it
// had never been taken. Releasing the same hold twice is harmless (the refund goes by its charge
// id). A hold that is not held (ledger.Hold.Release refuses it) is an error and changes nothing.
func (l *Ledger) Release(ctx context.Context, h ledger.Hold) error {
	if _, err := h.Release(); err != nil {
		return fmt.Errorf("release: %w", err)
	}
	if err := l.usage.Refund(ctx, h.Charge.AccountID, h.Charge.ID); err != nil {
		if domain.ErrorCode(err) == domain.CodeServiceUnavailable {
			// the work failed because the database went away: the refund is taken when it is back
			go l.refundLater(context.WithoutCancel(ctx), h.Charge)
		}
		return fmt.Errorf("release the interaction held: %w", err)
	}
	return nil
}

// refundPauses are the pauses between the tries of a refund the database could not take
// (Release): a failed reply is not charged once the database is back, within about two minutes.
// The refund goes by the charge's id, so that a try that did reach the database is harmless.
var refundPauses = append([]time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second},
	slices.Repeat([]time.Duration{5 * time.Second}, 24)...)

// refundLater tries the refund of charge again while the database cannot be reached.
func (l *Ledger) refundLater(ctx context.Context, charge ledger.Charge) {
	_ = outage.Retry(refundPauses, func() error { return l.usage.Refund(ctx, charge.AccountID, charge.ID) })
}

// limitReached marks the period's allowance as used up and, the first time, writes the
// limit.reached event with the mark.
func (l *Ledger) limitReached(ctx context.Context, acct account.Account, period ledger.Period) error {
	return l.tx.InTx(ctx, func(ctx context.Context) error {
		first, err := l.usage.MarkLimitReached(ctx, acct.ID, period)
		if err != nil || !first {
			return err
		}
		_, err = l.events.Publish(ctx, acct.ID, event.LimitReached, map[string]any{"plan": acct.Plan})
		return err
	})
}

// Days returns the interactions the account spent on each day of the current period so far,
// from its first day to today (UTC), days without any at zero.
func (l *Ledger) Days(ctx context.Context, acct account.Account) ([]ledger.Day, error) {
	now := l.clock.Now()
	period := ledger.PeriodAt(now)
	counted, err := l.usage.Daily(ctx, acct.ID, period)
	if err != nil {
		return nil, fmt.Errorf("usage per day: %w", err)
	}
	return ledger.Days(period, counted, now), nil
}
