package testenv

import (
	"bufio"
	"crypto/tls"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions shape a test SMTP server.
type SMTPOptions struct {
	TLS      *tls.Config // offered with STARTTLS, or spoken on every connection when Implicit
	Implicit bool        // TLS from the first byte (smtps)
	// Auth offers AUTH PLAIN, also on a connection in the clear, so that a client's refusal to
	// send credentials without TLS shows.
	Auth   bool
	Reject string // a recipient (address) refused with 550
	Hang   bool   // accept connections and never greet
	// Received, when set, is called with each message received, after it is kept and before
	// the server answers the client's DATA: what the test does there happens while the client
	// waits for the message's acceptance.
	Received func(Mail)
}

// Mail is one message an SMTP server received: the envelope, the data (dot-unstuffed) and
// whether the session was encrypted at MAIL FROM.
type Mail struct {
	From string
	To   []string
	Data string
	TLS  bool
}

// SMTP is a mail server on loopback for tests, built on emersion/go-smtp: it keeps what it
// receives. It stops when the test ends.
type SMTP struct {
	ln   net.Listener
	opts SMTPOptions
	stop func()

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at each new mail
	mails   []Mail
	auths   []string // "user\x00password" of each AUTH PLAIN
}

// NewSMTP starts a test SMTP server on a free loopback port.
func NewSMTP(t testing.TB, o SMTPOptions) *SMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testenv: SMTP listener: %v", err)
	}
	if o.Implicit {
		ln = tls.NewListener(ln, o.TLS)
	}
	s := &SMTP{ln: ln, opts: o, changed: make(chan struct{})}
	if o.Hang {
		var wg sync.WaitGroup
		s.stop = sync.OnceFunc(func() { _ = ln.Close(); wg.Wait() })
		t.Cleanup(s.stop)
		wg.Go(func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				wg.Go(func() {
					defer c.Close()
					_ = c.SetDeadline(time.Now().Add(5 * time.Second))
					_, _ = bufio.NewReader(c).ReadString('\n') // until the client gives up
				})
			}
		})
		return s
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &smtpSession{srv: s, conn: c}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	srv.MaxMessageBytes = 10 << 20
	srv.AllowInsecureAuth = o.Auth
	srv.ErrorLog = log.New(io.Discard, "", 0) // its connections may outlive the test's log
	if !o.Implicit {
		srv.TLSConfig = o.TLS
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	s.stop = sync.OnceFunc(func() { _ = srv.Close(); _ = ln.Close(); <-done }) // ln too: Serve may not have begun
	t.Cleanup(s.stop)
	return s
}

// Close stops the server: its port then refuses connections.
func (s *SMTP) Close() { s.stop() }

// Addr is the server's host:port.
func (s *SMTP) Addr() string { return s.ln.Addr().String() }

// Port is the server's port.
func (s *SMTP) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Mails returns the messages received so far.
func (s *SMTP) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// Count is how many messages were received.
func (s *SMTP) Count() int { return len(s.Mails()) }

// Auths returns "user\x00password" of each AUTH PLAIN so far.
func (s *SMTP) Auths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auths...)
}

// WaitFor waits until the server holds n messages (at most timeout) and returns them.
func (s *SMTP) WaitFor(t testing.TB, n int, timeout time.Duration) []Mail {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		got, changed := len(s.mails), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Mails()
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the SMTP server holds %d messages after %s, want %d", got, timeout, n)
		}
	}
}

// smtpSession is one client's session.
type smtpSession struct {
	srv  *SMTP
	conn *smtp.Conn
	cur  Mail
}

func (s *smtpSession) AuthMechanisms() []string {
	if !s.srv.opts.Auth {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		s.srv.mu.Lock()
		defer s.srv.mu.Unlock()
		s.srv.auths = append(s.srv.auths, user+"\x00"+password)
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	_, encrypted := s.conn.TLSConnectionState()
	s.cur = Mail{From: from, TLS: encrypted}
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.srv.opts.Reject != "" && strings.EqualFold(to, s.srv.opts.Reject) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.cur.To = append(s.cur.To, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = string(b)
	s.srv.mu.Lock()
	s.srv.mails = append(s.srv.mails, s.cur)
	close(s.srv.changed)
	s.srv.changed = make(chan struct{})
	s.srv.mu.Unlock()
	if s.srv.opts.Received != nil {
		s.srv.opts.Received(s.cur)
	}
	return nil
}

func (s *smtpSession) Reset()        { s.cur = Mail{} }
func (s *smtpSession) Logout() error { return nil }
