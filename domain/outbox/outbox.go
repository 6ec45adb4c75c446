// Package outbox holds the transactional outbox's message and the rules of its life:
// written with the change that causes it, claimed by a relay, handed to the queue, confirmed done.
// A message claimed but not confirmed within the lease is claimed again, so nothing is lost when a
// process dies; handlers are idempotent, keyed by the message id.
package outbox

import (
	"time"
)

// Topics name what a message asks the worker to do.
const (
	TopicEvent = "event"       // an account event (spec part 6) to fan out to webhooks
	TopicPing  = "system.ping" // a pipeline check: done as soon as a worker takes it
	// TopicDelivery is one event's delivery to one webhook.
	TopicDelivery = "webhook.delivery"
	// TopicMail is an e-mail to an account owner.
	TopicMail = "notify.mail"
	// TopicPush is a Web Push alert to one of an account owner's browsers.
	TopicPush = "notify.push"
	// TopicMessagingReply is an agent's reply to send to a contact on a messaging app.
	TopicMessagingReply = "messaging.reply"
)

// Lease is how long a claimed message may stay unconfirmed before it is claimed again: how late,
// at worst, a message is after the process that claimed it died. A message claimed again while
// the queue still holds it (waiting, running or between retries) is not run twice: both queues
// keep one task per message id.
const Lease = 30 * time.Second

// Message is a unit of work written to the outbox.
type Message struct {
	ID         string
	AccountID  string
	Topic      string
	Payload    []byte
	CreatedAt  time.Time
	EnqueuedAt time.Time // last claim by a relay; zero when never claimed
	DoneAt     time.Time // zero until a worker confirmed it
	Attempts   int       // claims so far
	Retry      int       // failed runs before this one in the queue (0 on the first); set by the queue
}

// Done reports whether a worker confirmed the message.
func (m Message) Done() bool { return !m.DoneAt.IsZero() }

// Claimable reports whether a relay may claim m at now: never claimed, or claimed longer ago than
// lease and still not done.
func (m Message) Claimable(now time.Time, lease time.Duration) bool {
	if m.Done() {
		return false
	}
	return m.EnqueuedAt.IsZero() || !m.EnqueuedAt.After(now.Add(-lease))
}
