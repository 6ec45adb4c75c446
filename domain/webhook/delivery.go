package webhook

import (
	"slices"
	"time"
)

// MaxAttempts is how many times a delivery is tried in all: once and two retries (spec part 6).
const MaxAttempts = 3

// Timeout is how long a receiver has to answer one attempt with a 2xx status.
const Timeout = 10 * time.Second

// DeactivateAfter is how many consecutive failed deliveries turn a webhook off.
const DeactivateAfter = 20

// RetryDelay returns the wait after failed attempt number attempt (1-based) before the next one:
// 2 s after the first, 4 s after the second; 0 when no attempt follows.
func RetryDelay(attempt int) time.Duration {
	if attempt < 1 || attempt >= MaxAttempts {
		return 0
	}
	return 2 * time.Second << (attempt - 1)
}

// Record accounts for attempt a on w. Every attempt sets LastStatus and LastDeliveryAt; a
// delivered attempt resets Failures to 0; the final failed attempt of a delivery (final: no retry
// follows) adds 1 to Failures, and the one that reaches DeactivateAfter turns the webhook off and
// reports deactivated, once: an inactive webhook is never reported again.
func (w *Webhook) Record(a Attempt, final bool) (deactivated bool) {
	w.LastStatus = a.StatusCode
	w.LastDeliveryAt = a.At
	switch {
	case a.OK():
		w.Failures = 0
	case final:
		w.Failures++
		if w.Failures >= DeactivateAfter && w.Active {
			w.Active = false
			return true
		}
	}
	return false
}

// Wants reports whether w subscribed to events of eventType: listed in Events, or Events is
// ["*"]. It does not look at Active; and a webhook.test event goes to the webhook it tests,
// whatever it subscribed to.
func (w Webhook) Wants(eventType string) bool {
	return slices.Contains(w.Events, AllEvents) || slices.Contains(w.Events, eventType)
}
