// Package mail sends the owners' notification e-mails: through an SMTP server (SVC_SMTP_URL) with
// github.com/wneessen/go-mail, or, when none is configured, only to the log.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
	"go.uber.org/zap"

	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/ports"
)

// DefaultTimeout bounds connecting to the server and each SMTP exchange.
const DefaultTimeout = 10 * time.Second

// Default ports of the two URL schemes.
const (
	SubmissionPort = 587 // smtp://: plain, upgraded with STARTTLS when the server offers it
	SMTPSPort      = 465 // smtps://: TLS from the first byte
)

// SMTP sends mail through an SMTP server. It implements ports.Mailer and is safe for concurrent
// use: each Send makes its own connection.
type SMTP struct {
	host      string
	port      int
	implicit  bool // smtps://
	user      string
	pass      string
	from      string
	timeout   time.Duration
	tlsConfig *tls.Config
	log       *zap.Logger
}

var _ ports.Mailer = (*SMTP)(nil)

// NewSMTP returns a mailer for the server of rawURL (SVC_SMTP_URL), sending from the address
// from. The URL is smtp://[user:password@]host[:port] (port 587 by default; STARTTLS when the
// server offers it) or smtps://[user:password@]host[:port] (port 465; TLS from the start).
// Credentials are only ever sent over TLS, with the strongest mechanism the server offers.
// Errors never show the password.
func NewSMTP(rawURL, from string, log *zap.Logger) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("parse smtp url: %w", err)
	}
	s := &SMTP{host: u.Hostname(), from: from, timeout: DefaultTimeout, log: log}
	s.tlsConfig = &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
	switch u.Scheme {
	case "smtp":
		s.port = SubmissionPort
	case "smtps":
		s.port, s.implicit = SMTPSPort, true
	default:
		return nil, fmt.Errorf("parse smtp url: scheme %q, want smtp or smtps", u.Scheme)
	}
	if s.host == "" {
		return nil, errors.New("parse smtp url: no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("parse smtp url: bad port %q", p)
		}
		s.port = n
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("smtp sender address %q: %w", from, err)
	}
	log.Info("mail through SMTP",
		zap.String("host", s.host), zap.Int("port", s.port),
		zap.Bool("implicit_tls", s.implicit), zap.Bool("auth", s.user != ""))
	return s, nil
}

// Send delivers m in one SMTP session, which ends (its connection closed) when ctx does or after
// the mailer's timeout.
func (s *SMTP) Send(ctx context.Context, m notification.Mail) error {
	msg, err := message(s.from, m.To, nil, m.Subject, m.Text)
	if err != nil {
		return err
	}
	if err := s.deliver(ctx, msg); err != nil {
		return err
	}
	s.log.Debug("mail sent", zap.String("to", m.To), zap.String("subject", m.Subject))
	return nil
}

// message builds a plain-text e-mail with its date and message id.
func message(from, to string, cc []string, subject, text string) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail from %q: %w", from, err)
	}
	if err := msg.To(to); err != nil {
		return nil, fmt.Errorf("mail to %q: %w", to, err)
	}
	if len(cc) > 0 {
		if err := msg.Cc(cc...); err != nil {
			return nil, fmt.Errorf("mail cc: %w", err)
		}
	}
	msg.Subject(subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, text)
	return msg, nil
}

// deliver sends msg in one SMTP session, which ends (its connection closed) when ctx does or
// after the mailer's timeout.
func (s *SMTP) deliver(ctx context.Context, msg *gomail.Msg) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var conns conns
	defer conns.close()
	stop := context.AfterFunc(ctx, conns.close)
	defer stop()

	client, err := gomail.NewClient(s.host, s.options(&conns)...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send mail via %s:%d: %w", s.host, s.port, err)
	}
	return nil
}

// options configure a go-mail client for one session whose connections go to conns.
func (s *SMTP) options(conns *conns) []gomail.Option {
	opts := []gomail.Option{
		gomail.WithPort(s.port),
		gomail.WithTimeout(s.timeout),
		gomail.WithTLSConfig(s.tlsConfig),
		// Implicit TLS is done by dial: go-mail sees a *tls.Conn, knows the session is
		// encrypted, and does not try STARTTLS as the server does not offer it then.
		gomail.WithTLSPolicy(gomail.TLSOpportunistic),
		gomail.WithDialContextFunc(func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := s.dial(ctx, network, addr)
			if err == nil {
				conns.add(c)
			}
			return c, err
		}),
	}
	if s.user != "" {
		// Auto-discovery never picks PLAIN or LOGIN on a connection without TLS.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	return opts
}

// dial connects to the server, with TLS from the start for smtps://.
func (s *SMTP) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: s.timeout}
	if s.implicit {
		return (&tls.Dialer{NetDialer: d, Config: s.tlsConfig}).DialContext(ctx, network, addr)
	}
	return d.DialContext(ctx, network, addr)
}

// conns holds the connections of one session, to close them when it ends however it ends
// (go-mail leaves a connection open when the session fails before a message is sent).
type conns struct {
	mu     sync.Mutex
	list   []net.Conn
	closed bool
}

func (c *conns) add(conn net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		_ = conn.Close()
		return
	}
	c.list = append(c.list, conn)
}

func (c *conns) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, conn := range c.list {
		_ = conn.Close()
	}
	c.list = nil
}

// Log is the mailer used when no SMTP server is configured: it logs each mail's recipient and
// subject (never its body) and sends nothing. It implements ports.Mailer.
type Log struct {
	log *zap.Logger
}

var _ ports.Mailer = (*Log)(nil)

// NewLog returns a mailer that only logs.
func NewLog(log *zap.Logger) *Log { return &Log{log: log} }

// Send logs m's recipient and subject.
func (l *Log) Send(_ context.Context, m notification.Mail) error {
	l.log.Info("mail not sent: SVC_SMTP_URL is not set", zap.String("to", m.To), zap.String("subject", m.Subject))
	return nil
}
