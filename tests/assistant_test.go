package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/internal/testenv"
)

// The owner's assistant (spec 4.7), end to end on both stacks, read by the built-in command
// grammar and by a fake upstream that proposes tool calls; e-mails go to an SMTP server of the
// test on loopback.

type asAction struct {
	Type    string  `json:"type"`
	OK      *bool   `json:"ok"`
	Error   *string `json:"error"`
	To      *string `json:"to"`
	Cc      *string `json:"cc"`
	Subject *string `json:"subject"`
	Text    *string `json:"text"`
	Reason  string  `json:"reason"`
	Setting string  `json:"setting"`
	Value   string  `json:"value"`
	Date    string  `json:"date"`
	URL     string  `json:"url"`
}

type asReply struct {
	Object         string     `json:"object"`
	Mode           string     `json:"mode"`
	Status         string     `json:"status"`
	ConversationID *string    `json:"conversation_id"`
	Reply          *string    `json:"reply"`
	Actions        []asAction `json:"actions"`
	Blocked        []asAction `json:"blocked"`
	Approval       *struct {
		ID        string     `json:"id"`
		ExpiresAt string     `json:"expires_at"`
		Actions   []asAction `json:"actions"`
	} `json:"approval"`
	Usage struct {
		Spent     int `json:"interactions_spent"`
		Remaining int `json:"interactions_remaining"`
		Limit     int `json:"interactions_limit"`
	} `json:"usage"`
}

func TestAssistant(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			mail := testenv.NewSMTP(t, testenv.SMTPOptions{})
			up := newAssistantUpstream(t)
			engines := []struct {
				name string
				api  *proc
			}{
				{"local", s.startAPI(t)},
				{"upstream", s.startAPI(t, "SVC_MODEL_BASE_URL", up.URL()+"/v1", "SVC_MODEL_API_KEY", "sk-test", "SVC_MODEL_NAME", "gpt-test",
					"SVC_MODEL_IMAGE_NAME", "img-test")},
			}
			for _, e := range engines {
				t.Run(e.name, func(t *testing.T) { testAssistant(t, s, e.api, mail, up, e.name == "upstream") })
			}
		})
	}
}

// newOwner makes an account with a configured agent and, when mailbox, its mail connector on
// the test SMTP server.
func newOwner(t *testing.T, s stack, api *proc, m *testenv.SMTP, mailbox bool) account {
	t.Helper()
	a := s.newAccount(t, "--plan", "pro", "--owner-email", "lu@example.com")
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", `{"business_name":"Padaria Lu","tone":"friendly"}`, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent: %s", r)
	}
	if mailbox {
		out := ctl(t, s.env, "mail", "set", "--account", a.id, "--host", "127.0.0.1", "--port", strconv.Itoa(m.Port()),
			"--from", "Padaria Lu <lu@example.com>")
		if out.str("host") != "127.0.0.1" || out.str("security") != "starttls" {
			t.Fatalf("svcctl mail set: %s", out)
		}
	}
	return a
}

func ask(t *testing.T, api *proc, key string, body any, wantStatus int) (asReply, response) {
	t.Helper()
	r := callJSON(t, "POST", api.URL()+"/v1/assistant", body, bearer(key)...)
	if r.status != wantStatus {
		t.Fatalf("POST /v1/assistant %v: %s, want %d", body, r, wantStatus)
	}
	var out asReply
	if wantStatus == http.StatusOK {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			t.Fatalf("decode: %v: %s", err, r.raw)
		}
		if out.Object != "assistant_reply" {
			t.Fatalf("object %q: %s", out.Object, r.raw)
		}
	}
	return out, r
}

// approveSetting asks for a settings change in mode do, checks that it waits for approval,
// approves it and checks the agent's field (a path of GET /v1/agent) afterwards.
func approveSetting(t *testing.T, api *proc, key, message, field, want string) {
	t.Helper()
	r, _ := ask(t, api, key, map[string]any{"message": message, "mode": "do"}, http.StatusOK)
	if r.Status != "needs_approval" || len(r.Approval.Actions) != 1 || r.Approval.Actions[0].Type != "settings" {
		t.Fatalf("%q: %+v, want the settings change waiting", message, r)
	}
	if ok, _ := ask(t, api, key, map[string]any{"approve": r.Approval.ID}, http.StatusOK); ok.Status != "completed" {
		t.Errorf("approve %q: %+v", message, ok)
	}
	if g := call(t, "GET", api.URL()+"/v1/agent", bearer(key)...); g.body.str(field) != want {
		t.Errorf("%s after approving %q: %s, want %q", field, message, g, want)
	}
}

func spentOf(t *testing.T, api *proc, key string) int {
	t.Helper()
	r := call(t, "GET", api.URL()+"/v1/account", bearer(key)...)
	n, ok := r.body.num("usage.interactions_spent")
	if r.status != http.StatusOK || !ok {
		t.Fatalf("GET /v1/account: %s", r)
	}
	return int(n)
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func testAssistant(t *testing.T, s stack, api *proc, m *testenv.SMTP, up *assistantUpstream, upstream bool) {
	const email = "email ana@example.com subject Hello text See you at 5"

	t.Run("email waits for approval, runs once", func(t *testing.T) {
		a := newOwner(t, s, api, m, true)
		before := spentOf(t, api, a.key)
		sent := m.Count()
		r, _ := ask(t, api, a.key, map[string]any{"message": email, "mode": "do"}, http.StatusOK)
		if r.Status != "needs_approval" || r.Mode != "do" || r.Approval == nil || !strings.HasPrefix(r.Approval.ID, "apr_") {
			t.Fatalf("do email: %+v, want needs_approval with an apr_ approval", r)
		}
		if r.ConversationID != nil || len(r.Actions) != 0 || len(r.Blocked) != 0 || r.Reply == nil {
			t.Errorf("do email: conversation %v actions %v blocked %v reply %v; want a stateless reply with nothing done", r.ConversationID, r.Actions, r.Blocked, r.Reply)
		}
		exp, err := time.Parse(time.RFC3339, r.Approval.ExpiresAt)
		if err != nil || !regexp.MustCompile(`[+-]\d\d:\d\d$`).MatchString(r.Approval.ExpiresAt) ||
			exp.Before(time.Now().Add(59*time.Minute)) || exp.After(time.Now().Add(61*time.Minute)) {
			t.Errorf("expires_at %q (%v): want 60 minutes ahead, with an offset", r.Approval.ExpiresAt, err)
		}
		want := asAction{Type: "email", To: ptr("ana@example.com"), Cc: ptr(""), Subject: ptr("Hello"), Text: ptr("See you at 5")}
		if len(r.Approval.Actions) != 1 || !sameAction(r.Approval.Actions[0], want) {
			t.Fatalf("approval actions %+v, want the e-mail in full", r.Approval.Actions)
		}
		if got := m.Count(); got != sent {
			t.Fatalf("the SMTP server got %d messages before the approval", got-sent)
		}
		if r.Usage.Spent != before+1 || spentOf(t, api, a.key) != before+1 {
			t.Errorf("spent %d after the request, want %d", r.Usage.Spent, before+1)
		}

		ok, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK)
		if ok.Status != "completed" || len(ok.Actions) != 1 || ok.Actions[0].OK == nil || !*ok.Actions[0].OK || ok.Actions[0].Type != "email" {
			t.Fatalf("approve: %+v, want completed with the e-mail ok", ok)
		}
		if ok.Usage.Spent != before+1 || spentOf(t, api, a.key) != before+1 {
			t.Errorf("approve spent %d, want none", ok.Usage.Spent-before-1)
		}
		got := m.WaitFor(t, sent+1, 10*time.Second)
		msg := got[len(got)-1]
		if !strings.Contains(strings.Join(msg.To, ","), "ana@example.com") || !strings.Contains(msg.Data, "Subject: Hello") ||
			!strings.Contains(msg.Data, "See you at 5") || !strings.Contains(msg.From, "lu@example.com") {
			t.Errorf("message received: from %q to %q\n%s", msg.From, msg.To, msg.Data)
		}

		_, again := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusNotFound)
		wantError(t, again, http.StatusNotFound, "approval_not_found")
		if m.Count() != sent+1 {
			t.Errorf("the SMTP server has %d messages, want exactly one more", m.Count()-sent)
		}
		_, bad := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID, "mode": "do"}, http.StatusBadRequest)
		wantError(t, bad, http.StatusBadRequest, "invalid_request")
	})

	t.Run("another account's approval", func(t *testing.T) {
		a := newOwner(t, s, api, m, true)
		b := newOwner(t, s, api, m, true)
		sent := m.Count()
		r, _ := ask(t, api, a.key, map[string]any{"message": email, "mode": "do"}, http.StatusOK)
		if r.Approval == nil {
			t.Fatalf("no approval: %+v", r)
		}
		_, other := ask(t, api, b.key, map[string]any{"approve": r.Approval.ID}, http.StatusNotFound)
		wantError(t, other, http.StatusNotFound, "approval_not_found")
		if ok, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK); ok.Status != "completed" {
			t.Errorf("the owner's approve after another account tried: %+v", ok)
		}
		m.WaitFor(t, sent+1, 10*time.Second)
	})

	t.Run("send without approval", func(t *testing.T) {
		a := newOwner(t, s, api, m, true)
		keyID, key := s.newKey(t, a.id, "--send-without-approval")
		sent := m.Count()
		r, _ := ask(t, api, key, map[string]any{"message": email, "mode": "do"}, http.StatusOK)
		if r.Status != "completed" || r.Approval != nil || len(r.Actions) != 1 || r.Actions[0].OK == nil || !*r.Actions[0].OK {
			t.Fatalf("do email with send without approval: %+v, want it sent at once", r)
		}
		m.WaitFor(t, sent+1, 10*time.Second)
		// a settings change still needs approval
		if r, _ := ask(t, api, key, map[string]any{"message": "change the tone to formal", "mode": "do"}, http.StatusOK); r.Status != "needs_approval" {
			t.Errorf("tone with send without approval: %+v, want needs_approval", r)
		}
		out := ctl(t, s.env, "key", "set", "--key-id", keyID, "--send-without-approval=false")
		if v, _ := out.get("send_without_approval"); v != false {
			t.Fatalf("svcctl key set: %s", out)
		}
		if r, _ := ask(t, api, key, map[string]any{"message": email, "mode": "do"}, http.StatusOK); r.Status != "needs_approval" {
			t.Errorf("after key set false: %+v, want needs_approval", r)
		}
		if m.Count() != sent+1 {
			t.Errorf("SMTP server got %d messages, want 1", m.Count()-sent)
		}
	})

	t.Run("ask never acts; delete refused; note saved at once", func(t *testing.T) {
		a := newOwner(t, s, api, m, true)
		sent := m.Count()
		r, _ := ask(t, api, a.key, map[string]any{"message": email}, http.StatusOK)
		if r.Mode != "ask" || r.Status != "completed" || len(r.Actions) != 0 || r.Approval != nil || len(r.Blocked) != 1 ||
			r.Blocked[0].Reason != "answer_only" || r.Blocked[0].Type != "email" {
			t.Errorf("ask email: %+v, want blocked answer_only", r)
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "delete contact Ana", "mode": "do"}, http.StatusOK)
		if len(r.Blocked) != 1 || r.Blocked[0].Reason != "delete_not_allowed" || len(r.Actions) != 0 || r.Approval != nil {
			t.Errorf("delete: %+v, want blocked delete_not_allowed", r)
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "call Ana", "mode": "do"}, http.StatusOK)
		if len(r.Blocked) != 1 || r.Blocked[0].Reason != "not_available" {
			t.Errorf("call: %+v, want blocked not_available", r)
		}
		// A request that needs the user's computer or a website: status unavailable (spec 3.1).
		for _, m := range []string{"run the backup script on my computer", "open https://example.com and fill in the form"} {
			r, _ = ask(t, api, a.key, map[string]any{"message": m, "mode": "do"}, http.StatusOK)
			if r.Status != "unavailable" || len(r.Blocked) != 1 || r.Blocked[0].Reason != "not_available" || len(r.Actions) != 0 || r.Approval != nil {
				t.Errorf("%q: %+v, want status unavailable with one blocked not_available", m, r)
			}
		}
		before := spentOf(t, api, a.key)
		r, _ = ask(t, api, a.key, map[string]any{"message": "add a note: call the bank", "mode": "do"}, http.StatusOK)
		if r.Status != "completed" || len(r.Actions) != 1 || r.Actions[0].Type != "note" || r.Actions[0].OK == nil || !*r.Actions[0].OK {
			t.Fatalf("note: %+v, want saved at once", r)
		}
		if r.Usage.Spent != before+1 {
			t.Errorf("note spent %d, want 1", r.Usage.Spent-before)
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "create a task: send the invoice today", "mode": "do"}, http.StatusOK)
		if r.Status != "completed" || len(r.Actions) != 1 || r.Actions[0].Type != "task" || r.Usage.Spent != before+3 {
			t.Errorf("task: %+v, want saved at once for 2 interactions", r)
		}
		if upstream {
			up.reset()
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "what are my notes?"}, http.StatusOK)
		if upstream {
			calls := up.calls()
			if len(calls) != 1 || !strings.Contains(calls[0].system, "call the bank") || !strings.Contains(calls[0].tools, `"email"`) {
				t.Errorf("the upstream did not get the records and the catalogue: %+v", calls)
			}
		} else if r.Reply == nil || !strings.Contains(*r.Reply, "call the bank") || r.Status != "completed" {
			t.Errorf("ask notes: %+v, want the note", r)
		}
		if m.Count() != sent {
			t.Errorf("the SMTP server got %d messages", m.Count()-sent)
		}
		list := call(t, "GET", api.URL()+"/v1/conversations", bearer(a.key)...)
		if d, _ := list.body.get("data"); list.status != http.StatusOK || len(d.([]any)) != 0 {
			t.Errorf("conversations after stateless requests: %s, want none", list)
		}
	})

	t.Run("changes through the API's use cases; mail not connected", func(t *testing.T) {
		a := newOwner(t, s, api, m, false)
		r, _ := ask(t, api, a.key, map[string]any{"message": email, "mode": "do"}, http.StatusOK)
		f, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK)
		if f.Status != "failed" || f.Reply != nil || len(f.Actions) != 1 || str(f.Actions[0].Error) != "email_not_connected" {
			t.Errorf("approve without a mail connector: %+v, want failed email_not_connected", f)
		}
		approveSetting(t, api, a.key, "change the tone to formal", "tone", "formal")
		r, _ = ask(t, api, a.key, map[string]any{"message": "change the tone to formal", "mode": "do"}, http.StatusOK)
		if f, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK); f.Status != "failed" || str(f.Actions[0].Error) != "no_change" {
			t.Errorf("same tone again: %+v, want failed no_change", f)
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "add FAQ: Do you deliver? Yes, within 5 km", "mode": "do"}, http.StatusOK)
		if ok, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK); ok.Status != "completed" {
			t.Errorf("approve FAQ: %+v", ok)
		}
		if k := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...); !strings.Contains(string(k.raw), "Do you deliver?") {
			t.Errorf("knowledge after the FAQ approval: %s", k)
		}
	})

	if !upstream {
		t.Run("the grammar reads natural phrasings", func(t *testing.T) {
			a := newOwner(t, s, api, m, false)
			before := spentOf(t, api, a.key)
			r, _ := ask(t, api, a.key, map[string]any{"message": "hello", "mode": "do"}, http.StatusOK)
			if r.Status != "completed" || r.Reply == nil || !strings.HasPrefix(*r.Reply, "Hello!") || len(r.Actions)+len(r.Blocked) != 0 ||
				r.Usage.Spent != before+1 {
				t.Errorf("hello: %+v (%q), want a greeting for 1 interaction", r, str(r.Reply))
			}
			r, _ = ask(t, api, a.key, map[string]any{"message": "Reserve uma mesa para 4 na sexta às 20h para o Carlos", "mode": "do"}, http.StatusOK)
			if r.Status != "completed" || len(r.Actions) != 1 || r.Actions[0].Type != "booking" || r.Actions[0].Date == "" ||
				r.Reply == nil || !strings.HasPrefix(*r.Reply, "Feito:") {
				t.Errorf("booking: %+v, want saved at once, dated, replied in Portuguese", r)
			}
			approveSetting(t, api, a.key, "Change the business hours to 8am-6pm", "contact.hours", "8am-6pm")
			r, _ = ask(t, api, a.key, map[string]any{"message": "What tasks do I have?"}, http.StatusOK)
			if r.Reply == nil || *r.Reply != "You have no tasks." {
				t.Errorf("tasks: %q", str(r.Reply))
			}
			ask(t, api, a.key, map[string]any{"message": "remind me to send the invoice tomorrow", "mode": "do"}, http.StatusOK)
			r, _ = ask(t, api, a.key, map[string]any{"message": "What tasks do I have?"}, http.StatusOK)
			if r.Reply == nil || !strings.HasPrefix(*r.Reply, "You have 1 task:\n- send the invoice tomorrow (") {
				t.Errorf("tasks: %q, want the one task in the singular", str(r.Reply))
			}
		})

		t.Run("needs input opens a conversation", func(t *testing.T) {
			a := newOwner(t, s, api, m, true)
			r, _ := ask(t, api, a.key, map[string]any{"message": "email someone", "mode": "do"}, http.StatusOK)
			if r.Status != "needs_input" || r.ConversationID == nil || r.Approval != nil {
				t.Fatalf("email someone: %+v, want needs_input with a conversation", r)
			}
			next, _ := ask(t, api, a.key, map[string]any{"message": "ana@example.com", "mode": "do", "conversation_id": *r.ConversationID}, http.StatusOK)
			if next.Status != "needs_approval" || str(next.ConversationID) != *r.ConversationID || str(next.Approval.Actions[0].To) != "ana@example.com" {
				t.Errorf("the answer: %+v, want the e-mail waiting in the same conversation", next)
			}
			_, nf := ask(t, api, a.key, map[string]any{"message": "hi", "conversation_id": "asc_unknown"}, http.StatusNotFound)
			wantError(t, nf, http.StatusNotFound, "not_found")
			n, _ := ask(t, api, a.key, map[string]any{"message": "what are my tasks today?", "new_conversation": true}, http.StatusOK)
			if n.ConversationID == nil || n.Status != "completed" {
				t.Errorf("new_conversation: %+v, want a conversation id", n)
			}
		})
	}

	t.Run("a picture costs 10, and nothing when it fails", func(t *testing.T) {
		a := newOwner(t, s, api, m, false)
		before := spentOf(t, api, a.key)
		r, _ := ask(t, api, a.key, map[string]any{"message": "create a picture of a croissant", "mode": "do"}, http.StatusOK)
		if len(r.Blocked) != 1 || r.Blocked[0].Reason != "not_available" || r.Usage.Spent != before+1 {
			t.Errorf("a picture without image: %+v, want blocked not_available for 1", r)
		}
		r, _ = ask(t, api, a.key, map[string]any{"message": "create a picture of a croissant", "mode": "do", "image": true}, http.StatusOK)
		if len(r.Actions) != 1 || r.Actions[0].Type != "image" {
			t.Fatalf("a picture: %+v", r)
		}
		if upstream {
			if !*r.Actions[0].OK || r.Actions[0].URL != "https://img.example/croissant.png" || r.Usage.Spent != before+12 {
				t.Errorf("a picture through the upstream: %+v, want its URL for 11", r)
			}
		} else if *r.Actions[0].OK || str(r.Actions[0].Error) != "failed" || r.Usage.Spent != before+2 {
			t.Errorf("a picture without an images upstream: %+v, want failed, costing only the reply", r)
		}
	})

	t.Run("concurrent approvals run once", func(t *testing.T) {
		a := newOwner(t, s, api, m, true)
		sent := m.Count()
		r, _ := ask(t, api, a.key, map[string]any{"message": email, "mode": "do"}, http.StatusOK)
		codes := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				resp := callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"approve": r.Approval.ID}, bearer(a.key)...)
				mu.Lock()
				codes[resp.status]++
				mu.Unlock()
				if resp.status != http.StatusOK && resp.body.str("error.code") != "approval_not_found" && resp.body.str("error.code") != "rate_limited" {
					t.Errorf("approve: %s", resp)
				}
			})
		}
		wg.Wait()
		// the 30 requests a minute let 29 approvals through at once; the rest get 429
		if codes[http.StatusOK] != 1 || codes[http.StatusNotFound] < 20 || codes[http.StatusOK]+codes[http.StatusNotFound]+codes[http.StatusTooManyRequests] != 100 {
			t.Errorf("100 concurrent approvals: %v, want one 200, the rest 404 or 429", codes)
		}
		m.WaitFor(t, sent+1, 10*time.Second)
		if m.Count() != sent+1 {
			t.Errorf("the SMTP server got %d messages, want 1", m.Count()-sent)
		}
	})
}

func ptr(s string) *string { return &s }

func sameAction(a, b asAction) bool {
	return a.Type == b.Type && str(a.To) == str(b.To) && str(a.Cc) == str(b.Cc) && str(a.Subject) == str(b.Subject) && str(a.Text) == str(b.Text)
}

// ---------------------------------------------------------------------------------------------
// A fake OpenAI-compatible upstream that proposes the assistant's tool calls.

type assistantUpstream struct {
	srv *httptest.Server
	mu  sync.Mutex
	log []upstreamCall
}

type upstreamCall struct{ system, user, tools string }

var upEmail = regexp.MustCompile(`(?i)email (\S+@\S+) subject (.+?) text (.+)`)

func newAssistantUpstream(t *testing.T) *assistantUpstream {
	u := &assistantUpstream{}
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *assistantUpstream) URL() string { return u.srv.URL }

func (u *assistantUpstream) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.log = nil
}

func (u *assistantUpstream) calls() []upstreamCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]upstreamCall(nil), u.log...)
}

func (u *assistantUpstream) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/images/generations" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"created":1,"data":[{"url":"https://img.example/croissant.png"}]}`)
		return
	}
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools json.RawMessage `json:"tools"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	text := func(v any) string { s, _ := v.(string); return s }
	call := upstreamCall{system: text(req.Messages[0].Content), user: text(req.Messages[len(req.Messages)-1].Content), tools: string(req.Tools)}
	u.mu.Lock()
	u.log = append(u.log, call)
	u.mu.Unlock()

	tool := func(name string, args map[string]string) map[string]any {
		b, _ := json.Marshal(args)
		return map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": name, "arguments": string(b)}}
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	msgText := call.user
	switch {
	case upEmail.MatchString(msgText):
		m := upEmail.FindStringSubmatch(msgText)
		msg["tool_calls"] = []any{tool("email", map[string]string{"to": m[1], "subject": m[2], "text": m[3]})}
	case strings.HasPrefix(msgText, "add a note:"):
		msg["tool_calls"] = []any{tool("note", map[string]string{"text": strings.TrimSpace(strings.TrimPrefix(msgText, "add a note:"))})}
	case strings.HasPrefix(msgText, "create a task:"):
		msg["tool_calls"] = []any{tool("task", map[string]string{"text": strings.TrimSpace(strings.TrimPrefix(msgText, "create a task:"))})}
	case strings.HasPrefix(msgText, "create a picture of "):
		msg["tool_calls"] = []any{tool("image", map[string]string{"text": strings.TrimPrefix(msgText, "create a picture of ")})}
	case strings.HasPrefix(msgText, "delete "):
		msg["tool_calls"] = []any{tool("delete", map[string]string{"target": strings.TrimPrefix(msgText, "delete ")})}
	case strings.HasPrefix(msgText, "call "):
		msg["tool_calls"] = []any{tool("call", map[string]string{"to": strings.TrimPrefix(msgText, "call ")})}
	case strings.HasSuffix(msgText, " on my computer"), strings.HasPrefix(msgText, "open https://"):
		msg["tool_calls"] = []any{tool("computer_task", map[string]string{"target": msgText})}
	case strings.HasPrefix(msgText, "change the tone to "):
		msg["tool_calls"] = []any{tool("settings", map[string]string{"setting": "tone", "value": strings.TrimPrefix(msgText, "change the tone to ")})}
	case strings.HasPrefix(msgText, "add FAQ: "):
		q, a, _ := strings.Cut(strings.TrimPrefix(msgText, "add FAQ: "), "? ")
		msg["tool_calls"] = []any{tool("faq", map[string]string{"question": q + "?", "answer": a})}
	default:
		msg["content"] = "Here is what I know."
	}
	finish := "stop"
	if _, ok := msg["tool_calls"]; ok {
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
}
