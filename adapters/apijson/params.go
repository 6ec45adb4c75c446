package apijson

import (
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/svcagent/svc/domain"
)

// Params gives the text of a route's parameter (a path or query parameter) by name, and whether
// it was given.
type Params func(name string) (string, bool)

// ParamsOf reads a tool's arguments, a JSON object, as the parameters names of a route that takes
// them in its path or query: each value is the text a query string would carry (a string as it
// is, a number or boolean as written, null as absent), checked as the REST routes check theirs,
// so that the same value fails the same way. A name not among names, an object or an array is
// refused, naming it.
func ParamsOf(args []byte, names ...string) (Params, error) {
	var raw map[string]jsontext.Value
	if err := Unmarshal(args, &raw, true); err != nil {
		return nil, err
	}
	vals := make(map[string]string, len(raw))
	for name, v := range raw {
		at := CapParam(name)
		if !slices.Contains(names, name) {
			return nil, domain.Invalid(at, "unknown field %s (field names are case-sensitive)", domain.Quote(name))
		}
		var text string
		switch v.Kind() {
		case 'n':
			continue
		case '"':
			if err := jsonv2.Unmarshal(v, &text); err != nil {
				return nil, domain.Invalid(at, "%s must be a string", at)
			}
		case '0', 't', 'f':
			text = string(v)
		default:
			return nil, domain.Invalid(at, "%s must be one value: a string or a number", at)
		}
		if reason := BadText(text, false); reason != "" {
			return nil, domain.Invalid(at, "%s %s", at, reason)
		}
		vals[name] = text
	}
	return func(name string) (string, bool) {
		v, ok := vals[name]
		return v, ok
	}, nil
}
