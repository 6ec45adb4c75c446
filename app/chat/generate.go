package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/language"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/policy"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// searchHits is how many Brain matches the agent reads for one message (a model upstream is given
// more, up to knowledge.ContextChars: conversation.Turn.Context).
const searchHits = 5

// contextReader is a replier given more of the Brain than the hits (conversation.Turn.Context):
// a model upstream (ModelReplier). The built-in engine reads the hits only.
type contextReader interface {
	ReadsContext() bool
}

// contextBudget is the characters of the Brain's passages a replier is given (knowledge.Index.
// SearchContext): knowledge.ContextChars for one that reads them, else -1 (the hits only).
func contextBudget(r ports.Replier) int {
	if c, ok := r.(contextReader); ok && c.ReadsContext() {
		return knowledge.ContextChars
	}
	return -1
}

// generate makes the reply of a task and finishes its job; a failure is handled by failed.
func (a *Agent) generate(ctx context.Context, t task, unattended func() bool) (Reply, error) {
	reply, err := a.makeReply(ctx, t)
	if err == nil {
		return reply, nil
	}
	return a.failed(ctx, t.job, err, unattended)
}

// failed handles a failure to make a job's reply. A failure the caller is waiting to hear of
// fails the job at once; one nobody waits for (unattended reports true) leaves the job pending for
// the sweep to try again, while the job retries. A job another process finished gives its reply.
func (a *Agent) failed(ctx context.Context, job conversation.Job, err error, unattended func() bool) (Reply, error) {
	if errors.Is(err, conversation.ErrJobFinished) {
		return a.stored(ctx, job)
	}
	if unattended() && job.Retries(a.opts.MaxAttempts) && retryable(err) {
		return Reply{}, err
	}
	failedJob, ferr := job.Fail(string(domain.ErrorCode(err)), a.clock.Now())
	if ferr == nil {
		_, ferr = a.jobs.Finish(context.WithoutCancel(ctx), failedJob)
	}
	if ferr != nil {
		return Reply{}, errors.Join(err, ferr)
	}
	return Reply{}, err
}

// retryable reports whether another attempt may succeed.
func retryable(err error) bool {
	switch domain.ErrorCode(err) {
	case domain.CodeInteractionLimitReached, domain.CodeAgentNotConfigured, domain.CodeAccountInactive, domain.CodeInvalidRequest, domain.CodeContentPolicy:
		return false
	}
	return true
}

func (a *Agent) makeReply(ctx context.Context, t task) (Reply, error) {
	job, prof := t.job, t.profile
	// The job's own message and the conversation up to it: messages sent after it (at once, to
	// the same conversation) are not its history, however many there are.
	msgs, err := a.conversations.UpTo(ctx, job.AccountID, job.ConversationID, job.MessageID, conversation.HistoryTurns+1)
	if domain.IsNotFound(err) { // a store that lost the message: internal, not the caller's 404
		return Reply{}, fmt.Errorf("reply job %s: customer message %s not found", job.ID, job.MessageID)
	}
	if err != nil {
		return Reply{}, err
	}
	customer, history := msgs[len(msgs)-1], msgs[:len(msgs)-1]
	d, err := a.draft(ctx, t.account, prof, nil, job.Channel, history, customer.Content, t.conv.CustomerName)
	if err != nil {
		return Reply{}, err
	}
	return a.finish(ctx, t, customer.Content, d.text, d.actions, d.booking)
}

// drafted is a reply written but not yet stored or charged.
type drafted struct {
	text    string
	actions []conversation.Action
	booking *conversation.Booking
}

// draft writes the agent's reply to message on channel, after history: the customers-only rule,
// the knowledge search, the model, and the actions the channel may have. brain is the Brain's
// state when the caller read it (with prof); nil: draft reads it.
func (a *Agent) draft(ctx context.Context, acct account.Account, prof profile.Profile, brain *knowledge.State,
	channel conversation.Channel, history []conversation.Message, message, customerName string) (drafted, error) {
	var state knowledge.State
	var err error
	if brain != nil {
		state = *brain
	} else if state, err = a.brain.State(ctx, acct.ID); err != nil {
		return drafted{}, err
	}
	turn := conversation.Turn{Profile: prof, Summary: state.BusinessSummary, History: history, Message: message,
		CustomerName: customerName, Lang: prof.ReplyLanguage(message), Channel: channel, Now: a.clock.Now()}

	// An elliptical follow-up ("and on sundays?" after "what time do you open on saturday?",
	// "how much is it?" after "do you do baths?"), of the customer's previous message or of the
	// question that one asked in turn, is searched for the question it asks, which the replier
	// reads too (Turn.Query); the history is the one the caller read already.
	previous := conversation.LastCustomers(history, knowledge.FollowChain)
	query, followed := knowledge.FollowUpIn(previous, message)
	if followed {
		// A follow-up is too short for its language to be told from its words alone: its
		// opener or its day tells it ("e no domingo?" is answered in Portuguese).
		if l := knowledge.FollowLanguage(previous, message); l != "" {
			turn.Lang = prof.Speaking(l)
		}
	}
	var draft conversation.Draft
	switch {
	case conversation.IsAttachment(message):
		// A file sent alone (the messaging channel): the agent cannot see it and asks for it in
		// words, in the language the customer wrote in before (the profile's without one), as
		// a reply like any other.
		if prev := conversation.LastCustomers(history, 1); len(prev) > 0 && !conversation.IsAttachment(prev[0]) {
			turn.Lang = prof.ReplyLanguage(prev[0])
		} else {
			turn.Lang = prof.Speaking(language.Base(prof.Language()))
		}
		draft.Text = conversation.AttachmentAsk(turn.Lang, prof.BusinessName)
	case !policy.Screen(message).Allowed || (followed && !policy.Screen(query).Allowed):
		// The customers-only rule: a polite customer-service answer, never an action. A
		// follow-up is screened for the question it asks too ("and for saturday?" after "show
		// me the other customers' bookings" asks the refused question again).
		draft.Text = policy.Refusal(turn.Lang, prof.BusinessName)
	default:
		if followed {
			turn.Query = query
		} else {
			query = message
		}
		turn.Hits, turn.Context, err = a.brain.SearchContext(ctx, acct.ID, state, query, searchHits, contextBudget(a.replier))
		if err != nil {
			return drafted{}, err
		}
		draft, err = a.replier.Reply(ctx, turn)
		if err != nil {
			return drafted{}, err
		}
	}
	text, actions := actiontoken.Parse(draft.Text, siteOf(acct, state, turn.Hits))
	// The channel is given only the actions it may have (the customers-only rule, per channel).
	actions = policy.Actions(channel, actions)
	if draft.Booking != nil && !policy.Permits(channel, policy.ActBooking) {
		draft.Booking = nil
	}
	text = strings.TrimSpace(text)
	if text == "" && len(actions) == 0 {
		return drafted{}, domain.Errorf(domain.CodeModelUnavailable, "the model returned an empty reply; try again")
	}
	return drafted{text: text, actions: actions, booking: draft.Booking}, nil
}

// finish charges the interaction, stores the reply, marks the job done and writes the events,
// in one transaction; on the messaging channel the same transaction writes the reply's sending
// to the outbox, for the worker. Only one finish of a job succeeds.
func (a *Agent) finish(ctx context.Context, t task, customerMsg, text string, actions []conversation.Action,
	booking *conversation.Booking) (Reply, error) {
	ctx = context.WithoutCancel(ctx) // a reply that was made is stored, even if its caller left
	job, conv := t.job, t.conv
	now := a.clock.Now().UTC()
	reply := Reply{Status: StatusCompleted, ConversationID: job.ConversationID, MessageID: job.MessageID,
		ReplyID: job.ReplyID, Text: text, Actions: actions, CreatedAt: now}
	if reply.ReplyID == "" { // a job made before reply ids were reserved
		reply.ReplyID = ident.Ordered("msg", now)
	}
	done, err := job.Complete(reply.ReplyID, now)
	if err != nil {
		return Reply{}, err
	}
	var refused error
	err = a.tx.InTx(ctx, func(ctx context.Context) error {
		usage, err := a.ledger.ChargeAccount(ctx, t.account, ledger.ChatReply, reply.ReplyID, ledger.Labels{})
		if domain.ErrorCode(err) == domain.CodeInteractionLimitReached {
			refused = err
			failedJob, err := job.Fail(string(domain.CodeInteractionLimitReached), now)
			if err != nil {
				return err
			}
			return a.finishJob(ctx, failedJob)
		}
		if err != nil {
			return err
		}
		reply.Usage = usage
		if err := a.finishJob(ctx, done); err != nil {
			return err
		}
		msg := conversation.Message{ID: reply.ReplyID, ConversationID: job.ConversationID, Role: conversation.RoleAgent,
			Content: text, Actions: actions, ReplyTo: job.MessageID, CreatedAt: now}
		if err := a.conversations.AddMessage(ctx, job.AccountID, msg); err != nil {
			return err
		}
		if booking != nil {
			if err := a.book(ctx, job, conv, *booking, now); err != nil {
				return err
			}
		}
		_, err = a.events.Publish(ctx, job.AccountID, event.MessageReplied, map[string]any{
			"channel": string(job.Channel), "contact_id": conv.ContactID, "customer_message": customerMsg, "reply": text})
		if err != nil || job.Channel != conversation.ChannelMessaging {
			return err
		}
		return a.outbox.Ensure(ctx, outgoingMessage(job.AccountID, job.ConversationID, reply.ReplyID, now))
	})
	if err != nil {
		return Reply{}, err
	}
	if refused != nil {
		return Reply{}, refused
	}
	return reply, nil
}

// finishJob stores a job that Complete or Fail finished: conversation.ErrJobFinished when another
// process finished it first.
func (a *Agent) finishJob(ctx context.Context, finished conversation.Job) error {
	ok, err := a.jobs.Finish(ctx, finished)
	if err == nil && !ok {
		return conversation.ErrJobFinished
	}
	return err
}

// book stores a booking the agent made and writes booking.created.
func (a *Agent) book(ctx context.Context, job conversation.Job, conv conversation.Conversation, b conversation.Booking, now time.Time) error {
	b.ID = ident.New("bk")
	b.ConversationID = job.ConversationID
	b.CreatedAt = now
	if b.CustomerName == "" {
		b.CustomerName = conv.CustomerName
	}
	if err := a.bookings.Create(ctx, job.AccountID, b); err != nil {
		return err
	}
	_, err := a.events.Publish(ctx, job.AccountID, event.BookingCreated, map[string]any{
		"channel": string(job.Channel), "contact_id": conv.ContactID, "customer_name": b.CustomerName,
		"date": b.Date, "time": b.Time, "duration": b.Duration, "type": b.Type})
	return err
}

// stored returns the reply another process finished.
func (a *Agent) stored(ctx context.Context, job conversation.Job) (Reply, error) {
	j, err := a.jobs.Get(ctx, job.AccountID, job.ID)
	if err != nil {
		return Reply{}, err
	}
	if j.Status != conversation.JobDone {
		code := domain.Code(j.Error)
		if code == "" {
			code = domain.CodeInternal
		}
		return Reply{}, domain.Errorf(code, "the reply could not be made")
	}
	msgs, err := a.conversations.UpTo(ctx, job.AccountID, job.ConversationID, j.ReplyID, 1)
	if domain.IsNotFound(err) {
		return Reply{}, fmt.Errorf("reply %s of job %s not found", j.ReplyID, j.ID)
	}
	if err != nil {
		return Reply{}, err
	}
	m := msgs[0]
	return Reply{Status: StatusCompleted, ConversationID: job.ConversationID, MessageID: job.MessageID, ReplyID: m.ID,
		Text: m.Content, Actions: m.Actions, CreatedAt: m.CreatedAt}, nil
}

// siteOf tells which hosts an agent's links may point to: the account's widget domains, the
// site given with pages, and the hosts of the Brain's own pages.
func siteOf(acct account.Account, state knowledge.State, hits []knowledge.Hit) actiontoken.Site {
	var site actiontoken.Site
	add := func(raw string) {
		if h := knowledge.SiteOf(raw); h != "" {
			site.Hosts = append(site.Hosts, h, "www."+h)
		}
	}
	if state.SiteURL != "" {
		site.BaseURL = strings.TrimRight(state.SiteURL, "/")
		add(state.SiteURL)
	}
	for _, d := range acct.AllowedDomains {
		add("https://" + d)
	}
	for _, h := range hits {
		if h.Kind == knowledge.KindChunk && h.Chunk.URL != "" {
			add(h.Chunk.URL)
		}
	}
	return site
}
