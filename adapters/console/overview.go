package console

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// overview is the console's home: the account, its plan and usage, the agent and its channels.
func (c *Console) overview(ctx *gin.Context) {
	acct, _ := signedIn(ctx)
	o, err := c.uc.Overviews.Get(ctx, acct)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	c.render(ctx, http.StatusOK, "overview", map[string]any{"Name": o.Account.Name, "Overview": o})
}
