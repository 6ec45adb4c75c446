package mail

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/domain/notification"
)

// fakeSMTP is a minimal SMTP server on loopback: EHLO, STARTTLS, AUTH PLAIN, MAIL, RCPT, DATA,
// RSET, NOOP and QUIT, enough for a client. It captures what it is sent.
type fakeSMTP struct {
	ln       net.Listener
	tls      *tls.Config // for STARTTLS, or for every connection when implicit
	implicit bool
	startTLS bool   // offer STARTTLS
	auth     bool   // offer AUTH PLAIN
	greet    bool   // send the greeting (false: a server that hangs)
	reject   string // a recipient refused with 550

	mu      sync.Mutex
	mails   []capturedMail
	authd   []string // "user\x00pass" of each AUTH
	usedTLS []bool   // per MAIL FROM: whether the session was encrypted
}

type capturedMail struct {
	from string
	to   []string
	data string
}

func newFakeSMTP(t *testing.T, f *fakeSMTP) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if f.implicit {
		ln = tls.NewListener(ln, f.tls)
	}
	f.ln = ln
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { f.serve(conn) })
		}
	})
	return f
}

func (f *fakeSMTP) port() string {
	_, p, _ := net.SplitHostPort(f.ln.Addr().String())
	return p
}

func (f *fakeSMTP) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if !f.greet {
		_, _ = bufio.NewReader(conn).ReadString('\n') // hang until the client gives up
		return
	}
	encrypted := f.implicit
	r, w := bufio.NewReader(conn), bufio.NewWriter(conn)
	reply := func(lines ...string) {
		for _, l := range lines {
			_, _ = w.WriteString(l + "\r\n")
		}
		_ = w.Flush()
	}
	reply("220 fake ESMTP")
	var cur capturedMail
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			lines := []string{"250-fake", "250-8BITMIME"}
			if f.startTLS && !encrypted {
				lines = append(lines, "250-STARTTLS")
			}
			if f.auth {
				lines = append(lines, "250-AUTH PLAIN")
			}
			reply(append(lines, "250 ENHANCEDSTATUSCODES")...)
		case "HELO":
			reply("250 fake")
		case "STARTTLS":
			reply("220 go ahead")
			tc := tls.Server(conn, f.tls)
			if tc.Handshake() != nil {
				return
			}
			conn, encrypted = tc, true
			r, w = bufio.NewReader(tc), bufio.NewWriter(tc)
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			if mech != "PLAIN" {
				reply("504 unsupported")
				continue
			}
			if resp == "" {
				reply("334 ")
				resp, _ = r.ReadString('\n')
			}
			b, _ := base64.StdEncoding.DecodeString(strings.TrimSpace(resp))
			f.mu.Lock()
			f.authd = append(f.authd, strings.TrimPrefix(string(b), "\x00"))
			f.mu.Unlock()
			reply("235 2.7.0 ok")
		case "MAIL":
			cur = capturedMail{from: arg}
			f.mu.Lock()
			f.usedTLS = append(f.usedTLS, encrypted)
			f.mu.Unlock()
			reply("250 2.1.0 ok")
		case "RCPT":
			if f.reject != "" && strings.Contains(arg, f.reject) {
				reply("550 5.1.1 no such user")
				continue
			}
			cur.to = append(cur.to, arg)
			reply("250 2.1.5 ok")
		case "DATA":
			reply("354 go on")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(l)
			}
			cur.data = data.String()
			f.mu.Lock()
			f.mails = append(f.mails, cur)
			f.mu.Unlock()
			reply("250 2.0.0 queued")
		case "RSET", "NOOP":
			reply("250 2.0.0 ok")
		case "QUIT":
			reply("221 2.0.0 bye")
			return
		default:
			reply("502 5.5.2 unknown command")
		}
	}
}

func (f *fakeSMTP) captured() ([]capturedMail, []string, []bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mails, f.authd, f.usedTLS
}

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
	srv := newFakeSMTP(t, &fakeSMTP{greet: true})
	s := newSMTP(t, "smtp://127.0.0.1:"+srv.port())
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd, usedTLS := srv.captured()
	if len(mails) != 1 {
		t.Fatalf("server got %d mails, want 1", len(mails))
	}
	m := mails[0]
	if !strings.Contains(m.from, "<noreply@svc.example>") || len(m.to) != 1 || !strings.Contains(m.to[0], "<owner@example.com>") {
		t.Errorf("envelope from %q to %q", m.from, m.to)
	}
	for _, want := range []string{"Subject: New sale: 42.00 EUR", "To: <owner@example.com>", "From: \"SVC\" <noreply@svc.example>", "A customer bought.", "Reference: ord_1", "Message-ID: ", "Date: "} {
		if !strings.Contains(m.data, want) {
			t.Errorf("message lacks %q:\n%s", want, m.data)
		}
	}
	if len(authd) != 0 || len(usedTLS) != 1 || usedTLS[0] {
		t.Errorf("auth %q, tls %v; want none", authd, usedTLS)
	}
}

func TestSMTPStartTLSWithAuth(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	srv := newFakeSMTP(t, &fakeSMTP{greet: true, startTLS: true, auth: true, tls: serverTLS})
	s := newSMTP(t, "smtp://mailer:p%40ss@127.0.0.1:"+srv.port())
	s.tlsConfig = clientTLS
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd, usedTLS := srv.captured()
	if len(mails) != 1 || len(usedTLS) != 1 || !usedTLS[0] {
		t.Fatalf("%d mails, tls %v; want one, over STARTTLS", len(mails), usedTLS)
	}
	if len(authd) != 1 || authd[0] != "mailer\x00p@ss" {
		t.Errorf("AUTH %q, want mailer and the password", authd)
	}
}

func TestSMTPNoCredentialsInTheClear(t *testing.T) {
	srv := newFakeSMTP(t, &fakeSMTP{greet: true, auth: true}) // AUTH PLAIN, no STARTTLS
	s := newSMTP(t, "smtp://mailer:hunter2@127.0.0.1:"+srv.port())
	err := s.Send(context.Background(), testMail)
	if err == nil {
		t.Fatal("sent with credentials over a plain connection")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error shows the password: %v", err)
	}
	if mails, authd, _ := srv.captured(); len(authd) != 0 || len(mails) != 0 {
		t.Errorf("server got AUTH %q and %d mails, want neither", authd, len(mails))
	}
}

func TestSMTPS(t *testing.T) {
	serverTLS, clientTLS := testTLS(t)
	srv := newFakeSMTP(t, &fakeSMTP{greet: true, auth: true, implicit: true, tls: serverTLS})
	s := newSMTP(t, "smtps://mailer:secret@127.0.0.1:"+srv.port())
	s.tlsConfig = clientTLS
	if err := s.Send(context.Background(), testMail); err != nil {
		t.Fatal(err)
	}
	mails, authd, usedTLS := srv.captured()
	if len(mails) != 1 || len(authd) != 1 || authd[0] != "mailer\x00secret" || !usedTLS[0] {
		t.Errorf("%d mails, auth %q, tls %v", len(mails), authd, usedTLS)
	}
}

func TestSMTPFailures(t *testing.T) {
	t.Run("recipient refused", func(t *testing.T) {
		srv := newFakeSMTP(t, &fakeSMTP{greet: true, reject: "owner@example.com"})
		if err := newSMTP(t, "smtp://127.0.0.1:"+srv.port()).Send(context.Background(), testMail); err == nil {
			t.Error("no error for a refused recipient")
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		serverTLS, _ := testTLS(t)
		srv := newFakeSMTP(t, &fakeSMTP{greet: true, startTLS: true, tls: serverTLS})
		if err := newSMTP(t, "smtp://127.0.0.1:"+srv.port()).Send(context.Background(), testMail); err == nil {
			t.Error("STARTTLS with an untrusted certificate went through")
		}
	})
	t.Run("server hangs", func(t *testing.T) {
		srv := newFakeSMTP(t, &fakeSMTP{})
		s := newSMTP(t, "smtp://127.0.0.1:"+srv.port())
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
		srv := newFakeSMTP(t, &fakeSMTP{})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		if err := newSMTP(t, "smtp://127.0.0.1:"+srv.port()).Send(ctx, testMail); err == nil {
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
		srv := newFakeSMTP(t, &fakeSMTP{greet: true})
		bad := testMail
		bad.To = "not an address"
		if err := newSMTP(t, "smtp://127.0.0.1:"+srv.port()).Send(context.Background(), bad); err == nil {
			t.Error("no error for a bad recipient")
		}
		if mails, _, _ := srv.captured(); len(mails) != 0 {
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
