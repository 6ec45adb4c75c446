package tests

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/internal/testenv"
)

// TestAssistantApproveRetry: when the approve call that ran an approval's actions fails after
// they ran (here the conversation's turns cannot be stored: a trigger of the test refuses them),
// the approve sent again answers what they did, without running them again; once answered, a
// third approve is approval_not_found (spec 3.2). On both stacks.
func TestAssistantApproveRetry(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			mail := testenv.NewSMTP(t, testenv.SMTPOptions{})
			api := s.startAPI(t)
			a := newOwner(t, s, api, mail, true)
			r := emailAwaitingApproval(t, api, a.key)
			db := openChatStore(t, s)
			refuse, allow := refuseApproveTurns(db)
			if _, err := db.db.Exec(refuse); err != nil {
				t.Fatalf("trigger: %v", err)
			}
			failed := callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"approve": r.Approval.ID}, bearer(a.key)...)
			if failed.status == http.StatusOK || failed.status == http.StatusNotFound {
				t.Fatalf("approve with the turns refused: %s, want a failure", failed)
			}
			mail.WaitFor(t, 1, 10*time.Second)
			if _, err := db.db.Exec(allow); err != nil {
				t.Fatalf("drop trigger: %v", err)
			}

			again, _ := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusOK)
			if again.Status != "completed" || len(again.Actions) != 1 || again.Actions[0].OK == nil || !*again.Actions[0].OK ||
				again.Reply == nil || again.ConversationID == nil || *again.ConversationID != *r.ConversationID {
				t.Errorf("approve sent again: %+v, want the e-mail's outcome", again)
			}
			time.Sleep(300 * time.Millisecond)
			if n := mail.Count(); n != 1 {
				t.Errorf("the SMTP server got %d messages, want 1", n)
			}
			conv := call(t, "GET", api.URL()+"/v1/conversations/"+*r.ConversationID, bearer(a.key)...)
			if !strings.Contains(conv.String(), "approve "+r.Approval.ID) {
				t.Errorf("the conversation after the approve sent again: %s, want its turns", conv)
			}
			_, third := ask(t, api, a.key, map[string]any{"approve": r.Approval.ID}, http.StatusNotFound)
			wantError(t, third, http.StatusNotFound, "approval_not_found")
		})
	}
}

// refuseApproveTurns returns the SQL that makes the store refuse the turns of approve calls, and
// the SQL that lets them in again.
func refuseApproveTurns(db *chatStore) (refuse, allow string) {
	if db.pg {
		return `CREATE OR REPLACE FUNCTION test_refuse_turns() RETURNS trigger AS $$
BEGIN
  IF NEW.content LIKE 'approve apr_%' THEN RAISE EXCEPTION 'test: turns refused'; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER test_refuse_turns BEFORE INSERT ON assistant_turns FOR EACH ROW EXECUTE FUNCTION test_refuse_turns();`,
			`DROP TRIGGER test_refuse_turns ON assistant_turns`
	}
	return `CREATE TRIGGER test_refuse_turns BEFORE INSERT ON assistant_turns WHEN NEW.content LIKE 'approve apr_%'
BEGIN SELECT RAISE(ABORT, 'test: turns refused'); END`, `DROP TRIGGER test_refuse_turns`
}

// TestAssistantPostgresCutMidTurn: Postgres goes away while a turn of the owner's assistant
// waits for its upstream model (after it read the profile and held the reply's interaction):
// the turn answers 503 service_unavailable with Retry-After, never 500, and once the database
// is back the failed turn is not charged and left no conversation behind.
func TestAssistantPostgresCutMidTurn(t *testing.T) {
	s, proxy := postgresViaProxy(t)
	entered, release := make(chan struct{}, 1), make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"Noted, I will remember it."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(up.Close)
	api := s.startAPI(t, "SVC_MODEL_BASE_URL", up.URL+"/v1", "SVC_MODEL_API_KEY", "sk-test", "SVC_MODEL_NAME", "gpt-test")
	a := newOwner(t, s, api, nil, false)
	before := spentOf(t, api, a.key)

	done := make(chan response, 1)
	go func() {
		done <- callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"message": "what should I remember today?",
			"new_conversation": true}, bearer(a.key)...)
	}()
	select {
	case <-entered:
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatal("the turn never reached the upstream model")
	}
	proxy.Cut()
	close(release)
	r := <-done
	wantError(t, r, http.StatusServiceUnavailable, "service_unavailable")
	if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
		t.Errorf("Retry-After %q, want whole seconds", r.header.Get("Retry-After"))
	}
	proxy.Restore()
	waitFor(t, 10*time.Second, "the API to recover after the database returned", func() (bool, string) {
		r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
		return r.status == http.StatusOK, r.String()
	})
	waitFor(t, 10*time.Second, "the failed turn's interaction to be given back", func() (bool, string) {
		after := spentOf(t, api, a.key)
		return after == before, fmt.Sprintf("spent %d more", after-before)
	})
	if l := call(t, "GET", api.URL()+"/v1/conversations?channel=assistant", bearer(a.key)...); strings.Contains(l.String(), "asc_") {
		t.Errorf("the failed turn left a conversation: %s", l)
	}
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error, want none", n)
	}
}

// TestAssistantApproveOutcomeAfterOutage: Postgres goes away right after an approval's actions
// ran (the e-mail accepted by the SMTP server, the store cut before it answers) for longer than
// the approve call tries to keep their outcome. The call answers 503 service_unavailable with
// Retry-After saying what ran; an approve sent while the database is away is 503 too, never
// approval_not_found; once the database is back the outcome is kept in the background, without
// any call, and the approve sent again answers it, in the approval's conversation; a third
// approve is approval_not_found (spec 3.2). The e-mail goes out exactly once.
func TestAssistantApproveOutcomeAfterOutage(t *testing.T) {
	s, proxy := postgresViaProxy(t)
	var armed atomic.Bool
	mail := testenv.NewSMTP(t, testenv.SMTPOptions{Received: func(testenv.Mail) {
		if armed.CompareAndSwap(true, false) {
			proxy.Cut()
		}
	}})
	api := s.startAPI(t)
	a := newOwner(t, s, api, mail, true)
	r := emailAwaitingApproval(t, api, a.key)
	approve := map[string]any{"approve": r.Approval.ID}

	armed.Store(true)
	failed := callJSON(t, "POST", api.URL()+"/v1/assistant", approve, bearer(a.key)...)
	wantError(t, failed, http.StatusServiceUnavailable, "service_unavailable")
	if secs, err := strconv.Atoi(failed.header.Get("Retry-After")); err != nil || secs < 1 {
		t.Errorf("Retry-After %q, want whole seconds", failed.header.Get("Retry-After"))
	}
	if !strings.Contains(failed.String(), "(email ok)") || !strings.Contains(failed.String(), "approving again answers it") {
		t.Errorf("approve with the database gone: %s, want what ran and that approving again answers it", failed)
	}
	if n := mail.Count(); n != 1 {
		t.Fatalf("the SMTP server got %d messages, want 1", n)
	}
	away := callJSON(t, "POST", api.URL()+"/v1/assistant", approve, bearer(a.key)...)
	wantError(t, away, http.StatusServiceUnavailable, "service_unavailable")

	time.Sleep(2 * time.Second) // away well past the approve call's tries
	proxy.Restore()
	db := openChatStore(t, s)
	waitFor(t, 60*time.Second, "the outcome kept in the background", func() (bool, string) {
		var outcome string
		if err := db.db.QueryRow(`SELECT outcome FROM approvals WHERE id = $1`, r.Approval.ID).Scan(&outcome); err != nil {
			return false, err.Error()
		}
		return outcome != "", "no outcome"
	})

	again, _ := ask(t, api, a.key, approve, http.StatusOK)
	if again.Status != "completed" || len(again.Actions) != 1 || again.Actions[0].OK == nil || !*again.Actions[0].OK ||
		again.Reply == nil || again.ConversationID == nil || *again.ConversationID != *r.ConversationID {
		t.Errorf("approve sent again: %+v, want the e-mail's outcome", again)
	}
	conv := call(t, "GET", api.URL()+"/v1/conversations/"+*r.ConversationID, bearer(a.key)...)
	if !strings.Contains(conv.String(), "approve "+r.Approval.ID) {
		t.Errorf("the conversation after the approve sent again: %s, want its turns", conv)
	}
	_, third := ask(t, api, a.key, approve, http.StatusNotFound)
	wantError(t, third, http.StatusNotFound, "approval_not_found")
	time.Sleep(300 * time.Millisecond)
	if n := mail.Count(); n != 1 {
		t.Errorf("the SMTP server got %d messages, want 1", n)
	}
	if n := logCount(api.log, "request failed"); n != 0 {
		t.Errorf("%d requests failed with an internal error, want none", n)
	}
}

// emailAwaitingApproval asks the owner's assistant, in a new conversation, to send an e-mail,
// and returns its reply: the e-mail waiting for approval in a kept conversation.
func emailAwaitingApproval(t *testing.T, api *proc, key string) asReply {
	t.Helper()
	r, _ := ask(t, api, key, map[string]any{"message": "email ana@example.com subject Hi text Hello", "mode": "do",
		"new_conversation": true}, http.StatusOK)
	if r.Status != "needs_approval" || r.Approval == nil || r.ConversationID == nil {
		t.Fatalf("the e-mail: %+v, want it waiting in a kept conversation", r)
	}
	return r
}
