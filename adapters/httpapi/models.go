package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/app/models"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The model-compatible endpoints (spec part 4.8) speak the wire format of OpenAI's API, so that
// its SDKs and the tools built on them work unchanged. Their bodies are read leniently: fields
// this service does not use are ignored, as OpenAI-compatible servers do, while fields it cannot
// honour (n other than 1, functions, previous_response_id, built-in tools) are refused by name.

// modelLimit applies the model endpoints' limit, 60 requests a minute per account, as counted
// by authKey.
func (s *Server) modelLimit(c *gin.Context) {
	if !s.admitted(c, ratelimit.Model) {
		return
	}
	c.Next()
}

// Usage label headers (spec 4.8).
const (
	headerSource      = "X-Svc-Source"
	headerWorkflow    = "X-Svc-Workflow"
	headerWorkflowID  = "X-Svc-Workflow-Id"
	headerExecutionID = "X-Svc-Execution-Id"
)

// caller is the request's account and usage labels; a label that is too long or holds control
// characters is a 400 naming its header.
func caller(c *gin.Context) (models.Caller, error) {
	p, _ := principal(c)
	var l ledger.Labels
	for _, h := range []struct {
		name   string
		dst    *string
		decode bool
	}{
		{headerSource, &l.Source, false},
		{headerWorkflow, &l.Workflow, true},
		{headerWorkflowID, &l.WorkflowID, false},
		{headerExecutionID, &l.ExecutionID, false},
	} {
		v := strings.TrimSpace(c.GetHeader(h.name))
		if h.decode {
			if d, err := url.PathUnescape(v); err == nil {
				v = strings.TrimSpace(d)
			}
		}
		if !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return models.Caller{}, domain.Invalid(h.name, "the %s header must be printable UTF-8 text", h.name)
		}
		if n := utf8.RuneCountInString(v); n > ledger.MaxLabelLength {
			return models.Caller{}, domain.Invalid(h.name, "the %s header may have at most %d characters; it has %d", h.name, ledger.MaxLabelLength, n)
		}
		*h.dst = v
	}
	return models.Caller{Account: p.Account, Usage: p.Usage, Labels: l}, nil
}

// present reports whether a raw JSON member was sent with a value other than null.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

// newCompletionID is an id of OpenAI's form, chatcmpl-….
func newCompletionID() string { return "chatcmpl-" + strings.TrimPrefix(ident.New("c"), "c_") }

// ---------------------------------------------------------------------------------------------
// Request of POST /v1/chat/completions

type chatCompletionIn struct {
	Model               string            `json:"model"`
	Messages            []chatMessageIn   `json:"messages"`
	Tools               []chatToolIn      `json:"tools"`
	ToolChoice          json.RawMessage   `json:"tool_choice"`
	ResponseFormat      *responseFormatIn `json:"response_format"`
	Temperature         *float64          `json:"temperature"`
	TopP                *float64          `json:"top_p"`
	Stop                json.RawMessage   `json:"stop"`
	Seed                *int64            `json:"seed"`
	MaxTokens           *int              `json:"max_tokens"`
	MaxCompletionTokens *int              `json:"max_completion_tokens"`
	Stream              *bool             `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage *bool `json:"include_usage"`
	} `json:"stream_options"`
	N            *int            `json:"n"`
	Functions    json.RawMessage `json:"functions"`
	FunctionCall json.RawMessage `json:"function_call"`
}

type chatMessageIn struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Name         string          `json:"name"`
	ToolCalls    []toolCallJSON  `json:"tool_calls"`
	ToolCallID   string          `json:"tool_call_id"`
	FunctionCall json.RawMessage `json:"function_call"`
}

type contentPartIn struct {
	Type     string          `json:"type"`
	Text     *string         `json:"text"`
	Refusal  *string         `json:"refusal"`
	ImageURL json.RawMessage `json:"image_url"`
}

type chatToolIn struct {
	Type     string `json:"type"`
	Function *struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      *bool           `json:"strict"`
	} `json:"function"`
}

type responseFormatIn struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict *bool           `json:"strict"`
	} `json:"json_schema"`
}

// toolCallJSON is a tool call, in and out.
type toolCallJSON struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function toolCallFunction `json:"function"`
}

type toolCallFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chatRequestOf turns the wire request into the domain's, refusing what cannot be served.
func chatRequestOf(in chatCompletionIn) (model.Request, error) {
	switch {
	case in.N != nil && *in.N != 1:
		return model.Request{}, domain.Invalid("n", "n must be 1: one choice per request")
	case present(in.Functions):
		return model.Request{}, domain.Invalid("functions", "functions is not supported; use tools")
	case present(in.FunctionCall):
		return model.Request{}, domain.Invalid("function_call", "function_call is not supported; use tool_choice")
	}
	req := model.Request{Temperature: in.Temperature, TopP: in.TopP, Seed: in.Seed}
	if err := checkSampling(in.Temperature, in.TopP); err != nil {
		return model.Request{}, err
	}
	for i, m := range in.Messages {
		msg, err := chatMessageOf(i, m)
		if err != nil {
			return model.Request{}, err
		}
		req.Messages = append(req.Messages, msg)
	}
	for i, t := range in.Tools {
		if t.Type != "function" || t.Function == nil {
			return model.Request{}, domain.Invalid(fmt.Sprintf("tools[%d].type", i), "only function tools are supported")
		}
		tool, err := toolOf(fmt.Sprintf("tools[%d].function", i), t.Function.Name, t.Function.Description, t.Function.Parameters, t.Function.Strict)
		if err != nil {
			return model.Request{}, err
		}
		req.Tools = append(req.Tools, tool)
	}
	var err error
	if req.ToolChoice, err = toolChoiceOf(in.ToolChoice, len(req.Tools) > 0); err != nil {
		return model.Request{}, err
	}
	if rf := in.ResponseFormat; rf != nil {
		req.ResponseFormat = &model.ResponseFormat{Type: rf.Type}
		if rf.Type == "json_schema" {
			if rf.JSONSchema == nil {
				return model.Request{}, domain.Invalid("response_format.json_schema", "json_schema is required with type json_schema")
			}
			req.ResponseFormat.Name = rf.JSONSchema.Name
			req.ResponseFormat.Schema = rf.JSONSchema.Schema
			req.ResponseFormat.Strict = rf.JSONSchema.Strict != nil && *rf.JSONSchema.Strict
		}
	}
	if req.Stop, err = stopOf(in.Stop); err != nil {
		return model.Request{}, err
	}
	if req.MaxTokens, err = maxTokensOf("max_completion_tokens", in.MaxCompletionTokens); err != nil {
		return model.Request{}, err
	}
	if req.MaxTokens == 0 {
		if req.MaxTokens, err = maxTokensOf("max_tokens", in.MaxTokens); err != nil {
			return model.Request{}, err
		}
	}
	return req, nil
}

func checkSampling(temperature, topP *float64) error {
	if t := temperature; t != nil && (*t < 0 || *t > 2) {
		return domain.Invalid("temperature", "temperature must be between 0 and 2")
	}
	if p := topP; p != nil && (*p < 0 || *p > 1) {
		return domain.Invalid("top_p", "top_p must be between 0 and 1")
	}
	return nil
}

func maxTokensOf(param string, v *int) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 {
		return 0, domain.Invalid(param, "%s must be at least 1", param)
	}
	return *v, nil
}

func chatMessageOf(i int, m chatMessageIn) (model.Message, error) {
	at := fmt.Sprintf("messages[%d]", i)
	if present(m.FunctionCall) {
		return model.Message{}, domain.Invalid(at+".function_call", "function_call is not supported; use tool_calls")
	}
	msg := model.Message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	for j, tc := range m.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return model.Message{}, domain.Invalid(fmt.Sprintf("%s.tool_calls[%d].type", at, j), "only function tool calls are supported")
		}
		msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	raw := bytes.TrimSpace(m.Content)
	switch {
	case !present(raw):
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &msg.Content); err != nil {
			return model.Message{}, domain.Invalid(at+".content", "content must be a string or an array of parts")
		}
	case raw[0] == '[':
		var parts []contentPartIn
		if err := json.Unmarshal(raw, &parts); err != nil {
			return model.Message{}, domain.Invalid(at+".content", "content must be a string or an array of parts")
		}
		for j, p := range parts {
			part, err := partOf(fmt.Sprintf("%s.content[%d]", at, j), p)
			if err != nil {
				return model.Message{}, err
			}
			msg.Parts = append(msg.Parts, part)
		}
	default:
		return model.Message{}, domain.Invalid(at+".content", "content must be a string or an array of parts")
	}
	return msg, nil
}

func partOf(at string, p contentPartIn) (model.Part, error) {
	switch p.Type {
	case "text":
		if p.Text == nil {
			return model.Part{}, domain.Invalid(at+".text", "a text part needs its text")
		}
		return model.Part{Type: "text", Text: *p.Text}, nil
	case "refusal":
		if p.Refusal == nil {
			return model.Part{}, domain.Invalid(at+".refusal", "a refusal part needs its refusal")
		}
		return model.Part{Type: "text", Text: *p.Refusal}, nil
	case "image_url":
		var img struct {
			URL    string `json:"url"`
			Detail string `json:"detail"`
		}
		raw := bytes.TrimSpace(p.ImageURL)
		var err error
		switch {
		case len(raw) > 0 && raw[0] == '"':
			err = json.Unmarshal(raw, &img.URL)
		case present(raw):
			err = json.Unmarshal(raw, &img)
		}
		if err != nil || img.URL == "" {
			return model.Part{}, domain.Invalid(at+".image_url", "an image part needs image_url.url")
		}
		return model.Part{Type: "image_url", ImageURL: img.URL, Detail: img.Detail}, nil
	}
	return model.Part{}, domain.Invalid(at+".type", "a content part is text or image_url, not %s", domain.Quote(p.Type))
}

func toolOf(at, name, description string, params json.RawMessage, strict *bool) (model.Tool, error) {
	t := model.Tool{Name: name, Description: description, Strict: strict != nil && *strict}
	if present(params) {
		if p := bytes.TrimSpace(params); p[0] != '{' {
			return model.Tool{}, domain.Invalid(at+".parameters", "parameters must be a JSON Schema object")
		}
		t.Parameters = params
	}
	return t, nil
}

// toolChoiceOf reads tool_choice: "auto", "none", "required", or a named function in the
// chat-completions form {"type":"function","function":{"name":…}} or the Responses form
// {"type":"function","name":…}. Without tools, auto and none are dropped.
func toolChoiceOf(raw json.RawMessage, haveTools bool) (*model.ToolChoice, error) {
	if !present(raw) {
		return nil, nil
	}
	var mode string
	if json.Unmarshal(raw, &mode) == nil {
		switch mode {
		case "auto", "none":
			if !haveTools {
				return nil, nil
			}
			return &model.ToolChoice{Mode: mode}, nil
		case "required":
			if !haveTools {
				return nil, domain.Invalid("tool_choice", "tool_choice required needs tools")
			}
			return &model.ToolChoice{Mode: mode}, nil
		}
		return nil, domain.Invalid("tool_choice", "tool_choice must be auto, none, required or a function")
	}
	var named struct {
		Type     string `json:"type"`
		Name     string `json:"name"`
		Function *struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &named); err != nil || named.Type != "function" {
		return nil, domain.Invalid("tool_choice", "tool_choice must be auto, none, required or a function")
	}
	name := named.Name
	if named.Function != nil {
		name = named.Function.Name
	}
	if name == "" {
		return nil, domain.Invalid("tool_choice", "tool_choice names no function")
	}
	return &model.ToolChoice{Mode: "function", Name: name}, nil
}

func stopOf(raw json.RawMessage) ([]string, error) {
	if !present(raw) {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, domain.Invalid("stop", "stop must be a string or an array of strings")
	}
	if len(many) > 4 {
		return nil, domain.Invalid("stop", "at most 4 stop sequences")
	}
	return many, nil
}

// ---------------------------------------------------------------------------------------------
// Response of POST /v1/chat/completions

type chatCompletionJSON struct {
	ID      string           `json:"id"`
	Object  string           `json:"object"`
	Created int64            `json:"created"`
	Model   string           `json:"model"`
	Choices []chatChoiceJSON `json:"choices"`
	Usage   chatUsageJSON    `json:"usage"`
	Svc     interactionsJSON `json:"svc"`
}

type chatChoiceJSON struct {
	Index        int                  `json:"index"`
	Message      assistantMessageJSON `json:"message"`
	Logprobs     *struct{}            `json:"logprobs"`
	FinishReason string               `json:"finish_reason"`
}

type assistantMessageJSON struct {
	Role        string         `json:"role"`
	Content     *string        `json:"content"`
	Refusal     *string        `json:"refusal"`
	ToolCalls   []toolCallJSON `json:"tool_calls,omitempty"`
	Annotations []struct{}     `json:"annotations"`
}

type chatUsageJSON struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
		AudioTokens  int `json:"audio_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens          int `json:"reasoning_tokens"`
		AudioTokens              int `json:"audio_tokens"`
		AcceptedPredictionTokens int `json:"accepted_prediction_tokens"`
		RejectedPredictionTokens int `json:"rejected_prediction_tokens"`
	} `json:"completion_tokens_details"`
}

func chatUsageOf(u model.Usage) chatUsageJSON {
	return chatUsageJSON{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}

func toolCallsOf(calls []model.ToolCall) []toolCallJSON {
	out := make([]toolCallJSON, 0, len(calls))
	for _, tc := range calls {
		out = append(out, toolCallJSON{ID: tc.ID, Type: "function", Function: toolCallFunction{Name: tc.Name, Arguments: tc.Arguments}})
	}
	return out
}

func chatCompletionOf(r models.Reply) chatCompletionJSON {
	msg := assistantMessageJSON{Role: model.RoleAssistant, Annotations: []struct{}{}}
	if r.Message.Content != "" || len(r.Message.ToolCalls) == 0 {
		content := r.Message.Content
		msg.Content = &content
	}
	if len(r.Message.ToolCalls) > 0 {
		msg.ToolCalls = toolCallsOf(r.Message.ToolCalls)
	}
	return chatCompletionJSON{ID: r.ID, Object: "chat.completion", Created: r.Created.Unix(), Model: r.Model,
		Choices: []chatChoiceJSON{{Index: 0, Message: msg, FinishReason: r.FinishReason}},
		Usage:   chatUsageOf(r.Usage), Svc: interactionsOf(r.Interactions)}
}

// chat.completion.chunk

type chunkJSON struct {
	ID      string            `json:"id"`
	Object  string            `json:"object"`
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []chunkChoiceJSON `json:"choices"`
	Usage   *chatUsageJSON    `json:"usage,omitempty"`
	Svc     *interactionsJSON `json:"svc,omitempty"`
}

type chunkChoiceJSON struct {
	Index        int       `json:"index"`
	Delta        deltaJSON `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type deltaJSON struct {
	Role      string          `json:"role,omitempty"`
	Content   *string         `json:"content,omitempty"`
	ToolCalls []toolDeltaJSON `json:"tool_calls,omitempty"`
}

type toolDeltaJSON struct {
	Index    int            `json:"index"`
	ID       string         `json:"id,omitempty"`
	Type     string         `json:"type,omitempty"`
	Function *functionDelta `json:"function,omitempty"`
}

type functionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// ---------------------------------------------------------------------------------------------
// Server-sent events

// sse writes server-sent events, each flushed at once. It writes the headers with the first
// event, so that a request that fails before its first piece is answered with a plain error.
type sse struct {
	c       *gin.Context
	started bool
	buf     bytes.Buffer
}

func (w *sse) start() {
	if w.started {
		return
	}
	w.started = true
	h := w.c.Writer.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	w.c.Status(http.StatusOK)
	w.c.Writer.WriteHeaderNow()
}

// event writes one event: an "event:" line when name is set, the JSON of v (or raw text) on a
// "data:" line, and a blank line.
func (w *sse) event(name string, v any) error {
	w.start()
	w.buf.Reset()
	if name != "" {
		w.buf.WriteString("event: " + name + "\n")
	}
	w.buf.WriteString("data: ")
	if s, ok := v.(string); ok {
		w.buf.WriteString(s)
	} else {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.buf.Write(b)
	}
	w.buf.WriteString("\n\n")
	if _, err := w.c.Writer.Write(w.buf.Bytes()); err != nil {
		return err
	}
	w.c.Writer.Flush()
	return nil
}

// ---------------------------------------------------------------------------------------------
// Handlers

func (s *Server) chatCompletions(c *gin.Context) {
	who, err := caller(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var in chatCompletionIn
	if err := decode(c.Request.Body, &in, false); err != nil {
		s.fail(c, err)
		return
	}
	req, err := chatRequestOf(in)
	if err != nil {
		s.fail(c, err)
		return
	}
	chat := models.Chat{ID: newCompletionID(), Model: in.Model, Request: req}
	if in.Stream == nil || !*in.Stream {
		r, err := s.uc.Models.Complete(c.Request.Context(), who, chat)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.JSON(http.StatusOK, chatCompletionOf(r))
		return
	}
	includeUsage := in.StreamOptions != nil && in.StreamOptions.IncludeUsage != nil && *in.StreamOptions.IncludeUsage
	s.streamChat(c, who, chat, includeUsage)
}

// streamChat answers with chat.completion.chunk events: the role, then each piece as the
// upstream sends it, then (once the reply is checked and charged) the finish reason with the svc
// usage, the token usage when asked for, and [DONE]. A failure after the first piece ends the
// stream with an error event instead, and nothing is charged.
func (s *Server) streamChat(c *gin.Context, who models.Caller, chat models.Chat, includeUsage bool) {
	w := &sse{c: c}
	created := time.Now().Unix()
	reported := models.ReportedModel(chat.Model)
	chunk := func(choices []chunkChoiceJSON) chunkJSON {
		return chunkJSON{ID: chat.ID, Object: "chat.completion.chunk", Created: created, Model: reported, Choices: choices}
	}
	one := func(d deltaJSON, finish *string) []chunkChoiceJSON {
		return []chunkChoiceJSON{{Index: 0, Delta: d, FinishReason: finish}}
	}
	begin := func() error {
		if w.started {
			return nil
		}
		empty := ""
		return w.event("", chunk(one(deltaJSON{Role: model.RoleAssistant, Content: &empty}, nil)))
	}
	seen := map[int]bool{}
	r, err := s.uc.Models.Stream(c.Request.Context(), who, chat, func(ch model.Chunk) error {
		if err := begin(); err != nil {
			return err
		}
		var d deltaJSON
		if ch.Content != "" {
			d.Content = &ch.Content
		}
		for _, tc := range ch.ToolCalls {
			td := toolDeltaJSON{Index: tc.Index, Function: &functionDelta{Name: tc.Name, Arguments: tc.Arguments}}
			if !seen[tc.Index] {
				seen[tc.Index] = true
				td.ID, td.Type = tc.ID, "function"
			}
			d.ToolCalls = append(d.ToolCalls, td)
		}
		return w.event("", chunk(one(d, nil)))
	})
	if err != nil {
		s.streamFail(c, w, err, "", func(body errorBody) any { return errorEnvelope{Error: body} })
		return
	}
	if err := begin(); err != nil {
		return
	}
	svc := interactionsOf(r.Interactions)
	last := chunk(one(deltaJSON{}, &r.FinishReason))
	last.Svc = &svc
	if w.event("", last) != nil {
		return
	}
	if includeUsage {
		u := chatUsageOf(r.Usage)
		final := chunk([]chunkChoiceJSON{})
		final.Usage, final.Svc = &u, &svc
		if w.event("", final) != nil {
			return
		}
	}
	_ = w.event("", "[DONE]")
}

// streamFail answers err: with the envelope and its status while nothing was sent, else as the
// stream's last event (named name, shaped by shape from the mapped error).
func (s *Server) streamFail(c *gin.Context, w *sse, err error, name string, shape func(errorBody) any) {
	if !w.started {
		s.fail(c, err)
		return
	}
	if c.Request.Context().Err() != nil {
		return // the caller left
	}
	_, body := s.errorOf(c, err)
	_ = w.event(name, shape(body))
}

// ---------------------------------------------------------------------------------------------
// POST /v1/embeddings

type embeddingsIn struct {
	Input          json.RawMessage `json:"input"`
	Model          string          `json:"model"`
	Dimensions     *int            `json:"dimensions"`
	EncodingFormat string          `json:"encoding_format"`
}

type embeddingJSON struct {
	Object    string `json:"object"`
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

type embeddingsJSON struct {
	Object string          `json:"object"`
	Data   []embeddingJSON `json:"data"`
	Model  string          `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
	Svc interactionsJSON `json:"svc"`
}

// embedOf reads input: a text, a list of texts, a list of token ids, or a list of lists of ids.
func embedOf(in embeddingsIn) (models.Embed, error) {
	var e models.Embed
	if in.Dimensions != nil {
		if *in.Dimensions < 1 {
			return e, domain.Invalid("dimensions", "dimensions must be at least 1")
		}
		e.Dimensions = *in.Dimensions
	}
	raw := bytes.TrimSpace(in.Input)
	if !present(raw) {
		return e, domain.Invalid("input", "input is required: a text or a list of texts")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		e.Texts = []string{one}
		return e, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		return e, domain.Invalid("input", "input must be a text or a non-empty list of texts")
	}
	var texts []string
	if json.Unmarshal(raw, &texts) == nil {
		e.Texts = texts
		return e, nil
	}
	var ids []int
	if json.Unmarshal(raw, &ids) == nil {
		e.Tokens = [][]int{ids}
		return e, nil
	}
	var lists [][]int
	if json.Unmarshal(raw, &lists) == nil {
		e.Tokens = lists
		return e, nil
	}
	return e, domain.Invalid("input", "input must be a text, a list of texts, or token ids")
}

func (s *Server) embeddings(c *gin.Context) {
	who, err := caller(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var in embeddingsIn
	if err := decode(c.Request.Body, &in, false); err != nil {
		s.fail(c, err)
		return
	}
	if in.EncodingFormat != "" && in.EncodingFormat != "float" && in.EncodingFormat != "base64" {
		s.fail(c, domain.Invalid("encoding_format", "encoding_format must be float or base64"))
		return
	}
	e, err := embedOf(in)
	if err != nil {
		s.fail(c, err)
		return
	}
	v, err := s.uc.Models.Embed(c.Request.Context(), who, e)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := embeddingsJSON{Object: "list", Data: make([]embeddingJSON, len(v.Vectors)), Model: models.Embeddings,
		Svc: interactionsOf(v.Interactions)}
	for i, vec := range v.Vectors {
		item := embeddingJSON{Object: "embedding", Index: i}
		if in.EncodingFormat == "base64" {
			item.Embedding = base64Vector(vec)
		} else {
			item.Embedding = exactFloats(vec)
		}
		out.Data[i] = item
	}
	out.Usage.PromptTokens, out.Usage.TotalTokens = v.Tokens, v.Tokens
	c.JSON(http.StatusOK, out)
}

// exactFloats writes each float32 with the digits of its float64 value, so that a client reading
// the JSON numbers as float64 (every JSON library does) gets exactly the vector that base64 gives.
func exactFloats(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// base64Vector is OpenAI's base64 encoding of a vector: its float32 values, little-endian.
func base64Vector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// ---------------------------------------------------------------------------------------------
// GET /v1/usage

type statementLineJSON struct {
	Action       string  `json:"action"`
	Source       *string `json:"source"`
	Workflow     *string `json:"workflow"`
	WorkflowID   *string `json:"workflow_id"`
	ExecutionID  *string `json:"execution_id"`
	Requests     int     `json:"requests"`
	Interactions int     `json:"interactions"`
}

type statementJSON struct {
	Object string `json:"object"`
	Period struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"period"`
	Data              []statementLineJSON `json:"data"`
	TotalInteractions int                 `json:"total_interactions"`
}

// label is a label's value, or null when it was not set.
func label(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// timeParam reads a time query parameter: RFC 3339, a date (midnight UTC), or unix seconds.
func timeParam(c *gin.Context, name string) (time.Time, error) {
	v := strings.TrimSpace(c.Query(name))
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, domain.Invalid(name, "%s must be an RFC 3339 time, a date (YYYY-MM-DD) or unix seconds", name)
}

func (s *Server) usageStatement(c *gin.Context) {
	p, _ := principal(c)
	from, err := timeParam(c, "from")
	if err != nil {
		s.fail(c, err)
		return
	}
	to, err := timeParam(c, "to")
	if err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.uc.Models.Statement(c.Request.Context(), p.Account, from, to)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := statementJSON{Object: "usage_statement", Data: make([]statementLineJSON, 0, len(st.Lines)), TotalInteractions: st.Total}
	out.Period.From, out.Period.To = stamp(st.From), stamp(st.To)
	for _, l := range st.Lines {
		out.Data = append(out.Data, statementLineJSON{Action: string(l.Action), Source: label(l.Source), Workflow: label(l.Workflow),
			WorkflowID: label(l.WorkflowID), ExecutionID: label(l.ExecutionID), Requests: l.Requests, Interactions: l.Interactions})
	}
	c.JSON(http.StatusOK, out)
}

// ---------------------------------------------------------------------------------------------
// GET /v1/models, GET /v1/models/{model}: the catalogue, in OpenAI's form, for the tools that
// list models before they use one.

type modelJSON struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

type modelListJSON struct {
	Object string      `json:"object"`
	Data   []modelJSON `json:"data"`
}

func modelOf(m models.Listed) modelJSON {
	return modelJSON{ID: m.ID, Object: "model", Created: m.Created.Unix(), OwnedBy: "svc"}
}

func (s *Server) listModels(c *gin.Context) {
	out := modelListJSON{Object: "list"}
	for _, m := range models.Catalogue() {
		out.Data = append(out.Data, modelOf(m))
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) getModel(c *gin.Context) {
	m, err := models.Find(c.Param("model"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, modelOf(m))
}
