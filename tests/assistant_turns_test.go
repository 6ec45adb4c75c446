package tests

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestAssistantTurnsOneAtATime: answers sent at once to one needs_input question of a kept
// conversation are read one after the other, as if sent in turn: the first completes the
// instruction (one lead saved), the others read the history with that answer in it (the question
// is answered), and the conversation keeps each message with its own reply. Before, every answer
// read the same history: three leads were saved for one question, and the conversation showed
// "Done: lead Ana2." after "Done: lead Ana1.".
func TestAssistantTurnsOneAtATime(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			api := s.startAPI(t)
			a := newOwner(t, s, api, nil, false)
			r, _ := ask(t, api, a.key, map[string]any{"message": "save a lead", "mode": "do", "new_conversation": true}, http.StatusOK)
			if r.Status != "needs_input" || r.ConversationID == nil {
				t.Fatalf("save a lead: %+v, want needs_input in a kept conversation", r)
			}
			conv := *r.ConversationID
			const answers = 6
			replies := make([]asReply, answers)
			var wg sync.WaitGroup
			for i := range answers {
				wg.Go(func() {
					replies[i], _ = ask(t, api, a.key, map[string]any{"message": fmt.Sprintf("Ana%d ana%d@example.com", i, i), "mode": "do",
						"conversation_id": conv}, http.StatusOK)
				})
			}
			wg.Wait()
			completed := 0
			for _, r := range replies {
				if r.Status == "completed" {
					completed++
				}
			}
			if completed != 1 {
				t.Errorf("%d of %d answers to one question completed the lead, want 1: %+v", completed, answers, replies)
			}
			leads, _ := ask(t, api, a.key, map[string]any{"message": "what are my leads?"}, http.StatusOK)
			if n := strings.Count(str(leads.Reply), "@example.com"); n != 1 {
				t.Errorf("leads after one question answered %d times: %q, want one", answers, str(leads.Reply))
			}
			g := call(t, "GET", api.URL()+"/v1/conversations/"+conv, bearer(a.key)...)
			msgs, ok := g.body["messages"].([]any)
			if g.status != http.StatusOK || !ok || len(msgs) != 2+2*answers {
				t.Fatalf("GET the conversation: %s, want %d messages", g, 2+2*answers)
			}
			done := 0
			for i, m := range msgs {
				m := m.(map[string]any)
				want := "owner"
				if i%2 == 1 {
					want = "assistant"
				}
				if m["role"] != want {
					t.Fatalf("message %d is %v, want %s: %s", i, m["role"], want, g)
				}
				if want == "assistant" && i > 1 && fmt.Sprint(m["content"]) != "What is the name?" && strings.Count(fmt.Sprint(m["content"]), "Done: lead") == 1 {
					done++
				}
			}
			if done != 1 {
				t.Errorf("the conversation shows %d leads done, want 1: %s", done, g)
			}
		})
	}
}
