// Package notification holds the owner's notifications: what happened that the owner should know of
// (a conversion, a webhook turned off, the interaction limit reached).
package notification

import "time"

// Kinds of notification.
const (
	KindConversion         = "conversion"
	KindWebhookDeactivated = "webhook.deactivated"
	KindLimitReached       = "limit.reached"
	KindDeveloperBonus     = "developer_bonus.active"
)

// Notification is one message to the account owner.
type Notification struct {
	ID        string
	AccountID string
	Kind      string
	Title     string
	Body      string
	CreatedAt time.Time
	ReadAt    time.Time
}

// Mail is an e-mail to send.
type Mail struct {
	To      string
	Subject string
	Text    string
}
