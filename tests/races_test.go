package tests

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRaces sends writes that race for one row, in both environments: parallel customer messages
// to one conversation (new at the first message), and parallel FAQ upserts of one question.
//
// Chat: 4 accounts each get 25 messages at once to one conversation, 100 requests in flight
// together (the chat limit is 30 messages a minute per account, so the load is spread over
// accounts; each conversation still takes 25 parallel messages). Every message must be answered
// (200, or 202 and then answered), and the conversation must end with exactly one agent reply per
// customer message: the agent message whose reply_to is the customer message's id, placed after
// it, and the one the chat reply named in message_id.
func TestRaces(t *testing.T) {
	const (
		accounts = 4
		parallel = 25
		conv     = "race-1"
	)
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			db := openChatStore(t, s)

			t.Run("parallel messages to one conversation", func(t *testing.T) {
				accts := make([]account, accounts)
				for i := range accts {
					accts[i] = s.newAccount(t)
					configureAgent(t, api, accts[i].key)
				}
				type sent struct {
					text string
					r    response
				}
				out := make([][]sent, accounts)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for a := range accts {
					out[a] = make([]sent, parallel)
					for i := range parallel {
						wg.Go(func() {
							text := fmt.Sprintf("Message %d of account %d: are you open on Sunday?", i+1, a+1)
							<-start
							out[a][i] = sent{text: text, r: postChat(t, api, accts[a].key, map[string]any{"message": text, "conversation_id": conv})}
						})
					}
				}
				close(start)
				wg.Wait()

				failed := 0
				for a, acc := range accts {
					// customer message id -> the agent message id the chat reply named ("" when 202)
					want := map[string]string{}
					texts := map[string]string{}
					for i, m := range out[a] {
						switch m.r.status {
						case http.StatusOK:
							b := wantCompleted(t, m.r, conv)
							want[b.str("customer_message_id")] = b.str("message_id")
							texts[b.str("customer_message_id")] = m.text
						case http.StatusAccepted:
							b := wantPending(t, m.r, conv)
							want[b.str("customer_message_id")] = b.str("message_id")
							texts[b.str("customer_message_id")] = m.text
						default:
							failed++
							t.Errorf("account %d, message %d: %s, want 200 (or 202)", a+1, i+1, m.r)
						}
					}
					if len(want) != parallel {
						continue
					}
					var thread obj
					waitFor(t, 60*time.Second, "a reply to every accepted message", func() (bool, string) {
						thread = getConversation(t, api, acc.key, conv)
						return len(agentMessages(thread)) >= parallel, fmt.Sprintf("%d agent messages", len(agentMessages(thread)))
					})
					wantPairs(t, thread, want, texts)
					if got := db.jobStatuses(t, acc.id); got["done"] != parallel || len(got) != 1 {
						t.Errorf("account %d: reply jobs %v, want done:%d and nothing else", a+1, got, parallel)
					}
					if n := len(db.events(t, acc.id, "message.replied")); n != parallel {
						t.Errorf("account %d: %d message.replied events, want %d", a+1, n, parallel)
					}
					if got := accountUsage(t, api, acc.key); got != parallel {
						t.Errorf("account %d: interactions_spent %v, want %d (one per reply)", a+1, got, parallel)
					}
				}
				if failed > 0 {
					t.Errorf("%d of %d parallel messages failed", failed, accounts*parallel)
				}
			})

			t.Run("the sweep answers a message older than the latest replies", func(t *testing.T) {
				sweepBehindNewer(t, env.stack(t), parallel)
			})

			t.Run("parallel FAQ upserts of one question", func(t *testing.T) {
				const n = 50
				acc := s.newAccount(t)
				statuses := make([]response, n)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i := range n {
					wg.Go(func() {
						body := map[string]any{"items": []map[string]string{{
							"question": "Do you bake on Sundays?", "answer": fmt.Sprintf("Yes, answer %d.", i+1)}}}
						<-start
						statuses[i] = callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", body, bearer(acc.key)...)
					})
				}
				close(start)
				wg.Wait()
				for i, r := range statuses {
					if r.status != http.StatusOK {
						t.Errorf("upsert %d: %s, want 200", i+1, r)
					}
				}
				r := call(t, "GET", api.URL()+"/v1/knowledge", bearer(acc.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/knowledge: %s", r)
				}
				if faq := listOf(r.body, "faq"); len(faq) != 1 || faq[0].str("question") != "Do you bake on Sundays?" {
					t.Errorf("FAQ after %d upserts of one question: %s, want exactly that one item", n, shorten(r.String(), 2000))
				}
			})
		})
	}
}

// sweepBehindNewer leaves one message's reply to the sweep (the fake upstream fails the request's
// own attempts after its 202), sends n newer messages to the same conversation at once and waits
// for their replies; then the sweep must still answer the older message, from the conversation up
// to that message: more than the agent's history of newer messages must not hide it.
func sweepBehindNewer(t *testing.T, s stack, n int) {
	const conv = "behind-1"
	fake := newFakeModel(t)
	model := []string{
		"SVC_MODEL_BASE_URL", fake.URL() + "/v1",
		"SVC_MODEL_API_KEY", "sk-fake-api",
		"SVC_MODEL_NAME", "fake-model",
		"SVC_CHAT_WAIT", "500ms", // the flaky message's first upstream call takes 1 s: 202
		"SVC_REPLY_TIMEOUT", "4s", // the sweep takes the reply over 19 s after its message
		"SVC_SWEEP_INTERVAL", "200ms",
	}
	api := s.startAPI(t, model...)
	if s.production {
		s.startWorker(t, model...)
	}
	db := openChatStore(t, s)
	acc := s.newAccount(t)
	configureAgent(t, api, acc.key)

	old := "#flaky tag=B1 Do you bake sourdough on Sundays?"
	first := wantPending(t, postChat(t, api, acc.key, map[string]any{"message": old, "conversation_id": conv}), conv)
	want := map[string]string{first.str("customer_message_id"): first.str("message_id")}
	texts := map[string]string{first.str("customer_message_id"): old}
	waitFor(t, 30*time.Second, "the request's own attempts failing", func() (bool, string) {
		return fake.count("B1") >= 3, fmt.Sprintf("%d upstream calls", fake.count("B1"))
	})

	out := make([]response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			out[i] = postChat(t, api, acc.key, map[string]any{"message": fmt.Sprintf("Newer message %d: can I pay by card?", i+1), "conversation_id": conv})
		})
	}
	close(start)
	wg.Wait()
	for i, r := range out {
		text := fmt.Sprintf("Newer message %d: can I pay by card?", i+1)
		switch r.status {
		case http.StatusOK:
			b := wantCompleted(t, r, conv)
			want[b.str("customer_message_id")], texts[b.str("customer_message_id")] = b.str("message_id"), text
		case http.StatusAccepted:
			b := wantPending(t, r, conv)
			want[b.str("customer_message_id")], texts[b.str("customer_message_id")] = b.str("message_id"), text
		default:
			t.Fatalf("newer message %d: %s, want 200 (or 202)", i+1, r)
		}
	}
	waitFor(t, 60*time.Second, "the newer messages answered", func() (bool, string) {
		got := db.jobStatuses(t, acc.id)
		return got["done"] >= n, fmt.Sprint(got)
	})
	if got := db.jobStatuses(t, acc.id); got["pending"] != 1 {
		t.Fatalf("reply jobs %v once the newer messages were answered, want the older one still pending for the sweep", got)
	}
	waitFor(t, 90*time.Second, "the sweep finishing the older message's reply", func() (bool, string) {
		got := db.jobStatuses(t, acc.id)
		return got["pending"] == 0, fmt.Sprint(got)
	})
	if got := db.jobStatuses(t, acc.id); got["done"] != n+1 || len(got) != 1 {
		t.Errorf("reply jobs %v, want done:%d and nothing else", got, n+1)
	}
	thread := getConversation(t, api, acc.key, conv)
	wantPairs(t, thread, want, texts)
	for _, m := range agentMessages(thread) {
		if m.str("reply_to") == first.str("customer_message_id") && m.str("content") != fakeRecoveredReply("B1") {
			t.Errorf("the older message's reply %q, want %q", m.str("content"), fakeRecoveredReply("B1"))
		}
	}
	// The sweep's upstream call carried the conversation up to the older message: nothing newer.
	calls := fake.calls()
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].tag != "B1" {
			continue
		}
		msgs := calls[i].req.Messages
		if last := msgs[len(msgs)-1]; last.Role != "user" || !strings.Contains(last.text(), old) {
			t.Errorf("the sweep's upstream call ends with %s %q, want the older message", last.Role, last.text())
		}
		for _, m := range msgs {
			if strings.Contains(m.text(), "Newer message") {
				t.Errorf("the sweep's upstream call holds a message sent after the older one: %q", m.text())
			}
		}
		break
	}
}

// wantPairs checks that a conversation holds exactly the customer messages of want (id -> the
// agent reply's id the chat reply gave, "" when unknown) with their texts, and one agent reply to
// each: the agent message whose reply_to names it, placed after it.
func wantPairs(t testing.TB, thread obj, want, texts map[string]string) {
	t.Helper()
	msgs := listOf(thread, "messages")
	at := map[string]int{}      // customer message id -> position
	replies := map[string]int{} // customer message id -> replies
	for i, m := range msgs {
		id := m.str("id")
		switch m.str("role") {
		case "customer":
			if _, ok := want[id]; !ok {
				t.Errorf("message %d: customer message %s was not sent", i, id)
			}
			if m.str("content") != texts[id] {
				t.Errorf("message %d: customer message %s reads %q, want %q", i, id, m.str("content"), texts[id])
			}
			if v, ok := m.get("reply_to"); !ok || v != nil {
				t.Errorf("message %d: customer message %s has reply_to %v (present %v), want null", i, id, v, ok)
			}
			at[id] = i
		case "agent":
			to := m.str("reply_to")
			_, above := at[to]
			switch {
			case to == "":
				t.Errorf("message %d: agent message %s has no reply_to", i, id)
			case !above:
				t.Errorf("message %d: agent message %s replies to %q, not a customer message above it", i, id, to)
			case want[to] != "" && want[to] != id:
				t.Errorf("message %d: agent message %s replies to %s, whose chat reply named %s", i, id, to, want[to])
			}
			replies[to]++
		default:
			t.Errorf("message %d: role %q", i, m.str("role"))
		}
	}
	if len(at) != len(want) {
		t.Errorf("%d customer messages in the conversation, want %d", len(at), len(want))
	}
	for id := range want {
		if replies[id] != 1 {
			t.Errorf("customer message %s has %d agent replies, want exactly 1", id, replies[id])
		}
	}
}
