package outage

import (
	"context"
	"errors"
	"time"

	"github.com/svcagent/svc/domain"
)

// ShuttingDown is the cause with which a program cancels the requests still running when its
// drain at shutdown runs out (context.WithCancelCause): they end as a dependency that is away
// does, 503 service_unavailable with Retry-After (another instance, or this one restarted,
// answers a retry), never as a 500 internal error.
var ShuttingDown = &domain.Error{Code: domain.CodeServiceUnavailable,
	Message: "the service is restarting; try again shortly", RetryAfter: time.Second}

// Cut returns ShuttingDown when ctx was cancelled by it (see ShuttingDown) and err carries no
// code of its own, or only internal (a canceled context, a query cut short), and err otherwise:
// what a request cut short by the shutdown answers.
func Cut(ctx context.Context, err error) error {
	if err == nil || !errors.Is(context.Cause(ctx), ShuttingDown) {
		return err
	}
	if code := domain.ErrorCode(err); code != "" && code != domain.CodeInternal {
		return err
	}
	return ShuttingDown
}

// Stopping reports whether ctx was cancelled by ShuttingDown.
func Stopping(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ShuttingDown) }
