package ports

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
)

//go:generate go tool mockgen -source=assistant.go -destination=mock/assistant.go -package=mock

// Records stores the owner's own records (contacts, leads, tasks, notes, events, bookings).
type Records interface {
	// Save stores r, or changes the account's record with the same assistant.Record.Key (keeping
	// the e-mail, phone and date it had where r leaves them empty).
	Save(ctx context.Context, r assistant.Record) error
	// List returns the account's records of type t, newest first, at most limit (0: all), and
	// how many there are. Bookings include those the agent made for customers.
	List(ctx context.Context, accountID string, t assistant.Type, limit int) ([]assistant.Record, int, error)
}

// Approvals stores the assistant's approvals.
type Approvals interface {
	Create(ctx context.Context, r approval.Request) error
	// Use marks the account's approval id used at now, when it is pending and not past its
	// expiry, in one conditional write, and returns it: of concurrent calls exactly one gets it.
	// approval_not_found otherwise (another account's, used, expired, or none).
	Use(ctx context.Context, accountID, id string, now time.Time) (approval.Request, error)
	// Refuse marks the account's approval id refused at now (its UsedAt), when it is pending and
	// not past its expiry, in one conditional write, as Use does: of concurrent Use and Refuse
	// calls exactly one gets it. approval_not_found otherwise.
	Refuse(ctx context.Context, accountID, id string, now time.Time) (approval.Request, error)
	// Pending returns the account's approvals pending at now (not past their expiry), the
	// newest first, at most limit.
	Pending(ctx context.Context, accountID string, now time.Time, limit int) ([]approval.Request, error)
	// Get returns the account's approval id, with its outcome and when it was answered;
	// approval_not_found when the account has none.
	Get(ctx context.Context, accountID, id string) (approval.Request, error)
	// Record keeps the outcome of the account's used approval id once its actions ran;
	// approval_not_found when the account has no used approval id.
	Record(ctx context.Context, accountID, id string, o approval.Outcome) error
	// Answer marks the account's used approval id, whose outcome is kept, answered at now, when
	// it was not yet, in one conditional write: of concurrent calls exactly one gets ok true.
	Answer(ctx context.Context, accountID, id string, now time.Time) (ok bool, err error)
}

// AssistantHistory stores the assistant's conversations (not the customers').
type AssistantHistory interface {
	// Add appends turns to the account's conversation, in order, creating it.
	Add(ctx context.Context, accountID string, turns ...assistant.Turn) error
	// Turns returns the last limit turns of a conversation, oldest first (0: all), each with its
	// Seq; not_found when the account has no such conversation.
	Turns(ctx context.Context, accountID, conversationID string, limit int) ([]assistant.Turn, error)
	// Hold takes the conversation for one turn (an id of the caller's) until until, when no other
	// turn holds it or the one that did is past its until at now; of concurrent holds one wins.
	// ok is false when another turn holds it; not_found when the account has no such conversation.
	Hold(ctx context.Context, accountID, conversationID, turn string, now, until time.Time) (ok bool, err error)
	// Release lets go of the conversation turn holds; nothing when it no longer holds it.
	Release(ctx context.Context, accountID, conversationID, turn string) error
	// Conversation returns a kept conversation as one of the account's conversations: channel
	// conversation.ChannelAssistant, created at its first turn, updated at its last; not_found
	// when the account has no such conversation. Conversations.List lists these with q.Assistant.
	Conversation(ctx context.Context, accountID, conversationID string) (conversation.Conversation, error)
}

// Mailboxes stores each account's mail connector.
type Mailboxes interface {
	// Get returns the account's mailbox; not_found when it has none.
	Get(ctx context.Context, accountID string) (assistant.Mailbox, error)
	// Save stores the account's mailbox, replacing the one it had.
	Save(ctx context.Context, m assistant.Mailbox) error
	// Delete removes the account's mailbox (nothing when it has none).
	Delete(ctx context.Context, accountID string) error
}

// MailSender sends an e-mail through an account's mail server.
type MailSender interface {
	SendVia(ctx context.Context, s assistant.MailServer, m assistant.Mail) error
}

// Connectors deliver messages to contacts and social-network posts through the account's
// connected services: assistant.ErrNotConnected when the account has none for the action, an
// *assistant.RefusedError when the service refused.
type Connectors interface {
	Deliver(ctx context.Context, accountID string, a assistant.Action) error
}

// Images make pictures from a description and return their URL.
type Images interface {
	Create(ctx context.Context, prompt string) (string, error)
}
