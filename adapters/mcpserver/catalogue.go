package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The tools, by the REST route each stands for (none for search_knowledge and preview_reply,
// which only MCP has).

// periodIn is the input schema of the tool of GET /v1/usage.
type periodIn struct {
	From string `json:"from,omitempty" jsonschema:"start: an RFC 3339 time or a date (YYYY-MM-DD)"`
	To   string `json:"to,omitempty" jsonschema:"end: an RFC 3339 time or a date (YYYY-MM-DD)"`
}

// listConversionsIn is the input schema of list_conversions: GET /v1/conversions's query.
type listConversionsIn struct {
	From   string `json:"from,omitempty" jsonschema:"start: an RFC 3339 time or a date (YYYY-MM-DD)"`
	To     string `json:"to,omitempty" jsonschema:"end: an RFC 3339 time or a date (YYYY-MM-DD)"`
	Kind   string `json:"kind,omitempty" jsonschema:"only this kind: sale, lead, signup or booking"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many, newest first, 1 to 100 (default 20)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of the page before, for the next page"`
}

func (s *Server) accountTools(srv *mcp.Server) {
	add[noInput](s, srv, &mcp.Tool{Name: "get_account", Annotations: readOnly("Account"),
		Description: "Get the account (GET /v1/account): name, status, plan, whether web channels are open, the developer bonus, and this period's interaction usage (spent, remaining, limit)."},
		anyPlan, body[noInput], func(ctx context.Context, p accounts.Principal, _ noInput) (apijson.Account, error) {
			o, err := s.uc.Overviews.For(ctx, p)
			return apijson.AccountOf(o), err
		})
	add[noInput](s, srv, &mcp.Tool{Name: "get_agent", Annotations: readOnly("Agent profile"),
		Description: "Get the customer agent's profile (GET /v1/agent): business name, languages, tone, description, instructions, contact details, channels and appearance."},
		webChannels, body[noInput], func(ctx context.Context, p accounts.Principal, _ noInput) (apijson.Agent, error) {
			prof, err := s.uc.Profiles.Get(ctx, p.Account.ID)
			return apijson.AgentOf(prof), err
		})
	add[apijson.AgentPatch](s, srv, &mcp.Tool{Name: "update_agent", Annotations: writes("Update agent profile", true, true, false),
		Description: "Change fields of the customer agent's profile (PATCH /v1/agent). Only the fields given change; the others keep their values. Returns the whole profile."},
		webChannels, body[apijson.AgentPatch], func(ctx context.Context, p accounts.Principal, in apijson.AgentPatch) (apijson.Agent, error) {
			prof, err := s.uc.Profiles.Update(ctx, p.Account.ID, in.Patch())
			return apijson.AgentOf(prof), err
		})
	add[apijson.AppearancePatch](s, srv, &mcp.Tool{Name: "update_appearance", Annotations: writes("Update agent appearance", true, true, false),
		Description: "Change how the agent looks in the chat widget (PATCH /v1/agent/appearance): its name, avatar URL, greetings and suggested questions per language. Only the fields given change."},
		webChannels, body[apijson.AppearancePatch], func(ctx context.Context, p accounts.Principal, in apijson.AppearancePatch) (apijson.Agent, error) {
			prof, err := s.uc.Profiles.UpdateAppearance(ctx, p.Account.ID, in.Patch())
			return apijson.AgentOf(prof), err
		})
	add[periodIn](s, srv, &mcp.Tool{Name: "get_usage", Annotations: readOnly("Usage statement"),
		Description: "Get the usage statement (GET /v1/usage): interactions spent per action and source between from and to (RFC 3339 times, YYYY-MM-DD dates or unix seconds; default the current period)."},
		anyPlan, params("from", "to"), func(ctx context.Context, p accounts.Principal, in apijson.Params) (apijson.Statement, error) {
			from, to, err := apijson.StatementPeriod(in)
			if err != nil {
				return apijson.Statement{}, err
			}
			st, err := s.uc.Compat.Statement(ctx, p.Account, from, to)
			return apijson.StatementOf(st), err
		})
}

type searchIn struct {
	Query string `json:"query,omitempty" jsonschema:"what a customer might ask"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many results, 1 to 20 (default 5)"`
}

// searchOut is what search_knowledge finds: the passages and FAQ items the agent would use.
type searchOut struct {
	Object  string `json:"object"`
	Results []hit  `json:"results"`
}

type hit struct {
	Kind     string  `json:"kind" jsonschema:"passage or faq"`
	Score    float64 `json:"score"`
	URL      string  `json:"url,omitempty"`
	Title    string  `json:"title,omitempty"`
	Text     string  `json:"text,omitempty"`
	Question string  `json:"question,omitempty"`
	Answer   string  `json:"answer,omitempty"`
}

const maxSearch = 20

func (s *Server) knowledgeTools(srv *mcp.Server) {
	add[noInput](s, srv, &mcp.Tool{Name: "get_knowledge", Annotations: readOnly("Knowledge"),
		Description: "List what the agent knows (GET /v1/knowledge): the business summary, the pages (uploaded or crawled, without content) and the FAQ items."},
		webChannels, body[noInput], func(ctx context.Context, p accounts.Principal, _ noInput) (apijson.Knowledge, error) {
			o, err := s.uc.Brain.Overview(ctx, p.Account.ID)
			return apijson.KnowledgeOf(o), err
		})
	add[searchIn](s, srv, &mcp.Tool{Name: "search_knowledge", Annotations: readOnly("Search knowledge"),
		Description: "Search the agent's knowledge as the agent does for a customer's question: the passages and FAQ items it would use, with source URLs and scores (0 to 1)."},
		webChannels, body[searchIn], func(ctx context.Context, p accounts.Principal, in searchIn) (searchOut, error) {
			out := searchOut{Object: "knowledge.search", Results: []hit{}}
			if err := conversation.ValidateMessage("query", in.Query); err != nil {
				return out, err
			}
			k := in.Limit
			if k == 0 {
				k = 5
			}
			if k < 1 || k > maxSearch {
				return out, domain.Invalid("limit", "limit must be an integer between 1 and %d", maxSearch)
			}
			hits, err := s.uc.Brain.Search(ctx, p.Account.ID, in.Query, k)
			for _, h := range hits {
				if h.Kind == knowledge.KindFAQ {
					out.Results = append(out.Results, hit{Kind: "faq", Score: h.Score, Question: h.FAQ.Question, Answer: h.FAQ.Answer})
					continue
				}
				out.Results = append(out.Results, hit{Kind: "passage", Score: h.Score, URL: h.Chunk.URL, Title: h.Chunk.Title, Text: h.Chunk.Text})
			}
			return out, err
		})
	add[apijson.FAQIn](s, srv, &mcp.Tool{Name: "add_faq", Annotations: writes("Add FAQ items", true, true, false),
		Description: "Add questions and answers to the agent's FAQ (POST /v1/knowledge/faq). A question already there gets the new answer; nothing else is removed."},
		webChannels, body[apijson.FAQIn], func(ctx context.Context, p accounts.Principal, in apijson.FAQIn) (apijson.FAQUpdate, error) {
			out, err := s.uc.Brain.UpsertFAQ(ctx, p.Account.ID, in.Input())
			return apijson.FAQUpdateOf(out), err
		})
	add[apijson.PagesIn](s, srv, &mcp.Tool{Name: "replace_pages", Annotations: writes("Replace uploaded pages", true, true, false),
		Description: "Replace every uploaded page of the agent's knowledge with the pages given (PUT /v1/knowledge/pages; crawled pages and FAQ stay). Optionally set the business summary and site URL."},
		webChannels, body[apijson.PagesIn], func(ctx context.Context, p accounts.Principal, in apijson.PagesIn) (apijson.Update, error) {
			pin := in.Input()
			if err := pin.Validate(); err != nil {
				return apijson.Update{}, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.PageUploads); err != nil {
				return apijson.Update{}, err
			}
			up, err := s.uc.Brain.ReplacePages(ctx, p.Account.ID, pin)
			return apijson.UpdateOf(up), err
		})
	add[apijson.CrawlIn](s, srv, &mcp.Tool{Name: "crawl_site", Annotations: writes("Crawl a website", true, false, true),
		Description: "Read a website (POST /v1/knowledge/crawl: same site only, robots.txt honoured) and replace the agent's crawled pages with what it finds. " +
			"Takes up to a few minutes, with a progress notification per page read; cancelling the call stops the crawl and stores nothing. Returns the pages read and skipped, and how the agent's pages changed: added, replaced, removed and kept."},
		webChannels, body[apijson.CrawlIn], func(ctx context.Context, p accounts.Principal, in apijson.CrawlIn) (apijson.Crawl, error) {
			req, err := in.Request()
			if err != nil {
				return apijson.Crawl{}, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Crawls); err != nil {
				return apijson.Crawl{}, err
			}
			req.OnPage = progress(ctx)
			out, err := s.uc.Brain.Crawl(ctx, p.Account.ID, req)
			if err != nil {
				return apijson.Crawl{}, err
			}
			return apijson.CrawlOf(in.URL, out), nil
		})
}

// listConversationsIn is the input schema of list_conversations: GET /v1/conversations's query.
type listConversationsIn struct {
	Channel string `json:"channel,omitempty" jsonschema:"only this channel: api, web, messaging or assistant (the owner's kept assistant conversations)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"how many, newest first, 1 to 100 (default 20)"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"the next_cursor of the page before, for the next page"`
}

// conversationIn is the input schema of get_conversation.
type conversationIn struct {
	ConversationID string `json:"conversation_id,omitempty" jsonschema:"the conversation's id"`
}

type previewIn struct {
	Message string `json:"message,omitempty" jsonschema:"the customer's message"`
}

// previewOut is what the agent would answer, as POST /v1/chat answers a reply, without a
// conversation.
type previewOut struct {
	Object  string               `json:"object"`
	Reply   string               `json:"reply"`
	Actions []apijson.Action     `json:"actions"`
	Usage   apijson.Interactions `json:"usage"`
}

func (s *Server) conversationTools(srv *mcp.Server) {
	add[listConversationsIn](s, srv, &mcp.Tool{Name: "list_conversations", Annotations: readOnly("Conversations"),
		Description: "List the account's conversations (GET /v1/conversations): the agent's with customers and the owner's kept assistant conversations (channel assistant), newest first, optionally of one channel (api, web, messaging or assistant); next_cursor pages on."},
		webChannels, params("channel", "limit", "cursor"), func(ctx context.Context, p accounts.Principal, in apijson.Params) (apijson.List[apijson.Conversation], error) {
			q, err := apijson.ConversationsQuery(in)
			if err != nil {
				return apijson.List[apijson.Conversation]{}, err
			}
			page, err := s.uc.Chat.Conversations(ctx, p.Account.ID, q)
			return apijson.ConversationsOf(page), err
		})
	add[conversationIn](s, srv, &mcp.Tool{Name: "get_conversation", Annotations: readOnly("Conversation"),
		Description: "Get one conversation with all its messages, customer's and agent's, and the actions the agent took, or an assistant conversation with the owner's and the assistant's messages (GET /v1/conversations/{conversation_id})."},
		webChannels, params("conversation_id"), func(ctx context.Context, p accounts.Principal, in apijson.Params) (apijson.Thread, error) {
			id, _ := in("conversation_id")
			t, err := s.uc.Chat.AnyConversation(ctx, p.Account.ID, id)
			return apijson.ThreadOf(t), err
		})
	add[previewIn](s, srv, &mcp.Tool{Name: "preview_reply", Annotations: writes("Preview a reply", false, false, false),
		Description: "What the customer agent would answer a new customer's message on the API channel, with its actions, " +
			"without storing a conversation. Costs one interaction, like any reply."},
		webChannels, body[previewIn], func(ctx context.Context, p accounts.Principal, in previewIn) (previewOut, error) {
			if err := conversation.ValidateMessage("message", in.Message); err != nil {
				return previewOut{}, err
			}
			if err := s.limit(ctx, p.Account.Plan, p.Account.ID, ratelimit.Chat); err != nil {
				return previewOut{}, err
			}
			pv, err := s.uc.Chat.Preview(ctx, p.Account, in.Message)
			return previewOut{Object: "chat.preview", Reply: pv.Text, Actions: apijson.ActionsOf(pv.Actions), Usage: apijson.InteractionsOf(pv.Usage)}, err
		})
}

// webhookIn is the input schema of test_webhook.
type webhookIn struct {
	WebhookID string `json:"webhook_id,omitempty" jsonschema:"the webhook's id (wh_…)"`
}

func (s *Server) businessTools(srv *mcp.Server) {
	add[apijson.ConversionIn](s, srv, &mcp.Tool{Name: "report_conversion", Annotations: writes("Report a conversion", false, false, false),
		Description: "Record a conversion (POST /v1/conversions): a sale, lead, signup or booking the agent brought, optionally with amount, currency and the conversation it came from."},
		webChannels, body[apijson.ConversionIn], func(ctx context.Context, p accounts.Principal, in apijson.ConversionIn) (apijson.Conversion, error) {
			cv, err := in.Conversion()
			if err != nil {
				return apijson.Conversion{}, err
			}
			stored, err := s.uc.Conversions.Record(ctx, p.Account.ID, cv)
			return apijson.ConversionOf(stored), err
		})
	add[listConversionsIn](s, srv, &mcp.Tool{Name: "list_conversions", Annotations: readOnly("Conversions"),
		Description: "List the conversions between from and to (GET /v1/conversions; both or neither: the current period), newest first, optionally of one kind, with totals per kind and currency of the whole period; next_cursor pages on."},
		webChannels, params("from", "to", "kind", "limit", "cursor"), func(ctx context.Context, p accounts.Principal, in apijson.Params) (apijson.ConversionReport, error) {
			q, err := apijson.ConversionsQuery(in)
			if err != nil {
				return apijson.ConversionReport{}, err
			}
			r, err := s.uc.Conversions.Report(ctx, p.Account.ID, q)
			return apijson.ConversionReportOf(r), err
		})
	add[noInput](s, srv, &mcp.Tool{Name: "list_webhooks", Annotations: readOnly("Webhooks"),
		Description: "List the account's webhooks (GET /v1/webhooks): URL, event types, whether active, consecutive failed deliveries and the last delivery."},
		webChannels, body[noInput], func(ctx context.Context, p accounts.Principal, _ noInput) (apijson.List[apijson.Webhook], error) {
			hooks, err := s.uc.Webhooks.List(ctx, p.Account.ID)
			return apijson.WebhooksOf(hooks), err
		})
	add[webhookIn](s, srv, &mcp.Tool{Name: "test_webhook", Annotations: writes("Test a webhook", false, false, true),
		Description: "Send a webhook.test event to a webhook once, now (POST /v1/webhooks/{id}/test), and report whether the receiver accepted it (status code, time taken, error)."},
		webChannels, params("webhook_id"), func(ctx context.Context, p accounts.Principal, in apijson.Params) (apijson.WebhookTest, error) {
			id, _ := in("webhook_id")
			r, err := s.uc.Webhooks.Test(ctx, p.Account.ID, id)
			return apijson.WebhookTestOf(r), err
		})
	s.assistantTool(srv)
}
