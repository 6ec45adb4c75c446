package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
)

// GET /cms/connect ({auth_url}/cms/connect, spec 4.9): a site's plugin sends the owner's browser
// here with site, return, state, lang and woo. A request whose return address is not an admin
// page of the site's own host (or is otherwise wrong) gets an error page (UseCases.Connect: the
// console's, in the plugin's or the browser's language) and no redirect, so that this address can
// never send a browser elsewhere; a good one is kept for 30 minutes and the
// browser goes on to the console's approval page, in the plugin's language, where the owner signs
// in if needed and approves the connection of the named site (ConnectPath).

// ConnectPath is the console's approval page of a connection request: ConnectPath + "/" + id.
const ConnectPath = "/app/connect"

func (s *Server) cmsConnect(c *gin.Context) {
	p, err := s.uc.Plugins.Begin(c.Request.Context(), c.Query("site"), c.Query("return"), c.Query("state"),
		c.Query("lang"), c.Query("woo"))
	if err != nil {
		if domain.ErrorCode(err) != domain.CodeInvalidRequest {
			s.fail(c, err)
			return
		}
		e, ok := domain.AsError(err)
		if !ok || s.uc.Connect == nil {
			s.fail(c, err)
			return
		}
		s.uc.Connect.ConnectRefused(c, e) // an HTML page in the visitor's language
		return
	}
	c.Header("Cache-Control", "no-store")
	to := ConnectPath + "/" + p.ID
	if l, _, _ := strings.Cut(p.Request.Lang, "-"); l != "" {
		to += "?lang=" + url.QueryEscape(l) // the console speaks the plugin's language (pt-BR: pt)
	}
	c.Redirect(http.StatusSeeOther, to)
}
