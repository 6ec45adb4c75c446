package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
)

const testKey = "sk-test-9f8e7d6c5b4a3210"

// upstream is a fake OpenAI-compatible server on loopback. handle gets the 0-based number of
// the request.
type upstream struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []received
}

// received is a request the fake upstream received.
type received struct {
	body   []byte
	header http.Header
	path   string
	at     time.Time
}

func newUpstream(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *upstream {
	t.Helper()
	u := &upstream{}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		u.mu.Lock()
		n := len(u.reqs)
		u.reqs = append(u.reqs, received{b, r.Header.Clone(), r.URL.Path, time.Now()})
		u.mu.Unlock()
		handle(w, r, n)
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) attempts() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.reqs)
}

func (u *upstream) req(n int) received {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.reqs[n]
}

func (u *upstream) body(t *testing.T, n int) map[string]any {
	t.Helper()
	b := u.req(n).body
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("request %d is not JSON: %v: %s", n, err, b)
	}
	return m
}

// client returns a Client for u with the guarded default HTTP client (loopback is a private
// target, allowed for the model upstream), a tiny RetryBase, and the logs it writes.
func (u *upstream) client(opts Options) (*Client, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.DebugLevel)
	opts.BaseURL = u.srv.URL + "/v1/"
	opts.APIKey = testKey
	if opts.Model == "" {
		opts.Model = "gpt-test"
	}
	opts.EmbeddingModel = "embed-test"
	if opts.RetryBase == 0 {
		opts.RetryBase = time.Millisecond
	}
	return New(opts, zap.New(core)), logs
}

func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func ptr[T any](v T) *T { return &v }

func sameJSON(t *testing.T, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON: %v", err)
	}
	if !reflect.DeepEqual(got, w) {
		g, _ := json.Marshal(got)
		wb, _ := json.Marshal(w)
		t.Errorf("upstream received\n%s\nwant\n%s", g, wb)
	}
}

func richRequest() model.Request {
	return model.Request{
		Messages: []model.Message{
			{Role: model.RoleSystem, Content: "Be brief."},
			{Role: model.RoleUser, Name: "ana", Parts: []model.Part{
				{Type: "text", Text: "What is this?"},
				{Type: "image_url", ImageURL: "https://example.com/a.png", Detail: "low"},
				{Type: "image_url", ImageURL: "data:image/png;base64,iVBORw0KGgo="},
			}},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{
				{ID: "call_1", Name: "create_booking", Arguments: `{"date":"2026-10-01"}`},
			}},
			{Role: model.RoleTool, ToolCallID: "call_1", Content: `{"ok":true}`},
			{Role: model.RoleAssistant, Content: "Booked."},
			{Role: model.RoleUser, Content: ""},
		},
		Tools: []model.Tool{{
			Name:        "create_booking",
			Description: "Book a slot",
			Parameters:  []byte(`{"type":"object","properties":{"date":{"type":"string"}},"required":["date"],"additionalProperties":false}`),
			Strict:      true,
		}, {Name: "ping"}},
		ToolChoice:     &model.ToolChoice{Mode: "function", Name: "create_booking"},
		ResponseFormat: &model.ResponseFormat{Type: "json_schema", Name: "answer", Schema: []byte(`{"type":"object","properties":{"a":{"type":"string"}}}`), Strict: true},
		Temperature:    ptr(0.0),
		TopP:           ptr(0.9),
		Stop:           []string{"\n\n", "END"},
		Seed:           ptr(int64(42)),
		MaxTokens:      256,
		User:           "u_1",

		ParallelToolCalls: ptr(false),
		Logprobs:          ptr(true),
		TopLogprobs:       ptr(3),
		FrequencyPenalty:  ptr(-0.5),
		PresencePenalty:   ptr(1.25),
	}
}

const richWire = `{
	"model": "gpt-test",
	"messages": [
		{"role": "system", "content": "Be brief."},
		{"role": "user", "name": "ana", "content": [
			{"type": "text", "text": "What is this?"},
			{"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "low"}},
			{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
		]},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "call_1", "type": "function", "function": {"name": "create_booking", "arguments": "{\"date\":\"2026-10-01\"}"}}
		]},
		{"role": "tool", "tool_call_id": "call_1", "content": "{\"ok\":true}"},
		{"role": "assistant", "content": "Booked."},
		{"role": "user", "content": ""}
	],
	"tools": [
		{"type": "function", "function": {"name": "create_booking", "description": "Book a slot", "strict": true,
			"parameters": {"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"], "additionalProperties": false}}},
		{"type": "function", "function": {"name": "ping"}}
	],
	"tool_choice": {"type": "function", "function": {"name": "create_booking"}},
	"response_format": {"type": "json_schema", "json_schema": {"name": "answer", "strict": true,
		"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}},
	"temperature": 0,
	"top_p": 0.9,
	"stop": ["\n\n", "END"],
	"seed": 42,
	"max_tokens": 256,
	"user": "u_1",
	"parallel_tool_calls": false,
	"logprobs": true,
	"top_logprobs": 3,
	"frequency_penalty": -0.5,
	"presence_penalty": 1.25
}`

// wireLogprobs is a choice's logprobs as OpenAI writes them.
const wireLogprobs = `{"content":[{"token":"{","logprob":-0.01,"bytes":[123],"top_logprobs":[{"token":"{","logprob":-0.01,"bytes":[123]}]}],"refusal":null}`

func TestCompleteSendsRequestFaithfully(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 200, `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test-2026",
			"choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\":\"a cat\"}","refusal":null},"logprobs":`+wireLogprobs+`,"finish_reason":"stop"}],
			"usage":{"prompt_tokens":31,"completion_tokens":7,"total_tokens":38,"prompt_tokens_details":{"cached_tokens":0}}}`)
	})
	c, _ := u.client(Options{})
	got, err := c.Complete(context.Background(), richRequest())
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, u.body(t, 0), richWire)
	if p := u.req(0).path; p != "/v1/chat/completions" {
		t.Errorf("path %q", p)
	}
	h := u.req(0).header
	if h.Get("Authorization") != "Bearer "+testKey || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", h)
	}
	want := model.Response{
		ID: "chatcmpl-1", Model: "gpt-test-2026", Created: 1700000000, FinishReason: model.FinishStop,
		Message:  model.Message{Role: model.RoleAssistant, Content: `{"a":"a cat"}`},
		Usage:    model.Usage{PromptTokens: 31, CompletionTokens: 7, TotalTokens: 38},
		Logprobs: []byte(wireLogprobs), // as the upstream gave them
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestEncodeChoicesAndFormats(t *testing.T) {
	c := New(Options{BaseURL: "http://127.0.0.1/v1", Model: "m"}, nil)
	tests := []struct {
		name  string
		req   model.Request
		want  string // the fields that matter, beside model and messages
		field string // the param named when the request is refused
	}{
		{"auto", model.Request{ToolChoice: &model.ToolChoice{Mode: "auto"}}, `{"tool_choice":"auto"}`, ""},
		{"none", model.Request{ToolChoice: &model.ToolChoice{Mode: "none"}}, `{"tool_choice":"none"}`, ""},
		{"required", model.Request{ToolChoice: &model.ToolChoice{Mode: "required"}}, `{"tool_choice":"required"}`, ""},
		{"name only", model.Request{ToolChoice: &model.ToolChoice{Name: "f"}}, `{"tool_choice":{"type":"function","function":{"name":"f"}}}`, ""},
		{"bad mode", model.Request{ToolChoice: &model.ToolChoice{Mode: "any"}}, ``, "tool_choice"},
		{"json_object", model.Request{ResponseFormat: &model.ResponseFormat{Type: "json_object"}}, `{"response_format":{"type":"json_object"}}`, ""},
		{"text", model.Request{ResponseFormat: &model.ResponseFormat{Type: "text"}}, `{"response_format":{"type":"text"}}`, ""},
		{"schema without name", model.Request{ResponseFormat: &model.ResponseFormat{Type: "json_schema", Schema: []byte(`{"type":"object"}`)}},
			`{"response_format":{"type":"json_schema","json_schema":{"name":"response","schema":{"type":"object"}}}}`, ""},
		{"bad schema", model.Request{ResponseFormat: &model.ResponseFormat{Type: "json_schema", Schema: []byte(`{`)}}, ``, "response_format.json_schema.schema"},
		{"bad format", model.Request{ResponseFormat: &model.ResponseFormat{Type: "yaml"}}, ``, "response_format.type"},
		{"bad parameters", model.Request{Tools: []model.Tool{{Name: "a"}, {Name: "b", Parameters: []byte(`{"type":`)}}}, ``, "tools[1].function.parameters"},
		{"bad part", model.Request{Messages: []model.Message{{Role: "user"}, {Role: "user", Parts: []model.Part{{Type: "text"}, {Type: "audio"}}}}}, ``, "messages[1].content[1].type"},
		{"zeros stay out", model.Request{Model: "other", MaxTokens: 0}, `{"model":"other"}`, ""},
		{"stream", model.Request{}, `{"stream":true,"stream_options":{"include_usage":true}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := c.encodeChat(tt.req, tt.name == "stream")
			if tt.field != "" {
				if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.field {
					t.Fatalf("err %v, want invalid_request naming %s", err, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			_ = json.Unmarshal(b, &got)
			want := map[string]any{"model": "m", "messages": []any{}}
			_ = json.Unmarshal([]byte(tt.want), &want)
			if tt.req.Messages == nil {
				want["messages"] = []any{}
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("sent %s\nwant %s", g, w)
			}
		})
	}
}

func TestCompleteToolCall(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 200, `{"id":"chatcmpl-2","created":1700000001,"model":"gpt-test",
			"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
				{"id":"call_a","type":"function","function":{"name":"create_booking","arguments":"{\"date\":\"2026-10-01\",\"time\":\"10:00\"}"}},
				{"id":"call_b","type":"function","function":{"name":"notify","arguments":"{}"}}]},
			"finish_reason":"tool_calls"}],
			"usage":{"prompt_tokens":50,"completion_tokens":20}}`)
	})
	c, _ := u.client(Options{})
	got, err := c.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: "user", Content: "Book me in"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := model.Response{
		ID: "chatcmpl-2", Model: "gpt-test", Created: 1700000001, FinishReason: model.FinishToolCalls,
		Message: model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{
			{ID: "call_a", Name: "create_booking", Arguments: `{"date":"2026-10-01","time":"10:00"}`},
			{ID: "call_b", Name: "notify", Arguments: `{}`},
		}},
		Usage: model.Usage{PromptTokens: 50, CompletionTokens: 20, TotalTokens: 70},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// sse writes one event and flushes it.
func sse(w http.ResponseWriter, data string) {
	_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func TestStreamChunkByChunk(t *testing.T) {
	head := `"id":"chatcmpl-3","object":"chat.completion.chunk","created":1700000002,"model":"gpt-test"`
	events := []struct {
		data string
		want *model.Chunk // nil: nothing is passed on
	}{
		{`{` + head + `,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}`, nil},
		{`{` + head + `,"choices":[{"index":0,"delta":{"content":"Let me "},"finish_reason":null}],"usage":null}`, &model.Chunk{Content: "Let me "}},
		{`{` + head + `,"choices":[{"index":0,"delta":{"content":"book."},"finish_reason":null}],"usage":null}`, &model.Chunk{Content: "book."}},
		{`{` + head + `,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"create_booking","arguments":""}}]},"finish_reason":null}]}`,
			&model.Chunk{ToolCalls: []model.ToolCallDelta{{Index: 0, ID: "call_a", Name: "create_booking"}}}},
		{`{` + head + `,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"date\":"}}]},"finish_reason":null}]}`,
			&model.Chunk{ToolCalls: []model.ToolCallDelta{{Index: 0, Arguments: `{"date":`}}}},
		{`{` + head + `,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"2026-10-01\"}"}}]},"finish_reason":null}]}`,
			&model.Chunk{ToolCalls: []model.ToolCallDelta{{Index: 0, Arguments: `"2026-10-01"}`}}}},
		{`{` + head + `,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"notify","arguments":"{}"}}]},"finish_reason":null}]}`,
			&model.Chunk{ToolCalls: []model.ToolCallDelta{{Index: 1, ID: "call_b", Name: "notify", Arguments: "{}"}}}},
		{`{` + head + `,"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null}`, &model.Chunk{FinishReason: "tool_calls"}},
		{`{` + head + `,"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29}}`,
			&model.Chunk{Usage: &model.Usage{PromptTokens: 20, CompletionTokens: 9, TotalTokens: 29}}},
		{`[DONE]`, nil},
	}
	acks := make(chan struct{})
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, ": keep-alive\n\n")
		for _, ev := range events {
			sse(w, ev.data)
			if ev.want == nil {
				continue
			}
			// The next event is written only once the client has passed this one on: a client
			// that buffered the stream would never get there.
			select {
			case <-acks:
			case <-time.After(5 * time.Second):
				t.Errorf("the client did not pass on %s", ev.data)
				return
			}
		}
	})
	c, _ := u.client(Options{})
	var got []model.Chunk
	resp, err := c.Stream(context.Background(), model.Request{Messages: []model.Message{{Role: "user", Content: "Book me in"}}}, func(ch model.Chunk) error {
		got = append(got, ch)
		acks <- struct{}{}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []model.Chunk
	for _, ev := range events {
		if ev.want != nil {
			want = append(want, *ev.want)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunks\n%+v\nwant\n%+v", got, want)
	}
	wantResp := model.Response{
		ID: "chatcmpl-3", Model: "gpt-test", Created: 1700000002, FinishReason: model.FinishToolCalls,
		Message: model.Message{Role: model.RoleAssistant, Content: "Let me book.", ToolCalls: []model.ToolCall{
			{ID: "call_a", Name: "create_booking", Arguments: `{"date":"2026-10-01"}`},
			{ID: "call_b", Name: "notify", Arguments: "{}"},
		}},
		Usage: model.Usage{PromptTokens: 20, CompletionTokens: 9, TotalTokens: 29},
	}
	if !reflect.DeepEqual(resp, wantResp) {
		t.Errorf("response %+v\nwant %+v", resp, wantResp)
	}
	body := u.body(t, 0)
	if body["stream"] != true || !reflect.DeepEqual(body["stream_options"], map[string]any{"include_usage": true}) {
		t.Errorf("stream fields %v %v", body["stream"], body["stream_options"])
	}
	if a := u.req(0).header.Get("Accept"); a != "text/event-stream" {
		t.Errorf("Accept %q", a)
	}
}

func TestStreamToolCallsAllNumberedZero(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		sse(w, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}}]}`)
		sse(w, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{\"x\":1}"}}]}}]}`)
		sse(w, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		sse(w, `[DONE]`)
	})
	c, _ := u.client(Options{})
	var idx []int
	resp, err := c.Stream(context.Background(), model.Request{}, func(ch model.Chunk) error {
		for _, d := range ch.ToolCalls {
			idx = append(idx, d.Index)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.ToolCall{{ID: "a", Name: "f", Arguments: "{}"}, {ID: "b", Name: "g", Arguments: `{"x":1}`}}
	if !reflect.DeepEqual(resp.Message.ToolCalls, want) || !slices.Equal(idx, []int{0, 1}) {
		t.Errorf("calls %+v, indexes %v", resp.Message.ToolCalls, idx)
	}
}

// step is one answer of the fake upstream.
type step struct {
	status int
	header map[string]string
	body   string
}

func (s step) write(w http.ResponseWriter) {
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	reply(w, s.status, s.body)
}

const okReply = `{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`

func TestCompleteErrors(t *testing.T) {
	ok := step{200, nil, okReply}
	e500 := step{500, nil, `{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}`}
	tests := []struct {
		name     string
		steps    []step // the last one repeats
		code     domain.Code
		field    string
		attempts int
		minGap   time.Duration // between the first two attempts
		retryAft time.Duration
		errLogs  int
	}{
		{"500 then success", []step{e500, e500, ok}, "", "", 3, 0, 0, 0},
		{"502 without a body then success", []step{{502, nil, "bad gateway"}, ok}, "", "", 2, 0, 0, 0},
		{"429 with retry-after-ms", []step{{429, map[string]string{"Retry-After-Ms": "120"}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`}, ok}, "", "", 2, 120 * time.Millisecond, 0, 0},
		{"429 with Retry-After", []step{{429, map[string]string{"Retry-After": "1"}, `{"error":{"message":"slow down"}}`}, ok}, "", "", 2, time.Second, 0, 0},
		{"persistent 500", []step{e500}, domain.CodeModelUnavailable, "", 3, 0, 0, 0},
		{"persistent 429 keeps its Retry-After", []step{{429, map[string]string{"Retry-After-Ms": "5"}, `{}`}}, domain.CodeModelUnavailable, "", 3, 5 * time.Millisecond, 5 * time.Millisecond, 0},
		{"503 told not to retry", []step{{503, map[string]string{"X-Should-Retry": "false"}, `{}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 0},
		{"401 wrong key", []step{{401, nil, `{"error":{"message":"Incorrect API key provided: sk-test-***3210.","type":"invalid_request_error","code":"invalid_api_key"}}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 1},
		{"403", []step{{403, nil, `{"error":{"message":"forbidden"}}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 1},
		{"quota", []step{{429, nil, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 1},
		{"model not found", []step{{404, nil, `{"error":{"message":"The model gpt-x does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 1},
		{"wrong base path", []step{{404, nil, `404 page not found`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 1},
		{"azure content filter", []step{{400, nil, `{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI's content management policy.","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation"}}}`}}, domain.CodeContentPolicy, "", 1, 0, 0, 0},
		{"openai flagged prompt", []step{{400, nil, `{"error":{"message":"Invalid prompt: your prompt was flagged as potentially violating our usage policy.","type":"invalid_request_error","param":null,"code":"invalid_prompt"}}`}}, domain.CodeContentPolicy, "", 1, 0, 0, 0},
		{"content_policy_violation", []step{{400, nil, `{"error":{"message":"rejected by our safety system","type":"invalid_request_error","code":"content_policy_violation"}}`}}, domain.CodeContentPolicy, "", 1, 0, 0, 0},
		{"filtered reply", []step{{200, nil, `{"choices":[{"index":0,"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}]}`}}, domain.CodeContentPolicy, "", 1, 0, 0, 0},
		{"model refusal", []step{{200, nil, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`}}, domain.CodeContentPolicy, "", 1, 0, 0, 0},
		{"400 with param", []step{{400, nil, `{"error":{"message":"Invalid 'messages[0].content': string too long.","type":"invalid_request_error","param":"messages[0].content","code":"string_above_max_length"}}`}}, domain.CodeInvalidRequest, "messages[0].content", 1, 0, 0, 0},
		{"422 vLLM", []step{{422, nil, `{"object":"error","message":"temperature must be non-negative","type":"BadRequestError","param":"temperature","code":422}`}}, domain.CodeInvalidRequest, "temperature", 1, 0, 0, 0},
		{"400 Ollama string error", []step{{400, nil, `{"error":"invalid message format"}`}}, domain.CodeInvalidRequest, "", 1, 0, 0, 0},
		{"413", []step{{413, nil, `request entity too large`}}, domain.CodeInputTooLarge, "", 1, 0, 0, 0},
		{"not JSON", []step{{200, nil, `<html>`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 0},
		{"no choices", []step{{200, nil, `{"choices":[]}`}}, domain.CodeModelUnavailable, "", 1, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
				tt.steps[min(n, len(tt.steps)-1)].write(w)
			})
			c, logs := u.client(Options{})
			resp, err := c.Complete(context.Background(), model.Request{Messages: []model.Message{{Role: "user", Content: "hi"}}})
			if got := u.attempts(); got != tt.attempts {
				t.Errorf("%d attempts, want %d", got, tt.attempts)
			}
			if tt.code == "" {
				if err != nil || resp.Message.Content != "hi" {
					t.Fatalf("got %+v, %v", resp, err)
				}
			} else {
				e, ok := domain.AsError(err)
				if !ok || e.Code != tt.code || e.Field != tt.field {
					t.Fatalf("err %v, want %s naming %q", err, tt.code, tt.field)
				}
				if e.RetryAfter != tt.retryAft {
					t.Errorf("RetryAfter %v, want %v", e.RetryAfter, tt.retryAft)
				}
				if tt.code == domain.CodeModelUnavailable && e.Message != unavailableMsg {
					t.Errorf("message %q", e.Message)
				}
			}
			if tt.minGap > 0 {
				if gap := u.req(1).at.Sub(u.req(0).at); gap < tt.minGap {
					t.Errorf("retried after %v, want at least %v", gap, tt.minGap)
				}
			}
			if n := logs.FilterLevelExact(zapcore.ErrorLevel).Len(); n != tt.errLogs {
				t.Errorf("%d error logs, want %d", n, tt.errLogs)
			}
		})
	}
}

func TestStreamRetries(t *testing.T) {
	tests := []struct {
		name     string
		handle   func(w http.ResponseWriter, n int)
		code     domain.Code
		attempts int
		chunks   int
	}{
		{"500 before the stream", func(w http.ResponseWriter, n int) {
			if n == 0 {
				reply(w, 500, `{}`)
				return
			}
			sse(w, `{"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`)
			sse(w, `[DONE]`)
		}, "", 2, 1},
		{"cut before anything was passed on", func(w http.ResponseWriter, n int) {
			sse(w, `{"choices":[{"index":0,"delta":{"role":"assistant"}}]}`)
			if n == 0 {
				return // ends without finishing
			}
			sse(w, `{"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}`)
		}, "", 2, 1},
		{"cut after a piece was passed on", func(w http.ResponseWriter, n int) {
			sse(w, `{"choices":[{"index":0,"delta":{"content":"half"}}]}`)
		}, domain.CodeModelUnavailable, 1, 1},
		{"error event first", func(w http.ResponseWriter, n int) {
			sse(w, `{"error":{"message":"overloaded","type":"server_error"}}`)
		}, domain.CodeModelUnavailable, 3, 0},
		{"error event after a piece", func(w http.ResponseWriter, n int) {
			sse(w, `{"choices":[{"index":0,"delta":{"content":"half"}}]}`)
			_, _ = io.WriteString(w, "event: error\ndata: {\"message\":\"overloaded\"}\n\n")
		}, domain.CodeModelUnavailable, 1, 1},
		{"content filter event", func(w http.ResponseWriter, n int) {
			sse(w, `{"error":{"message":"filtered","code":"content_filter"}}`)
		}, domain.CodeContentPolicy, 1, 0},
		{"filtered to nothing", func(w http.ResponseWriter, n int) {
			sse(w, `{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}`)
			sse(w, `[DONE]`)
		}, domain.CodeContentPolicy, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "text/event-stream")
				tt.handle(w, n)
			})
			c, _ := u.client(Options{})
			chunks := 0
			resp, err := c.Stream(context.Background(), model.Request{}, func(model.Chunk) error { chunks++; return nil })
			if u.attempts() != tt.attempts || chunks != tt.chunks {
				t.Errorf("%d attempts and %d chunks, want %d and %d", u.attempts(), chunks, tt.attempts, tt.chunks)
			}
			if tt.code == "" {
				if err != nil || resp.Message.Content != "ok" || resp.FinishReason != "stop" {
					t.Fatalf("got %+v, %v", resp, err)
				}
				return
			}
			if got := domain.ErrorCode(err); got != tt.code {
				t.Fatalf("err %v, want %s", err, tt.code)
			}
		})
	}
}

func TestStreamCallbackErrorStops(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		sse(w, `{"choices":[{"index":0,"delta":{"content":"a"}}]}`)
		sse(w, `{"choices":[{"index":0,"delta":{"content":"b"}}]}`)
	})
	c, _ := u.client(Options{})
	stop := errors.New("client went away")
	calls := 0
	_, err := c.Stream(context.Background(), model.Request{}, func(model.Chunk) error { calls++; return stop })
	if err != stop || calls != 1 || u.attempts() != 1 {
		t.Fatalf("err %v after %d calls and %d attempts", err, calls, u.attempts())
	}
}

func TestTimeouts(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	t.Run("whole call", func(t *testing.T) {
		u := newUpstream(t, hang)
		c, _ := u.client(Options{Timeout: 50 * time.Millisecond, MaxRetries: 1})
		_, err := c.Complete(context.Background(), model.Request{})
		if domain.ErrorCode(err) != domain.CodeModelUnavailable || u.attempts() != 2 {
			t.Fatalf("err %v after %d attempts", err, u.attempts())
		}
	})
	t.Run("stream idle after a piece", func(t *testing.T) {
		u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
			for range 4 { // pieces closer together than the timeout keep the stream alive
				sse(w, `{"choices":[{"index":0,"delta":{"content":"a"}}]}`)
				time.Sleep(60 * time.Millisecond)
			}
			hang(w, r, n)
		})
		c, _ := u.client(Options{Timeout: 150 * time.Millisecond})
		chunks := 0
		_, err := c.Stream(context.Background(), model.Request{}, func(model.Chunk) error { chunks++; return nil })
		if domain.ErrorCode(err) != domain.CodeModelUnavailable || chunks != 4 || u.attempts() != 1 {
			t.Fatalf("err %v, %d chunks, %d attempts", err, chunks, u.attempts())
		}
	})
	t.Run("caller cancels", func(t *testing.T) {
		u := newUpstream(t, hang)
		c, _ := u.client(Options{})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err := c.Complete(ctx, model.Request{})
		if err != context.Canceled {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		ctx, cancel = context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err = c.Stream(ctx, model.Request{}, nil)
		if err != context.Canceled {
			t.Fatalf("stream: err %v, want context.Canceled", err)
		}
	})
	t.Run("deadline shorter than the backoff", func(t *testing.T) {
		u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
			reply(w, 429, `{}`)
		})
		c, _ := u.client(Options{RetryBase: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		_, err := c.Complete(ctx, model.Request{})
		if domain.ErrorCode(err) != domain.CodeModelUnavailable || time.Since(start) > 500*time.Millisecond {
			t.Fatalf("err %v after %v", err, time.Since(start))
		}
	})
}

func TestGuardRefusesMetadataAddress(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := New(Options{BaseURL: "http://169.254.169.254/v1", Model: "m", RetryBase: time.Millisecond}, zap.New(core))
	_, err := c.Complete(context.Background(), model.Request{})
	if domain.ErrorCode(err) != domain.CodeModelUnavailable || logs.FilterLevelExact(zapcore.ErrorLevel).Len() != 1 {
		t.Fatalf("err %v, logs %v", err, logs.All())
	}
}

func TestKeyNeverInErrors(t *testing.T) {
	echo := func(status int) func(w http.ResponseWriter, r *http.Request, n int) {
		return func(w http.ResponseWriter, r *http.Request, n int) {
			auth := r.Header.Get("Authorization")
			if status == 200 {
				sse(w, fmt.Sprintf(`{"error":{"message":"bad header %s"}}`, auth))
				return
			}
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "you sent " + auth, "param": auth}})
			reply(w, status, string(b))
		}
	}
	for _, status := range []int{200, 400, 401, 403, 404, 422, 429, 500} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			u := newUpstream(t, echo(status))
			c, logs := u.client(Options{})
			var err error
			if status == 200 {
				_, err = c.Stream(context.Background(), model.Request{}, nil)
			} else {
				_, err = c.Complete(context.Background(), model.Request{})
			}
			if err == nil {
				t.Fatal("no error")
			}
			texts := []string{err.Error(), fmt.Sprintf("%+v", err)}
			if e, ok := domain.AsError(err); ok {
				texts = append(texts, e.Message, e.Field)
			}
			for _, l := range logs.All() {
				for _, v := range l.ContextMap() {
					texts = append(texts, fmt.Sprint(v))
				}
			}
			for _, s := range texts {
				if strings.Contains(s, testKey) {
					t.Fatalf("the key leaked: %s", s)
				}
			}
		})
	}
}

func TestEmbed(t *testing.T) {
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		var req struct {
			Input []string
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		// The vector of text "t<i>" is [i, dims]; the answer lists them backwards.
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			var k float32
			_, _ = fmt.Sscanf(req.Input[i], "t%g", &k)
			data = append(data, item{"embedding", i, []float32{k, 2}})
		}
		b, _ = json.Marshal(map[string]any{"object": "list", "data": data, "model": "embed-test"})
		reply(w, 200, string(b))
	})
	c, _ := u.client(Options{})
	texts := make([]string, 300)
	for i := range texts {
		texts[i] = fmt.Sprintf("t%d", i)
	}
	vs, err := c.Embed(context.Background(), texts, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if !slices.Equal(v, []float32{float32(i), 2}) {
			t.Fatalf("vector %d is %v", i, v)
		}
	}
	var batches []int
	for n := range u.attempts() {
		batches = append(batches, len(u.body(t, n)["input"].([]any)))
	}
	if !slices.Equal(batches, []int{128, 128, 44}) {
		t.Errorf("batches %v", batches)
	}
	body := u.body(t, 2)
	if body["input"].([]any)[0] != "t256" {
		t.Errorf("the last batch starts with %v", body["input"].([]any)[0])
	}
	delete(body, "input")
	sameJSON(t, body, `{"model":"embed-test","dimensions":2,"encoding_format":"float"}`)
	if r := u.req(0); r.path != "/v1/embeddings" || r.header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("path %q, headers %v", r.path, r.header)
	}

	if _, err := c.Embed(context.Background(), texts[:3], 0); err != nil {
		t.Fatal(err)
	}
	if _, ok := u.body(t, 3)["dimensions"]; ok {
		t.Error("dimensions sent for the default")
	}
	if _, err := c.Embed(context.Background(), texts[:1], 8); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Errorf("a vector of the wrong size: %v", err)
	}
	if vs, err := c.Embed(context.Background(), nil, 0); err != nil || len(vs) != 0 || u.attempts() != 5 {
		t.Errorf("no texts: %v, %v, %d requests", vs, err, u.attempts())
	}
}

func TestEmbedBadAnswers(t *testing.T) {
	tests := []struct{ name, body string }{
		{"too few", `{"data":[{"index":0,"embedding":[1]}]}`},
		{"repeated index", `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`},
		{"index out of range", `{"data":[{"index":0,"embedding":[1]},{"index":2,"embedding":[1]}]}`},
		{"empty vector", `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[]}]}`},
		{"base64", `{"data":[{"index":0,"embedding":"AACAPw=="},{"index":1,"embedding":"AACAPw=="}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) { reply(w, 200, tt.body) })
			c, _ := u.client(Options{})
			if _, err := c.Embed(context.Background(), []string{"a", "b"}, 0); domain.ErrorCode(err) != domain.CodeModelUnavailable {
				t.Errorf("err %v", err)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 9, 24, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{map[string]string{"Retry-After": now.Add(7 * time.Second).Format(http.TimeFormat)}, 7 * time.Second},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "3", "Retry-After-Ms": "250"}, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.header, got, tt.want)
		}
	}
	c := New(Options{RetryBase: 100 * time.Millisecond}, nil)
	if got := c.backoff(0, time.Hour); got != maxRetryWait {
		t.Errorf("a long Retry-After gives %v, want the cap", got)
	}
	for attempt, hi := range []time.Duration{100, 200, 400} {
		hi *= time.Millisecond
		if got := c.backoff(attempt, 0); got < hi/2 || got > hi {
			t.Errorf("attempt %d: %v, want %v to %v", attempt, got, hi/2, hi)
		}
	}
}

func TestNoModelConfigured(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	c := New(Options{BaseURL: "http://127.0.0.1:1/v1"}, zap.New(core))
	if _, err := c.Complete(context.Background(), model.Request{}); domain.ErrorCode(err) != domain.CodeModelUnavailable {
		t.Errorf("chat: %v", err)
	}
	if _, err := c.Embed(context.Background(), []string{"a"}, 0); domain.ErrorCode(err) != domain.CodeModelUnavailable {
		t.Errorf("embed: %v", err)
	}
	if logs.FilterLevelExact(zapcore.ErrorLevel).Len() != 2 {
		t.Errorf("logs %v", logs.All())
	}
}

func TestLongUpstreamMessageIsCut(t *testing.T) {
	long := strings.Repeat("é", 3000)
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(w, 400, `{"error":{"message":"`+long+`","param":"messages"}}`)
	})
	c, _ := u.client(Options{})
	_, err := c.Complete(context.Background(), model.Request{})
	e, ok := domain.AsError(err)
	if !ok || e.Field != "messages" || len(e.Message) > maxMessageLen+len("…") || !utf8.ValidString(e.Message) {
		t.Fatalf("err %v", err)
	}
}

// An event longer than the stream reader's first buffer (4 KiB) is read whole: the buffer grows,
// up to MaxBodyBytes.
func TestStreamLongEvent(t *testing.T) {
	long := strings.Repeat("long text ", 20000) // 200 KB in one event
	u := newUpstream(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, `{"choices":[{"index":0,"delta":{"content":"`+long+`"},"finish_reason":"stop"}]}`)
		sse(w, `[DONE]`)
	})
	c, _ := u.client(Options{})
	var got strings.Builder
	resp, err := c.Stream(context.Background(), model.Request{}, func(ch model.Chunk) error {
		got.WriteString(ch.Content)
		return nil
	})
	if err != nil || resp.Message.Content != long || got.String() != long || resp.FinishReason != "stop" {
		t.Fatalf("%d bytes streamed, %d in the reply, %v", got.Len(), len(resp.Message.Content), err)
	}
}
