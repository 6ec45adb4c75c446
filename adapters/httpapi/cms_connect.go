package httpapi

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
)

// GET /cms/connect ({auth_url}/cms/connect, spec 4.9): a site's plugin sends the owner's browser
// here with site, return, state, lang and woo. A request whose return address is not an admin
// page of the site's own host (or is otherwise wrong) gets an error page and no redirect, so that
// this address can never send a browser elsewhere; a good one is kept for 30 minutes and the
// browser goes on to the console's approval page, in the plugin's language, where the owner signs
// in if needed and approves the connection of the named site (ConnectPath).

// ConnectPath is the console's approval page of a connection request: ConnectPath + "/" + id.
const ConnectPath = "/app/connect"

var connectErrorPage = template.Must(template.New("connect-error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The site cannot be connected</title></head>
<body><main><h1>The site cannot be connected</h1><p>{{.}}</p>
<p>Start again from your site's plugin settings.</p></main></body></html>
`))

func (s *Server) cmsConnect(c *gin.Context) {
	p, err := s.uc.Plugins.Begin(c.Request.Context(), c.Query("site"), c.Query("return"), c.Query("state"),
		c.Query("lang"), c.Query("woo"))
	if err != nil {
		if domain.ErrorCode(err) != domain.CodeInvalidRequest {
			s.fail(c, err)
			return
		}
		msg := err.Error()
		if e, ok := domain.AsError(err); ok {
			msg = e.Message
		}
		h := c.Writer.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'")
		h.Set("Cache-Control", "no-store")
		c.Status(http.StatusBadRequest)
		_ = connectErrorPage.Execute(c.Writer, msg)
		return
	}
	c.Header("Cache-Control", "no-store")
	to := ConnectPath + "/" + p.ID
	if l, _, _ := strings.Cut(p.Request.Lang, "-"); l != "" {
		to += "?lang=" + url.QueryEscape(l) // the console speaks the plugin's language (pt-BR: pt)
	}
	c.Redirect(http.StatusSeeOther, to)
}
