package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
)

// maxErrorLen bounds the message of every decoding error: a message names the field and quotes
// at most a short prefix of a value, whatever was sent.
const maxErrorLen = 300

// wantInvalid checks that err is a 400 invalid_request naming param, with a short message.
func wantInvalid(t *testing.T, err error, param string) {
	t.Helper()
	e, ok := domain.AsError(err)
	if !ok || e.Code != domain.CodeInvalidRequest {
		t.Fatalf("error %v, want invalid_request", err)
	}
	if e.Field != param {
		t.Errorf("param %.100q, want %q (message %.200q)", e.Field, param, e.Message)
	}
	if e.Message == "" || len(e.Message) > maxErrorLen {
		t.Errorf("message of %d bytes, want 1 to %d: %.400q", len(e.Message), maxErrorLen, e.Message)
	}
}

// decodingCase is a body, the request type it is decoded into, and the outcome.
type decodingCase struct {
	name   string
	dst    func() any
	in     string
	ok     bool
	strict bool // else decoded as the model endpoints do, unknown fields ignored
	param  string
}

// huge is an oversized value: 7 MB.
var huge = strings.Repeat("x", 7<<20)

// decodingCases are the bodies of TestStrictDecoding, and seeds of FuzzDecode.
var decodingCases = []decodingCase{
	{"a valid body", func() any { return new(chatIn) }, `{"message":"hi","customer_name":"Ana"}`, true, true, ""},
	{"line breaks and tabs in a message", func() any { return new(chatIn) }, `{"message":"line one\nline two\r\n\tthree"}`, true, true, ""},
	{"an escaped backslash before b", func() any { return new(chatIn) }, `{"message":"C:\\bin\\u0000"}`, true, true, ""},
	{"accented text as escapes", func() any { return new(chatIn) }, `{"message":"caf\u00e9 \u00fc"}`, true, true, ""},

	{"a key in another case", func() any { return new(apijson.ConversionIn) }, `{"KIND":"lead"}`, false, true, "KIND"},
	{"a nested key in another case", func() any { return new(apijson.PagesIn) }, `{"pages":[{"URL":"https://a.test/"}]}`, false, true, "pages[0].URL"},
	{"a duplicate key", func() any { return new(apijson.ConversionIn) }, `{"kind":"lead","kind":"sale"}`, false, true, "kind"},
	{"a duplicate nested key", func() any { return new(apijson.FAQIn) }, `{"items":[{"question":"a","answer":"b"},{"question":"c","question":"d"}]}`, false, true, "items[1].question"},
	{"a duplicate map key", func() any { return new(apijson.AppearancePatch) }, `{"greeting":{"en":"Hi","en":"Hello"}}`, false, true, "greeting.en"},
	{"a duplicate key the model endpoints ignore", func() any { return new(chatCompletionIn) }, `{"model":"svc","user_meta":{"a":1,"a":2}}`, false, false, "user_meta.a"},
	{"a duplicate key in a raw member", func() any { return new(chatCompletionIn) }, `{"messages":[{"role":"user","content":[{"type":"text","type":"image_url"}]}]}`, false, false, "messages[0].content[0].type"},

	{"invalid UTF-8", func() any { return new(apijson.ConversionIn) }, "{\"reference\":\"a\xffb\"}", false, true, "reference"},
	{"invalid UTF-8 in a name", func() any { return new(apijson.ConversionIn) }, "{\"ref\xff\":\"a\"}", false, true, ""},
	{"an invalid escape", func() any { return new(chatIn) }, `{"message":"\x41"}`, false, true, "message"},
	{"a lone surrogate escape", func() any { return new(chatIn) }, `{"message":"\ud800"}`, false, true, "message"},
	{"invalid UTF-8 in a model message", func() any { return new(chatCompletionIn) }, "{\"messages\":[{\"role\":\"user\",\"content\":\"a\xc3\"}]}", false, false, "messages[0].content"},

	{"NUL in a message", func() any { return new(chatIn) }, `{"message":"a\u0000b"}`, false, true, "message"},
	{"NUL in a client message", func() any { return new(clientChatIn) }, `{"message":"\u0000"}`, false, true, "message"},
	{"NUL in a customer name", func() any { return new(sessionIn) }, `{"customer_name":"Ana\u0000"}`, false, true, "customer_name"},
	{"NUL in a reference", func() any { return new(apijson.ConversionIn) }, `{"kind":"lead","reference":"\u0000"}`, false, true, "reference"},
	{"NUL in an FAQ answer", func() any { return new(apijson.FAQIn) }, `{"items":[{"question":"q","answer":"a"},{"question":"q2","answer":"\u0000"}]}`, false, true, "items[1].answer"},
	{"NUL in a page title", func() any { return new(apijson.PagesIn) }, `{"pages":[{"url":"https://a.test/","title":"\u0000","content":"c"}]}`, false, true, "pages[0].title"},
	{"NUL in the business summary", func() any { return new(apijson.PagesIn) }, `{"business_summary":"We sell\u0000"}`, false, true, "business_summary"},
	{"NUL in a profile field", func() any { return new(apijson.AgentPatch) }, `{"contact":{"hours":"9\u0000"}}`, false, true, "contact.hours"},
	{"NUL in a greeting", func() any { return new(apijson.AppearancePatch) }, `{"greeting":{"en":"Hi\u0000"}}`, false, true, "greeting.en"},
	{"NUL in a suggestion", func() any { return new(apijson.AppearancePatch) }, `{"suggestions":{"en":["a","\u0000"]}}`, false, true, "suggestions.en[1]"},
	{"NUL in a webhook url", func() any { return new(webhookIn) }, `{"url":"https://a.test/\u0000"}`, false, true, "url"},
	{"NUL in a webhook event", func() any { return new(webhookPatchIn) }, `{"events":["message.replied\u0000"]}`, false, true, "events[0]"},
	{"NUL in a crawl url", func() any { return new(apijson.CrawlIn) }, `{"url":"https://a.test/\u0000"}`, false, true, "url"},
	{"NUL in a key name", func() any { return new(chatIn) }, `{"mess\u0000age":"hi"}`, false, true, ""},
	{"NUL in a nested key name", func() any { return new(apijson.PagesIn) }, `{"pages":[{"u\u0000rl":"x"}]}`, false, true, "pages[0]"},
	{"NUL in a map key", func() any { return new(apijson.AppearancePatch) }, `{"greeting":{"e\u0000n":"Hi"}}`, false, true, "greeting"},
	{"NUL in a model message", func() any { return new(chatCompletionIn) }, `{"messages":[{"role":"user","content":"a\u0000"}]}`, false, false, "messages[0].content"},
	{"NUL in a model message part", func() any { return new(chatCompletionIn) }, `{"messages":[{"role":"user","content":[{"type":"text","text":"\u0000"}]}]}`, false, false, "messages[0].content[0].text"},
	{"NUL in a responses input", func() any { return new(responsesIn) }, `{"input":"\u0000"}`, false, false, "input"},
	{"NUL in an embeddings input", func() any { return new(embeddingsIn) }, `{"input":["a","\u0000"]}`, false, false, "input[1]"},

	{"a bell in a customer name", func() any { return new(chatIn) }, `{"message":"hi","customer_name":"Ana\u0007"}`, false, true, "customer_name"},
	{"a backspace escape", func() any { return new(chatIn) }, `{"message":"a\bb"}`, false, true, "message"},
	{"a form feed escape", func() any { return new(chatIn) }, `{"message":"a\fb"}`, false, true, "message"},
	{"DEL as itself", func() any { return new(chatIn) }, "{\"message\":\"a\x7fb\"}", false, true, "message"},
	{"a C1 control as itself", func() any { return new(chatIn) }, "{\"message\":\"a\u0085b\"}", false, true, "message"},
	{"a C1 control escaped", func() any { return new(chatIn) }, `{"message":"a\u009Bb"}`, false, true, "message"},

	{"a wrong type in an array", func() any { return new(apijson.PagesIn) }, `{"pages":[{"url":"https://a.test/"},{"url":5}]}`, false, true, "pages[1].url"},
	{"an oversized value of a wrong type", func() any { return new(apijson.CrawlIn) }, `{"max_pages":"` + huge + `"}`, false, true, "max_pages"},
	{"an oversized unknown name", func() any { return new(apijson.CrawlIn) }, `{"` + huge + `":1}`, false, true, apijson.CapParam(huge)},
	{"an oversized number", func() any { return new(apijson.CrawlIn) }, `{"max_pages":1` + strings.Repeat("0", 1<<20) + `}`, false, true, "max_pages"},
	{"trailing data", func() any { return new(chatIn) }, `{"message":"hi"} {"message":"again"}`, false, true, ""},
}

func TestStrictDecoding(t *testing.T) {
	for _, tt := range decodingCases {
		t.Run(tt.name, func(t *testing.T) {
			err := apijson.Decode(strings.NewReader(tt.in), tt.dst(), tt.strict)
			if tt.ok {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			wantInvalid(t, err, tt.param)
		})
	}
}

// TestQuotedValuesAreCapped: a message quotes a value sent only up to domain.MaxQuoted
// characters, here an unknown field name and, through the error mapping, any other message.
func TestQuotedValuesAreCapped(t *testing.T) {
	long := strings.Repeat("é", 100000)
	err := apijson.Decode(strings.NewReader(`{"`+long+`":1}`), new(chatIn), true)
	e, _ := domain.AsError(err)
	if e == nil || utf8.RuneCountInString(e.Message) > 2*domain.MaxQuoted+60 || !strings.Contains(e.Message, "…") {
		t.Fatalf("error %.300v: want the name cut to %d characters and …", err, domain.MaxQuoted)
	}

	s, _ := newTestServer(t)
	s.engine.GET("/test/fail", func(c *gin.Context) { s.fail(c, domain.Invalid(long, "%s", long)) })
	body := envelope(t, do(s, "GET", "/test/fail", nil, ""))
	if n := utf8.RuneCountInString(body.Message); n > apijson.MaxMessage+1 {
		t.Errorf("the answered message has %d characters, want at most %d", n, apijson.MaxMessage+1)
	}
	if n := utf8.RuneCountInString(body.Param); n > (2*domain.MaxQuoted)+1 {
		t.Errorf("the answered param has %d characters, want at most %d", n, (2*domain.MaxQuoted)+1)
	}
}

// TestParams: path and query parameters are one line of text, checked before any handler.
func TestParams(t *testing.T) {
	s, _ := newTestServer(t)
	tests := []struct {
		name, path, param string
	}{
		{"NUL in a webhook id", "/v1/webhooks/wh_%00", "id"},
		{"NUL in a webhook's test", "/v1/webhooks/wh_%00/test", "id"},
		{"NUL in a webhook's deliveries", "/v1/webhooks/wh_%00/deliveries", "id"},
		{"NUL in an event id", "/v1/webhooks/wh_1/deliveries/evt_%00/redeliver", "event_id"},
		{"NUL in a conversation id", "/v1/conversations/c%00", "conversation_id"},
		{"invalid UTF-8 in a path id", "/v1/webhooks/wh_%FF", "id"},
		{"a line break in a path id", "/v1/conversations/a%0Ab", "conversation_id"},
		{"NUL in a model name", "/v1/models/svc%00", "model"},
		{"NUL in the cursor", "/v1/conversations?cursor=%00", "cursor"},
		{"NUL in limit", "/v1/conversations?limit=1%00", "limit"},
		{"invalid UTF-8 in a query value", "/v1/usage?from=%C3", "from"},
		{"a control character in a query name", "/v1/usage?a%07=1", ""},
		// a parameter is given once (no route takes a list in its query); a number written
		// plainly: apijson's TestIntegerWrittenPlainly
		{"limit given twice", "/v1/conversations?limit=1&limit=2", "limit"},
		{"limit given twice, once empty", "/v1/conversions?limit=&limit=5", "limit"},
		{"a channel given twice", "/v1/conversations?channel=api&channel=web", "channel"},
		{"from given twice", "/v1/usage?from=2026-11-01&from=2026-11-02", "from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := "GET"
			if strings.HasSuffix(tt.path, "/test") || strings.HasSuffix(tt.path, "/redeliver") {
				method = "POST"
			}
			rec := do(s, method, tt.path, nil, "")
			if rec.Code != 400 {
				t.Fatalf("%d %s, want 400", rec.Code, rec.Body.String())
			}
			wantInvalid(t, domain.Invalid(envelope(t, rec).Param, "%s", envelope(t, rec).Message), tt.param)
		})
	}
}

func TestDecodeCursor(t *testing.T) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"one this API returned", enc("1763726400000000|chat-1"), true},
		{"not base64", "%%%", false},
		{"no separator", enc("1763726400000000"), false},
		{"no id", enc("1763726400000000|"), false},
		{"not a time", enc("soon|chat-1"), false},
		{"NUL in the id", enc("1763726400000000|chat\x00"), false},
		{"invalid UTF-8 in the id", enc("1763726400000000|chat\xff"), false},
		{"a control character in the id", enc("1763726400000000|a\nb"), false},
	}
	for _, tt := range tests {
		if _, ok := apijson.DecodeCursor(tt.in); ok != tt.ok {
			t.Errorf("%s: ok %v, want %v", tt.name, ok, tt.ok)
		}
	}
}

// BenchmarkDecode compares the model endpoints' body decoding with encoding/json's, which it
// replaced, on the body of BenchmarkModelOverhead and on one with accented text as escapes
// (the form Python's json writes), which the control-character check reads token by token.
//
//	go test ./adapters/httpapi -run '^$' -bench BenchmarkDecode
func BenchmarkDecode(b *testing.B) {
	bodies := map[string]string{
		"plain":   `{"model":"svc","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"When do you open on Saturdays?"}]}`,
		"escaped": `{"model":"svc","messages":[{"role":"system","content":"Seja breve."},{"role":"user","content":"Voc\u00ea abre aos s\u00e1bados? \u00c0s 9h?"}]}`,
	}
	for name, body := range bodies {
		b.Run(name+"/encoding_json", func(b *testing.B) {
			for range b.N {
				var in chatCompletionIn
				dec := json.NewDecoder(strings.NewReader(body))
				if err := dec.Decode(&in); err != nil {
					b.Fatal(err)
				}
				if _, err := chatRequestOf(in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode", func(b *testing.B) {
			for range b.N {
				var in chatCompletionIn
				if err := apijson.Decode(strings.NewReader(body), &in, false); err != nil {
					b.Fatal(err)
				}
				if _, err := chatRequestOf(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
