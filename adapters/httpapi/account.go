package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
)

// GET /v1/account

// account answers GET /v1/account. It is the one key call a plan without web channels may make.
func (s *Server) account(c *gin.Context) {
	p, _ := principal(c)
	o, err := s.uc.Overviews.For(c.Request.Context(), p)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.AccountOf(o))
}
