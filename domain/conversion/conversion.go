// Package conversion holds conversions: a conversation that turned into a sale, a lead, a signup
// or a booking (spec part 2.9), and the totals the owner report shows.
package conversion

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
)

// Kinds of conversion.
const (
	KindSale    = "sale"
	KindLead    = "lead"
	KindSignup  = "signup"
	KindBooking = "booking"
)

// Kinds lists the kinds in the specification's order.
var Kinds = []string{KindSale, KindLead, KindSignup, KindBooking}

// Conversion is one reported conversion. Amount is in the currency's units (e.g. 12.50 EUR);
// HasAmount says whether one was given.
type Conversion struct {
	ID             string
	AccountID      string
	Kind           string
	Amount         float64
	HasAmount      bool
	Currency       string
	Reference      string
	ConversationID string
	CreatedAt      time.Time
}

// MaxReference bounds the caller's reference; MaxAmount the amount.
const (
	MaxReference = 200
	MaxAmount    = 1e12
)

// Validate checks a conversion before it is stored, naming the field at fault (a conversation_id
// is checked as the conversations' keys are: no id of over 200 characters is ever looked up), and
// puts the currency in upper case.
func (c *Conversion) Validate() error {
	if !slices.Contains(Kinds, c.Kind) {
		return domain.Invalid("kind", "kind must be one of %s", strings.Join(Kinds, ", "))
	}
	if c.HasAmount {
		if math.IsNaN(c.Amount) || math.IsInf(c.Amount, 0) || c.Amount < 0 {
			return domain.Invalid("amount", "amount must be a number of at least 0")
		}
		if c.Amount > MaxAmount {
			return domain.Invalid("amount", "amount is too large")
		}
		if c.Currency == "" {
			return domain.Invalid("currency", "currency is required with amount (an ISO 4217 code such as EUR)")
		}
	}
	if c.Currency != "" {
		code := strings.ToUpper(strings.TrimSpace(c.Currency))
		if !IsCurrency(code) {
			return domain.Invalid("currency", "%s is not an ISO 4217 currency code", domain.Quote(c.Currency))
		}
		c.Currency = code
	}
	if utf8.RuneCountInString(c.Reference) > MaxReference {
		return domain.Invalid("reference", "reference must be at most %d characters", MaxReference)
	}
	if c.ConversationID != "" {
		// the key a conversation was made with: POST /v1/chat and /v1/sessions check it so
		return conversation.ValidateID("conversation_id", c.ConversationID)
	}
	return nil
}

// Total is the sum of one kind's conversions in one currency ("" for those without an amount).
type Total struct {
	Kind     string
	Currency string
	Count    int
	Amount   float64
}

// Totals groups conversions by kind and currency, in the order of Kinds then currency.
func Totals(cs []Conversion) []Total {
	type key struct{ kind, currency string }
	sums := map[key]*Total{}
	for _, c := range cs {
		k := key{c.Kind, c.Currency}
		t, ok := sums[k]
		if !ok {
			t = &Total{Kind: c.Kind, Currency: c.Currency}
			sums[k] = t
		}
		t.Count++
		t.Amount += c.Amount
	}
	out := make([]Total, 0, len(sums))
	for _, t := range sums {
		out = append(out, *t)
	}
	return SortTotals(out)
}

// SortTotals rounds the amounts of ts to the cent and orders them as Totals does (Kinds' order,
// then currency); a store that sums them itself gives its sums so.
func SortTotals(ts []Total) []Total {
	for i := range ts {
		ts[i].Amount = math.Round(ts[i].Amount*100) / 100
	}
	slices.SortFunc(ts, func(a, b Total) int {
		if d := slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind); d != 0 {
			return d
		}
		return strings.Compare(a.Currency, b.Currency)
	})
	return ts
}

// IsCurrency reports whether code is an active ISO 4217 currency code.
func IsCurrency(code string) bool {
	_, ok := currencies[code]
	return ok
}

// currencies are the active ISO 4217 codes.
var currencies = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, c := range strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD
		BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP
		GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
		LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK
		PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND
		TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG`) {
		m[c] = struct{}{}
	}
	return m
}()

// How many conversions a page of a report lists: DefaultLimit when the caller names no limit,
// at most MaxLimit (as the conversations' list).
const (
	DefaultLimit = conversation.DefaultLimit
	MaxLimit     = conversation.MaxListLimit
)

// Query selects the conversions of a report: those created in [From, To) (zero times: the
// current period, for the report; a store is always given both), of Kind when it is given, a page
// of at most Limit (0: all of them, for the report; a store is always given a limit) after the
// cursor After (the last of the page before, in the list's order, newest first).
type Query struct {
	From, To time.Time
	Kind     string
	Limit    int
	After    *conversation.Cursor
}

// Validate checks the query's kind and limit, naming the parameter at fault.
func (q Query) Validate() error {
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return domain.Invalid("kind", "kind must be one of %s", strings.Join(Kinds, ", "))
	}
	if q.Limit < 0 || q.Limit > MaxLimit {
		return domain.Invalid("limit", "limit must be between 1 and %d", MaxLimit)
	}
	return nil
}

// Page is one page of a report's conversions, newest first, and whether more follow.
type Page struct {
	Conversions []Conversion
	HasMore     bool
}
