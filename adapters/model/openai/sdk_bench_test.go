package openai

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/svcagent/svc/domain/model"
)

// The wire work of one call, hand-written types against the official SDK's (openai-go): the
// figures behind the package comment's decision. Run with
//
//	go test -run '^$' -bench Wire -benchmem ./adapters/model/openai/

// agentRequest is what the agent sends: a system prompt with the Brain's passages, a short
// history, the booking tool, and its tool result.
func agentRequest() model.Request {
	brain := strings.Repeat("We are open Monday to Saturday from 8am to 6pm; on Sundays from 9am to 1pm. ", 25)
	return model.Request{
		Model: "gpt-4o-mini",
		Messages: []model.Message{
			{Role: model.RoleSystem, Content: "You are the customer service agent of Padaria Lu.\n<brain>\n" + brain + "\n</brain>"},
			{Role: model.RoleUser, Content: "Hi! When do you open on Sunday?"},
			{Role: model.RoleAssistant, Content: "On Sundays we open from 9am to 1pm."},
			{Role: model.RoleUser, Content: "Can I book a table for two at 10:00 next Sunday?"},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "create_booking", Arguments: `{"date":"2026-11-29","time":"10:00"}`}}},
			{Role: model.RoleTool, ToolCallID: "call_1", Content: `{"ok":true,"status":"booked"}`},
		},
		Tools: []model.Tool{{Name: "create_booking", Description: "Book an appointment.",
			Parameters: []byte(`{"type":"object","additionalProperties":false,"required":["date","time"],"properties":{"date":{"type":"string"},"time":{"type":"string"}}}`)}},
		ToolChoice: &model.ToolChoice{Mode: "none"},
		MaxTokens:  700,
	}
}

// sdkParams maps a request onto the SDK's types, as an adapter built on them would.
func sdkParams(req model.Request) sdk.ChatCompletionNewParams {
	p := sdk.ChatCompletionNewParams{Model: shared.ChatModel(req.Model), MaxTokens: sdk.Int(int64(req.MaxTokens))}
	for _, m := range req.Messages {
		switch m.Role {
		case model.RoleSystem:
			p.Messages = append(p.Messages, sdk.SystemMessage(m.Content))
		case model.RoleUser:
			p.Messages = append(p.Messages, sdk.UserMessage(m.Content))
		case model.RoleTool:
			p.Messages = append(p.Messages, sdk.ToolMessage(m.Content, m.ToolCallID))
		case model.RoleAssistant:
			a := sdk.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = sdk.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: tc.ID,
						Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments}}})
			}
			p.Messages = append(p.Messages, sdk.ChatCompletionMessageParamUnion{OfAssistant: &a})
		}
	}
	for _, t := range req.Tools {
		var params map[string]any // the SDK holds a JSON Schema as a map: it is decoded to be sent
		_ = json.Unmarshal(t.Parameters, &params)
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: sdk.String(t.Description), Parameters: params}))
	}
	if req.ToolChoice != nil {
		p.ToolChoice.OfAuto = sdk.String(req.ToolChoice.Mode)
	}
	return p
}

const wireReply = `{"id":"chatcmpl-1","object":"chat.completion","created":1764000000,"model":"gpt-4o-mini",` +
	`"choices":[{"index":0,"message":{"role":"assistant","content":"Done: a table for two on Sunday 29 November at 10:00. See you then!","refusal":null},` +
	`"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":612,"completion_tokens":21,"total_tokens":633},` +
	`"system_fingerprint":"fp_1"}`

func BenchmarkWire(b *testing.B) {
	c := New(Options{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4o-mini"}, nil)
	req := agentRequest()
	b.Run("encode/handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.encodeChat(req, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode/sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(sdkParams(req)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var w chatResponse
			if err := unmarshal([]byte(wireReply), &w); err != nil || len(w.Choices) != 1 {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var w sdk.ChatCompletion
			if err := json.Unmarshal([]byte(wireReply), &w); err != nil || len(w.Choices) != 1 {
				b.Fatal(err)
			}
		}
	})
}

// TestSDKEncodingMatches makes sure the benchmark compares like with like: both encodings carry
// the same request.
func TestSDKEncodingMatches(t *testing.T) {
	c := New(Options{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4o-mini"}, nil)
	req := agentRequest()
	ours, err := c.encodeChat(req, false)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := json.Marshal(sdkParams(req))
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if err := json.Unmarshal(ours, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(theirs, &b); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"model", "messages", "tools", "tool_choice", "max_tokens"} {
		ja, _ := json.Marshal(dropNulls(a[k])) // "content":null and no content say the same
		jb, _ := json.Marshal(dropNulls(b[k]))
		if string(ja) != string(jb) {
			t.Errorf("%s differs:\nhand-written %s\nSDK          %s", k, ja, jb)
		}
	}
	var w sdk.ChatCompletion
	if err := json.Unmarshal([]byte(wireReply), &w); err != nil || w.Choices[0].Message.Content == "" || w.Usage.PromptTokens != 612 {
		t.Fatalf("SDK decode: %v %+v", err, w)
	}
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = dropNulls(x)
		}
	}
	return v
}
