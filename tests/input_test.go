package tests

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// badInput is one request that must be refused with 400 invalid_request naming param.
type badInput struct {
	name, method, path, body, param string
	client                          bool // sent with the client session token, not the key
}

// badInputs are the inputs of issue 11's defects 1 and 9: NUL (\u0000), invalid UTF-8 and other
// control characters in every stored string, path id and decoded cursor, and the JSON that is
// not strict (a key in another case, a key twice), with the param each names. hook is a webhook
// of the account.
func badInputs(hook string) []badInput {
	nulCursor := base64.RawURLEncoding.EncodeToString([]byte("1763726400000000|conv\x00"))
	return []badInput{
		// Stored strings.
		{name: "NUL in a chat message", method: "POST", path: "/v1/chat", body: `{"message":"hi\u0000"}`, param: "message"},
		{name: "invalid UTF-8 in a chat message", method: "POST", path: "/v1/chat", body: "{\"message\":\"caf\xe9\"}", param: "message"},
		{name: "NUL in a chat customer_name", method: "POST", path: "/v1/chat", body: `{"message":"hi","customer_name":"Ana\u0000"}`, param: "customer_name"},
		{name: "a control character in a chat customer_name", method: "POST", path: "/v1/chat", body: `{"message":"hi","customer_name":"Ana\u001b[31m"}`, param: "customer_name"},
		{name: "NUL in a client chat message", method: "POST", path: "/v1/client/chat", body: `{"message":"\u0000"}`, param: "message", client: true},
		{name: "NUL in a session customer_name", method: "POST", path: "/v1/sessions", body: `{"customer_name":"\u0000"}`, param: "customer_name"},
		{name: "NUL in an assistant message", method: "POST", path: "/v1/assistant", body: `{"message":"add a note\u0000"}`, param: "message"},
		{name: "invalid UTF-8 in an assistant input", method: "POST", path: "/v1/assistant", body: "{\"message\":\"hi\",\"input\":\"caf\xe9\"}", param: "input"},
		{name: "NUL in a conversion reference", method: "POST", path: "/v1/conversions", body: `{"kind":"lead","reference":"ord\u0000"}`, param: "reference"},
		{name: "NUL in an FAQ question", method: "POST", path: "/v1/knowledge/faq", body: `{"items":[{"question":"Open?\u0000","answer":"Yes."}]}`, param: "items[0].question"},
		{name: "NUL in an FAQ answer", method: "POST", path: "/v1/knowledge/faq", body: `{"items":[{"question":"Open?","answer":"Yes."},{"question":"Late?","answer":"\u0000"}]}`, param: "items[1].answer"},
		{name: "NUL in a page title", method: "PUT", path: "/v1/knowledge/pages", body: `{"pages":[{"url":"https://a.test/","title":"Home\u0000","content":"Bread."}]}`, param: "pages[0].title"},
		{name: "NUL in a page content", method: "PUT", path: "/v1/knowledge/pages", body: `{"pages":[{"url":"https://a.test/","title":"Home","content":"Bread.\u0000"}]}`, param: "pages[0].content"},
		{name: "NUL in the business_summary", method: "PUT", path: "/v1/knowledge/pages", body: `{"business_summary":"A bakery\u0000"}`, param: "business_summary"},
		{name: "NUL in the agent profile", method: "PATCH", path: "/v1/agent", body: `{"description":"We bake\u0000"}`, param: "description"},
		{name: "NUL in the agent contact", method: "PATCH", path: "/v1/agent", body: `{"contact":{"hours":"9-5\u0000"}}`, param: "contact.hours"},
		{name: "NUL in the appearance", method: "PATCH", path: "/v1/agent/appearance", body: `{"greeting":{"en":"Hi\u0000"}}`, param: "greeting.en"},
		{name: "NUL in a webhook url", method: "POST", path: "/v1/webhooks", body: `{"url":"https://example.com/\u0000","events":["*"]}`, param: "url"},
		{name: "NUL in a webhook event", method: "PATCH", path: "/v1/webhooks/" + hook, body: `{"events":["*\u0000"]}`, param: "events[0]"},
		{name: "NUL in a crawl url", method: "POST", path: "/v1/knowledge/crawl", body: `{"url":"https://example.com/\u0000"}`, param: "url"},
		{name: "NUL in a model message", method: "POST", path: "/v1/chat/completions", body: `{"model":"svc","messages":[{"role":"user","content":"hi\u0000"}]}`, param: "messages[0].content"},
		{name: "invalid UTF-8 in a model message", method: "POST", path: "/v1/chat/completions", body: "{\"model\":\"svc\",\"messages\":[{\"role\":\"user\",\"content\":\"\xff\"}]}", param: "messages[0].content"},
		{name: "NUL in a responses input", method: "POST", path: "/v1/responses", body: `{"model":"svc","input":"hi\u0000"}`, param: "input"},
		{name: "NUL in an embeddings input", method: "POST", path: "/v1/embeddings", body: `{"input":["a","\u0000"]}`, param: "input[1]"},

		// Path ids and the decoded cursor.
		{name: "NUL in a webhook id", method: "GET", path: "/v1/webhooks/wh_%00", param: "id"},
		{name: "NUL in a webhook id to patch", method: "PATCH", path: "/v1/webhooks/wh_%00", body: `{"active":false}`, param: "id"},
		{name: "NUL in a webhook id to delete", method: "DELETE", path: "/v1/webhooks/wh_%00", param: "id"},
		{name: "NUL in a webhook id to test", method: "POST", path: "/v1/webhooks/wh_%00/test", param: "id"},
		{name: "NUL in a webhook id's deliveries", method: "GET", path: "/v1/webhooks/wh_%00/deliveries", param: "id"},
		{name: "NUL in an event id to redeliver", method: "POST", path: "/v1/webhooks/" + hook + "/deliveries/evt_%00/redeliver", param: "event_id"},
		{name: "invalid UTF-8 in a webhook id", method: "GET", path: "/v1/webhooks/wh_%FF", param: "id"},
		{name: "NUL in a conversation id", method: "GET", path: "/v1/conversations/conv%00", param: "conversation_id"},
		{name: "NUL in a decoded cursor", method: "GET", path: "/v1/conversations?cursor=" + nulCursor, param: "cursor"},
		{name: "NUL in the cursor", method: "GET", path: "/v1/conversations?cursor=%00", param: "cursor"},
		{name: "NUL in limit", method: "GET", path: "/v1/conversations?limit=5%00", param: "limit"},

		// JSON that is not strict.
		{name: "a key in another case", method: "POST", path: "/v1/conversions", body: `{"KIND":"lead"}`, param: "KIND"},
		{name: "a key twice", method: "POST", path: "/v1/conversions", body: `{"kind":"lead","kind":"sale"}`, param: "kind"},
		{name: "a nested key twice", method: "PUT", path: "/v1/knowledge/pages", body: `{"pages":[{"url":"https://a.test/","url":"https://b.test/","content":"x"}]}`, param: "pages[0].url"},
		{name: "a key twice in a model request", method: "POST", path: "/v1/chat/completions", body: `{"model":"svc","model":"gpt","messages":[{"role":"user","content":"hi"}]}`, param: "model"},
		{name: "a wrong type in an array", method: "PUT", path: "/v1/knowledge/pages", body: `{"pages":[{"url":5}]}`, param: "pages[0].url"},
	}
}

// TestBadInput sends every bad input of issue 11's defects 1 and 9 to its route in both
// environments: each is 400 invalid_request naming the field or parameter, never a 500, with a
// short message; a chat message of invisible characters only is 400 and costs nothing.
func TestBadInput(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			a := s.newAccount(t)
			configureAgent(t, api, a.key)
			r := callJSON(t, "POST", api.URL()+"/v1/webhooks", map[string]any{"url": "https://example.com/hook", "events": []string{"*"}}, bearer(a.key)...)
			if r.status != http.StatusCreated {
				t.Fatalf("POST /v1/webhooks: %s", r)
			}
			hook := r.body.str("id")
			token := createSession(t, api, a.key, map[string]any{"conversation_id": "input-client", "customer_name": "Ana"}).str("token")

			for _, in := range badInputs(hook) {
				t.Run(in.name, func(t *testing.T) {
					auth := bearer(a.key)
					if in.client {
						auth = bearer(token)
					}
					var body []byte
					if in.body != "" {
						body = []byte(in.body)
					}
					r := callRaw(t, in.method, api.URL()+in.path, body, append([]string{"Content-Type", "application/json"}, auth...)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
					if got := r.body.str("error.param"); got != in.param {
						t.Errorf("error.param %q, want %q; body %s", got, in.param, r.raw)
					}
					if n := len(r.body.str("error.message")); n > 300 {
						t.Errorf("error.message of %d bytes: %.300s", n, r.raw)
					}
				})
			}

			t.Run("an oversized value is not echoed", func(t *testing.T) {
				big := strings.Repeat("x", 200000)
				r := callJSON(t, "POST", api.URL()+"/v1/conversions", `{"kind":"lead","currency":"`+big+`"}`, bearer(a.key)...)
				wantError(t, r, http.StatusBadRequest, "invalid_request")
				if len(r.raw) > 1000 {
					t.Errorf("a %d-byte answer to a 200 kB value: %.300s…", len(r.raw), r.raw)
				}
			})

			t.Run("a message of invisible characters costs nothing", func(t *testing.T) {
				before := accountUsage(t, api, a.key)
				for _, msg := range []string{`\u200b\u200b\u200b`, `\u200d\ufeff\u2060`, ` \u200b\n\u3000 `} {
					r := callJSON(t, "POST", api.URL()+"/v1/chat", `{"message":"`+msg+`","conversation_id":"input-invisible"}`, bearer(a.key)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
					if got := r.body.str("error.param"); got != "message" {
						t.Errorf("%s: error.param %q, want message", msg, got)
					}
					r = callJSON(t, "POST", api.URL()+"/v1/client/chat", `{"message":"`+msg+`"}`, bearer(token)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
				}
				if after := accountUsage(t, api, a.key); after != before {
					t.Errorf("interactions_spent %v after invisible messages, want %v (unchanged)", after, before)
				}
				wantError(t, call(t, "GET", api.URL()+"/v1/conversations/input-invisible", bearer(a.key)...), http.StatusNotFound, "not_found")
				r := call(t, "GET", api.URL()+"/v1/client/messages", bearer(token)...)
				if msgs, _ := r.body.get("messages"); r.status == http.StatusOK && msgs != nil && len(msgs.([]any)) != 0 {
					t.Errorf("GET /v1/client/messages: %s, want no message stored", r)
				}
			})

			t.Run("line breaks and tabs in a message are text", func(t *testing.T) {
				r := callJSON(t, "POST", api.URL()+"/v1/chat", `{"message":"Hello,\n\tdo you deliver?\r\nThanks","conversation_id":"input-lines"}`, bearer(a.key)...)
				if r.status != http.StatusOK && r.status != http.StatusAccepted {
					t.Fatalf("POST /v1/chat with line breaks: %s, want 200 or 202", r)
				}
			})
		})
	}
}
