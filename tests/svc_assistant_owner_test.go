package tests

import (
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// TestSvcAssistantOwnerRecords: svc-assistant (spec 4.8) is the account's own assistant (spec
// 4.7), answering only. A task saved through POST /v1/assistant in mode do is in svc-assistant's
// answer to "What tasks do I have?" (the same text as mode ask's, by chat completions, streamed
// and by the Responses API, 1 interaction a reply), and in the system message an upstream model
// is given; an instruction to save a lead sent to svc-assistant saves nothing.
func TestSvcAssistantOwnerRecords(t *testing.T) {
	s := newEmbedded(t)
	up := newMCUpstream(t)
	api := s.startAPI(t)
	withUpstream := s.startAPI(t, "SVC_MODEL_BASE_URL", up.URL()+"/v1", "SVC_MODEL_API_KEY", "sk-test", "SVC_MODEL_NAME", "gpt-test")
	a := newOwner(t, s, api, nil, false)

	if r, _ := ask(t, api, a.key, map[string]any{"message": "create a task: call the flour mill", "mode": "do"}, http.StatusOK); r.Status != "completed" ||
		len(r.Actions) != 1 || r.Actions[0].Type != "task" || r.Actions[0].OK == nil || !*r.Actions[0].OK {
		t.Fatalf("mode do: %+v, want the task saved", r)
	}
	modeAsk := func(msg string) string {
		t.Helper()
		r, _ := ask(t, api, a.key, map[string]any{"message": msg, "mode": "ask"}, http.StatusOK)
		if r.Reply == nil || len(r.Actions) != 0 || r.Approval != nil {
			t.Fatalf("mode ask %q: %+v", msg, r)
		}
		return *r.Reply
	}
	client := mcClient(api, a.key)
	svcAssistant := func(msg string) string {
		t.Helper()
		before := spentOf(t, api, a.key)
		resp, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:    "svc-assistant",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(msg)},
			Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name: mcToolName, Parameters: shared.FunctionParameters(mcToolParams()),
			})},
		})
		if err != nil {
			t.Fatalf("svc-assistant %q: %s", msg, mcErrString(err))
		}
		if len(resp.Choices) != 1 || len(resp.Choices[0].Message.ToolCalls) != 0 || resp.Choices[0].FinishReason != "stop" ||
			resp.Usage.PromptTokens <= 0 || resp.Usage.CompletionTokens <= 0 {
			t.Fatalf("svc-assistant %q: %s, want a text answer with usage", msg, shorten(resp.RawJSON(), 1000))
		}
		if spent := spentOf(t, api, a.key); spent != before+1 {
			t.Errorf("svc-assistant %q: interactions_spent %d, want %d", msg, spent, before+1)
		}
		return resp.Choices[0].Message.Content
	}

	const question = "What tasks do I have?"
	want := modeAsk(question)
	if !strings.Contains(strings.ToLower(want), "call the flour mill") {
		t.Fatalf("mode ask answers %q, without the task", want)
	}
	if got := svcAssistant(question); got != want {
		t.Errorf("svc-assistant answers %q, want mode ask's %q", got, want)
	}

	stream := client.Chat.Completions.NewStreaming(mcCtx(t), openai.ChatCompletionNewParams{
		Model: "svc-assistant", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
	})
	var streamed strings.Builder
	for stream.Next() {
		if ch := stream.Current(); len(ch.Choices) > 0 {
			streamed.WriteString(ch.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil || streamed.String() != want {
		t.Errorf("svc-assistant streamed %q, %v, want %q", streamed.String(), err, want)
	}
	_ = stream.Close()

	resp, err := client.Responses.New(mcCtx(t), responses.ResponseNewParams{
		Model: "svc-assistant", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(question)},
	})
	if err != nil {
		t.Errorf("svc-assistant by the Responses API: %s", mcErrString(err))
	} else if got := resp.OutputText(); got != want {
		t.Errorf("svc-assistant by the Responses API answers %q, want %q", got, want)
	}

	const instruction = "save a lead: Ana ana@example.com"
	wantSaid := modeAsk(instruction)
	if got := svcAssistant(instruction); got != wantSaid {
		t.Errorf("svc-assistant answers %q to %q, want mode ask's %q", got, instruction, wantSaid)
	}
	leads := modeAsk("What leads do I have?")
	if strings.Contains(leads, "Ana") {
		t.Errorf("after %q to svc-assistant the owner's leads are %q: it saved one", instruction, leads)
	}
	if got := svcAssistant("What leads do I have?"); got != leads {
		t.Errorf("svc-assistant: leads %q, want mode ask's %q", got, leads)
	}

	// With an upstream model, the system message carries the owner's records as the owner's
	// assistant gives them to its model.
	up.reset()
	upClient := mcClient(withUpstream, a.key)
	_, err = upClient.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
		Model: "svc-assistant", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
	})
	if err != nil {
		t.Fatalf("svc-assistant with an upstream: %s", mcErrString(err))
	}
	call := up.only(t, "/v1/chat/completions")
	msgs, _ := call.body["messages"].([]any)
	var system string
	if len(msgs) > 0 {
		if m, ok := msgs[0].(map[string]any); ok && m["role"] == "system" {
			system = contentText(m["content"])
		}
	}
	if !strings.Contains(system, "The owner's latest records:") || !strings.Contains(strings.ToLower(system), "call the flour mill") {
		t.Errorf("svc-assistant's system message %q lacks the owner's task", shorten(system, 2000))
	}
}
