package apijson

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
)

// Action is an action of the customer agent's reply.
type Action struct {
	Type      string `json:"type"`
	URL       string `json:"url,omitempty"`
	ProductID string `json:"product_id,omitempty"`
	Qty       int    `json:"qty,omitempty"`
}

// ActionsOf is as, never null.
func ActionsOf(as []conversation.Action) []Action {
	out := make([]Action, 0, len(as))
	for _, a := range as {
		out = append(out, Action(a))
	}
	return out
}

// Message is a message of a conversation.
type Message struct {
	ID        string   `json:"id"`
	Role      string   `json:"role"`
	Content   string   `json:"content"`
	Actions   []Action `json:"actions"`
	ReplyTo   *string  `json:"reply_to"` // an agent's (assistant's) message's customer's (owner's) message; null on theirs
	CreatedAt string   `json:"created_at"`
}

// MessageOf is the message m.
func MessageOf(m conversation.Message) Message {
	out := Message{ID: m.ID, Role: m.Role, Content: m.Content, Actions: ActionsOf(m.Actions), CreatedAt: Stamp(m.CreatedAt)}
	if m.ReplyTo != "" {
		out.ReplyTo = &m.ReplyTo
	}
	return out
}

// Conversation is a conversation without its messages (an item of GET /v1/conversations).
type Conversation struct {
	Object       string   `json:"object"`
	ID           string   `json:"id"`
	Channel      string   `json:"channel"`
	CustomerName string   `json:"customer_name"`
	ContactID    string   `json:"contact_id"`
	Tags         []string `json:"tags"`
	CreatedAt    string   `json:"created_at"`
	UpdatedAt    string   `json:"updated_at"`
}

// ConversationOf is the conversation c.
func ConversationOf(c conversation.Conversation) Conversation {
	tags := c.Tags
	if tags == nil {
		tags = []string{}
	}
	return Conversation{Object: "conversation", ID: c.ID, Channel: string(c.Channel), CustomerName: c.CustomerName,
		ContactID: c.ContactID, Tags: tags, CreatedAt: Stamp(c.CreatedAt), UpdatedAt: Stamp(c.UpdatedAt)}
}

// Thread is a conversation with its messages: the body of GET /v1/conversations/{id} (the
// get_conversation tool).
type Thread struct {
	Conversation
	Messages []Message `json:"messages"`
}

// ThreadOf is the thread t.
func ThreadOf(t chat.Thread) Thread {
	out := Thread{Conversation: ConversationOf(t.Conversation), Messages: make([]Message, 0, len(t.Messages))}
	for _, m := range t.Messages {
		out.Messages = append(out.Messages, MessageOf(m))
	}
	return out
}

// ConversationsOf is the body of GET /v1/conversations (the list_conversations tool): a page,
// with the cursor of the next one.
func ConversationsOf(page conversation.Page) List[Conversation] {
	data := make([]Conversation, 0, len(page.Conversations))
	for _, conv := range page.Conversations {
		data = append(data, ConversationOf(conv))
	}
	out := ListOf(data)
	if page.HasMore && len(page.Conversations) > 0 {
		last := page.Conversations[len(page.Conversations)-1]
		cur := encodeCursor(conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID})
		out.NextCursor = &cur
	}
	out.HasMore = page.HasMore
	return out
}

// ConversationsQuery reads the query of GET /v1/conversations (channel, limit, cursor) from get.
// The list holds the owner's kept assistant conversations with the customers' (spec 4.7 rule 8):
// channel assistant lists only them.
func ConversationsQuery(get Params) (conversation.ListQuery, error) {
	q := conversation.ListQuery{Assistant: true}
	ch, _ := get("channel")
	switch ch := conversation.Channel(ch); ch {
	case "":
	case conversation.ChannelAPI, conversation.ChannelWeb, conversation.ChannelMessaging, conversation.ChannelAssistant:
		q.Channel = ch
	default:
		return q, domain.Invalid("channel", "channel must be api, web, messaging or assistant")
	}
	var err error
	q.Limit, q.After, err = listPage(get, 0)
	return q, err
}

// listPage reads the page a list's query asks for: limit (1 to conversation.MaxListLimit; def
// when it is not given) and cursor (the next_cursor of the page before; nil when not given).
func listPage(get Params, def int) (limit int, after *conversation.Cursor, err error) {
	limit = def
	n, given, err := Integer(get, "limit", 1, conversation.MaxListLimit)
	if err != nil {
		return 0, nil, err
	}
	if given {
		limit = int(n)
	}
	if raw, _ := get("cursor"); raw != "" {
		cur, ok := DecodeCursor(raw)
		if !ok {
			return 0, nil, domain.Invalid("cursor", "cursor is not one this API returned")
		}
		after = &cur
	}
	return limit, after, nil
}

func encodeCursor(c conversation.Cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "|" + c.ID))
}

// DecodeCursor reads a cursor of a list's next_cursor. What it decodes to is text from the
// caller, so it is checked as the query parameters are.
func DecodeCursor(s string) (conversation.Cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || BadText(string(b), false) != "" {
		return conversation.Cursor{}, false
	}
	at, id, ok := strings.Cut(string(b), "|")
	micros, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || id == "" {
		return conversation.Cursor{}, false
	}
	created := time.UnixMicro(micros).UTC()
	if queryTimeInRange("cursor", created) != nil {
		return conversation.Cursor{}, false // no list has a row of that time: not a cursor it gave
	}
	return conversation.Cursor{CreatedAt: created, ID: id}, true
}
