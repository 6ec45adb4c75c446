package mail

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/svcagent/svc/domain/assistant"
)

func TestMailboxesSendVia(t *testing.T) {
	srv := newFakeSMTP(t, &fakeSMTP{greet: true})
	port, _ := strconv.Atoi(srv.port())
	b := NewMailboxes(zaptest.NewLogger(t))
	s := assistant.MailServer{Host: "127.0.0.1", Port: port, From: "Lu <lu@example.com>", Security: assistant.StartTLS}
	m := assistant.Mail{To: "ana@example.com", Cc: []string{"bo@example.com"}, Subject: "Olá", Text: "Line 1\nLine 2"}
	if err := b.SendVia(context.Background(), s, m); err != nil {
		t.Fatal(err)
	}
	mails, _, _ := srv.captured()
	if len(mails) != 1 {
		t.Fatalf("server got %d mails, want 1", len(mails))
	}
	got := mails[0]
	if len(got.to) != 2 || !strings.Contains(got.from, "<lu@example.com>") {
		t.Errorf("envelope from %q to %q; want lu, to ana and bo", got.from, got.to)
	}
	for _, want := range []string{"To: <ana@example.com>", "Cc: <bo@example.com>", "Subject: =?UTF-8?q?Ol=C3=A1?=", "Line 1"} {
		if !strings.Contains(got.data, want) {
			t.Errorf("message lacks %q:\n%s", want, got.data)
		}
	}

	closed := newFakeSMTP(t, &fakeSMTP{greet: true})
	_ = closed.ln.Close()
	s.Port, _ = strconv.Atoi(closed.port())
	if err := b.SendVia(context.Background(), s, m); err == nil {
		t.Error("SendVia to a closed port succeeded")
	}
}
