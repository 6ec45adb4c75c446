package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
)

// GET and POST /v1/webhooks, GET, PATCH and DELETE /v1/webhooks/{id}, POST /v1/webhooks/{id}/test,
// GET /v1/webhooks/{id}/deliveries, POST /v1/webhooks/{id}/deliveries/{event_id}/redeliver

// webhookIn is the body of POST /v1/webhooks.
type webhookIn struct {
	URL    *string  `json:"url"`
	Events []string `json:"events"`
}

// webhookPatchIn is the body of PATCH /v1/webhooks/{id}.
type webhookPatchIn struct {
	URL    *string   `json:"url"`
	Events *[]string `json:"events"`
	Active *bool     `json:"active"`
}

func (s *Server) listWebhooks(c *gin.Context) {
	p, _ := principal(c)
	hooks, err := s.uc.Webhooks.List(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.WebhooksOf(hooks))
}

func (s *Server) createWebhook(c *gin.Context) {
	p, _ := principal(c)
	var body webhookIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	if body.URL == nil {
		s.fail(c, domain.Invalid("url", "url is required"))
		return
	}
	created, err := s.uc.Webhooks.Create(c.Request.Context(), p.Account.ID, *body.URL, body.Events)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := apijson.WebhookOf(created.Webhook)
	out.Secret = created.Secret
	c.JSON(http.StatusCreated, out)
}

func (s *Server) getWebhook(c *gin.Context) {
	p, _ := principal(c)
	w, err := s.uc.Webhooks.Get(c.Request.Context(), p.Account.ID, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.WebhookOf(w))
}

func (s *Server) patchWebhook(c *gin.Context) {
	p, _ := principal(c)
	var body webhookPatchIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	w, err := s.uc.Webhooks.Update(c.Request.Context(), p.Account.ID, c.Param("id"), webhooks.Patch{URL: body.URL, Events: body.Events, Active: body.Active})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.WebhookOf(w))
}

type deletedJSON struct {
	Object  string `json:"object"`
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

func (s *Server) deleteWebhook(c *gin.Context) {
	p, _ := principal(c)
	if err := s.uc.Webhooks.Delete(c.Request.Context(), p.Account.ID, c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, deletedJSON{Object: "webhook", ID: c.Param("id"), Deleted: true})
}

func (s *Server) testWebhook(c *gin.Context) {
	p, _ := principal(c)
	r, err := s.uc.Webhooks.Test(c.Request.Context(), p.Account.ID, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, apijson.WebhookTestOf(r))
}

// deliveryJSON is one delivery attempt; error is empty when it was delivered.
type deliveryJSON struct {
	Object     string `json:"object"`
	EventID    string `json:"event_id"`
	Type       string `json:"type"`
	Attempt    int    `json:"attempt"`
	StatusCode int    `json:"status_code"`
	Delivered  bool   `json:"delivered"`
	DurationMS int64  `json:"duration_ms"`
	Error      string `json:"error"`
	CreatedAt  string `json:"created_at"`
}

func (s *Server) listDeliveries(c *gin.Context) {
	p, _ := principal(c)
	attempts, err := s.uc.Webhooks.Deliveries(c.Request.Context(), p.Account.ID, c.Param("id"), 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]deliveryJSON, 0, len(attempts))
	for _, a := range attempts {
		data = append(data, deliveryJSON{Object: "webhook_delivery", EventID: a.EventID, Type: a.EventType, Attempt: a.Number,
			StatusCode: a.StatusCode, Delivered: a.OK(), DurationMS: a.Duration.Milliseconds(), Error: a.Failure(), CreatedAt: apijson.Stamp(a.At)})
	}
	c.JSON(http.StatusOK, apijson.ListOf(data))
}

type redeliveryJSON struct {
	Object    string `json:"object"`
	WebhookID string `json:"webhook_id"`
	EventID   string `json:"event_id"`
	Status    string `json:"status"`
}

func (s *Server) redeliver(c *gin.Context) {
	p, _ := principal(c)
	if err := s.uc.Webhooks.Redeliver(c.Request.Context(), p.Account.ID, c.Param("id"), c.Param("event_id")); err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, redeliveryJSON{Object: "webhook_redelivery", WebhookID: c.Param("id"), EventID: c.Param("event_id"), Status: "queued"})
}
