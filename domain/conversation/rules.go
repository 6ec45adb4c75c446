package conversation

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// Conversation is an exchange between one customer and the agent. ID is the caller's key,
// unique within the account.
type Conversation struct {
	AccountID    string
	ID           string
	Channel      Channel
	CustomerName string
	ContactID    string
	Tags         []string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Limits of chat input.
const (
	MaxMessage      = 8000 // characters of a customer message
	MaxIDLength     = 200
	MaxCustomerName = 200
	MaxListLimit    = 100
	DefaultLimit    = 20
	HistoryTurns    = 20 // earlier messages the agent reads
)

// ValidateMessage checks a customer message: 1 to MaxMessage characters, not blank (spaces and
// invisible characters only, such as zero-width spaces).
func ValidateMessage(field, msg string) error {
	if !domain.HasVisible(msg) {
		return domain.Invalid(field, "%s is required: it has no visible character", field)
	}
	if n := utf8.RuneCountInString(msg); n > MaxMessage {
		return domain.Invalid(field, "%s must be at most %d characters (got %d)", field, MaxMessage, n)
	}
	return nil
}

// ValidateID checks a caller-chosen conversation key: 1 to MaxIDLength characters of letters,
// digits and . _ : @ -.
func ValidateID(field, id string) error {
	if id == "" || len(id) > MaxIDLength {
		return domain.Invalid(field, "%s must be 1 to %d characters", field, MaxIDLength)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:@-", r)
		if !ok {
			return domain.Invalid(field, "%s may hold only letters, digits and . _ : @ -", field)
		}
	}
	return nil
}

// AssistantPrefix begins the ids of the owner's assistant conversations, which the account's
// conversation list and GET /v1/conversations/{id} show beside the customers' (spec 4.7 rule 8).
const AssistantPrefix = "asc_"

// ValidateCustomerID checks the id a caller chooses for a customer conversation: ValidateID's
// rules, and not AssistantPrefix, so that a customer conversation never takes the id of an
// assistant conversation and is never listed or read in its place.
func ValidateCustomerID(field, id string) error {
	if err := ValidateID(field, id); err != nil {
		return err
	}
	if strings.HasPrefix(id, AssistantPrefix) {
		return domain.Invalid(field, "%s may not begin with %s: such ids are the owner's assistant conversations", field, AssistantPrefix)
	}
	return nil
}

// ValidateCustomerName checks an optional display name.
func ValidateCustomerName(name string) error {
	if utf8.RuneCountInString(name) > MaxCustomerName {
		return domain.Invalid("customer_name", "customer_name must be at most %d characters", MaxCustomerName)
	}
	return nil
}

// ContactID is the contact id of a conversation's customer (the events' data.contact_id): the
// web channel's "web:<id>", the API's "api:<id>". A messaging conversation's id is already the
// contact's address ("whatsapp:15551234567"): one conversation per contact.
func ContactID(ch Channel, conversationID string) string {
	if ch == ChannelMessaging {
		return conversationID
	}
	return string(ch) + ":" + conversationID
}

// ListQuery pages through conversations, newest first.
type ListQuery struct {
	Channel Channel
	Limit   int
	After   *Cursor
	// Assistant lists the owner's kept assistant conversations (channel ChannelAssistant) with
	// the customers', in the same order: the API's list does (spec 4.7 rule 8); the customer
	// inbox leaves it false. Without it Channel ChannelAssistant lists none.
	Assistant bool
}

// Cursor is the position after which a page starts.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// Page is one page of conversations.
type Page struct {
	Conversations []Conversation
	HasMore       bool
}
