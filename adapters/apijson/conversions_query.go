package apijson

import (
	"slices"
	"strings"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversion"
)

// The page of GET /v1/conversions, apart from ConversionsPeriod, which the console's period form
// shares (and translates): the console lists a period whole.

// ConversionsQuery reads the query of GET /v1/conversions from get: the period (from, to: both or
// neither, the current period), kind, and the page: limit (1 to 100, default 20) and cursor (the
// next_cursor of the page before).
func ConversionsQuery(get Params) (conversion.Query, error) {
	var q conversion.Query
	var err error
	if q.From, q.To, err = ConversionsPeriod(get); err != nil {
		return q, err
	}
	if kind, ok := get("kind"); ok {
		if !slices.Contains(conversion.Kinds, kind) {
			return q, domain.Invalid("kind", "kind must be one of %s", strings.Join(conversion.Kinds, ", "))
		}
		q.Kind = kind
	}
	q.Limit, q.After, err = listPage(get, conversion.DefaultLimit)
	return q, err
}
