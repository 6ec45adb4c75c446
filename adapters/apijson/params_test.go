package apijson

import (
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
