// Package widgets holds the website chat widget: its settings (the snippet for each framework,
// the allowed domains, the saved style) and what its public endpoints do for a visitor (the agent's
// look, chatting, the visitor's own conversation). Visitor messages go to the one agent
// (app/chat), exactly as API messages do, on the web channel.
package widgets

import (
	"context"
	"fmt"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/domain/widget"
	"github.com/svcagent/svc/ports"
)

// Agent is the one agent every channel chats with (*chat.Agent).
type Agent interface {
	Send(ctx context.Context, req chat.Request) (chat.Reply, error)
	Conversation(ctx context.Context, accountID, conversationID string) (chat.Thread, error)
}

// Channels applies the plan's rule on web channels (*accounts.Access): 402 plan_required.
type Channels interface {
	RequireWebChannels(acct account.Account) error
}

// Options are the widget's settings.
type Options struct {
	// ScriptURL is the address of the widget script ({widget_script_url}).
	ScriptURL string
}

// Service is the widget's use cases.
type Service struct {
	widgets       ports.Widgets
	accounts      ports.Accounts
	profiles      ports.Profiles
	conversations ports.Conversations
	limiter       ports.RateLimiter
	plans         ledger.Plans
	channels      Channels
	agent         Agent
	opts          Options
}

// Deps are the Service's collaborators.
type Deps struct {
	Widgets       ports.Widgets
	Accounts      ports.Accounts
	Profiles      ports.Profiles
	Conversations ports.Conversations
	Limiter       ports.RateLimiter
	Plans         ledger.Plans // the per-minute limits a plan sets
	Channels      Channels
	Agent         Agent
}

// New returns a Service.
func New(d Deps, opts Options) *Service {
	return &Service{widgets: d.Widgets, accounts: d.Accounts, profiles: d.Profiles, conversations: d.Conversations,
		limiter: d.Limiter, plans: d.Plans, channels: d.Channels, agent: d.Agent, opts: opts}
}

// ---------------------------------------------------------------------------------------------
// Settings (API key)

// Query asks for the snippet of a framework, with the language and side the code should fix
// ("" leaves them to the page's language and the saved style).
type Query struct {
	Framework string
	Lang      string
	Position  string
}

// Settings are the widget as the owner sees it: the snippet and what it depends on.
type Settings struct {
	Token          string
	ScriptURL      string
	Framework      widget.Framework
	Lang           string
	Position       string
	Code           string
	AllowedDomains []string
	Style          widget.Style
}

// Settings returns the widget's settings with the snippet q asks for; 400 naming framework, lang
// or position when one is not known.
func (s *Service) Settings(ctx context.Context, acct account.Account, q Query) (Settings, error) {
	f, err := widget.ParseFramework(q.Framework)
	if err != nil {
		return Settings{}, err
	}
	lang, err := widget.ParseLang(q.Lang)
	if err != nil {
		return Settings{}, err
	}
	pos, err := widget.ParsePosition(q.Position)
	if err != nil {
		return Settings{}, err
	}
	st, err := s.widgets.Style(ctx, acct.ID)
	if err != nil {
		return Settings{}, err
	}
	return s.settings(acct, st, f, lang, pos), nil
}

func (s *Service) settings(acct account.Account, st widget.Style, f widget.Framework, lang, pos string) Settings {
	domains := acct.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	snip := widget.Snippet{ScriptURL: s.opts.ScriptURL, Token: acct.WidgetToken, Lang: lang, Position: pos}
	return Settings{Token: acct.WidgetToken, ScriptURL: s.opts.ScriptURL, Framework: f, Lang: lang, Position: pos,
		Code: snip.Code(f), AllowedDomains: domains, Style: st}
}

// SetDomains replaces the allowed domains (normalised; an empty list means any domain) and
// returns the settings with the HTML snippet.
func (s *Service) SetDomains(ctx context.Context, acct account.Account, domains []string) (Settings, error) {
	norm, err := widget.NormalizeDomains(domains)
	if err != nil {
		return Settings{}, err
	}
	var saved account.Account
	if err := s.accounts.Update(ctx, acct.ID, func(a *account.Account) error {
		a.AllowedDomains = norm
		saved = *a
		return nil
	}); err != nil {
		return Settings{}, fmt.Errorf("set widget domains: %w", err)
	}
	st, err := s.widgets.Style(ctx, acct.ID)
	if err != nil {
		return Settings{}, err
	}
	return s.settings(saved, st, widget.HTML, "", ""), nil
}

// PatchStyle changes the saved style (400 naming the field at fault, nothing saved) and returns
// the settings with the HTML snippet. The next page load shows it: the script reads the style
// from the public info endpoint each time.
func (s *Service) PatchStyle(ctx context.Context, acct account.Account, p widget.StylePatch) (Settings, error) {
	if _, err := widget.DefaultStyle.Apply(p); err != nil {
		return Settings{}, err // checked before the transaction, so bad input costs no write lock
	}
	st, err := s.widgets.UpdateStyle(ctx, acct.ID, func(st *widget.Style) error {
		next, err := st.Apply(p)
		if err != nil {
			return err
		}
		*st = next
		return nil
	})
	if err != nil {
		return Settings{}, err
	}
	return s.settings(acct, st, widget.HTML, "", ""), nil
}

// ---------------------------------------------------------------------------------------------
// Public endpoints (widget token)

// The limits of the public endpoints, beside the per-account chat limit of spec part 8: every
// call of a widget token, and every call of one visitor, so that a leaked token cannot drain the
// plan and one visitor cannot crowd the others out.
var (
	TokenLimit   = ratelimit.Limit{Name: "widget", Count: 600, Period: ratelimit.PerKey.Period}
	VisitorLimit = ratelimit.Limit{Name: "visitor", Count: 30, Period: ratelimit.PerKey.Period}
)

// Visit is a request of the widget on a page: the account of its token, and whether the page's
// origin is one the account's allowed domains let in (Granted: the page may read the answers).
type Visit struct {
	Account account.Account
	Granted bool
}

// Open checks a public request: the widget token (404 not_found when no account has it), the
// account (403 account_inactive), its plan (402 plan_required), the page's origin against the
// allowed domains (403 origin_not_allowed) and the token's rate limit. The Visit it returns with
// an error still says whether the origin is allowed, so that an allowed page can read the error.
func (s *Service) Open(ctx context.Context, token, origin string) (Visit, error) {
	acct, err := s.widgets.Account(ctx, token)
	if domain.IsNotFound(err) {
		return Visit{}, domain.NotFound("widget token")
	}
	if err != nil {
		return Visit{}, err
	}
	v := Visit{Account: acct, Granted: widget.Allowed(acct.AllowedDomains, origin)}
	if err := acct.Usable(); err != nil {
		return v, err
	}
	if err := s.channels.RequireWebChannels(acct); err != nil {
		return v, err
	}
	if !v.Granted {
		return v, domain.Errorf(domain.CodeOriginNotAllowed, "this widget may not be used on this site: add its domain with PUT /v1/widget/domains")
	}
	if err := s.limit(ctx, TokenLimit, token); err != nil {
		return v, err
	}
	return v, nil
}

// Allowed reports whether the page of origin may call the widget of token (CORS preflight): the
// token is known and the origin allowed. It counts nothing.
func (s *Service) Allowed(ctx context.Context, token, origin string) bool {
	acct, err := s.widgets.Account(ctx, token)
	return err == nil && widget.Allowed(acct.AllowedDomains, origin)
}

func (s *Service) limit(ctx context.Context, l ratelimit.Limit, subject string) error {
	res, err := s.limiter.Allow(ctx, ratelimit.Subject(l, subject), l)
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", l.Name, err)
	}
	return res.Err(l)
}

// Info is what the widget shows of the agent, and the saved style.
type Info struct {
	Profile profile.Profile
	Style   widget.Style
}

// Info returns the agent's look and the saved style.
func (s *Service) Info(ctx context.Context, v Visit) (Info, error) {
	prof, err := s.profiles.Get(ctx, v.Account.ID)
	if err != nil {
		return Info{}, fmt.Errorf("load agent: %w", err)
	}
	st, err := s.widgets.Style(ctx, v.Account.ID)
	if err != nil {
		return Info{}, err
	}
	return Info{Profile: prof, Style: st}, nil
}

// Message is a visitor's message.
type Message struct {
	Visitor      string // the uuid of the svc_visitor cookie
	Text         string
	CustomerName string
	RequestKey   string // the request's name when it carries an Idempotency-Key (chat.Request.RequestKey)
}

// Chat sends a visitor's message to the agent, on the web channel, in the visitor's conversation
// (its id is the visitor's uuid, its contact web:<uuid>): the same agent, rules, interaction
// counting and message.replied event as the API. It counts against the visitor's limit and the
// account's chat limit once the message is valid.
func (s *Service) Chat(ctx context.Context, v Visit, m Message) (chat.Reply, error) {
	if err := widget.ValidateVisitor("visitor_id", m.Visitor); err != nil {
		return chat.Reply{}, err
	}
	req := chat.Request{Account: v.Account, Channel: conversation.ChannelWeb, ConversationID: m.Visitor,
		CustomerName: m.CustomerName, Message: m.Text, RequestKey: m.RequestKey}
	if err := conversation.ValidateMessage("message", req.Message); err != nil {
		return chat.Reply{}, err
	}
	if err := conversation.ValidateCustomerName(req.CustomerName); err != nil {
		return chat.Reply{}, err
	}
	if err := s.limit(ctx, VisitorLimit, v.Account.ID+":"+m.Visitor); err != nil {
		return chat.Reply{}, err
	}
	if err := s.limit(ctx, s.plans.RateLimit(v.Account.Plan, ratelimit.Chat), v.Account.ID); err != nil {
		return chat.Reply{}, err
	}
	c, err := s.conversations.Get(ctx, v.Account.ID, m.Visitor)
	if err == nil && c.Channel != conversation.ChannelWeb {
		// The account's API made a conversation with this id: a visitor never joins it.
		return chat.Reply{}, domain.Invalid("visitor_id", "visitor_id names another channel's conversation; make a new visitor id")
	}
	if err != nil && !domain.IsNotFound(err) {
		return chat.Reply{}, fmt.Errorf("load conversation: %w", err)
	}
	return s.agent.Send(ctx, req)
}

// Messages returns the visitor's own conversation: empty when the visitor has not written yet
// (or the id names a conversation of another channel, which a visitor never sees).
func (s *Service) Messages(ctx context.Context, v Visit, visitor string) (chat.Thread, error) {
	if err := widget.ValidateVisitor("visitor_id", visitor); err != nil {
		return chat.Thread{}, err
	}
	if err := s.limit(ctx, VisitorLimit, v.Account.ID+":"+visitor); err != nil {
		return chat.Thread{}, err
	}
	empty := chat.Thread{Conversation: conversation.Conversation{AccountID: v.Account.ID, ID: visitor,
		Channel: conversation.ChannelWeb, ContactID: widget.ContactID(visitor)}}
	t, err := s.agent.Conversation(ctx, v.Account.ID, visitor)
	if domain.IsNotFound(err) {
		return empty, nil
	}
	if err != nil {
		return chat.Thread{}, err
	}
	if t.Conversation.Channel != conversation.ChannelWeb {
		return empty, nil
	}
	return t, nil
}
