package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports"
)

// errTwoPhase is sendInline's answer when the message must take the two-phase path instead:
// nothing was stored, and that path stores it and gives the answer (a failed reply, a charge
// refused, a conversation of another channel) as it always does.
var errTwoPhase = errors.New("chat: reply in two phases")

// sendInline answers a message whose reply is made before anything is written (the built-in
// engine): it reads the conversation's history, makes the reply, and then stores the customer
// message, the reply, the charge, the reply's job (done), a booking and the events in one
// transaction. Nothing is
// acknowledged before that transaction commits, and a failure leaves nothing behind. A charge
// refused (nothing left) is answered 402 interaction_limit_reached with nothing stored, as the
// check before it answers. Whatever else it cannot finish this way (the reply fails, the
// conversation belongs to another channel) it leaves to the two-phase path with errTwoPhase,
// before writing anything.
// state is the Brain's state read with prof.
func (a *Agent) sendInline(ctx context.Context, req Request, prof profile.Profile, state *knowledge.State) (Reply, error) {
	acct := req.Account
	convID := req.ConversationID
	name := req.CustomerName
	var history []conversation.Message
	if convID == "" {
		convID = ident.New("conv")
	} else {
		c, err := a.conversations.Get(ctx, acct.ID, convID)
		switch {
		case domain.IsNotFound(err):
		case err != nil:
			return Reply{}, err
		case c.Channel != req.Channel:
			return Reply{}, errTwoPhase
		default:
			if name == "" {
				name = c.CustomerName
			}
			if history, err = a.conversations.Messages(ctx, acct.ID, convID, conversation.HistoryTurns); err != nil {
				return Reply{}, err
			}
		}
	}
	d, err := a.draft(ctx, acct, prof, state, req.Channel, history, req.Message, name)
	if err != nil {
		return Reply{}, errTwoPhase // the two-phase path stores the message and the failure
	}

	now := a.clock.Now().UTC()
	job := conversation.NewJob(ident.Ordered("job", now), acct.ID, convID, ident.Ordered("msg", now), ident.Ordered("msg", now), req.Channel, now, a.opts.Lease)
	// The reply's job is recorded done, as the two-phase path leaves it: every answered message
	// has one. It carries the request's name (Request.RequestKey), so that a retry of a request
	// whose answer was stored but not kept for its Idempotency-Key (the keeping failed, or the
	// process died before it) finds this reply rather than store and charge the message again.
	job.RequestKey = req.RequestKey
	done, err := job.Complete(job.ReplyID, now)
	if err != nil {
		return Reply{}, err
	}
	reply := Reply{Status: StatusCompleted, ConversationID: convID, MessageID: job.MessageID, ReplyID: job.ReplyID,
		Text: d.text, Actions: d.actions, CreatedAt: now}
	if d.booking == nil {
		switch usage, err := a.exchange(ctx, req, done, reply); {
		case err == nil:
			reply.Usage = usage
			return reply, nil
		case !errors.Is(err, ports.ErrNotExchanged):
			return Reply{}, fmt.Errorf("store reply: %w", err)
		}
		// Not stored (another channel's conversation, a charge that does not fit, a period not
		// opened yet, a concurrent message): the transaction below decides, with the same ids.
	}
	var refused error
	err = a.tx.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
		// The charge comes first: every writer of a reply locks the account's counter before
		// the conversation (so does Exchange), so concurrent ones queue instead of deadlocking.
		usage, err := a.ledger.ChargeAccount(ctx, acct, ledger.ChatReply, reply.ReplyID, ledger.Labels{})
		if domain.ErrorCode(err) == domain.CodeInteractionLimitReached {
			// Nothing left (spent since the usage the message was checked against, by a
			// concurrent request or since a kept check of the key): refused as by that check,
			// the message not stored; the refusal's limit.reached event, when it writes one, is
			// committed.
			refused = err
			return nil
		}
		if err != nil {
			return err
		}
		reply.Usage = usage
		c, err := a.conversations.Open(ctx, conversation.Conversation{AccountID: acct.ID, ID: convID, Channel: req.Channel,
			CustomerName: req.CustomerName, ContactID: conversation.ContactID(req.Channel, convID), CreatedAt: now, UpdatedAt: now})
		if err != nil {
			return err
		}
		if c.Channel != req.Channel {
			return errTwoPhase // made meanwhile by another channel (the charge is rolled back)
		}
		for _, m := range []conversation.Message{
			{ID: job.MessageID, ConversationID: convID, Role: conversation.RoleCustomer, Content: req.Message, CreatedAt: now},
			{ID: reply.ReplyID, ConversationID: convID, Role: conversation.RoleAgent, Content: d.text, Actions: d.actions,
				ReplyTo: job.MessageID, CreatedAt: now},
		} {
			if err := a.conversations.AddMessage(ctx, acct.ID, m); err != nil {
				return err
			}
		}
		if err := a.jobs.Create(ctx, done); err != nil {
			return err
		}
		if d.booking != nil {
			if err := a.book(ctx, job, c, *d.booking, now); err != nil {
				return err
			}
		}
		_, err = a.events.Publish(ctx, acct.ID, event.MessageReplied, map[string]any{
			"channel": string(req.Channel), "contact_id": c.ContactID, "customer_message": req.Message, "reply": d.text})
		return err
	})
	if errors.Is(err, errTwoPhase) {
		return Reply{}, errTwoPhase
	}
	if err != nil {
		return Reply{}, fmt.Errorf("store reply: %w", err)
	}
	if refused != nil {
		return Reply{}, refused
	}
	return reply, nil
}

// exchange stores the customer message, the reply, its job (done), the charge and the
// message.replied event in one statement of the store (ports.Conversations.Exchange) and returns
// the account's usage after the charge; ports.ErrNotExchanged when nothing was stored. The relay
// is nudged after the request only when the event was left pending (an active webhook).
func (a *Agent) exchange(ctx context.Context, req Request, done conversation.Job, reply Reply) (ledger.Usage, error) {
	acct, convID, now := req.Account, reply.ConversationID, reply.CreatedAt
	hold, err := a.ledger.Quote(acct, ledger.ChatReply, reply.ReplyID, ledger.Labels{})
	if err != nil {
		return ledger.Usage{}, err
	}
	contact := conversation.ContactID(req.Channel, convID)
	ev, err := a.events.Prepare(ctx, acct.ID, event.MessageReplied, map[string]any{
		"channel": string(req.Channel), "contact_id": contact, "customer_message": req.Message, "reply": reply.Text})
	if err != nil {
		return ledger.Usage{}, err
	}
	_, spent, pending, err := a.conversations.Exchange(context.WithoutCancel(ctx), ports.Exchange{
		Conversation: conversation.Conversation{AccountID: acct.ID, ID: convID, Channel: req.Channel,
			CustomerName: req.CustomerName, ContactID: contact, CreatedAt: now, UpdatedAt: now},
		Message: conversation.Message{ID: reply.MessageID, ConversationID: convID, Role: conversation.RoleCustomer,
			Content: req.Message, CreatedAt: now},
		Reply: conversation.Message{ID: reply.ReplyID, ConversationID: convID, Role: conversation.RoleAgent,
			Content: reply.Text, Actions: reply.Actions, ReplyTo: reply.MessageID, CreatedAt: now},
		Job:    done,
		Charge: hold.Charge, Period: hold.Usage.Period, Limit: hold.Usage.Limit,
		Events: []outbox.Message{ev}, HooksOnly: event.HooksOnly(event.MessageReplied),
	})
	if err != nil {
		return ledger.Usage{}, err
	}
	if pending {
		// The event waits for the relay (an active webhook): nudge it once the request is done.
		// Written done, it needs no nudge (which would only make the relay claim nothing).
		a.events.Pending(ctx)
	}
	hold.Usage.Spent = spent
	// The reply is stored: a failure to write the limit.reached event that a charge using up the
	// allowance sets off is not the customer's, and the next charge refused writes it (Hold).
	_ = a.ledger.Keep(context.WithoutCancel(ctx), acct, hold)
	return hold.Usage, nil
}
