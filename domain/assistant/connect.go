package assistant

import (
	"errors"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
)

// Turn is one message of an assistant conversation: the owner's, or the assistant's reply with
// its status.
type Turn struct {
	ConversationID string
	Seq            int64  // its place in the conversation, from 1: set by the store (Add ignores it)
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

// Messages are a kept conversation's turns, oldest first, as the messages of a conversation
// (GET /v1/conversations/{id}, spec 4.7 rule 8): each one's id is its conversation's and its
// place ("asc_….3"), its role the turn's (owner or assistant), and an assistant's reply answers
// the owner's turn before it. They carry no actions: those were the replies' own.
func Messages(turns []Turn) []conversation.Message {
	out := make([]conversation.Message, 0, len(turns))
	asked := ""
	for _, t := range turns {
		m := conversation.Message{ID: TurnID(t.ConversationID, t.Seq), ConversationID: t.ConversationID, Role: t.Role,
			Content: t.Content, CreatedAt: t.CreatedAt}
		switch t.Role {
		case RoleOwner:
			asked = m.ID
		case RoleAssistant:
			m.ReplyTo = asked
		}
		out = append(out, m)
	}
	return out
}

// TurnID is the id of a conversation's turn seq as a message.
func TurnID(conversationID string, seq int64) string {
	return conversationID + "." + strconv.FormatInt(seq, 10)
}
