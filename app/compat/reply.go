package compat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/ports"
)

// noUpstreamMsg tells the caller (and through them the operator) how to serve model svc.
const noUpstreamMsg = "model svc needs a model upstream and this service has none configured: " +
	"set SVC_MODEL_BASE_URL (an OpenAI-compatible base URL such as https://api.openai.com/v1, with " +
	"SVC_MODEL_API_KEY and SVC_MODEL_NAME) and restart; model svc-assistant answers without one"

// ErrNoUpstream answers model svc on a service without an upstream: 503 model_unavailable, as
// an upstream that is down, but one that asking again does not clear (only the operator can).
var ErrNoUpstream = domain.Errorf(domain.CodeModelUnavailable, noUpstreamMsg)

// prepared is a checked request, ready to be answered.
type prepared struct {
	id       string
	model    string // the name to report
	created  time.Time
	req      model.Request // what goes to the upstream
	out      output
	engine   bool              // the built-in engine answers (svc-assistant without upstream)
	textOnly bool              // the reply is text alone (svc-assistant with an upstream)
	turn     conversation.Turn // the engine's turn
	acct     account.Account   // whose records the owner's assistant answers about (svc-assistant)
	said     []assistant.Turn  // the conversation before the last user message, as the owner's assistant reads it
	asked    []model.Message   // the caller's messages, for counting tokens
	askTools []model.Tool
}

// Complete makes one reply: it checks the request and the account's interactions, asks the
// upstream (or the built-in engine), checks the reply against the JSON format asked for (once
// more when the first reply misses it), and charges 1 interaction. The interaction is held while
// the reply is made (see hold) and given back when it fails.
func (s *Service) Complete(ctx context.Context, c Caller, chat Chat) (Reply, error) {
	p, err := s.prepare(ctx, c, chat)
	if err != nil {
		return Reply{}, err
	}
	var resp model.Response
	usage, err := s.paid(ctx, c, ledger.ModelReply, p.id, func(ctx context.Context) (err error) {
		resp, err = s.reply(ctx, p)
		return err
	})
	if err != nil {
		return Reply{}, err
	}
	return s.finish(p, resp, usage), nil
}

// reply asks the built-in engine or the upstream, and the upstream once more when its first
// reply misses the JSON format asked for.
func (s *Service) reply(ctx context.Context, p *prepared) (model.Response, error) {
	if p.engine {
		return s.engineReply(ctx, p)
	}
	for attempt := 0; ; attempt++ {
		resp, err := s.d.Upstream.Complete(ctx, p.req)
		if err != nil {
			return model.Response{}, err
		}
		if p.textOnly {
			resp, err = textOnly(resp)
		}
		if err == nil {
			err = p.out.check(resp)
		}
		if err == nil {
			return resp, nil
		}
		if attempt == 1 {
			return model.Response{}, offFormat(err)
		}
	}
}

// Stream makes one reply like Complete and calls fn with each piece of it as it comes: text, or
// tool-call fragments. The finish reason and the usage come only with the Reply returned, once the
// reply was checked and charged: an error after pieces were passed means the reply failed and
// nothing was charged. A streamed reply is not asked for twice.
func (s *Service) Stream(ctx context.Context, c Caller, chat Chat, fn func(model.Chunk) error) (Reply, error) {
	p, err := s.prepare(ctx, c, chat)
	if err != nil {
		return Reply{}, err
	}
	var resp model.Response
	usage, err := s.paid(ctx, c, ledger.ModelReply, p.id, func(ctx context.Context) (err error) {
		resp, err = s.stream(ctx, p, fn)
		return err
	})
	if err != nil {
		return Reply{}, err
	}
	return s.finish(p, resp, usage), nil
}

// stream makes the reply of Stream, passing its pieces to fn.
func (s *Service) stream(ctx context.Context, p *prepared, fn func(model.Chunk) error) (model.Response, error) {
	if p.engine {
		resp, err := s.engineReply(ctx, p)
		if err != nil {
			return model.Response{}, err
		}
		for _, piece := range pieces(resp.Message.Content) {
			if err := fn(model.Chunk{Content: piece}); err != nil {
				return model.Response{}, err
			}
		}
		return resp, nil
	}
	ids := map[int]string{} // each call's id, made up at its first fragment when the upstream gave none
	resp, err := s.d.Upstream.Stream(ctx, p.req, func(ch model.Chunk) error {
		if p.textOnly {
			ch.ToolCalls = nil
		}
		if ch.Content == "" && len(ch.ToolCalls) == 0 {
			return nil // the end and the usage are told once the reply is charged
		}
		calls := slices.Clone(ch.ToolCalls)
		for i := range calls {
			if _, seen := ids[calls[i].Index]; !seen {
				if calls[i].ID == "" {
					calls[i].ID = ident.New("call")
				}
				ids[calls[i].Index] = calls[i].ID
			}
		}
		return fn(model.Chunk{Content: ch.Content, ToolCalls: calls})
	})
	if err != nil {
		return model.Response{}, err
	}
	for i := range resp.Message.ToolCalls {
		if id, ok := ids[i]; ok && resp.Message.ToolCalls[i].ID == "" {
			resp.Message.ToolCalls[i].ID = id
		}
	}
	if p.textOnly {
		if resp, err = textOnly(resp); err != nil {
			return model.Response{}, offFormat(err)
		}
	}
	if err := p.out.check(resp); err != nil {
		return model.Response{}, badOutput(err)
	}
	return resp, nil
}

// errToolsOnly is a reply of svc-assistant made of tool calls alone.
var errToolsOnly = errors.New("the model answered svc-assistant with tool calls and no text")

// textOnly keeps a reply of svc-assistant to its text (spec 4.8: it answers only, tools ignored):
// tool calls an upstream made anyway are dropped, and a reply of tool calls alone is no answer.
func textOnly(r model.Response) (model.Response, error) {
	if len(r.Message.ToolCalls) == 0 {
		return r, nil
	}
	r.Message.ToolCalls = nil
	if r.FinishReason == model.FinishToolCalls {
		r.FinishReason = model.FinishStop
	}
	if strings.TrimSpace(r.Message.Content) == "" {
		return r, errToolsOnly
	}
	return r, nil
}

// offFormat is the error a caller sees for a reply that missed what was asked: text alone of
// svc-assistant, or the JSON format.
func offFormat(err error) error {
	if errors.Is(err, errToolsOnly) {
		return &domain.Error{Code: domain.CodeModelUnavailable, Err: err, Message: err.Error() + "; try again"}
	}
	return badOutput(err)
}

// paid runs work while the caller's interaction for action is held (see hold): kept when work
// succeeds, given back when it fails or panics. It returns the account's usage with the
// interaction spent.
func (s *Service) paid(ctx context.Context, c Caller, action ledger.Action, ref string, work func(ctx context.Context) error) (ledger.Usage, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := c.Early.take(action, ref, cancel)
	if h == nil {
		h = s.hold(ctx, c, action, ref, cancel)
	}
	select {
	case <-h.done: // made inline (an in-process store), or early: a refused hold asks nothing of the upstream
		if h.err != nil {
			return ledger.Usage{}, h.err
		}
	default:
	}
	defer func() {
		if r := recover(); r != nil {
			<-h.done
			if h.err == nil {
				// The panic goes on and is what gets reported; this only gives the hold back.
				_ = s.d.Ledger.Release(context.WithoutCancel(ctx), h.hold)
			}
			panic(r)
		}
	}()
	err := work(wctx)
	return s.settle(ctx, c, h, err)
}

// held is an interaction being held while the work it pays for goes on.
type held struct {
	done chan struct{}
	hold ledger.Hold
	err  error

	mu      sync.Mutex
	stop    context.CancelFunc // called when the hold fails; set later for an early hold (Early.take)
	stopped bool               // the hold failed before stop was set
}

// fail ends the work the hold pays for, now or as soon as it is known (see Early.take).
func (h *held) fail() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stop != nil {
		h.stop()
		return
	}
	h.stopped = true
}

// Early is an interaction held for a reply before its request was read and checked
// (Service.HoldEarly): the reply that uses it settles it (see paid); Drop gives it back when
// none did.
type Early struct {
	h      *held
	action ledger.Action
	ref    string
	taken  bool
}

// Ref is the reference the early hold's charge carries: the id the reply must have to use it.
func (e *Early) Ref() string {
	if e == nil {
		return ""
	}
	return e.ref
}

// take hands the early hold to the reply of action and ref, whose work stop ends when the hold
// fails; nil when there is none, it was taken, or it was held for another reply.
func (e *Early) take(action ledger.Action, ref string, stop context.CancelFunc) *held {
	if e == nil || e.taken || e.action != action || e.ref != ref {
		return nil
	}
	e.taken = true
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	if e.h.stopped {
		stop()
	} else {
		e.h.stop = stop
	}
	return e.h
}

// HoldEarly starts holding the interaction of action for c's reply ref in the background, before
// the request is read, checked and let past its rate limits, so that the store's round trip
// overlaps theirs as well as the reply's (see hold). Its result counts only when the reply is
// made: a request that fails earlier (429, 400, ...) answers its own error, and Drop gives the
// interaction back before that answer is sent, so nothing is charged for it, as for any failed
// request (for the fraction of a millisecond it is held, a concurrent request of an account at its
// last interaction may be refused 402, as while any reply is being made). It returns nil, and
// the reply holds as usual, when c's account cannot pay (that 402 comes after the request's
// checks) or the ledger's store is in this process (a hold there is made inline, before the
// work: see hold).
func (s *Service) HoldEarly(ctx context.Context, c Caller, action ledger.Action, ref string) *Early {
	if affordable(c, action) != nil || !s.HoldsEarly() {
		return nil
	}
	e := &Early{h: &held{done: make(chan struct{})}, action: action, ref: ref}
	go s.take(ctx, c, e.h, action, ref)
	return e
}

// HoldsEarly reports whether HoldEarly may hold at all: not when the ledger's store is in this
// process, so that a caller need not make a reply's id and labels for nothing.
func (s *Service) HoldsEarly() bool { return !ports.IsInProcess(s.d.Ledger) }

// Drop gives back an early hold no reply used (see HoldEarly), waiting for it to be made; it
// does nothing for one a reply used, which settled it.
func (s *Service) Drop(ctx context.Context, e *Early) error {
	if e == nil || e.taken {
		return nil
	}
	e.taken = true
	<-e.h.done
	if e.h.err != nil {
		return nil // nothing was held
	}
	return s.d.Ledger.Release(context.WithoutCancel(ctx), e.h.hold)
}

// hold takes the interaction of action for the caller in the background, so that the ledger's
// write runs while the reply is being made rather than after it; stop is called when the hold
// fails (402 when nothing is left), so that the work ends early. The hold is not cut short by
// the caller going away: settle gives it back then. When the ledger's store is in this process
// (ports.InProcess: SQLite, where a charge takes some tens of microseconds) the hold is made
// inline instead, before the work: cheaper than handing it to a goroutine and back.
func (s *Service) hold(ctx context.Context, c Caller, action ledger.Action, ref string, stop context.CancelFunc) *held {
	h := &held{done: make(chan struct{}), stop: stop}
	if ports.IsInProcess(s.d.Ledger) {
		s.take(ctx, c, h, action, ref)
	} else {
		go s.take(ctx, c, h, action, ref)
	}
	return h
}

// take makes hold h: the interaction of action for c, with the reference ref.
func (s *Service) take(ctx context.Context, c Caller, h *held, action ledger.Action, ref string) {
	defer close(h.done)
	h.hold, h.err = s.d.Ledger.Hold(context.WithoutCancel(ctx), c.Account, action, ref, c.Labels)
	if h.err != nil {
		h.fail()
	}
}

// settle waits for the hold and settles it by how the work went (workErr): kept when the work
// succeeded, given back when it failed. It returns the account's usage with the interaction
// spent, or the error to report: the hold's own failure first, then the work's.
func (s *Service) settle(ctx context.Context, c Caller, h *held, workErr error) (ledger.Usage, error) {
	<-h.done
	if h.err != nil {
		return ledger.Usage{}, h.err
	}
	if workErr == nil {
		if workErr = s.d.Ledger.Keep(ctx, c.Account, h.hold); workErr == nil {
			return h.hold.Usage, nil
		}
	}
	if err := s.d.Ledger.Release(context.WithoutCancel(ctx), h.hold); err != nil {
		return ledger.Usage{}, err
	}
	return ledger.Usage{}, workErr
}

// prepare checks a request and prepares what answers it. Nothing is asked of the upstream when it
// fails.
func (s *Service) prepare(ctx context.Context, c Caller, chat Chat) (*prepared, error) {
	req := chat.Request
	if err := check(req); err != nil {
		return nil, err
	}
	out, err := outputOf(req.ResponseFormat, "response_format")
	if err != nil {
		return nil, err
	}
	p := &prepared{id: chat.ID, model: ReportedModel(chat.Model), created: s.d.Clock.Now().UTC(), out: out,
		asked: req.Messages, askTools: req.Tools}
	req.Model = s.opts.UpstreamModel
	req.MaxTokens = capTokens(req.MaxTokens)

	assistant := IsAssistant(chat.Model)
	if !assistant && s.d.Upstream == nil {
		return nil, ErrNoUpstream
	}
	if err := affordable(c, ledger.ModelReply); err != nil {
		return nil, err
	}
	if !assistant {
		p.req = req
		return p, nil
	}
	if err := s.assistant(ctx, c, p, req); err != nil {
		return nil, err
	}
	return p, nil
}

// affordable returns 402 interaction_limit_reached when the caller's account cannot pay for
// action. The charge itself checks again, atomically.
func affordable(c Caller, action ledger.Action) error {
	cost, _ := ledger.Cost(action)
	return ledger.Check(c.Usage, cost)
}

// assistant prepares a reply of svc-assistant: the account's own assistant, answering only, from
// the owner's records (Owner), the business profile and the Brain's matches for the last user
// message. Tools are ignored.
func (s *Service) assistant(ctx context.Context, c Caller, p *prepared, req model.Request) error {
	acctID := c.Account.ID
	prof, err := s.d.Profiles.Get(ctx, acctID)
	if err != nil {
		return fmt.Errorf("load agent: %w", err)
	}
	if !prof.Configured() {
		return domain.Errorf(domain.CodeAgentNotConfigured, "svc-assistant answers for the account's agent, which must first be set up with PATCH /v1/agent (business_name)")
	}
	if !prof.Channels.API {
		return domain.Errorf(domain.CodeAgentUnavailable, "the owner turned the AI off for the api channel")
	}
	last := -1
	for i, m := range req.Messages {
		if m.Role == model.RoleUser && strings.TrimSpace(textOf(m)) != "" {
			last = i
		}
	}
	if last < 0 {
		return domain.Invalid("messages", "svc-assistant answers a user message with text; there is none")
	}
	question := textOf(req.Messages[last])
	state, err := s.d.Brain.State(ctx, acctID)
	if err != nil {
		return err
	}
	budget := -1 // the built-in engine reads the hits only
	if s.d.Upstream != nil {
		budget = knowledge.ContextChars
	}
	hits, passages, err := s.d.Brain.SearchContext(ctx, acctID, state, question, searchHits, budget)
	if err != nil {
		return err
	}
	turn := conversation.Turn{Profile: prof, Summary: state.BusinessSummary, Hits: hits, Context: passages, Message: question,
		Lang: prof.ReplyLanguage(question), Channel: conversation.ChannelAPI, Now: p.created}

	req.Tools, req.ToolChoice = nil, nil
	if s.d.Upstream != nil {
		prompt := assistantPrompt(turn, s.d.Owner.Records(ctx, acctID))
		req.Messages = append([]model.Message{{Role: model.RoleSystem, Content: prompt}}, answerOnly(req.Messages)...)
		p.req, p.textOnly = req, true
		return nil
	}
	if p.out.json {
		return domain.Invalid("response_format", "svc-assistant answers in text without a model upstream; JSON output needs one (SVC_MODEL_BASE_URL)")
	}
	for _, m := range req.Messages[:last] {
		switch m.Role {
		case model.RoleUser:
			turn.History = append(turn.History, conversation.Message{Role: conversation.RoleCustomer, Content: textOf(m)})
			p.said = append(p.said, assistant.Turn{Role: assistant.RoleOwner, Content: textOf(m)})
		case model.RoleAssistant:
			if t := textOf(m); t != "" {
				turn.History = append(turn.History, conversation.Message{Role: conversation.RoleAgent, Content: t})
				p.said = append(p.said, assistant.Turn{Role: assistant.RoleAssistant, Content: t})
			}
		}
	}
	if n := len(turn.History); n > conversation.HistoryTurns {
		turn.History = turn.History[n-conversation.HistoryTurns:]
	}
	p.req, p.engine, p.turn, p.acct = req, true, turn, c.Account
	return nil
}

// answerOnly drops tool calls and tool results from a conversation: svc-assistant calls no tools.
func answerOnly(msgs []model.Message) []model.Message {
	out := make([]model.Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == model.RoleTool:
			continue
		case m.Role == model.RoleAssistant && len(m.ToolCalls) > 0:
			if m.Content == "" && len(m.Parts) == 0 {
				continue
			}
			m.ToolCalls = nil
		}
		out = append(out, m)
	}
	return out
}

// engineReply answers svc-assistant without an upstream: the owner's assistant answers what its
// command grammar reads as a question about the owner's records or an instruction to act (as in
// mode ask: it does not act), and the built-in engine anything else. The reply is plain text:
// open links written out, cut at the token limit (finish reason length).
func (s *Service) engineReply(ctx context.Context, p *prepared) (model.Response, error) {
	text, owner, err := s.d.Owner.Answer(ctx, p.acct, p.turn.Profile, p.said, p.turn.Message, p.created)
	if err != nil {
		return model.Response{}, err
	}
	if !owner {
		draft, err := s.d.Engine.Reply(ctx, p.turn)
		if err != nil {
			return model.Response{}, err
		}
		var actions []actiontoken.Action
		text, actions = actiontoken.Parse(draft.Text, actiontoken.Site{})
		text = strings.TrimSpace(actiontoken.Render(text, actions, conversation.ChannelMessaging, actiontoken.Site{}))
	}
	resp := model.Response{Message: model.Message{Role: model.RoleAssistant, Content: text}, FinishReason: model.FinishStop}
	if cut, ok := s.d.Tokens.Truncate(text, p.req.MaxTokens); ok {
		resp.Message.Content, resp.FinishReason = cut, model.FinishLength
	}
	return resp, nil
}

// finish fills in the token counts the upstream did not give, and makes the Reply of a reply
// charged as usage says.
func (s *Service) finish(p *prepared, resp model.Response, spent ledger.Usage) Reply {
	msg := resp.Message
	msg.Role = model.RoleAssistant
	for i := range msg.ToolCalls {
		if msg.ToolCalls[i].ID == "" {
			msg.ToolCalls[i].ID = ident.New("call")
		}
	}
	finish := resp.FinishReason
	switch {
	case len(msg.ToolCalls) > 0 && (finish == "" || finish == model.FinishStop):
		finish = model.FinishToolCalls
	case finish == "":
		finish = model.FinishStop
	}
	usage := resp.Usage
	if p.engine || usage.PromptTokens == 0 && usage.CompletionTokens == 0 {
		msgs, tools := p.req.Messages, p.req.Tools
		if p.engine {
			msgs, tools = p.asked, nil
		}
		usage = model.Usage{PromptTokens: s.promptTokens(msgs, tools), CompletionTokens: s.replyTokens(msg)}
	}
	if usage.TotalTokens < usage.PromptTokens+usage.CompletionTokens {
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	}
	return Reply{ID: p.id, Model: p.model, Created: p.created, Message: msg, FinishReason: finish, Usage: usage, Interactions: spent,
		Logprobs: resp.Logprobs}
}

// promptTokens counts a conversation as OpenAI's chat models do: 3 tokens per message, its role,
// text, name and tool calls, and 3 that prime the reply; tool definitions count as their text.
func (s *Service) promptTokens(msgs []model.Message, tools []model.Tool) int {
	n := 3
	for _, m := range msgs {
		n += 3 + s.d.Tokens.Count(m.Role) + s.d.Tokens.Count(textOf(m))
		if m.Name != "" {
			n += 1 + s.d.Tokens.Count(m.Name)
		}
		for _, tc := range m.ToolCalls {
			n += s.d.Tokens.Count(tc.Name) + s.d.Tokens.Count(tc.Arguments)
		}
		for _, part := range m.Parts {
			if part.Type == "image_url" {
				n += 85 // a low-detail image
			}
		}
	}
	for _, t := range tools {
		n += s.d.Tokens.Count(t.Name) + s.d.Tokens.Count(t.Description) + s.d.Tokens.Count(string(t.Parameters))
	}
	return n
}

// replyTokens counts a reply's text and tool calls.
func (s *Service) replyTokens(m model.Message) int {
	n := s.d.Tokens.Count(m.Content)
	for _, tc := range m.ToolCalls {
		n += s.d.Tokens.Count(tc.Name) + s.d.Tokens.Count(tc.Arguments)
	}
	return n
}

// pieces splits the engine's text into word-sized pieces for a stream.
func pieces(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text[1:], " \n")
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
