// Package conversions records that a conversation turned into a sale, a lead, a signup or a
// booking, tags the conversation, tells the owner, and reports the totals.
package conversions

import (
	"context"
	"fmt"
	"time"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/ports"
)

// Notifier tells the owner.
type Notifier interface {
	Notify(ctx context.Context, accountID, kind, title, body string) error
}

// Service records and reports conversions.
type Service struct {
	tx            ports.Tx
	conversions   ports.Conversions
	conversations ports.Conversations
	notifier      Notifier
	clock         ports.Clock
}

// New returns a Service.
func New(tx ports.Tx, c ports.Conversions, conv ports.Conversations, n Notifier, clock ports.Clock) *Service {
	return &Service{tx: tx, conversions: c, conversations: conv, notifier: n, clock: clock}
}

// Record stores a conversion of the account; a conversation it names must be the account's (else
// 404), and is tagged with the kind.
func (s *Service) Record(ctx context.Context, accountID string, c conversion.Conversion) (conversion.Conversion, error) {
	if err := c.Validate(); err != nil {
		return conversion.Conversion{}, err
	}
	c.ID, c.AccountID, c.CreatedAt = ident.New("cv"), accountID, s.clock.Now().UTC()
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		if c.ConversationID != "" {
			if err := s.conversations.Tag(ctx, accountID, c.ConversationID, c.Kind, c.CreatedAt); err != nil {
				if domain.IsNotFound(err) {
					return domain.NotFound("conversation " + domain.Quote(c.ConversationID))
				}
				return err
			}
		}
		if err := s.conversions.Create(ctx, c); err != nil {
			return err
		}
		return s.notifier.Notify(ctx, accountID, notification.KindConversion, title(c), body(c))
	})
	if err != nil {
		return conversion.Conversion{}, err
	}
	return c, nil
}

func title(c conversion.Conversion) string {
	if c.HasAmount {
		return fmt.Sprintf("New %s: %.2f %s", c.Kind, c.Amount, c.Currency)
	}
	return "New " + c.Kind
}

func body(c conversion.Conversion) string {
	b := "A " + c.Kind + " was reported"
	if c.ConversationID != "" {
		b += " from conversation " + c.ConversationID
	}
	if c.Reference != "" {
		b += " (reference " + c.Reference + ")"
	}
	return b + "."
}

// Report is the owner report of a period: a page of its conversions (all of them when the query
// names no limit), whether more follow, and the totals of the whole period.
type Report struct {
	From, To    time.Time
	Conversions []conversion.Conversion
	HasMore     bool
	Totals      []conversion.Total
}

// Report lists the account's conversions in [q.From, q.To) (zero times: the current billing
// period), of q.Kind when given, newest first, a page of q.Limit after q.After, with the totals
// of the period (of that kind). The store reads the page (q.Limit+1 rows) and sums the totals,
// in one read-only snapshot (ports.Tx.InSnapshot), so that the totals count what the pages list;
// no limit (the console's period, listed whole) reads the period in pages of MaxLimit.
func (s *Service) Report(ctx context.Context, accountID string, q conversion.Query) (Report, error) {
	if err := q.Validate(); err != nil {
		return Report{}, err
	}
	if q.From.IsZero() && q.To.IsZero() {
		p := ledger.PeriodAt(s.clock.Now())
		q.From, q.To = p.Start, p.End
	}
	if !q.To.After(q.From) {
		return Report{}, domain.Invalid("to", "to must be after from")
	}
	whole := q.Limit == 0
	if whole {
		q.Limit = conversion.MaxLimit
	}
	// The page (or the pages of the whole period) and the totals are read in one snapshot: a
	// conversion recorded meanwhile is in both or in neither.
	var r Report
	err := s.tx.InSnapshot(ctx, func(ctx context.Context) error {
		var err error
		r, err = s.read(ctx, accountID, q, whole)
		return err
	})
	return r, err
}

// read reads the report's conversions and totals (Report's snapshot is ctx's transaction).
func (s *Service) read(ctx context.Context, accountID string, q conversion.Query, whole bool) (Report, error) {
	r := Report{From: q.From, To: q.To}
	for {
		page, err := s.conversions.List(ctx, accountID, q)
		if err != nil {
			return Report{}, err
		}
		r.Conversions = append(r.Conversions, page.Conversions...)
		r.HasMore = page.HasMore
		if !whole || !page.HasMore || len(page.Conversions) == 0 {
			break
		}
		last := page.Conversions[len(page.Conversions)-1]
		q.After = &conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	r.HasMore = r.HasMore && !whole
	totals, err := s.conversions.Totals(ctx, accountID, q.From, q.To, q.Kind)
	if err != nil {
		return Report{}, err
	}
	r.Totals = totals
	return r, nil
}
