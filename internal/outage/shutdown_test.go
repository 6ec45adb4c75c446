package outage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/outage"
)

// TestCut: a request cancelled by the shutdown answers service_unavailable for an error without a
// code of its own (or internal); its own codes stand, and a request cancelled otherwise (the
// caller left) keeps its error.
func TestCut(t *testing.T) {
	stopped, stop := context.WithCancelCause(context.Background())
	stop(outage.ShuttingDown)
	left, leave := context.WithCancel(context.Background())
	leave()
	limit := &domain.Error{Code: domain.CodeRateLimited, Message: "slow down"}
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want error
	}{
		{"canceled by the shutdown", stopped, context.Canceled, outage.ShuttingDown},
		{"internal, by the shutdown", stopped, errors.New("sql: database is closed"), outage.ShuttingDown},
		{"coded, by the shutdown", stopped, limit, limit},
		{"no error", stopped, nil, nil},
		{"caller left", left, context.Canceled, context.Canceled},
		{"running", context.Background(), context.Canceled, context.Canceled},
	} {
		if got := outage.Cut(c.ctx, c.err); got != c.want { //nolint:errorlint // the very error is wanted
			t.Errorf("%s: Cut = %v, want %v", c.name, got, c.want)
		}
	}
	if !outage.Stopping(stopped) || outage.Stopping(left) {
		t.Error("Stopping: wrong")
	}
}
