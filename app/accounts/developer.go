package accounts

import (
	"context"
	"strings"
	"unicode"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/ports"
)

// Notifier tells an account's owner of a change (app/notifications), in the change's transaction.
type Notifier interface {
	Notify(ctx context.Context, accountID, kind, title, body string) error
}

// Developers records the accounts connected through the agent-tool protocol (MCP), which earns
// the developer bonus: web channels on any plan and the plan's bonus interactions each period.
type Developers struct {
	tx       ports.Tx
	accounts ports.Accounts
	notifier Notifier
	clock    ports.Clock
}

// NewDevelopers returns a Developers.
func NewDevelopers(tx ports.Tx, a ports.Accounts, n Notifier, c ports.Clock) *Developers {
	return &Developers{tx: tx, accounts: a, notifier: n, clock: c}
}

// maxClient bounds the client name and version kept.
const maxClient = 200

// Connected records that a key of the account completed an MCP initialize from client ("name
// version", as the client gave it). The first time, in one transaction, it turns the developer
// bonus on, keeps when and the client, and notifies the owner; afterwards it changes nothing, so
// an operator who switched the bonus off (svcctl account set-plan) keeps it off. It reports
// whether this was the first time.
func (d *Developers) Connected(ctx context.Context, accountID, client string) (bool, error) {
	client = cleanClient(client)
	var first bool
	err := d.tx.InTx(ctx, func(ctx context.Context) error {
		first = false
		now := d.clock.Now().UTC()
		if err := d.accounts.Update(ctx, accountID, func(a *account.Account) error {
			if !a.DeveloperSince.IsZero() {
				return nil
			}
			a.DeveloperBonus, a.DeveloperSince, a.DeveloperClient, a.UpdatedAt = true, now, client, now
			first = true
			return nil
		}); err != nil || !first {
			return err
		}
		return d.notifier.Notify(ctx, accountID, notification.KindDeveloperBonus, "Developer bonus active",
			"Your account was connected from "+client+" through MCP: it now has web channels on any plan "+
				"and bonus interactions each month.")
	})
	return first, err
}

// cleanClient keeps the printable characters of a client's name and version, at most maxClient.
func cleanClient(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > maxClient {
		s = string(r[:maxClient])
	}
	if s == "" {
		return "an MCP client"
	}
	return s
}
