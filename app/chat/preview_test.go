package chat_test

import (
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/chat"
	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
)

// TestPreview checks that a preview is the reply a customer would get, charged one interaction,
// with no conversation, job or event stored; and that refusals and model failures cost nothing.
func TestPreview(t *testing.T) {
	e := newEnv(t, false, chat.Options{})
	if _, err := e.agent.Preview(t.Context(), e.acct, "Do you deliver?"); domain.ErrorCode(err) != domain.CodeAgentNotConfigured {
		t.Fatalf("preview before set-up: %v, want agent_not_configured", err)
	}
	e.configure("Padaria Lu", profile.AllOn)
	if _, err := e.brain.ReplacePages(t.Context(), e.acct.ID, appknowledge.PagesInput{Pages: []knowledge.Page{
		{URL: "https://lu.example/hours", Title: "Opening hours", Content: "We are open Monday to Saturday from 8am to 6pm. On Sundays we open from 9am to 1pm."},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.agent.Preview(t.Context(), e.acct, ""); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Fatalf("empty preview: %v, want invalid_request", err)
	}
	p, err := e.agent.Preview(t.Context(), e.acct, "What time do you open on Sundays?")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "9am") || p.Usage.Spent != 1 || e.spent() != 1 {
		t.Fatalf("preview %+v, spent %d; want the hours and one interaction", p, e.spent())
	}
	page, err := e.convs.List(t.Context(), e.acct.ID, conversation.ListQuery{Limit: 10})
	if err != nil || len(page.Conversations) != 0 || len(e.events("message.replied")) != 0 {
		t.Fatalf("conversations %+v %v after a preview, want none and no event", page, err)
	}
}

func TestPreviewModelFailureChargesNothing(t *testing.T) {
	e := newEnv(t, true, chat.Options{})
	e.configure("Padaria Lu", profile.AllOn)
	e.replier.EXPECT().Reply(gomock.Any(), gomock.Any()).Return(conversation.Draft{}, domain.Errorf(domain.CodeModelUnavailable, "down"))
	if _, err := e.agent.Preview(t.Context(), e.acct, "Do you deliver?"); domain.ErrorCode(err) != domain.CodeModelUnavailable {
		t.Fatalf("err %v", err)
	}
	if e.spent() != 0 {
		t.Fatal("a failed preview was charged")
	}
}
