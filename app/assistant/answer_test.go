package assistant

import (
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain/assistant"
)

// TestAnswerIsModeAsk: Answer (what svc-assistant gives, spec 4.8) says what POST /v1/assistant
// says in mode ask, word for word, for a question about the records (in the language of the
// message) and for an instruction, which it does not carry out (the Records mock has no Save)
// and which keeps nothing (no History, no Approvals); it charges nothing. Small talk and what
// the grammar does not read are left to the caller.
func TestAnswerIsModeAsk(t *testing.T) {
	tasks := []assistant.Record{{ID: "rec_1", AccountID: "acct_a", Type: assistant.Task, Title: "Order flour", CreatedAt: now}}
	for _, msg := range []string{"What tasks do I have?", "quais são as minhas tarefas?", "save a lead: Ana ana@example.com",
		"email Ana", "delete contact Ana"} {
		t.Run(msg, func(t *testing.T) {
			f := newFixture(t, false)
			f.records.EXPECT().List(gomock.Any(), "acct_a", assistant.Task, gomock.Any()).Return(tasks, 1, nil).AnyTimes()
			f.history.EXPECT().Add(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil).AnyTimes() // mode ask's needs_input keeps its turns
			want, err := f.svc.Handle(t.Context(), owner, assistant.Request{Message: sp(msg), Mode: sp("ask")})
			if err != nil || want.Text == nil || len(want.Actions) != 0 || want.Approval != nil {
				t.Fatalf("mode ask: %+v, %v", want, err)
			}
			spent := f.ledger.spent
			got, ok, err := f.svc.Answer(t.Context(), owner.Account, f.profiles.prof, nil, msg, now)
			if err != nil || !ok || got != *want.Text {
				t.Fatalf("Answer = %q, %v, %v; mode ask says %q", got, ok, err, *want.Text)
			}
			if f.ledger.spent != spent {
				t.Errorf("Answer charged %d", f.ledger.spent-spent)
			}
			if strings.HasPrefix(msg, "What") && !strings.Contains(got, "Order flour") {
				t.Errorf("answer %q lacks the task", got)
			}
		})
	}
	f := newFixture(t, false)
	for _, msg := range []string{"hello", "thanks!", "do you bake on Sundays?"} {
		if got, ok, err := f.svc.Answer(t.Context(), owner.Account, f.profiles.prof, nil, msg, now); ok || err != nil || got != "" {
			t.Errorf("Answer(%q) = %q, %v, %v; want it left to the caller", msg, got, ok, err)
		}
	}
}

// TestRecordsAreThePromptsRecords: what a model is told of the owner's records (Records, which
// svc-assistant's prompt carries too) is the part of the assistant's own prompt about them.
func TestRecordsAreThePromptsRecords(t *testing.T) {
	f := newFixture(t, false)
	f.records.EXPECT().List(gomock.Any(), "acct_a", gomock.Any(), recordsShown).DoAndReturn(
		func(_ any, _ string, ty assistant.Type, _ int) ([]assistant.Record, int, error) {
			if ty == assistant.Lead {
				return []assistant.Record{{Title: "Ana", Email: "ana@example.com"}}, 7, nil
			}
			return nil, 0, nil
		}).AnyTimes()
	rs := f.svc.Records(t.Context(), "acct_a")
	if !strings.HasPrefix(rs, "The owner's latest records:\n") || !strings.Contains(rs, "lead (7):\n- Ana ana@example.com") {
		t.Fatalf("Records = %q", rs)
	}
	p := f.svc.prompt(t.Context(), owner.Account, assistant.Ask, f.profiles.prof, "en", now)
	if !strings.HasSuffix(p, "\n"+rs) {
		t.Fatalf("prompt %q does not end with the records %q", p, rs)
	}
}
