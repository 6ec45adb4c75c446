package assistant

import (
	"errors"
	"net/mail"
	"strings"
	"time"

	"github.com/svcagent/svc/domain"
)

// Turn is one message of an assistant conversation: the owner's, or the assistant's reply with
// its status.
type Turn struct {
	ConversationID string
	Role           string // RoleOwner or RoleAssistant
	Content        string
	Status         Status // the reply's status, on an assistant turn
	Missing        string // on a needs_input reply: the detail asked for
	CreatedAt      time.Time
}

// Roles of a turn.
const (
	RoleOwner     = "owner"
	RoleAssistant = "assistant"
)

// Mail is an e-mail the assistant sends through the account's mailbox.
type Mail struct {
	To      string
	Cc      []string
	Subject string
	Text    string
}

// MailOf returns the e-mail of an email action.
func MailOf(a Action) Mail {
	m := Mail{To: strings.TrimSpace(a.To), Subject: a.Subject, Text: a.Text}
	for _, c := range strings.Split(a.Cc, ",") {
		if c = strings.TrimSpace(c); c != "" {
			m.Cc = append(m.Cc, c)
		}
	}
	return m
}

// Security is how a mailbox's SMTP connection is protected.
type Security string

// The securities: STARTTLS when the server offers it (credentials only ever go over TLS), or
// TLS from the first byte.
const (
	StartTLS Security = "starttls"
	TLS      Security = "tls"
)

// Mailbox is an account's mail connector: the SMTP server the assistant's e-mails leave
// through, with its password sealed by the vault.
type Mailbox struct {
	AccountID      string
	Host           string
	Port           int
	Username       string
	SealedPassword []byte
	From           string
	Security       Security
	UpdatedAt      time.Time
}

// MailServer is a mailbox ready to send through: its password opened.
type MailServer struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
	Security Security
}

// ValidateMailbox checks a mailbox's settings.
func ValidateMailbox(s MailServer) error {
	if strings.TrimSpace(s.Host) == "" || strings.ContainsAny(s.Host, " /@") {
		return domain.Invalid("host", "host must be a host name or address")
	}
	if s.Port < 1 || s.Port > 65535 {
		return domain.Invalid("port", "port must be between 1 and 65535")
	}
	if _, err := mail.ParseAddress(s.From); err != nil {
		return domain.Invalid("from", "from must be an e-mail address")
	}
	if s.Security != StartTLS && s.Security != TLS {
		return domain.Invalid("security", "security must be %q or %q", StartTLS, TLS)
	}
	return nil
}

// ErrNotConnected is a connector's answer when the account has not connected it.
var ErrNotConnected = errors.New("the connector is not connected in the account")

// RefusedError is a connector's answer when the other side refused with a status code.
type RefusedError struct{ Status int }

func (e *RefusedError) Error() string { return "refused: status " + string(Refused(e.Status)) }
