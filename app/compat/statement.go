package compat

import (
	"context"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
)

// Statement is what an account spent in a stretch of time, by action and labels.
type Statement struct {
	From, To time.Time
	Lines    []ledger.Line
	Total    int
}

// Statement lists the account's charges in [from, to) grouped by action and labels. A zero to
// is the end of the current billing period; a zero from is the start of the period holding to.
func (s *Service) Statement(ctx context.Context, acct account.Account, from, to time.Time) (Statement, error) {
	if to.IsZero() {
		to = ledger.PeriodAt(s.d.Clock.Now()).End
	}
	if from.IsZero() {
		from = ledger.PeriodAt(to.Add(-time.Nanosecond)).Start
	}
	from, to = from.UTC(), to.UTC()
	if !from.Before(to) {
		return Statement{}, domain.Invalid("from", "from must be before to")
	}
	lines, err := s.d.Usage.Statement(ctx, acct.ID, from, to)
	if err != nil {
		return Statement{}, err
	}
	st := Statement{From: from, To: to, Lines: lines}
	for _, l := range lines {
		st.Total += l.Interactions
	}
	return st, nil
}
