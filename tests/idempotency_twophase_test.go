package tests

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestIdempotencyKeyTwoPhaseRetry: with an upstream model a chat message is stored first and its
// reply made after, and charged then. When the charge no longer fits at that moment (another
// reply took the last interaction while the model wrote), the request is 402
// interaction_limit_reached, which frees its Idempotency-Key, and the message stays stored with
// its failed reply. The client's retry with the same key, once the limit is raised, answers that
// message: the conversation holds it once, with one reply, charged once; a retry after that
// replays the answer. On both stacks, against a fake OpenAI-compatible upstream on loopback.
func TestIdempotencyKeyTwoPhaseRetry(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			fake := newFakeModel(t)
			fake.slowDelay = 2 * time.Second
			modelEnv := []string{
				"SVC_MODEL_BASE_URL", fake.URL() + "/v1",
				"SVC_MODEL_API_KEY", "sk-fake-api",
				"SVC_MODEL_NAME", "fake-model",
				"SVC_CHAT_WAIT", "15s",
				"SVC_REPLY_TIMEOUT", "20s",
			}
			api := s.startAPI(t, modelEnv...)
			if s.production {
				s.startWorker(t, modelEnv...)
			}
			a := s.newAccount(t, "--interaction-limit", "1")
			configureAgent(t, api, a.key)
			base, auth := api.URL(), "Bearer "+a.key
			const message = "Do you bake sourdough on sundays? #slow tag=twophase"
			body := `{"message":"` + message + `","conversation_id":"twophase"}`

			first := make(chan response, 1)
			go func() { first <- idemRaw(t, base+"/v1/chat", auth, body, "tp-1") }()
			// While the model writes the first reply, another takes the last interaction.
			deadline := time.Now().Add(10 * time.Second)
			for fake.count("twophase") == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the first message never reached the model")
				}
				time.Sleep(20 * time.Millisecond)
			}
			wantCompleted(t, postChat(t, api, a.key, map[string]any{"message": "hello", "conversation_id": "meanwhile"}), "meanwhile")
			wantError(t, <-first, http.StatusPaymentRequired, "interaction_limit_reached")

			customers := func() []obj {
				t.Helper()
				r := call(t, "GET", base+"/v1/conversations/twophase", bearer(a.key)...)
				if r.status != http.StatusOK {
					t.Fatalf("GET /v1/conversations/twophase: %s", r)
				}
				var out []obj
				for _, m := range listOf(r.body, "messages") {
					if m.str("role") == "customer" && strings.Contains(m.str("content"), "sourdough") {
						out = append(out, m)
					}
				}
				return out
			}
			stored := customers()
			if len(stored) != 1 {
				t.Fatalf("%d customer messages after the 402, want the one stored", len(stored))
			}

			ctl(t, s.env, "account", "set-plan", "--account", a.id, "--interaction-limit", "5")
			// The raised limit reaches the API's kept key checks within moments; until it does,
			// the retry is refused 402 before anything is stored, as any request then.
			var again response
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				again = idemRaw(t, base+"/v1/chat", auth, body, "tp-1")
				if again.status != http.StatusPaymentRequired || time.Now().After(deadline) {
					break
				}
			}
			if again.status != http.StatusOK || again.header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("the retry after the limit was raised: %s (replayed %q), want 200 run anew", again, again.header.Get("Idempotent-Replayed"))
			}
			if got, want := again.body.str("customer_message_id"), stored[0].str("id"); got != want {
				t.Errorf("the retry's customer_message_id %q, want the message stored, %q", got, want)
			}
			replayed := idemRaw(t, base+"/v1/chat", auth, body, "tp-1")
			if replayed.status != http.StatusOK || replayed.header.Get("Idempotent-Replayed") != "true" || replayed.body.str("message_id") != again.body.str("message_id") {
				t.Errorf("a retry after the reply: %s, want the reply replayed", replayed)
			}
			if got := customers(); len(got) != 1 {
				t.Errorf("%d customer messages after the retries, want 1", len(got))
			}
			conv := call(t, "GET", base+"/v1/conversations/twophase", bearer(a.key)...)
			if replies := agentMessages(conv.body); len(replies) != 1 || replies[0].str("id") != again.body.str("message_id") {
				t.Errorf("agent messages %v, want the retry's reply alone", replies)
			}
			if got := accountUsage(t, api, a.key); got != 2 {
				t.Errorf("interactions_spent %v, want 2 (the other reply and this one)", got)
			}
		})
	}
}
