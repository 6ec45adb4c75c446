package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The website chat widget, end to end on both stacks: the settings (snippets for every framework,
// domains, style), the script, the public endpoints with their domain lock, CORS and limits, the
// web channel in conversations and events, the switch and plan rules, and the widget token being
// useless on every /v1 route.

const (
	shopOrigin  = "https://www.shop.test"
	evilOrigin  = "https://evil.test"
	visitorA    = "0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21"
	visitorB    = "5f0e2d1c-9b8a-4765-a432-10fedcba9876"
	gfAnswerBit = "baked every Friday"
)

func widgetAPI(api *proc, token, path string) string {
	return api.URL() + "/widget/api/" + token + path
}

func TestWidget(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t, viaProxy...)
			db := openChatStore(t, s)
			a := s.newAccount(t, "--plan", "pro")
			if !regexp.MustCompile(`^wt_\w+$`).MatchString(a.widgetToken) {
				t.Fatalf("widget token %q", a.widgetToken)
			}
			configureAgent(t, api, a.key)
			loadBrain(t, api, a.key)
			key := bearer(a.key)

			t.Run("snippets", func(t *testing.T) { checkSnippets(t, api, a) })
			t.Run("script", func(t *testing.T) { checkScript(t, api) })

			// Style: saved, checked, and shown to the widget.
			r := callJSON(t, "PATCH", api.URL()+"/v1/widget/style", map[string]any{"theme": "dark", "accent": "#0A8", "position": "right"}, key...)
			if r.status != http.StatusOK || r.body.str("style.theme") != "dark" || r.body.str("style.accent") != "#00aa88" || r.body.str("style.position") != "right" {
				t.Fatalf("PATCH /v1/widget/style: %s", r)
			}
			wantError(t, callJSON(t, "PATCH", api.URL()+"/v1/widget/style", map[string]any{"theme": "light", "accent": "teal"}, key...), 400, "invalid_request")
			wantError(t, callJSON(t, "PATCH", api.URL()+"/v1/widget/style", map[string]any{"drag": "yes"}, key...), 400, "invalid_request")

			// Any domain until a list is saved.
			r = call(t, "GET", widgetAPI(api, a.widgetToken, "/info"), "Origin", evilOrigin)
			if r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != evilOrigin {
				t.Fatalf("info with no domain lock: %s %v", r, r.header)
			}
			if r.body.str("object") != "widget_info" || r.body.str("name") != chatBusiness || r.body.str("style.theme") != "dark" {
				t.Errorf("info: %s", r)
			}

			// Domains: normalised, shown in the account, enforced by the server.
			r = callJSON(t, "PUT", api.URL()+"/v1/widget/domains", map[string]any{"domains": []string{"https://Shop.test/", "*.SHOP.test", "shop.test:443"}}, key...)
			if got := fmt.Sprint(r.body["allowed_domains"]); r.status != http.StatusOK || got != "[shop.test *.shop.test]" {
				t.Fatalf("PUT /v1/widget/domains: %s", r)
			}
			r = callJSON(t, "PUT", api.URL()+"/v1/widget/domains", map[string]any{"domains": []string{"shop.test", "not a host"}}, key...)
			wantError(t, r, 400, "invalid_request")
			if r.body.str("error.param") != "domains[1]" {
				t.Errorf("bad domain: param %q, want domains[1]", r.body.str("error.param"))
			}
			wantError(t, callJSON(t, "PUT", api.URL()+"/v1/widget/domains", map[string]any{}, key...), 400, "invalid_request")
			if r := call(t, "GET", api.URL()+"/v1/account", key...); fmt.Sprint(r.body["allowed_domains"]) != "[shop.test *.shop.test]" {
				t.Errorf("GET /v1/account allowed_domains after a refused change: %s", r)
			}
			checkDomainLock(t, api, a)

			// A visitor chats: the same agent, on the web channel.
			before := accountUsage(t, api, a.key)
			r = callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": gfQuestion, "visitor_id": visitorA}, "Origin", shopOrigin)
			if r.status != http.StatusOK || r.body.str("status") != "completed" || !strings.Contains(r.body.str("reply"), gfAnswerBit) ||
				r.body.str("conversation_id") != visitorA || r.header.Get("Access-Control-Allow-Origin") != shopOrigin {
				t.Fatalf("widget chat: %s %v", r, r.header)
			}
			if _, leaked := r.body["usage"]; leaked {
				t.Errorf("the widget's reply shows the account's usage: %s", r)
			}
			if got := accountUsage(t, api, a.key); got != before+1 {
				t.Errorf("interactions spent %v after one widget reply, want %v", got, before+1)
			}
			replyID := r.body.str("message_id")
			waitFor(t, httpTimeout, "message.replied of the widget reply", func() (bool, string) {
				for _, e := range db.events(t, a.id, "message.replied") {
					d, _ := e["data"].(map[string]any)
					if d["contact_id"] == "web:"+visitorA {
						return d["channel"] == "web" && d["customer_message"] == gfQuestion && strings.Contains(fmt.Sprint(d["reply"]), gfAnswerBit), e.String()
					}
				}
				return false, "no event of web:" + visitorA
			})

			// The visitor's own messages only.
			r = call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorA), "Origin", shopOrigin)
			msgs := listOf(r.body, "messages")
			if r.status != http.StatusOK || r.body.str("contact_id") != "web:"+visitorA || len(msgs) != 2 || msgs[1].str("id") != replyID {
				t.Fatalf("the visitor's messages: %s", r)
			}
			r = call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorB), "Origin", shopOrigin)
			if r.status != http.StatusOK || len(listOf(r.body, "messages")) != 0 {
				t.Errorf("another visitor sees %s", r)
			}
			wantError(t, call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id=conv_1"), "Origin", shopOrigin), 400, "invalid_request")
			// An API conversation whose id is a uuid is never a visitor's.
			if r := postChat(t, api, a.key, map[string]any{"message": "Hello", "conversation_id": visitorB}); r.status != http.StatusOK {
				t.Fatalf("API chat: %s", r)
			}
			if r := call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorB), "Origin", shopOrigin); len(listOf(r.body, "messages")) != 0 {
				t.Errorf("a visitor reads an API conversation: %s", r)
			}
			r = callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": "Hi", "visitor_id": visitorB}, "Origin", shopOrigin)
			wantError(t, r, 400, "invalid_request")
			// Nor does the API join a visitor's conversation, by POST /v1/chat or through a client
			// session: the visitor's words would be the caller's, and the reply's message.replied
			// would name the web channel for a reply made through the API (spec part 6).
			for _, r := range []response{
				postChat(t, api, a.key, map[string]any{"message": "Hello", "conversation_id": visitorA}),
				callJSON(t, "POST", api.URL()+"/v1/sessions", map[string]any{"conversation_id": visitorA}, key...),
			} {
				wantError(t, r, 400, "invalid_request")
				if r.body.str("error.param") != "conversation_id" {
					t.Errorf("the API on a visitor's conversation: param %q, want conversation_id", r.body.str("error.param"))
				}
			}
			if r := call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorA), "Origin", shopOrigin); len(listOf(r.body, "messages")) != 2 {
				t.Errorf("the visitor's conversation after the API's refused messages: %s", r)
			}

			// The owner sees the web conversation.
			conv := getConversation(t, api, a.key, visitorA)
			if conv.str("channel") != "web" || conv.str("contact_id") != "web:"+visitorA {
				t.Errorf("GET /v1/conversations/%s: %s", visitorA, conv)
			}
			r = call(t, "GET", api.URL()+"/v1/conversations?channel=web", key...)
			if list := listOf(r.body, "data"); r.status != http.StatusOK || len(list) != 1 || list[0].str("contact_id") != "web:"+visitorA {
				t.Errorf("GET /v1/conversations?channel=web: %s", r)
			}
			if r := call(t, "GET", api.URL()+"/v1/conversations", key...); len(listOf(r.body, "data")) != 2 {
				t.Errorf("GET /v1/conversations: %s, want the web and the API conversation", r)
			}
			wantError(t, call(t, "GET", api.URL()+"/v1/conversations?channel=owner", key...), 400, "invalid_request")

			// Bad visitor input costs nothing.
			spent := accountUsage(t, api, a.key)
			for _, body := range []map[string]any{
				{"message": "Hi"},
				{"message": "Hi", "visitor_id": strings.ToUpper(visitorA)},
				{"message": " ", "visitor_id": visitorA},
				{"message": "Hi", "visitor_id": visitorA, "usage": true},
			} {
				wantError(t, callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), body, "Origin", shopOrigin), 400, "invalid_request")
			}

			// The web channel switched off: 503, nothing charged; the API still answers.
			if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"channels": map[string]any{"web": false}}, key...); r.status != http.StatusOK {
				t.Fatalf("PATCH /v1/agent channels.web=false: %s", r)
			}
			r = callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": gfQuestion, "visitor_id": visitorA}, "Origin", shopOrigin)
			wantError(t, r, 503, "agent_unavailable")
			if r.header.Get("Access-Control-Allow-Origin") != shopOrigin {
				t.Errorf("the allowed page cannot read the 503: %v", r.header)
			}
			if got := accountUsage(t, api, a.key); got != spent {
				t.Errorf("interactions spent went from %v to %v with the web channel off", spent, got)
			}
			if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"channels": map[string]any{"web": true}}, key...); r.status != http.StatusOK {
				t.Fatalf("PATCH /v1/agent channels.web=true: %s", r)
			}

			// One visitor's limit (30 a minute) leaves the others theirs.
			limited := false
			for i := 0; i < 40 && !limited; i++ {
				r = call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorA), "Origin", shopOrigin)
				limited = r.status == http.StatusTooManyRequests
			}
			if !limited {
				t.Fatalf("40 reads of one visitor within a minute were never limited")
			}
			wantError(t, r, 429, "rate_limited")
			if r := call(t, "GET", widgetAPI(api, a.widgetToken, "/messages?visitor_id="+visitorB), "Origin", shopOrigin); r.status != http.StatusOK {
				t.Errorf("another visitor after one was limited: %s", r)
			}

			// A free plan: 402 plan_required, as for the API.
			free := s.newAccount(t, "--plan", "free")
			wantError(t, call(t, "GET", widgetAPI(api, free.widgetToken, "/info"), "Origin", shopOrigin), 402, "plan_required")
			// An unknown token.
			wantError(t, call(t, "GET", widgetAPI(api, "wt_nobody", "/info"), "Origin", shopOrigin), 404, "not_found")

			t.Run("widget token on /v1", func(t *testing.T) { checkTokenOnV1(t, api, a.widgetToken) })
		})
	}
}

// checkSnippets asks for every framework's snippet and checks each carries the token, the
// script's address and the lang and position asked for.
func checkSnippets(t *testing.T, api *proc, a account) {
	frameworks := []string{"html", "nextjs-app", "nextjs-pages", "react", "vue", "nuxt", "astro", "svelte", "angular", "cms"}
	for _, f := range frameworks {
		r := call(t, "GET", api.URL()+"/v1/widget?framework="+f+"&lang=pt-BR&position=left", bearer(a.key)...)
		code := r.body.str("code")
		if r.status != http.StatusOK || r.body.str("framework") != f || r.body.str("widget_token") != a.widgetToken ||
			r.body.str("script_url") != api.URL()+"/widget.js" {
			t.Fatalf("GET /v1/widget?framework=%s: %s", f, r)
		}
		for _, want := range []string{a.widgetToken, api.URL() + "/widget.js", "pt-BR", "left"} {
			if !strings.Contains(code, want) {
				t.Errorf("%s snippet lacks %q:\n%s", f, want, code)
			}
		}
	}
	r := call(t, "GET", api.URL()+"/v1/widget", bearer(a.key)...)
	if r.status != http.StatusOK || r.body.str("framework") != "html" || strings.Contains(r.body.str("code"), "data-lang") ||
		strings.Contains(r.body.str("code"), "data-position") {
		t.Errorf("GET /v1/widget: %s", r)
	}
	for _, q := range []struct{ query, param string }{{"framework=jquery", "framework"}, {"lang=fr", "lang"}, {"position=top", "position"}} {
		r := call(t, "GET", api.URL()+"/v1/widget?"+q.query, bearer(a.key)...)
		wantError(t, r, 400, "invalid_request")
		if r.body.str("error.param") != q.param {
			t.Errorf("?%s: param %q, want %q", q.query, r.body.str("error.param"), q.param)
		}
	}
}

// checkScript fetches the script: JavaScript with a content-hash ETag and a short cache; 304
// when the ETag is sent back.
func checkScript(t *testing.T, api *proc) {
	r := call(t, "GET", api.URL()+"/widget.js")
	etag := r.header.Get("ETag")
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/javascript") || !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) ||
		!strings.Contains(r.header.Get("Cache-Control"), "max-age=300") || !strings.Contains(string(r.raw), "svc_visitor") {
		t.Fatalf("GET /widget.js: %d %v", r.status, r.header)
	}
	t.Logf("widget.js: %d bytes, ETag %s", len(r.raw), etag)
	if len(r.raw) >= 30<<10 {
		t.Errorf("widget.js is %d bytes; the goal is under 30 KB", len(r.raw))
	}
	if r := call(t, "GET", api.URL()+"/widget.js", "If-None-Match", etag); r.status != http.StatusNotModified || len(r.raw) != 0 {
		t.Errorf("GET /widget.js with its ETag: %d, %d bytes; want 304", r.status, len(r.raw))
	}
}

// checkDomainLock: with allowed domains, another page's origin (or none) is refused and gets no
// CORS grant, in the preflight and in the call; an allowed page gets the grant.
func checkDomainLock(t *testing.T, api *proc, a account) {
	for _, path := range []string{"/info", "/chat", "/messages"} {
		pre := call(t, "OPTIONS", widgetAPI(api, a.widgetToken, path), "Origin", shopOrigin, "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "content-type")
		if pre.status != http.StatusNoContent || pre.header.Get("Access-Control-Allow-Origin") != shopOrigin ||
			!strings.Contains(pre.header.Get("Access-Control-Allow-Headers"), "Content-Type") {
			t.Errorf("preflight of %s from an allowed page: %d %v", path, pre.status, pre.header)
		}
		pre = call(t, "OPTIONS", widgetAPI(api, a.widgetToken, path), "Origin", evilOrigin, "Access-Control-Request-Method", "POST")
		if pre.status != http.StatusNoContent || pre.header.Get("Access-Control-Allow-Origin") != "" || pre.header.Get("Access-Control-Allow-Methods") != "" {
			t.Errorf("preflight of %s from another site: %d %v, want no grant", path, pre.status, pre.header)
		}
	}
	for _, origin := range []string{evilOrigin, "https://shop.test.evil.test", "https://evilshop.test", "null", ""} {
		var hdr []string
		if origin != "" {
			hdr = []string{"Origin", origin}
		}
		r := callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": gfQuestion, "visitor_id": visitorA}, hdr...)
		wantError(t, r, 403, "origin_not_allowed")
		if g := r.header.Get("Access-Control-Allow-Origin"); g != "" {
			t.Errorf("chat from %q: a CORS grant %q", origin, g)
		}
		wantError(t, call(t, "GET", widgetAPI(api, a.widgetToken, "/info"), hdr...), 403, "origin_not_allowed")
	}
	for _, origin := range []string{"https://shop.test", "http://shop.test:8080", "https://a.b.shop.test"} {
		if r := call(t, "GET", widgetAPI(api, a.widgetToken, "/info"), "Origin", origin); r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("info from %s: %d %v", origin, r.status, r.header)
		}
	}
}

// checkTokenOnV1 sends the widget token as a bearer credential to every /v1 route of the
// description: each answers 401 (or 404), except the public ones (no security: the index, the
// description itself and the messaging apps' webhooks).
func checkTokenOnV1(t *testing.T, api *proc, token string) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "adapters", "httpapi", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^}]+\}`)
	n := 0
	for path, ops := range doc.Paths {
		if !strings.HasPrefix(path, "/v1") || path == "/v1" || path == "/v1/openapi.json" {
			continue
		}
		for method, op := range ops {
			if method == "options" {
				continue
			}
			var sec struct {
				Security *[]any `json:"security"`
			}
			if err := json.Unmarshal(op, &sec); err != nil {
				t.Fatal(err)
			}
			if sec.Security != nil && len(*sec.Security) == 0 {
				continue // a public route (the messaging apps' webhooks): no credential to refuse
			}
			n++
			url := api.URL() + param.ReplaceAllString(path, "x1")
			var r response
			if method == "get" || method == "delete" {
				r = call(t, strings.ToUpper(method), url, anotherClient(bearer(token)...)...)
			} else {
				r = callJSON(t, strings.ToUpper(method), url, map[string]any{}, anotherClient(bearer(token)...)...)
			}
			if r.status != http.StatusUnauthorized && r.status != http.StatusNotFound {
				t.Errorf("%s %s with the widget token: %s, want 401 or 404", strings.ToUpper(method), path, r)
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d /v1 operations tried", n)
	}
}
