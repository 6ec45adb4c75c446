package ports

import (
	"context"

	"github.com/svcagent/svc/domain/ratelimit"
)

//go:generate go tool mockgen -source=ratelimit.go -destination=mock/ratelimit.go -package=mock

// RateLimiter counts one request of subject against limit (GCRA: bursts up to Count, then one
// every Period/Count).
type RateLimiter interface {
	Allow(ctx context.Context, subject string, limit ratelimit.Limit) (ratelimit.Result, error)
	// AllowAll counts one request against each check at once (one round trip to a shared
	// limiter), each as Allow would, and returns their results in the order of checks.
	AllowAll(ctx context.Context, checks []ratelimit.Check) ([]ratelimit.Result, error)
}
