package ports

import (
	"context"

	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/webhook"
)

//go:generate go tool mockgen -source=webhook.go -destination=mock/webhook.go -package=mock

// WebhookSender makes one HTTP attempt of a delivery: a POST with the body and headers, no
// redirects followed, the receiver's timeout, and the SSRF guard at dial time. It fills the
// attempt's status, duration and error; it returns no error of its own.
type WebhookSender interface {
	Send(ctx context.Context, req webhook.Request) webhook.Attempt
}

// Mailer sends e-mail to account owners.
type Mailer interface {
	Send(ctx context.Context, m notification.Mail) error
}

// Vault seals secrets that must be read back by the service (webhook signing secrets) so that the
// store never holds them in the clear.
type Vault interface {
	Seal(plaintext string) ([]byte, error)
	Open(sealed []byte) (string, error)
}
