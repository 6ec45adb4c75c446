package tests

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// credential kinds of the routes, as openapi.json's security names them.
const (
	authPublic = ""            // no credential
	authKey    = "apiKey"      // Authorization: Bearer svc_live_…
	authClient = "clientToken" // Authorization: Bearer svc_cs_…
)

// isolationRoute is one row of the isolation matrix: how a route authenticates, the body a
// caller sends it (a valid one, so that a refusal is about who calls, not what), and whether it
// addresses one object by id (the first account's: another account must get 404).
type isolationRoute struct {
	auth string
	body any
	byID bool
}

// isolationRoutes has one row per route of the router, keyed "METHOD /path/{param}" as
// openapi.json (which a unit test of httpapi keeps equal to the router) lists them. A new route
// without a row fails TestIsolation; so does a row of an authenticated route that is gone.
var isolationRoutes = map[string]isolationRoute{
	"GET /v1":              {auth: authPublic},
	"GET /v1/openapi.json": {auth: authPublic},
	"GET /healthz":         {auth: authPublic},
	"GET /readyz":          {auth: authPublic},
	"GET /metrics":         {auth: authPublic},

	"GET /v1/account":                                        {auth: authKey},
	"GET /v1/agent":                                          {auth: authKey},
	"PATCH /v1/agent":                                        {auth: authKey, body: map[string]any{"tone": "friendly"}},
	"PATCH /v1/agent/appearance":                             {auth: authKey, body: map[string]any{"name": "Bo"}},
	"GET /v1/knowledge":                                      {auth: authKey},
	"PUT /v1/knowledge/pages":                                {auth: authKey, body: map[string]any{"pages": []map[string]any{{"url": "https://b.example/", "title": "B", "content": "B sells shoes."}}}},
	"POST /v1/knowledge/faq":                                 {auth: authKey, body: map[string]any{"items": []map[string]any{{"question": "Do you sell shoes?", "answer": "Yes."}}}},
	"POST /v1/knowledge/crawl":                               {auth: authKey, body: map[string]any{"url": "http://127.0.0.1:1/", "max_pages": 1}},
	"POST /v1/chat":                                          {auth: authKey, body: map[string]any{"message": "What did the last customer say?", "conversation_id": isoConversation}},
	"GET /v1/conversations":                                  {auth: authKey},
	"GET /v1/conversations/{conversation_id}":                {auth: authKey}, // the second account has its own of that id (its client token's)
	"POST /v1/sessions":                                      {auth: authKey, body: map[string]any{"conversation_id": isoConversation}},
	"GET /v1/webhooks":                                       {auth: authKey},
	"POST /v1/webhooks":                                      {auth: authKey, body: map[string]any{"url": "https://example.com/b-hook", "events": []string{"*"}}},
	"GET /v1/webhooks/{id}":                                  {auth: authKey, byID: true},
	"PATCH /v1/webhooks/{id}":                                {auth: authKey, body: map[string]any{"active": false}, byID: true},
	"DELETE /v1/webhooks/{id}":                               {auth: authKey, byID: true},
	"POST /v1/webhooks/{id}/test":                            {auth: authKey, body: map[string]any{}, byID: true},
	"GET /v1/webhooks/{id}/deliveries":                       {auth: authKey, byID: true},
	"POST /v1/webhooks/{id}/deliveries/{event_id}/redeliver": {auth: authKey, body: map[string]any{}, byID: true},
	"POST /v1/conversions":                                   {auth: authKey, body: map[string]any{"kind": "lead", "conversation_id": isoConversation}},
	"GET /v1/conversions":                                    {auth: authKey},
	"GET /v1/notifications":                                  {auth: authKey},
	"POST /v1/chat/completions":                              {auth: authKey, body: map[string]any{"model": "svc-assistant", "messages": []map[string]any{{"role": "user", "content": "What did the last customer say?"}}}},
	"POST /v1/responses":                                     {auth: authKey, body: map[string]any{"model": "svc-assistant", "input": "What did the last customer say?"}},
	"POST /v1/embeddings":                                    {auth: authKey, body: map[string]any{"model": "svc-embeddings", "input": "alpha"}},
	"GET /v1/usage":                                          {auth: authKey},
	"GET /v1/models":                                         {auth: authKey},
	"GET /v1/models/{model}":                                 {auth: authKey},

	// The messaging apps' webhooks: public routes, each trusting only its app's proof.
	"GET /v1/messaging/whatsapp/{hook}":  {auth: authPublic},
	"POST /v1/messaging/whatsapp/{hook}": {auth: authPublic, body: map[string]any{"object": "whatsapp_business_account"}},
	"POST /v1/messaging/telegram/{hook}": {auth: authPublic, body: map[string]any{"update_id": 1}},

	"POST /v1/assistant": {auth: authKey, body: map[string]any{"message": "What are my tasks today?"}},

	// The MCP server: an owner channel, the API key only.
	"POST /mcp": {auth: authKey, body: map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "isolation", "version": "1"}}}},
	"GET /mcp":    {auth: authKey},
	"DELETE /mcp": {auth: authKey},

	"GET /v1/widget":                          {auth: authKey},
	"PUT /v1/widget/domains":                  {auth: authKey, body: map[string]any{"domains": []string{"b.example"}}},
	"PATCH /v1/widget/style":                  {auth: authKey, body: map[string]any{"theme": "dark"}},
	"GET /widget.js":                          {auth: authPublic},
	"GET /widget/api/{widget_token}/info":     {auth: authPublic},
	"POST /widget/api/{widget_token}/chat":    {auth: authPublic, body: map[string]any{"message": "Hello", "visitor_id": "0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21"}},
	"GET /widget/api/{widget_token}/messages": {auth: authPublic},

	// The site plugin protocol: public routes; sync and sale trust only a plugin token in the body
	// (TestPluginSecurity: an API key or a widget token there is 401).
	"GET /cms/connect":   {auth: authPublic},
	"POST /cms/exchange": {auth: authPublic, body: map[string]any{"code": "svc_code_isolation", "site": "https://b.example"}},
	"POST /cms/sync":     {auth: authPublic, body: map[string]any{"token": "svc_plg_isolation", "pages": []map[string]any{}}},
	"POST /cms/sale":     {auth: authPublic, body: map[string]any{"token": "svc_plg_isolation", "order_id": 1, "total": "1.00", "currency": "EUR"}},

	"POST /v1/client/chat":    {auth: authClient, body: map[string]any{"message": "What did I say before?"}},
	"GET /v1/client/messages": {auth: authClient},
	"GET /v1/client/agent":    {auth: authClient},
}

// isoConversation is the first account's conversation id, which the second account also sends.
const isoConversation = "conv-isolation"

// TestIsolation calls every route of the router with no credential, with another account's key
// and client token against the first account's objects, with the first account's client token on
// key routes, its key on client routes and its widget token anywhere: a route that needs a
// credential answers 401 to every wrong kind; another account gets 404 for the first account's
// objects, or its own data, and no response to it holds anything of the first account's (ids,
// secrets, content) that it did not send itself. The first account's objects are intact after.
func TestIsolation(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			receiver := newHookReceiver(t, http.StatusOK)
			// Each call of the matrix comes from anotherClient, so the throttle of failed
			// authentications stays out of it.
			api := s.startAPI(t, append([]string{"SVC_ALLOW_PRIVATE_TARGETS", "true"}, viaProxy...)...)
			a, b := s.newAccount(t), s.newAccount(t)

			// The first account: one of each object, every one carrying a marker.
			secret := map[string]string{"account": a.id, "key": a.key, "key id": a.keyID, "widget token": a.widgetToken}
			mustOK := func(r response, what string) obj {
				t.Helper()
				if r.status/100 != 2 || r.body == nil {
					t.Fatalf("%s: %s", what, r)
				}
				return r.body
			}
			mustOK(callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Alpha Marker Bakery",
				"description": "alpha-marker-description"}, bearer(a.key)...), "PATCH /v1/agent")
			secret["business"] = "Alpha Marker Bakery"
			secret["description"] = "alpha-marker-description"
			mustOK(callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{"pages": []map[string]any{{
				"url": "https://alpha.example/secret", "title": "Alpha marker page", "content": "The alpha-marker-page recipe uses saffron."}},
				"business_summary": "alpha-marker-summary"}, bearer(a.key)...), "PUT /v1/knowledge/pages")
			secret["page"], secret["summary"] = "alpha-marker-page", "alpha-marker-summary"
			mustOK(callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": []map[string]any{{
				"question": "What is the alpha-marker-question?", "answer": "It is the alpha-marker-answer."}}}, bearer(a.key)...), "POST /v1/knowledge/faq")
			secret["faq question"], secret["faq answer"] = "alpha-marker-question", "alpha-marker-answer"
			reply := mustOK(postChat(t, api, a.key, map[string]any{"message": "My alpha-marker-message order is 4711",
				"conversation_id": isoConversation, "customer_name": "Alpha Marker Customer"}), "POST /v1/chat")
			secret["message"], secret["customer"] = "alpha-marker-message", "Alpha Marker Customer"
			secret["message id"], secret["customer message id"] = reply.str("message_id"), reply.str("customer_message_id")
			tokA := createSession(t, api, a.key, map[string]any{"conversation_id": isoConversation}).str("token")
			secret["session token"] = tokA
			hookID, hookSecret := createHook(t, api, a.key, receiver.URL("/alpha-marker-hook"), "*")
			secret["webhook id"], secret["webhook secret"], secret["webhook url"] = hookID, hookSecret, "alpha-marker-hook"
			test := mustOK(callJSON(t, "POST", api.URL()+"/v1/webhooks/"+hookID+"/test", map[string]any{}, bearer(a.key)...), "POST /v1/webhooks/{id}/test")
			eventID := test.str("event_id")
			secret["event id"] = eventID
			conv := mustOK(callJSON(t, "POST", api.URL()+"/v1/conversions", map[string]any{"kind": "lead", "conversation_id": isoConversation,
				"reference": "alpha-marker-reference"}, bearer(a.key)...), "POST /v1/conversions")
			secret["conversion id"], secret["conversion reference"] = conv.str("id"), "alpha-marker-reference"
			for what, v := range secret {
				if v == "" {
					t.Fatalf("set-up: no %s", what)
				}
			}
			// The second account: set up, with a client token for the first account's conversation id.
			mustOK(callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Beta Shoes"}, bearer(b.key)...), "PATCH /v1/agent")
			tokB := createSession(t, api, b.key, map[string]any{"conversation_id": isoConversation}).str("token")

			// Every route of the router has a row, and every row of a credentialed route a route.
			routes := documentedRoutes(t, api)
			for key := range routes {
				if _, ok := isolationRoutes[key]; !ok {
					t.Errorf("route %s has no row in isolationRoutes: add one", key)
				}
			}
			for key, row := range isolationRoutes {
				security, ok := routes[key]
				if !ok {
					if row.auth != authPublic {
						t.Errorf("isolationRoutes has a row for %s, which the router lacks", key)
					}
					continue
				}
				if security != row.auth {
					t.Errorf("%s: openapi.json's security is %q, the row says %q", key, security, row.auth)
				}
			}
			if t.Failed() {
				t.FailNow()
			}

			params := map[string]string{"conversation_id": isoConversation, "id": hookID, "event_id": eventID, "model": "svc",
				"hook": "mh_isolationisolationisolation", "widget_token": a.widgetToken}
			paramRE := regexp.MustCompile(`\{([^}]+)\}`)
			send := func(t *testing.T, method, path string, body any, headers ...string) response {
				t.Helper()
				headers = anotherClient(headers...)
				if body == nil {
					return call(t, method, api.URL()+path, headers...)
				}
				return callJSON(t, method, api.URL()+path, body, headers...)
			}
			keys := make([]string, 0, len(isolationRoutes))
			for key := range routes {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				row := isolationRoutes[key]
				method, tmpl, _ := strings.Cut(key, " ")
				path := paramRE.ReplaceAllStringFunc(tmpl, func(p string) string { return params[strings.Trim(p, "{}")] })
				t.Run(key, func(t *testing.T) {
					if row.auth == authPublic {
						if r := send(t, method, path, row.body); r.status >= 500 && key != "GET /readyz" {
							t.Errorf("no credential: %s", r)
						}
						return
					}
					wrong := [][]string{nil, {"Authorization", "Basic " + a.key}, bearer(a.widgetToken)}
					if row.auth == authKey {
						wrong = append(wrong, bearer(tokA), bearer(tokB))
					} else {
						wrong = append(wrong, bearer(a.key), bearer(b.key))
					}
					for _, h := range wrong {
						wantError(t, send(t, method, path, row.body, h...), http.StatusUnauthorized, "unauthorized")
					}
					other := b.key
					if row.auth == authClient {
						other = tokB
					}
					r := send(t, method, path, row.body, bearer(other)...)
					if r.status >= 500 {
						t.Errorf("another account: %s", r)
					}
					if row.byID && r.status != http.StatusNotFound {
						t.Errorf("another account on the first account's object: %s, want 404", r)
					}
					sent := path + " " + obj(asMap(row.body)).String()
					for what, v := range secret {
						if strings.Contains(string(r.raw), v) && !strings.Contains(sent, v) {
							t.Errorf("another account's %s %s got the first account's %s (%q): %s", method, path, what, v, r)
						}
					}
				})
			}

			// The first account's objects are intact.
			hook := mustOK(call(t, "GET", api.URL()+"/v1/webhooks/"+hookID, bearer(a.key)...), "GET /v1/webhooks/{id}")
			if v, _ := hook.get("active"); v != true {
				t.Errorf("the first account's webhook after the matrix: %s, want active", hook)
			}
			thread := mustOK(call(t, "GET", api.URL()+"/v1/client/messages", bearer(tokA)...), "GET /v1/client/messages")
			if !strings.Contains(thread.String(), "alpha-marker-message") {
				t.Errorf("the first account's conversation after the matrix: %s", thread)
			}
			if k := mustOK(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...), "GET /v1/knowledge"); !strings.Contains(k.String(), "alpha-marker-summary") {
				t.Errorf("the first account's knowledge after the matrix: %s", k)
			}
		})
	}
}

// documentedRoutes returns the routes GET /v1/openapi.json lists ("METHOD /path/{param}"), each
// with the credential its security names (authPublic, authKey or authClient).
func documentedRoutes(t *testing.T, api *proc) map[string]string {
	t.Helper()
	r := call(t, "GET", api.URL()+"/v1/openapi.json")
	if r.status != http.StatusOK || r.body == nil {
		t.Fatalf("GET /v1/openapi.json: %s", r)
	}
	var global []any
	if v, ok := r.body.get("security"); ok {
		global, _ = v.([]any)
	}
	paths, _ := r.body["paths"].(map[string]any)
	out := map[string]string{}
	for path, v := range paths {
		ops, _ := v.(map[string]any)
		for method, opv := range ops {
			switch method {
			case "get", "post", "put", "patch", "delete":
			default:
				continue
			}
			op, _ := opv.(map[string]any)
			security := global
			if sv, ok := op["security"]; ok {
				security, _ = sv.([]any)
			}
			scheme := authPublic
			for _, req := range security {
				for name := range asMap(req) {
					scheme = name
				}
			}
			out[strings.ToUpper(method)+" "+path] = scheme
		}
	}
	if len(out) == 0 {
		t.Fatalf("GET /v1/openapi.json lists no route: %s", r)
	}
	return out
}

// asMap returns v as a JSON object (nil when it is not one).
func asMap(v any) map[string]any {
	switch m := v.(type) {
	case map[string]any:
		return m
	case obj:
		return m
	}
	return nil
}
