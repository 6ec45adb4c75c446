package console

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/plugin"
)

// The site plugin's pages: the refusal of a connection request GET /cms/connect cannot accept,
// the approval of one it accepts (it sends the owner to /app/connect/{id}), and the connected
// sites (/app/connections) with their last sync and a disconnect button that revokes the site's
// plugin token.

// pluginRoutes adds the plugin's pages to the signed-in owner's group.
func (c *Console) pluginRoutes(owner *gin.RouterGroup) {
	owner.GET("/connect/:id", c.connectPage)
	owner.POST("/connect/:id", c.approveConnect)
	owner.GET("/connections", c.connectionsPage)
	owner.POST("/connections/:id/disconnect", c.disconnect)
}

// connectFields are the fields of a connection request (spec 4.9) whose refusal has its own words.
var connectFields = []string{"site", "return", "state", "lang", "woo"}

// ConnectRefused answers GET /cms/connect (httpapi serves the route) for a request refused for
// err, the domain's invalid_request naming the field: 400 and a page without any link or
// redirect the request gave, saying why in the language of its lang (the plugin's; pt-BR is pt)
// or else the browser's (Accept-Language), with the field named as the spec names it.
func (c *Console) ConnectRefused(ctx *gin.Context, err *domain.Error) {
	reason := "connect.refused.other"
	if slices.Contains(connectFields, err.Field) {
		reason = "connect.refused." + err.Field
	}
	c.setHeaders(ctx)
	c.renderIn(ctx, langOf(ctx.Query("lang"), ctx.GetHeader("Accept-Language")), http.StatusBadRequest, "connect_refused",
		map[string]any{"Reason": reason, "Field": err.Field})
}

func (c *Console) connectPage(ctx *gin.Context) {
	p, err := c.uc.Plugins.Request(ctx, ctx.Param("id"))
	if err != nil {
		c.fail(ctx, err)
		return
	}
	// The approval's answer redirects the form's submission to the plugin's admin page: the
	// policy's form-action must allow that origin too.
	if o := originOf(p.Request.Return); o != "" {
		h := ctx.Writer.Header()
		h.Set("Content-Security-Policy", strings.Replace(h.Get("Content-Security-Policy"), "form-action 'self'", "form-action 'self' "+o, 1))
	}
	c.render(ctx, http.StatusOK, "connect", map[string]any{"ID": p.ID, "Site": p.Request.Site, "Host": p.Request.Host(),
		"Store": p.Request.Woo})
}

func (c *Console) approveConnect(ctx *gin.Context) {
	id, _ := c.AccountID(ctx)
	back, err := c.uc.Plugins.Approve(ctx, id, ctx.Param("id"))
	if err != nil {
		c.fail(ctx, err)
		return
	}
	ctx.Redirect(http.StatusSeeOther, back)
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// connectionView is one connected site as the page shows it.
type connectionView struct {
	plugin.Connection
	Synced bool
}

func (c *Console) connectionsPage(ctx *gin.Context) {
	id, _ := c.AccountID(ctx)
	list, err := c.uc.Plugins.Connections(ctx, id)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	views := make([]connectionView, len(list))
	for i, conn := range list {
		views[i] = connectionView{Connection: conn, Synced: !conn.LastSyncAt.IsZero()}
	}
	c.render(ctx, http.StatusOK, "connections", map[string]any{"Connections": views})
}

func (c *Console) disconnect(ctx *gin.Context) {
	id, _ := c.AccountID(ctx)
	if err := c.uc.Plugins.Disconnect(ctx, id, ctx.Param("id")); err != nil {
		c.fail(ctx, err)
		return
	}
	ctx.Redirect(http.StatusSeeOther, Prefix+"/connections")
}
