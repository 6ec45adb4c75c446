package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/internal/safehttp"
)

// The chat-completions wire format, as much of it as domain/model carries.
type (
	chatRequest struct {
		Model          string          `json:"model"`
		Messages       []message       `json:"messages"`
		Tools          []tool          `json:"tools,omitempty"`
		ToolChoice     any             `json:"tool_choice,omitempty"`
		ResponseFormat *responseFormat `json:"response_format,omitempty"`
		Temperature    *float64        `json:"temperature,omitempty"`
		TopP           *float64        `json:"top_p,omitempty"`
		Stop           []string        `json:"stop,omitempty"`
		Seed           *int64          `json:"seed,omitempty"`
		MaxTokens      int             `json:"max_tokens,omitempty"`
		User           string          `json:"user,omitempty"`
		Stream         bool            `json:"stream,omitempty"`
		StreamOptions  *streamOptions  `json:"stream_options,omitempty"`
		// as the caller sent them (model.Request)
		ParallelToolCalls *bool    `json:"parallel_tool_calls,omitempty"`
		Logprobs          *bool    `json:"logprobs,omitempty"`
		TopLogprobs       *int     `json:"top_logprobs,omitempty"`
		FrequencyPenalty  *float64 `json:"frequency_penalty,omitempty"`
		PresencePenalty   *float64 `json:"presence_penalty,omitempty"`
	}
	streamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	}
	message struct {
		Role       string     `json:"role"`
		Content    any        `json:"content"` // string, []part, or nil (an assistant's tool calls alone)
		Name       string     `json:"name,omitempty"`
		ToolCalls  []toolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	part struct {
		Type     string    `json:"type"`
		Text     *string   `json:"text,omitempty"`
		ImageURL *imageURL `json:"image_url,omitempty"`
	}
	imageURL struct {
		URL    string `json:"url"`
		Detail string `json:"detail,omitempty"`
	}
	toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	tool struct {
		Type     string  `json:"type"`
		Function toolDef `json:"function"`
	}
	toolDef struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
		Strict      bool            `json:"strict,omitempty"`
	}
	namedTool struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	responseFormat struct {
		Type       string      `json:"type"`
		JSONSchema *jsonSchema `json:"json_schema,omitempty"`
	}
	jsonSchema struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema,omitempty"`
		Strict bool            `json:"strict,omitempty"`
	}

	chatResponse struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Created int64  `json:"created"`
		Choices []struct {
			Message struct {
				Role      string     `json:"role"`
				Content   string     `json:"content"` // null reads as ""
				Refusal   string     `json:"refusal"`
				ToolCalls []toolCall `json:"tool_calls"`
			} `json:"message"`
			Logprobs     json.RawMessage `json:"logprobs"`
			FinishReason string          `json:"finish_reason"`
		} `json:"choices"`
		Usage *usage `json:"usage"`
	}
	usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	}
)

func (u *usage) domain() model.Usage {
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	return model.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: total}
}

// Complete asks the upstream for the next message.
func (c *Client) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	body, err := c.encodeChat(req, false)
	if err != nil {
		return model.Response{}, err
	}
	var out model.Response
	err = c.post(ctx, chatPath, body, false, func(r io.Reader) error {
		b, err := safehttp.ReadLimited(r, MaxBodyBytes)
		if err != nil {
			return &failure{err: fmt.Errorf("reading the model's reply: %w", err), retry: !errors.Is(err, safehttp.ErrTooLarge)}
		}
		var w chatResponse
		if err := unmarshal(b, &w); err != nil {
			return &failure{err: fmt.Errorf("decoding the model's reply: %w", err)}
		}
		if len(w.Choices) == 0 {
			return &failure{err: errors.New("the model's reply has no choices")}
		}
		ch := w.Choices[0]
		out = model.Response{
			ID:           w.ID,
			Model:        w.Model,
			Created:      w.Created,
			FinishReason: ch.FinishReason,
			Message: model.Message{
				Role:    ch.Message.Role,
				Content: ch.Message.Content,
			},
		}
		if out.Message.Role == "" {
			out.Message.Role = model.RoleAssistant
		}
		if lp := bytes.TrimSpace(ch.Logprobs); len(lp) > 0 && !bytes.Equal(lp, []byte("null")) {
			out.Logprobs = bytes.Clone(lp)
		}
		for _, tc := range ch.Message.ToolCalls {
			out.Message.ToolCalls = append(out.Message.ToolCalls,
				model.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		if w.Usage != nil {
			out.Usage = w.Usage.domain()
		}
		return refused(out, ch.Message.Refusal)
	})
	if err != nil {
		return model.Response{}, err
	}
	return out, nil
}

// unmarshal reads the upstream's JSON into v exactly as encoding/json's Unmarshal reads it (the
// v1 options: names matched without regard to case, duplicate names, invalid UTF-8 replaced, and
// so on), with go-json-experiment's decoder, which does it without encoding/json's separate
// validating scan of the whole text and with fewer allocations. Only the wording of its errors
// differs, which the failure wraps and logs.
func unmarshal(b []byte, v any) error { return jsonv2.Unmarshal(b, v, jsonv1.DefaultOptionsV1()) }

// refused is the content_policy error for a reply that holds nothing but a refusal: the safety
// filter's (finish_reason content_filter) or the model's own (refusal, with structured output).
// A reply cut short by the filter after some content is returned as it is.
func refused(r model.Response, refusal string) error {
	if r.Message.Content != "" || len(r.Message.ToolCalls) > 0 {
		return nil
	}
	switch {
	case refusal != "":
		return &domain.Error{Code: domain.CodeContentPolicy, Message: "the model refused: " + refusal}
	case r.FinishReason == model.FinishContentFilter:
		return &domain.Error{Code: domain.CodeContentPolicy, Message: contentPolicyMsg}
	}
	return nil
}

// encodeChat is the wire body for req.
func (c *Client) encodeChat(req model.Request, stream bool) ([]byte, error) {
	w := chatRequest{
		Model:       req.Model,
		Messages:    make([]message, len(req.Messages)),
		Temperature: req.Temperature,
		TopP:        req.TopP,
		Stop:        req.Stop,
		Seed:        req.Seed,
		MaxTokens:   req.MaxTokens,
		User:        req.User,

		ParallelToolCalls: req.ParallelToolCalls,
		Logprobs:          req.Logprobs,
		TopLogprobs:       req.TopLogprobs,
		FrequencyPenalty:  req.FrequencyPenalty,
		PresencePenalty:   req.PresencePenalty,
	}
	if w.Model == "" {
		w.Model = c.opts.Model
	}
	if w.Model == "" {
		return nil, c.unavailable(&failure{err: errors.New("no model name is configured"), operator: true})
	}
	if stream {
		w.Stream = true
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	for i, m := range req.Messages {
		wm, err := encodeMessage(i, m)
		if err != nil {
			return nil, err
		}
		w.Messages[i] = wm
	}
	for i, t := range req.Tools {
		if len(t.Parameters) > 0 && !json.Valid(t.Parameters) {
			return nil, domain.Invalid(fmt.Sprintf("tools[%d].function.parameters", i), "the parameters must be a JSON Schema")
		}
		w.Tools = append(w.Tools, tool{Type: "function", Function: toolDef{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict,
		}})
	}
	if tc := req.ToolChoice; tc != nil {
		switch {
		case tc.Mode == "auto", tc.Mode == "none", tc.Mode == "required":
			w.ToolChoice = tc.Mode
		case tc.Mode == "function", tc.Mode == "" && tc.Name != "":
			nt := namedTool{Type: "function"}
			nt.Function.Name = tc.Name
			w.ToolChoice = nt
		default:
			return nil, domain.Invalid("tool_choice", "tool_choice must be auto, none, required or a function")
		}
	}
	if rf := req.ResponseFormat; rf != nil {
		switch rf.Type {
		case "text", "json_object":
			w.ResponseFormat = &responseFormat{Type: rf.Type}
		case "json_schema":
			if len(rf.Schema) > 0 && !json.Valid(rf.Schema) {
				return nil, domain.Invalid("response_format.json_schema.schema", "the schema must be a JSON Schema")
			}
			name := rf.Name
			if name == "" {
				name = "response"
			}
			w.ResponseFormat = &responseFormat{Type: rf.Type, JSONSchema: &jsonSchema{Name: name, Schema: rf.Schema, Strict: rf.Strict}}
		default:
			return nil, domain.Invalid("response_format.type", "response_format.type must be text, json_object or json_schema")
		}
	}
	return json.Marshal(w)
}

func encodeMessage(i int, m model.Message) (message, error) {
	w := message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	switch {
	case len(m.Parts) > 0:
		parts := make([]part, len(m.Parts))
		for j, p := range m.Parts {
			switch p.Type {
			case "text":
				parts[j] = part{Type: p.Type, Text: &p.Text}
			case "image_url":
				parts[j] = part{Type: p.Type, ImageURL: &imageURL{URL: p.ImageURL, Detail: p.Detail}}
			default:
				return message{}, domain.Invalid(fmt.Sprintf("messages[%d].content[%d].type", i, j), "a content part is text or image_url")
			}
		}
		w.Content = parts
	case m.Content != "" || len(m.ToolCalls) == 0:
		w.Content = m.Content
	}
	for _, tc := range m.ToolCalls {
		w.ToolCalls = append(w.ToolCalls, toolCall{ID: tc.ID, Type: "function", Function: function{Name: tc.Name, Arguments: tc.Arguments}})
	}
	return w, nil
}
