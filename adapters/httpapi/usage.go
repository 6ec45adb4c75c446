package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
)

// GET /v1/usage: the usage statement of the model-compatible endpoints, by label.

func (s *Server) usageStatement(c *gin.Context) {
	p, _ := principal(c)
	from, to, err := apijson.StatementPeriod(c.GetQuery)
	if err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.uc.Compat.Statement(c.Request.Context(), p.Account, from, to)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.StatementOf(st))
}
