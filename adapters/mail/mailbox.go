package mail

import (
	"context"
	"crypto/tls"

	"go.uber.org/zap"

	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/ports"
)

// Mailboxes sends the assistant's e-mails through each account's own SMTP server (its mail
// connector), as SMTP does for the service's: STARTTLS when offered (credentials only ever over
// TLS) or TLS from the first byte. It implements ports.MailSender and is safe for concurrent use.
type Mailboxes struct {
	log *zap.Logger
}

var _ ports.MailSender = (*Mailboxes)(nil)

// NewMailboxes returns the sender through accounts' mail servers.
func NewMailboxes(log *zap.Logger) *Mailboxes { return &Mailboxes{log: log} }

// SendVia sends m through the server s in one SMTP session. Errors never show the password.
func (b *Mailboxes) SendVia(ctx context.Context, s assistant.MailServer, m assistant.Mail) error {
	srv := &SMTP{host: s.Host, port: s.Port, implicit: s.Security == assistant.TLS, user: s.Username, pass: s.Password,
		from: s.From, timeout: DefaultTimeout, log: b.log,
		tlsConfig: &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}}
	msg, err := message(s.From, m.To, m.Cc, m.Subject, m.Text)
	if err != nil {
		return err
	}
	if err := srv.deliver(ctx, msg); err != nil {
		return err
	}
	b.log.Debug("assistant mail sent", zap.String("to", m.To), zap.Int("cc", len(m.Cc)))
	return nil
}
