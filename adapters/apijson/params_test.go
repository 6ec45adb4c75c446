package apijson

import (
	"errors"
	"testing"

	"github.com/svcagent/svc/domain"
)

// TestParamsOf: a tool's arguments read as a route's parameters give the text a query string
// would carry, and what a query string cannot carry is refused naming the argument.
func TestParamsOf(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		want  map[string]string // the values given; a name absent here must be absent
		param string            // the param of the refusal, when refused
		bad   bool
	}{
		{name: "none", args: `{}`, want: map[string]string{}},
		{name: "a string", args: `{"from":"2026-11-01"}`, want: map[string]string{"from": "2026-11-01"}},
		{name: "a number as written", args: `{"limit":2.50}`, want: map[string]string{"limit": "2.50"}},
		{name: "a boolean", args: `{"limit":true}`, want: map[string]string{"limit": "true"}},
		{name: "null is absent", args: `{"limit":null}`, want: map[string]string{}},
		{name: "an array", args: `{"limit":[5]}`, bad: true, param: "limit"},
		{name: "an object", args: `{"limit":{"n":5}}`, bad: true, param: "limit"},
		{name: "an unknown name", args: `{"page":2}`, bad: true, param: "page"},
		{name: "a line break", args: `{"from":"a\nb"}`, bad: true, param: "from"},
		{name: "a NUL", args: `{"from":"a\u0000"}`, bad: true, param: "from"},
		{name: "a repeated name", args: `{"from":"a","from":"b"}`, bad: true, param: "from"},
		{name: "not an object", args: `[1]`, bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			get, err := ParamsOf([]byte(tt.args), "from", "limit")
			if tt.bad {
				e, ok := domain.AsError(err)
				if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.param {
					t.Fatalf("ParamsOf(%s) = %v, want invalid_request naming %q", tt.args, err, tt.param)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParamsOf(%s): %v", tt.args, err)
			}
			for _, name := range []string{"from", "limit"} {
				v, ok := get(name)
				want, given := tt.want[name]
				if ok != given || v != want {
					t.Errorf("%s = %q %v, want %q %v", name, v, ok, want, given)
				}
			}
		})
	}
}

// TestIntegerWrittenPlainly: a numeric parameter (a list's limit, unix seconds of a period) is
// read only as it is written plainly; "+5", "05", " 5" and the like are 400 naming it, not read
// as 5, on every route that takes one (the REST query, and a tool's argument read as one).
func TestIntegerWrittenPlainly(t *testing.T) {
	one := func(name, v string) Params {
		return func(n string) (string, bool) { return v, n == name }
	}
	for _, tc := range []struct {
		v    string
		want int64 // -1: refused
	}{
		{"5", 5}, {"1", 1}, {"100", 100}, {"10", 10},
		{"+5", -1}, {"05", -1}, {"005", -1}, {" 5", -1}, {"5 ", -1}, {"5.0", -1}, {"5e0", -1},
		{"0x5", -1}, {"-5", -1}, {"-0", -1}, {"0", -1}, {"101", -1}, {"", -1}, {"٥", -1},
	} {
		n, given, err := Integer(one("limit", tc.v), "limit", 1, 100)
		var de *domain.Error
		switch {
		case !given:
			t.Errorf("limit=%q: not given", tc.v)
		case tc.want < 0 && (!errors.As(err, &de) || de.Field != "limit"):
			t.Errorf("limit=%q: %d %v, want refused naming limit", tc.v, n, err)
		case tc.want >= 0 && (err != nil || n != tc.want):
			t.Errorf("limit=%q: %d %v, want %d", tc.v, n, err, tc.want)
		}
		if _, given, err := Integer(one("other", tc.v), "limit", 1, 100); given || err != nil {
			t.Errorf("an absent limit: given %v, %v", given, err)
		}
	}
	for _, v := range []string{"+1764000000", "01764000000", "1764000000.0"} {
		var de *domain.Error
		if _, _, err := StatementPeriod(one("from", v)); !errors.As(err, &de) || de.Field != "from" {
			t.Errorf("from=%q: %v, want refused naming from", v, err)
		}
	}
	if from, _, err := StatementPeriod(one("from", "1764000000")); err != nil || from.Unix() != 1764000000 {
		t.Errorf("from=1764000000: %v %v", from, err)
	}
}
