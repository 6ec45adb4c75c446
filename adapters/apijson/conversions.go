package apijson

import (
	"time"

	appconversions "github.com/svcagent/svc/app/conversions"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/conversion"
)

// ConversionIn is the body of POST /v1/conversions (the report_conversion tool's arguments).
type ConversionIn struct {
	Kind           *string  `json:"kind,omitempty" jsonschema:"sale, lead, signup or booking"`
	Amount         *float64 `json:"amount,omitempty" jsonschema:"the value, e.g. of a sale"`
	Currency       string   `json:"currency,omitempty" jsonschema:"ISO 4217 code of the amount, e.g. USD"`
	Reference      string   `json:"reference,omitempty" jsonschema:"your own reference, e.g. an order number"`
	ConversationID string   `json:"conversation_id,omitempty" jsonschema:"the conversation that led to it"`
}

// Conversion is the conversion b reports.
func (b ConversionIn) Conversion() (conversion.Conversion, error) {
	if b.Kind == nil {
		return conversion.Conversion{}, domain.Invalid("kind", "kind is required (sale, lead, signup or booking)")
	}
	cv := conversion.Conversion{Kind: *b.Kind, Currency: b.Currency, Reference: b.Reference, ConversationID: b.ConversationID}
	if b.Amount != nil {
		cv.Amount, cv.HasAmount = *b.Amount, true
	}
	return cv, nil
}

// Conversion is the body of POST /v1/conversions (the report_conversion tool).
type Conversion struct {
	Object         string   `json:"object"`
	ID             string   `json:"id"`
	Kind           string   `json:"kind"`
	Amount         *float64 `json:"amount"`
	Currency       *string  `json:"currency"`
	Reference      *string  `json:"reference"`
	ConversationID *string  `json:"conversation_id"`
	CreatedAt      string   `json:"created_at"`
}

// ConversionOf is the conversion cv.
func ConversionOf(cv conversion.Conversion) Conversion {
	out := Conversion{Object: "conversion", ID: cv.ID, Kind: cv.Kind, CreatedAt: Stamp(cv.CreatedAt)}
	if cv.HasAmount {
		a := cv.Amount
		out.Amount = &a
	}
	out.Currency, out.Reference, out.ConversationID = Label(cv.Currency), Label(cv.Reference), Label(cv.ConversationID)
	return out
}

// ConversionReport is the body of GET /v1/conversions (the list_conversions tool): the
// conversions of a period with their totals by kind and currency.
type ConversionReport struct {
	List[Conversion]
	Period Period            `json:"period"`
	Totals []ConversionTotal `json:"totals"`
}

// ConversionTotal is the count and sum of a kind of conversion in a currency.
type ConversionTotal struct {
	Kind     string  `json:"kind"`
	Count    int     `json:"count"`
	Amount   float64 `json:"amount"`
	Currency *string `json:"currency"`
}

// ConversionReportOf is the report r.
func ConversionReportOf(r appconversions.Report) ConversionReport {
	data := make([]Conversion, 0, len(r.Conversions))
	for _, cv := range r.Conversions {
		data = append(data, ConversionOf(cv))
	}
	totals := make([]ConversionTotal, 0, len(r.Totals))
	for _, t := range r.Totals {
		totals = append(totals, ConversionTotal{Kind: t.Kind, Count: t.Count, Amount: t.Amount, Currency: Label(t.Currency)})
	}
	list := ListOf(data)
	if r.HasMore && len(r.Conversions) > 0 {
		last := r.Conversions[len(r.Conversions)-1]
		cur := encodeCursor(conversation.Cursor{CreatedAt: last.CreatedAt, ID: last.ID})
		list.HasMore, list.NextCursor = true, &cur
	}
	return ConversionReport{List: list, Period: Period{From: Stamp(r.From), To: Stamp(r.To)}, Totals: totals}
}

// ConversionsPeriod reads the query of GET /v1/conversions (from, to) from get: both or neither.
func ConversionsPeriod(get Params) (from, to time.Time, err error) {
	for _, q := range []struct {
		name string
		dst  *time.Time
	}{{"from", &from}, {"to", &to}} {
		raw, _ := get(q.name)
		if raw == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			if t, err = time.Parse(time.DateOnly, raw); err != nil {
				return from, to, domain.Invalid(q.name, "%s must be a date (2026-11-01) or an RFC 3339 time", q.name)
			}
		}
		if err := queryTimeInRange(q.name, t); err != nil {
			return from, to, err
		}
		*q.dst = t
	}
	if from.IsZero() != to.IsZero() {
		return from, to, domain.Invalid("from", "give both from and to, or neither (the current period)")
	}
	return from, to, nil
}

// The times a caller may give in a query or a cursor. Go reads years 0000 to 9999 and offsets of
// up to a day, but the zero time (0001-01-01T00:00:00Z) stands for "not given", Postgres refuses
// year 0 and the years before it, and no record of the service is older than the Unix epoch.
var (
	minQueryTime = time.Unix(0, 0).UTC()
	maxQueryTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// queryTimeInRange refuses a time of parameter name outside minQueryTime..maxQueryTime.
func queryTimeInRange(name string, t time.Time) error {
	if t.Before(minQueryTime) || t.After(maxQueryTime) {
		return domain.Invalid(name, "%s must be between 1970-01-01 and 9999-12-31", name)
	}
	return nil
}
