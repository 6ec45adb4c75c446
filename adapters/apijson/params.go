package apijson

import (
	"slices"
	"strconv"

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

// Integer reads the whole-number parameter name from get: given is false when it is absent. Its
// text must be the number written plainly, as JSON and this API's answers write it: decimal
// digits, a - for a negative one, and no sign, leading zero, space, exponent or fraction
// otherwise ("5", not "+5", "05", " 5", "5.0" or "5e0"), between lo and hi. Anything else is
// refused naming the parameter, not read as some number it might mean (a repeated parameter is
// refused before, at the edge). Every numeric parameter of a route (a query parameter, or a
// tool's argument read as one) is read here.
func Integer(get Params, name string, lo, hi int64) (n int64, given bool, err error) {
	raw, given := get(name)
	if !given {
		return 0, false, nil
	}
	n, err = strconv.ParseInt(raw, 10, 64)
	if err != nil || !canonicalInteger(raw) || n < lo || n > hi {
		return 0, true, domain.Invalid(name, "%s must be an integer between %d and %d, written plainly (digits only, as in %s=%d)", name, lo, hi, name, max(lo, min(hi, 20)))
	}
	return n, true, nil
}

// canonicalInteger reports whether s is an integer as it is written plainly: 0, or digits not
// starting with 0, after an optional -.
func canonicalInteger(s string) bool {
	digits := s
	if len(s) > 1 && s[0] == '-' {
		digits = s[1:]
	}
	if digits == "" || (digits[0] == '0' && (len(digits) > 1 || len(s) > 1)) {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}
