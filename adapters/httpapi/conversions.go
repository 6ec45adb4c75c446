package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
)

// POST /v1/conversions, GET /v1/conversions

func (s *Server) createConversion(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.ConversionIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	cv, err := body.Conversion()
	if err != nil {
		s.fail(c, err)
		return
	}
	stored, err := s.uc.Conversions.Record(c.Request.Context(), p.Account.ID, cv)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, apijson.ConversionOf(stored))
}

func (s *Server) listConversions(c *gin.Context) {
	p, _ := principal(c)
	q, err := apijson.ConversionsQuery(c.GetQuery)
	if err != nil {
		s.fail(c, err)
		return
	}
	r, err := s.uc.Conversions.Report(c.Request.Context(), p.Account.ID, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.ConversionReportOf(r))
}
