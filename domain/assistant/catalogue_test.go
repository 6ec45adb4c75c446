package assistant

import (
	"testing"

	"github.com/svcagent/svc/domain/ledger"
)

// TestDecide covers every action of the catalogue in both modes, with and without Send without
// approval and the image flag (spec 4.7 rules 1 to 6).
func TestDecide(t *testing.T) {
	run := Decision{Verdict: Run}
	wait := Decision{Verdict: Wait}
	block := func(r Reason) Decision { return Decision{Verdict: Block, Reason: r} }
	answerOnly := block(AnswerOnly)
	type want struct{ ask, do, doSend, doImage Decision }
	lowRisk := want{answerOnly, run, run, run}
	approval := want{answerOnly, wait, wait, wait}
	sendable := want{answerOnly, wait, run, wait}
	never := want{answerOnly, block(NotAvailable), block(NotAvailable), block(NotAvailable)}
	tests := []struct {
		name   string
		action Action
		want   want
	}{
		{"contact", Action{Type: Contact, Name: "Ana"}, lowRisk},
		{"lead", Action{Type: Lead, Name: "Bo"}, lowRisk},
		{"task", Action{Type: Task, Text: "call back"}, lowRisk},
		{"note", Action{Type: Note, Text: "n"}, lowRisk},
		{"event", Action{Type: Event, Text: "fair"}, lowRisk},
		{"booking", Action{Type: Booking, Text: "table"}, lowRisk},
		{"web search", Action{Type: WebSearch, Query: "q"}, lowRisk},
		{"email to the owner", Action{Type: Email, To: "lu@example.com", ToOwner: true}, lowRisk},
		{"email to another person", Action{Type: Email, To: "ana@example.com"}, sendable},
		{"message to a contact", Action{Type: Message, To: "Ana"}, sendable},
		{"social post", Action{Type: SocialPost, Text: "p"}, sendable},
		{"settings change", Action{Type: Settings, Setting: "tone", Value: "formal"}, approval},
		{"assistant change", Action{Type: AssistantChange}, approval},
		{"Brain change", Action{Type: FAQ, Question: "q", Answer: "a"}, approval},
		{"connector change", Action{Type: ConnectorChange}, approval},
		{"delete", Action{Type: Delete, Target: "contact Ana"}, want{answerOnly, block(DeleteNotAllowed), block(DeleteNotAllowed), block(DeleteNotAllowed)}},
		{"car command", Action{Type: CarCommand}, never},
		{"phone call", Action{Type: PhoneCall, To: "Ana"}, never},
		{"picture", Action{Type: Image, Text: "a cat"}, want{answerOnly, block(NotAvailable), block(NotAvailable), run}},
		{"computer task", Action{Type: ComputerTask}, never},
		{"file task", Action{Type: FileTask}, never},
		{"unknown", Action{Type: "launch_rocket"}, want{block(UnknownAction), block(UnknownAction), block(UnknownAction), block(UnknownAction)}},
	}
	covered := map[Type]bool{}
	for _, tt := range tests {
		covered[tt.action.Type] = true
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				mode Mode
				p    Permissions
				want Decision
			}{
				{Ask, Permissions{}, tt.want.ask},
				{Ask, Permissions{SendWithoutApproval: true, Image: true}, tt.want.ask},
				{Do, Permissions{}, tt.want.do},
				{Do, Permissions{SendWithoutApproval: true}, tt.want.doSend},
				{Do, Permissions{Image: true}, tt.want.doImage},
			} {
				if got := Decide(c.mode, tt.action, c.p); got != c.want {
					t.Errorf("Decide(%s, %+v) = %+v, want %+v", c.mode, c.p, got, c.want)
				}
			}
		})
	}
	for _, ty := range Types {
		if !covered[ty] {
			t.Errorf("type %s has no row", ty)
		}
	}
}

func TestAddress(t *testing.T) {
	as := Address([]Action{
		{Type: Email, To: "LU@example.com "},
		{Type: Email, To: "lu@example.com", Cc: "ana@example.com"},
		{Type: Email, To: "ana@example.com"},
		{Type: Message, To: "lu@example.com"},
	}, "lu@example.com")
	want := []bool{true, false, false, false}
	for i, a := range as {
		if a.ToOwner != want[i] {
			t.Errorf("action %d: ToOwner = %v", i, a.ToOwner)
		}
	}
	if Address([]Action{{Type: Email, To: ""}}, "")[0].ToOwner {
		t.Error("no owner e-mail: nothing is the owner's")
	}
	if a := Address([]Action{{Type: Email, ToOwner: true}}, "lu@example.com")[0]; a.To != "lu@example.com" || !a.ToOwner {
		t.Errorf("an e-mail to me: %+v; want to the owner", a)
	}
	if a := Address([]Action{{Type: Email, ToOwner: true, Cc: "ana@example.com"}}, "lu@example.com")[0]; a.To != "lu@example.com" || a.ToOwner {
		t.Errorf("an e-mail to me and another: %+v; want to the owner, not the owner's alone", a)
	}
	if a := Address([]Action{{Type: Email, ToOwner: true}}, "")[0]; a.To != "" || a.ToOwner {
		t.Errorf("an e-mail to me without an owner's address: %+v; want no recipient", a)
	}
}

func TestCharge(t *testing.T) {
	tests := []struct {
		ty   Type
		want ledger.Action
		ok   bool
	}{
		{Task, ledger.TaskCreated, true}, {WebSearch, ledger.WebSearch, true}, {Image, ledger.Picture, true},
		{Note, "", false}, {Email, "", false},
	}
	for _, tt := range tests {
		if got, ok := Charge(tt.ty); got != tt.want || ok != tt.ok {
			t.Errorf("Charge(%s) = %s, %v", tt.ty, got, ok)
		}
	}
}

func TestStatusOf(t *testing.T) {
	ok := Outcome{Action: Action{Type: Note}, OK: true}
	tests := []struct {
		name       string
		needsInput bool
		ran        []Outcome
		waiting    []Action
		blocked    []Blocked
		want       Status
	}{
		{"answer", false, nil, nil, nil, StatusCompleted},
		{"ran", false, []Outcome{ok}, nil, nil, StatusCompleted},
		{"waits", false, []Outcome{ok}, []Action{{Type: Email}}, nil, StatusNeedsApproval},
		{"detail missing", true, nil, []Action{{Type: Email}}, nil, StatusNeedsInput},
		{"computer only", false, nil, nil, []Blocked{{Action{Type: ComputerTask}, NotAvailable}}, StatusUnavailable},
		{"file only", false, nil, nil, []Blocked{{Action{Type: FileTask}, NotAvailable}}, StatusUnavailable},
		{"computer and a note", false, []Outcome{ok}, nil, []Blocked{{Action{Type: ComputerTask}, NotAvailable}}, StatusCompleted},
		{"delete", false, nil, nil, []Blocked{{Action{Type: Delete}, DeleteNotAllowed}}, StatusCompleted},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.needsInput, tt.ran, tt.waiting, tt.blocked); got != tt.want {
			t.Errorf("%s: StatusOf = %s, want %s", tt.name, got, tt.want)
		}
	}
	if ApprovedStatus([]Outcome{ok, {OK: false, Error: SendFailed}}) != StatusFailed || ApprovedStatus([]Outcome{ok}) != StatusCompleted {
		t.Error("ApprovedStatus")
	}
	if Refused(403) != "refused_403" {
		t.Errorf("Refused = %s", Refused(403))
	}
}

func TestValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	b := func(v bool) *bool { return &v }
	tests := []struct {
		name  string
		r     Request
		field string // "" when valid
	}{
		{"message only", Request{Message: s("hi")}, ""},
		{"line breaks kept", Request{Message: s("a\nb")}, ""},
		{"no message", Request{}, "message"},
		{"blank message", Request{Message: s("  \n ")}, "message"},
		{"invisible message", Request{Message: s("\u200b\u200b\ufeff")}, "message"},
		{"message too long", Request{Message: s(stringOf('a', MaxMessage+1))}, "message"},
		{"message at the limit", Request{Message: s(stringOf('é', MaxMessage))}, ""},
		{"input too long", Request{Message: s("hi"), Input: s(stringOf('a', MaxInput+1))}, "input"},
		{"bad mode", Request{Message: s("hi"), Mode: s("act")}, "mode"},
		{"image in ask", Request{Message: s("hi"), Image: b(true)}, "image"},
		{"image in do", Request{Message: s("hi"), Mode: s("do"), Image: b(true)}, ""},
		{"bad lang", Request{Message: s("hi"), Lang: s("fr")}, "lang"},
		{"pt-BR", Request{Message: s("hi"), Lang: s("pt-br")}, ""},
		{"bad conversation id", Request{Message: s("hi"), ConversationID: s("a b")}, "conversation_id"},
		{"new and id", Request{Message: s("hi"), ConversationID: s("c1"), NewConversation: b(true)}, "new_conversation"},
		{"approve alone", Request{Approve: s("apr_1")}, ""},
		{"approve with message", Request{Approve: s("apr_1"), Message: s("hi")}, "message"},
		{"approve with mode", Request{Approve: s("apr_1"), Mode: s("do")}, "mode"},
		{"approve empty", Request{Approve: s("")}, "approve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := tt.r.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			e, ok := asInvalid(err)
			if !ok || e != tt.field {
				t.Fatalf("Validate = %v, want invalid %s", err, tt.field)
			}
		})
	}
}
