package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTools are the tools /mcp lists, in order.
var mcpTools = []string{"get_account", "get_agent", "update_agent", "update_appearance", "get_knowledge", "search_knowledge",
	"add_faq", "replace_pages", "crawl_site", "list_conversations", "get_conversation", "preview_reply", "report_conversion",
	"list_conversions", "list_webhooks", "test_webhook", "get_usage", "assistant"}

// mcpReadOnly are the tools that change nothing.
var mcpReadOnly = []string{"get_account", "get_agent", "get_knowledge", "search_knowledge", "list_conversations",
	"get_conversation", "list_conversions", "list_webhooks", "get_usage"}

// keyTransport adds the API key to every request, and has the answers checked (checkingTransport).
type keyTransport struct{ key string }

func (k keyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+k.key)
	return checkingTransport{base: http.DefaultTransport}.RoundTrip(req)
}

// connectMCP opens an MCP session on api's /mcp with key, through the official SDK's client.
func connectMCP(t testing.TB, api *proc, key string) *mcp.ClientSession {
	t.Helper()
	return connectMCPWith(t, api, key, nil)
}

// connectMCPWith is connectMCP with the client's options.
func connectMCPWith(t testing.TB, api *proc, key string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "svc-e2e", Version: "1.2.3"}, opts)
	tr := &mcp.StreamableClientTransport{Endpoint: api.URL() + "/mcp", HTTPClient: &http.Client{Transport: keyTransport{key}}}
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("MCP connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callTool calls a tool and returns its result; a protocol error fails t.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: protocol error %v, want a result", name, err)
	}
	return res
}

// toolOK returns the structured result of a call that must succeed.
func toolOK(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) obj {
	t.Helper()
	res := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("tools/call %s %v: tool error %s", name, args, toolText(res))
	}
	var out obj
	if err := json.Unmarshal([]byte(toolText(res)), &out); err != nil {
		t.Fatalf("tools/call %s: content %q is not a JSON object: %v", name, toolText(res), err)
	}
	return out
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// toolError returns the error envelope of a call that must fail as a tool error.
func toolError(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) obj {
	t.Helper()
	res := callTool(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("tools/call %s %v: %s, want isError", name, args, toolText(res))
	}
	var env obj
	if err := json.Unmarshal([]byte(toolText(res)), &env); err != nil || env.str("error.code") == "" {
		t.Fatalf("tools/call %s: error content %q is not the error envelope", name, toolText(res))
	}
	return env
}

// sameError checks that a tool's error is the REST route's: the same code, message and param.
func sameError(t testing.TB, tool obj, rest response, status int) {
	t.Helper()
	if rest.status != status || rest.body == nil {
		t.Fatalf("REST answer %s, want %d with the envelope", rest, status)
	}
	for _, f := range []string{"error.code", "error.message", "error.param"} {
		if got, want := tool.str(f), rest.body.str(f); got != want {
			t.Errorf("tool %s %q, REST %q", f, got, want)
		}
	}
}

// TestMCP drives /mcp with the official SDK's client: the handshake, the tools listed with their
// schemas and annotations, tools called with good input (the change visible through REST) and
// bad input (a tool error with the REST route's code, message and param, nothing stored), another
// account's conversation not found, the plan check of the web channels, and the key checked
// before any MCP message.
func TestMCP(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			site := newSiteFixture(t)
			api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
			a := s.newAccount(t)
			other := s.newAccount(t)
			configureAgent(t, api, other.key)
			loadBrain(t, api, other.key)
			wantCompleted(t, postChat(t, api, other.key, map[string]any{"message": "Do you sell sourdough?", "conversation_id": "conv-other"}), "conv-other")
			cs := connectMCP(t, api, a.key)

			t.Run("initialize", func(t *testing.T) {
				init := cs.InitializeResult()
				if init == nil || init.ServerInfo == nil || init.ServerInfo.Name != "svc" || init.Capabilities.Tools == nil {
					t.Fatalf("initialize result %+v, want server svc with tools", init)
				}
			})

			t.Run("tools/list", func(t *testing.T) {
				res, err := cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, tool := range res.Tools {
					names = append(names, tool.Name)
					if tool.Description == "" || tool.InputSchema == nil || tool.Annotations == nil {
						t.Errorf("tool %s: description %q schema %v annotations %v, want all three", tool.Name, tool.Description, tool.InputSchema, tool.Annotations)
						continue
					}
					if ro := slices.Contains(mcpReadOnly, tool.Name); tool.Annotations.ReadOnlyHint != ro {
						t.Errorf("tool %s readOnlyHint %v, want %v", tool.Name, tool.Annotations.ReadOnlyHint, ro)
					}
					if tool.Annotations.DestructiveHint == nil {
						t.Errorf("tool %s: destructiveHint unset", tool.Name)
					}
				}
				want := slices.Sorted(slices.Values(mcpTools))
				if slices.Sort(names); !slices.Equal(names, want) {
					t.Errorf("tools %v, want %v", names, want)
				}
				schema, _ := json.Marshal(res.Tools[slices.IndexFunc(res.Tools, func(x *mcp.Tool) bool { return x.Name == "add_faq" })].InputSchema)
				if !strings.Contains(string(schema), `"question"`) || !strings.Contains(string(schema), `"answer"`) {
					t.Errorf("add_faq input schema %s, want items of question and answer", schema)
				}
			})

			t.Run("account", func(t *testing.T) {
				got := toolOK(t, cs, "get_account", nil)
				if got.str("id") != a.id || got.str("developer_bonus.client") != "svc-e2e 1.2.3" {
					t.Errorf("get_account %v, want id %q and the developer bonus of this client", got, a.id)
				}
			})

			t.Run("agent", func(t *testing.T) {
				toolOK(t, cs, "update_agent", map[string]any{"business_name": "Padaria MCP", "languages": []string{"en", "pt"}})
				if r := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); r.body.str("business_name") != "Padaria MCP" {
					t.Errorf("GET /v1/agent after update_agent: %s", r)
				}
				bad := map[string]any{"business_name": "Never stored", "languages": []string{"not a language"}}
				sameError(t, toolError(t, cs, "update_agent", bad), callJSON(t, "PATCH", api.URL()+"/v1/agent", bad, bearer(a.key)...), http.StatusBadRequest)
				if r := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); r.body.str("business_name") != "Padaria MCP" {
					t.Errorf("GET /v1/agent after a refused update_agent: %s, want it unchanged", r)
				}
				toolOK(t, cs, "update_appearance", map[string]any{"name": "Lu"})
				badLook := map[string]any{"avatar_url": "ftp://example.com/a.png"}
				sameError(t, toolError(t, cs, "update_appearance", badLook), callJSON(t, "PATCH", api.URL()+"/v1/agent/appearance", badLook, bearer(a.key)...), http.StatusBadRequest)
				if got := toolOK(t, cs, "get_agent", nil); got.str("Appearance.Name") != "Lu" || got.str("Appearance.AvatarURL") != "" {
					t.Errorf("get_agent after update_appearance: %v, want the name Lu and no avatar", got)
				}
			})

			t.Run("knowledge", func(t *testing.T) {
				toolOK(t, cs, "add_faq", map[string]any{"items": []map[string]any{{"question": "Do you deliver?", "answer": "Yes, in Lisbon."}}})
				badFAQ := map[string]any{"items": []map[string]any{}}
				sameError(t, toolError(t, cs, "add_faq", badFAQ), callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", badFAQ, bearer(a.key)...), http.StatusBadRequest)
				toolOK(t, cs, "replace_pages", map[string]any{"pages": chatPages, "site_url": chatSite})
				badPages := map[string]any{"pages": []map[string]any{{"url": "not a url", "title": "T", "content": "C"}}}
				sameError(t, toolError(t, cs, "replace_pages", badPages), callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", badPages, bearer(a.key)...), http.StatusBadRequest)
				k := toolOK(t, cs, "get_knowledge", nil)
				faq, _ := k.get("faq")
				pages, _ := k.get("pages")
				if items, _ := faq.([]any); len(items) != 1 {
					t.Errorf("get_knowledge faq %v, want the one item added", faq)
				}
				if ps, _ := pages.([]any); len(ps) != len(chatPages) {
					t.Errorf("get_knowledge pages %v, want the %d replaced (the refused replacement stored nothing)", pages, len(chatPages))
				}
				hits := toolOK(t, cs, "search_knowledge", map[string]any{"query": "Do you deliver?"})
				if res, _ := hits.get("results"); len(res.([]any)) == 0 {
					t.Errorf("search_knowledge: %v, want results", hits)
				}
				if e := toolError(t, cs, "search_knowledge", map[string]any{"query": ""}); e.str("error.code") != "invalid_request" || e.str("error.param") != "query" {
					t.Errorf("search_knowledge without a query: %v", e)
				}
				badCrawl := map[string]any{"url": "ftp://example.com"}
				sameError(t, toolError(t, cs, "crawl_site", badCrawl), callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", badCrawl, bearer(a.key)...), http.StatusBadRequest)
			})

			t.Run("assistant", func(t *testing.T) {
				got := toolOK(t, cs, "assistant", map[string]any{"message": "what are my tasks today?", "mode": "ask"})
				if got.str("Status") == "" {
					t.Errorf("assistant: %v, want a reply with a status", got)
				}
				bad := map[string]any{"message": "what are my tasks today?", "mode": "fly"}
				sameError(t, toolError(t, cs, "assistant", bad), callJSON(t, "POST", api.URL()+"/v1/assistant", bad, bearer(a.key)...), http.StatusBadRequest)
			})

			t.Run("crawl with progress", func(t *testing.T) {
				var mu sync.Mutex
				var notes []*mcp.ProgressNotificationParams
				ps := connectMCPWith(t, api, a.key, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					notes = append(notes, req.Params)
				}})
				params := &mcp.CallToolParams{Name: "crawl_site", Arguments: map[string]any{"url": site.URL() + "/docs/", "max_pages": 3}}
				params.SetProgressToken("crawl-1")
				res, err := ps.CallTool(context.Background(), params)
				if err != nil || res.IsError {
					t.Fatalf("crawl_site: %v %s", err, toolText(res))
				}
				var out obj
				_ = json.Unmarshal([]byte(toolText(res)), &out)
				pages, _ := out.num("pages")
				mu.Lock()
				defer mu.Unlock()
				if pages < 1 || len(notes) < int(pages) {
					t.Fatalf("crawl_site read %v pages with %d progress notifications, want one per page: %s", pages, len(notes), toolText(res))
				}
				for i, n := range notes {
					if n.ProgressToken != "crawl-1" || n.Progress != float64(i+1) || !strings.Contains(n.Message, site.URL()) {
						t.Errorf("progress notification %d: %+v", i, n)
					}
				}
			})

			// preview_reply answers as the agent does, stores no conversation, and costs one
			// interaction; a refused message costs nothing.
			t.Run("preview reply", func(t *testing.T) {
				configureAgent(t, api, a.key)
				spent := func() float64 {
					n, _ := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...).body.num("usage.interactions_spent")
					return n
				}
				convs := func() int {
					r := call(t, "GET", api.URL()+"/v1/conversations", bearer(a.key)...)
					d, _ := r.body.get("data")
					return len(d.([]any))
				}
				before, beforeConvs := spent(), convs()
				got := toolOK(t, cs, "preview_reply", map[string]any{"message": "Do you deliver?"})
				if got.str("reply") == "" {
					t.Errorf("preview_reply: %v, want a reply", got)
				}
				if after := spent(); after != before+1 {
					t.Errorf("interactions spent %v after preview_reply, want %v", after, before+1)
				}
				bad := map[string]any{"message": ""}
				sameError(t, toolError(t, cs, "preview_reply", bad), postChat(t, api, a.key, bad), http.StatusBadRequest)
				if after := spent(); after != before+1 {
					t.Errorf("interactions spent %v after a refused preview_reply, want %v", after, before+1)
				}
				if n := convs(); n != beforeConvs {
					t.Errorf("%d conversations after preview_reply, want %d (none stored)", n, beforeConvs)
				}
			})

			t.Run("conversations", func(t *testing.T) {
				toolOK(t, cs, "list_conversations", map[string]any{"limit": 5})
				e := toolError(t, cs, "get_conversation", map[string]any{"conversation_id": "conv-other"})
				sameError(t, e, call(t, "GET", api.URL()+"/v1/conversations/conv-other", bearer(a.key)...), http.StatusNotFound)
				if e := toolError(t, cs, "list_conversations", map[string]any{"channel": "fax"}); e.str("error.param") != "channel" {
					t.Errorf("list_conversations channel fax: %v", e)
				}
			})

			t.Run("conversions and webhooks", func(t *testing.T) {
				toolOK(t, cs, "report_conversion", map[string]any{"kind": "sale", "amount": 12.5, "currency": "EUR"})
				bad := map[string]any{"amount": 3}
				sameError(t, toolError(t, cs, "report_conversion", bad), callJSON(t, "POST", api.URL()+"/v1/conversions", bad, bearer(a.key)...), http.StatusBadRequest)
				list := toolOK(t, cs, "list_conversions", nil)
				if b, _ := json.Marshal(list); !strings.Contains(string(b), "EUR") {
					t.Errorf("list_conversions %s, want the sale reported", b)
				}
				if e := toolError(t, cs, "list_conversions", map[string]any{"from": "2026-11-01"}); e.str("error.param") != "from" {
					t.Errorf("list_conversions with from only: %v", e)
				}
				receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
				t.Cleanup(receiver.Close)
				hook := callJSON(t, "POST", api.URL()+"/v1/webhooks", map[string]any{"url": receiver.URL + "/hook", "events": []string{"*"}}, bearer(a.key)...)
				if hook.status != http.StatusCreated {
					t.Fatalf("POST /v1/webhooks: %s", hook)
				}
				hooks := toolOK(t, cs, "list_webhooks", nil)
				if b, _ := json.Marshal(hooks); !strings.Contains(string(b), hook.body.str("id")) || strings.Contains(string(b), "secret") {
					t.Errorf("list_webhooks %s, want the webhook without its secret", b)
				}
				if got := toolOK(t, cs, "test_webhook", map[string]any{"webhook_id": hook.body.str("id")}); got["delivered"] != true {
					t.Errorf("test_webhook: %v, want delivered", got)
				}
				sameError(t, toolError(t, cs, "test_webhook", map[string]any{"webhook_id": "wh_nothere"}),
					call(t, "POST", api.URL()+"/v1/webhooks/wh_nothere/test", bearer(a.key)...), http.StatusNotFound)
				toolOK(t, cs, "get_usage", nil)
				if e := toolError(t, cs, "get_usage", map[string]any{"from": "yesterday"}); e.str("error.param") != "from" {
					t.Errorf("get_usage from yesterday: %v", e)
				}
			})

			t.Run("resources", func(t *testing.T) {
				ctx := context.Background()
				templates, err := cs.ListResourceTemplates(ctx, nil)
				if err != nil || len(templates.ResourceTemplates) != 2 {
					t.Fatalf("resources/templates/list: %v %v, want the pages and conversations", templates, err)
				}
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "svc://knowledge/faq"})
				if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Do you deliver?") {
					t.Fatalf("read svc://knowledge/faq: %v %v, want the FAQ added", res, err)
				}
				res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "svc://knowledge/pages/1"})
				if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"passages":["`) {
					t.Fatalf("read svc://knowledge/pages/1: %v %v, want the page's passages", res, err)
				}
				for _, uri := range []string{"svc://knowledge/pages/99", "svc://conversations/conv-other"} {
					if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
						t.Errorf("read %s: %v, want not found", uri, err)
					}
				}
			})

			// A free account has no web channels until a key of it completes an MCP initialize:
			// then it has them, and the bonus interactions on top of its plan, shown in GET
			// /v1/account; the owner is told once. The operator can switch the bonus off, and
			// another initialize does not turn it on again.
			t.Run("developer bonus", func(t *testing.T) {
				free := s.newAccount(t, "--plan", "free")
				wantError(t, postChat(t, api, free.key, map[string]any{"message": "Hello"}), http.StatusPaymentRequired, "plan_required")
				before := call(t, "GET", api.URL()+"/v1/account", bearer(free.key)...)
				wantFieldsOf(t, "GET /v1/account before MCP", before.body, map[string]any{
					"developer_bonus.active": false, "developer_bonus.since": nil, "developer_bonus.client": nil,
					"developer_bonus.interactions": 0, "web_channels": false, "usage.interactions_limit": 100})

				fs := connectMCP(t, api, free.key)
				after := call(t, "GET", api.URL()+"/v1/account", bearer(free.key)...)
				wantFieldsOf(t, "GET /v1/account after MCP initialize", after.body, map[string]any{
					"developer_bonus.active": true, "developer_bonus.client": "svc-e2e 1.2.3",
					"developer_bonus.interactions": 100, "web_channels": true, "usage.interactions_limit": 200})
				if since, err := time.Parse(time.RFC3339, after.body.str("developer_bonus.since")); err != nil || time.Since(since) > time.Hour {
					t.Errorf("developer_bonus.since %q, want the time of the initialize", after.body.str("developer_bonus.since"))
				}
				toolOK(t, fs, "get_agent", nil)
				configureAgent(t, api, free.key)
				loadBrain(t, api, free.key)
				wantCompleted(t, postChat(t, api, free.key, map[string]any{"message": "Do you sell sourdough?", "conversation_id": "conv-bonus"}), "conv-bonus")

				connectMCP(t, api, free.key) // a second initialize: nothing new
				r := call(t, "GET", api.URL()+"/v1/notifications", bearer(free.key)...)
				if n := strings.Count(string(r.raw), "developer_bonus.active"); r.status != http.StatusOK || n != 1 {
					t.Errorf("GET /v1/notifications: %d developer bonus notifications, want 1: %s", n, r)
				}

				ctl(t, s.env, "account", "set-plan", "--account", free.id, "--developer-bonus=false")
				connectMCP(t, api, free.key)
				off := call(t, "GET", api.URL()+"/v1/account", bearer(free.key)...)
				wantFieldsOf(t, "GET /v1/account with the bonus switched off", off.body, map[string]any{
					"developer_bonus.active": false, "developer_bonus.client": "svc-e2e 1.2.3", "web_channels": false})
				fs = connectMCP(t, api, free.key)
				toolOK(t, fs, "get_account", nil)
				sameError(t, toolError(t, fs, "get_agent", nil), call(t, "GET", api.URL()+"/v1/agent", bearer(free.key)...), http.StatusPaymentRequired)
			})

			t.Run("authentication", func(t *testing.T) {
				initialize := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
					"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "x", "version": "1"}}}
				token := createSession(t, api, other.key, map[string]any{"conversation_id": "conv-mcp"}).str("token")
				for _, h := range [][]string{nil, bearer("svc_live_" + randomHex(t, 32)), bearer(token), bearer(other.widgetToken)} {
					r := callJSON(t, "POST", api.URL()+"/mcp", initialize, append(h, "Accept", "application/json, text/event-stream")...)
					wantError(t, r, http.StatusUnauthorized, "unauthorized")
					if got := r.header.Get("WWW-Authenticate"); got != "Bearer" {
						t.Errorf("WWW-Authenticate %q, want Bearer", got)
					}
				}
			})

			// The per-key limit counts each MCP request: within one minute, a key's calls past
			// the limit fail cleanly with 429 and the envelope, and the REST routes of the same
			// key are refused alike.
			t.Run("rate limit", func(t *testing.T) {
				limited := s.newAccount(t)
				ls := connectMCP(t, api, limited.key)
				var err error
				for i := 0; i < 200 && err == nil; i++ {
					_, err = ls.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_account"})
				}
				if err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
					t.Fatalf("200 calls: %v, want the per-key limit's 429", err)
				}
				wantError(t, call(t, "GET", api.URL()+"/v1/account", bearer(limited.key)...), http.StatusTooManyRequests, "rate_limited")
			})
		})
	}
}
