package httpapi

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ratelimit"
)

// POST /v1/chat, GET /v1/conversations, GET /v1/conversations/{conversation_id}

// chatIn is the body of POST /v1/chat.
type chatIn struct {
	Message        *string `json:"message"`
	ConversationID string  `json:"conversation_id"`
	CustomerName   string  `json:"customer_name"`
}

type actionJSON struct {
	Type      string `json:"type"`
	URL       string `json:"url,omitempty"`
	ProductID string `json:"product_id,omitempty"`
	Qty       int    `json:"qty,omitempty"`
}

func actionsOf(as []conversation.Action) []actionJSON {
	out := make([]actionJSON, 0, len(as))
	for _, a := range as {
		out = append(out, actionJSON(a))
	}
	return out
}

type chatReplyJSON struct {
	Object            string            `json:"object"`
	Status            string            `json:"status"`
	ConversationID    string            `json:"conversation_id"`
	MessageID         string            `json:"message_id"`
	CustomerMessageID string            `json:"customer_message_id"`
	Reply             *string           `json:"reply"`
	Actions           []actionJSON      `json:"actions"`
	Usage             *interactionsJSON `json:"usage,omitempty"` // none for a widget visitor
	CreatedAt         string            `json:"created_at"`
}

// send runs one customer message, the body's message with req's other fields, and answers 200
// with the reply, or 202 while it is pending. The fields are checked before the per-account chat
// limit counts the message.
func (s *Server) send(c *gin.Context, message *string, req chat.Request) {
	if message == nil {
		s.fail(c, domain.Invalid("message", "message is required"))
		return
	}
	req.Message = *message
	if err := validChat(req); err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, req.Account.Plan, req.Account.ID, ratelimit.Chat) {
		return
	}
	r, err := s.uc.Chat.Send(c.Request.Context(), req)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeReply(c, r, true)
}

// writeReply answers a reply: 200, or 202 while it is pending (with the account's usage when the
// message was accepted). The usage is left out when withUsage is false: a widget visitor's
// public token may read nothing of the account.
func writeReply(c *gin.Context, r chat.Reply, withUsage bool) {
	out := chatReplyJSON{Object: "chat.reply", Status: r.Status, ConversationID: r.ConversationID, MessageID: r.ReplyID,
		CustomerMessageID: r.MessageID, Actions: actionsOf(r.Actions), CreatedAt: stamp(r.CreatedAt)}
	if withUsage {
		u := interactionsOf(r.Usage)
		out.Usage = &u
	}
	status := http.StatusOK
	if r.Status == chat.StatusPending {
		status = http.StatusAccepted
	} else {
		out.Reply = &r.Text
	}
	c.JSON(status, out)
}

func (s *Server) postChat(c *gin.Context) {
	p, _ := principal(c)
	var body chatIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	s.send(c, body.Message, chat.Request{Account: p.Account, Usage: &p.Usage, Channel: conversation.ChannelAPI,
		ConversationID: body.ConversationID, CustomerName: body.CustomerName})
}

// validChat checks a chat request's fields as chat.Agent.Send does first, so that the
// per-account chat limit counts valid messages only: a rejected one must not use it up (the
// per-key limit still counts every request).
func validChat(req chat.Request) error {
	if err := conversation.ValidateMessage("message", req.Message); err != nil {
		return err
	}
	if req.ConversationID != "" {
		if err := conversation.ValidateID("conversation_id", req.ConversationID); err != nil {
			return err
		}
	}
	return conversation.ValidateCustomerName(req.CustomerName)
}

type messageJSON struct {
	ID        string       `json:"id"`
	Role      string       `json:"role"`
	Content   string       `json:"content"`
	Actions   []actionJSON `json:"actions"`
	ReplyTo   *string      `json:"reply_to"` // an agent message's customer message; null on a customer message
	CreatedAt string       `json:"created_at"`
}

func messageOf(m conversation.Message) messageJSON {
	out := messageJSON{ID: m.ID, Role: m.Role, Content: m.Content, Actions: actionsOf(m.Actions), CreatedAt: stamp(m.CreatedAt)}
	if m.ReplyTo != "" {
		out.ReplyTo = &m.ReplyTo
	}
	return out
}

type conversationJSON struct {
	Object       string   `json:"object"`
	ID           string   `json:"id"`
	Channel      string   `json:"channel"`
	CustomerName string   `json:"customer_name"`
	ContactID    string   `json:"contact_id"`
	Tags         []string `json:"tags"`
	CreatedAt    string   `json:"created_at"`
	UpdatedAt    string   `json:"updated_at"`
}

// threadJSON is a conversation with its messages.
type threadJSON struct {
	conversationJSON
	Messages []messageJSON `json:"messages"`
}

func conversationOf(c conversation.Conversation) conversationJSON {
	tags := c.Tags
	if tags == nil {
		tags = []string{}
	}
	return conversationJSON{Object: "conversation", ID: c.ID, Channel: string(c.Channel), CustomerName: c.CustomerName,
		ContactID: c.ContactID, Tags: tags, CreatedAt: stamp(c.CreatedAt), UpdatedAt: stamp(c.UpdatedAt)}
}

// writeThread answers a conversation with its messages.
func writeThread(c *gin.Context, t chat.Thread) {
	out := threadJSON{conversationJSON: conversationOf(t.Conversation), Messages: make([]messageJSON, 0, len(t.Messages))}
	for _, m := range t.Messages {
		out.Messages = append(out.Messages, messageOf(m))
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) getConversation(c *gin.Context) {
	p, _ := principal(c)
	t, err := s.uc.Chat.Conversation(c.Request.Context(), p.Account.ID, c.Param("conversation_id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	writeThread(c, t)
}

func (s *Server) listConversations(c *gin.Context) {
	p, _ := principal(c)
	var q conversation.ListQuery
	switch ch := conversation.Channel(c.Query("channel")); ch {
	case "":
	case conversation.ChannelAPI, conversation.ChannelWeb, conversation.ChannelMessaging:
		q.Channel = ch
	default:
		s.fail(c, domain.Invalid("channel", "channel must be api, web or messaging"))
		return
	}
	if raw, ok := c.GetQuery("limit"); ok {
		n, err := limitParam(raw)
		if err != nil {
			s.fail(c, err)
			return
		}
		q.Limit = n
	}
	if raw := c.Query("cursor"); raw != "" {
		cur, ok := decodeCursor(raw)
		if !ok {
			s.fail(c, domain.Invalid("cursor", "cursor is not one this API returned"))
			return
		}
		q.After = &cur
	}
	page, err := s.uc.Chat.Conversations(c.Request.Context(), p.Account.ID, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]conversationJSON, 0, len(page.Conversations))
	for _, conv := range page.Conversations {
		data = append(data, conversationOf(conv))
	}
	var next *string
	if page.HasMore && len(page.Conversations) > 0 {
		last := page.Conversations[len(page.Conversations)-1]
		cur := encodeCursor(conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID})
		next = &cur
	}
	out := listOf(data)
	out.HasMore, out.NextCursor = page.HasMore, next
	c.JSON(http.StatusOK, out)
}

func encodeCursor(c conversation.Cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "|" + c.ID))
}

// limitParam reads the limit query parameter of a list.
func limitParam(raw string) (int, error) {
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > conversation.MaxListLimit {
		return 0, domain.Invalid("limit", "limit must be an integer between 1 and %d", conversation.MaxListLimit)
	}
	return n, nil
}

// decodeCursor reads a cursor of encodeCursor. What it decodes to is text from the caller, so
// it is checked as the query parameters are.
func decodeCursor(s string) (conversation.Cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || badText(string(b), false) != "" {
		return conversation.Cursor{}, false
	}
	at, id, ok := strings.Cut(string(b), "|")
	micros, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || id == "" {
		return conversation.Cursor{}, false
	}
	return conversation.Cursor{CreatedAt: time.UnixMicro(micros).UTC(), ID: id}, true
}
