package outage

import (
	"time"

	"github.com/svcagent/svc/domain"
)

// Retry calls try after each of pauses while it fails with service_unavailable (the database,
// or another service, away for a moment), and returns its last error: nil or any other error
// ends it at once.
func Retry(pauses []time.Duration, try func() error) error {
	var err error
	for _, pause := range pauses {
		time.Sleep(pause)
		if err = try(); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
			return err
		}
	}
	return err
}
