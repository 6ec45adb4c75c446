package assistant

import (
	"context"
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/profile"
)

// TestSmallTalk: a greeting, thanks or "what can you do?" gets a short reply in the language of
// its words (not help, not needs_input in do), as any reply for 1 interaction, and acts on
// nothing.
func TestSmallTalk(t *testing.T) {
	tests := []struct {
		msg, mode, lang string
		want            string
	}{
		{"hello", "do", "", "Hello! What can I do for you?"},
		{"hello", "ask", "pt-BR", "Hello! What can I do for you?"},
		{"thanks!", "ask", "es", "You're welcome!"},
		{"help", "ask", "pt-BR", "I save your contacts, leads, tasks"},
		{"cheers", "do", "es", "You're welcome!"},
		{"oi", "do", "es", "Olá! Em que posso ajudar?"},
		{"Olá!", "do", "", "Olá! Em que posso ajudar?"},
		{"Olá!", "ask", "pt-BR", "Olá! Em que posso ajudar?"},
		{"hola", "ask", "", "¡Hola! ¿En qué puedo ayudarte?"},
		{"What can you do?", "ask", "", "I save your contacts, leads, tasks"},
		{"o que você pode fazer?", "do", "", "Guardo seus contatos"},
		{"¿Qué puedes hacer?", "ask", "", "Guardo tus contactos"},
		{"thanks!", "do", "", "You're welcome!"},
		{"muchas gracias", "ask", "", "¡De nada!"},
	}
	for _, tt := range tests {
		t.Run(tt.msg+" "+tt.mode, func(t *testing.T) {
			f := newFixture(t, false)
			req := assistant.Request{Message: sp(tt.msg), Mode: sp(tt.mode)}
			if tt.lang != "" {
				req.Lang = sp(tt.lang)
			}
			r, err := f.svc.Handle(t.Context(), owner, req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != assistant.StatusCompleted || len(r.Actions)+len(r.Blocked) != 0 || r.Approval != nil ||
				r.Text == nil || !strings.HasPrefix(*r.Text, tt.want) {
				t.Errorf("reply %+v (%q), want completed %q", r, deref(r.Text), tt.want)
			}
			if f.ledger.spent != 1 || r.Usage.Spent != 1 {
				t.Errorf("spent %d, usage %+v; want 1 interaction", f.ledger.spent, r.Usage)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestContactSettingWaitsThenChanges: "change the business hours to …" is a settings change: it
// waits for approval, and the approval changes the agent's contact details through the
// profile use case (no_change when it already has that value).
func TestContactSettingWaitsThenChanges(t *testing.T) {
	tests := []struct {
		msg     string
		setting string
		check   func(p profile.Profile) string
	}{
		{"Change the business hours to 8am-6pm", "contact.hours", func(p profile.Profile) string { return p.Contact.Hours }},
		{"mude o telefone para +351 912 345 678", "contact.phone", func(p profile.Profile) string { return p.Contact.Phone }},
		{"cambia el correo de contacto a hola@panaderia.example", "contact.email", func(p profile.Profile) string { return p.Contact.Email }},
		{"update our address to Rua Augusta 12, Lisboa", "contact.address", func(p profile.Profile) string { return p.Contact.Address }},
		{"change the business name to Padaria Lu & Filhos", "business_name", func(p profile.Profile) string { return p.BusinessName }},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			f := newFixture(t, false)
			var created approval.Request
			f.approvals.EXPECT().Create(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, a approval.Request) error {
				created = a
				return nil
			})
			r, err := f.svc.Handle(t.Context(), owner, assistant.Request{Message: sp(tt.msg), Mode: sp("do")})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != assistant.StatusNeedsApproval || len(r.Actions) != 0 || len(created.Actions) != 1 ||
				created.Actions[0].Type != assistant.Settings || created.Actions[0].Setting != tt.setting || f.profiles.updated != 0 {
				t.Fatalf("reply %+v, approval %+v; want the %s change waiting", r, created.Actions, tt.setting)
			}
			want := created.Actions[0].Value
			created.Status = approval.Used
			f.approvals.EXPECT().Use(gomock.Any(), "acct_a", created.ID, now).Return(created, nil).Times(2)
			f.approvals.EXPECT().Record(gomock.Any(), "acct_a", created.ID, gomock.Any()).Return(nil).Times(2)
			f.approvals.EXPECT().Answer(gomock.Any(), "acct_a", created.ID, now).Return(true, nil).Times(2)
			r, err = f.svc.Handle(t.Context(), owner, assistant.Request{Approve: sp(created.ID)})
			if err != nil || r.Status != assistant.StatusCompleted || !r.Actions[0].OK || tt.check(f.profiles.prof) != want {
				t.Fatalf("approve: %+v, %v; profile %+v, want %q", r, err, f.profiles.prof, want)
			}
			// the same change again: no_change
			r, err = f.svc.Handle(t.Context(), owner, assistant.Request{Approve: sp(created.ID)})
			if err != nil || r.Status != assistant.StatusFailed || r.Actions[0].Error != assistant.NoChange {
				t.Errorf("again: %+v, %v; want no_change", r, err)
			}
		})
	}
}

// TestBrainFactAsksForItsQuestion: "add to the Brain: …" without a question asks for one
// (needs_input); the answer makes an FAQ item that waits for approval.
func TestBrainFactAsksForItsQuestion(t *testing.T) {
	f := newFixture(t, false)
	var turns []assistant.Turn
	f.history.EXPECT().Add(gomock.Any(), "acct_a", gomock.Any()).DoAndReturn(func(_ context.Context, _ string, ts ...assistant.Turn) error {
		turns = append(turns, ts...)
		return nil
	}).Times(2)
	r, err := f.svc.Handle(t.Context(), owner, assistant.Request{Message: sp("Add to the Brain: we open on Sundays 9-13"), Mode: sp("do")})
	if err != nil || r.Status != assistant.StatusNeedsInput || r.ConversationID == "" || r.Approval != nil ||
		!strings.Contains(deref(r.Text), "which question does this answer?") {
		t.Fatalf("reply %+v (%q), %v; want needs_input asking for the question", r, deref(r.Text), err)
	}
	f.history.EXPECT().Hold(gomock.Any(), "acct_a", r.ConversationID, gomock.Any(), gomock.Any(), gomock.Any()).Return(true, nil)
	f.history.EXPECT().Turns(gomock.Any(), "acct_a", r.ConversationID, gomock.Any()).DoAndReturn(
		func(context.Context, string, string, int) ([]assistant.Turn, error) { return turns, nil })
	f.history.EXPECT().Release(gomock.Any(), "acct_a", r.ConversationID, gomock.Any()).Return(nil)
	var created approval.Request
	f.approvals.EXPECT().Create(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, a approval.Request) error {
		created = a
		return nil
	})
	r, err = f.svc.Handle(t.Context(), owner, assistant.Request{Message: sp("Do you open on Sundays"), Mode: sp("do"), ConversationID: sp(r.ConversationID)})
	if err != nil || r.Status != assistant.StatusNeedsApproval || len(created.Actions) != 1 ||
		created.Actions[0] != (assistant.Action{Type: assistant.FAQ, Question: "Do you open on Sundays?", Answer: "we open on Sundays 9-13"}) {
		t.Errorf("reply %+v, %v; approval %+v; want the FAQ item waiting", r, err, created.Actions)
	}
}
