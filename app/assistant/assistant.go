// Package assistant holds the account owner's assistant (spec 4.7): it reads an instruction
// (with the upstream model's tool calling, or the local command grammar), lets the domain's mode
// rules decide what runs at once, what waits for approval and what is refused, runs what may
// run, keeps approvals single-use, and charges the interactions of spec part 8.
package assistant

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/svcagent/svc/app/ident"
	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/language"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
	unavailable "github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

// Ledger reads usage and charges interactions (app/accounts.Ledger).
type Ledger interface {
	Usage(ctx context.Context, acct account.Account) (ledger.Usage, error)
	ChargeAccount(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Usage, error)
	Hold(ctx context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error)
	Keep(ctx context.Context, acct account.Account, h ledger.Hold) error
	Release(ctx context.Context, h ledger.Hold) error
}

// Profiles reads and changes the agent profile, as PATCH /v1/agent does (app/agents.Profiles).
type Profiles interface {
	Get(ctx context.Context, accountID string) (profile.Profile, error)
	Update(ctx context.Context, accountID string, ch profile.Patch) (profile.Profile, error)
}

// Brain adds FAQ items, as POST /v1/knowledge/faq does (app/knowledge.Brain).
type Brain interface {
	UpsertFAQ(ctx context.Context, accountID string, in []appknowledge.FAQInput) (appknowledge.FAQOutcome, error)
}

// Deps are the Service's collaborators.
type Deps struct {
	Ledger        Ledger
	Profiles      Profiles
	Brain         Brain
	Records       ports.Records
	Approvals     ports.Approvals
	History       ports.AssistantHistory
	Mailboxes     ports.Mailboxes
	Mail          ports.MailSender
	Vault         ports.Vault
	Connectors    ports.Connectors
	Images        ports.Images
	Conversations ports.Conversations
	Conversions   ports.Conversions
	Clock         ports.Clock
	Tx            ports.Tx
}

// Options tune the Service.
type Options struct {
	// Model is the upstream model that reads instructions; with Upstream nil the local command
	// grammar does.
	Model    string
	Upstream ports.ChatModel
}

// Service is the owner's assistant.
type Service struct {
	d    Deps
	opts Options
	// held are the outcomes of approvals whose actions ran while the database could not take
	// them, by heldKey, while a goroutine keeps trying to keep them (keepLater).
	held sync.Map
}

// New returns a Service.
func New(d Deps, opts Options) *Service { return &Service{d: d, opts: opts} }

// Caller is who asks: the account and the permission of the key used.
type Caller struct {
	Account             account.Account
	SendWithoutApproval bool
}

// Reply is the assistant's reply (spec 2.12).
type Reply struct {
	Mode           assistant.Mode
	Status         assistant.Status
	ConversationID string // "" when the request keeps no history
	Text           *string
	Actions        []assistant.Outcome
	Blocked        []assistant.Blocked
	Approval       *approval.Request
	Usage          ledger.Usage
}

// historyTurns is how many earlier turns of a conversation the model reads.
const historyTurns = 20

// Handle answers one request: an approval, or a new instruction.
func (s *Service) Handle(ctx context.Context, c Caller, req assistant.Request) (Reply, error) {
	approve, in, err := req.Validate()
	if err != nil {
		return Reply{}, err
	}
	if req.Approve != nil {
		return s.approve(ctx, c, approve)
	}
	return s.instruct(ctx, c, in)
}

// instruct reads a new instruction, runs what may run at once, leaves the rest waiting for
// approval, and charges 1 interaction (and what the actions that ran cost more).
func (s *Service) instruct(ctx context.Context, c Caller, in assistant.Instruction) (Reply, error) {
	acct := c.Account
	prof, err := s.d.Profiles.Get(ctx, acct.ID)
	if err != nil {
		return Reply{}, fmt.Errorf("load agent: %w", err)
	}
	if !prof.Configured() {
		return Reply{}, domain.Errorf(domain.CodeAgentNotConfigured, "the agent must first be set up with PATCH /v1/agent (business_name)")
	}
	var history []assistant.Turn
	if in.ConversationID != "" {
		release, err := s.hold(ctx, acct.ID, in.ConversationID)
		if err != nil {
			return Reply{}, err
		}
		defer release()
		if history, err = s.d.History.Turns(ctx, acct.ID, in.ConversationID, historyTurns); err != nil {
			return Reply{}, err
		}
	}
	lang := replyLang(in, prof)
	now := s.d.Clock.Now()
	hold, err := s.d.Ledger.Hold(ctx, acct, ledger.AssistantReply, "", ledger.Labels{Source: "assistant"})
	if err != nil {
		return Reply{}, err
	}
	r, err := s.think(ctx, c, in, prof, history, lang, now)
	if err != nil {
		if rerr := s.d.Ledger.Release(context.WithoutCancel(ctx), hold); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return Reply{}, err
	}
	if len(r.Actions) > 0 {
		ctx = context.WithoutCancel(ctx)
	}
	if err := s.d.Ledger.Keep(ctx, acct, hold); err != nil {
		return Reply{}, afterRunAtOnce(r.Actions, "charge the reply", err)
	}
	if r.Usage == (ledger.Usage{}) { // no action that costs more than the reply was charged (runPaid)
		r.Usage = hold.Usage
	}
	return r, nil
}

// A kept conversation answers one turn at a time: the turn holds it from before it reads the
// history until it has kept its own turns, so that a turn sent while another is being answered
// (two answers to one needs_input question, a client's retry) reads the history with that turn
// in it, as if sent after it, and one question is answered once. A turn waits up to turnWait for
// the one before it (then 429 rate_limited); a turn whose process died holds it turnLease at most.
const (
	turnWait  = 30 * time.Second
	turnLease = 2 * time.Minute
	turnPoll  = 20 * time.Millisecond
)

// hold waits for the account's conversation to be free and holds it for this turn; release lets
// it go. not_found when the account has no such conversation.
func (s *Service) hold(ctx context.Context, accountID, conversationID string) (release func(), err error) {
	turn := ident.New("turn")
	deadline := time.Now().Add(turnWait)
	pause := turnPoll
	for {
		now := s.d.Clock.Now()
		ok, err := s.d.History.Hold(ctx, accountID, conversationID, turn, now, now.Add(turnLease))
		if err != nil {
			return nil, err
		}
		if ok {
			return func() {
				// a caller gone, or a failed turn, still lets the next one in
				_ = s.d.History.Release(context.WithoutCancel(ctx), accountID, conversationID, turn)
			}, nil
		}
		if !time.Now().Add(pause).Before(deadline) {
			return nil, &domain.Error{Code: domain.CodeRateLimited, Field: "conversation_id", RetryAfter: time.Second,
				Message: fmt.Sprintf("another message of this conversation is still being answered after %s; try again", turnWait)}
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		pause = min(2*pause, 8*turnPoll)
	}
}

// think interprets the instruction, decides and runs; it stores the conversation's turns when
// the request keeps history (new_conversation, conversation_id, or a needs_input reply).
func (s *Service) think(ctx context.Context, c Caller, in assistant.Instruction, prof profile.Profile, history []assistant.Turn,
	lang string, now time.Time) (Reply, error) {
	var it assistant.Interpretation
	var err error
	if s.opts.Upstream != nil {
		it, err = s.interpretWithModel(ctx, c.Account, in, prof, history, lang, now)
		if err != nil {
			return Reply{}, domain.Errorf(domain.CodeAssistantError, "the assistant could not answer; try again")
		}
	} else {
		it = s.interpretLocally(in, history, now)
	}
	// An e-mail to "me" goes to the owner's address; without one, the assistant asks for it.
	it = checked(it, c.Account)
	r := Reply{Mode: in.Mode, ConversationID: in.ConversationID}
	waiting, err := s.decide(ctx, c, in, it, &r, now)
	if err != nil {
		return Reply{}, err
	}
	if len(r.Actions) > 0 {
		// actions ran: the turn is kept even when the caller goes away meanwhile
		ctx = context.WithoutCancel(ctx)
	}
	r.Status = assistant.StatusOf(it.Missing != "" || !it.Understood() && in.Mode == assistant.Do, r.Actions, waiting, r.Blocked)
	if r.Status == assistant.StatusNeedsInput && r.ConversationID == "" || in.NewConversation {
		r.ConversationID = ident.New("asc")
	}
	text, err := s.text(ctx, c.Account.ID, it, r, waiting, lang, now)
	if err != nil {
		return Reply{}, afterRunAtOnce(r.Actions, "write the reply", err)
	}
	r.Text = &text
	if len(waiting) > 0 {
		a := approval.New(ident.New("apr"), c.Account.ID, waiting, now)
		a.Lang, a.ConversationID = lang, r.ConversationID
		if err := s.d.Approvals.Create(ctx, a); err != nil {
			return Reply{}, afterRunAtOnce(r.Actions, "create approval", fmt.Errorf("create approval: %w", err))
		}
		r.Approval = &a
	}
	if r.ConversationID != "" {
		missing := it.Missing
		if missing == "" && r.Status == assistant.StatusNeedsInput {
			missing = "command"
		}
		if err := s.d.History.Add(ctx, c.Account.ID,
			assistant.Turn{ConversationID: r.ConversationID, Role: assistant.RoleOwner, Content: in.Message, CreatedAt: now},
			assistant.Turn{ConversationID: r.ConversationID, Role: assistant.RoleAssistant, Content: text, Status: r.Status,
				Missing: missing, CreatedAt: now}); err != nil {
			return Reply{}, afterRunAtOnce(r.Actions, "keep conversation", fmt.Errorf("keep conversation: %w", err))
		}
	}
	return r, nil
}

// checked returns the interpretation with its e-mails to "me" addressed to the owner (without an
// address, the assistant asks for it), asking for the first detail its actions lack.
func checked(it assistant.Interpretation, acct account.Account) assistant.Interpretation {
	it.Actions = assistant.Address(it.Actions, acct.OwnerEmail)
	return it.Checked()
}

// decide lets the mode rules judge the interpretation's actions, unless a detail is missing: it
// runs what may run at once (into r.Actions, and r.Usage when an action cost more than the
// reply), refuses what may not (r.Blocked) and returns what waits for approval. In mode ask
// nothing runs and nothing waits.
func (s *Service) decide(ctx context.Context, c Caller, in assistant.Instruction, it assistant.Interpretation, r *Reply,
	now time.Time) ([]assistant.Action, error) {
	if it.Missing != "" {
		return nil, nil
	}
	perm := assistant.Permissions{SendWithoutApproval: c.SendWithoutApproval, Image: in.Image}
	var waiting []assistant.Action
	pictures := 0
	for _, a := range it.Actions {
		d := assistant.Decide(in.Mode, a, perm)
		if d.Verdict == assistant.Run && a.Type == assistant.Image {
			if pictures++; pictures > 1 { // image allows one picture
				d = assistant.Decision{Verdict: assistant.Block, Reason: assistant.NotAvailable}
			}
		}
		switch d.Verdict {
		case assistant.Run:
			o, usage, err := s.runPaid(ctx, c.Account, a, now)
			if err != nil {
				return nil, err
			}
			if usage != nil {
				r.Usage = *usage
			}
			r.Actions = append(r.Actions, o)
		case assistant.Wait:
			waiting = append(waiting, a)
		default:
			r.Blocked = append(r.Blocked, assistant.Blocked{Action: a, Reason: d.Reason})
		}
	}
	return waiting, nil
}

// Answer answers message as the owner's assistant does in mode ask (spec 4.7 rule 1) when its
// local command grammar reads it as a question about the owner's records or an instruction to
// act: the same text as POST /v1/assistant in mode ask, in the language of the message (the
// account's when it does not tell). It never acts and keeps nothing: an instruction gets what
// mode ask says of it (refused, answer_only; or the question for a detail it lacks), and nothing
// is charged (the caller charges its own reply). ok is false for a message the grammar reads as
// neither (small talk, or not understood), which the caller answers its own way. history is the
// conversation before message, oldest first, as the caller was sent it (spec 4.8: messages whole
// and in order): an answer to the question the assistant asked for a missing detail completes
// the instruction that lacked it, as in a kept conversation of POST /v1/assistant.
func (s *Service) Answer(ctx context.Context, acct account.Account, prof profile.Profile, history []assistant.Turn, message string,
	now time.Time) (text string, ok bool, err error) {
	in := assistant.Instruction{Message: message, Mode: assistant.Ask}
	it := s.interpretLocally(in, asked(history, now), now)
	if it.Query == nil && len(it.Actions) == 0 && it.Missing == "" {
		return "", false, nil
	}
	it = checked(it, acct)
	r := Reply{Mode: in.Mode}
	waiting, err := s.decide(ctx, Caller{Account: acct}, in, it, &r, now)
	if err != nil {
		return "", false, err
	}
	if text, err = s.text(ctx, acct.ID, it, r, waiting, replyLang(in, prof), now); err != nil {
		return "", false, err
	}
	return text, true, nil
}

// asked marks the last turn of a conversation the caller kept (svc-assistant: turns without a
// status) as the question for a missing detail when it answers an owner's instruction that the
// grammar reads as lacking one: what the assistant, which asks exactly then, replied to it.
func asked(history []assistant.Turn, now time.Time) []assistant.Turn {
	n := len(history)
	if n < 2 || history[n-1].Role != assistant.RoleAssistant || history[n-2].Role != assistant.RoleOwner {
		return nil
	}
	prev := assistant.Parse(history[n-2].Content, now)
	if prev.Missing == "" || prev.Missing == "command" {
		return nil
	}
	last := history[n-1]
	last.Status, last.Missing = assistant.StatusNeedsInput, prev.Missing
	return []assistant.Turn{history[n-2], last}
}

// interpretLocally reads the message with the command grammar; an answer to a needs_input
// question completes the instruction that asked it. The input is data and is never read as a
// command.
func (s *Service) interpretLocally(in assistant.Instruction, history []assistant.Turn, now time.Time) assistant.Interpretation {
	if n := len(history); n >= 2 && history[n-1].Status == assistant.StatusNeedsInput && history[n-1].Missing != "command" {
		if it := assistant.Complete(assistant.Parse(history[n-2].Content, now), in.Message); it.Understood() {
			return it
		}
	}
	return assistant.Parse(in.Message, now)
}

// text writes the reply: the model's answer, the answer to a question about the records, the
// question for the missing detail, or a summary of what was done, waits and was refused.
func (s *Service) text(ctx context.Context, accountID string, it assistant.Interpretation, r Reply, waiting []assistant.Action,
	lang string, now time.Time) (string, error) {
	switch {
	case it.Missing != "" && it.Text != "":
		return it.Text, nil
	case it.Missing != "":
		return assistant.Question(lang, it.Missing), nil
	case it.Query != nil:
		return s.answer(ctx, accountID, *it.Query, lang, now)
	case len(r.Actions) > 0 || len(waiting) > 0 || len(r.Blocked) > 0:
		sum := assistant.Summary(lang, r.Actions, waiting, r.Blocked)
		if it.Text != "" {
			return strings.TrimSpace(it.Text) + "\n\n" + sum, nil
		}
		return sum, nil
	case it.Text != "":
		return it.Text, nil
	case it.Chat != "":
		return assistant.Chat(chatLang(lang, it.Lang), it.Chat), nil
	}
	return assistant.Help(lang), nil
}

// answerList is how many records an answer lists.
const answerList = 10

// answer answers a question about the owner's records.
func (s *Service) answer(ctx context.Context, accountID string, q assistant.Query, lang string, now time.Time) (string, error) {
	switch q.Topic {
	case assistant.TopicConversions:
		// the latest answerList of the period so far, and how many there are, summed by the
		// store, in one snapshot (a conversion recorded meanwhile is in both or neither)
		from, to := ledger.PeriodAt(now).Start, now.Add(time.Second)
		var page conversion.Page
		var totals []conversion.Total
		err := s.d.Tx.InSnapshot(ctx, func(ctx context.Context) error {
			var err error
			if page, err = s.d.Conversions.List(ctx, accountID, conversion.Query{From: from, To: to, Limit: answerList}); err != nil {
				return err
			}
			totals, err = s.d.Conversions.Totals(ctx, accountID, from, to, "")
			return err
		})
		if err != nil {
			return "", err
		}
		total := 0
		for _, t := range totals {
			total += t.Count
		}
		rs := make([]assistant.Record, 0, len(page.Conversions))
		for _, c := range page.Conversions {
			title := c.Kind
			if c.HasAmount {
				title += fmt.Sprintf(" %.2f %s", c.Amount, c.Currency)
			}
			rs = append(rs, assistant.Record{Title: title, Date: c.CreatedAt.UTC().Format(time.DateOnly), CreatedAt: c.CreatedAt})
		}
		rs = assistant.Filter(rs, q, now)
		return assistant.Answer(lang, q, countOf(q, total, rs), rs), nil
	case assistant.TopicConversations:
		page, err := s.d.Conversations.List(ctx, accountID, conversationQuery())
		if err != nil {
			return "", err
		}
		rs := make([]assistant.Record, 0, len(page.Conversations))
		for _, c := range page.Conversations {
			title := c.ID + " (" + string(c.Channel) + ")"
			if c.CustomerName != "" {
				title = c.CustomerName + ", " + title
			}
			rs = append(rs, assistant.Record{Title: title, CreatedAt: c.UpdatedAt})
		}
		rs = assistant.Filter(rs, q, now)
		return assistant.Answer(lang, q, len(rs), rs[:min(len(rs), answerList)]), nil
	}
	limit := answerList
	if q.Today {
		limit = 0
	}
	rs, n, err := s.d.Records.List(ctx, accountID, assistant.Type(q.Topic), limit)
	if err != nil {
		return "", err
	}
	rs = assistant.Filter(rs, q, now)
	return assistant.Answer(lang, q, countOf(q, n, rs), rs[:min(len(rs), answerList)]), nil
}

func countOf(q assistant.Query, total int, filtered []assistant.Record) int {
	if q.Today {
		return len(filtered)
	}
	return total
}

// approve runs the actions of a pending approval, once: the store's conditional write lets one
// of concurrent approvals through. It costs no interaction. Once its actions ran, their outcome
// is kept before anything else can fail, so that an approve sent again after a failure (the
// conversation not kept, the database gone) answers what they did, and never runs them twice.
func (s *Service) approve(ctx context.Context, c Caller, id string) (Reply, error) {
	if !approval.ValidID(id) {
		return Reply{}, approval.NotFound()
	}
	now := s.d.Clock.Now()
	a, err := s.d.Approvals.Use(ctx, c.Account.ID, id, now)
	if domain.ErrorCode(err) == domain.CodeApprovalNotFound {
		return s.again(ctx, c, id, now, err)
	}
	if err != nil {
		return Reply{}, err
	}
	if a.AccountID != c.Account.ID || approval.Hash(a.Actions) != a.Hash {
		return Reply{}, approval.NotFound()
	}
	// The approval is used: its actions run and their outcome is kept even when the caller goes
	// away meanwhile.
	ctx = context.WithoutCancel(ctx)
	o := approval.Outcome{}
	for _, act := range a.Actions {
		o.Actions = append(o.Actions, s.run(ctx, c.Account, act, now))
	}
	o.Status = assistant.ApprovedStatus(o.Actions)
	if o.Status == assistant.StatusCompleted {
		o.Text = assistant.Summary(a.Lang, o.Actions, nil, nil)
	}
	if err := s.record(ctx, c.Account.ID, a.ID, o); err != nil {
		if domain.ErrorCode(err) != domain.CodeServiceUnavailable {
			return Reply{}, afterRun(a.ID, o.Actions, stepKeepOutcome, err)
		}
		// The database is away for longer than the tries: the outcome is kept in the background,
		// and the caller is told to approve again (503 with Retry-After) to get it.
		s.keepLater(ctx, c.Account.ID, a.ID, o)
		return Reply{}, told(fmt.Sprintf("approval %s used and its actions ran %s; their outcome is kept once the database is back "+
			"(approving again answers it)", a.ID, ran(o.Actions)), err)
	}
	return s.answerApproval(ctx, c, a, o, now)
}

// MaxPendingListed is the most pending approvals Pending lists.
const MaxPendingListed = 50

// Pending lists the account's approvals that an approve may still run (pending, not past their
// 60 minutes), the newest first, at most MaxPendingListed: what the owner's console shows to
// approve or refuse.
func (s *Service) Pending(ctx context.Context, accountID string) ([]approval.Request, error) {
	return s.d.Approvals.Pending(ctx, accountID, s.d.Clock.Now(), MaxPendingListed)
}

// Refuse turns down the caller's pending approval id: its actions never run, and an approve of
// it afterwards is approval_not_found, as of a used one. The store's conditional write lets one
// of a concurrent approve and refusal through; the other is approval_not_found. It costs no
// interaction. When the approval belongs to a kept conversation, the refusal is added to it.
func (s *Service) Refuse(ctx context.Context, c Caller, id string) (approval.Request, error) {
	if !approval.ValidID(id) {
		return approval.Request{}, approval.NotFound()
	}
	now := s.d.Clock.Now()
	a, err := s.d.Approvals.Refuse(ctx, c.Account.ID, id, now)
	if err != nil {
		return approval.Request{}, err
	}
	if a.ConversationID != "" {
		// The refusal is made: a conversation that could not be kept does not undo it.
		ctx = context.WithoutCancel(ctx)
		if err := s.d.History.Add(ctx, c.Account.ID,
			assistant.Turn{ConversationID: a.ConversationID, Role: assistant.RoleOwner, Content: "refuse " + a.ID, CreatedAt: now},
			assistant.Turn{ConversationID: a.ConversationID, Role: assistant.RoleAssistant, Content: assistant.RefusedText(a.Lang), Status: assistant.StatusCompleted, CreatedAt: now}); err != nil {
			return a, told(fmt.Sprintf("approval %s refused: its actions will not run; keeping it in conversation %s failed", a.ID, a.ConversationID), err)
		}
	}
	return a, nil
}

// again answers an approve of an approval Use did not let through: the outcome of one whose
// actions ran for this account and whose reply was never given (the call that ran them failed
// after), or notFound.
func (s *Service) again(ctx context.Context, c Caller, id string, now time.Time, notFound error) (Reply, error) {
	a, err := s.d.Approvals.Get(ctx, c.Account.ID, id)
	if domain.ErrorCode(err) == domain.CodeApprovalNotFound {
		return Reply{}, notFound
	}
	if err != nil {
		return Reply{}, err
	}
	ctx = context.WithoutCancel(ctx)
	o, ok := a.Unanswered(c.Account.ID)
	if !ok {
		// Used without an outcome kept: its actions are running (a concurrent approve), or ran and
		// their outcome waits for the database. Only the process holding that outcome answers it;
		// any other approve is approval_not_found, as spec 3.2 says of a used approval.
		held, kept := s.held.Load(heldKey(c.Account.ID, id))
		if !kept || !a.Awaiting(c.Account.ID) {
			return Reply{}, notFound
		}
		// this process holds its outcome, waiting for the database, which answered Get: keep it now
		o = held.(approval.Outcome)
		if err := s.d.Approvals.Record(ctx, c.Account.ID, id, o); err != nil {
			return Reply{}, afterRun(id, o.Actions, stepKeepOutcome, err)
		}
	}
	return s.answerApproval(ctx, c, a, o, now)
}

// keepLaterPauses are the first and the longest pause between the tries of keepLater, and
// keepLaterFor how long it tries.
var (
	keepLaterPauses = [2]time.Duration{time.Second, 15 * time.Second}
	keepLaterFor    = 10 * time.Minute
)

// heldKey is the key of an account's approval in Service.held.
func heldKey(accountID, id string) string { return accountID + "/" + id }

// keepLater keeps the outcome of the account's approval id in the background, trying again while
// the database cannot be reached, the pause doubling from the first of keepLaterPauses to the
// last, for keepLaterFor. Meanwhile the outcome is held, and an approve of it sent again to this
// process keeps and answers it (again) as soon as the database answers.
func (s *Service) keepLater(ctx context.Context, accountID, id string, o approval.Outcome) {
	key := heldKey(accountID, id)
	s.held.Store(key, o)
	go func() {
		defer s.held.Delete(key)
		start, pause := time.Now(), keepLaterPauses[0]
		for {
			time.Sleep(pause)
			err := s.d.Approvals.Record(ctx, accountID, id, o)
			if domain.ErrorCode(err) != domain.CodeServiceUnavailable || time.Since(start) >= keepLaterFor {
				return
			}
			pause = min(2*pause, keepLaterPauses[1])
		}
	}()
}

// recordTries are the pauses before each try to keep an approval's outcome: its actions ran,
// and a database that went away for a moment should not lose what they did.
var recordTries = []time.Duration{0, 250 * time.Millisecond, time.Second}

// record keeps an approval's outcome, trying again while the database cannot be reached.
func (s *Service) record(ctx context.Context, accountID, id string, o approval.Outcome) error {
	return unavailable.Retry(recordTries, func() error { return s.d.Approvals.Record(ctx, accountID, id, o) })
}

// answerApproval gives the reply of an approval whose outcome is kept: it reads the usage, then
// in one transaction marks the approval answered and keeps the turns of its conversation, so
// that a failure before leaves it to be answered again, and after, nothing half-written.
// approval_not_found when another call answered it meanwhile.
func (s *Service) answerApproval(ctx context.Context, c Caller, a approval.Request, o approval.Outcome, now time.Time) (Reply, error) {
	r := Reply{Mode: assistant.Do, ConversationID: a.ConversationID, Status: o.Status, Actions: o.Actions}
	if o.Text != "" {
		r.Text = &o.Text
	}
	var err error
	if r.Usage, err = s.d.Ledger.Usage(ctx, c.Account); err != nil {
		return Reply{}, afterRun(a.ID, o.Actions, "read usage", err)
	}
	answered := false
	err = s.d.Tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if answered, err = s.d.Approvals.Answer(ctx, c.Account.ID, a.ID, now); err != nil || !answered || r.ConversationID == "" {
			return err
		}
		content := o.Text
		if content == "" {
			content = assistant.Summary(a.Lang, o.Actions, nil, nil)
		}
		return s.d.History.Add(ctx, c.Account.ID,
			assistant.Turn{ConversationID: r.ConversationID, Role: assistant.RoleOwner, Content: "approve " + a.ID, CreatedAt: now},
			assistant.Turn{ConversationID: r.ConversationID, Role: assistant.RoleAssistant, Content: content, Status: r.Status, CreatedAt: now})
	})
	if err != nil {
		return Reply{}, afterRun(a.ID, o.Actions, "keep conversation", err)
	}
	if !answered {
		return Reply{}, approval.NotFound()
	}
	return r, nil
}

// stepKeepOutcome is the step that keeps an approval's outcome: when it fails, an approve sent
// again cannot answer it.
const stepKeepOutcome = "keep their outcome"

// afterRun is the error of a step that failed after an approval's actions ran (told).
func afterRun(id string, outcomes []assistant.Outcome, step string, err error) error {
	hint := "approving again answers this outcome"
	if step == stepKeepOutcome {
		hint = "approving again cannot tell it: this is the only report of what ran"
	}
	return told(fmt.Sprintf("approval %s used and its actions ran %s; %s failed (%s)", id, ran(outcomes), step, hint), err)
}

// afterRunAtOnce is the error of a step that failed after actions of an instruction ran at once
// (mode do): they are done, and the instruction sent again would do them again (told).
func afterRunAtOnce(outcomes []assistant.Outcome, step string, err error) error {
	if len(outcomes) == 0 {
		return err
	}
	return told(fmt.Sprintf("the instruction's actions ran %s; %s failed (they are done: check them before sending the instruction again)",
		ran(outcomes), step), err)
}

// told returns err with what already happened said first: to the caller when err carries a code
// of the service (a 503 while the database cannot be reached, with its Retry-After), and in the
// log otherwise.
func told(what string, err error) error {
	if e, ok := domain.AsError(err); ok && e.Code != domain.CodeInternal {
		c := *e
		c.Message, c.Format, c.Args, c.Err = what+": "+e.Message, "", nil, err
		return &c
	}
	return fmt.Errorf("%s: %w", what, err)
}

// ran tells what actions did: (email ok; task failed: failed).
func ran(outcomes []assistant.Outcome) string {
	parts := make([]string, 0, len(outcomes))
	for _, o := range outcomes {
		p := string(o.Action.Type) + " ok"
		if !o.OK {
			p = string(o.Action.Type) + " failed: " + string(o.Error)
		}
		parts = append(parts, p)
	}
	return "(" + strings.Join(parts, "; ") + ")"
}

// replyLang is the language of the reply (spec 4.7): the message's, and when the message does
// not tell (too short, a list of addresses, an approval), lang or else the account's language.
// lang, when it names the message's language, keeps its region (pt-BR).
func replyLang(in assistant.Instruction, prof profile.Profile) string {
	fallback := in.Lang
	if fallback == "" {
		fallback = firstLang(prof)
	}
	detected := language.Detect(in.Message, fallback)
	if language.Base(detected) == language.Base(fallback) {
		return fallback
	}
	return detected
}

// chatLang is the language of a reply to small talk: the language of its words ("hello",
// "olá", "hola": too short for language.Detect), keeping lang's region when it is the same.
func chatLang(lang, words string) string {
	if words == "" || language.Base(lang) == language.Base(words) {
		return lang
	}
	return words
}

func firstLang(p profile.Profile) string {
	if len(p.Languages) > 0 {
		return p.Languages[0]
	}
	return "en"
}
