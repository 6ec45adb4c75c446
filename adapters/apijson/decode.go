package apijson

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/svcagent/svc/domain"
)

// Every text that comes in is checked once, before any handler sees it: the strings of a JSON
// body or of a tool's arguments (names included), and the path and query parameters. Text is
// valid UTF-8 without NUL or other control characters; a body's strings may hold line breaks and
// tabs, a parameter may not.

// Decode reads a JSON object from r into dst. Unless strict, unknown fields are ignored (the
// model endpoints' OpenAI clients send fields this service does not use); the rest is as strict.
func Decode(r io.Reader, dst any, strict bool) error {
	body, err := ReadBody(r)
	if err != nil {
		return err
	}
	return Unmarshal(body, dst, strict)
}

// ReadBody reads a whole request body: a 400 when it is over the cap or cannot be read.
func ReadBody(r io.Reader) ([]byte, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, domain.Invalid("", "request body is larger than %d bytes", tooBig.Limit)
		}
		if e, ok := domain.AsError(err); ok {
			return nil, e // a body the server cannot decode (its Content-Encoding), named
		}
		return nil, domain.Invalid("", "request body could not be read")
	}
	return body, nil
}

// Unmarshal is Decode's reading of a whole body.
func Unmarshal(body []byte, dst any, strict bool) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return domain.Invalid("", "request body is required: send a JSON object")
	}
	if trimmed[0] != '{' {
		if formLike(trimmed) {
			// `curl -d message=hi` sends a form, as Stripe's API reads it.
			return domain.Invalid("", "request body must be a JSON object, not form fields (name=value): send {\"name\":\"value\"}")
		}
		return domain.Invalid("", "request body must be a JSON object")
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	if err := jsonv2.Unmarshal(body, dst, jsonv2.RejectUnknownMembers(strict)); err != nil {
		return jsonError(err)
	}
	return nil
}

// formLike reports whether a body that is no JSON object reads as form fields: name=value pairs
// joined by &, names of letters, digits, _, [ and ].
func formLike(body []byte) bool {
	for pair := range bytes.SplitSeq(body, []byte("&")) {
		name, _, ok := bytes.Cut(pair, []byte("="))
		if !ok || len(name) == 0 {
			return false
		}
		for _, c := range name {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '[' || c == ']' || c == '%' || c == '.') {
				return false
			}
		}
	}
	return true
}

// UnmarshalForeign reads a JSON object another service wrote and signed (a messaging app's
// notification) into dst, leniently: unknown members are skipped and strings may hold control
// characters (the reader cleans what it keeps), as the writer's format allows; only a body that is
// not a JSON object, or of the wrong types, is refused.
func UnmarshalForeign(body []byte, dst any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return domain.Invalid("", "request body must be a JSON object")
	}
	if err := jsonv2.Unmarshal(body, dst, jsonv2.RejectUnknownMembers(false)); err != nil {
		return jsonError(err)
	}
	return nil
}

// checkJSONText refuses a body whose strings hold control characters other than line breaks and
// tabs. Those can only be written as escapes (or, for DEL and the C1 controls, as themselves),
// so a body without any is passed at the cost of one scan; one with some is read token by token
// to name the field.
func checkJSONText(body []byte) error {
	if !mayHoldControls(body) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return jsonError(err)
		}
		if tok.Kind() == '"' {
			ptr := dec.StackPointer()
			if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 1 {
				// An object member's name: name the object it is in, not the name itself.
				if reason := BadText(tok.String(), true); reason != "" {
					at := paramOf(ptr.Parent())
					if at == "" {
						return domain.Invalid("", "a field name %s", reason)
					}
					return domain.Invalid(at, "a field name in %s %s", at, reason)
				}
				continue
			}
			if reason := BadText(tok.String(), true); reason != "" {
				at := paramOf(ptr)
				return domain.Invalid(at, "%s %s", at, reason)
			}
		}
		if dec.StackDepth() == 0 {
			return nil // the end of the object; what follows it is unmarshal's to refuse
		}
	}
}

// mayHoldControls reports whether a JSON text may have a string with a control character other
// than a line break or tab: an escape \b, \f or \u0000–\u001f, \u007f–\u009f, or a DEL or C1
// control written as itself. It may say yes for a text without any (an escaped backslash
// followed by b), never no for one with some.
func mayHoldControls(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 0x7f:
			return true
		case 0xc2: // U+0080–U+009F are C2 80–C2 9F
			if i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f {
				return true
			}
		case '\\':
			if i+1 >= len(b) {
				return true
			}
			switch b[i+1] {
			case 'b', 'f':
				return true
			case 'u':
				if i+5 < len(b) && b[i+2] == '0' && b[i+3] == '0' && strings.IndexByte("01789", b[i+4]) >= 0 {
					return true
				}
			}
			i++ // the escaped character: \\ is not the start of another escape
		}
	}
	return false
}

// BadText says what is wrong with a caller's text, or "" when it is fine: it must be valid UTF-8
// without NUL or control characters, but for line breaks and tabs when multiline.
func BadText(s string, multiline bool) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == 0:
			return "must not hold a NUL character"
		case multiline && (r == '\n' || r == '\r' || r == '\t'):
		case unicode.IsControl(r):
			return "must not hold control characters"
		}
	}
	return ""
}

// maxParam is the longest param an error names: a longer one is cut, as a quoted value is.
const maxParam = 2 * domain.MaxQuoted

// CapParam cuts an error's param to maxParam characters.
func CapParam(p string) string { return cut(p, maxParam) }

// cut cuts s to n characters and an ellipsis when it is longer.
func cut(s string, n int) string {
	i := 0
	for at := range s {
		if i == n {
			return s[:at] + "…"
		}
		i++
	}
	return s
}

// maxDepth is the nesting of arrays and objects the JSON decoder reads (jsontext's limit).
const maxDepth = 10000

// paramOf turns a JSON pointer into the form of the error's param: /pages/0/url is pages[0].url.
func paramOf(ptr jsontext.Pointer) string {
	var b strings.Builder
	for tok := range ptr.Tokens() {
		if isIndex(tok) && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return CapParam(b.String())
}

func isIndex(tok string) bool {
	if tok == "" || len(tok) > 9 {
		return false
	}
	for _, r := range tok {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// jsonError maps a decoding error to a 400 naming the field; it never quotes the value sent.
func jsonError(err error) error {
	var syntax *jsontext.SyntacticError
	var semantic *jsonv2.SemanticError
	switch {
	case errors.As(err, &syntax):
		at := paramOf(syntax.JSONPointer)
		switch {
		case errors.Is(syntax.Err, jsontext.ErrDuplicateName):
			return domain.Invalid(at, "%s appears more than once; send each field once", at)
		case syntax.Err != nil && syntax.Err.Error() == "invalid UTF-8":
			return domain.Invalid(at, "%s is not valid UTF-8", orBody(at))
		case syntax.Err != nil && at != "" && strings.Contains(syntax.Err.Error(), "surrogate"):
			return domain.Invalid(at, "%s holds an escape that is not a character (a lone surrogate)", at)
		case syntax.Err != nil && at != "" && strings.Contains(syntax.Err.Error(), "escape"):
			return domain.Invalid(at, "%s holds an invalid escape sequence", at)
		case errors.Is(syntax.Err, io.ErrUnexpectedEOF):
			return domain.Invalid("", "malformed JSON: the body ends too early")
		case syntax.Err != nil && syntax.Err.Error() == "exceeded max depth":
			// Well-formed JSON nested past the decoder's 10,000 levels: said so, not "malformed",
			// and named by its field of the body (the pointer down to it is 10,000 tokens long).
			top := ""
			for tok := range syntax.JSONPointer.Tokens() {
				top = CapParam(tok)
				break
			}
			return domain.Invalid(top, "%s is nested too deeply: at most %d levels of arrays and objects", orBody(top), maxDepth)
		}
		return domain.Invalid("", "malformed JSON at byte %d", syntax.ByteOffset)
	case errors.As(err, &semantic):
		at := paramOf(semantic.JSONPointer)
		switch {
		case errors.Is(semantic.Err, jsonv2.ErrUnknownName):
			return domain.Invalid(at, "unknown field %s (field names are case-sensitive)", domain.Quote(semantic.JSONPointer.LastToken()))
		case at == "" || semantic.GoType == nil:
			return domain.Invalid(at, "request body must be a JSON object")
		}
		return domain.Invalid(at, "%s must be %s", at, jsonKind(semantic.GoType))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Invalid("", "malformed JSON: the body ends too early")
	}
	return domain.Invalid("", "malformed JSON")
}

func orBody(at string) string {
	if at == "" {
		return "the request body"
	}
	return at
}

func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage: any JSON value
			return "a JSON value"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "of another type"
}
