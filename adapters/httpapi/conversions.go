package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversion"
)

// POST /v1/conversions, GET /v1/conversions

// conversionIn is the body of POST /v1/conversions.
type conversionIn struct {
	Kind           *string  `json:"kind"`
	Amount         *float64 `json:"amount"`
	Currency       string   `json:"currency"`
	Reference      string   `json:"reference"`
	ConversationID string   `json:"conversation_id"`
}

type conversionJSON struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	Kind           string   `json:"kind"`
	Amount         *float64 `json:"amount"`
	Currency       *string  `json:"currency"`
	Reference      *string  `json:"reference"`
	ConversationID *string  `json:"conversation_id"`
	CreatedAt      string   `json:"created_at"`
}

func conversionOf(cv conversion.Conversion) conversionJSON {
	out := conversionJSON{Object: "conversion", ID: cv.ID, Kind: cv.Kind, CreatedAt: stamp(cv.CreatedAt)}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	if cv.HasAmount {
		a := cv.Amount
		out.Amount = &a
	}
	out.Currency, out.Reference, out.ConversationID = opt(cv.Currency), opt(cv.Reference), opt(cv.ConversationID)
	return out
}

// conversionReportJSON is the conversions of a period with their totals by kind and currency.
type conversionReportJSON struct {
	listJSON[conversionJSON]
	Period periodJSON            `json:"period"`
	Totals []conversionTotalJSON `json:"totals"`
}

type conversionTotalJSON struct {
	Kind     string  `json:"kind"`
	Count    int     `json:"count"`
	Amount   float64 `json:"amount"`
	Currency *string `json:"currency"`
}

func (s *Server) createConversion(c *gin.Context) {
	p, _ := principal(c)
	var body conversionIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	if body.Kind == nil {
		s.fail(c, domain.Invalid("kind", "kind is required (sale, lead, signup or booking)"))
		return
	}
	cv := conversion.Conversion{Kind: *body.Kind, Currency: body.Currency, Reference: body.Reference, ConversationID: body.ConversationID}
	if body.Amount != nil {
		cv.Amount, cv.HasAmount = *body.Amount, true
	}
	stored, err := s.uc.Conversions.Record(c.Request.Context(), p.Account.ID, cv)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, conversionOf(stored))
}

func (s *Server) listConversions(c *gin.Context) {
	p, _ := principal(c)
	var from, to time.Time
	for _, q := range []struct {
		name string
		dst  *time.Time
	}{{"from", &from}, {"to", &to}} {
		raw := c.Query(q.name)
		if raw == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			if t, err = time.Parse("2006-01-02", raw); err != nil {
				s.fail(c, domain.Invalid(q.name, "%s must be a date (2026-11-01) or an RFC 3339 time", q.name))
				return
			}
		}
		*q.dst = t
	}
	if from.IsZero() != to.IsZero() {
		s.fail(c, domain.Invalid("from", "give both from and to, or neither (the current period)"))
		return
	}
	r, err := s.uc.Conversions.Report(c.Request.Context(), p.Account.ID, from, to)
	if err != nil {
		s.fail(c, err)
		return
	}
	data := make([]conversionJSON, 0, len(r.Conversions))
	for _, cv := range r.Conversions {
		data = append(data, conversionOf(cv))
	}
	totals := make([]conversionTotalJSON, 0, len(r.Totals))
	for _, t := range r.Totals {
		tj := conversionTotalJSON{Kind: t.Kind, Count: t.Count, Amount: t.Amount}
		if t.Currency != "" {
			currency := t.Currency
			tj.Currency = &currency
		}
		totals = append(totals, tj)
	}
	c.JSON(http.StatusOK, conversionReportJSON{listJSON: listOf(data),
		Period: periodJSON{From: stamp(r.From), To: stamp(r.To)}, Totals: totals})
}
