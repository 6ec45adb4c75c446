package apijson

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/svcagent/svc/domain"
)

// TestPeriodTimes: a time of a period's query (GET /v1/usage, GET /v1/conversions) outside
// 1970-01-01..9999-12-31 is refused naming the parameter, rather than read as "not given" (the
// zero time, 0001-01-01T00:00:00Z) or sent to Postgres, which refuses year 0 and earlier (500).
func TestPeriodTimes(t *testing.T) {
	readers := map[string]func(Params) error{
		"usage": func(get Params) error { _, _, err := StatementPeriod(get); return err },
		"conversions": func(get Params) error {
			_, _, err := ConversionsPeriod(get)
			return err
		},
	}
	tests := []struct {
		from, to string
		param    string // "" when accepted
	}{
		{from: "2026-11-01", to: "2026-12-01"},
		{from: "1970-01-01", to: "9999-12-31"},
		{from: "1970-01-01T00:00:00Z", to: "9999-12-31T23:59:59Z"},
		{from: "0001-01-01", to: "2026-12-01", param: "from"},
		{from: "0000-01-01", to: "2026-12-01", param: "from"},
		{from: "0000-01-01T00:00:00+14:00", to: "2026-12-01", param: "from"},
		{from: "1969-12-31T23:59:59Z", to: "2026-12-01", param: "from"},
		{from: "2026-11-01", to: "9999-12-31T23:59:59-01:00", param: "to"},
	}
	for name, read := range readers {
		for _, tc := range tests {
			get := Params(func(n string) (string, bool) {
				switch n {
				case "from":
					return tc.from, true
				case "to":
					return tc.to, true
				}
				return "", false
			})
			err := read(get)
			var de *domain.Error
			switch {
			case tc.param == "" && err != nil:
				t.Errorf("%s from=%s to=%s: %v, want accepted", name, tc.from, tc.to, err)
			case tc.param != "" && (!errors.As(err, &de) || de.Field != tc.param):
				t.Errorf("%s from=%s to=%s: %v, want refused naming %s", name, tc.from, tc.to, err, tc.param)
			}
		}
	}
}

// TestCursorTimes: a cursor whose time no row can have (before the Unix epoch, after year 9999)
// is not one a list gave; one of a real time is.
func TestCursorTimes(t *testing.T) {
	for raw, ok := range map[string]bool{
		"1763726400000000|conv_1":     true,
		"0|conv_1":                    true,
		"-1|conv_1":                   false,
		"-62167219200000000|conv_1":   false,
		"-9223372036854775808|conv_1": false,
		"253402300800000000|conv_1":   false,
		"9223372036854775807|conv_1":  false,
	} {
		if _, got := DecodeCursor(base64.RawURLEncoding.EncodeToString([]byte(raw))); got != ok {
			t.Errorf("DecodeCursor(%q): %v, want %v", raw, got, ok)
		}
	}
}
