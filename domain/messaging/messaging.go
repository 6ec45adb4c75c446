// Package messaging holds the messaging-app channel: the apps an account connects (WhatsApp Cloud
// API, Telegram Bot API), a connection and its secrets, the messages that come in from a contact,
// the address of a contact, and the checks of the apps' webhook requests. The agent that answers
// is the one of every channel (conversation.ChannelMessaging); this package only says who the
// contact is and how their app talks to the service.
package messaging

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// App is a messaging app.
type App string

// The apps.
const (
	WhatsApp App = "whatsapp"
	Telegram App = "telegram"
)

// Secrets are what a connection keeps sealed: the app's credentials and the values its webhook
// requests are checked with.
type Secrets struct {
	AccessToken string // WhatsApp: the Graph API access token
	AppSecret   string // WhatsApp: the app secret that signs webhook requests (X-Hub-Signature-256)
	VerifyToken string // WhatsApp: the token of the webhook verification handshake
	BotToken    string // Telegram: the bot token
	HookSecret  string // Telegram: the secret_token given to setWebhook, sent back in every update
}

// Connection is one app connected to an account: Hook is the unguessable part of its webhook URL,
// PhoneNumberID the WhatsApp sender (empty on Telegram), Sealed the sealed Secrets.
type Connection struct {
	AccountID     string
	App           App
	Hook          string
	PhoneNumberID string
	Sealed        []byte
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// HookPrefix starts the Hook of every connection: a reader of a URL sees what it is.
const HookPrefix = "mh_"

// ValidHook reports whether s can be a connection's Hook (a path segment the service made).
func ValidHook(s string) bool {
	rest, ok := strings.CutPrefix(s, HookPrefix)
	if !ok || len(rest) < 20 || len(rest) > 80 {
		return false
	}
	for _, c := range []byte(rest) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Connect checks the settings of a connection: WhatsApp needs its phone number id, access token,
// app secret and verify token; Telegram its bot token (the hook secret is made by the service).
func Connect(app App, phoneNumberID string, s Secrets) error {
	need := func(field, v string) error {
		if strings.TrimSpace(v) == "" {
			return domain.Invalid(field, "%s is required", field)
		}
		if strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }) || len(v) > 4096 {
			return domain.Invalid(field, "%s must be 1 to 4096 characters without spaces or control characters", field)
		}
		return nil
	}
	var checks [][2]string
	switch app {
	case WhatsApp:
		checks = [][2]string{{"phone_number_id", phoneNumberID}, {"access_token", s.AccessToken}, {"app_secret", s.AppSecret}, {"verify_token", s.VerifyToken}}
	case Telegram:
		checks = [][2]string{{"bot_token", s.BotToken}}
		if strings.TrimSpace(s.BotToken) != "" && BotID(s.BotToken) == "" {
			return domain.Invalid("bot_token", "bot_token must be the bot's id, a colon and its secret, as @BotFather gives it")
		}
	default:
		return domain.Invalid("channel", "channel must be whatsapp or telegram")
	}
	for _, c := range checks {
		if err := need(c[0], c[1]); err != nil {
			return err
		}
	}
	if app == WhatsApp && strings.Trim(phoneNumberID, "0123456789") != "" {
		return domain.Invalid("phone_number_id", "phone_number_id must be digits")
	}
	return nil
}

// Kinds of an inbound message.
const (
	KindText  = "text"
	KindFile  = "file"  // a picture, video, document or voice note sent alone: answered (conversation.AttachmentNote)
	KindOther = "other" // a sticker, a location, a reaction…: acknowledged, not answered
)

// Inbound is one message a contact sent: ID is the app's id of it (the WhatsApp message id, the
// Telegram update_id), From the contact's address in the app (a WhatsApp wa_id, a Telegram chat
// id), Name the contact's display name when the app gives one.
type Inbound struct {
	ID   string
	From string
	Name string
	Kind string
	Text string
}

// Choice returns the text of a contact's choice of a reply button or a list row offered by a
// message the business sent (WhatsApp's interactive button_reply and list_reply, a template's
// quick-reply button): the choice's title, followed by the row's description when there is one
// ("Priority Mail Express — Next day to 2 days"), as if the contact had typed it. Blank when
// the title is.
func Choice(title, description string) string {
	title, description = strings.TrimSpace(title), strings.TrimSpace(description)
	if title == "" || description == "" {
		return title
	}
	return title + " — " + description
}

// Caption returns the text a contact typed with a picture, video or document, which the agent
// answers as the contact's words (it cannot see the file): the caption, or "" when it is blank
// (the file alone is acknowledged without an answer).
func Caption(caption string) string {
	if strings.TrimSpace(caption) == "" {
		return ""
	}
	return caption
}

// Cleaned returns m with its text and name as the service keeps them: the app's own notification
// may carry control characters a customer typed or pasted (JSON escapes, signed by the app), which
// are dropped rather than the notification refused. See CleanText.
func (m Inbound) Cleaned() Inbound {
	m.Text, m.Name = CleanText(m.Text), CleanText(m.Name)
	return m
}

// CleanText returns s without control characters: a carriage return (alone or before a line
// feed) becomes a line feed; line feeds and tabs stay; the other C0 controls, DEL and the C1
// controls are dropped, and so are bytes that are not UTF-8.
func CleanText(s string) string {
	if !strings.ContainsFunc(s, dropped) {
		return s
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.Map(func(r rune) rune {
		if dropped(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// dropped reports whether CleanText drops r (a carriage return it first turns into a line feed).
func dropped(r rune) bool {
	return r == utf8.RuneError || r < ' ' && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
}

// Answerable reports whether the agent answers m: a text message (or a file sent alone, with its
// note) from a valid address, with an id, in valid UTF-8 without NUL.
func (m Inbound) Answerable() bool {
	return (m.Kind == KindText || m.Kind == KindFile && m.Text != "") && m.ID != "" && len(m.ID) <= 200 && ValidAddress(m.From) &&
		utf8.ValidString(m.Text) && !strings.ContainsRune(m.Text, 0) && utf8.ValidString(m.ID)
}

// ValidAddress reports whether s can be a contact's address: 1 to 64 digits, with a leading '-'
// allowed (Telegram group chats).
func ValidAddress(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	return digits != "" && len(s) <= 64 && strings.Trim(digits, "0123456789") == ""
}

// ContactID is a contact's address across apps, the events' data.contact_id and the id of the
// contact's one conversation: "whatsapp:15551234567", "telegram:123456789".
func ContactID(app App, address string) string {
	return string(app) + ":" + address
}

// ParseContact splits a ContactID into its app and address; ok is false when it is none.
func ParseContact(id string) (app App, address string, ok bool) {
	a, addr, found := strings.Cut(id, ":")
	if !found || (App(a) != WhatsApp && App(a) != Telegram) || !ValidAddress(addr) {
		return "", "", false
	}
	return App(a), addr, true
}

// Inbox is a connection whose webhook request was authenticated, with what its messages are
// recorded under: Bot, the bot its Telegram token names (BotID; empty on WhatsApp), read from the
// secrets when the request was checked, so that each message of the request does not open them
// again.
type Inbox struct {
	Connection
	Bot string
}

// NewInbox returns the inbox of c, whose secrets are sec.
func NewInbox(c Connection, sec Secrets) Inbox {
	if c.App == Telegram {
		return Inbox{Connection: c, Bot: BotID(sec.BotToken)}
	}
	return Inbox{Connection: c}
}

// Key is the key an inbound message of id is recorded under, so that a second delivery of it is
// answered once (per connection's account): a WhatsApp message id ("whatsapp:wamid.…") is
// unique forever; a Telegram update_id only within one bot's sequence, so its key names the bot
// ("telegram:<bot id>:<update_id>", BotID): a different bot connected since numbers its own
// updates, which never match the first bot's records, while the same bot reconnected with a new
// token keeps its bot id, and an update it delivers again is still known. Records are kept for
// the app's InboxKeep only.
func (b Inbox) Key(id string) string {
	if b.App == Telegram {
		return string(b.App) + ":" + b.Bot + ":" + id
	}
	return string(b.App) + ":" + id
}

// BotID returns the id of the bot of a Telegram bot token, the part before its ':'
// ("123456:ABC-DEF…" is bot 123456's): what stays when the token is revoked and a new one made.
// Empty when the token has no such part.
func BotID(token string) string {
	id, _, found := strings.Cut(token, ":")
	if !found || id == "" || len(id) > 20 || strings.Trim(id, "0123456789") != "" {
		return ""
	}
	return id
}

// How long an inbound message's record keeps a second delivery of it out.
const (
	// TelegramKeep: Telegram keeps an update it could not deliver for 24 hours, and numbers the
	// updates of a bot afresh, at random, only after a week without any: two days cover every
	// delivery again of an update, and never reach the update_ids of a new sequence.
	TelegramKeep = 48 * time.Hour
	// WhatsAppKeep: Meta delivers a notification again for up to 7 days.
	WhatsAppKeep = 8 * 24 * time.Hour
	// InboxRetention is how long a record is stored at all (the sweep deletes it after): the
	// longest keep.
	InboxRetention = WhatsAppKeep
)

// InboxKeep returns how long app's inbound messages are recorded for: a message delivered again
// after it is answered again.
func (a App) InboxKeep() time.Duration {
	if a == Telegram {
		return TelegramKeep
	}
	return WhatsAppKeep
}

// SignaturePrefix starts a WhatsApp X-Hub-Signature-256 header.
const SignaturePrefix = "sha256="

// Sign returns the X-Hub-Signature-256 value of body under secret.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return SignaturePrefix + hex.EncodeToString(mac.Sum(nil))
}

// VerifySignature reports whether header is the X-Hub-Signature-256 of body under secret,
// compared in constant time. An empty secret never verifies.
func VerifySignature(secret string, body []byte, header string) bool {
	if secret == "" {
		return false
	}
	got, ok := strings.CutPrefix(strings.TrimSpace(header), SignaturePrefix)
	if !ok {
		return false
	}
	sum, err := hex.DecodeString(strings.ToLower(got))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal(sum, mac.Sum(nil))
}

// SameSecret compares a secret an app sent back (a verify token, Telegram's secret token) with
// the stored one in constant time. An empty stored secret never matches.
func SameSecret(stored, sent string) bool {
	return stored != "" && subtle.ConstantTimeCompare([]byte(stored), []byte(sent)) == 1
}

// SendError is an app's refusal of a message sent to it: Status is the HTTP status of its answer
// (0 when none came: then it is no refusal, and is said so), RetryAfter the wait it asked for.
type SendError struct {
	App        App
	Status     int
	RetryAfter time.Duration
	Reason     string
}

func (e *SendError) Error() string {
	// No status: a DNS failure, a refused connection, a timeout; the app refused nothing.
	msg := string(e.App) + " could not be reached or did not answer"
	if e.Status != 0 {
		msg = string(e.App) + " refused the message: status " + strconv.Itoa(e.Status)
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Retryable reports whether sending again may succeed: no answer, 429 or a 5xx.
func (e *SendError) Retryable() bool {
	return e.Status == 0 || e.Status == 429 || e.Status >= 500
}
