package compat

import (
	"errors"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/model"
)

// The owner's tasks the tests below ask about.
var ownerTasks = []assistant.Record{
	{ID: "rec_1", AccountID: "acct_1", Type: assistant.Task, Title: "Order flour from the mill", Date: "2026-11-23", CreatedAt: testNow},
	{ID: "rec_2", AccountID: "acct_1", Type: assistant.Task, Title: "Fix the oven door", CreatedAt: testNow},
}

// TestAssistantAnswersAboutOwnerRecords: without an upstream, svc-assistant answers a question
// about the owner's records as the owner's assistant does in mode ask (the same text, in the
// language of the message), whole or streamed, without the built-in engine, for 1 interaction.
func TestAssistantAnswersAboutOwnerRecords(t *testing.T) {
	f := newFixture(t, false)
	f.records[assistant.Task] = ownerTasks
	want := assistant.Answer("en", assistant.Query{Topic: assistant.Topic(assistant.Task)}, 2, ownerTasks)
	for _, title := range []string{"Order flour from the mill", "Fix the oven door"} {
		if !strings.Contains(want, title) {
			t.Fatalf("the assistant's answer %q lacks %q", want, title)
		}
	}
	req := model.Request{Messages: []model.Message{user("hi"), {Role: model.RoleAssistant, Content: "Hello!"}, user("What tasks do I have?")},
		Tools: []model.Tool{{Name: "x"}}}
	r, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-o", Model: Assistant, Request: req})
	if err != nil {
		t.Fatal(err)
	}
	if r.Message.Content != want || r.FinishReason != model.FinishStop || len(r.Message.ToolCalls) != 0 || len(f.ledger.charges) != 1 {
		t.Fatalf("reply %+v (charges %d), want %q", r, len(f.ledger.charges), want)
	}
	if r.Usage.CompletionTokens != (words{}).Count(want) || r.Usage.PromptTokens == 0 {
		t.Fatalf("usage %+v", r.Usage)
	}

	var streamed strings.Builder
	r, err = f.svc.Stream(t.Context(), f.caller, Chat{ID: "chatcmpl-s", Model: Assistant, Request: req}, func(ch model.Chunk) error {
		streamed.WriteString(ch.Content)
		return nil
	})
	if err != nil || streamed.String() != want || r.Message.Content != want || len(f.ledger.charges) != 2 {
		t.Fatalf("stream %q, reply %+v, %v", streamed.String(), r, err)
	}

	// The reply follows the language of the message, not the account's (en).
	r, err = f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{
		user("Quais são as minhas tarefas?")}}})
	wantPT := assistant.Answer("pt", assistant.Query{Topic: assistant.Topic(assistant.Task)}, 2, ownerTasks)
	if err != nil || r.Message.Content != wantPT {
		t.Fatalf("Portuguese: %q, %v, want %q", r.Message.Content, err, wantPT)
	}
}

// TestAssistantDoesNotAct: an instruction to act sent to svc-assistant is not carried out (the
// Records mock has no Save): the reply is what the owner's assistant says of it in mode ask.
func TestAssistantDoesNotAct(t *testing.T) {
	f := newFixture(t, false)
	msg := "save a lead: Ana ana@example.com"
	it := assistant.Parse(msg, testNow)
	if len(it.Actions) != 1 || it.Actions[0].Type != assistant.Lead {
		t.Fatalf("the grammar reads %q as %+v", msg, it)
	}
	want := assistant.Summary("en", nil, nil, []assistant.Blocked{{Action: it.Actions[0], Reason: assistant.AnswerOnly}})
	r, err := f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user(msg)}}})
	if err != nil || r.Message.Content != want || len(f.ledger.charges) != 1 {
		t.Fatalf("reply %q, %v (charges %d), want %q", r.Message.Content, err, len(f.ledger.charges), want)
	}
	if !strings.Contains(want, "ask mode only answers") {
		t.Fatalf("the assistant's reply %q does not say it only answers", want)
	}
}

// TestAssistantOwnerFailureCostsNothing: when the owner's records cannot be read, the reply
// fails and nothing is charged.
func TestAssistantOwnerFailureCostsNothing(t *testing.T) {
	f := newFixture(t, false)
	f.recordsErr = errors.New("store down")
	_, err := f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user("What tasks do I have?")}}})
	if err == nil || len(f.ledger.charges) != 0 || f.ledger.released != 1 {
		t.Fatalf("err %v, charges %d, released %d", err, len(f.ledger.charges), f.ledger.released)
	}
}

// TestAssistantReadsTheConversation: without an upstream, svc-assistant reads the messages whole
// and in order (spec 4.8), as the owner's assistant reads a kept conversation: the answer to its
// question for a missing detail completes the instruction that lacked it (which, answer only, it
// does not carry out), instead of being read alone as a new message.
func TestAssistantReadsTheConversation(t *testing.T) {
	for _, c := range []struct{ first, answer string }{
		{"email Ana", "ana@example.com"},
		{"add to the Brain: we open on Sundays 9-13", "When do you open on Sundays?"},
	} {
		t.Run(c.first, func(t *testing.T) {
			f := newFixture(t, false)
			prev := assistant.Parse(c.first, testNow)
			if prev.Missing == "" {
				t.Fatalf("the grammar reads %q as complete: %+v", c.first, prev)
			}
			r, err := f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user(c.first)}}})
			if err != nil {
				t.Fatal(err)
			}
			question := r.Message.Content
			done := assistant.Complete(prev, c.answer)
			if !done.Understood() || done.Missing != "" || len(done.Actions) != 1 {
				t.Fatalf("the answer does not complete the instruction: %+v", done)
			}
			want := assistant.Summary("en", nil, nil, []assistant.Blocked{{Action: done.Actions[0], Reason: assistant.AnswerOnly}})
			r, err = f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{
				user(c.first), {Role: model.RoleAssistant, Content: question}, user(c.answer)}}})
			if err != nil || r.Message.Content != want {
				t.Fatalf("after the question %q: %q, %v; want %q", question, r.Message.Content, err, want)
			}
		})
	}
}
