package tests

import (
	"net/http"
	"strings"
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
			r, _ := ask(t, api, a.key, map[string]any{"message": "email ana@example.com subject Hi text Hello", "mode": "do",
				"new_conversation": true}, http.StatusOK)
			if r.Status != "needs_approval" || r.Approval == nil || r.ConversationID == nil {
				t.Fatalf("the e-mail: %+v, want it waiting in a kept conversation", r)
			}
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
