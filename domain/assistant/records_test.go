package assistant

import (
	"strings"
	"testing"
	"time"
)

func TestRecordOfAndKey(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		action    Action
		ok        bool
		title     string
		key       string
		sameKeyAs *Action
	}{
		{Action{Type: Contact, Name: "Ana Lima", Email: "Ana@Example.com"}, true, "Ana Lima", "contact:ana@example.com", nil},
		{Action{Type: Contact, Name: "  Bo   Silva "}, true, "  Bo   Silva ", "contact:bo silva", nil},
		{Action{Type: Lead, Email: "c@example.com"}, true, "c@example.com", "lead:c@example.com", nil},
		{Action{Type: Lead, Name: "John Smith", Text: "interested in wedding cakes"}, true, "John Smith — interested in wedding cakes", "lead:john smith", nil},
		{Action{Type: Contact, Name: "Ana", Email: "ana@example.com", Text: "florist"}, true, "Ana — florist", "contact:ana@example.com", nil},
		{Action{Type: Note, Text: "call the bank"}, true, "call the bank", "rec_1", nil},
		{Action{Type: Task, Text: "pay", Date: "2026-11-26"}, true, "pay", "rec_1", nil},
		{Action{Type: Email, To: "a@b.c"}, false, "", "", nil},
	}
	for _, tt := range tests {
		r, ok := RecordOf(tt.action, "rec_1", "acct_a", now)
		if ok != tt.ok {
			t.Errorf("RecordOf(%+v) ok = %v", tt.action, ok)
			continue
		}
		if !ok {
			continue
		}
		if r.Title != tt.title || r.Key() != tt.key || r.AccountID != "acct_a" || !r.CreatedAt.Equal(now) {
			t.Errorf("RecordOf(%+v) = %+v, key %q", tt.action, r, r.Key())
		}
	}
}

func TestFilterAndAnswer(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	rs := []Record{
		{Title: "dated today", Date: "2026-11-25", CreatedAt: now.AddDate(0, 0, -3)},
		{Title: "made today", CreatedAt: now.Add(-time.Hour)},
		{Title: "tomorrow", Date: "2026-11-26", CreatedAt: now},
		{Title: "old", CreatedAt: now.AddDate(0, 0, -1)},
	}
	today := Filter(rs, Query{Topic: Topic(Task), Today: true}, now)
	if len(today) != 2 || today[0].Title != "dated today" || today[1].Title != "made today" {
		t.Errorf("Filter today = %+v", today)
	}
	if len(Filter(rs, Query{Topic: Topic(Task)}, now)) != 4 {
		t.Error("Filter without today keeps everything")
	}
	tests := []struct {
		lang  string
		q     Query
		count int
		rs    []Record
		want  []string
	}{
		{"en", Query{Topic: Topic(Task), Today: true}, 2, today, []string{"You have 2 tasks today:", "- dated today (2026-11-25)", "- made today"}},
		{"pt-BR", Query{Topic: Topic(Task), Today: true}, 0, nil, []string{"Você não tem tarefas hoje."}},
		{"es", Query{Topic: Topic(Contact)}, 1, []Record{{Title: "Ana", Email: "ana@example.com", Phone: "123"}}, []string{"Tienes 1 contacto:", "- Ana <ana@example.com> 123"}},
		{"en", Query{Topic: Topic(Task)}, 1, []Record{{Title: "pay rent"}}, []string{"You have 1 task:", "- pay rent"}},
		{"pt", Query{Topic: Topic(Booking), Today: true}, 1, []Record{{Title: "mesa"}}, []string{"Você tem 1 reserva hoje:"}},
		{"es", Query{Topic: TopicConversations}, 1, []Record{{Title: "Bo"}}, []string{"Tienes 1 conversación:"}},
		{"pt", Query{Topic: TopicConversions}, 3, nil, []string{"Você tem 3 conversões."}},
	}
	for _, tt := range tests {
		got := Answer(tt.lang, tt.q, tt.count, tt.rs)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("Answer(%s) = %q, lacks %q", tt.lang, got, w)
			}
		}
	}
}

func TestSummary(t *testing.T) {
	got := Summary("en",
		[]Outcome{{Action: Action{Type: Note, Text: "x"}, OK: true}, {Action: Action{Type: Email, To: "a@b.c"}, Error: SendFailed}},
		[]Action{{Type: Settings, Setting: "tone", Value: "formal"}},
		[]Blocked{{Action: Action{Type: Delete, Target: "contact Ana"}, Reason: DeleteNotAllowed}})
	for _, w := range []string{"Done: note x.", "Not completed: e-mail to a@b.c (send_failed).", "Waiting for your approval: tone → formal.",
		"Not done: delete contact Ana (deleting is not available)."} {
		if !strings.Contains(got, w) {
			t.Errorf("Summary = %q, lacks %q", got, w)
		}
	}
	if Summary("pt", nil, nil, nil) != "Respondi sem agir." || !strings.HasPrefix(Help("es"), "No entendí") || Question("xx", "to") == "" {
		t.Error("phrases by language")
	}
}

func TestMailbox(t *testing.T) {
	ok := MailServer{Host: "smtp.example.com", Port: 587, From: "Lu <lu@example.com>", Security: StartTLS}
	if err := ValidateMailbox(ok); err != nil {
		t.Fatal(err)
	}
	for field, s := range map[string]MailServer{
		"host":     {Host: "", Port: 587, From: ok.From, Security: StartTLS},
		"port":     {Host: "h", Port: 0, From: ok.From, Security: StartTLS},
		"from":     {Host: "h", Port: 25, From: "nobody", Security: StartTLS},
		"security": {Host: "h", Port: 25, From: ok.From, Security: "none"},
	} {
		if f, isInvalid := asInvalid(ValidateMailbox(s)); !isInvalid || f != field {
			t.Errorf("ValidateMailbox(%+v) field %q, want %q", s, f, field)
		}
	}
	m := MailOf(Action{Type: Email, To: " ana@example.com ", Cc: "bo@example.com, cy@example.com", Subject: "S", Text: "T"})
	if m.To != "ana@example.com" || len(m.Cc) != 2 || m.Cc[1] != "cy@example.com" {
		t.Errorf("MailOf = %+v", m)
	}
}
