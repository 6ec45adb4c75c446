package tests

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The edge: every route of the interface spec's part 4, the widget's and the site plugin's, fed
// with what a careless or hostile caller sends, from a deterministic generator (no randomness: a
// failure names its case and comes back on the next run). Whatever the input, the answer is never
// a 5xx (but 503 model_unavailable of a model route that had a valid request), an error is the
// envelope {"error":{"code","message"}}, and text that no field may hold (NUL, invalid UTF-8, a
// lone surrogate) or JSON that is not one strict object is 400 invalid_request naming the field.

// edgeRoute is one route with a body that is accepted as it is (base); the generator mutates it.
type edgeRoute struct {
	method, path string
	auth         string // "key", "client", "widget" (Origin of an allowed domain), "none"
	base         map[string]any
	model        bool     // a model-compatible route: 503 model_unavailable is not a defect
	emptyOK      bool     // every field is optional: an empty body is an empty object
	authFields   []string // fields whose bad value may be 401 (a token) rather than 400
}

// edgeValue is one replacement of a field's value: raw JSON (or bytes that are not JSON).
type edgeValue struct {
	name string
	raw  []byte
	text bool // text no field may hold: 400 invalid_request naming the field, on a string field
}

func edgeValues() []edgeValue {
	mb := `"` + strings.Repeat("x", 1<<20) + `"`
	return []edgeValue{
		{name: "null", raw: []byte(`null`)},
		{name: "true", raw: []byte(`true`)},
		{name: "a number", raw: []byte(`1`)},
		{name: "a negative number", raw: []byte(`-1`)},
		{name: "a float", raw: []byte(`1.5`)},
		{name: "1e309", raw: []byte(`1e309`)},
		{name: "a huge integer", raw: []byte(`99999999999999999999999`)},
		{name: "int64 max", raw: []byte(`9223372036854775807`)},
		{name: "an array", raw: []byte(`[]`)},
		{name: "an object", raw: []byte(`{}`)},
		{name: "a string", raw: []byte(`"x"`)},
		{name: "an empty string", raw: []byte(`""`)},
		{name: "spaces", raw: []byte(`"   "`)},
		{name: "Unicode", raw: []byte(`"é中😀"`)},
		{name: "a 1 MB string", raw: []byte(mb)},
		{name: "an array of NUL", raw: []byte(`["\u0000"]`)},
		{name: "NUL", raw: []byte(`"a\u0000b"`), text: true},
		{name: "invalid UTF-8", raw: []byte("\"caf\xe9\""), text: true},
		{name: "a lone surrogate", raw: []byte(`"a\ud800b"`), text: true},
	}
}

// edgePath is a field of a body: keys and indexes.
type edgePath []any

// param is the name the API gives the field: pages[0].title.
func (p edgePath) param() string {
	var b strings.Builder
	for _, k := range p {
		switch k := k.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		}
	}
	return b.String()
}

// edgeLeaves lists every field of v, parents before children, in key order.
func edgeLeaves(v any, prefix edgePath) []edgePath {
	var out []edgePath
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			p := append(append(edgePath{}, prefix...), k)
			out = append(out, p)
			out = append(out, edgeLeaves(v[k], p)...)
		}
	case []any:
		for i, e := range v {
			p := append(append(edgePath{}, prefix...), i)
			out = append(out, p)
			out = append(out, edgeLeaves(e, p)...)
		}
	}
	return out
}

const edgeMark = "\x01edge-mark\x01"

// edgeBody is base with the field at p replaced by raw (which need not be valid JSON).
func edgeBody(t *testing.T, base map[string]any, p edgePath, raw []byte) []byte {
	t.Helper()
	var copied any
	b, _ := json.Marshal(base)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&copied); err != nil {
		t.Fatal(err)
	}
	cur := copied
	for i, k := range p {
		last := i == len(p)-1
		switch k := k.(type) {
		case string:
			m := cur.(map[string]any)
			if last {
				m[k] = edgeMark
			}
			cur = m[k]
		case int:
			a := cur.([]any)
			if last {
				a[k] = edgeMark
			}
			cur = a[k]
		}
	}
	out, err := json.Marshal(copied)
	if err != nil {
		t.Fatal(err)
	}
	mark, _ := json.Marshal(edgeMark)
	return bytes.Replace(out, mark, raw, 1)
}

// valueAt is the value of base at p.
func valueAt(base map[string]any, p edgePath) any {
	var cur any = base
	for _, k := range p {
		switch k := k.(type) {
		case string:
			cur = cur.(map[string]any)[k]
		case int:
			cur = cur.([]any)[k]
		}
	}
	return cur
}

// edgeBodies are whole bodies that are not one strict JSON object, each refused with 400
// invalid_request; base is the route's accepted body.
func edgeBodies(base []byte) []struct {
	name string
	raw  []byte
} {
	dup := append(append(bytes.TrimSuffix(append([]byte{}, base...), []byte("}")), ','), bytes.TrimPrefix(base, []byte("{"))...)
	return []struct {
		name string
		raw  []byte
	}{
		{"an empty body", []byte{}},
		{"null", []byte(`null`)},
		{"an array", []byte(`[]`)},
		{"an array of the body", append(append([]byte("["), base...), ']')},
		{"a string", []byte(`"x"`)},
		{"a number", []byte(`1`)},
		{"not JSON", []byte(`{`)},
		{"10,000 nested arrays", []byte(strings.Repeat("[", 10000) + strings.Repeat("]", 10000))},
		{"10,000 nested objects", []byte(strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000))},
		{"trailing garbage", append(append([]byte{}, base...), "garbage"...)},
		{"a second object", append(append([]byte{}, base...), "{}"...)},
		{"every key twice", dup},
		{"a byte-order mark", append([]byte("\xef\xbb\xbf"), base...)},
	}
}

// edgeCheck checks the common rules of any answer: no 5xx (but model_unavailable on a model
// route), the envelope on an error. It says whether r is an error envelope.
func edgeCheck(t *testing.T, what string, r response, model bool) {
	t.Helper()
	if r.status >= 500 && !(model && r.status == http.StatusServiceUnavailable && r.body.str("error.code") == "model_unavailable") {
		t.Errorf("%s: %s, want no 5xx", what, shorten(r.String(), 300))
		return
	}
	if r.status >= 400 && (r.body == nil || r.body.str("error.code") == "" || r.body.str("error.message") == "") {
		t.Errorf("%s: %s, want the error envelope", what, shorten(r.String(), 300))
	}
	if len(r.raw) > 4000 && r.status >= 400 {
		t.Errorf("%s: a %d-byte error answer (a value echoed?)", what, len(r.raw))
	}
}

// edgeInvalid checks that r is 400 invalid_request naming param ("" for the body as a whole).
func edgeInvalid(t *testing.T, what string, r response, param string) {
	t.Helper()
	if r.status != http.StatusBadRequest || r.body.str("error.code") != "invalid_request" {
		t.Errorf("%s: %s, want 400 invalid_request", what, shorten(r.String(), 300))
		return
	}
	if param != "" && r.body.str("error.param") != param {
		t.Errorf("%s: error.param %q, want %q; %s", what, r.body.str("error.param"), param, shorten(r.String(), 300))
	}
}

// mcpRefused checks r, /mcp's refusal of a POST: no 5xx, a JSON body under 4,000 bytes, either a
// JSON-RPC 2.0 error response (400, -32700, -32600 or -32601) or the error envelope. It says
// whether r was one of them.
func mcpRefused(t *testing.T, what string, r response) bool {
	t.Helper()
	if r.body != nil && r.body["jsonrpc"] != nil {
		code, _ := r.body.num("error.code")
		if r.status != http.StatusBadRequest || r.body["jsonrpc"] != "2.0" || !slices.Contains([]float64{-32700, -32600, -32601}, code) ||
			r.body.str("error.message") == "" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %s, want 400 with a JSON-RPC error response", what, shorten(r.String(), 300))
			return false
		}
		if _, ok := r.body["id"]; !ok {
			t.Errorf("%s: %s, a JSON-RPC error response without id", what, shorten(r.String(), 300))
		}
		return true
	}
	edgeCheck(t, what, r, false)
	return r.status >= 400 && r.body != nil
}

// TestEdgeInputs runs the generator on both stacks.
func TestEdgeInputs(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			up := newMCUpstream(t)
			up.openGate()
			api := s.startAPI(t, "SVC_PLAN_PRO_RATE_LIMITS", "key=1000000,chat=1000000,assistant=1000000,model=1000000",
				"SVC_MODEL_BASE_URL", up.URL()+"/v1", "SVC_MODEL_API_KEY", mcUpstreamKey, "SVC_MODEL_NAME", mcUpstreamModel)
			a := s.newAccount(t, "--plan", "pro")
			configureAgent(t, api, a.key)
			if r := callJSON(t, "PUT", api.URL()+"/v1/widget/domains", `{"domains":["shop.example"]}`, bearer(a.key)...); r.status != http.StatusOK {
				t.Fatalf("PUT /v1/widget/domains: %s", r)
			}
			r := callJSON(t, "POST", api.URL()+"/v1/webhooks", `{"url":"https://example.com/hook","events":["*"]}`, bearer(a.key)...)
			hook := r.body.str("id")
			if r.status != http.StatusCreated {
				t.Fatalf("POST /v1/webhooks: %s", r)
			}
			token := createSession(t, api, a.key, map[string]any{"conversation_id": "edge-client", "customer_name": "Ana"}).str("token")
			email, password := ownerLogin(t, s, a.id)
			plugin := func(site string) string { // a plugin token of its own site: 60 calls a minute each
				return pluginToken(t, api, email, password, site)
			}
			visitor := "0b0f6f1e-8a5b-4c1e-9c1a-1d2e3f4a5b6c"

			routes := []edgeRoute{
				{method: "PATCH", path: "/v1/agent", auth: "key", base: map[string]any{"business_name": "Edge Bakery", "languages": []any{"en"},
					"tone": "warm", "description": "We bake.", "instructions": "Be brief.", "contact": map[string]any{"email": "a@example.com", "phone": "+1 555", "hours": "9-5"}}},
				{method: "PATCH", path: "/v1/agent/appearance", auth: "key", base: map[string]any{"name": "Lu", "avatar_url": "https://example.com/a.png",
					"greeting": map[string]any{"en": "Hi"}, "suggestions": map[string]any{"en": []any{"Open?"}}}},
				{method: "POST", path: "/v1/conversions", auth: "key", base: map[string]any{"kind": "sale", "amount": 12.5, "currency": "USD", "reference": "ord-1"}},
				{method: "PUT", path: "/v1/knowledge/pages", auth: "key", base: map[string]any{"pages": []any{map[string]any{"url": "https://example.com/", "title": "Home", "content": "Bread."}},
					"business_summary": "A bakery.", "site_url": "https://example.com/"}},
				{method: "POST", path: "/v1/knowledge/faq", auth: "key", base: map[string]any{"items": []any{map[string]any{"question": "Open on Sunday?", "answer": "Yes."}}}},
				{method: "POST", path: "/v1/chat", auth: "key", base: map[string]any{"message": "Hello", "conversation_id": "edge-1", "customer_name": "Ana"}},
				{method: "POST", path: "/v1/sessions", auth: "key", emptyOK: true, base: map[string]any{"conversation_id": "edge-2", "customer_name": "Ana", "ttl_minutes": 30}},
				{method: "POST", path: "/v1/client/chat", auth: "client", base: map[string]any{"message": "Hello"}},
				{method: "PUT", path: "/v1/widget/domains", auth: "key", base: map[string]any{"domains": []any{"shop.example"}}},
				{method: "PATCH", path: "/v1/widget/style", auth: "key", base: map[string]any{"position": "left", "theme": "dark", "accent": "#123456", "drag": true}},
				{method: "POST", path: "/v1/webhooks", auth: "key", base: map[string]any{"url": "https://example.com/h2", "events": []any{"knowledge.updated"}}},
				{method: "PATCH", path: "/v1/webhooks/" + hook, auth: "key", base: map[string]any{"url": "https://example.com/hook", "events": []any{"*"}, "active": true}},
				{method: "POST", path: "/v1/assistant", auth: "key", base: map[string]any{"message": "hello", "input": "some text", "mode": "ask", "lang": "en"}},
				{method: "POST", path: "/v1/chat/completions", auth: "key", model: true, base: map[string]any{"model": "svc",
					"messages": []any{map[string]any{"role": "user", "content": "hi"}}, "max_tokens": 5, "temperature": 0.5}},
				{method: "POST", path: "/v1/responses", auth: "key", model: true, base: map[string]any{"model": "svc", "input": "hi", "instructions": "Be brief.", "max_output_tokens": 5}},
				{method: "POST", path: "/v1/embeddings", auth: "key", model: true, base: map[string]any{"input": []any{"a", "b"}, "dimensions": 8, "encoding_format": "float"}},
				{method: "POST", path: "/widget/api/" + a.widgetToken + "/chat", auth: "widget", base: map[string]any{"message": "Hello", "visitor_id": visitor, "customer_name": "Ana"}},
				{method: "POST", path: "/cms/sync", auth: "none", authFields: []string{"token"}, base: map[string]any{"token": plugin("https://shop.example"),
					"site_url": "https://shop.example", "platform": "woocommerce", "pages": []any{map[string]any{"type": "product", "title": "Bread",
						"url": "https://shop.example/bread", "content": "Sourdough.", "price": "4.50", "currency": "USD", "stock": 3, "cart_id": "12"}}}},
				{method: "POST", path: "/cms/sale", auth: "none", authFields: []string{"token"}, base: map[string]any{"token": plugin("https://shop2.example"),
					"visitor_id": visitor, "order_id": 7, "order_name": "#7", "total": "4.50", "currency": "USD", "items": []any{map[string]any{"name": "Bread", "qty": 1}}}},
			}
			headersOf := func(rt edgeRoute) []string {
				switch rt.auth {
				case "key":
					return bearer(a.key)
				case "client":
					return bearer(token)
				case "widget":
					return []string{"Origin", "https://shop.example"}
				}
				return nil
			}
			send := func(rt edgeRoute, body []byte, headers ...string) response {
				t.Helper()
				h := append([]string{"Content-Type", "application/json"}, headersOf(rt)...)
				return callRaw(t, rt.method, api.URL()+rt.path, body, append(h, headers...)...)
			}

			for _, rt := range routes {
				t.Run(rt.method+" "+rt.path, func(t *testing.T) {
					base, _ := json.Marshal(rt.base)
					r := send(rt, base)
					if r.status >= 300 && !(rt.model && r.status == http.StatusServiceUnavailable) {
						t.Fatalf("the accepted body %s: %s", base, shorten(r.String(), 300))
					}
					cms := strings.HasPrefix(rt.path, "/cms/")
					for _, p := range edgeLeaves(rt.base, nil) {
						_, isString := valueAt(rt.base, p).(string)
						isToken := len(p) == 1 && contains(rt.authFields, p[0].(string))
						for _, v := range edgeValues() {
							if cms && !v.text && !isToken && v.name != "null" && v.name != "an object" && v.name != "a 1 MB string" {
								continue // 60 calls a minute per site: the text and a few shapes only
							}
							what := fmt.Sprintf("%s = %s", p.param(), v.name)
							r := send(rt, edgeBody(t, rt.base, p, v.raw))
							edgeCheck(t, what, r, rt.model)
							if v.text && isString {
								if isToken && r.status == http.StatusUnauthorized {
									continue
								}
								edgeInvalid(t, what, r, p.param())
							}
						}
					}
					for _, b := range edgeBodies(base) {
						r := send(rt, b.raw)
						edgeCheck(t, b.name, r, rt.model)
						if rt.emptyOK && len(b.raw) == 0 && r.status < 300 {
							continue
						}
						edgeInvalid(t, b.name, r, "")
					}
					if cms {
						return
					}
					var gz bytes.Buffer
					zw := gzip.NewWriter(&gz)
					_, _ = zw.Write(base)
					_ = zw.Close()
					// A gzip body is read decompressed: the accepted body, accepted again (or held
					// by a limit the first one used up); another coding is refused by name.
					r = send(rt, gz.Bytes(), "Content-Encoding", "gzip")
					edgeCheck(t, "a gzip body", r, rt.model)
					if r.status >= 300 && r.status != http.StatusTooManyRequests && !(rt.model && r.status == http.StatusServiceUnavailable) {
						t.Errorf("the accepted body gzipped: %s, want it read as that body", shorten(r.String(), 300))
					}
					r = send(rt, base, "Content-Encoding", "br")
					edgeCheck(t, "a br body", r, rt.model)
					edgeInvalid(t, "a br body", r, "Content-Encoding")
					for _, h := range [][]string{{"Content-Type", "text/plain"}, {"Content-Type", "application/x-www-form-urlencoded"},
						{"X-Big", strings.Repeat("a", 100000)}} {
						edgeCheck(t, "header "+h[0], send(rt, base, h...), rt.model)
					}
					// A chunked body (no Content-Length) is read as any other.
					req, _ := http.NewRequest(rt.method, api.URL()+rt.path, io.MultiReader(bytes.NewReader(base)))
					h := append([]string{"Content-Type", "application/json"}, headersOf(rt)...)
					for i := 0; i+1 < len(h); i += 2 {
						req.Header.Set(h[i], h[i+1])
					}
					resp, err := httpClient.Do(req.WithContext(withTest(req.Context(), t)))
					if err != nil {
						t.Fatalf("a chunked body: %v", err)
					}
					raw, _ := io.ReadAll(resp.Body)
					_ = resp.Body.Close()
					// (PUT /v1/knowledge/pages may be at its 20 uploads an hour by now: 429.)
					if resp.StatusCode >= 300 && resp.StatusCode != http.StatusTooManyRequests && !(rt.model && resp.StatusCode == http.StatusServiceUnavailable) {
						t.Errorf("a chunked body: %d %s, want it accepted as with a length", resp.StatusCode, shorten(string(raw), 300))
					}
				})
			}

			// /mcp: the MCP transport's refusals are JSON too: a JSON-RPC error response for a
			// body that is not a message the server takes, the envelope for the HTTP request's
			// faults; a key's failure stays the REST routes' 401.
			t.Run("POST /mcp", func(t *testing.T) {
				initialize, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
					"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "edge", "version": "1"}}})
				mcpHeaders := append([]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, bearer(a.key)...)
				post := func(body []byte, headers ...string) response {
					t.Helper()
					return callRaw(t, "POST", api.URL()+"/mcp", body, append(append([]string{}, mcpHeaders...), headers...)...)
				}
				if r := post(initialize); r.status != http.StatusOK {
					t.Fatalf("initialize: %s", shorten(r.String(), 300))
				}
				for _, b := range edgeBodies(initialize) {
					r := post(b.raw)
					if r.status < 300 {
						continue // a batch of one initialize, a repeated key: a message all the same
					}
					mcpRefused(t, b.name, r)
				}
				for _, b := range []struct{ name, body, version string }{
					{"a batch where the protocol version has none", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "2025-06-18"},
					{"an object that is not JSON-RPC", `{"hello":"world"}`, ""},
					{"an unknown method", `{"jsonrpc":"2.0","id":3,"method":"nope"}`, ""},
				} {
					var h []string
					if b.version != "" {
						h = []string{"MCP-Protocol-Version", b.version}
					}
					if r := post([]byte(b.body), h...); mcpRefused(t, b.name, r) && r.body["jsonrpc"] != "2.0" {
						t.Errorf("%s: %s, want a JSON-RPC error response", b.name, shorten(r.String(), 300))
					}
				}
				for _, h := range []struct {
					name    string
					headers []string
					status  int
				}{
					{"Content-Type text/plain", []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType},
					{"no Content-Type", []string{"Content-Type", ""}, http.StatusUnsupportedMediaType},
					{"Accept application/json only", []string{"Accept", "application/json"}, http.StatusNotAcceptable},
					{"no Accept", []string{"Accept", ""}, http.StatusNotAcceptable},
					{"an unknown session", []string{"Mcp-Session-Id", "nope"}, http.StatusNotFound},
					{"an unknown protocol version", []string{"MCP-Protocol-Version", "1999-01-01"}, http.StatusBadRequest},
				} {
					r := post(initialize, h.headers...)
					edgeCheck(t, "header "+h.name, r, false)
					if r.status != h.status || r.body["jsonrpc"] != nil {
						t.Errorf("header %s: %s, want %d with the envelope", h.name, shorten(r.String(), 300), h.status)
					}
				}
				for _, rq := range []struct {
					method  string
					headers []string
					status  int
				}{
					{"GET", nil, http.StatusNotAcceptable},
					{"GET", []string{"Accept", "text/event-stream"}, http.StatusBadRequest},
					{"GET", []string{"Accept", "text/event-stream", "Mcp-Session-Id", "nope"}, http.StatusNotFound},
					{"DELETE", nil, http.StatusBadRequest},
					{"DELETE", []string{"Mcp-Session-Id", "nope"}, http.StatusNotFound},
					{"PUT", nil, http.StatusNotFound},
				} {
					what := fmt.Sprintf("%s /mcp %v", rq.method, rq.headers)
					r := callRaw(t, rq.method, api.URL()+"/mcp", nil, append(append([]string{}, bearer(a.key)...), rq.headers...)...)
					edgeCheck(t, what, r, false)
					if r.status != rq.status {
						t.Errorf("%s: %s, want %d", what, shorten(r.String(), 300), rq.status)
					}
				}
				r := callRaw(t, "POST", api.URL()+"/mcp", []byte(`{`), "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
				wantError(t, r, http.StatusUnauthorized, "unauthorized")
			})

			t.Run("path ids", func(t *testing.T) {
				ids := map[string]string{"NUL": "%00", "..": "..", "encoded ..": "%2e%2e", "an encoded slash": "a%2Fb", "10 kB": strings.Repeat("a", 10240),
					"Unicode": "%C3%A9%E4%B8%AD", "invalid UTF-8": "%FF%FE", "a surrogate in UTF-8": "%ED%A0%80", "a space": "%20", "an escape": "%1B"}
				for _, n := range slices.Sorted(maps.Keys(ids)) {
					id := ids[n]
					for _, rq := range []struct{ method, path, auth string }{
						{"GET", "/v1/conversations/" + id, "key"},
						{"GET", "/v1/webhooks/" + id, "key"},
						{"PATCH", "/v1/webhooks/" + id, "key"},
						{"DELETE", "/v1/webhooks/" + id, "key"},
						{"POST", "/v1/webhooks/" + id + "/test", "key"},
						{"GET", "/v1/webhooks/" + id + "/deliveries", "key"},
						{"POST", "/v1/webhooks/" + hook + "/deliveries/" + id + "/redeliver", "key"},
						{"GET", "/v1/models/" + id, "key"},
						{"GET", "/widget/api/" + id + "/info", "widget"},
						{"GET", "/widget/api/" + id + "/messages?visitor_id=" + visitor, "widget"},
						{"POST", "/widget/api/" + id + "/chat", "widget"},
					} {
						var body []byte
						if rq.method == "POST" || rq.method == "PATCH" {
							body = []byte(`{"message":"hi","visitor_id":"` + visitor + `"}`)
						}
						r := send(edgeRoute{method: rq.method, path: rq.path, auth: rq.auth}, body)
						edgeCheck(t, n+": "+rq.method+" "+shorten(rq.path, 80), r, false)
						if r.status < 400 && rq.method != "GET" {
							t.Errorf("%s: %s %s: %s, want refused", n, rq.method, shorten(rq.path, 80), shorten(r.String(), 200))
						}
					}
				}
			})

			t.Run("query parameters", func(t *testing.T) {
				cursor := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
				for _, q := range []struct {
					path, param string // param "" when accepted
				}{
					{"/v1/conversations?limit=-1", "limit"},
					{"/v1/conversations?limit=0", "limit"},
					{"/v1/conversations?limit=101", "limit"},
					{"/v1/conversations?limit=1.5", "limit"},
					{"/v1/conversations?limit=1e309", "limit"},
					{"/v1/conversations?limit=99999999999999999999", "limit"},
					{"/v1/conversations?limit=abc", "limit"},
					{"/v1/conversations?limit=", "limit"},
					{"/v1/conversations?limit=100", ""},
					{"/v1/conversations?limit=5%00", "limit"},
					{"/v1/conversations?cursor=abc", "cursor"},
					{"/v1/conversations?cursor=%FF", "cursor"},
					{"/v1/conversations?cursor=" + cursor("x|y"), "cursor"},
					{"/v1/conversations?cursor=" + cursor("-62167219200000000|conv_1"), "cursor"}, // year 0
					{"/v1/conversations?cursor=" + cursor("-9223372036854775808|conv_1"), "cursor"},
					{"/v1/conversations?cursor=" + cursor("253402300800000000|conv_1"), "cursor"}, // year 10000
					{"/v1/conversations?cursor=" + cursor("1763726400000000|conv_1"), ""},
					{"/v1/conversations?channel=nope", "channel"},
					{"/v1/conversations?unknown=1", ""},
					{"/v1/usage?from=abc", "from"},
					{"/v1/usage?from=0000-01-01&to=2026-12-01", "from"},
					{"/v1/usage?from=0001-01-01&to=2026-12-01", "from"},
					{"/v1/usage?from=0000-01-01T00:00:00%2B14:00", "from"},
					{"/v1/usage?to=9999-12-31T23:59:59-01:00", "to"},
					{"/v1/usage?from=2026-11-01&to=2026-12-01", ""},
					{"/v1/conversions?from=0000-01-01&to=2026-12-01", "from"},
					{"/v1/conversions?from=0001-01-01&to=2026-12-01", "from"},
					{"/v1/conversions?from=2026-11-01&to=0000-01-01T00:00:00%2B01:00", "to"},
					{"/v1/conversions?from=2026-11-01&to=2026-12-01", ""},
					{"/v1/widget?framework=nope", "framework"},
					{"/v1/widget?position=up", "position"},
					{"/v1/widget?lang=%00", "lang"},
					{"/v1/account?unknown=%00", "unknown"}, // an unknown parameter is ignored, but not NUL
				} {
					r := call(t, "GET", api.URL()+q.path, bearer(a.key)...)
					edgeCheck(t, q.path, r, false)
					if q.param == "" {
						if r.status != http.StatusOK {
							t.Errorf("GET %s: %s, want 200", q.path, shorten(r.String(), 300))
						}
						continue
					}
					edgeInvalid(t, "GET "+q.path, r, q.param)
				}
				r := callRaw(t, "GET", api.URL()+"/v1/account", []byte(`{"a":1}`), append([]string{"Content-Type", "application/json"}, bearer(a.key)...)...)
				if r.status != http.StatusOK {
					t.Errorf("GET /v1/account with a body: %s, want 200 (a GET's body is not read)", shorten(r.String(), 300))
				}
			})
		})
	}
}
