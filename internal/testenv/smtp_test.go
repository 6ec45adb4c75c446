package testenv

import (
	"net/smtp"
	"strings"
	"testing"
	"time"
)

func TestSMTPKeepsWhatItReceives(t *testing.T) {
	s := NewSMTP(t, SMTPOptions{Auth: true, Reject: "nobody@example.com"})
	c, err := smtp.Dial(s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok, mechs := c.Extension("AUTH"); !ok || !strings.Contains(mechs, "PLAIN") {
		t.Errorf("EHLO offers AUTH %v %q, want PLAIN", ok, mechs)
	}
	if err := c.Mail("lu@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("nobody@example.com"); err == nil || !strings.HasPrefix(err.Error(), "550") {
		t.Errorf("RCPT of the rejected address: %v, want 550", err)
	}
	if err := c.Rcpt("ana@example.com"); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte("Subject: Hello\r\n\r\n.dot first\r\nSee you at 5\r\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := s.WaitFor(t, 1, 5*time.Second)
	m := got[0]
	if len(got) != 1 || m.From != "lu@example.com" || len(m.To) != 1 || m.To[0] != "ana@example.com" || m.TLS ||
		!strings.Contains(m.Data, "Subject: Hello") || !strings.Contains(m.Data, "\n.dot first") || s.Count() != 1 {
		t.Errorf("received %+v", got)
	}
	s.Close()
	if _, err := smtp.Dial(s.Addr()); err == nil {
		t.Error("a closed server still answers")
	}
}
