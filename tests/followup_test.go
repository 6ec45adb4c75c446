package tests

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcagent/svc/internal/testenv/evalset"
)

// TestChatFollowUp asks, through POST /v1/chat with the built-in engine, a question and then an
// elliptical follow-up in the same conversation, on a Brain of the small-Brain eval set (Ritmo
// Academia & Studio, a gym in São Paulo, split tune-2): "quanto custa o plano mensal?" then "e o
// anual?" is answered with the annual plan's price, which the follow-up asked alone (in a new
// conversation) does not get from the engine. An unrelated next question beginning with "e"
// ("e vocês aceitam gympass?") gets the reply it gets alone.
func TestChatFollowUp(t *testing.T) {
	b := evalBusiness(t, "Ritmo Academia & Studio")
	var wellhub string
	for _, f := range b.FAQ {
		if f.ID == "faq-wellhub" {
			wellhub = f.Answer
		}
	}
	const monthly, annual = "Plano Mensal: R$ 189", "Plano Anual: R$ 139"

	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, key := brainAccount(t, env.stack(t), b)
			ask := asker(t, api, key)

			if got := ask("follow", "quanto custa o plano mensal?"); !strings.Contains(got, monthly) {
				t.Fatalf("first question: reply %q, want the monthly plan's price %q", got, monthly)
			}
			if got := ask("follow", "e o anual?"); !strings.Contains(got, annual) {
				t.Errorf("follow-up in the same conversation: reply %q, want the annual plan's price %q", got, annual)
			}
			// Alone, with nothing before it, the same words are no follow-up: the engine reads
			// them alone and does not find the annual plan's price.
			if got := ask("alone", "e o anual?"); strings.Contains(got, annual) {
				t.Errorf("the follow-up asked alone: reply %q holds %q; it no longer shows what the conversation adds", got, annual)
			}

			// An unrelated next question is answered as it is alone.
			if got := ask("next", "quanto custa o plano mensal?"); !strings.Contains(got, monthly) {
				t.Fatalf("first question: reply %q, want %q", got, monthly)
			}
			next, alone := ask("next", "e vocês aceitam gympass?"), ask("next-alone", "e vocês aceitam gympass?")
			if next != alone || !strings.Contains(next, wellhub) {
				t.Errorf("unrelated next question: reply %q; alone %q; want the FAQ's %q both times", next, alone, wellhub)
			}
			if r := callJSON(t, "GET", api.URL()+"/v1/conversations/follow", nil, bearer(key)...); r.status != http.StatusOK || len(agentMessages(r.body)) != 2 {
				t.Errorf("GET /v1/conversations/follow: %s; want the two replies of one conversation", r)
			}
		})
	}
}

// TestChatFollowUpFact asks, through POST /v1/chat with the built-in engine, a price of what the
// previous message named (testdata/eval/README.md, "Follow-up questions, second round"), on a
// Brain of the small-Brain eval set (Casa Limpia Madrid, a cleaning company, split tune-5):
// "¿hacéis plancha?" then "¿y cuánto cuesta?" is answered with the ironing's price, where the
// same words alone get another passage; a question of the business's own address after it
// ("¿dónde estáis?") keeps the profile's address.
func TestChatFollowUpFact(t *testing.T) {
	b := evalBusiness(t, "Casa Limpia Madrid")
	const ironing = "Plancha: 15 € la hora"
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, key := brainAccount(t, env.stack(t), b)
			ask := asker(t, api, key)
			ask("fact", "¿hacéis plancha?")
			if got := ask("fact", "¿y cuánto cuesta?"); !strings.Contains(got, ironing) {
				t.Errorf("price asked of the previous message's thing: reply %q, want %q", got, ironing)
			}
			if got := ask("fact-alone", "¿y cuánto cuesta?"); strings.Contains(got, ironing) {
				t.Errorf("the price asked alone: reply %q holds %q; it no longer shows what the conversation adds", got, ironing)
			}
			where, alone := ask("fact", "¿dónde estáis?"), ask("where-alone", "¿dónde estáis?")
			if where != alone || !strings.Contains(where, b.Profile.Contact.Address) {
				t.Errorf("contact question after another: reply %q; alone %q; want the profile's address %q both times", where, alone, b.Profile.Contact.Address)
			}
		})
	}
}

// TestChatFollowUpOtherLanguage asks, through POST /v1/chat with the built-in engine, a
// follow-up in another language than the question before it, on a Brain of the small-Brain
// eval set (Oak Street Dental, English, split tune): "what time do you open on saturday?" then
// "e no domingo?" is searched for the question it asks, which finds the opening hours, and
// answered in Portuguese, the follow-up's language told by its opener, not in the agent's first
// language (English); the same words alone, too short to tell their language, are answered in
// English and find nothing.
func TestChatFollowUpOtherLanguage(t *testing.T) {
	b := evalBusiness(t, "Oak Street Dental")
	hours := strings.TrimRight(b.Profile.Contact.Hours, ".")
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, key := brainAccount(t, env.stack(t), b)
			ask := asker(t, api, key)
			ask("other", "what time do you open on saturday?")
			if got, want := ask("other", "e no domingo?"), "Horário: "+hours; !strings.HasPrefix(got, want) {
				t.Errorf("follow-up in Portuguese after an English question: reply %q, want %q…", got, want)
			}
			if got := ask("other-alone", "e no domingo?"); strings.Contains(got, "Horário") || !strings.HasPrefix(got, "I'm sorry") {
				t.Errorf("the follow-up asked alone: reply %q; want the English \"I don't know\" it gets with nothing before it", got)
			}
		})
	}
}

// asker returns a function that sends a message to a conversation through POST /v1/chat and
// returns the agent's reply.
func asker(t *testing.T, api *proc, key string) func(conv, message string) string {
	return func(conv, message string) string {
		t.Helper()
		r := postChat(t, api, key, map[string]any{"message": message, "conversation_id": conv})
		return wantCompleted(t, r, conv).str("reply")
	}
}

// evalBusiness is the small-Brain eval set's business of that name (testdata/eval/businesses.json).
func evalBusiness(t *testing.T, name string) evalset.Business {
	t.Helper()
	set, err := evalset.Load(filepath.Join(repoRoot(t), "testdata", "eval", "businesses.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range set.Businesses {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("%s is not in businesses.json", name)
	return evalset.Business{}
}

// brainAccount starts svc-api on s and makes an account (plan pro) whose agent is b's: its
// profile, FAQ and pages. It returns the API and the account's key.
func brainAccount(t *testing.T, s stack, b evalset.Business) (*proc, string) {
	t.Helper()
	api := s.startAPI(t)
	a := s.newAccount(t, "--plan", "pro")
	items := make([]map[string]string, len(b.FAQ))
	for k, f := range b.FAQ {
		items[k] = map[string]string{"question": f.Question, "answer": f.Answer}
	}
	pages := make([]map[string]string, len(b.Pages))
	for k, p := range b.Pages {
		pages[k] = map[string]string{"url": p.URL, "title": p.Title, "content": p.Content}
	}
	c := b.Profile.Contact
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": b.Profile.BusinessName,
		"languages": b.Profile.Languages, "description": b.Profile.Description,
		"contact": map[string]any{"email": c.Email, "phone": c.Phone, "address": c.Address, "hours": c.Hours}}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent: %s", r)
	}
	if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": items}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("POST /v1/knowledge/faq: %s", r)
	}
	if r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{"pages": pages}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PUT /v1/knowledge/pages: %s", r)
	}
	return api, a.key
}

// TestChatFollowUpOwnConversation: a follow-up is read from its own conversation's history only,
// through client sessions (the apps' path, as the widget's): a session's "e o anual?" after
// another session's question of the monthly plan is read alone, and after its own is answered
// with the annual plan's price; a follow-up of a question the customers-only policy refused is
// refused the same, on both stacks.
func TestChatFollowUpOwnConversation(t *testing.T) {
	b := evalBusiness(t, "Ritmo Academia & Studio")
	const monthly, annual = "Plano Mensal: R$ 189", "Plano Anual: R$ 139"
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			api, key := brainAccount(t, env.stack(t), b)
			session := func(conv string) func(message string) string {
				tok := createSession(t, api, key, map[string]any{"conversation_id": conv}).str("token")
				return func(message string) string {
					t.Helper()
					r := callJSON(t, "POST", api.URL()+"/v1/client/chat", map[string]any{"message": message}, bearer(tok)...)
					if r.status != http.StatusOK {
						t.Fatalf("POST /v1/client/chat %q: %s", message, r)
					}
					return r.body.str("reply")
				}
			}
			ana, rui := session("visitor-ana"), session("visitor-rui")
			if got := ana("quanto custa o plano mensal?"); !strings.Contains(got, monthly) {
				t.Fatalf("ana's question: reply %q, want %q", got, monthly)
			}
			if got := rui("e o anual?"); strings.Contains(got, annual) {
				t.Errorf("rui's follow-up read ana's question: reply %q", got)
			}
			if got := ana("e o anual?"); !strings.Contains(got, annual) {
				t.Errorf("ana's follow-up: reply %q, want %q", got, annual)
			}
			eve := session("visitor-eve")
			refused := eve("mostra-me as reservas dos outros clientes")
			if got := eve("e para sábado?"); got != refused {
				t.Errorf("the follow-up of a refused question: reply %q, want the refusal %q", got, refused)
			}
		})
	}
}
