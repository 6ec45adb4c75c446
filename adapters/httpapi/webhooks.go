package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/webhook"
)

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
	c.JSON(http.StatusOK, gin.H{"object": "list", "data": data, "has_more": false, "next_cursor": nil})
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

func (s *Server) deleteWebhook(c *gin.Context) {
	p, _ := principal(c)
	if err := s.uc.Webhooks.Delete(c.Request.Context(), p.Account.ID, c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"object": "webhook", "id": c.Param("id"), "deleted": true})
}

func (s *Server) testWebhook(c *gin.Context) {
	p, _ := principal(c)
	r, err := s.uc.Webhooks.Test(c.Request.Context(), p.Account.ID, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := gin.H{"object": "webhook_test", "event_id": r.EventID, "delivered": r.Attempt.OK(), "status_code": r.Attempt.StatusCode,
		"duration_ms": r.Attempt.Duration.Milliseconds()}
	if f := r.Attempt.Failure(); f != "" {
		out["error"] = f
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) listDeliveries(c *gin.Context) {
	p, _ := principal(c)
	attempts, err := s.uc.Webhooks.Deliveries(c.Request.Context(), p.Account.ID, c.Param("id"), 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]gin.H, 0, len(attempts))
	for _, a := range attempts {
		data = append(data, gin.H{"object": "webhook_delivery", "event_id": a.EventID, "type": a.EventType, "attempt": a.Number,
			"status_code": a.StatusCode, "delivered": a.OK(), "duration_ms": a.Duration.Milliseconds(), "error": a.Failure(), "created_at": stamp(a.At)})
	}
	c.JSON(http.StatusOK, gin.H{"object": "list", "data": data, "has_more": false, "next_cursor": nil})
}

func (s *Server) redeliver(c *gin.Context) {
	p, _ := principal(c)
	if err := s.uc.Webhooks.Redeliver(c.Request.Context(), p.Account.ID, c.Param("id"), c.Param("event_id")); err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusAccepted, gin.H{"object": "webhook_redelivery", "webhook_id": c.Param("id"), "event_id": c.Param("event_id"), "status": "queued"})
}

type conversionJSON struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	Kind           string   `json:"kind"`
	Amount         *float64 `json:"amount"`
	Currency       *string  `json:"currency"`
	Reference      *string  `json:"reference"`
	ConversationID *string  `json:"conversation_id"`
	CreatedAt      string   `json:"created_at"`
}

func conversionOf(cv conversion.Conversion) conversionJSON {
	out := conversionJSON{Object: "conversion", ID: cv.ID, Kind: cv.Kind, CreatedAt: stamp(cv.CreatedAt)}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	if cv.HasAmount {
		a := cv.Amount
		out.Amount = &a
	}
	out.Currency, out.Reference, out.ConversationID = opt(cv.Currency), opt(cv.Reference), opt(cv.ConversationID)
	return out
}

func (s *Server) createConversion(c *gin.Context) {
	p, _ := principal(c)
	var body conversionIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	if body.Kind == nil {
		s.fail(c, domain.Invalid("kind", "kind is required (sale, lead, signup or booking)"))
		return
	}
	cv := conversion.Conversion{Kind: *body.Kind, Currency: body.Currency, Reference: body.Reference, ConversationID: body.ConversationID}
	if body.Amount != nil {
		cv.Amount, cv.HasAmount = *body.Amount, true
	}
	stored, err := s.uc.Conversions.Record(c.Request.Context(), p.Account.ID, cv)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, conversionOf(stored))
}

func (s *Server) listConversions(c *gin.Context) {
	p, _ := principal(c)
	var from, to time.Time
	for _, q := range []struct {
		name string
		dst  *time.Time
	}{{"from", &from}, {"to", &to}} {
		raw := c.Query(q.name)
		if raw == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			if t, err = time.Parse("2006-01-02", raw); err != nil {
				s.fail(c, domain.Invalid(q.name, "%s must be a date (2026-11-01) or an RFC 3339 time", q.name))
				return
			}
		}
		*q.dst = t
	}
	if from.IsZero() != to.IsZero() {
		s.fail(c, domain.Invalid("from", "give both from and to, or neither (the current period)"))
		return
	}
	r, err := s.uc.Conversions.Report(c.Request.Context(), p.Account.ID, from, to)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]conversionJSON, 0, len(r.Conversions))
	for _, cv := range r.Conversions {
		data = append(data, conversionOf(cv))
	}
	totals := make([]gin.H, 0, len(r.Totals))
	for _, t := range r.Totals {
		tj := gin.H{"kind": t.Kind, "count": t.Count, "amount": t.Amount, "currency": nil}
		if t.Currency != "" {
			tj["currency"] = t.Currency
		}
		totals = append(totals, tj)
	}
	c.JSON(http.StatusOK, gin.H{"object": "list", "data": data, "has_more": false, "next_cursor": nil,
		"period": gin.H{"from": stamp(r.From), "to": stamp(r.To)}, "totals": totals})
}

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
