package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
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

type chatReplyJSON struct {
	Object            string                `json:"object"`
	Status            string                `json:"status"`
	ConversationID    string                `json:"conversation_id"`
	MessageID         string                `json:"message_id"`
	CustomerMessageID string                `json:"customer_message_id"`
	Reply             *string               `json:"reply"`
	Actions           []apijson.Action      `json:"actions"`
	Usage             *apijson.Interactions `json:"usage,omitempty"` // none for a widget visitor
	CreatedAt         string                `json:"created_at"`
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
		CustomerMessageID: r.MessageID, Actions: apijson.ActionsOf(r.Actions), CreatedAt: apijson.Stamp(r.CreatedAt)}
	if withUsage {
		u := apijson.InteractionsOf(r.Usage)
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

func (s *Server) getConversation(c *gin.Context) {
	p, _ := principal(c)
	t, err := s.uc.Chat.Conversation(c.Request.Context(), p.Account.ID, c.Param("conversation_id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.ThreadOf(t))
}

func (s *Server) listConversations(c *gin.Context) {
	p, _ := principal(c)
	q, err := apijson.ConversationsQuery(c.GetQuery)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := s.uc.Chat.Conversations(c.Request.Context(), p.Account.ID, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.ConversationsOf(page))
}
