package tests

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// idemRaw sends a POST with the given Idempotency-Key header values (none, one or several, as
// sent) from any goroutine.
func idemRaw(t testing.TB, url, auth, body string, keys ...string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(withTest(context.Background(), t), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	for _, k := range keys {
		req.Header.Add("Idempotency-Key", k)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading the body: %v", url, err)
	}
	r := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		r.body = obj(m)
	}
	return r
}

// TestIdempotencyKeyEdges: a hostile but realistic client's Idempotency-Key, on both stacks. The
// header's odd forms (empty, twice, too long, a control character) are 400 naming the header and
// a 255-character key or one with spaces runs, its replay with the kept Content-Type and the
// retry's own X-Request-Id and rate-limit headers; a body sent again with other JSON whitespace is
// another body (raw bytes are compared); a key reused after the account's key was revoked and
// another made replays (the key is the account's); an interaction_limit_reached refusal is not
// kept, so that the same request runs once the limit is raised; 50 requests at once with one key
// record one conversion and answer alike, without a 5xx; a body over the size cap with a key is
// refused (4xx, the error envelope) and not kept; the preflight of /v1/client/chat allows the header and exposes the replay's.
func TestIdempotencyKeyEdges(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			if s.production {
				s.startWorker(t)
			}
			base := api.URL()

			t.Run("header forms", func(t *testing.T) {
				a := s.newAccount(t)
				url, auth := base+"/v1/conversions", "Bearer "+a.key
				body := `{"kind":"signup"}`
				for name, keys := range map[string][]string{
					"empty":         {""},
					"twice":         {"k-1", "k-1"},
					"256 chars":     {strings.Repeat("k", 256)},
					"tab":           {"a\tb"},
					"unicode":       {"clé-ü"},
					"empty and one": {"", "k-2"},
				} {
					r := idemRaw(t, url, auth, body, keys...)
					if r.status != http.StatusBadRequest || r.body.str("error.code") != "invalid_request" || r.body.str("error.param") != "Idempotency-Key" {
						t.Errorf("%s key %q: %s, want 400 invalid_request naming Idempotency-Key", name, keys, r)
					}
				}
				for name, key := range map[string]string{
					"255 chars":   strings.Repeat("k", 255),
					"with spaces": "order 1042 / retry",
					"symbols":     `!"#$%&'()*+,-./:;<=>?@[\]^_{|}~` + "`",
				} {
					first := idemRaw(t, url, auth, body, key)
					again := idemRaw(t, url, auth, body, key)
					if first.status != http.StatusCreated || again.status != http.StatusCreated || again.header.Get("Idempotent-Replayed") != "true" ||
						first.body.str("id") != again.body.str("id") {
						t.Errorf("%s key: %s then %s, want 201 then the same 201 replayed", name, first, again)
					}
					// The replay is the kept answer with the retry's own request id and rate-limit
					// headers (it counts against the per-key limit).
					if again.header.Get("X-Request-Id") == "" || again.header.Get("X-Request-Id") == first.header.Get("X-Request-Id") ||
						again.header.Get("X-RateLimit-Remaining") == "" ||
						!strings.HasPrefix(again.header.Get("Content-Type"), "application/json") {
						t.Errorf("%s key: the replay's headers %v, the first's %v", name, again.header, first.header)
					}
				}
			})

			t.Run("the body's raw bytes are compared", func(t *testing.T) {
				a := s.newAccount(t)
				url, auth := base+"/v1/conversions", "Bearer "+a.key
				first := idemRaw(t, url, auth, `{"kind":"sale","amount":3,"currency":"EUR"}`, "ws-1")
				other := idemRaw(t, url, auth, `{ "amount": 3, "currency": "EUR", "kind": "sale" }`, "ws-1")
				if first.status != http.StatusCreated {
					t.Fatalf("first: %s", first)
				}
				if other.status != http.StatusBadRequest || other.body.str("error.param") != "Idempotency-Key" {
					t.Errorf("the same parameters in other JSON: %s, want 400 naming Idempotency-Key", other)
				}
				// The same key on another route of the account is refused too.
				faq := idemRaw(t, base+"/v1/knowledge/faq", auth, `{"kind":"sale","amount":3,"currency":"EUR"}`, "ws-1")
				if faq.status != http.StatusBadRequest || faq.body.str("error.param") != "Idempotency-Key" {
					t.Errorf("the key on another route: %s, want 400 naming Idempotency-Key", faq)
				}
			})

			t.Run("a key outlives the API key that used it", func(t *testing.T) {
				a := s.newAccount(t)
				body := `{"kind":"lead"}`
				first := idemRaw(t, base+"/v1/conversions", "Bearer "+a.key, body, "rev-1")
				ctl(t, s.env, "key", "revoke", "--key-id", a.keyID)
				_, key2 := s.newKey(t, a.id)
				gone := idemRaw(t, base+"/v1/conversions", "Bearer "+a.key, body, "rev-1")
				again := idemRaw(t, base+"/v1/conversions", "Bearer "+key2, body, "rev-1")
				if first.status != http.StatusCreated || gone.status != http.StatusUnauthorized {
					t.Fatalf("first %s, with the revoked key %s", first, gone)
				}
				if again.status != http.StatusCreated || again.header.Get("Idempotent-Replayed") != "true" || again.body.str("id") != first.body.str("id") {
					t.Errorf("the new key's retry: %s, want the first conversion replayed", again)
				}
			})

			t.Run("a refusal of the interaction limit is not kept", func(t *testing.T) {
				a := s.newAccount(t, "--interaction-limit", "1")
				configureAgent(t, api, a.key)
				loadBrain(t, api, a.key)
				wantCompleted(t, postChat(t, api, a.key, map[string]any{"message": "Can I pay by card?", "conversation_id": "lim"}), "lim")
				body := `{"message":"Is there parking near the shop?","conversation_id":"lim"}`
				r := idemRaw(t, base+"/v1/chat", "Bearer "+a.key, body, "lim-1")
				wantError(t, r, http.StatusPaymentRequired, "interaction_limit_reached")
				ctl(t, s.env, "account", "set-plan", "--account", a.id, "--interaction-limit", "5")
				again := idemRaw(t, base+"/v1/chat", "Bearer "+a.key, body, "lim-1")
				if again.status != http.StatusOK || again.header.Get("Idempotent-Replayed") != "" {
					t.Errorf("the same request after the limit was raised: %s (replayed %q), want 200 run anew", again, again.header.Get("Idempotent-Replayed"))
				}
				if got := accountUsage(t, api, a.key); got != 2 {
					t.Errorf("interactions_spent %v, want 2", got)
				}
				conv := call(t, "GET", base+"/v1/conversations/lim", bearer(a.key)...)
				msgs, _ := conv.body.get("messages")
				if list, _ := msgs.([]any); len(list) != 4 {
					t.Errorf("the conversation holds %d messages, want 4 (two questions, two replies): %s", len(list), conv)
				}
			})

			t.Run("50 at once with one key", func(t *testing.T) {
				a := s.newAccount(t)
				const n = 50
				answers := make([]idemAnswer, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						answers[i] = idemPost(t.Context(), base+"/v1/conversions", a.key, "burst-1", `{"kind":"sale","amount":1,"currency":"EUR"}`)
					}()
				}
				wg.Wait()
				ran := 0
				for i, x := range answers {
					if x.err != nil || x.status != http.StatusCreated {
						t.Errorf("request %d: %v %d %s, want 201", i, x.err, x.status, x.raw)
						continue
					}
					if !x.replayed {
						ran++
					}
					if string(x.raw) != string(answers[0].raw) {
						t.Errorf("request %d answered %s, want %s", i, x.raw, answers[0].raw)
					}
				}
				if ran != 1 {
					t.Errorf("%d requests ran, want 1", ran)
				}
				list := call(t, "GET", base+"/v1/conversions", bearer(a.key)...)
				data, _ := list.body.get("data")
				if rows, _ := data.([]any); len(rows) != 1 {
					t.Errorf("%d conversions recorded, want 1", len(rows))
				}
			})

			t.Run("a body over the cap", func(t *testing.T) {
				a := s.newAccount(t)
				big := `{"kind":"sale","reference":"` + strings.Repeat("x", 9<<20) + `"}`
				r := idemRaw(t, base+"/v1/conversions", "Bearer "+a.key, big, "big-1")
				if r.status >= 500 || r.status < 400 || r.body.str("error.code") == "" {
					t.Errorf("a body over the cap with a key: %s, want a 4xx error envelope", r)
				}
				small := idemRaw(t, base+"/v1/conversions", "Bearer "+a.key, `{"kind":"sale"}`, "big-1")
				if small.status != http.StatusCreated || small.header.Get("Idempotent-Replayed") != "" {
					t.Errorf("the key after a refused big body: %s, want 201 run", small)
				}
			})

			t.Run("the client chat's preflight", func(t *testing.T) {
				r := call(t, "OPTIONS", base+"/v1/client/chat", "Origin", "https://app.example",
					"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization,content-type,idempotency-key")
				if r.status >= 300 || !strings.Contains(strings.ToLower(r.header.Get("Access-Control-Allow-Headers")), "idempotency-key") ||
					!strings.Contains(r.header.Get("Access-Control-Expose-Headers"), "Idempotent-Replayed") {
					t.Errorf("preflight: %d allow %q expose %q", r.status, r.header.Get("Access-Control-Allow-Headers"), r.header.Get("Access-Control-Expose-Headers"))
				}
			})
		})
	}
}

// TestIdempotencyKeyDisconnect: a client that gives up on a chat request with a key while its
// reply is written (a timeout of its own) and sends it again gets at once the 202 pending kept
// for the key (not a 5xx, nor a wait of 60 s), and the one reply, charged once, appears in the
// conversation, on both stacks.
func TestIdempotencyKeyDisconnect(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, fake, a := slowModelAccount(t, env.stack(t))
			url := api.URL() + "/v1/chat"
			before := accountUsage(t, api, a.key)
			body := `{"message":"#slow tag=D1 Do you bake on Sundays?","conversation_id":"idem-gone"}`
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan idemAnswer, 1)
			go func() { done <- idemPost(ctx, url, a.key, "gone-1", body) }()
			deadline := time.Now().Add(5 * time.Second)
			for fake.count("D1") == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			if first := <-done; first.err == nil {
				t.Fatalf("the first request answered %d %s before it was given up", first.status, first.raw)
			}
			start := time.Now()
			again := idemPost(t.Context(), url, a.key, "gone-1", body)
			took := time.Since(start)
			// The first request's answer was the 202 pending of a reply still written (the reply
			// goes on without its caller), kept for the key: the retry replays it at once.
			if again.err != nil || again.status != http.StatusAccepted || !again.replayed || took > 5*time.Second {
				t.Fatalf("the retry: %v %d %s (replayed %v, after %v), want the 202 pending replayed at once", again.err, again.status, again.raw, again.replayed, took)
			}
			var list []any
			for end := time.Now().Add(10 * time.Second); len(list) < 2 && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
				conv := call(t, "GET", api.URL()+"/v1/conversations/idem-gone", bearer(a.key)...)
				msgs, _ := conv.body.get("messages")
				list, _ = msgs.([]any)
			}
			if len(list) != 2 {
				t.Errorf("the conversation holds %d messages, want 2 (the message and its reply)", len(list))
			}
			third := idemPost(t.Context(), url, a.key, "gone-1", body)
			if third.status != http.StatusAccepted || !third.replayed || string(third.raw) != string(again.raw) {
				t.Errorf("a third try: %d %s (replayed %v), want the 202 replayed", third.status, third.raw, third.replayed)
			}
			if got := accountUsage(t, api, a.key); got != before+1 {
				t.Errorf("interactions_spent %v, want %v (charged once)", got, before+1)
			}
			if n := fake.count("D1"); n != 1 {
				t.Errorf("the upstream got %d calls for the message, want 1", n)
			}
		})
	}
}
