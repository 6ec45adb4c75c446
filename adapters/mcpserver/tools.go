package mcpserver

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/svcagent/svc/app/accounts"
	assistantapp "github.com/svcagent/svc/app/assistant"
	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/ratelimit"
)

// handler runs one tool for the key's principal p.
type handler[In any] func(ctx context.Context, p accounts.Principal, in In) (any, error)

// scope says which plans a tool is open to, as the REST route's group does.
type scope int

const (
	anyPlan     scope = iota // the routes every key reaches (GET /v1/account, GET /v1/usage)
	webChannels              // the routes of the web channels (402 plan_required without them)
)

// add registers a tool whose handler gets the caller's principal; an error becomes a tool
// result with isError and the REST error's envelope, never a protocol error.
func add[In any](s *Server, srv *mcp.Server, t *mcp.Tool, sc scope, h handler[In]) {
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		p, err := principal(req)
		if err == nil && sc == webChannels {
			err = s.uc.Access.RequireWebChannels(p.Account)
		}
		if err == nil && bytes.Contains(req.Params.Arguments, []byte(`\u0000`)) {
			err = domain.Invalid("arguments", "text must not contain NUL characters")
		}
		var out any
		if err == nil {
			out, err = h(context.WithValue(ctx, callKey{}, req), p, in)
		}
		if err != nil {
			return s.failed(err), nil, nil
		}
		return nil, out, nil
	})
}

type callKey struct{}

// progress returns what tells the caller of a crawl_site call of each page read, as MCP progress
// notifications, when the call asked for them (a progress token); nil when it did not.
func progress(ctx context.Context) func(read int, url string) {
	req, _ := ctx.Value(callKey{}).(*mcp.CallToolRequest)
	if req == nil || req.Session == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	return func(read int, url string) {
		// A notification that cannot be sent is the client's loss only: the crawl goes on.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
			Progress: float64(read), Message: "read " + url})
	}
}

// limit counts a call against the account's limit l (as its plan sets it), as the REST route does.
func (s *Server) limit(ctx context.Context, plan, accountID string, l ratelimit.Limit) error {
	_, err := s.uc.Access.Limit(ctx, plan, accountID, l)
	return err
}

func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}
}

func writes(title string, destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: new(destructive), IdempotentHint: idempotent, OpenWorldHint: new(openWorld)}
}

type noInput struct{}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Names of the tools, in the order tools/list gives them.
var Names = []string{"get_account", "get_agent", "update_agent", "update_appearance", "get_knowledge", "search_knowledge",
	"add_faq", "replace_pages", "crawl_site", "list_conversations", "get_conversation", "preview_reply", "report_conversion",
	"list_conversions", "list_webhooks", "test_webhook", "get_usage", "assistant"}

func (s *Server) addTools(srv *mcp.Server) {
	s.accountTools(srv)
	s.knowledgeTools(srv)
	s.conversationTools(srv)
	s.businessTools(srv)
}

type usageOut struct {
	InteractionsSpent     int    `json:"interactions_spent"`
	InteractionsRemaining int    `json:"interactions_remaining"`
	InteractionsLimit     int    `json:"interactions_limit"`
	PeriodStart           string `json:"period_start"`
	PeriodEnd             string `json:"period_end"`
}

type accountOut struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	Status          string   `json:"status"`
	Plan            string   `json:"plan"`
	WebChannels     bool     `json:"web_channels"`
	DeveloperBonus  bonusOut `json:"developer_bonus"`
	Usage           usageOut `json:"usage"`
	AllowedDomains  []string `json:"allowed_domains"`
	AgentConfigured bool     `json:"agent_configured"`
	CreatedAt       string   `json:"created_at"`
}

// bonusOut is the developer bonus, as GET /v1/account gives it.
type bonusOut struct {
	Active       bool    `json:"active"`
	Since        *string `json:"since"`
	Client       *string `json:"client"`
	Interactions int     `json:"interactions"`
}

func bonusOf(o accounts.Overview) bonusOut {
	b := o.Bonus()
	out := bonusOut{Active: b.Active, Interactions: b.Interactions}
	if !b.Since.IsZero() {
		since, client := stamp(b.Since), b.Client
		out.Since, out.Client = &since, &client
	}
	return out
}

type agentPatch struct {
	BusinessName *string   `json:"business_name,omitempty" jsonschema:"the business's name"`
	Languages    *[]string `json:"languages,omitempty" jsonschema:"the languages the agent answers in, e.g. [\"en\",\"pt-BR\"]"`
	Tone         *string   `json:"tone,omitempty" jsonschema:"the agent's tone of voice"`
	Description  *string   `json:"description,omitempty" jsonschema:"what the business does"`
	Instructions *string   `json:"instructions,omitempty" jsonschema:"standing instructions for the agent"`
	Contact      *struct {
		Email   *string `json:"email,omitempty"`
		Phone   *string `json:"phone,omitempty"`
		Address *string `json:"address,omitempty"`
		Hours   *string `json:"hours,omitempty"`
	} `json:"contact,omitempty" jsonschema:"the contact details the agent may give"`
	Channels *struct {
		API       *bool `json:"api,omitempty"`
		Web       *bool `json:"web,omitempty"`
		Messaging *bool `json:"messaging,omitempty"`
	} `json:"channels,omitempty" jsonschema:"the channels the agent answers on"`
}

type appearancePatch struct {
	Name        *string              `json:"name,omitempty" jsonschema:"the name the agent shows"`
	AvatarURL   *string              `json:"avatar_url,omitempty" jsonschema:"an https URL of the avatar image"`
	Greeting    map[string]*string   `json:"greeting,omitempty" jsonschema:"the greeting per language; null removes one"`
	Suggestions map[string]*[]string `json:"suggestions,omitempty" jsonschema:"suggested first questions per language; null removes a language"`
}

func (s *Server) accountTools(srv *mcp.Server) {
	add(s, srv, &mcp.Tool{Name: "get_account", Annotations: readOnly("Account"),
		Description: "Get the account: name, status, plan, whether web channels are open, and this period's interaction usage (spent, remaining, limit)."},
		anyPlan, func(ctx context.Context, p accounts.Principal, _ noInput) (any, error) {
			o, err := s.uc.Overviews.For(ctx, p)
			if err != nil {
				return nil, err
			}
			a := o.Account
			domains := a.AllowedDomains
			if domains == nil {
				domains = []string{}
			}
			return accountOut{ID: a.ID, Name: a.Name, Status: string(a.Status), Plan: a.Plan,
				WebChannels: o.Plan.WebChannels || a.DeveloperBonus, DeveloperBonus: bonusOf(o),
				Usage: usageOut{InteractionsSpent: o.Usage.Spent, InteractionsRemaining: o.Usage.Remaining(), InteractionsLimit: o.Usage.Limit,
					PeriodStart: stamp(o.Usage.Period.Start), PeriodEnd: stamp(o.Usage.Period.End)},
				AllowedDomains: domains, AgentConfigured: o.Agent.Configured(), CreatedAt: stamp(a.CreatedAt)}, nil
		})
	add(s, srv, &mcp.Tool{Name: "get_agent", Annotations: readOnly("Agent profile"),
		Description: "Get the customer agent's profile: business name, languages, tone, description, instructions, contact details, channels and appearance."},
		webChannels, func(ctx context.Context, p accounts.Principal, _ noInput) (any, error) {
			return s.uc.Profiles.Get(ctx, p.Account.ID)
		})
	add(s, srv, &mcp.Tool{Name: "update_agent", Annotations: writes("Update agent profile", true, true, false),
		Description: "Change fields of the customer agent's profile. Only the fields given change; the others keep their values. Returns the whole profile."},
		webChannels, func(ctx context.Context, p accounts.Principal, in agentPatch) (any, error) {
			pt := profile.Patch{BusinessName: in.BusinessName, Languages: in.Languages, Tone: in.Tone,
				Description: in.Description, Instructions: in.Instructions}
			if c := in.Contact; c != nil {
				pt.Contact = &profile.ContactPatch{Email: c.Email, Phone: c.Phone, Address: c.Address, Hours: c.Hours}
			}
			if c := in.Channels; c != nil {
				pt.Channels = &profile.ChannelsPatch{API: c.API, Web: c.Web, Messaging: c.Messaging}
			}
			return s.uc.Profiles.Update(ctx, p.Account.ID, pt)
		})
	add(s, srv, &mcp.Tool{Name: "update_appearance", Annotations: writes("Update agent appearance", true, true, false),
		Description: "Change how the agent looks in the chat widget: its name, avatar URL, greetings and suggested questions per language. Only the fields given change."},
		webChannels, func(ctx context.Context, p accounts.Principal, in appearancePatch) (any, error) {
			return s.uc.Profiles.UpdateAppearance(ctx, p.Account.ID, profile.AppearancePatch{
				Name: in.Name, AvatarURL: in.AvatarURL, Greeting: in.Greeting, Suggestions: in.Suggestions})
		})
	add(s, srv, &mcp.Tool{Name: "get_usage", Annotations: readOnly("Usage statement"),
		Description: "Get the usage statement: interactions spent per action and source between from and to (RFC 3339 times, YYYY-MM-DD dates or unix seconds; default the current period)."},
		anyPlan, func(ctx context.Context, p accounts.Principal, in periodIn) (any, error) {
			from, err := timeArg("from", in.From)
			if err != nil {
				return nil, err
			}
			to, err := timeArg("to", in.To)
			if err != nil {
				return nil, err
			}
			return s.uc.Compat.Statement(ctx, p.Account, from, to)
		})
}

type periodIn struct {
	From string `json:"from,omitempty" jsonschema:"start: an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds"`
	To   string `json:"to,omitempty" jsonschema:"end: an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds"`
}

// timeArg reads a time argument as GET /v1/usage reads its query: RFC 3339, a date or unix seconds.
func timeArg(name, v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, domain.Invalid(name, "%s must be an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds", name)
}

type pageOut struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Source string `json:"source"`
	Chars  int    `json:"chars"`
}

type faqOut struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

type knowledgeOut struct {
	Version         int64     `json:"version"`
	BusinessSummary string    `json:"business_summary"`
	SiteURL         string    `json:"site_url"`
	Pages           []pageOut `json:"pages"`
	FAQ             []faqOut  `json:"faq"`
}

type searchIn struct {
	Query string `json:"query,omitempty" jsonschema:"what a customer might ask"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many results, 1 to 20 (default 5)"`
}

type hitOut struct {
	Kind     string  `json:"kind"`
	Score    float64 `json:"score"`
	URL      string  `json:"url,omitempty"`
	Title    string  `json:"title,omitempty"`
	Text     string  `json:"text,omitempty"`
	Question string  `json:"question,omitempty"`
	Answer   string  `json:"answer,omitempty"`
}

type pagesIn struct {
	Pages []struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"pages,omitempty" jsonschema:"the pages that replace every uploaded page: url, title and content (text or Markdown)"`
	BusinessSummary *string `json:"business_summary,omitempty" jsonschema:"a short summary of the business"`
	SiteURL         *string `json:"site_url,omitempty" jsonschema:"the business's website"`
}

type faqIn struct {
	Items []struct {
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"items,omitempty" jsonschema:"the questions and answers; an existing question gets the new answer"`
}

type crawlIn struct {
	URL      string `json:"url,omitempty" jsonschema:"the site's address (http or https)"`
	MaxPages *int   `json:"max_pages,omitempty" jsonschema:"the most pages to read"`
}

const maxSearch = 20

func (s *Server) knowledgeTools(srv *mcp.Server) {
	add(s, srv, &mcp.Tool{Name: "get_knowledge", Annotations: readOnly("Knowledge"),
		Description: "List what the agent knows: the business summary, the pages (uploaded or crawled, without content) and the FAQ items."},
		webChannels, func(ctx context.Context, p accounts.Principal, _ noInput) (any, error) {
			o, err := s.uc.Brain.Overview(ctx, p.Account.ID)
			if err != nil {
				return nil, err
			}
			out := knowledgeOut{Version: o.State.Version, BusinessSummary: o.State.BusinessSummary, SiteURL: o.State.SiteURL,
				Pages: []pageOut{}, FAQ: []faqOut{}}
			for _, pg := range o.Pages {
				out.Pages = append(out.Pages, pageOut{ID: pg.ID, URL: pg.Page.URL, Title: pg.Page.Title, Source: string(pg.Source), Chars: pg.Chars})
			}
			for _, f := range o.FAQ {
				out.FAQ = append(out.FAQ, faqOut{ID: f.ID, Question: f.Question, Answer: f.Answer})
			}
			return out, nil
		})
	add(s, srv, &mcp.Tool{Name: "search_knowledge", Annotations: readOnly("Search knowledge"),
		Description: "Search the agent's knowledge as the agent does for a customer's question: the passages and FAQ items it would use, with source URLs and scores (0 to 1)."},
		webChannels, func(ctx context.Context, p accounts.Principal, in searchIn) (any, error) {
			if err := conversation.ValidateMessage("query", in.Query); err != nil {
				return nil, err
			}
			k := in.Limit
			if k == 0 {
				k = 5
			}
			if k < 1 || k > maxSearch {
				return nil, domain.Invalid("limit", "limit must be an integer between 1 and %d", maxSearch)
			}
			hits, err := s.uc.Brain.Search(ctx, p.Account.ID, in.Query, k)
			if err != nil {
				return nil, err
			}
			out := make([]hitOut, 0, len(hits))
			for _, h := range hits {
				if h.Kind == knowledge.KindFAQ {
					out = append(out, hitOut{Kind: "faq", Score: h.Score, Question: h.FAQ.Question, Answer: h.FAQ.Answer})
					continue
				}
				out = append(out, hitOut{Kind: "passage", Score: h.Score, URL: h.Chunk.URL, Title: h.Chunk.Title, Text: h.Chunk.Text})
			}
			return map[string]any{"results": out}, nil
		})
	add(s, srv, &mcp.Tool{Name: "add_faq", Annotations: writes("Add FAQ items", true, true, false),
		Description: "Add questions and answers to the agent's FAQ. A question already there gets the new answer; nothing else is removed."},
		webChannels, func(ctx context.Context, p accounts.Principal, in faqIn) (any, error) {
			var items []appknowledge.FAQInput
			if in.Items != nil {
				items = make([]appknowledge.FAQInput, len(in.Items))
				for i, it := range in.Items {
					items[i] = appknowledge.FAQInput{Question: it.Question, Answer: it.Answer}
				}
			}
			return s.uc.Brain.UpsertFAQ(ctx, p.Account.ID, items)
		})
	add(s, srv, &mcp.Tool{Name: "replace_pages", Annotations: writes("Replace uploaded pages", true, true, false),
		Description: "Replace every uploaded page of the agent's knowledge with the pages given (crawled pages and FAQ stay). Optionally set the business summary and site URL."},
		webChannels, func(ctx context.Context, p accounts.Principal, in pagesIn) (any, error) {
			pin := appknowledge.PagesInput{BusinessSummary: in.BusinessSummary, SiteURL: in.SiteURL}
			if in.Pages != nil {
				pin.Pages = make([]knowledge.Page, len(in.Pages))
				for i, pg := range in.Pages {
					pin.Pages[i] = knowledge.Page{URL: pg.URL, Title: pg.Title, Content: pg.Content}
				}
			}
			if err := pin.Validate(); err != nil {
				return nil, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.PageUploads); err != nil {
				return nil, err
			}
			return s.uc.Brain.ReplacePages(ctx, p.Account.ID, pin)
		})
	add(s, srv, &mcp.Tool{Name: "crawl_site", Annotations: writes("Crawl a website", true, false, true),
		Description: "Read a website (same site only, robots.txt honoured) and replace the agent's crawled pages with what it finds. Takes up to a few minutes; returns the pages read and skipped."},
		webChannels, func(ctx context.Context, p accounts.Principal, in crawlIn) (any, error) {
			req := knowledge.CrawlRequest{URL: in.URL, OnPage: progress(ctx)}
			if in.MaxPages != nil {
				req.MaxPages = *in.MaxPages
				if req.MaxPages == 0 {
					req.MaxPages = -1 // an explicit 0 is out of range, not the default
				}
			}
			req, err := req.Checked()
			if err != nil {
				return nil, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Crawls); err != nil {
				return nil, err
			}
			out, err := s.uc.Brain.Crawl(ctx, p.Account.ID, req)
			if err != nil {
				return nil, err
			}
			read := make([]pageOut, 0, len(out.Result.Pages))
			for _, pg := range out.Result.Pages {
				read = append(read, pageOut{URL: pg.URL, Title: pg.Title, Source: string(knowledge.SourceCrawl), Chars: len([]rune(pg.Content))})
			}
			return map[string]any{"pages": out.Pages, "chars": out.Chars, "chunks": out.Chunks, "version": out.Version,
				"pages_read": read, "skipped": out.Result.Skipped}, nil
		})
}

type listConversationsIn struct {
	Channel string `json:"channel,omitempty" jsonschema:"only this channel: api, web or messaging"`
	Limit   int    `json:"limit,omitempty" jsonschema:"how many, newest first (default 20)"`
}

type conversationIn struct {
	ConversationID string `json:"conversation_id,omitempty" jsonschema:"the conversation's id (conv_…)"`
}

func (s *Server) conversationTools(srv *mcp.Server) {
	add(s, srv, &mcp.Tool{Name: "list_conversations", Annotations: readOnly("Conversations"),
		Description: "List the agent's conversations with customers, newest first, optionally of one channel (api, web or messaging)."},
		webChannels, func(ctx context.Context, p accounts.Principal, in listConversationsIn) (any, error) {
			var q conversation.ListQuery
			switch ch := conversation.Channel(in.Channel); ch {
			case "":
			case conversation.ChannelAPI, conversation.ChannelWeb, conversation.ChannelMessaging:
				q.Channel = ch
			default:
				return nil, domain.Invalid("channel", "channel must be api, web or messaging")
			}
			if in.Limit != 0 {
				if in.Limit < 1 || in.Limit > conversation.MaxListLimit {
					return nil, domain.Invalid("limit", "limit must be an integer between 1 and %d", conversation.MaxListLimit)
				}
				q.Limit = in.Limit
			}
			return s.uc.Chat.Conversations(ctx, p.Account.ID, q)
		})
	add(s, srv, &mcp.Tool{Name: "get_conversation", Annotations: readOnly("Conversation"),
		Description: "Get one conversation with all its messages (customer and agent), and the actions the agent took."},
		webChannels, func(ctx context.Context, p accounts.Principal, in conversationIn) (any, error) {
			return s.uc.Chat.Conversation(ctx, p.Account.ID, in.ConversationID)
		})
	add(s, srv, &mcp.Tool{Name: "preview_reply", Annotations: writes("Preview a reply", false, false, false),
		Description: "What the customer agent would answer a new customer's message on the API channel, with its actions, " +
			"without storing a conversation. Costs one interaction, like any reply."},
		webChannels, func(ctx context.Context, p accounts.Principal, in previewIn) (any, error) {
			if err := conversation.ValidateMessage("message", in.Message); err != nil {
				return nil, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Chat); err != nil {
				return nil, err
			}
			pv, err := s.uc.Chat.Preview(ctx, p.Account, in.Message)
			if err != nil {
				return nil, err
			}
			return map[string]any{"reply": pv.Text, "actions": pv.Actions, "interactions_remaining": pv.Usage.Remaining()}, nil
		})
}

type previewIn struct {
	Message string `json:"message,omitempty" jsonschema:"the customer's message"`
}

type conversionIn struct {
	Kind           *string  `json:"kind,omitempty" jsonschema:"sale, lead, signup or booking"`
	Amount         *float64 `json:"amount,omitempty" jsonschema:"the value, e.g. of a sale"`
	Currency       string   `json:"currency,omitempty" jsonschema:"ISO 4217 code of the amount, e.g. USD"`
	Reference      string   `json:"reference,omitempty" jsonschema:"your own reference, e.g. an order number"`
	ConversationID string   `json:"conversation_id,omitempty" jsonschema:"the conversation that led to it"`
}

type conversionsIn struct {
	From string `json:"from,omitempty" jsonschema:"start date (2026-11-01) or RFC 3339 time; give both from and to, or neither for the current period"`
	To   string `json:"to,omitempty" jsonschema:"end date or RFC 3339 time"`
}

type webhookOut struct {
	ID       string   `json:"id"`
	URL      string   `json:"url"`
	Events   []string `json:"events"`
	Active   bool     `json:"active"`
	Failures int      `json:"failures"`
}

type webhookIn struct {
	WebhookID string `json:"webhook_id,omitempty" jsonschema:"the webhook's id (wh_…)"`
}

type assistantIn struct {
	Message         *string `json:"message,omitempty" jsonschema:"the instruction or question, in plain words"`
	Mode            *string `json:"mode,omitempty" jsonschema:"ask (answer only) or do (carry out actions)"`
	ConversationID  *string `json:"conversation_id,omitempty" jsonschema:"continue this assistant conversation"`
	NewConversation *bool   `json:"new_conversation,omitempty" jsonschema:"start a new assistant conversation"`
	Lang            *string `json:"lang,omitempty" jsonschema:"answer language: en, pt, pt-BR or es"`
	Approve         *string `json:"approve,omitempty" jsonschema:"the id of an approval (apr_…) to run its actions, after the person confirmed them"`
}

func (s *Server) businessTools(srv *mcp.Server) {
	add(s, srv, &mcp.Tool{Name: "report_conversion", Annotations: writes("Report a conversion", false, false, false),
		Description: "Record a conversion (sale, lead, signup or booking) the agent brought, optionally with amount, currency and the conversation it came from."},
		webChannels, func(ctx context.Context, p accounts.Principal, in conversionIn) (any, error) {
			if in.Kind == nil {
				return nil, domain.Invalid("kind", "kind is required (sale, lead, signup or booking)")
			}
			cv := conversion.Conversion{Kind: *in.Kind, Currency: in.Currency, Reference: in.Reference, ConversationID: in.ConversationID}
			if in.Amount != nil {
				cv.Amount, cv.HasAmount = *in.Amount, true
			}
			return s.uc.Conversions.Record(ctx, p.Account.ID, cv)
		})
	add(s, srv, &mcp.Tool{Name: "list_conversions", Annotations: readOnly("Conversions"),
		Description: "List the conversions between from and to (default the current period) with totals per kind and currency."},
		webChannels, func(ctx context.Context, p accounts.Principal, in conversionsIn) (any, error) {
			var from, to time.Time
			for _, a := range []struct {
				name, raw string
				dst       *time.Time
			}{{"from", in.From, &from}, {"to", in.To, &to}} {
				if a.raw == "" {
					continue
				}
				t, err := time.Parse(time.RFC3339, a.raw)
				if err != nil {
					if t, err = time.Parse(time.DateOnly, a.raw); err != nil {
						return nil, domain.Invalid(a.name, "%s must be a date (2026-11-01) or an RFC 3339 time", a.name)
					}
				}
				*a.dst = t
			}
			if from.IsZero() != to.IsZero() {
				return nil, domain.Invalid("from", "give both from and to, or neither (the current period)")
			}
			return s.uc.Conversions.Report(ctx, p.Account.ID, from, to)
		})
	add(s, srv, &mcp.Tool{Name: "list_webhooks", Annotations: readOnly("Webhooks"),
		Description: "List the account's webhooks: URL, event types, whether active, and consecutive failed deliveries."},
		webChannels, func(ctx context.Context, p accounts.Principal, _ noInput) (any, error) {
			hooks, err := s.uc.Webhooks.List(ctx, p.Account.ID)
			if err != nil {
				return nil, err
			}
			out := make([]webhookOut, 0, len(hooks))
			for _, w := range hooks {
				out = append(out, webhookOut{ID: w.ID, URL: w.URL, Events: w.Events, Active: w.Active, Failures: w.Failures})
			}
			return map[string]any{"webhooks": out}, nil
		})
	add(s, srv, &mcp.Tool{Name: "test_webhook", Annotations: writes("Test a webhook", false, false, true),
		Description: "Send a webhook.test event to a webhook once, now, and report whether the receiver accepted it (status code, time taken, error)."},
		webChannels, func(ctx context.Context, p accounts.Principal, in webhookIn) (any, error) {
			r, err := s.uc.Webhooks.Test(ctx, p.Account.ID, in.WebhookID)
			if err != nil {
				return nil, err
			}
			return map[string]any{"event_id": r.EventID, "delivered": r.Attempt.OK(), "status_code": r.Attempt.StatusCode,
				"duration_ms": r.Attempt.Duration.Milliseconds(), "error": r.Attempt.Failure()}, nil
		})
	add(s, srv, &mcp.Tool{Name: "assistant", Annotations: writes("svc assistant", true, false, true),
		Description: "Ask the svc assistant (mode ask) or have it act (mode do): it reads and changes the account, and drafts or sends messages. " +
			"Actions that need the person's approval come back as status needs_approval with an approval id and the exact actions: " +
			"show them to the person, and only after they confirm call again with approve set to that id."},
		webChannels, func(ctx context.Context, p accounts.Principal, in assistantIn) (any, error) {
			req := assistant.Request{Message: in.Message, Mode: in.Mode, ConversationID: in.ConversationID,
				NewConversation: in.NewConversation, Lang: in.Lang, Approve: in.Approve}
			if _, _, err := req.Validate(); err != nil {
				return nil, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Assistant); err != nil {
				return nil, err
			}
			return s.uc.Assistant.Handle(ctx, assistantapp.Caller{Account: p.Account, SendWithoutApproval: p.SendWithoutApproval}, req)
		})
}
