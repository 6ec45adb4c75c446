package mail

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/internal/testenv"
)

// testTLS returns a server config with a self-signed certificate for 127.0.0.1, and a client
// config that trusts it.
func testTLS(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fake smtp"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	client = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return server, client
}

var testMail = notification.Mail{To: "owner@example.com", Subject: "New sale: 42.00 EUR", Text: "A customer bought.\nReference: ord_1"}

func newSMTP(t *testing.T, rawURL string) *SMTP {
	t.Helper()
	s, err := NewSMTP(rawURL, "SVC <noreply@svc.example>", zaptest.NewLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSMTPPlain(t *testing.T) {
	srv := testenv.NewSMTP(t, testenv.SMTPOptions{})
	s := newSMTP(t, "smtp://"+srv.Addr())
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd := srv.Mails(), srv.Auths()
	if len(mails) != 1 {
		t.Fatalf("server got %d mails, want 1", len(mails))
	}
	m := mails[0]
	if m.From != "noreply@svc.example" || len(m.To) != 1 || m.To[0] != "owner@example.com" {
		t.Errorf("envelope from %q to %q", m.From, m.To)
	}
	for _, want := range []string{"Subject: New sale: 42.00 EUR", "To: <owner@example.com>", "From: \"SVC\" <noreply@svc.example>", "A customer bought.", "Reference: ord_1", "Message-ID: ", "Date: "} {
		if !strings.Contains(m.Data, want) {
			t.Errorf("message lacks %q:\n%s", want, m.Data)
		}
	}
	if len(authd) != 0 || m.TLS {
		t.Errorf("auth %q, tls %v; want none", authd, m.TLS)
	}
}

func TestSMTPStartTLSWithAuth(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	srv := testenv.NewSMTP(t, testenv.SMTPOptions{Auth: true, TLS: serverTLS})
	s := newSMTP(t, "smtp://mailer:p%40ss@"+srv.Addr())
	s.tlsConfig = clientTLS
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd := srv.Mails(), srv.Auths()
	if len(mails) != 1 || !mails[0].TLS {
		t.Fatalf("%d mails %+v; want one, over STARTTLS", len(mails), mails)
	}
	if len(authd) != 1 || authd[0] != "mailer\x00p@ss" {
		t.Errorf("AUTH %q, want mailer and the password", authd)
	}
}

func TestSMTPNoCredentialsInTheClear(t *testing.T) {
	srv := testenv.NewSMTP(t, testenv.SMTPOptions{Auth: true}) // AUTH PLAIN, no STARTTLS
	s := newSMTP(t, "smtp://mailer:hunter2@"+srv.Addr())
	err := s.Send(context.Background(), testMail)
	if err == nil {
		t.Fatal("sent with credentials over a plain connection")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error shows the password: %v", err)
	}
	if mails, authd := srv.Mails(), srv.Auths(); len(authd) != 0 || len(mails) != 0 {
		t.Errorf("server got AUTH %q and %d mails, want neither", authd, len(mails))
	}
}

func TestSMTPS(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	srv := testenv.NewSMTP(t, testenv.SMTPOptions{Auth: true, Implicit: true, TLS: serverTLS})
	s := newSMTP(t, "smtps://mailer:secret@"+srv.Addr())
	s.tlsConfig = clientTLS
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd := srv.Mails(), srv.Auths()
	if len(mails) != 1 || len(authd) != 1 || authd[0] != "mailer\x00secret" || !mails[0].TLS {
		t.Errorf("%+v mails, auth %q", mails, authd)
	}
}

func TestSMTPFailures(t *testing.T) {
	t.Run("recipient refused", func(t *testing.T) {
		srv := testenv.NewSMTP(t, testenv.SMTPOptions{Reject: "owner@example.com"})
		if err := newSMTP(t, "smtp://"+srv.Addr()).Send(context.Background(), testMail); err == nil {
			t.Error("no error for a refused recipient")
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		serverTLS, _ := testTLS(t)
		srv := testenv.NewSMTP(t, testenv.SMTPOptions{TLS: serverTLS})
		if err := newSMTP(t, "smtp://"+srv.Addr()).Send(context.Background(), testMail); err == nil {
			t.Error("STARTTLS with an untrusted certificate went through")
		}
	})
	t.Run("server hangs", func(t *testing.T) {
		srv := testenv.NewSMTP(t, testenv.SMTPOptions{Hang: true})
		s := newSMTP(t, "smtp://"+srv.Addr())
		s.timeout = 200 * time.Millisecond
		start := time.Now()
		if err := s.Send(context.Background(), testMail); err == nil {
			t.Error("no error from a server that never greets")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("gave up after %v, want about 200 ms", d)
		}
	})
	t.Run("canceled while the server hangs", func(t *testing.T) {
		srv := testenv.NewSMTP(t, testenv.SMTPOptions{Hang: true})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := newSMTP(t, "smtp://"+srv.Addr()).Send(ctx, testMail); err == nil {
			t.Error("no error from a server that never greets")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("gave up after %v, want about 200 ms", d)
		}
	})
	t.Run("nobody listens", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := netip.MustParseAddrPort(ln.Addr().String()).Port()
		_ = ln.Close()
		s := newSMTP(t, "smtp://u:hunter2@127.0.0.1:"+strconv.Itoa(int(port)))
		err = s.Send(context.Background(), testMail)
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Send = %v, want an error without the password", err)
		}
	})
	t.Run("bad recipient", func(t *testing.T) {
		srv := testenv.NewSMTP(t, testenv.SMTPOptions{})
		bad := testMail
		bad.To = "not an address"
		if err := newSMTP(t, "smtp://"+srv.Addr()).Send(context.Background(), bad); err == nil {
			t.Error("no error for a bad recipient")
		}
		if mails := srv.Mails(); len(mails) != 0 {
			t.Error("a mail went out")
		}
	})
}

func TestNewSMTP(t *testing.T) {
	tests := []struct {
		url      string
		from     string
		ok       bool
		port     int
		implicit bool
		user     string
	}{
		{"smtp://mail.example.com", "noreply@svc.example", true, 587, false, ""},
		{"smtp://u:p@mail.example.com:2525", "noreply@svc.example", true, 2525, false, "u"},
		{"smtps://u:p@mail.example.com", "SVC <noreply@svc.example>", true, 465, true, "u"},
		{"smtps://mail.example.com:10465", "noreply@svc.example", true, 10465, true, ""},
		{"http://mail.example.com", "noreply@svc.example", false, 0, false, ""},
		{"smtp://", "noreply@svc.example", false, 0, false, ""},
		{"smtp://u:secret@mail.example.com:99999", "noreply@svc.example", false, 0, false, ""},
		{"smtp://u:secret@[bad", "noreply@svc.example", false, 0, false, ""},
		{"smtp://mail.example.com", "", false, 0, false, ""},
		{"smtp://mail.example.com", "not an address", false, 0, false, ""},
	}
	for _, tt := range tests {
		s, err := NewSMTP(tt.url, tt.from, zap.NewNop())
		if (err == nil) != tt.ok {
			t.Errorf("NewSMTP(%q, %q) = %v, want ok %v", tt.url, tt.from, err, tt.ok)
			continue
		}
		if err != nil {
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("NewSMTP(%q) error shows the password: %v", tt.url, err)
			}
			continue
		}
		if s.port != tt.port || s.implicit != tt.implicit || s.user != tt.user || s.host != "mail.example.com" {
			t.Errorf("NewSMTP(%q) = %+v", tt.url, s)
		}
	}
}

func TestNewSMTPLogsNoSecret(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	if _, err := NewSMTP("smtps://mailer:hunter2@mail.example.com", "noreply@svc.example", zap.New(core)); err != nil {
		t.Fatal(err)
	}
	for _, e := range logs.All() {
		for k, v := range e.ContextMap() {
			if strings.Contains(k, "pass") || strings.Contains(stringOf(v), "hunter2") {
				t.Errorf("log %q shows the password: %v", e.Message, e.ContextMap())
			}
		}
	}
}

func TestLog(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	if err := NewLog(zap.New(core)).Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	entries := logs.All()
	if len(entries) != 1 {
		t.Fatalf("%d log entries, want 1", len(entries))
	}
	fields := entries[0].ContextMap()
	if fields["to"] != testMail.To || fields["subject"] != testMail.Subject {
		t.Errorf("logged %v, want to and subject", fields)
	}
	for _, v := range fields {
		if strings.Contains(stringOf(v), "customer bought") {
			t.Error("the body was logged")
		}
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}
