package apijson

import (
	appwebhooks "github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/domain/webhook"
)

// Webhook is a webhook: the body of GET /v1/webhooks/{id}, an item of GET /v1/webhooks (the
// list_webhooks tool). Its secret is there only in the answer that created it.
type Webhook struct {
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

// WebhookOf is the webhook w, without its secret.
func WebhookOf(w webhook.Webhook) Webhook {
	out := Webhook{Object: "webhook", ID: w.ID, URL: w.URL, Events: w.Events, Active: w.Active, Failures: w.Failures, CreatedAt: Stamp(w.CreatedAt)}
	if out.Events == nil {
		out.Events = []string{}
	}
	if !w.LastDeliveryAt.IsZero() {
		at, status := Stamp(w.LastDeliveryAt), w.LastStatus
		out.LastDeliveryAt, out.LastStatus = &at, &status
	}
	return out
}

// WebhooksOf is the body of GET /v1/webhooks (the list_webhooks tool).
func WebhooksOf(hooks []webhook.Webhook) List[Webhook] {
	data := make([]Webhook, 0, len(hooks))
	for _, w := range hooks {
		data = append(data, WebhookOf(w))
	}
	return ListOf(data)
}

// WebhookTest is the body of POST /v1/webhooks/{id}/test (the test_webhook tool): what a test
// delivery got; error is there only when it failed.
type WebhookTest struct {
	Object     string `json:"object"`
	EventID    string `json:"event_id"`
	Delivered  bool   `json:"delivered"`
	StatusCode int    `json:"status_code"`
	DurationMS int64  `json:"duration_ms"`
	Error      string `json:"error,omitempty"`
}

// WebhookTestOf is the test delivery r.
func WebhookTestOf(r appwebhooks.TestResult) WebhookTest {
	return WebhookTest{Object: "webhook_test", EventID: r.EventID, Delivered: r.Attempt.OK(),
		StatusCode: r.Attempt.StatusCode, DurationMS: r.Attempt.Duration.Milliseconds(), Error: r.Attempt.Failure()}
}
