package mail

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/internal/testenv"
)

func TestMailboxesSendVia(t *testing.T) {
	srv := testenv.NewSMTP(t, testenv.SMTPOptions{})
	port := srv.Port()
	b := NewMailboxes(zaptest.NewLogger(t))
	s := assistant.MailServer{Host: "127.0.0.1", Port: port, From: "Lu <lu@example.com>", Security: assistant.StartTLS}
	m := assistant.Mail{To: "ana@example.com", Cc: []string{"bo@example.com"}, Subject: "Olá", Text: "Line 1\nLine 2"}
	if err := b.SendVia(context.Background(), s, m); err != nil {
		t.Fatal(err)
	}
	mails := srv.Mails()
	if len(mails) != 1 {
		t.Fatalf("server got %d mails, want 1", len(mails))
	}
	got := mails[0]
	if len(got.To) != 2 || got.From != "lu@example.com" {
		t.Errorf("envelope from %q to %q; want lu, to ana and bo", got.From, got.To)
	}
	for _, want := range []string{"To: <ana@example.com>", "Cc: <bo@example.com>", "Subject: =?UTF-8?q?Ol=C3=A1?=", "Line 1"} {
		if !strings.Contains(got.Data, want) {
			t.Errorf("message lacks %q:\n%s", want, got.Data)
		}
	}

	closed := testenv.NewSMTP(t, testenv.SMTPOptions{})
	closed.Close()
	s.Port = closed.Port()
	if err := b.SendVia(context.Background(), s, m); err == nil {
		t.Error("SendVia to a closed port succeeded")
	}
}
