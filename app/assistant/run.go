package assistant

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/svcagent/svc/app/ident"
	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
)

// run carries out one action the mode rules let run (at once, or approved) and says how it went
// (spec 4.7 rule 7). Changes go through the same use cases as the API.
func (s *Service) run(ctx context.Context, acct account.Account, a assistant.Action, now time.Time) assistant.Outcome {
	out := assistant.Outcome{Action: a, OK: true}
	fail := func(e assistant.ActionError) assistant.Outcome {
		out.OK, out.Error = false, e
		return out
	}
	switch {
	case assistant.IsRecord(a.Type):
		rec, _ := assistant.RecordOf(a, ident.New("rec"), acct.ID, now)
		if err := s.d.Records.Save(ctx, rec); err != nil {
			return fail(assistant.ActionFailed)
		}
	case a.Type == assistant.Email:
		if e := s.email(ctx, acct.ID, a); e != "" {
			return fail(e)
		}
	case a.Type == assistant.Message || a.Type == assistant.SocialPost:
		if err := s.d.Connectors.Deliver(ctx, acct.ID, a); err != nil {
			var refused *assistant.RefusedError
			switch {
			case errors.Is(err, assistant.ErrNotConnected):
				return fail(assistant.NotAllowed)
			case errors.As(err, &refused):
				return fail(assistant.Refused(refused.Status))
			}
			return fail(assistant.ActionFailed)
		}
	case a.Type == assistant.Settings:
		if e := s.setting(ctx, acct.ID, a); e != "" {
			return fail(e)
		}
	case a.Type == assistant.FAQ:
		res, err := s.d.Brain.UpsertFAQ(ctx, acct.ID, []appknowledge.FAQInput{{Question: a.Question, Answer: a.Answer}})
		if err != nil {
			return fail(assistant.NotApplied)
		}
		if res.Created+res.Updated == 0 {
			return fail(assistant.NoChange)
		}
	case a.Type == assistant.Image:
		url, err := s.d.Images.Create(ctx, a.Text)
		if err != nil {
			return fail(assistant.ActionFailed)
		}
		out.Action.URL = url
	case a.Type == assistant.WebSearch:
		// No web search is connected to the service: the search fails and costs nothing.
		return fail(assistant.ActionFailed)
	default: // assistant or connector changes: not through the API
		return fail(assistant.NotAllowed)
	}
	return out
}

// runPaid runs an action the mode rules let run at once. One that costs interactions beyond the
// reply (a task, a web search, a picture: assistant.Charge) runs only when the account's
// allowance still covers its cost: the cost is held first, kept when the action succeeded and
// given back when it failed, so that an action is never done for free nor charged when it
// failed. An allowance that cannot cover it fails the action (failed) without running it. usage
// is the account's usage with the cost kept, when it was.
func (s *Service) runPaid(ctx context.Context, acct account.Account, a assistant.Action, now time.Time) (assistant.Outcome, *ledger.Usage, error) {
	la, costs := assistant.Charge(a.Type)
	if !costs {
		return s.run(ctx, acct, a, now), nil, nil
	}
	h, err := s.d.Ledger.Hold(ctx, acct, la, "", ledger.Labels{Source: "assistant"})
	if domain.ErrorCode(err) == domain.CodeInteractionLimitReached {
		return assistant.Outcome{Action: a, Error: assistant.ActionFailed}, nil, nil
	}
	if err != nil {
		return assistant.Outcome{}, nil, err
	}
	out := s.run(ctx, acct, a, now)
	if !out.OK {
		return out, nil, s.d.Ledger.Release(context.WithoutCancel(ctx), h)
	}
	if err := s.d.Ledger.Keep(ctx, acct, h); err != nil {
		return assistant.Outcome{}, nil, err
	}
	return out, &h.Usage, nil
}

// email sends an email action through the account's mail connector.
func (s *Service) email(ctx context.Context, accountID string, a assistant.Action) assistant.ActionError {
	box, err := s.d.Mailboxes.Get(ctx, accountID)
	if domain.ErrorCode(err) == domain.CodeNotFound {
		return assistant.EmailNotConnected
	}
	if err != nil {
		return assistant.ActionFailed
	}
	srv := assistant.MailServer{Host: box.Host, Port: box.Port, Username: box.Username, From: box.From, Security: box.Security}
	if len(box.SealedPassword) > 0 {
		if srv.Password, err = s.d.Vault.Open(box.SealedPassword); err != nil {
			return assistant.ActionFailed
		}
	}
	if err := s.d.Mail.SendVia(ctx, srv, assistant.MailOf(a)); err != nil {
		return assistant.SendFailed
	}
	return ""
}

// setting changes one agent setting through the profile use case (tone, business_name,
// description, instructions, and the contact details contact.hours, contact.phone,
// contact.email, contact.address); no_change when it already had that value, or when the
// setting or value is not understood.
func (s *Service) setting(ctx context.Context, accountID string, a assistant.Action) assistant.ActionError {
	prof, err := s.d.Profiles.Get(ctx, accountID)
	if err != nil {
		return assistant.ActionFailed
	}
	v := strings.TrimSpace(a.Value)
	var ch profile.Patch
	var cur string
	switch strings.ToLower(strings.TrimSpace(a.Setting)) {
	case "tone":
		v = strings.ToLower(v)
		ch.Tone, cur = &v, prof.Tone
	case "business_name", "name":
		ch.BusinessName, cur = &v, prof.BusinessName
	case "description":
		ch.Description, cur = &v, prof.Description
	case "instructions":
		ch.Instructions, cur = &v, prof.Instructions
	case "contact.hours", "hours":
		ch.Contact, cur = &profile.ContactPatch{Hours: &v}, prof.Contact.Hours
	case "contact.phone", "phone":
		ch.Contact, cur = &profile.ContactPatch{Phone: &v}, prof.Contact.Phone
	case "contact.email", "email":
		ch.Contact, cur = &profile.ContactPatch{Email: &v}, prof.Contact.Email
	case "contact.address", "address":
		ch.Contact, cur = &profile.ContactPatch{Address: &v}, prof.Contact.Address
	default:
		return assistant.NoChange
	}
	if cur == v {
		return assistant.NoChange
	}
	if _, err := s.d.Profiles.Update(ctx, accountID, ch); err != nil {
		if domain.ErrorCode(err) == domain.CodeInvalidRequest {
			return assistant.NoChange
		}
		return assistant.ActionFailed
	}
	return ""
}

// conversationQuery lists the account's latest customer conversations on every channel.
func conversationQuery() conversation.ListQuery {
	return conversation.ListQuery{Limit: conversation.MaxListLimit}
}
