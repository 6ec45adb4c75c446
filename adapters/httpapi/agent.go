package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
)

// GET /v1/agent, PATCH /v1/agent, PATCH /v1/agent/appearance

func (s *Server) getAgent(c *gin.Context) {
	p, _ := principal(c)
	prof, err := s.uc.Profiles.Get(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.AgentOf(prof))
}

func (s *Server) patchAgent(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.AgentPatch
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	prof, err := s.uc.Profiles.Update(c.Request.Context(), p.Account.ID, body.Patch())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.AgentOf(prof))
}

func (s *Server) patchAppearance(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.AppearancePatch
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	prof, err := s.uc.Profiles.UpdateAppearance(c.Request.Context(), p.Account.ID, body.Patch())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.AgentOf(prof))
}
