package ports

import (
	"context"
	"errors"
	"time"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/session"
)

//go:generate go tool mockgen -source=chat.go -destination=mock/chat.go -package=mock

// Conversations stores conversations and their messages.
type Conversations interface {
	// Open returns the account's conversation c.ID, creating it from c when it does not exist;
	// a non-empty c.CustomerName replaces the stored one.
	Open(ctx context.Context, c conversation.Conversation) (conversation.Conversation, error)
	// Get returns one conversation; not_found when the account has none with that id.
	Get(ctx context.Context, accountID, conversationID string) (conversation.Conversation, error)
	// List pages through the account's conversations, newest first (by created_at, then id),
	// after q.After; with q.Assistant the owner's kept assistant conversations (AssistantHistory's,
	// as its Conversation returns them) are merged in by the same order, and channel
	// conversation.ChannelAssistant lists only them.
	List(ctx context.Context, accountID string, q conversation.ListQuery) (conversation.Page, error)
	// AddMessage stores a message after every message of the conversation stored before it, even
	// under concurrent adds, and moves the conversation's updated_at forward to the message's time
	// (never back); not_found when the conversation does not exist.
	AddMessage(ctx context.Context, accountID string, m conversation.Message) error
	// Messages returns the last limit messages of a conversation, oldest first (limit 0: all).
	Messages(ctx context.Context, accountID, conversationID string, limit int) ([]conversation.Message, error)
	// UpTo returns the conversation's message messageID and up to limit-1 messages stored before
	// it, oldest first, so the message is last (limit 0: all before it); messages stored after it
	// are left out. not_found when the conversation has no such message.
	UpTo(ctx context.Context, accountID, conversationID, messageID string, limit int) ([]conversation.Message, error)
	// Tag adds a tag to a conversation (idempotent) and moves its updated_at forward as AddMessage
	// does; not_found when it does not exist.
	Tag(ctx context.Context, accountID, conversationID, tag string, at time.Time) error
	// Exchange stores a customer message answered at once, atomically: it opens the conversation
	// as Open does, adds the message and the reply as AddMessage does, stores the reply's job
	// (done), records the charge as Usage.Charge does within x.Limit, and adds the events to the
	// outbox (see Exchange.HooksOnly); it returns the conversation, the period's spending after
	// the charge, and whether it left an event pending (not written done: the relay must hand it
	// on), so that the caller nudges the relay only then. When any of it cannot be done so (the
	// conversation belongs to another channel, the charge does not fit or its period is not open
	// yet, a concurrent message took the next place) it writes nothing (but, when a concurrent
	// charge took the room left, the conversation opened) and returns ErrNotExchanged, and the
	// caller stores the message the long way.
	Exchange(ctx context.Context, x Exchange) (c conversation.Conversation, spent int, pending bool, err error)
}

// Exchange is a customer message and its reply, with what storing them writes.
type Exchange struct {
	Conversation conversation.Conversation // opened with it (its CustomerName as Open's)
	Message      conversation.Message      // the customer's
	Reply        conversation.Message
	Job          conversation.Job // the reply's, done
	Charge       ledger.Charge
	Period       ledger.Period
	Limit        int
	Events       []outbox.Message
	// HooksOnly says that the events set off no work but their webhooks' deliveries
	// (event.HooksOnly): when the account has no active webhook as they are written, Exchange
	// writes them confirmed (done at their CreatedAt), and the relay never hands them over.
	HooksOnly bool
}

// ErrNotExchanged is Conversations.Exchange's answer when it wrote nothing (see there).
var ErrNotExchanged = errors.New("exchange not stored")

// ReplyJobs stores the pending replies. Its changes are the transitions of conversation.Job,
// applied to the stored job under the same conditions.
type ReplyJobs interface {
	Create(ctx context.Context, j conversation.Job) error
	Get(ctx context.Context, accountID, jobID string) (conversation.Job, error)
	// ByRequestKey returns the account's job of the request key names (conversation.Job.
	// RequestKey), made after since: the one done or pending when there is one, else the latest
	// failed; not_found when none.
	ByRequestKey(ctx context.Context, accountID, key string, since time.Time) (conversation.Job, error)
	// Finish stores j, a job that Complete or Fail finished (its status, reply id, error and
	// updated_at), when the stored job is still pending, and reports whether this call did; a job
	// already finished is left alone.
	Finish(ctx context.Context, j conversation.Job) (bool, error)
	// ClaimExpired takes over up to limit pending jobs whose lease ended before now, as
	// conversation.Job.TakeOver does: their lease becomes now+lease and their attempts grow by one.
	// Concurrent claimers never get the same job.
	ClaimExpired(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]conversation.Job, error)
}

// ClientCredential is what authenticating a client token reads: the session, its account, and
// whether the API key that created the session is revoked (or gone).
type ClientCredential struct {
	Session    session.Session
	Account    account.Account
	KeyRevoked bool
}

// Sessions stores client sessions by the hash of their token.
type Sessions interface {
	Create(ctx context.Context, s session.Session) error
	// Credential finds a session (expired or not) by its hash, with its account and the state of
	// the key that created it, in one read (client authentication); not_found when none.
	Credential(ctx context.Context, hash string) (ClientCredential, error)
}

// Bookings stores the bookings the agent makes.
type Bookings interface {
	Create(ctx context.Context, accountID string, b conversation.Booking) error
}
