package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/model"
)

// POST /v1/responses: the same replies as chat completions, in the Responses format. There are
// no stored responses or conversations (store is always false, previous_response_id is refused)
// and none of the provider's built-in tools: only function tools.

type responsesIn struct {
	Model        string            `json:"model"`
	Input        json.RawMessage   `json:"input"`
	Instructions json.RawMessage   `json:"instructions"`
	Tools        []responsesToolIn `json:"tools"`
	ToolChoice   json.RawMessage   `json:"tool_choice"`
	Text         *struct {
		Format *responsesFormatIn `json:"format"`
	} `json:"text"`
	MaxOutputTokens    *int            `json:"max_output_tokens"`
	Temperature        *float64        `json:"temperature"`
	TopP               *float64        `json:"top_p"`
	Stream             *bool           `json:"stream"`
	PreviousResponseID json.RawMessage `json:"previous_response_id"`
	Conversation       json.RawMessage `json:"conversation"`
	Prompt             json.RawMessage `json:"prompt"`
	Background         *bool           `json:"background"`
	ParallelToolCalls  *bool           `json:"parallel_tool_calls"`
}

type responsesToolIn struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

type responsesFormatIn struct {
	Type        string          `json:"type"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// inputItem is one item of input: a message (type "message" or absent, with role and content),
// a function_call, or a function_call_output.
type inputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

type inputPart struct {
	Type     string  `json:"type"`
	Text     *string `json:"text"`
	Refusal  *string `json:"refusal"`
	ImageURL string  `json:"image_url"`
	FileID   string  `json:"file_id"`
	Detail   string  `json:"detail"`
}

// responsesRequestOf turns the wire request into the domain's, refusing what does not exist here.
func responsesRequestOf(in responsesIn) (model.Request, error) {
	switch {
	case present(in.PreviousResponseID):
		return model.Request{}, domain.Invalid("previous_response_id", "responses are not stored: send the whole conversation in input")
	case present(in.Conversation):
		return model.Request{}, domain.Invalid("conversation", "conversations are not stored: send the whole conversation in input")
	case present(in.Prompt):
		return model.Request{}, domain.Invalid("prompt", "stored prompts do not exist here: send instructions and input")
	case in.Background != nil && *in.Background:
		return model.Request{}, domain.Invalid("background", "background responses are not supported")
	}
	if err := checkSampling(in.Temperature, in.TopP); err != nil {
		return model.Request{}, err
	}
	req := model.Request{Temperature: in.Temperature, TopP: in.TopP}
	if present(in.Instructions) {
		var text string
		if err := json.Unmarshal(in.Instructions, &text); err != nil {
			return model.Request{}, domain.Invalid("instructions", "instructions must be a string")
		}
		if n := utf8.RuneCountInString(text); n > compat.MaxInputChars {
			// The limit is on the request's text in all; instructions over it alone are named.
			return model.Request{}, &domain.Error{Code: domain.CodeInputTooLarge, Field: "instructions",
				Message: fmt.Sprintf("a request may hold at most %d characters of text; its instructions alone have %d", compat.MaxInputChars, n)}
		}
		if text != "" {
			req.Messages = append(req.Messages, model.Message{Role: model.RoleSystem, Content: text})
		}
	}
	msgs, err := inputOf(in.Input)
	if err != nil {
		return model.Request{}, err
	}
	req.Messages = append(req.Messages, msgs...)
	for i, t := range in.Tools {
		if t.Type != "function" {
			return model.Request{}, domain.Invalid(fmt.Sprintf("tools[%d].type", i), "tools[%d]: only function tools are supported; the built-in tool %s does not exist here", i, domain.Quote(t.Type))
		}
		tool, err := toolOf(fmt.Sprintf("tools[%d]", i), t.Name, t.Description, t.Parameters, t.Strict)
		if err != nil {
			return model.Request{}, err
		}
		req.Tools = append(req.Tools, tool)
	}
	if req.ToolChoice, err = toolChoiceOf(in.ToolChoice, len(req.Tools) > 0); err != nil {
		return model.Request{}, err
	}
	if in.Text != nil && in.Text.Format != nil {
		f := in.Text.Format
		req.ResponseFormat = &model.ResponseFormat{Type: f.Type, Name: f.Name, Schema: f.Schema, Strict: f.Strict != nil && *f.Strict}
	}
	if req.MaxTokens, err = maxTokensOf("max_output_tokens", in.MaxOutputTokens); err != nil {
		return model.Request{}, err
	}
	return req, nil
}

// inputOf reads input: a text (one user message) or a list of items. Function calls that follow
// an assistant message, or each other, join it as its tool calls.
func inputOf(raw json.RawMessage) ([]model.Message, error) {
	raw = bytes.TrimSpace(raw)
	if !present(raw) {
		return nil, domain.Invalid("input", "input is required: a text or a list of items")
	}
	if raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, domain.Invalid("input", "input must be a text or a list of items")
		}
		return []model.Message{{Role: model.RoleUser, Content: text}}, nil
	}
	var items []inputItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, domain.Invalid("input", "input must be a text or a list of items")
	}
	if len(items) == 0 {
		return nil, domain.Invalid("input", "input must hold at least one item")
	}
	var msgs []model.Message
	for i, it := range items {
		at := fmt.Sprintf("input[%d]", i)
		switch it.Type {
		case "", "message":
			m, err := inputMessageOf(at, it)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		case "function_call":
			if it.CallID == "" || it.Name == "" {
				return nil, domain.Invalid(at, "a function_call item needs call_id and name")
			}
			call := model.ToolCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments}
			if n := len(msgs); n > 0 && msgs[n-1].Role == model.RoleAssistant {
				msgs[n-1].ToolCalls = append(msgs[n-1].ToolCalls, call)
			} else {
				msgs = append(msgs, model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{call}})
			}
		case "function_call_output":
			if it.CallID == "" {
				return nil, domain.Invalid(at+".call_id", "a function_call_output item needs the call_id it answers")
			}
			if !present(it.Output) {
				// OpenAI's answer: the result is required, not an empty text the model would read.
				return nil, domain.Invalid(at+".output", "a function_call_output item needs its output")
			}
			out, err := callOutputOf(it.Output)
			if err != nil {
				return nil, domain.Invalid(at+".output", "output must be a string or a list of input_text parts")
			}
			msgs = append(msgs, model.Message{Role: model.RoleTool, ToolCallID: it.CallID, Content: out})
		case "reasoning":
			// Another provider's reasoning, echoed back: not for this model.
		default:
			return nil, domain.Invalid(at+".type", "an input item is a message, function_call or function_call_output, not %s", domain.Quote(it.Type))
		}
	}
	return msgs, nil
}

func inputMessageOf(at string, it inputItem) (model.Message, error) {
	m := model.Message{Role: it.Role}
	raw := bytes.TrimSpace(it.Content)
	switch {
	case !present(raw):
		return model.Message{}, domain.Invalid(at+".content", "a message needs its content")
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &m.Content); err != nil {
			return model.Message{}, domain.Invalid(at+".content", "content must be a string or a list of parts")
		}
		return m, nil
	}
	var parts []inputPart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return model.Message{}, domain.Invalid(at+".content", "content must be a string or a list of parts")
	}
	for j, p := range parts {
		pat := fmt.Sprintf("%s.content[%d]", at, j)
		switch p.Type {
		case "input_text", "output_text", "text":
			if p.Text == nil {
				return model.Message{}, domain.Invalid(pat+".text", "a text part needs its text")
			}
			m.Parts = append(m.Parts, model.Part{Type: "text", Text: *p.Text})
		case "refusal":
			if p.Refusal != nil {
				m.Parts = append(m.Parts, model.Part{Type: "text", Text: *p.Refusal})
			}
		case "input_image":
			if p.ImageURL == "" {
				return model.Message{}, domain.Invalid(pat+".image_url", "an input_image needs image_url (https or data:image); files are not stored here")
			}
			m.Parts = append(m.Parts, model.Part{Type: "image_url", ImageURL: p.ImageURL, Detail: p.Detail})
		default:
			return model.Message{}, domain.Invalid(pat+".type", "a content part is input_text, input_image or output_text, not %s", domain.Quote(p.Type))
		}
	}
	// A message of text parts only is its text: the form every upstream reads.
	if len(m.Parts) > 0 && m.Role != model.RoleUser {
		var b strings.Builder
		for _, p := range m.Parts {
			if p.Type != "text" {
				return m, nil
			}
			b.WriteString(p.Text)
		}
		m.Content, m.Parts = b.String(), nil
	}
	return m, nil
}

// callOutputOf reads a function_call_output's output: a string, or a list of text parts.
func callOutputOf(raw json.RawMessage) (string, error) {
	if !present(raw) {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []inputPart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Text == nil {
			return "", fmt.Errorf("a part without text")
		}
		b.WriteString(*p.Text)
	}
	return b.String(), nil
}

// responsesParam renames an error's field from the chat-completions request the app checked to
// the Responses request the caller sent.
func responsesParam(err error) error {
	e, ok := domain.AsError(err)
	if !ok {
		return err
	}
	switch {
	case strings.HasPrefix(e.Field, "messages"):
		ee := *e
		ee.Field = "input"
		return &ee
	case strings.HasPrefix(e.Field, "response_format"):
		ee := *e
		ee.Field = "text.format" + strings.TrimPrefix(strings.TrimPrefix(e.Field, "response_format"), ".json_schema")
		return &ee
	case strings.HasPrefix(e.Field, "tools[") && strings.Contains(e.Field, ".function."):
		ee := *e
		ee.Field = strings.Replace(e.Field, ".function.", ".", 1)
		return &ee
	}
	return err
}

// ---------------------------------------------------------------------------------------------
// The response object

type responseJSON struct {
	ID                 string                `json:"id"`
	Object             string                `json:"object"`
	CreatedAt          int64                 `json:"created_at"`
	Status             string                `json:"status"`
	Error              *struct{}             `json:"error"`
	IncompleteDetails  *incompleteJSON       `json:"incomplete_details"`
	Instructions       *string               `json:"instructions"`
	MaxOutputTokens    *int                  `json:"max_output_tokens"`
	Model              string                `json:"model"`
	Output             []any                 `json:"output"`
	ParallelToolCalls  bool                  `json:"parallel_tool_calls"`
	PreviousResponseID *string               `json:"previous_response_id"`
	Reasoning          *struct{}             `json:"reasoning"`
	Store              bool                  `json:"store"`
	Temperature        *float64              `json:"temperature"`
	Text               textConfigJSON        `json:"text"`
	ToolChoice         any                   `json:"tool_choice"`
	Tools              []any                 `json:"tools"`
	TopP               *float64              `json:"top_p"`
	Truncation         string                `json:"truncation"`
	Usage              *respUsageJSON        `json:"usage"`
	Metadata           map[string]string     `json:"metadata"`
	Svc                *apijson.Interactions `json:"svc,omitempty"`
}

type incompleteJSON struct {
	Reason string `json:"reason"`
}

type textConfigJSON struct {
	Format any `json:"format"`
}

type respUsageJSON struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int `json:"total_tokens"`
}

type outputMessageJSON struct {
	Type    string           `json:"type"`
	ID      string           `json:"id"`
	Status  string           `json:"status"`
	Role    string           `json:"role"`
	Content []outputTextJSON `json:"content"`
}

type outputTextJSON struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
	Logprobs    []struct{} `json:"logprobs"`
}

type functionCallJSON struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
}

func outputText(text string) outputTextJSON {
	return outputTextJSON{Type: "output_text", Text: text, Annotations: []struct{}{}, Logprobs: []struct{}{}}
}

// skeleton is the response object before its output: what was asked, echoed as OpenAI does,
// with max_output_tokens as applied.
func skeleton(id string, in responsesIn, req model.Request, created time.Time) responseJSON {
	r := responseJSON{ID: id, Object: "response", CreatedAt: created.Unix(), Status: "in_progress",
		Model: compat.ReportedModel(in.Model), Output: []any{}, ParallelToolCalls: true, Temperature: in.Temperature,
		TopP: in.TopP, Truncation: "disabled", Metadata: map[string]string{}, Tools: []any{}, ToolChoice: "auto",
		MaxOutputTokens: in.MaxOutputTokens, Text: textConfigJSON{Format: map[string]string{"type": "text"}}}
	if m := in.MaxOutputTokens; m != nil && *m > compat.MaxReplyTokens {
		capped := compat.MaxReplyTokens // a higher max_output_tokens is reduced to the cap (spec part 8)
		r.MaxOutputTokens = &capped
	}
	if in.ParallelToolCalls != nil {
		r.ParallelToolCalls = *in.ParallelToolCalls
	}
	if present(in.Instructions) {
		var s string
		_ = json.Unmarshal(in.Instructions, &s)
		r.Instructions = &s
	}
	for _, t := range req.Tools {
		params := json.RawMessage(t.Parameters)
		if len(params) == 0 {
			params = json.RawMessage(`{}`)
		}
		r.Tools = append(r.Tools, map[string]any{"type": "function", "name": t.Name, "description": t.Description,
			"parameters": params, "strict": t.Strict})
	}
	if tc := req.ToolChoice; tc != nil {
		if tc.Mode == "function" {
			r.ToolChoice = map[string]string{"type": "function", "name": tc.Name}
		} else {
			r.ToolChoice = tc.Mode
		}
	}
	if in.Text != nil && in.Text.Format != nil {
		r.Text.Format = in.Text.Format
	}
	return r
}

// finishOf sets the status of a finished response from the reply, with its usage.
func finishOf(r *responseJSON, reply compat.Reply) {
	r.Status = "completed"
	switch reply.FinishReason {
	case model.FinishLength:
		r.Status, r.IncompleteDetails = "incomplete", &incompleteJSON{Reason: "max_output_tokens"}
	case model.FinishContentFilter:
		r.Status, r.IncompleteDetails = "incomplete", &incompleteJSON{Reason: "content_filter"}
	}
	u := respUsageJSON{InputTokens: reply.Usage.PromptTokens, OutputTokens: reply.Usage.CompletionTokens, TotalTokens: reply.Usage.TotalTokens}
	svc := apijson.InteractionsOf(reply.Interactions)
	r.Usage, r.Svc = &u, &svc
}

// itemStatus is the status of an output item of a response in status.
func itemStatus(status string) string {
	if status == "incomplete" {
		return "incomplete"
	}
	return "completed"
}

// newResponseID is an id of a response, resp_….
func newResponseID() string { return ident.New("resp") }

func (s *Server) responses(c *gin.Context) {
	who, in, req, err := opening(c, responsesRequestOf)
	if err != nil {
		s.compatFail(c, err)
		return
	}
	chat := compat.Chat{ID: replyID(who, newResponseID), Model: in.Model, Request: req}
	if in.Stream != nil && *in.Stream {
		s.streamResponse(c, who, chat, in)
		return
	}
	reply, err := s.uc.Compat.Complete(c.Request.Context(), who, chat)
	if err != nil {
		s.compatFail(c, responsesParam(err))
		return
	}
	out := skeleton(chat.ID, in, req, reply.Created)
	finishOf(&out, reply)
	if reply.Message.Content != "" || len(reply.Message.ToolCalls) == 0 {
		out.Output = append(out.Output, outputMessageJSON{Type: "message", ID: ident.New("msg"), Status: itemStatus(out.Status),
			Role: model.RoleAssistant, Content: []outputTextJSON{outputText(reply.Message.Content)}})
	}
	for _, tc := range reply.Message.ToolCalls {
		out.Output = append(out.Output, functionCallJSON{Type: "function_call", ID: ident.New("fc"), CallID: tc.ID,
			Name: tc.Name, Arguments: tc.Arguments, Status: "completed"})
	}
	c.JSON(http.StatusOK, out)
}

// ---------------------------------------------------------------------------------------------
// Streaming: the Responses event types, each with its sequence number.

type responseStream struct {
	w    *sse
	seq  int
	resp responseJSON
	// The item being written: a message (msg != nil) or a function call (call != nil).
	msg      *outputMessageJSON
	text     strings.Builder
	call     *functionCallJSON
	callSlot int // the tool-call index of call
}

func (rs *responseStream) emit(typ string, fields map[string]any) error {
	fields["type"] = typ
	fields["sequence_number"] = rs.seq
	rs.seq++
	return rs.w.event(typ, fields)
}

// begin announces the response, at its first piece.
func (rs *responseStream) begin() error {
	if rs.w.started {
		return nil
	}
	if err := rs.emit("response.created", map[string]any{"response": rs.resp}); err != nil {
		return err
	}
	return rs.emit("response.in_progress", map[string]any{"response": rs.resp})
}

func (rs *responseStream) index() int { return len(rs.resp.Output) }

func (rs *responseStream) piece(ch model.Chunk) error {
	if err := rs.begin(); err != nil {
		return err
	}
	if ch.Content != "" {
		if rs.msg == nil {
			if err := rs.close("completed"); err != nil {
				return err
			}
			if err := rs.openMessage(); err != nil {
				return err
			}
		}
		rs.text.WriteString(ch.Content)
		if err := rs.emit("response.output_text.delta", map[string]any{"item_id": rs.msg.ID, "output_index": rs.index(),
			"content_index": 0, "delta": ch.Content, "logprobs": []struct{}{}}); err != nil {
			return err
		}
	}
	for _, tc := range ch.ToolCalls {
		if rs.call == nil || rs.callSlot != tc.Index {
			if err := rs.close("completed"); err != nil {
				return err
			}
			rs.call = &functionCallJSON{Type: "function_call", ID: ident.New("fc"), CallID: tc.ID, Name: tc.Name, Status: "in_progress"}
			rs.callSlot = tc.Index
			if err := rs.emit("response.output_item.added", map[string]any{"output_index": rs.index(), "item": *rs.call}); err != nil {
				return err
			}
		} else if tc.Name != "" {
			rs.call.Name += tc.Name
		}
		if tc.Arguments != "" {
			rs.call.Arguments += tc.Arguments
			if err := rs.emit("response.function_call_arguments.delta", map[string]any{"item_id": rs.call.ID,
				"output_index": rs.index(), "delta": tc.Arguments}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (rs *responseStream) openMessage() error {
	rs.msg = &outputMessageJSON{Type: "message", ID: ident.New("msg"), Status: "in_progress", Role: model.RoleAssistant, Content: []outputTextJSON{}}
	rs.text.Reset()
	if err := rs.emit("response.output_item.added", map[string]any{"output_index": rs.index(), "item": *rs.msg}); err != nil {
		return err
	}
	return rs.emit("response.content_part.added", map[string]any{"item_id": rs.msg.ID, "output_index": rs.index(),
		"content_index": 0, "part": outputText("")})
}

// close finishes the item being written, in status.
func (rs *responseStream) close(status string) error {
	switch {
	case rs.msg != nil:
		m, text, i := rs.msg, rs.text.String(), rs.index()
		rs.msg = nil
		if err := rs.emit("response.output_text.done", map[string]any{"item_id": m.ID, "output_index": i, "content_index": 0,
			"text": text, "logprobs": []struct{}{}}); err != nil {
			return err
		}
		if err := rs.emit("response.content_part.done", map[string]any{"item_id": m.ID, "output_index": i, "content_index": 0,
			"part": outputText(text)}); err != nil {
			return err
		}
		m.Status, m.Content = status, []outputTextJSON{outputText(text)}
		rs.resp.Output = append(rs.resp.Output, *m)
		return rs.emit("response.output_item.done", map[string]any{"output_index": i, "item": *m})
	case rs.call != nil:
		fc, i := rs.call, rs.index()
		rs.call = nil
		if err := rs.emit("response.function_call_arguments.done", map[string]any{"item_id": fc.ID, "output_index": i,
			"name": fc.Name, "arguments": fc.Arguments}); err != nil {
			return err
		}
		fc.Status = "completed"
		rs.resp.Output = append(rs.resp.Output, *fc)
		return rs.emit("response.output_item.done", map[string]any{"output_index": i, "item": *fc})
	}
	return nil
}

// streamResponse answers with the Responses events: response.created and response.in_progress at
// the first piece, each output item as it comes, and, once the reply is checked and charged,
// response.completed (or response.incomplete) with the whole response. A failure after the first
// piece ends the stream with an error event, and nothing is charged.
func (s *Server) streamResponse(c *gin.Context, who compat.Caller, chat compat.Chat, in responsesIn) {
	rs := &responseStream{w: &sse{c: c}, resp: skeleton(chat.ID, in, chat.Request, time.Now())}
	reply, err := s.uc.Compat.Stream(c.Request.Context(), who, chat, rs.piece)
	if err != nil {
		s.streamFail(c, rs.w, responsesParam(err), "error", func(body apijson.ErrorBody) any {
			e := map[string]any{"type": "error", "code": body.Code, "message": body.Message, "param": nil, "sequence_number": rs.seq}
			if body.Param != "" {
				e["param"] = body.Param
			}
			return e
		})
		return
	}
	if rs.begin() != nil {
		return
	}
	final := rs.resp
	finishOf(&final, reply)
	if rs.msg == nil && rs.call == nil && len(rs.resp.Output) == 0 {
		if rs.openMessage() != nil { // an empty reply is an empty message, as OpenAI gives
			return
		}
	}
	if rs.close(itemStatus(final.Status)) != nil {
		return
	}
	final.Output = rs.resp.Output
	event := "response.completed"
	if final.Status == "incomplete" {
		event = "response.incomplete"
	}
	_ = rs.emit(event, map[string]any{"response": final})
}
