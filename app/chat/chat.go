// Package chat holds the customer chat: the agent that answers a business's customers on every
// channel, the conversations it keeps, and the sweep that finishes replies a process left behind.
package chat

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// Ledger reads usage and charges interactions.
type Ledger interface {
	Usage(ctx context.Context, acct account.Account) (ledger.Usage, error)
	ChargeAccount(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Usage, error)
	// Quote returns the hold a charge of action would take, not yet charged (for
	// ports.Conversations.Exchange, which writes the charge); Keep settles it once written.
	Quote(acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error)
	Keep(ctx context.Context, acct account.Account, h ledger.Hold) error
}

// Brain searches an account's knowledge.
type Brain interface {
	// SearchContext ranks the Brain whose state (State) the caller read for query: at most k
	// hits, and the passages a model upstream is given, those hits first, up to budget characters.
	SearchContext(ctx context.Context, accountID string, state knowledge.State, query string, k, budget int) (hits, passages []knowledge.Hit, err error)
	State(ctx context.Context, accountID string) (knowledge.State, error)
}

// Options tune the agent.
type Options struct {
	// Wait is how long a request waits for its reply before answering pending (spec: 40 s).
	Wait time.Duration
	// Lease is how long the accepting process owns a reply; past it a sweep takes over. It must
	// exceed Generate.
	Lease time.Duration
	// Generate bounds the making of one reply.
	Generate time.Duration
	// MaxAttempts is how many times a reply is tried before it is given up.
	MaxAttempts int
	// Inline is for a replier that answers in microseconds (the built-in engine): Send makes the
	// reply before it writes anything and stores the message, the reply, the charge and the
	// events in one transaction (sendInline). Without it (an upstream model), and whenever the
	// inline reply cannot be made, the message and a pending reply job are stored first and the
	// reply after (two transactions, with the sweep behind them).
	Inline bool
}

// Agent answers customers.
type Agent struct {
	tx            ports.Tx
	accounts      ports.Accounts
	profiles      ports.Profiles
	conversations ports.Conversations
	assistant     ports.AssistantHistory
	jobs          ports.ReplyJobs
	bookings      ports.Bookings
	brain         Brain
	replier       ports.Replier
	ledger        Ledger
	events        ports.Publisher
	outbox        ports.Outbox
	inbox         ports.Inbox
	clock         ports.Clock
	opts          Options
	background    context.Context
}

// Deps are the Agent's collaborators.
type Deps struct {
	Tx            ports.Tx
	Accounts      ports.Accounts
	Profiles      ports.Profiles
	Conversations ports.Conversations
	Jobs          ports.ReplyJobs
	Bookings      ports.Bookings
	Brain         Brain
	Replier       ports.Replier
	Ledger        Ledger
	Events        ports.Publisher
	// Outbox carries the messaging channel's replies to the worker that sends them.
	Outbox ports.Outbox
	// Inbox records the messaging apps' message ids, so that a message delivered twice is
	// accepted once.
	Inbox ports.Inbox
	// Assistant is the owner's assistant's kept conversations, which the API reads among the
	// account's conversations (AnyConversation, ListQuery.Assistant).
	Assistant ports.AssistantHistory
	Clock     ports.Clock
}

// NewAgent returns an Agent. Replies outlive the request that asked for them: they run under a
// context of their own, bounded by opts.Generate.
func NewAgent(d Deps, opts Options) *Agent {
	if opts.Wait <= 0 {
		opts.Wait = 40 * time.Second
	}
	if opts.Generate <= 0 {
		opts.Generate = 75 * time.Second
	}
	if opts.Lease <= opts.Generate {
		opts.Lease = opts.Generate + 15*time.Second
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	return &Agent{tx: d.Tx, accounts: d.Accounts, profiles: d.Profiles, conversations: d.Conversations, assistant: d.Assistant, jobs: d.Jobs,
		bookings: d.Bookings, brain: d.Brain, replier: d.Replier, ledger: d.Ledger, events: d.Events, outbox: d.Outbox, inbox: d.Inbox,
		clock: d.Clock, opts: opts, background: context.Background()}
}

// Request is one customer message.
type Request struct {
	Account        account.Account
	Channel        conversation.Channel
	ConversationID string // empty: a new conversation
	CustomerName   string
	Message        string
	// InboxKey, when set, is the messaging app's id of the message (messaging.InboxKey): it is
	// recorded with the message, and a message whose key was recorded before is not accepted
	// again (ErrDuplicate).
	InboxKey string
	// InboxKeep is how long InboxKey keeps a second delivery out (the app's
	// messaging.InboxKeep): a key recorded longer ago is forgotten, and the message accepted as
	// new. 0 keeps it as long as it is stored.
	InboxKeep time.Duration
	// Usage, when known (a key's request read it with the key), is the account's usage as it
	// stands: the agent checks the message against it instead of reading it again.
	Usage *ledger.Usage
	// UsageKept reports that Usage was read at an earlier request (a kept check of the key,
	// accounts.Admission.Kept): it may be behind the charges made since. The reply made at once
	// (the built-in engine) goes by it, as its charge checks the allowance again, atomically, and
	// stores nothing when the reply does not fit; a message that takes the two-phase path, which
	// stores it before its charge, is checked against the usage read again.
	UsageKept bool
	// RequestKey, when set, names the request that sends the message, sent with an
	// Idempotency-Key (idempotency.Record.Ref). A request whose reply failed after its message was
	// stored (a 402 when the charge no longer fits, a 5xx) frees its key, and the client retries
	// it: the retry finds the message by its key and answers it, rather than store it again
	// (accept), within the key's lifetime (idempotency.Lifetime).
	RequestKey string
}

// ErrDuplicate is the error of a message whose InboxKey was accepted before: it was answered, or
// is being answered, already.
var ErrDuplicate = errors.New("message already received")

// Statuses of a reply.
const (
	StatusCompleted = "completed"
	StatusPending   = "pending"
)

// Reply is the outcome of a customer message.
type Reply struct {
	Status         string
	ConversationID string
	MessageID      string // the customer's message
	ReplyID        string // the agent's message: its id is known while the reply is pending
	Text           string
	Actions        []conversation.Action
	Usage          ledger.Usage
	CreatedAt      time.Time
}

// Send stores the customer message and its pending reply, then makes the reply while the caller
// waits, up to the wait. Past it the reply is pending and goes on; it appears in the conversation
// and in a message.replied event when ready. What the reply needs (the account, its agent
// profile, the conversation) is loaded once, here, and passed down.
func (a *Agent) Send(ctx context.Context, req Request) (Reply, error) {
	return a.send(ctx, req, a.opts.Wait)
}

// Post stores the customer message and its pending reply like Send, and makes the reply without
// waiting for it: the answer is always pending (a messaging app's webhook, answered at once; the
// reply reaches the contact through the worker). A failure to make it is left to the sweep.
func (a *Agent) Post(ctx context.Context, req Request) (Reply, error) {
	return a.send(ctx, req, 0)
}

func (a *Agent) send(ctx context.Context, req Request, wait time.Duration) (Reply, error) {
	inline := a.opts.Inline && wait > 0 && req.InboxKey == "" && req.Channel != conversation.ChannelMessaging
	if inline && req.RequestKey != "" {
		// A retry of a request whose message was stored answers that message, never stores it
		// again inline: a reply stored (inline or not, its answer not kept for the key) is
		// answered as it was, whatever the allowance now; one that failed or is still being
		// made is the two-phase path's (accept).
		prior, err := a.jobs.ByRequestKey(ctx, req.Account.ID, req.RequestKey, idempotency.ExpiredBefore(a.clock.Now().UTC()))
		switch {
		case err == nil && prior.Status == conversation.JobDone:
			return a.answered(ctx, req, prior)
		case err == nil:
			inline = false
		case !domain.IsNotFound(err):
			return Reply{}, err
		}
	}
	if !inline && req.UsageKept {
		req.Usage = nil // read again: the two-phase path stores the message before its charge
	}
	prof, state, usage, err := a.check(ctx, req, inline)
	if err != nil {
		return Reply{}, err
	}
	if inline {
		if r, err := a.sendInline(ctx, req, prof, state); !errors.Is(err, errTwoPhase) {
			return r, err
		}
		if req.UsageKept {
			// The two-phase path stores the message before its charge: check it against the
			// usage as it stands.
			if usage, err = a.ledger.Usage(ctx, req.Account); err != nil {
				return Reply{}, err
			}
			cost, _ := ledger.Cost(ledger.ChatReply)
			if err := ledger.Check(usage, cost); err != nil {
				return Reply{}, err
			}
		}
	}
	t, err := a.accept(ctx, req, prof)
	if errors.Is(err, errAnswered) {
		return a.retried(ctx, t.job, usage)
	}
	if err != nil {
		return Reply{}, err
	}
	done := make(chan result, 1)
	var gone atomic.Bool // the caller stopped waiting: a failure is left for the sweep to retry
	gone.Store(wait <= 0)
	go func() {
		gctx, cancel := context.WithTimeout(a.background, a.opts.Generate)
		defer cancel()
		r, err := a.generate(gctx, t, gone.Load)
		done <- result{r, err}
	}()
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case r := <-done:
			return r.reply, r.err
		case <-timer.C:
		case <-ctx.Done():
		}
	}
	gone.Store(true)
	job := t.job
	return Reply{Status: StatusPending, ConversationID: job.ConversationID, MessageID: job.MessageID, ReplyID: job.ReplyID,
		Usage: usage, CreatedAt: job.CreatedAt}, nil
}

type result struct {
	reply Reply
	err   error
}

// check refuses a message before anything is stored: bad input, an agent not set up or switched
// off for the channel, no interactions left. It returns the agent profile and the account's
// usage it read, and with brain the Brain's state too, read with the profile (else nil).
func (a *Agent) check(ctx context.Context, req Request, brain bool) (profile.Profile, *knowledge.State, ledger.Usage, error) {
	if err := conversation.ValidateMessage("message", req.Message); err != nil {
		return profile.Profile{}, nil, ledger.Usage{}, err
	}
	if req.ConversationID != "" {
		if err := conversation.ValidateCustomerID("conversation_id", req.ConversationID); err != nil {
			return profile.Profile{}, nil, ledger.Usage{}, err
		}
	}
	if err := conversation.ValidateCustomerName(req.CustomerName); err != nil {
		return profile.Profile{}, nil, ledger.Usage{}, err
	}
	var prof profile.Profile
	var state *knowledge.State
	var err error
	if brain {
		var st knowledge.State
		prof, st, err = a.profiles.GetWithBrain(ctx, req.Account.ID)
		state = &st
	} else {
		prof, err = a.profiles.Get(ctx, req.Account.ID)
	}
	if err != nil {
		return profile.Profile{}, nil, ledger.Usage{}, fmt.Errorf("load agent: %w", err)
	}
	if !prof.Configured() {
		return profile.Profile{}, nil, ledger.Usage{}, domain.Errorf(domain.CodeAgentNotConfigured, "the agent must first be set up with PATCH /v1/agent (business_name)")
	}
	if !channelOn(prof.Channels, req.Channel) {
		return profile.Profile{}, nil, ledger.Usage{}, domain.Errorf(domain.CodeAgentUnavailable, "the owner turned the AI off for the %s channel", req.Channel)
	}
	var usage ledger.Usage
	if req.Usage != nil {
		usage = *req.Usage
	} else if usage, err = a.ledger.Usage(ctx, req.Account); err != nil {
		return profile.Profile{}, nil, ledger.Usage{}, err
	}
	cost, _ := ledger.Cost(ledger.ChatReply)
	return prof, state, usage, ledger.Check(usage, cost)
}

func channelOn(ch profile.Channels, c conversation.Channel) bool {
	switch c {
	case conversation.ChannelAPI:
		return ch.API
	case conversation.ChannelWeb:
		return ch.Web
	case conversation.ChannelMessaging:
		return ch.Messaging
	}
	return false
}

// errAnswered is accept's answer to a retried request (Request.RequestKey) whose message is
// stored and whose reply is made or still being made: the task's job is that reply's.
var errAnswered = errors.New("the request's message was accepted before")

// accept stores the customer message and the pending reply job in one transaction, and returns
// the reply to make, with the account and profile of the request and the conversation stored.
//
// A retry of a request that stored its message before (Request.RequestKey) stores nothing
// again: when that message's reply failed (the charge did not fit, 402; a failure of the
// service), a new job answers the message stored; when its reply was made or is being made,
// accept returns errAnswered with that job.
func (a *Agent) accept(ctx context.Context, req Request, prof profile.Profile) (task, error) {
	now := a.clock.Now().UTC()
	convID := req.ConversationID
	if convID == "" {
		convID = ident.New("conv")
	}
	t := task{account: req.Account, profile: prof,
		job: conversation.NewJob(ident.Ordered("job", now), req.Account.ID, convID, ident.Ordered("msg", now), ident.Ordered("msg", now), req.Channel, now, a.opts.Lease)}
	t.job.RequestKey = req.RequestKey
	err := a.tx.InTx(ctx, func(ctx context.Context) error {
		if req.RequestKey != "" {
			prior, err := a.jobs.ByRequestKey(ctx, req.Account.ID, req.RequestKey, idempotency.ExpiredBefore(now))
			if err == nil {
				return a.acceptAgain(ctx, &t, prior)
			}
			if !domain.IsNotFound(err) {
				return err
			}
		}
		c, err := a.conversations.Open(ctx, conversation.Conversation{AccountID: req.Account.ID, ID: convID, Channel: req.Channel,
			CustomerName: req.CustomerName, ContactID: conversation.ContactID(req.Channel, convID), CreatedAt: now, UpdatedAt: now})
		if err != nil {
			return err
		}
		if c.Channel != req.Channel {
			// A conversation is its channel's alone: a messaging contact's, a website visitor's
			// and the API's. A message through one channel never joins another's conversation,
			// where it would be stored as that customer's words and its reply's event would name
			// a channel it did not come through.
			return domain.Invalid("conversation_id", "conversation %s belongs to another channel", convID)
		}
		if req.InboxKey != "" {
			var since time.Time
			if req.InboxKeep > 0 {
				since = now.Add(-req.InboxKeep)
			}
			fresh, err := a.inbox.Record(ctx, req.Account.ID, req.InboxKey, now, since)
			if err != nil {
				return err
			}
			if !fresh {
				return ErrDuplicate
			}
		}
		t.conv, t.job.Channel = c, c.Channel
		msg := conversation.Message{ID: t.job.MessageID, ConversationID: convID, Role: conversation.RoleCustomer, Content: req.Message, CreatedAt: now}
		if err := a.conversations.AddMessage(ctx, req.Account.ID, msg); err != nil {
			return err
		}
		return a.jobs.Create(ctx, t.job)
	})
	if errors.Is(err, errAnswered) {
		return t, err
	}
	if err != nil {
		return task{}, fmt.Errorf("accept message: %w", err)
	}
	return t, nil
}

// acceptAgain answers a retry of the request that stored prior's message: a new job for that
// message when prior failed, else errAnswered with prior. The stored message is the request's own
// (its key names its caller, route, key and body), in its conversation.
func (a *Agent) acceptAgain(ctx context.Context, t *task, prior conversation.Job) error {
	if prior.Status != conversation.JobFailed {
		t.job = prior
		return errAnswered
	}
	c, err := a.conversations.Get(ctx, prior.AccountID, prior.ConversationID)
	if err != nil {
		return err
	}
	t.conv = c
	t.job.ConversationID, t.job.MessageID, t.job.Channel = prior.ConversationID, prior.MessageID, c.Channel
	return a.jobs.Create(ctx, t.job)
}

// retried answers a retried request whose reply was made (the reply stored) or is being made
// (pending, with usage, the account's as checked).
func (a *Agent) retried(ctx context.Context, job conversation.Job, usage ledger.Usage) (Reply, error) {
	if job.Status == conversation.JobDone {
		r, err := a.stored(ctx, job)
		r.Usage = usage
		return r, err
	}
	return Reply{Status: StatusPending, ConversationID: job.ConversationID, MessageID: job.MessageID, ReplyID: job.ReplyID,
		Usage: usage, CreatedAt: job.CreatedAt}, nil
}

// answered answers a retried request whose reply was stored before, with the account's usage as
// it stands.
func (a *Agent) answered(ctx context.Context, req Request, job conversation.Job) (Reply, error) {
	r, err := a.stored(ctx, job)
	if err != nil {
		return Reply{}, err
	}
	if r.Usage, err = a.ledger.Usage(ctx, req.Account); err != nil {
		return Reply{}, err
	}
	return r, nil
}

// task is one reply to make: its job and what making it needs, loaded once (by Send from the
// request it accepted, by the sweep from the job).
type task struct {
	job     conversation.Job
	account account.Account
	profile profile.Profile
	conv    conversation.Conversation
}

// load loads what a job's reply needs: its account (which must be usable), the agent profile and
// the conversation.
func (a *Agent) load(ctx context.Context, job conversation.Job) (task, error) {
	acct, err := a.accounts.Get(ctx, job.AccountID)
	if err != nil {
		return task{}, err
	}
	if err := acct.Usable(); err != nil {
		return task{}, err
	}
	prof, err := a.profiles.Get(ctx, job.AccountID)
	if err != nil {
		return task{}, fmt.Errorf("load agent: %w", err)
	}
	conv, err := a.conversations.Get(ctx, job.AccountID, job.ConversationID)
	if err != nil {
		return task{}, err
	}
	return task{job: job, account: acct, profile: prof, conv: conv}, nil
}
