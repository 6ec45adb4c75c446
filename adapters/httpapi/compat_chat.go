package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
)

// POST /v1/chat/completions

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

	ParallelToolCalls *bool    `json:"parallel_tool_calls"`
	Logprobs          *bool    `json:"logprobs"`
	TopLogprobs       *int     `json:"top_logprobs"`
	FrequencyPenalty  *float64 `json:"frequency_penalty"`
	PresencePenalty   *float64 `json:"presence_penalty"`
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
	case in.StreamOptions != nil && (in.Stream == nil || !*in.Stream):
		// OpenAI's answer (and vLLM's): options of a stream with no stream asked for are a
		// mistake of the caller's, not something to ignore.
		return model.Request{}, domain.Invalid("stream_options", "stream_options is only allowed when stream is true")
	}
	req := model.Request{Temperature: in.Temperature, TopP: in.TopP, Seed: in.Seed,
		ParallelToolCalls: in.ParallelToolCalls, Logprobs: in.Logprobs, TopLogprobs: in.TopLogprobs,
		FrequencyPenalty: in.FrequencyPenalty, PresencePenalty: in.PresencePenalty}
	if err := checkSampling(in.Temperature, in.TopP); err != nil {
		return model.Request{}, err
	}
	if err := checkOutputOptions(in); err != nil {
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

// checkOutputOptions refuses, as OpenAI does, the penalties outside -2 to 2 and top_logprobs
// outside 0 to 20 or without logprobs true; their types the decoding checked. Valid ones are
// served: an upstream gets them as they came, the built-in engine has no use for them.
func checkOutputOptions(in chatCompletionIn) error {
	for _, p := range []struct {
		name string
		v    *float64
	}{{"frequency_penalty", in.FrequencyPenalty}, {"presence_penalty", in.PresencePenalty}} {
		if p.v != nil && (*p.v < -2 || *p.v > 2) {
			return domain.Invalid(p.name, "%s must be between -2 and 2", p.name)
		}
	}
	if n := in.TopLogprobs; n != nil {
		if *n < 0 || *n > maxTopLogprobs {
			return domain.Invalid("top_logprobs", "top_logprobs must be between 0 and %d", maxTopLogprobs)
		}
		if in.Logprobs == nil || !*in.Logprobs {
			return domain.Invalid("top_logprobs", "top_logprobs is only allowed when logprobs is true")
		}
	}
	return nil
}

// maxTopLogprobs is the most alternatives of a token top_logprobs may ask for (OpenAI's bound).
const maxTopLogprobs = 20

func chatMessageOf(i int, m chatMessageIn) (model.Message, error) {
	// at names the message in an error; made only for one.
	at := func() string { return "messages[" + strconv.Itoa(i) + "]" }
	if present(m.FunctionCall) {
		return model.Message{}, domain.Invalid(at()+".function_call", "function_call is not supported; use tool_calls")
	}
	msg := model.Message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	for j, tc := range m.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return model.Message{}, domain.Invalid(fmt.Sprintf("%s.tool_calls[%d].type", at(), j), "only function tool calls are supported")
		}
		msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	raw := bytes.TrimSpace(m.Content)
	switch {
	case !present(raw) && (m.Role == model.RoleUser || m.Role == model.RoleSystem || m.Role == model.RoleDeveloper || m.Role == model.RoleTool):
		// OpenAI's answer: only an assistant message (its tool calls) may come without content;
		// a user, system, developer or tool message without it is a mistake, not an empty text.
		return model.Message{}, domain.Invalid(at()+".content", "content is required in a %s message", m.Role)
	case !present(raw):
	case raw[0] == '"':
		var err error
		if msg.Content, err = jsonString(raw); err != nil {
			return model.Message{}, domain.Invalid(at()+".content", "content must be a string or an array of parts")
		}
	case raw[0] == '[':
		var parts []contentPartIn
		if err := json.Unmarshal(raw, &parts); err != nil {
			return model.Message{}, domain.Invalid(at()+".content", "content must be a string or an array of parts")
		}
		for j, p := range parts {
			part, err := partOf(func() string { return fmt.Sprintf("%s.content[%d]", at(), j) }, p)
			if err != nil {
				return model.Message{}, err
			}
			msg.Parts = append(msg.Parts, part)
		}
	default:
		return model.Message{}, domain.Invalid(at()+".content", "content must be a string or an array of parts")
	}
	return msg, nil
}

// jsonString is the string the JSON string literal raw holds, as json.Unmarshal reads it into a
// string: unquoted directly when raw is valid (a body's strings always are: apijson.Unmarshal read
// the whole body before), without json.Unmarshal's validating scan and reflection; any other is
// left to json.Unmarshal, which says what it says of it.
func jsonString(raw []byte) (string, error) {
	if b, err := jsontext.AppendUnquote(nil, raw); err == nil {
		return string(b), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// partOf reads a content part; at names it in an error.
func partOf(at func() string, p contentPartIn) (model.Part, error) {
	switch p.Type {
	case "text":
		if p.Text == nil {
			return model.Part{}, domain.Invalid(at()+".text", "a text part needs its text")
		}
		return model.Part{Type: "text", Text: *p.Text}, nil
	case "refusal":
		if p.Refusal == nil {
			return model.Part{}, domain.Invalid(at()+".refusal", "a refusal part needs its refusal")
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
			return model.Part{}, domain.Invalid(at()+".image_url", "an image part needs image_url.url")
		}
		return model.Part{Type: "image_url", ImageURL: img.URL, Detail: img.Detail}, nil
	}
	return model.Part{}, domain.Invalid(at()+".type", "a content part is text or image_url, not %s", domain.Quote(p.Type))
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
	ID      string               `json:"id"`
	Object  string               `json:"object"`
	Created int64                `json:"created"`
	Model   string               `json:"model"`
	Choices []chatChoiceJSON     `json:"choices"`
	Usage   chatUsageJSON        `json:"usage"`
	Svc     apijson.Interactions `json:"svc"`
}

type chatChoiceJSON struct {
	Index        int                  `json:"index"`
	Message      assistantMessageJSON `json:"message"`
	Logprobs     json.RawMessage      `json:"logprobs"` // the upstream's, as it came; null when none
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

func chatCompletionOf(r compat.Reply) chatCompletionJSON {
	msg := assistantMessageJSON{Role: model.RoleAssistant, Annotations: []struct{}{}}
	if r.Message.Content != "" || len(r.Message.ToolCalls) == 0 {
		content := r.Message.Content
		msg.Content = &content
	}
	if len(r.Message.ToolCalls) > 0 {
		msg.ToolCalls = toolCallsOf(r.Message.ToolCalls)
	}
	return chatCompletionJSON{ID: r.ID, Object: "chat.completion", Created: r.Created.Unix(), Model: r.Model,
		Choices: []chatChoiceJSON{{Index: 0, Message: msg, Logprobs: logprobsOf(r.Logprobs), FinishReason: r.FinishReason}},
		Usage:   chatUsageOf(r.Usage), Svc: apijson.InteractionsOf(r.Interactions)}
}

// logprobsOf is a choice's logprobs: the upstream's JSON as it came, null when it gave none.
func logprobsOf(raw []byte) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return json.RawMessage("null")
	}
	return json.RawMessage(raw)
}

// chat.completion.chunk

type chunkJSON struct {
	ID      string                `json:"id"`
	Object  string                `json:"object"`
	Created int64                 `json:"created"`
	Model   string                `json:"model"`
	Choices []chunkChoiceJSON     `json:"choices"`
	Usage   *chatUsageJSON        `json:"usage,omitempty"`
	Svc     *apijson.Interactions `json:"svc,omitempty"`
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
// Handlers

func (s *Server) chatCompletions(c *gin.Context) {
	who, in, req, err := opening(c, chatRequestOf)
	if err != nil {
		s.compatFail(c, err)
		return
	}
	chat := compat.Chat{ID: replyID(who, newCompletionID), Model: in.Model, Request: req}
	if in.Stream == nil || !*in.Stream {
		r, err := s.uc.Compat.Complete(c.Request.Context(), who, chat)
		if err != nil {
			s.compatFail(c, err)
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
func (s *Server) streamChat(c *gin.Context, who compat.Caller, chat compat.Chat, includeUsage bool) {
	w := &sse{c: c}
	created := time.Now().Unix()
	reported := compat.ReportedModel(chat.Model)
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
	r, err := s.uc.Compat.Stream(c.Request.Context(), who, chat, func(ch model.Chunk) error {
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
		s.streamFail(c, w, err, "", func(body apijson.ErrorBody) any { return apijson.ErrorEnvelope{Error: body} })
		return
	}
	if err := begin(); err != nil {
		return
	}
	svc := apijson.InteractionsOf(r.Interactions)
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
