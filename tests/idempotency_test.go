package tests

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestIdempotencyKey: the Idempotency-Key header of the REST API's POST routes, on both stacks. A
// conversion retried with the same key is recorded once and counted once in GET /v1/conversions;
// a chat message retried is replied and charged once (GET /v1/account) and the retry gets the
// same reply and conversation id, with Idempotent-Replayed: true (both answers carry the key back
// in Idempotency-Key); the same key with another body
// or route is 400 naming the header; requests sent at once with one key answer alike with one
// effect; a client session's keys are its own; without the header nothing changes.
func TestIdempotencyKey(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			if s.production {
				s.startWorker(t)
			}
			a := s.newAccount(t)
			configureAgent(t, api, a.key)
			loadBrain(t, api, a.key)
			base := api.URL()
			auth := bearer(a.key)

			conversions := func(t *testing.T) map[string]float64 {
				t.Helper()
				r := call(t, "GET", base+"/v1/conversions", auth...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/conversions: %s", r)
				}
				counts := map[string]float64{}
				totals, _ := r.body.get("totals")
				list, _ := totals.([]any)
				for _, x := range list {
					m, _ := x.(map[string]any)
					n, _ := m["count"].(float64)
					counts[fmt.Sprint(m["kind"])] += n
				}
				data, _ := r.body.get("data")
				rows, _ := data.([]any)
				counts["rows"] = float64(len(rows))
				return counts
			}

			t.Run("a conversion retried is recorded once", func(t *testing.T) {
				body := `{"kind":"sale","amount":12.5,"currency":"EUR","reference":"order-1"}`
				first := callJSON(t, "POST", base+"/v1/conversions", body, append(auth, "Idempotency-Key", "conv-order-1")...)
				if first.status != http.StatusCreated || first.header.Get("Idempotent-Replayed") != "" {
					t.Fatalf("first POST: %s (Idempotent-Replayed %q), want 201 not replayed", first, first.header.Get("Idempotent-Replayed"))
				}
				again := callJSON(t, "POST", base+"/v1/conversions", body, append(auth, "Idempotency-Key", "conv-order-1")...)
				if again.status != http.StatusCreated || again.header.Get("Idempotent-Replayed") != "true" {
					t.Fatalf("retry: %s (Idempotent-Replayed %q), want 201 replayed", again, again.header.Get("Idempotent-Replayed"))
				}
				if !bytes.Equal(first.raw, again.raw) {
					t.Errorf("the retry answered %s, want the first answer %s", again.raw, first.raw)
				}
				// Both answers send the key back, as Stripe's do.
				if f, a := first.header.Get("Idempotency-Key"), again.header.Get("Idempotency-Key"); f != "conv-order-1" || a != "conv-order-1" {
					t.Errorf("Idempotency-Key %q on the first answer, %q on the replay: want conv-order-1 on both", f, a)
				}
				if ct := again.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("the replay's Content-Type %q, want application/json", ct)
				}
				if got := conversions(t); got["sale"] != 1 || got["rows"] != 1 {
					t.Errorf("GET /v1/conversions counts %v after a retried conversion, want one sale", got)
				}
				// Another account's key of the same name is its own.
				b := s.newAccount(t)
				other := callJSON(t, "POST", base+"/v1/conversions", body, "Authorization", "Bearer "+b.key, "Idempotency-Key", "conv-order-1")
				if other.status != http.StatusCreated || other.header.Get("Idempotent-Replayed") != "" || other.body.str("id") == first.body.str("id") {
					t.Errorf("another account with the same key: %s, want a conversion of its own", other)
				}
			})

			t.Run("without the header nothing changes", func(t *testing.T) {
				body := `{"kind":"signup"}`
				for i := range 2 {
					r := callJSON(t, "POST", base+"/v1/conversions", body, auth...)
					if r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" {
						t.Fatalf("POST %d without a key: %s", i, r)
					}
				}
				if got := conversions(t); got["signup"] != 2 {
					t.Errorf("two POSTs without a key recorded %v signups, want 2", got["signup"])
				}
			})

			t.Run("a chat message retried is replied and charged once", func(t *testing.T) {
				before := accountUsage(t, api, a.key)
				body := `{"message":"Do you have gluten-free bread?","customer_name":"Ana"}`
				first := callJSON(t, "POST", base+"/v1/chat", body, append(auth, "Idempotency-Key", "chat-1")...)
				reply := wantCompleted(t, first, "")
				if got := accountUsage(t, api, a.key); got != before+1 {
					t.Fatalf("interactions_spent %v after one reply, want %v", got, before+1)
				}
				again := callJSON(t, "POST", base+"/v1/chat", body, append(auth, "Idempotency-Key", "chat-1")...)
				if again.status != http.StatusOK || again.header.Get("Idempotent-Replayed") != "true" {
					t.Fatalf("retry: %s, want 200 replayed", again)
				}
				if !bytes.Equal(first.raw, again.raw) {
					t.Errorf("the retry answered %s, want the first answer %s", again.raw, first.raw)
				}
				if again.body.str("conversation_id") != reply.str("conversation_id") || again.body.str("reply") != reply.str("reply") {
					t.Errorf("the retry's conversation %q reply %q, want %q %q", again.body.str("conversation_id"),
						again.body.str("reply"), reply.str("conversation_id"), reply.str("reply"))
				}
				if got := accountUsage(t, api, a.key); got != before+1 {
					t.Errorf("interactions_spent %v after a retried message, want %v (charged once)", got, before+1)
				}
				conv := call(t, "GET", base+"/v1/conversations/"+reply.str("conversation_id"), auth...)
				msgs, _ := conv.body.get("messages")
				if list, _ := msgs.([]any); len(list) != 2 {
					t.Errorf("the conversation holds %d messages after a retried message, want 2: %s", len(list), conv)
				}

				// The same key with another body, or on another route: 400 naming the header.
				other := callJSON(t, "POST", base+"/v1/chat", `{"message":"Can I pay by card?","customer_name":"Ana"}`,
					append(auth, "Idempotency-Key", "chat-1")...)
				wantError(t, other, http.StatusBadRequest, "invalid_request")
				if other.body.str("error.param") != "Idempotency-Key" || !strings.Contains(other.body.str("error.message"), "same parameters") {
					t.Errorf("another body with the key: %s, want param Idempotency-Key and Stripe's message", other)
				}
				route := callJSON(t, "POST", base+"/v1/conversions", body, append(auth, "Idempotency-Key", "chat-1")...)
				wantError(t, route, http.StatusBadRequest, "invalid_request")
				if route.body.str("error.param") != "Idempotency-Key" {
					t.Errorf("another route with the key: %s, want param Idempotency-Key", route)
				}
				if got := accountUsage(t, api, a.key); got != before+1 {
					t.Errorf("interactions_spent %v after the refusals, want %v", got, before+1)
				}
			})

			t.Run("an invalid key is 400 naming the header", func(t *testing.T) {
				for _, key := range []string{strings.Repeat("k", 256), "tab\there"} {
					r := callJSON(t, "POST", base+"/v1/conversions", `{"kind":"lead"}`, append(auth, "Idempotency-Key", key)...)
					wantError(t, r, http.StatusBadRequest, "invalid_request")
					if r.body.str("error.param") != "Idempotency-Key" {
						t.Errorf("key %q: %s, want param Idempotency-Key", key, r)
					}
				}
				if got := conversions(t); got["lead"] != 0 {
					t.Errorf("refused keys recorded %v leads", got["lead"])
				}
			})

			t.Run("the model-compatible endpoints ignore the header", func(t *testing.T) {
				for i := range 2 {
					r := callJSON(t, "POST", base+"/v1/embeddings", `{"model":"svc-embeddings","input":"bread"}`,
						append(auth, "Idempotency-Key", strings.Repeat("k", 300))...)
					if r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "" {
						t.Errorf("POST /v1/embeddings %d with a key it does not read: %s", i, shorten(string(r.raw), 300))
					}
				}
			})

			t.Run("requests at once with one key have one effect", func(t *testing.T) {
				const n = 8
				before := accountUsage(t, api, a.key)
				for _, c := range []struct{ path, key, body string }{
					{"/v1/conversions", "par-conv", `{"kind":"lead","reference":"par"}`},
					{"/v1/chat", "par-chat", `{"message":"Is there parking near the shop?"}`},
				} {
					answers := make([]idemAnswer, n)
					var wg sync.WaitGroup
					for i := range n {
						wg.Add(1)
						go func() {
							defer wg.Done()
							answers[i] = idemPost(t.Context(), base+c.path, a.key, c.key, c.body)
						}()
					}
					wg.Wait()
					replayed := 0
					for i, ans := range answers {
						if ans.err != nil {
							t.Fatalf("%s %d: %v", c.path, i, ans.err)
						}
						if ans.status >= 300 || !bytes.Equal(ans.raw, answers[0].raw) {
							t.Errorf("%s %d answered %d %s; want what the first answered, %d %s", c.path, i, ans.status, ans.raw,
								answers[0].status, answers[0].raw)
						}
						if ans.replayed {
							replayed++
						}
					}
					if replayed != n-1 {
						t.Errorf("%s: %d of %d answers replayed, want all but one", c.path, replayed, n)
					}
				}
				if got := conversions(t); got["lead"] != 1 {
					t.Errorf("%d requests at once with one key recorded %v leads, want 1", n, got["lead"])
				}
				if got := accountUsage(t, api, a.key); got != before+1 {
					t.Errorf("interactions_spent %v after %d chat requests at once with one key, want %v", got, n, before+1)
				}
			})

			t.Run("a client session's keys are its own", func(t *testing.T) {
				before := accountUsage(t, api, a.key)
				body := `{"message":"Can I pay by card?"}`
				var convs []string
				for _, conv := range []string{"idem-client-1", "idem-client-2"} {
					tok := createSession(t, api, a.key, map[string]any{"conversation_id": conv}).str("token")
					first := callJSON(t, "POST", base+"/v1/client/chat", body, "Authorization", "Bearer "+tok, "Idempotency-Key", "same")
					wantCompleted(t, first, conv)
					again := callJSON(t, "POST", base+"/v1/client/chat", body, "Authorization", "Bearer "+tok, "Idempotency-Key", "same")
					if again.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(first.raw, again.raw) {
						t.Errorf("session %s: the retry answered %s, want the first answer replayed", conv, again)
					}
					convs = append(convs, again.body.str("conversation_id"))
				}
				if convs[0] == convs[1] {
					t.Errorf("two sessions with one key got one answer (conversation %s): a session's key must be its own", convs[0])
				}
				if got := accountUsage(t, api, a.key); got != before+2 {
					t.Errorf("interactions_spent %v, want %v: one reply per session", got, before+2)
				}
			})
		})
	}
}

type idemAnswer struct {
	status   int
	raw      []byte
	replayed bool
	err      error
}

// idemPost sends a POST with an Idempotency-Key from any goroutine (no t.Fatal).
func idemPost(ctx context.Context, url, apiKey, idemKey, body string) idemAnswer {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return idemAnswer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idemKey)
	resp, err := httpClient.Do(req)
	if err != nil {
		return idemAnswer{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return idemAnswer{status: resp.StatusCode, raw: raw, replayed: resp.Header.Get("Idempotent-Replayed") == "true", err: err}
}

// slowModelAccount starts s's processes against a fake upstream whose "#slow" messages take 1.5 s
// (a chat waits up to 10 s) and makes an account whose agent is set up.
func slowModelAccount(t *testing.T, s stack) (*proc, *fakeModel, account) {
	t.Helper()
	fake := newFakeModel(t)
	fake.slowDelay = 1500 * time.Millisecond
	modelEnv := []string{
		"SVC_MODEL_BASE_URL", fake.URL() + "/v1",
		"SVC_MODEL_API_KEY", "sk-fake-api",
		"SVC_MODEL_NAME", "fake-model",
		"SVC_CHAT_WAIT", "10s",
		"SVC_REPLY_TIMEOUT", "20s",
	}
	api := s.startAPI(t, modelEnv...)
	if s.production {
		s.startWorker(t, modelEnv...)
	}
	a := s.newAccount(t)
	configureAgent(t, api, a.key)
	return api, fake, a
}

// TestIdempotencyKeyWaits: against a slow upstream, a retry sent while the first request with
// its key still runs waits for it and replays its reply (the upstream asked once, one charge);
// a request whose reply failed (503) frees its key, so its retry runs again.
func TestIdempotencyKeyWaits(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, fake, a := slowModelAccount(t, env.stack(t))
			url := api.URL() + "/v1/chat"

			t.Run("a retry waits for the running request", func(t *testing.T) {
				before := accountUsage(t, api, a.key)
				body := `{"message":"#slow tag=W1 Do you bake on Sundays?","conversation_id":"idem-wait"}`
				firstDone := make(chan idemAnswer, 1)
				go func() { firstDone <- idemPost(t.Context(), url, a.key, "wait-1", body) }()
				// The retry is sent once the upstream has the first request.
				deadline := time.Now().Add(5 * time.Second)
				for fake.count("W1") == 0 && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
				start := time.Now()
				again := idemPost(t.Context(), url, a.key, "wait-1", body)
				waited := time.Since(start)
				first := <-firstDone
				if first.err != nil || again.err != nil {
					t.Fatalf("errors: %v, %v", first.err, again.err)
				}
				if first.status != http.StatusOK || first.replayed {
					t.Fatalf("first: %d %s (replayed %v), want 200 not replayed", first.status, first.raw, first.replayed)
				}
				if again.status != http.StatusOK || !again.replayed || !bytes.Equal(first.raw, again.raw) {
					t.Errorf("retry: %d %s (replayed %v), want the first's answer %s replayed", again.status, again.raw, again.replayed, first.raw)
				}
				if waited < 500*time.Millisecond {
					t.Errorf("the retry answered after %v: it did not wait for the running request", waited)
				}
				if n := fake.count("W1"); n != 1 {
					t.Errorf("the upstream got %d calls for the message, want 1", n)
				}
				if got := accountUsage(t, api, a.key); got != before+1 {
					t.Errorf("interactions_spent %v, want %v (charged once)", got, before+1)
				}
			})

			t.Run("a failed reply frees the key", func(t *testing.T) {
				before := accountUsage(t, api, a.key)
				body := `{"message":"#fail tag=F1 Is the shop open today?","conversation_id":"idem-fail"}`
				for i := range 2 {
					r := callJSON(t, "POST", url, body, append(bearer(a.key), "Idempotency-Key", "fail-1")...)
					wantError(t, r, http.StatusServiceUnavailable, "model_unavailable")
					if r.header.Get("Idempotent-Replayed") != "" {
						t.Errorf("attempt %d replayed a 503; a 5xx must free the key", i)
					}
					if n := fake.count("F1"); n != 3*(i+1) {
						t.Errorf("after attempt %d the upstream got %d calls, want %d: the retry runs again", i, n, 3*(i+1))
					}
				}
				if got := accountUsage(t, api, a.key); got != before {
					t.Errorf("interactions_spent %v after failed replies, want %v", got, before)
				}
			})
		})
	}
}
