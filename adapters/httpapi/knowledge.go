package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain/ratelimit"
)

// GET /v1/knowledge, PUT /v1/knowledge/pages, POST /v1/knowledge/faq, POST /v1/knowledge/crawl

func (s *Server) getKnowledge(c *gin.Context) {
	p, _ := principal(c)
	o, err := s.uc.Brain.Overview(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.KnowledgeOf(o))
}

func (s *Server) putPages(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.PagesIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	in := body.Input()
	// The hourly allowance counts valid uploads only: a rejected one must not use it up.
	if err := in.Validate(); err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.Plan, p.Account.ID, ratelimit.PageUploads) {
		return
	}
	up, err := s.uc.Brain.ReplacePages(c.Request.Context(), p.Account.ID, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.UpdateOf(up))
}

func (s *Server) postFAQ(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.FAQIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	out, err := s.uc.Brain.UpsertFAQ(c.Request.Context(), p.Account.ID, body.Input())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.FAQUpdateOf(out))
}

func (s *Server) postCrawl(c *gin.Context) {
	p, _ := principal(c)
	var body apijson.CrawlIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	// The hourly allowance counts valid crawls only: a rejected one must not use it up.
	req, err := body.Request()
	if err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.Plan, p.Account.ID, ratelimit.Crawls) {
		return
	}
	out, err := s.uc.Brain.Crawl(c.Request.Context(), p.Account.ID, req)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.CrawlOf(body.URL, out))
}
