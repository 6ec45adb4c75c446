package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/webhook"
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

type webhookJSON struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Active         bool     `json:"active"`
	Secret         string   `json:"secret,omitempty"`
	Failures       int      `json:"failures"`
	LastStatus     *int     `json:"last_status"`
	LastDeliveryAt *string  `json:"last_delivery_at"`
	CreatedAt      string   `json:"created_at"`
}

func webhookOf(w webhook.Webhook) webhookJSON {
	out := webhookJSON{Object: "webhook", ID: w.ID, URL: w.URL, Events: w.Events, Active: w.Active, Failures: w.Failures, CreatedAt: stamp(w.CreatedAt)}
	if out.Events == nil {
		out.Events = []string{}
	}
	if !w.LastDeliveryAt.IsZero() {
		at, status := stamp(w.LastDeliveryAt), w.LastStatus
		out.LastDeliveryAt, out.LastStatus = &at, &status
	}
	return out
}

func (s *Server) listWebhooks(c *gin.Context) {
	p, _ := principal(c)
	hooks, err := s.uc.Webhooks.List(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]webhookJSON, 0, len(hooks))
	for _, w := range hooks {
		data = append(data, webhookOf(w))
	}
	c.JSON(http.StatusOK, listOf(data))
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
	out := webhookOf(created.Webhook)
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
	c.JSON(http.StatusOK, webhookOf(w))
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
	c.JSON(http.StatusOK, webhookOf(w))
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

// webhookTestJSON is what a test delivery got; error is there only when it failed.
type webhookTestJSON struct {
	Object     string `json:"object"`
	EventID    string `json:"event_id"`
	Delivered  bool   `json:"delivered"`
	StatusCode int    `json:"status_code"`
	DurationMS int64  `json:"duration_ms"`
	Error      string `json:"error,omitempty"`
}

func (s *Server) testWebhook(c *gin.Context) {
	p, _ := principal(c)
	r, err := s.uc.Webhooks.Test(c.Request.Context(), p.Account.ID, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, webhookTestJSON{Object: "webhook_test", EventID: r.EventID, Delivered: r.Attempt.OK(),
		StatusCode: r.Attempt.StatusCode, DurationMS: r.Attempt.Duration.Milliseconds(), Error: r.Attempt.Failure()})
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
			StatusCode: a.StatusCode, Delivered: a.OK(), DurationMS: a.Duration.Milliseconds(), Error: a.Failure(), CreatedAt: stamp(a.At)})
	}
	c.JSON(http.StatusOK, listOf(data))
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
