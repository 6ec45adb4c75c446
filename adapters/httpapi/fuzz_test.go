package httpapi

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
)

// The fuzz targets of the edge: every request body decoder, the path and query parameters, the
// cursor and the limit. Their property: never a panic; an error is a domain invalid_request with
// a short message and a printable param; what is accepted holds no NUL, no control character
// but line breaks and tabs, and only valid UTF-8. Their seeds (every bad input of issue 11's
// defects 1 and 9) run with go test; make fuzz runs each for a while.

// strictRequests are the bodies decodeJSON reads, one of each type.
var strictRequests = []func() any{
	func() any { return new(chatIn) },
	func() any { return new(clientChatIn) },
	func() any { return new(sessionIn) },
	func() any { return new(apijson.PagesIn) },
	func() any { return new(apijson.FAQIn) },
	func() any { return new(apijson.CrawlIn) },
	func() any { return new(apijson.AgentPatch) },
	func() any { return new(apijson.AppearancePatch) },
	func() any { return new(webhookIn) },
	func() any { return new(webhookPatchIn) },
	func() any { return new(apijson.ConversionIn) },
	func() any { return new(apijson.AssistantIn) },
	func() any { return new(widgetChatIn) },
	func() any { return new(widgetDomainsIn) },
	func() any { return new(widgetStyleIn) },
	func() any { return new(exchangeIn) },
	func() any { return new(syncIn) },
	func() any { return new(saleIn) },
}

// seedBodies adds the bodies of decodingCases (an oversized value cut to 64 KB, for speed) and a
// few valid bodies of each kind.
func seedBodies(f *testing.F) {
	for _, c := range decodingCases {
		f.Add(strings.ReplaceAll(c.in, huge, huge[:64<<10]))
	}
	for _, s := range []string{
		`{"message":"Do you deliver?","conversation_id":"c-1","customer_name":"Ana"}`,
		`{"pages":[{"url":"https://a.test/","title":"Home","content":"We sell bread."}],"business_summary":"A bakery"}`,
		`{"items":[{"question":"Open on Sundays?","answer":"No."}]}`,
		`{"kind":"sale","amount":12.5,"currency":"EUR","reference":"order-1"}`,
		`{"greeting":{"en":"Hi"},"suggestions":{"en":["Prices?"]}}`,
		`{"model":"svc","messages":[{"role":"user","content":"hi"}],"stream":true,"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}`,
		`{"model":"svc","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}],"instructions":"Be brief."}`,
		`{"input":["a","b"],"encoding_format":"base64"}`,
		`{"message":"\u200b\u200b"}`,
		`{"message":"` + strings.Repeat("é", 70000) + `"}`,
		`{"` + strings.Repeat("k", 70000) + `":1}`,
	} {
		f.Add(s)
	}
}

// FuzzDecode runs the strict decoder over each request type.
func FuzzDecode(f *testing.F) {
	seedBodies(f)
	f.Fuzz(func(t *testing.T, body string) {
		for _, dst := range strictRequests {
			v := dst()
			err := apijson.Decode(strings.NewReader(body), v, true)
			if err != nil {
				checkRefusal(t, err)
				continue
			}
			checkAccepted(t, "", reflect.ValueOf(v))
		}
	})
}

// FuzzModelDecode runs the model endpoints' decoding: the body, then the reading of what it holds
// into the request the app gets.
func FuzzModelDecode(f *testing.F) {
	seedBodies(f)
	f.Fuzz(func(t *testing.T, body string) {
		var chat chatCompletionIn
		if err := apijson.Decode(strings.NewReader(body), &chat, false); err != nil {
			checkRefusal(t, err)
		} else if req, err := chatRequestOf(chat); err != nil {
			checkRefusal(t, err)
		} else {
			checkAccepted(t, "", reflect.ValueOf(req))
		}

		var resp responsesIn
		if err := apijson.Decode(strings.NewReader(body), &resp, false); err != nil {
			checkRefusal(t, err)
		} else if req, err := responsesRequestOf(resp); err != nil {
			checkRefusal(t, err)
		} else {
			checkAccepted(t, "", reflect.ValueOf(req))
		}

		var emb embeddingsIn
		if err := apijson.Decode(strings.NewReader(body), &emb, false); err != nil {
			checkRefusal(t, err)
		} else if e, err := embedOf(emb); err != nil {
			checkRefusal(t, err)
		} else {
			checkAccepted(t, "", reflect.ValueOf(e))
		}
	})
}

// FuzzParams checks a path parameter and a raw query string as the router's check does.
func FuzzParams(f *testing.F) {
	for _, s := range []struct{ path, query string }{
		{"wh_1", ""},
		{"wh_\x00", ""},
		{"conv\x00", "cursor=%00"},
		{"evt_1", "limit=1%00"},
		{"a\xffb", "from=%C3"},
		{"a\nb", "a%07=1"},
		{"svc", "limit=20&cursor=MTc2MzcyNjQwMDAwMDAwMHxjLTE"},
		{"\u200b", "limit=%E2%80%8B"},
		{"c", "x=%zz&y=1;2"},
	} {
		f.Add(s.path, s.query)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		err := paramsError(gin.Params{{Key: "id", Value: path}}, query)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		checkLine(t, "id", path)
		q, _ := url.ParseQuery(query)
		for name, values := range q {
			checkLine(t, "query name", name)
			for _, v := range values {
				checkLine(t, name, v)
			}
		}
	})
}

// FuzzCursor decodes a cursor and reads a limit.
func FuzzCursor(f *testing.F) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, s := range []string{
		enc("1763726400000000|chat-1"), enc("1763726400000000|chat\x00"), enc("1763726400000000|\xff"),
		enc("-1|a"), enc("99999999999999999999|a"), enc("|"), "%%%", "", "1", "100", "101", "0", "-1", "1\x00", "٣",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if cur, ok := apijson.DecodeCursor(s); ok {
			if cur.ID == "" {
				t.Fatalf("apijson.DecodeCursor(%q) accepted an empty id", s)
			}
			checkLine(t, "cursor", cur.ID)
		}
		q, err := apijson.ConversationsQuery(func(name string) (string, bool) { return s, name == "limit" })
		n := q.Limit
		if err != nil {
			checkRefusal(t, err)
			return
		}
		if n < 1 || n > conversation.MaxListLimit {
			t.Fatalf("limit %q = %d, out of 1..%d", s, n, conversation.MaxListLimit)
		}
	})
}

// checkRefusal: err is invalid_request, with a message of 1 to maxErrorLen bytes and a param
// that is printable text.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	e, ok := domain.AsError(err)
	if !ok || e.Code != domain.CodeInvalidRequest {
		t.Fatalf("error %.300v, want invalid_request", err)
	}
	if e.Message == "" || len(e.Message) > maxErrorLen {
		t.Fatalf("message of %d bytes, want 1 to %d: %.400q", len(e.Message), maxErrorLen, e.Message)
	}
	if len(e.Field) > 4*(2*domain.MaxQuoted)+8 || apijson.BadText(e.Field, false) != "" {
		t.Fatalf("param %.200q is not a short line of text", e.Field)
	}
}

// checkLine: s is a line of text.
func checkLine(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		t.Fatalf("%s %.200q accepted: not a line of text", what, s)
	}
}

// checkAccepted walks a decoded value: every string, map key and JSON held as bytes is text.
func checkAccepted(t *testing.T, at string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkAccepted(t, at, v.Elem())
		}
	case reflect.String:
		checkText(t, at, v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			checkAccepted(t, at+"."+v.Type().Field(i).Name, v.Field(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			checkAccepted(t, at+" key", it.Key())
			checkAccepted(t, at+"["+it.Key().String()+"]", it.Value())
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			checkJSONBytes(t, at, v.Bytes())
			return
		}
		for i := range v.Len() {
			checkAccepted(t, at+"[]", v.Index(i))
		}
	}
}

// checkJSONBytes: the strings of a JSON value kept as bytes (a raw member, a schema) are text.
func checkJSONBytes(t *testing.T, at string, b []byte) {
	t.Helper()
	if len(bytes.TrimSpace(b)) == 0 {
		return
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: accepted JSON %.200q that does not read: %v", at, b, err)
		}
		if tok.Kind() == '"' {
			checkText(t, at, tok.String())
		}
	}
}

func checkText(t *testing.T, at, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s: accepted invalid UTF-8 %.200q", at, s)
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' {
			t.Fatalf("%s: accepted a control character %U in %.200q", at, r, s)
		}
	}
}
