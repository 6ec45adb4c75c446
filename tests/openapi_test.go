package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// Every answer of svc-api that a test receives is checked against the OpenAPI description the
// service publishes (adapters/httpapi/openapi.json, served at GET /v1/openapi.json): its status is
// one the operation declares, the headers the description requires are there, and a JSON body
// matches the schema (a streamed body, text/event-stream, only its content type). An answer to a
// route the description does not have must be 404 with the error envelope. The check sits in the
// transport of every client of this package (checkingTransport), so what the tests see is checked
// whether they look at it or not; a mismatch fails the test that sent the request, or, when the
// request carried no test (a goroutine's postJSON), the test that started that svc-api.

// contract is the compiled description, loaded once per test binary by the first svc-api started.
var contract struct {
	once     sync.Once
	err      error
	v        validator.Validator
	errorDoc *base.Schema                      // components.schemas.Error, for routes it lacks
	schemas  schema_validation.SchemaValidator // validates errorDoc and events
	// events are the bodies of the webhooks section (spec part 6), by event type
	events map[string]*base.Schema
}

// loadContract parses and compiles adapters/httpapi/openapi.json, and fails t when the file is not
// a valid OpenAPI 3.1 document.
func loadContract(t testing.TB) {
	t.Helper()
	root := repoRoot(t)
	contract.once.Do(func() {
		spec, err := os.ReadFile(filepath.Join(root, "adapters", "httpapi", "openapi.json"))
		if err != nil {
			contract.err = err
			return
		}
		doc, err := libopenapi.NewDocument(spec)
		if err != nil {
			contract.err = fmt.Errorf("parsing: %w", err)
			return
		}
		v, errs := validator.NewValidator(doc)
		if len(errs) > 0 {
			contract.err = fmt.Errorf("building the model: %v", errs)
			return
		}
		if ok, verrs := v.ValidateDocument(); !ok {
			contract.err = fmt.Errorf("not a valid OpenAPI document: %s", describe(verrs))
			return
		}
		model, err := doc.BuildV3Model()
		if err != nil {
			contract.err = fmt.Errorf("building the model: %w", err)
			return
		}
		proxy := model.Model.Components.Schemas.GetOrZero("Error")
		if proxy == nil {
			contract.err = fmt.Errorf("no components.schemas.Error")
			return
		}
		contract.events = map[string]*base.Schema{}
		if hooks := model.Model.Webhooks; hooks != nil {
			for typ, item := range hooks.FromOldest() {
				if item.Post == nil || item.Post.RequestBody == nil {
					continue
				}
				if media := item.Post.RequestBody.Content.GetOrZero("application/json"); media != nil && media.Schema != nil {
					contract.events[typ] = media.Schema.Schema()
				}
			}
		}
		contract.v = v
		contract.errorDoc = proxy.Schema()
		contract.schemas = schema_validation.NewSchemaValidator()
	})
	if contract.err != nil {
		t.Fatalf("adapters/httpapi/openapi.json: %v", contract.err)
	}
}

// apis are the svc-api servers whose answers are checked, by host:port of their HTTP listener.
var apis struct {
	mu     sync.Mutex
	byHost map[string]*apiChecks
}

// apiChecks collects the mismatches of one svc-api's answers to requests that carried no test,
// reported at the end of the test that started it.
type apiChecks struct {
	mu       sync.Mutex
	problems []string
}

func (c *apiChecks) add(problem string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, problem)
}

// checkAnswers loads the description and has the answers of the svc-api at addr checked from now
// on, until the end of t (or, for an outliving set-up, of its outer test), which then fails with
// every mismatch that no request's own test reported.
func checkAnswers(t testing.TB, addr string) {
	t.Helper()
	loadContract(t)
	c := &apiChecks{}
	apis.mu.Lock()
	if apis.byHost == nil {
		apis.byHost = map[string]*apiChecks{}
	}
	apis.byHost[addr] = c
	apis.mu.Unlock()
	owner := t
	if o, ok := t.(outliving); ok {
		owner = o.outer
	}
	t.Cleanup(func() {
		apis.mu.Lock()
		if apis.byHost[addr] == c {
			delete(apis.byHost, addr)
		}
		apis.mu.Unlock()
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, p := range c.problems {
			owner.Errorf("%s", p)
		}
	})
}

func checksOf(host string) *apiChecks {
	apis.mu.Lock()
	defer apis.mu.Unlock()
	return apis.byHost[host]
}

// testKey carries the test that sends a request in its context (withTest).
type testKey struct{}

// withTest returns ctx carrying t: a mismatch of the answer fails t at once.
func withTest(ctx context.Context, t testing.TB) context.Context {
	return context.WithValue(ctx, testKey{}, t)
}

// checkingTransport is the transport of every HTTP client of this package: it checks each answer
// of a svc-api (checkAnswers) against the description.
type checkingTransport struct{ base http.RoundTripper }

// checkingClient returns a client with timeout whose answers are checked.
func checkingClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: checkingTransport{base: http.DefaultTransport}}
}

func (c checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	checks := checksOf(req.URL.Host)
	if checks == nil {
		return resp, nil
	}
	if !isEventStream(resp) {
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			// The caller sees the same failure when it reads; there is no whole answer to check.
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
			return resp, nil
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		defer func() { resp.Body = io.NopCloser(bytes.NewReader(body)) }()
	}
	problem := mismatch(req, resp)
	if problem == "" {
		return resp, nil
	}
	if t, ok := req.Context().Value(testKey{}).(testing.TB); ok {
		t.Errorf("%s", problem)
	} else {
		checks.add(problem)
	}
	return resp, nil
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func isEventStream(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
}

// mismatch returns what in resp, the answer to req, the description does not allow ("" when
// nothing). The body of resp, unless streamed, must be readable again.
func mismatch(req *http.Request, resp *http.Response) string {
	route := req.Method + " " + req.URL.Path
	ok, errs := contract.v.ValidateHttpResponse(req, resp)
	if ok {
		return ""
	}
	if len(errs) == 1 && (errs[0].IsPathMissingError() || errs[0].IsOperationMissingError()) {
		return unknownRouteMismatch(route, resp)
	}
	return fmt.Sprintf("openapi.json does not allow the answer to %s: %d %s: %s\nbody: %s",
		route, resp.StatusCode, resp.Header.Get("Content-Type"), describe(errs), excerpt(resp))
}

// unknownRouteMismatch checks the answer to a route the description does not have: 404 with the
// error envelope.
func unknownRouteMismatch(route string, resp *http.Response) string {
	body, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var problems []string
	if resp.StatusCode != http.StatusNotFound {
		problems = append(problems, fmt.Sprintf("status %d, want 404", resp.StatusCode))
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		problems = append(problems, fmt.Sprintf("Content-Type %q, want application/json", ct))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		problems = append(problems, "empty body, want the error envelope")
	} else if ok, errs := contract.schemas.ValidateSchemaBytes(contract.errorDoc, body); !ok {
		problems = append(problems, "body is not the error envelope: "+describe(errs))
	}
	if len(problems) == 0 {
		return ""
	}
	return fmt.Sprintf("the answer to %s, a route openapi.json does not have: %s\nbody: %s",
		route, strings.Join(problems, "; "), bytes.TrimSpace(body))
}

// eventMismatch returns what in body, a webhook delivery of an event of type typ, the webhooks
// section of the description does not allow ("" when nothing).
func eventMismatch(t testing.TB, typ string, body []byte) string {
	t.Helper()
	loadContract(t)
	schema := contract.events[typ]
	if schema == nil {
		return fmt.Sprintf("openapi.json documents no webhooks.%s (a POST with an application/json body)", typ)
	}
	if ok, errs := contract.schemas.ValidateSchemaBytes(schema, body); !ok {
		return fmt.Sprintf("openapi.json does not allow this %s delivery: %s\nbody: %s", typ, describe(errs), bytes.TrimSpace(body))
	}
	return ""
}

// TestOpenAPIWebhooks: the description documents the events of spec part 6 in its webhooks
// section, each a POST with the three delivery headers and the envelope of spec 2.11 around its
// data; deliveries as the service sends them conform, and envelopes that break the spec do not.
// (The deliveries of the end-to-end tests are checked too, in wantHookRequest.)
func TestOpenAPIWebhooks(t *testing.T) {
	loadContract(t)
	doc, err := libopenapi.NewDocument(must(os.ReadFile(filepath.Join(repoRoot(t), "adapters", "httpapi", "openapi.json"))))
	if err != nil {
		t.Fatal(err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	if model.Model.Webhooks == nil {
		t.Fatal("openapi.json has no webhooks section: the events of spec part 6 are not described")
	}
	types := []string{"message.replied", "booking.created", "limit.reached", "knowledge.updated", "webhook.test"}
	if len(contract.events) != len(types) {
		t.Errorf("webhooks documents %d events, want the spec's %d: %v", len(contract.events), len(types), types)
	}
	for _, typ := range types {
		item := model.Model.Webhooks.GetOrZero(typ)
		if item == nil || item.Post == nil {
			t.Errorf("webhooks.%s: missing, or not a POST", typ)
			continue
		}
		headers := map[string]bool{}
		for _, p := range item.Post.Parameters {
			if p.In == "header" && p.Required != nil && *p.Required {
				headers[p.Name] = true
			}
		}
		for _, h := range []string{"SVC-Signature", "SVC-Event", "SVC-Delivery"} {
			if !headers[h] {
				t.Errorf("webhooks.%s: no required header %s", typ, h)
			}
		}
	}
	const stamp = `"id":"evt_0VcCL7czH5KfRFBSpaBynXKy","created_at":"2026-11-27T18:05:00.965Z"`
	for _, tt := range []struct {
		typ, body string
		ok        bool
	}{
		{"message.replied", `{` + stamp + `,"type":"message.replied","data":{"channel":"api","contact_id":"api:c-1","customer_message":"hello","reply":"Hi!"}}`, true},
		{"booking.created", `{` + stamp + `,"type":"booking.created","data":{"channel":"web","contact_id":"web:0b5e6f1c-1d9a-4c4e-9a53-3f1c2b7d9e10","customer_name":"Ana","date":"2026-12-01","time":"09:30","duration":"30 min","type":"haircut"}}`, true},
		{"limit.reached", `{` + stamp + `,"type":"limit.reached","data":{"plan":"starter"}}`, true},
		{"knowledge.updated", `{` + stamp + `,"type":"knowledge.updated","data":{"chars":18,"pages":1,"source":"pages"}}`, true},
		{"webhook.test", `{` + stamp + `,"type":"webhook.test","data":{"message":"This is a test event from svc.","webhook_id":"wh_t8h4uobPJjgHvgeUGQl0Bj5C"}}`, true},
		{"limit.reached", `{` + stamp + `,"type":"limit.reached","data":{}}`, false},                                                   // data.plan missing
		{"limit.reached", `{` + stamp + `,"type":"message.replied","data":{"plan":"pro"}}`, false},                                     // another type
		{"limit.reached", `{"id":"evt_1","created_at":"2026-11-27T18:05:00Z","type":"limit.reached","data":{"plan":"pro"}}`, false},    // no milliseconds
		{"limit.reached", `{"id":"ev_1","created_at":"2026-11-27T18:05:00.965Z","type":"limit.reached","data":{"plan":"pro"}}`, false}, // not evt_
		{"booking.created", `{` + stamp + `,"type":"booking.created","data":{"channel":"web","contact_id":"web:x","customer_name":"Ana","date":"1/12/2026","time":"09:30","duration":"30 min","type":"x"}}`, false},
		{"message.replied", `{` + stamp + `,"type":"message.replied","data":{"channel":"sms","contact_id":"x","customer_message":"a","reply":"b"}}`, false},
	} {
		if got := eventMismatch(t, tt.typ, []byte(tt.body)); (got == "") != tt.ok {
			t.Errorf("%s %s: conforms %v, want %v (%s)", tt.typ, tt.body, got == "", tt.ok, got)
		}
	}
}

// TestOpenAPIConversationKey: the description's request bodies of POST /v1/chat and POST
// /v1/sessions refuse the conversation keys the service refuses (400 naming conversation_id) and
// allow those it takes.
func TestOpenAPIConversationKey(t *testing.T) {
	loadContract(t)
	for _, path := range []string{"/v1/chat", "/v1/sessions"} {
		for key, ok := range map[string]bool{"order-42@shop.example:1_a": true, "": true, "a b": false, "a/b": false, "çã": false, strings.Repeat("a", 201): false} {
			body, _ := json.Marshal(map[string]string{"message": "hi", "conversation_id": key})
			if path == "/v1/sessions" {
				body, _ = json.Marshal(map[string]string{"conversation_id": key})
			}
			req := httptest.NewRequest(http.MethodPost, "http://svc.example"+path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer svc_live_x")
			if got, errs := contract.v.ValidateHttpRequest(req); got != ok {
				t.Errorf("POST %s with conversation_id %q: the description allows it %v, want %v%s", path, key, got, ok, describe(errs))
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// describe renders the validator's findings on one line each.
func describe(errs []*liberrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n  - %s", e.Message)
		if e.Reason != "" && e.Reason != e.Message {
			fmt.Fprintf(&b, ": %s", e.Reason)
		}
		for _, s := range e.SchemaValidationErrors {
			where := s.FieldPath
			if where == "" {
				where = s.KeywordLocation
			}
			fmt.Fprintf(&b, "\n      %s: %s", where, s.Reason)
		}
	}
	return b.String()
}

// excerpt returns the start of a body that is not streamed (and leaves it readable).
func excerpt(resp *http.Response) string {
	if isEventStream(resp) {
		return "(event stream)"
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	const max = 600
	if len(body) > max {
		return string(body[:max]) + "…"
	}
	return string(bytes.TrimSpace(body))
}

// recordingTB is a test whose errors are recorded instead of failing it.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Helper() {}

// TestOpenAPICheck shows that the check of the answers fails a test on each kind of answer the
// description does not allow, and on none that it allows: a server stands in for svc-api and gives
// the answers of the table.
func TestOpenAPICheck(t *testing.T) {
	const envelope = `{"error":{"code":"unauthorized","message":"No key."}}`
	tests := []struct {
		name        string
		method      string
		path        string
		status      int
		contentType string
		header      []string // name, value pairs
		body        string
		want        string // in the error; "" when the answer is allowed
	}{
		{"declared status and envelope", "GET", "/v1/account", 401, "application/json", nil, envelope, ""},
		{"health", "GET", "/healthz", 200, "application/json", nil, `{"status":"ok"}`, ""},
		{"health not ok", "GET", "/healthz", 200, "application/json", nil, `{"status":"fine"}`, "status"},
		{"unknown route, envelope", "GET", "/v1/nothing-here", 404, "application/json", nil,
			`{"error":{"code":"not_found","message":"No such route."}}`, ""},
		{"undeclared method, envelope", "DELETE", "/v1/account", 404, "application/json", nil,
			`{"error":{"code":"not_found","message":"No such route."}}`, ""},
		{"event stream", "POST", "/v1/chat/completions", 200, "text/event-stream", nil, "data: [DONE]\n\n", ""},
		{"undeclared status", "GET", "/v1/account", 418, "application/json", nil, envelope, "418"},
		{"code outside the enum", "GET", "/v1/account", 401, "application/json", nil,
			`{"error":{"code":"made_up","message":"No key."}}`, "made_up"},
		{"missing required property", "GET", "/v1/account", 401, "application/json", nil,
			`{"error":{"code":"unauthorized"}}`, "message"},
		{"undeclared content type", "GET", "/v1/account", 401, "text/plain", nil, "no key", "text/plain"},
		{"stream with the wrong content type", "POST", "/v1/chat/completions", 200, "text/plain", nil,
			"data: [DONE]\n\n", "text/plain"},
		{"unknown route answered 200", "GET", "/v1/nothing-here", 200, "application/json", nil, envelope,
			"status 200, want 404"},
		{"unknown route without the envelope", "GET", "/v1/nothing-here", 404, "text/plain", nil,
			"404 page not found", "error envelope"},
		{"unknown route with an empty body", "GET", "/v1/nothing-here", 404, "application/json", nil, "",
			"error envelope"},
		{"429 without Retry-After", "GET", "/v1/account", 429, "application/json", nil,
			`{"error":{"code":"rate_limited","message":"Slow down.","retry_after":1}}`, "Retry-After"},
		{"429 with Retry-After", "GET", "/v1/account", 429, "application/json", []string{"Retry-After", "1"},
			`{"error":{"code":"rate_limited","message":"Slow down.","retry_after":1}}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				for i := 0; i+1 < len(tc.header); i += 2 {
					w.Header().Set(tc.header[i], tc.header[i+1])
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			checkAnswers(t, strings.TrimPrefix(srv.URL, "http://"))
			rec := &recordingTB{TB: t}
			r := callRaw(rec, tc.method, srv.URL+tc.path, nil)
			if string(r.raw) != tc.body {
				t.Errorf("the caller read %q, want the whole body %q", r.raw, tc.body)
			}
			got := strings.Join(rec.errs, "\n")
			switch {
			case tc.want == "" && got != "":
				t.Errorf("an allowed answer failed the test: %s", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("errors %q, want one naming %q", got, tc.want)
			case tc.want != "" && !strings.Contains(got, tc.method+" "+tc.path):
				t.Errorf("errors %q, want the route %s %s named", got, tc.method, tc.path)
			}
		})
	}
}
