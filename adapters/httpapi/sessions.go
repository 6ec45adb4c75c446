package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ratelimit"
)

// POST /v1/sessions, and the client routes its session token opens: POST /v1/client/chat,
// GET /v1/client/messages, GET /v1/client/agent.

// sessionIn is the body of POST /v1/sessions.
type sessionIn struct {
	ConversationID string `json:"conversation_id"`
	CustomerName   string `json:"customer_name"`
	TTLMinutes     *int   `json:"ttl_minutes"`
}

// clientChatIn is the body of POST /v1/client/chat.
type clientChatIn struct {
	Message *string `json:"message"`
}

type clientSessionJSON struct {
	Object         string `json:"object"`
	Token          string `json:"token"`
	ConversationID string `json:"conversation_id"`
	CustomerName   string `json:"customer_name"`
	ExpiresAt      string `json:"expires_at"`
}

func (s *Server) postSession(c *gin.Context) {
	p, _ := principal(c)
	var body sessionIn
	if err := decodeOptionalJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	in := sessions.Input{ConversationID: body.ConversationID, CustomerName: body.CustomerName}
	if body.TTLMinutes != nil {
		in.TTLMinutes, in.TTLGiven = *body.TTLMinutes, true
	}
	created, err := s.uc.Sessions.Create(c.Request.Context(), p.Account, p.KeyID, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, clientSessionJSON{Object: "client_session", Token: created.Token,
		ConversationID: created.Session.ConversationID, CustomerName: created.Session.CustomerName,
		ExpiresAt: apijson.Stamp(created.Session.ExpiresAt)})
}

const ctxClient = "svc.client"

// authClient authenticates a client session token; the conversation comes only from it. A failed
// authentication is throttled (see refuse).
func (s *Server) authClient(c *gin.Context) {
	p, err := s.uc.Sessions.Authenticate(c.Request.Context(), bearer(c))
	if err != nil {
		s.refuse(c, err)
		return
	}
	if err := s.uc.Access.RequireWebChannels(p.Account); err != nil {
		s.fail(c, err)
		return
	}
	c.Set(ctxClient, p)
	if !s.limit(c, p.Account.Plan, p.Session.ID, ratelimit.PerKey) {
		return
	}
	c.Next()
}

func client(c *gin.Context) sessions.Principal {
	v, _ := c.Get(ctxClient)
	p, _ := v.(sessions.Principal)
	return p
}

func (s *Server) clientChat(c *gin.Context) {
	p := client(c)
	var body clientChatIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	s.send(c, body.Message, chat.Request{Account: p.Account, Channel: conversation.ChannelAPI,
		ConversationID: p.Session.ConversationID, CustomerName: p.Session.CustomerName})
}

func (s *Server) clientMessages(c *gin.Context) {
	p := client(c)
	t, err := s.uc.Chat.Conversation(c.Request.Context(), p.Account.ID, p.Session.ConversationID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.ThreadOf(t))
}

// clientAgentJSON is what an app shows of the agent: its name and appearance.
type clientAgentJSON struct {
	Object      string              `json:"object"`
	Name        string              `json:"name"`
	AvatarURL   string              `json:"avatar_url"`
	Greeting    map[string]string   `json:"greeting"`
	Suggestions map[string][]string `json:"suggestions"`
	Languages   []string            `json:"languages"`
}

func (s *Server) clientAgent(c *gin.Context) {
	p := client(c)
	prof, err := s.uc.Profiles.Get(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	a := apijson.AppearanceOf(prof.Appearance)
	c.JSON(http.StatusOK, clientAgentJSON{Object: "client_agent", Name: prof.DisplayName(), AvatarURL: a.AvatarURL,
		Greeting: a.Greeting, Suggestions: a.Suggestions, Languages: apijson.AgentOf(prof).Languages})
}
