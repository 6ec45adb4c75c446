package tests

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestSessionsRevokedWithTheirKey checks that revoking an API key revokes the client sessions it
// created (their tokens get 401 at once), and no other session of the account.
func TestSessionsRevokedWithTheirKey(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			a := s.newAccount(t)
			configureAgent(t, api, a.key)
			_, other := s.newKey(t, a.id)
			revoked := createSession(t, api, a.key, map[string]any{"conversation_id": "conv-revoked"}).str("token")
			kept := createSession(t, api, other, map[string]any{"conversation_id": "conv-kept"}).str("token")
			for _, tok := range []string{revoked, kept} {
				if r := call(t, "GET", api.URL()+"/v1/client/agent", bearer(tok)...); r.status != http.StatusOK {
					t.Fatalf("GET /v1/client/agent before the revocation: %s, want 200", r)
				}
			}

			ctl(t, s.env, "key", "revoke", "--key-id", a.keyID)
			for _, route := range []struct{ method, path string }{
				{"GET", "/v1/client/agent"},
				{"GET", "/v1/client/messages"},
				{"POST", "/v1/client/chat"},
			} {
				r := callJSON(t, route.method, api.URL()+route.path, map[string]any{"message": "Hello"}, bearer(revoked)...)
				if route.method == "GET" {
					r = call(t, route.method, api.URL()+route.path, bearer(revoked)...)
				}
				wantError(t, r, http.StatusUnauthorized, "unauthorized")
			}
			if r := call(t, "GET", api.URL()+"/v1/client/messages", bearer(kept)...); r.status != http.StatusOK {
				t.Errorf("a session of the account's other key after the revocation: %s, want 200", r)
			}
		})
	}
}

// TestFailedAuthenticationThrottled checks that failed authentications from one client address
// get 429 rate_limited with Retry-After after a burst (instead of 401 for ever), for keys and
// client tokens alike; that a valid key from that address still goes through; and that, behind a
// trusted proxy (SVC_TRUSTED_PROXIES), each forwarded client has its own allowance.
func TestFailedAuthenticationThrottled(t *testing.T) {
	const burst = 100 // ratelimit.AuthFailures: 100, then five a second
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t, "SVC_TRUSTED_PROXIES", "127.0.0.1/32")
			a := s.newAccount(t)
			from := func(client string, headers ...string) []string {
				return append([]string{"X-Forwarded-For", client}, headers...)
			}
			wrongKey := "svc_live_" + strings.Repeat("w", 43)
			wrongToken := "svc_cs_" + strings.Repeat("w", 43)

			// Up to the burst, a failure is a 401; a slow machine may refill a few, so the first
			// 429 must come by twice the burst, far below the 300 of the report.
			first := 0
			for n := 1; n <= 2*burst; n++ {
				r := call(t, "GET", api.URL()+"/v1/account", from("203.0.113.7", bearer(wrongKey)...)...)
				if r.status == http.StatusTooManyRequests {
					first = n
					wantError(t, r, http.StatusTooManyRequests, "rate_limited")
					if sec, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || sec < 1 {
						t.Errorf("429 with Retry-After %q, want whole seconds", r.header.Get("Retry-After"))
					}
					break
				}
				wantError(t, r, http.StatusUnauthorized, "unauthorized")
			}
			if first <= burst {
				t.Fatalf("first 429 at failure %d, want none before %d and one by %d", first, burst+1, 2*burst)
			}
			// The address stays throttled for a wrong key and a wrong client token (five failures a
			// second refill: on a loaded machine one may come through as a 401 before the next 429);
			// a missing or malformed key, refused by its form before any read, is a 401 at once
			// (spec part 5).
			stillThrottled := func(path, credential string) {
				t.Helper()
				for range 5 {
					r := call(t, "GET", api.URL()+path, from("203.0.113.7", bearer(credential)...)...)
					if r.status == http.StatusTooManyRequests {
						wantError(t, r, http.StatusTooManyRequests, "rate_limited")
						return
					}
					wantError(t, r, http.StatusUnauthorized, "unauthorized")
				}
				t.Errorf("%s: five failures in a row from a throttled address got no 429", path)
			}
			stillThrottled("/v1/account", wrongKey)
			stillThrottled("/v1/client/agent", wrongToken)
			wantError(t, call(t, "GET", api.URL()+"/v1/account", from("203.0.113.7")...), http.StatusUnauthorized, "unauthorized")
			wantError(t, call(t, "GET", api.URL()+"/v1/client/agent", from("203.0.113.7", bearer("svc_cs_wrong")...)...), http.StatusUnauthorized, "unauthorized")
			// A valid key from the same address is never refused by it.
			for range 3 {
				if r := call(t, "GET", api.URL()+"/v1/account", from("203.0.113.7", bearer(a.key)...)...); r.status != http.StatusOK {
					t.Fatalf("a valid key from a throttled address: %s, want 200", r)
				}
			}
			// Another client behind the proxy, and the proxy itself, have their own allowance.
			wantError(t, call(t, "GET", api.URL()+"/v1/account", from("203.0.113.8", bearer(wrongKey)...)...), http.StatusUnauthorized, "unauthorized")
			wantError(t, call(t, "GET", api.URL()+"/v1/account", bearer(wrongKey)...), http.StatusUnauthorized, "unauthorized")
		})
	}
}

// TestHourlyLimitsCountValidRequests checks that page uploads (20 an hour), crawls (10 an hour)
// and chat messages (30 a minute per account) count only requests that pass validation: a burst
// of invalid ones, each a 400, leaves the allowance whole, and a valid request over the
// allowance still gets 429.
func TestHourlyLimitsCountValidRequests(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			site := newSiteFixture(t)
			api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")

			t.Run("pages", func(t *testing.T) {
				a := s.newAccount(t)
				for i := range 25 {
					r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{
						"pages": []map[string]any{{"url": "not a url " + strconv.Itoa(i), "title": "T", "content": "Text."}}}, bearer(a.key)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
				}
				valid := map[string]any{"pages": []map[string]any{{"url": "https://shop.example/a", "title": "A", "content": "We bake bread."}}}
				for n := 1; n <= 20; n++ {
					if r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", valid, bearer(a.key)...); r.status != http.StatusOK {
						t.Fatalf("valid upload %d after 25 invalid ones: %s, want 200", n, r)
					}
				}
				wantError(t, callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", valid, bearer(a.key)...), http.StatusTooManyRequests, "rate_limited")
			})

			t.Run("crawl", func(t *testing.T) {
				a := s.newAccount(t)
				for _, body := range []map[string]any{
					{"url": "not a url"}, {"url": ""}, {"url": "ftp://shop.example/"},
					{"url": site.URL() + "/docs/", "max_pages": 0}, {"url": site.URL() + "/docs/", "max_pages": 31},
					{"url": site.URL() + "/docs/", "max_pages": -1},
				} {
					for range 2 {
						wantError(t, callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", body, bearer(a.key)...), http.StatusBadRequest, "invalid_request")
					}
				}
				valid := map[string]any{"url": site.URL() + "/docs/", "max_pages": 1}
				for n := 1; n <= 10; n++ {
					if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", valid, bearer(a.key)...); r.status != http.StatusOK {
						t.Fatalf("valid crawl %d after 12 invalid ones: %s, want 200", n, r)
					}
				}
				wantError(t, callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", valid, bearer(a.key)...), http.StatusTooManyRequests, "rate_limited")
			})

			t.Run("chat", func(t *testing.T) {
				a := s.newAccount(t)
				configureAgent(t, api, a.key)
				tok := createSession(t, api, a.key, map[string]any{"conversation_id": "conv-1"}).str("token")
				for i := range 20 {
					wantError(t, postChat(t, api, a.key, map[string]any{"message": "   "}), http.StatusBadRequest, "invalid_request")
					body := map[string]any{"message": "Hello", "conversation_id": "bad id " + strconv.Itoa(i)}
					wantError(t, postChat(t, api, a.key, body), http.StatusBadRequest, "invalid_request")
				}
				for range 5 {
					r := callJSON(t, "POST", api.URL()+"/v1/client/chat", map[string]any{"message": ""}, bearer(tok)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
				}
				wantCompleted(t, postChat(t, api, a.key, map[string]any{"message": "Hello, are you open?", "conversation_id": "conv-1"}), "conv-1")
			})
		})
	}
}
