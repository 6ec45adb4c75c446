package assistant

import (
	"context"
	"fmt"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/ports"
)

// Mailboxes sets each account's mail connector (an admin use case: svcctl mail): the SMTP
// server its assistant's e-mails leave through, the password sealed by the vault.
type Mailboxes struct {
	accounts ports.Accounts
	store    ports.Mailboxes
	vault    ports.Vault
	clock    ports.Clock
}

// NewMailboxes returns Mailboxes.
func NewMailboxes(a ports.Accounts, s ports.Mailboxes, v ports.Vault, c ports.Clock) *Mailboxes {
	return &Mailboxes{accounts: a, store: s, vault: v, clock: c}
}

// Set connects the account's mailbox to server s (replacing the one it had).
func (m *Mailboxes) Set(ctx context.Context, accountID string, s assistant.MailServer) (assistant.Mailbox, error) {
	if s.Security == "" {
		s.Security = assistant.StartTLS
	}
	if err := assistant.ValidateMailbox(s); err != nil {
		return assistant.Mailbox{}, err
	}
	if _, err := m.accounts.Get(ctx, accountID); err != nil {
		return assistant.Mailbox{}, err
	}
	box := assistant.Mailbox{AccountID: accountID, Host: s.Host, Port: s.Port, Username: s.Username, From: s.From,
		Security: s.Security, UpdatedAt: m.clock.Now().UTC()}
	if s.Password != "" {
		sealed, err := m.vault.Seal(s.Password)
		if err != nil {
			return assistant.Mailbox{}, fmt.Errorf("seal mailbox password: %w", err)
		}
		box.SealedPassword = sealed
	}
	if err := m.store.Save(ctx, box); err != nil {
		return assistant.Mailbox{}, err
	}
	return box, nil
}

// Get returns the account's mailbox (its password stays sealed); not_found when none. An
// account that does not exist is said so, not that it has no mailbox (as Set and Delete have it).
func (m *Mailboxes) Get(ctx context.Context, accountID string) (assistant.Mailbox, error) {
	if _, err := m.accounts.Get(ctx, accountID); err != nil {
		return assistant.Mailbox{}, err
	}
	return m.store.Get(ctx, accountID)
}

// Delete disconnects the account's mailbox.
func (m *Mailboxes) Delete(ctx context.Context, accountID string) error {
	if _, err := m.accounts.Get(ctx, accountID); err != nil {
		return err
	}
	return m.store.Delete(ctx, accountID)
}
