package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
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
	s.run(c, req)
}

// run sends a checked and counted customer message and answers its reply. A request with an
// Idempotency-Key names itself (chat.Request.RequestKey): its retry after a reply that failed
// once the message was stored answers that message rather than store it again.
func (s *Server) run(c *gin.Context, req chat.Request) {
	if v, ok := c.Get(ctxIdemRef); ok {
		req.RequestKey, _ = v.(string)
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

// ctxChatBody holds POST /v1/chat's body as authKeyChat read it (a chatBody).
const ctxChatBody = "svc.chat_body"

type chatBody struct {
	in  chatIn
	err error // the body's refusal, answered once the key is authenticated and counted
}

// authKeyChat is authKey for POST /v1/chat. It reads and checks the body first, so that the
// account's chat limit is counted with the per-key limit in Admit's one call of the limiter
// when the message is valid (a refused body never spends it); the body's refusal is answered
// after the key's 401 and the per-key 429, as before. The chat limit's 429 is answered after the
// web channels' 402 (postChat), as before. A valid message's key is let in by a recent check of
// it while no key or account changed (Access.AdmitKept), as on the model endpoints: the reply's
// charge checks the allowance again, and a message that may be stored before its charge is
// checked against the usage read again (chat.Request.UsageKept).
func (s *Server) authKeyChat(c *gin.Context) {
	var b chatBody
	if b.err = decodeJSON(c, &b.in); b.err == nil {
		if b.in.Message == nil {
			b.err = domain.Invalid("message", "message is required")
		} else {
			b.err = validChat(chat.Request{Message: *b.in.Message, ConversationID: b.in.ConversationID, CustomerName: b.in.CustomerName})
		}
	}
	c.Set(ctxChatBody, b)
	if b.err != nil {
		s.authKey()(c)
		return
	}
	s.authKeyWith(s.uc.Access.AdmitKept, nil, []ratelimit.Limit{ratelimit.Chat})(c)
}

func (s *Server) postChat(c *gin.Context) {
	p, _ := principal(c)
	v, _ := c.Get(ctxChatBody)
	b, _ := v.(chatBody)
	if b.err != nil {
		s.fail(c, b.err)
		return
	}
	if !s.admitted(c, ratelimit.Chat) {
		return
	}
	v, _ = c.Get(ctxAdmission)
	ad, _ := v.(accounts.Admission)
	s.run(c, chat.Request{Account: p.Account, Usage: &p.Usage, UsageKept: ad.Kept, Channel: conversation.ChannelAPI,
		Message: *b.in.Message, ConversationID: b.in.ConversationID, CustomerName: b.in.CustomerName})
}

// validChat checks a chat request's fields as chat.Agent.Send does first, so that the
// per-account chat limit counts valid messages only: a rejected one must not use it up (the
// per-key limit still counts every request).
func validChat(req chat.Request) error {
	if err := conversation.ValidateMessage("message", req.Message); err != nil {
		return err
	}
	if req.ConversationID != "" {
		if err := conversation.ValidateCustomerID("conversation_id", req.ConversationID); err != nil {
			return err
		}
	}
	return conversation.ValidateCustomerName(req.CustomerName)
}

// getConversation answers a customer conversation or the owner's kept assistant conversation
// (spec 4.7 rule 8).
func (s *Server) getConversation(c *gin.Context) {
	p, _ := principal(c)
	t, err := s.uc.Chat.AnyConversation(c.Request.Context(), p.Account.ID, c.Param("conversation_id"))
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
