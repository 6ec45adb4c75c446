package console

import (
	"io/fs"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain/push"
)

// Web Push on the notifications page: the owner subscribes a browser (static/push.js posts its
// PushSubscription), sees the browsers alerted and removes one; static/sw.js shows the alerts.

// The longest key fields a browser sends (base64url of 65 and 16 bytes, with room for padding).
const maxPushKey = 100

func (c *Console) pushRoutes(owner *gin.RouterGroup) {
	owner.POST("/notifications/push", c.subscribePush)
	owner.POST("/notifications/push/:id/remove", c.removePush)
}

// subscribePush keeps this browser's push subscription (fields endpoint, p256dh, auth, as
// PushSubscription.toJSON gives them) and goes back to the notifications page.
func (c *Console) subscribePush(ctx *gin.Context) {
	endpoint, err := text(ctx, "endpoint", push.MaxEndpoint, false)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	p256dh, err := text(ctx, "p256dh", maxPushKey, false)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	auth, err := text(ctx, "auth", maxPushKey, false)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	if _, err := c.uc.Notifications.Subscribe(ctx, c.acct(ctx).ID, endpoint, p256dh, auth); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/notifications")
}

// removePush stops alerting one of the account's browsers.
func (c *Console) removePush(ctx *gin.Context) {
	if err := c.uc.Notifications.Unsubscribe(ctx, c.acct(ctx).ID, ctx.Param("id")); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/notifications")
}

// serviceWorker serves static/sw.js at /app/sw.js, so that its scope may be the whole console
// (/app/) without a Service-Worker-Allowed header. It is read again on every visit (no-cache), as
// browsers check a service worker for updates.
func (c *Console) serviceWorker(ctx *gin.Context) {
	b, err := fs.ReadFile(staticFiles, "static/sw.js")
	if err != nil {
		c.fail(ctx, err)
		return
	}
	ctx.Header("Cache-Control", "no-cache")
	ctx.Data(http.StatusOK, "text/javascript; charset=utf-8", b)
}
