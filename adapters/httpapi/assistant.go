package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain/ratelimit"
)

// POST /v1/assistant

func (s *Server) postAssistant(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.AssistantIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	req := body.Request()
	if _, _, err := req.Validate(); err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.Plan, p.Account.ID, ratelimit.Assistant) {
		return
	}
	r, err := s.uc.Assistant.Handle(c.Request.Context(), assistantapp.Caller{Account: p.Account, SendWithoutApproval: p.SendWithoutApproval}, req)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.AssistantReplyOf(r))
}
