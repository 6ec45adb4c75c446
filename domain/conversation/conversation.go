// Package conversation holds conversations between a business's customers and its agent, the
// messages in them, and what the agent needs to write one reply.
package conversation

import (
	"slices"
	"time"

	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/channel"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
)

// Channel is where a conversation happens (the message.replied event's data.channel).
type Channel = channel.Channel

// The customer channels a conversation happens on.
const (
	ChannelAPI       = channel.API
	ChannelWeb       = channel.Web
	ChannelMessaging = channel.Messaging
)

// ChannelAssistant is the channel of the owner's kept assistant conversations (POST
// /v1/assistant with new_conversation) where they are listed among the account's conversations
// (spec 4.7 rule 8). It is no customer's: the agent never talks on it (the assistant itself
// talks on channel.Owner).
const ChannelAssistant Channel = "assistant"

// Roles of a message in a conversation.
const (
	RoleCustomer = "customer"
	RoleAgent    = "agent"
)

// Message is one message of a conversation.
type Message struct {
	ID             string
	ConversationID string
	Role           string
	Content        string
	Actions        []Action
	// ReplyTo is, on an agent message, the id of the customer message it answers: with messages
	// sent at once, a reply need not follow its message directly.
	ReplyTo   string
	CreatedAt time.Time
}

// Action is a structured action parsed out of an agent reply's action tokens: "open" with URL,
// "cart" with ProductID and Qty, "checkout".
type Action = actiontoken.Action

// Booking is an appointment or reservation the agent made for a customer.
type Booking struct {
	ID             string
	ConversationID string
	CustomerName   string
	Date           string // YYYY-MM-DD
	Time           string // HH:MM
	Duration       string // e.g. "30 min"
	Type           string
	CreatedAt      time.Time
}

// Turn is everything the agent needs to write one reply.
type Turn struct {
	Profile profile.Profile
	Summary string          // the business summary given with pages
	Hits    []knowledge.Hit // the Brain's best matches for the message, best first
	// Context is what a model upstream is given of the Brain: Hits, then more of its entries up
	// to a budget of characters (knowledge.Index.SearchContext); nil: Hits.
	Context []knowledge.Hit
	History []Message // earlier messages, oldest first, without the new one
	Message string    // the customer's new message
	// Query is what the Brain was searched for when it is not Message: the question an
	// elliptical follow-up asks ("and on sundays?" after "what time do you open on saturday?":
	// "what time do you open on sundays", knowledge.FollowUp). A replier reads the question's
	// words from Question; the reply's language stays Message's (Lang).
	Query        string
	CustomerName string
	Lang         string // the language to answer in (en, pt, pt-BR, es …)
	Channel      Channel
	Now          time.Time
}

// LastCustomers are the contents of the last n customer messages of history (oldest first), in
// the same order: the messages an elliptical follow-up completes (knowledge.FollowUpIn).
func LastCustomers(history []Message, n int) []string {
	var out []string
	for i := len(history) - 1; i >= 0 && len(out) < n; i-- {
		if history[i].Role == RoleCustomer {
			out = append(out, history[i].Content)
		}
	}
	slices.Reverse(out)
	return out
}

// Question is the question the turn asks: Query when the Brain was searched for it, else
// Message.
func (t Turn) Question() string {
	if t.Query != "" {
		return t.Query
	}
	return t.Message
}

// Passages is what a model upstream is given of the Brain: Context, or Hits without it.
func (t Turn) Passages() []knowledge.Hit {
	if t.Context != nil {
		return t.Context
	}
	return t.Hits
}

// Draft is the agent's reply before it is stored: text that may hold action tokens, a booking
// when the agent made one, and the tokens the model used.
type Draft struct {
	Text    string
	Booking *Booking
	Usage   Usage
}

// Usage counts model tokens (zero for the built-in engine).
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}
