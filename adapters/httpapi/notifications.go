package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// GET /v1/notifications

func (s *Server) listNotifications(c *gin.Context) {
	p, _ := principal(c)
	notes, err := s.uc.Notices.List(c.Request.Context(), p.Account.ID, 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]gin.H, 0, len(notes))
	for _, n := range notes {
		data = append(data, gin.H{"object": "notification", "id": n.ID, "kind": n.Kind, "title": n.Title, "body": n.Body, "created_at": stamp(n.CreatedAt)})
	}
	c.JSON(http.StatusOK, gin.H{"object": "list", "data": data, "has_more": false, "next_cursor": nil})
}
