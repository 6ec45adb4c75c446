package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
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

// toolOK returns the structured result of a call that must succeed, checked by checkResult.
func toolOK(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) obj {
	t.Helper()
	res := callTool(t, cs, name, args)
	if res.IsError {
		t.Fatalf("tools/call %s %v: tool error %s", name, args, toolText(res))
	}
	return checkResult(t, cs, name, res)
}

// mcpRoutes are the REST routes the tools stand for: the method, a path and the status of a
// success. search_knowledge and preview_reply have none.
var mcpRoutes = map[string]struct {
	method, path string
	status       int
}{
	"get_account": {"GET", "/v1/account", 200}, "get_agent": {"GET", "/v1/agent", 200},
	"update_agent": {"PATCH", "/v1/agent", 200}, "update_appearance": {"PATCH", "/v1/agent/appearance", 200},
	"get_knowledge": {"GET", "/v1/knowledge", 200}, "add_faq": {"POST", "/v1/knowledge/faq", 200},
	"replace_pages": {"PUT", "/v1/knowledge/pages", 200}, "crawl_site": {"POST", "/v1/knowledge/crawl", 200},
	"list_conversations": {"GET", "/v1/conversations", 200}, "get_conversation": {"GET", "/v1/conversations/conv-x", 200},
	"report_conversion": {"POST", "/v1/conversions", 201}, "list_conversions": {"GET", "/v1/conversions", 200},
	"list_webhooks": {"GET", "/v1/webhooks", 200}, "test_webhook": {"POST", "/v1/webhooks/wh_x/test", 200},
	"get_usage": {"GET", "/v1/usage", 200}, "assistant": {"POST", "/v1/assistant", 200},
}

// outputSchemas are the output schemas tools/list gave, by session and tool.
var outputSchemas sync.Map // *mcp.ClientSession → map[string]*jsonschema.Resolved

// checkResult checks a successful tool result: its text is its structured content, which
// matches the tool's output schema and, for a tool of a REST route, the schema openapi.json gives
// that route's answer. It returns the structured content.
func checkResult(t testing.TB, cs *mcp.ClientSession, name string, res *mcp.CallToolResult) obj {
	t.Helper()
	var out obj
	if err := json.Unmarshal([]byte(toolText(res)), &out); err != nil {
		t.Fatalf("tools/call %s: content %q is not a JSON object: %v", name, toolText(res), err)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var sc any
	if err := json.Unmarshal(structured, &sc); err != nil || !reflect.DeepEqual(sc, map[string]any(out)) {
		t.Errorf("tools/call %s: structured content %s, want the text %s", name, structured, toolText(res))
	}
	schemas, ok := outputSchemas.Load(cs)
	if !ok {
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		m := map[string]*jsonschema.Resolved{}
		for _, tool := range list.Tools {
			raw, _ := json.Marshal(tool.OutputSchema)
			var sch jsonschema.Schema
			if err := json.Unmarshal(raw, &sch); err != nil || tool.OutputSchema == nil {
				t.Fatalf("tool %s: output schema %s: %v", tool.Name, raw, err)
			}
			r, err := sch.Resolve(nil)
			if err != nil {
				t.Fatalf("tool %s: output schema %s does not resolve: %v", tool.Name, raw, err)
			}
			m[tool.Name] = r
		}
		schemas, _ = outputSchemas.LoadOrStore(cs, m)
	}
	if err := schemas.(map[string]*jsonschema.Resolved)[name].Validate(sc); err != nil {
		t.Errorf("tools/call %s: result %s does not match the tool's output schema: %v", name, structured, err)
	}
	if route, ok := mcpRoutes[name]; ok {
		req := httptest.NewRequest(route.method, "http://svc.test"+route.path, nil)
		resp := &http.Response{StatusCode: route.status, Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			Body: io.NopCloser(bytes.NewReader(structured)), Request: req}
		if ok, errs := contract.v.ValidateHttpResponse(req, resp); !ok {
			t.Errorf("tools/call %s: result is not the answer of %s %s openapi.json describes: %s\nresult: %s",
				name, route.method, route.path, describe(errs), structured)
		}
	}
	return out
}

// sameBody checks that a tool's result is the REST answer: the same fields (values that change
// between two reads, times and usage, aside).
func sameBody(t testing.TB, tool obj, rest response) {
	t.Helper()
	if rest.status != http.StatusOK || rest.body == nil {
		t.Fatalf("REST answer %s, want 200", rest)
	}
	got, want := slices.Sorted(maps.Keys(tool)), slices.Sorted(maps.Keys(rest.body))
	if !slices.Equal(got, want) || tool.str("object") != rest.body.str("object") {
		t.Errorf("tool result fields %v (object %q), REST answer's %v (object %q)", got, tool.str("object"), want, rest.body.str("object"))
	}
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

// toolError returns the error envelope of a call that must fail as a tool error. The envelope is
// the result's text only: a tool error carries no structured content, which would have to match
// the tool's outputSchema (the official TypeScript SDK's client checks it on errors too, and
// throws a protocol error in place of the result when it does not).
func toolError(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) obj {
	t.Helper()
	res := callTool(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("tools/call %s %v: %s, want isError", name, args, toolText(res))
	}
	if res.StructuredContent != nil {
		t.Errorf("tools/call %s %v: a tool error with structured content %v, want none (it does not match the tool's outputSchema)", name, args, res.StructuredContent)
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
	for _, f := range []string{"error.code", "error.message", "error.param", "error.upgrade_url", "error.type"} {
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
				// An argument the route cannot do without is required in the tool's input schema, as
				// MCP clients and the models behind them read it; one the route can do without is not.
				wantRequired := map[string][]string{"search_knowledge": {"query"}, "add_faq": {"items"}, "replace_pages": {"pages"},
					"crawl_site": {"url"}, "get_conversation": {"conversation_id"}, "preview_reply": {"message"},
					"report_conversion": {"kind"}, "test_webhook": {"webhook_id"}}
				for _, tool := range res.Tools {
					var sch struct {
						Required   []string                   `json:"required"`
						Properties map[string]json.RawMessage `json:"properties"`
					}
					raw, _ := json.Marshal(tool.InputSchema)
					if err := json.Unmarshal(raw, &sch); err != nil {
						t.Fatalf("tool %s input schema %s: %v", tool.Name, raw, err)
					}
					if got, want := slices.Sorted(slices.Values(sch.Required)), wantRequired[tool.Name]; !slices.Equal(got, want) {
						t.Errorf("tool %s: required %v, want %v", tool.Name, got, want)
					}
				}
				// The assistant's input is text written by someone else, read as data (spec 4.7), not
				// another name of message.
				i := slices.IndexFunc(res.Tools, func(x *mcp.Tool) bool { return x.Name == "assistant" })
				raw, _ := json.Marshal(res.Tools[i].InputSchema)
				var asch struct {
					Properties map[string]struct {
						Description string `json:"description"`
					} `json:"properties"`
				}
				_ = json.Unmarshal(raw, &asch)
				if d := asch.Properties["input"].Description; !strings.Contains(d, "data") || strings.Contains(d, "another name") {
					t.Errorf("assistant input described %q, want text read as data, never orders (spec 4.7)", d)
				}
			})

			t.Run("account", func(t *testing.T) {
				got := toolOK(t, cs, "get_account", nil)
				sameBody(t, got, call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...))
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
				sameBody(t, toolOK(t, cs, "get_agent", nil), call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...))
				if got := toolOK(t, cs, "get_agent", nil); got.str("appearance.name") != "Lu" || got.str("appearance.avatar_url") != "" {
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
				sameBody(t, k, call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...))
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
				if got.str("status") == "" || got.str("object") != "assistant_reply" {
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
				out := checkResult(t, ps, "crawl_site", res)
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
				wantCompleted(t, postChat(t, api, a.key, map[string]any{"message": "Do you deliver?", "conversation_id": "conv-mine"}), "conv-mine")
				list := toolOK(t, cs, "list_conversations", map[string]any{"limit": 5})
				sameBody(t, list, call(t, "GET", api.URL()+"/v1/conversations?limit=5", bearer(a.key)...))
				if list.str("object") != "list" || !strings.Contains(list.String(), "conv-mine") || strings.Contains(list.String(), "conv-other") {
					t.Errorf("list_conversations: %v, want this account's conversation only", list)
				}
				thread := toolOK(t, cs, "get_conversation", map[string]any{"conversation_id": "conv-mine"})
				sameBody(t, thread, call(t, "GET", api.URL()+"/v1/conversations/conv-mine", bearer(a.key)...))
				if msgs, _ := thread.get("messages"); len(msgs.([]any)) != 2 {
					t.Errorf("get_conversation: %v, want the message and the reply", thread)
				}
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
				sameBody(t, list, call(t, "GET", api.URL()+"/v1/conversions", bearer(a.key)...))
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
				sameBody(t, hooks, call(t, "GET", api.URL()+"/v1/webhooks", bearer(a.key)...))
				if b, _ := json.Marshal(hooks); !strings.Contains(string(b), hook.body.str("id")) || strings.Contains(string(b), "secret") {
					t.Errorf("list_webhooks %s, want the webhook without its secret", b)
				}
				if got := toolOK(t, cs, "test_webhook", map[string]any{"webhook_id": hook.body.str("id")}); got["delivered"] != true {
					t.Errorf("test_webhook: %v, want delivered", got)
				}
				sameError(t, toolError(t, cs, "test_webhook", map[string]any{"webhook_id": "wh_nothere"}),
					call(t, "POST", api.URL()+"/v1/webhooks/wh_nothere/test", bearer(a.key)...), http.StatusNotFound)
				sameBody(t, toolOK(t, cs, "get_usage", nil), call(t, "GET", api.URL()+"/v1/usage", bearer(a.key)...))
				if e := toolError(t, cs, "get_usage", map[string]any{"from": "yesterday"}); e.str("error.param") != "from" {
					t.Errorf("get_usage from yesterday: %v", e)
				}
			})

			// Arguments of the wrong type, unknown or missing fail as the REST route fails for the
			// same body or the same query: a tool error with the route's code, message and param.
			t.Run("bad arguments", func(t *testing.T) {
				a := s.newAccount(t) // its own key: the per-key limit of a is the other subtests'
				cs := connectMCP(t, api, a.key)
				for _, tt := range []struct {
					tool         string
					args         map[string]any
					method, path string
				}{
					{"update_agent", map[string]any{"business_name": 5}, "PATCH", "/v1/agent"},
					{"update_agent", map[string]any{"languages": "en"}, "PATCH", "/v1/agent"},
					{"update_agent", map[string]any{"Business_name": "x"}, "PATCH", "/v1/agent"},
					{"update_appearance", map[string]any{"greeting": []string{"hi"}}, "PATCH", "/v1/agent/appearance"},
					{"add_faq", map[string]any{"items": "Do you deliver?"}, "POST", "/v1/knowledge/faq"},
					{"add_faq", map[string]any{"items": []map[string]any{{"question": 1, "answer": "a"}}}, "POST", "/v1/knowledge/faq"},
					{"add_faq", map[string]any{}, "POST", "/v1/knowledge/faq"},
					{"replace_pages", map[string]any{"pages": []any{"https://a.test/"}}, "PUT", "/v1/knowledge/pages"},
					{"crawl_site", map[string]any{"url": site.URL(), "max_pages": "3"}, "POST", "/v1/knowledge/crawl"},
					{"crawl_site", map[string]any{}, "POST", "/v1/knowledge/crawl"},
					{"report_conversion", map[string]any{"kind": 1}, "POST", "/v1/conversions"},
					{"report_conversion", map[string]any{"kind": "sale", "amount": "12"}, "POST", "/v1/conversions"},
					{"report_conversion", map[string]any{}, "POST", "/v1/conversions"},
					{"assistant", map[string]any{"message": "hello", "mode": 3}, "POST", "/v1/assistant"},
					{"assistant", map[string]any{"message": "hello\u0000"}, "POST", "/v1/assistant"},
					{"assistant", map[string]any{"mode": "ask"}, "POST", "/v1/assistant"},
				} {
					tool := toolError(t, cs, tt.tool, tt.args)
					sameError(t, tool, callJSON(t, tt.method, api.URL()+tt.path, tt.args, bearer(a.key)...), http.StatusBadRequest)
				}
				for _, tt := range []struct {
					tool  string
					args  map[string]any
					query string
				}{
					{"list_conversations", map[string]any{"limit": "abc"}, "/v1/conversations?limit=abc"},
					{"list_conversations", map[string]any{"limit": 0}, "/v1/conversations?limit=0"},
					{"list_conversations", map[string]any{"limit": 2.5}, "/v1/conversations?limit=2.5"},
					{"list_conversations", map[string]any{"channel": true}, "/v1/conversations?channel=true"},
					{"list_conversations", map[string]any{"cursor": "nope"}, "/v1/conversations?cursor=nope"},
					{"list_conversions", map[string]any{"from": 20261101, "to": "2026-12-01"}, "/v1/conversions?from=20261101&to=2026-12-01"},
					{"list_conversions", map[string]any{"to": "2026-12-01"}, "/v1/conversions?to=2026-12-01"},
					{"get_usage", map[string]any{"from": false}, "/v1/usage?from=false"},
					{"get_usage", map[string]any{"to": "tomorrow"}, "/v1/usage?to=tomorrow"},
				} {
					tool := toolError(t, cs, tt.tool, tt.args)
					sameError(t, tool, call(t, "GET", api.URL()+tt.query, bearer(a.key)...), http.StatusBadRequest)
				}
				for _, args := range []map[string]any{{"limit": []int{5}}, {"limit": map[string]any{"n": 5}}, {"page": 2}} {
					if e := toolError(t, cs, "list_conversations", args); e.str("error.code") != "invalid_request" || e.str("error.param") == "" {
						t.Errorf("list_conversations %v: %v, want invalid_request naming the argument", args, e)
					}
				}
				if e := toolError(t, cs, "get_agent", map[string]any{"x": 1}); e.str("error.param") != "x" {
					t.Errorf("get_agent with an argument: %v, want it refused", e)
				}
			})

			// Cancelling a crawl_site call (the client's notifications/cancelled) stops the crawl:
			// the site's pending requests are dropped, and nothing is stored.
			t.Run("crawl cancelled", func(t *testing.T) {
				a := s.newAccount(t)
				slow := newSlowSite(t)
				before := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				ps := connectMCPWith(t, api, a.key, &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
					cancel() // the first page is read: the person cancels
				}})
				params := &mcp.CallToolParams{Name: "crawl_site", Arguments: map[string]any{"url": slow.URL + "/", "max_pages": 10}}
				params.SetProgressToken("crawl-cancel")
				// The client stops waiting, or gets the answer the server gave the cancelled call.
				res, err := ps.CallTool(ctx, params)
				if !errors.Is(err, context.Canceled) && (err != nil || !res.IsError || !strings.Contains(toolText(res), "cancelled")) {
					t.Fatalf("crawl_site cancelled: %v %s, want the call cancelled", err, toolText(res))
				}
				if !slow.settled() {
					t.Fatal("the crawl went on: a slow page's request was never dropped")
				}
				after := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
				if strings.Contains(string(after.raw), slow.URL) || after.body.str("version") != before.body.str("version") {
					t.Errorf("GET /v1/knowledge after a cancelled crawl: %s, want it unchanged (%s)", after, before)
				}
			})

			// A needs_approval reply of the assistant asks the person, where the client can
			// (elicitation), to confirm the exact actions: an accept runs them as the REST
			// approval does; a decline leaves them pending and gives the approval id. A client
			// without the capability gets the approval id (the assistant subtest).
			t.Run("assistant approval by elicitation", func(t *testing.T) {
				a := s.newAccount(t)
				configureAgent(t, api, a.key)
				cs := connectMCP(t, api, a.key)
				var mu sync.Mutex
				var asked []string
				answer := "decline"
				es := connectMCPWith(t, api, a.key, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					defer mu.Unlock()
					asked = append(asked, req.Params.Message)
					return &mcp.ElicitResult{Action: answer}, nil
				}})
				tone := func() string { return call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...).body.str("tone") }
				instruction := map[string]any{"message": "change the tone to formal", "mode": "do"}
				toneBefore := tone()
				declined := toolOK(t, es, "assistant", instruction)
				if declined.str("status") != "needs_approval" || !strings.HasPrefix(declined.str("approval.id"), "apr_") || tone() != toneBefore {
					t.Fatalf("declined: %v (tone %q), want needs_approval with the approval id, nothing done", declined, tone())
				}
				mu.Lock()
				if len(asked) != 1 || !strings.Contains(asked[0], declined.str("approval.id")) || !strings.Contains(asked[0], `"type":"settings"`) || !strings.Contains(asked[0], "formal") {
					t.Errorf("elicitation messages %q, want one with the approval's exact actions", asked)
				}
				answer = "accept"
				mu.Unlock()
				accepted := toolOK(t, es, "assistant", instruction)
				if accepted.str("status") != "completed" || accepted.str("approval.id") != "" || tone() != "formal" {
					t.Errorf("accepted: %v (tone %q), want the approval run: completed, the tone formal", accepted, tone())
				}
				if acts, _ := accepted.get("actions"); len(acts.([]any)) != 1 || strings.Contains(accepted.String(), `"ok":false`) {
					t.Errorf("accepted: actions %v, want the one action done", acts)
				}
				// The declined approval is still pending: the REST route runs it (and finds the tone
				// already formal).
				r := callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"approve": declined.str("approval.id")}, bearer(a.key)...)
				if r.status != http.StatusOK || !strings.Contains(string(r.raw), `"setting":"tone"`) || !strings.Contains(string(r.raw), `"error":"no_change"`) {
					t.Errorf("REST approve of the declined approval: %s, want it run", r)
				}
				plain := toolOK(t, cs, "assistant", map[string]any{"message": "change the tone to formal", "mode": "do"})
				if plain.str("status") != "needs_approval" || !strings.HasPrefix(plain.str("approval.id"), "apr_") {
					t.Errorf("without elicitation: %v, want needs_approval with the approval id", plain)
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
				// A conversation's resource, by its id as list_conversations gives it: ids may hold
				// ':' and '@' (a messaging contact's whatsapp:<wa_id>, a caller's key), which a
				// client expanding the template may also send percent-encoded.
				const convID = "mcp-res:ana@shop.example"
				if r := postChat(t, api, a.key, map[string]any{"message": "Do you deliver?", "conversation_id": convID}); r.status != http.StatusOK {
					t.Fatalf("chat: %s", r)
				}
				for _, uri := range []string{"svc://conversations/" + convID, "svc://conversations/mcp-res%3Aana%40shop.example"} {
					res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
					if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"id":"`+convID+`"`) {
						t.Errorf("read %s: %v %v, want the conversation %s", uri, res, err, convID)
					}
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

			// A session is its key's: another key naming it finds no session (404 not_found, the
			// envelope, which tells an MCP client to initialize again), as a GET of its stream
			// does; the session goes on for its own key.
			t.Run("another key's session", func(t *testing.T) {
				ping := map[string]any{"jsonrpc": "2.0", "id": 9, "method": "ping"}
				for _, r := range []response{
					callJSON(t, "POST", api.URL()+"/mcp", ping, append(bearer(other.key), "Accept", "application/json, text/event-stream",
						"Mcp-Session-Id", cs.ID(), "MCP-Protocol-Version", "2025-06-18")...),
					call(t, "GET", api.URL()+"/mcp", append(bearer(other.key), "Accept", "text/event-stream", "Mcp-Session-Id", cs.ID())...),
					call(t, "DELETE", api.URL()+"/mcp", append(bearer(other.key), "Mcp-Session-Id", cs.ID())...),
				} {
					wantError(t, r, http.StatusNotFound, "not_found")
				}
				toolOK(t, cs, "get_account", nil)
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

// slowSite is a loopback site whose home page links to pages that never answer: a request for
// one is held until the client drops it; the site counts those requests and the dropped ones.
type slowSite struct {
	URL     string
	started atomic.Int32 // requests for a page that never answers
	dropped atomic.Int32 // of those, the ones the client gave up
}

// settled waits until the crawl of the site has stopped: every page request it started was
// dropped, or none was started within a few seconds (the cancel came between two pages). It
// reports false when a request is still waiting after a minute: the crawl went on.
func (s *slowSite) settled() bool {
	quiet := time.Now().Add(5 * time.Second)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		started := s.started.Load()
		if started > 0 && s.dropped.Load() == started || started == 0 && time.Now().After(quiet) {
			return true
		}
	}
	return false
}

func newSlowSite(t testing.TB) *slowSite {
	t.Helper()
	s := &slowSite{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			var links strings.Builder
			for i := 1; i <= 9; i++ {
				fmt.Fprintf(&links, `<p><a href="/page%d">Page %d</a></p>`, i, i)
			}
			fmt.Fprintf(w, `<html><head><title>Slow bakery</title></head><body><main><h1>Slow bakery</h1>
<p>We bake sourdough bread every morning and sell it until it runs out. Our shop is open from 8am to 6pm.</p>
<p>Every loaf rises for a whole night before it goes into the wood oven at dawn. We also bake rye bread, croissants
and a seasonal fruit cake, and we deliver to cafés in the neighbourhood before nine.</p>%s</main></body></html>`, links.String())
		case "/robots.txt", "/sitemap.xml":
			http.NotFound(w, r)
		default:
			s.started.Add(1)
			<-r.Context().Done()
			s.dropped.Add(1)
		}
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}
