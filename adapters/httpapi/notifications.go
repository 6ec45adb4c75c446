package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
)

// GET /v1/notifications

type notificationJSON struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"`
}

func (s *Server) listNotifications(c *gin.Context) {
	p, _ := principal(c)
	notes, err := s.uc.Notifications.List(c.Request.Context(), p.Account.ID, 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]notificationJSON, 0, len(notes))
	for _, n := range notes {
		data = append(data, notificationJSON{Object: "notification", ID: n.ID, Kind: n.Kind, Title: n.Title, Body: n.Body, CreatedAt: apijson.Stamp(n.CreatedAt)})
	}
	c.JSON(http.StatusOK, apijson.ListOf(data))
}
