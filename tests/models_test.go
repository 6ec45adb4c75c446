package tests

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// The model-compatible endpoints (spec 2.13, 4.8, 7, 8; issue 6), driven with the official OpenAI
// Go SDK against a fake OpenAI-compatible upstream that the test serves on loopback and that
// records what it is sent.

// What the fake upstream answers. The last user message picks the behaviour: "#tool" asks for
// get_weather (and a tool result after it gets mcToolAnswer), "#json-ok" and "#json-bad" answer
// JSON that follows or breaks mcWeatherSchema, "#gate" holds a stream after its first piece until
// the test has read that piece from the service; anything else gets mcPlainReply.
const (
	mcUpstreamModel  = "fake-upstream-model"
	mcUpstreamKey    = "sk-fake-upstream"
	mcPromptTokens   = 37
	mcOutputTokens   = 11
	mcPlainReply     = "Hello from the fake upstream: the bakery opens at seven every morning."
	mcToolCallID     = "call_weather_1"
	mcToolName       = "get_weather"
	mcToolArgs       = `{"city":"Lisbon","unit":"celsius"}`
	mcToolResult     = `{"temp_c":21,"sky":"sunny"}`
	mcToolAnswer     = "It is 21 °C and sunny in Lisbon."
	mcJSONGood       = `{"city":"Lisbon","temp_c":21}`
	mcJSONBad        = `{"city":"Lisbon","temp_c":"warm"}`
	mcGateWait       = 15 * time.Second // how long a "#gate" stream waits for the test
	mcCallTimeout    = 60 * time.Second
	mcUpstreamDims   = 8 // the fake's embedding size when the request names none
	mcBuiltinDims    = 256
	mcTinyPNGDataURL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)

// mcWeatherSchema is the JSON Schema of the structured-output tests and the tool's parameters.
func mcWeatherSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"city":   map[string]any{"type": "string"},
			"temp_c": map[string]any{"type": "integer"},
		},
		"required":             []any{"city", "temp_c"},
		"additionalProperties": false,
	}
}

func mcToolParams() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"city": map[string]any{"type": "string", "description": "City name"},
			"unit": map[string]any{"type": "string", "enum": []any{"celsius", "fahrenheit"}},
		},
		"required": []any{"city"},
	}
}

// ---------------------------------------------------------------------------------------------
// With an upstream, in the production environment

// TestModelEndpoints drives POST /v1/chat/completions, /v1/responses and /v1/embeddings with the
// official SDK, in the production environment (svc-api and svc-worker over Postgres and Redis)
// with the fake upstream: a plain completion, a stream with usage at the end, tool calls (whole
// and streamed), structured output, a Responses function call round trip and a Responses stream,
// embeddings as floats and base64, the 400s of the limits, and the usage labels.
func TestModelEndpoints(t *testing.T) {
	s := newProduction(t)
	up := newMCUpstream(t)
	modelEnv := []string{
		"SVC_MODEL_BASE_URL", up.URL() + "/v1",
		"SVC_MODEL_API_KEY", mcUpstreamKey,
		"SVC_MODEL_NAME", mcUpstreamModel,
	}
	api := s.startAPI(t, modelEnv...)
	s.startWorker(t, modelEnv...)
	a := s.newAccount(t, "--plan", "pro")
	client := mcClient(api, a.key)

	t.Run("plain completion", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		ctx := mcCtx(t)
		resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model: "gpt-4o", // any other name is answered by svc, and says so
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.SystemMessage("You are the bakery's helper. Answer in one sentence."),
				openai.DeveloperMessage("Prefer short words."),
				openai.UserMessage("Hi there"),
				openai.AssistantMessage("Hello! How can I help?"),
				openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
					openai.TextContentPart("When do you open? And what is in these pictures?"),
					openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "https://images.example.com/bread.jpg"}),
					openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: mcTinyPNGDataURL}),
				}),
			},
			Temperature: openai.Float(0.3),
			TopP:        openai.Float(0.9),
			Seed:        openai.Int(7),
			Stop:        openai.ChatCompletionNewParamsStopUnion{OfStringArray: []string{"END"}},
			MaxTokens:   openai.Int(5000), // above the cap of 2,000
		})
		if err != nil {
			t.Fatalf("Chat.Completions.New: %s", mcErrString(err))
		}
		mcCheckCompletion(t, resp)
		if resp.Model != "svc" {
			t.Errorf("model %q, want svc whatever name was sent", resp.Model)
		}
		choice := resp.Choices[0]
		if choice.Message.Content != mcPlainReply {
			t.Errorf("content %q, want the upstream's %q", choice.Message.Content, mcPlainReply)
		}
		if choice.FinishReason != "stop" {
			t.Errorf("finish_reason %q, want stop", choice.FinishReason)
		}
		if len(choice.Message.ToolCalls) != 0 {
			t.Errorf("tool_calls %v in a plain reply", choice.Message.ToolCalls)
		}
		mcWantUsage(t, resp.Usage)
		extra := mcSvcExtra(t, resp.JSON.ExtraFields, resp.RawJSON())
		spent := mcSpent(t, api, a.key)
		if spent != before+1 {
			t.Errorf("GET /v1/account interactions_spent %v after one completion, want %v", spent, before+1)
		}
		mcWantSvcExtra(t, extra, spent, 10000)

		call := up.only(t, "/v1/chat/completions")
		if call.auth != "Bearer "+mcUpstreamKey {
			t.Errorf("upstream Authorization %q, want Bearer %s", call.auth, mcUpstreamKey)
		}
		if got := call.body.str("model"); got != mcUpstreamModel {
			t.Errorf("upstream model %q, want %s (SVC_MODEL_NAME)", got, mcUpstreamModel)
		}
		if v, _ := call.body.get("stream"); v == true {
			t.Errorf("the upstream call of a non-streamed completion is streamed")
		}
		mcWantMessages(t, call, []string{
			"system|You are the bakery's helper. Answer in one sentence.",
			"developer|Prefer short words.",
			"user|Hi there",
			"assistant|Hello! How can I help?",
			"user|When do you open? And what is in these pictures?|img:https://images.example.com/bread.jpg|img:" + mcTinyPNGDataURL,
		})
		for field, want := range map[string]any{"temperature": 0.3, "top_p": 0.9, "seed": 7.0, "stop": []any{"END"}} {
			got, _ := call.body.get(field)
			if s, ok := got.(string); ok && field == "stop" {
				got = []any{s}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("upstream %s = %v, want %v as sent", field, got, want)
			}
		}
		mt, hasMT := call.body.num("max_tokens")
		mct, hasMCT := call.body.num("max_completion_tokens")
		switch {
		case !hasMT && !hasMCT:
			t.Errorf("the upstream got neither max_tokens nor max_completion_tokens; want 2000 (the cap): %s", shorten(string(call.raw), 600))
		case hasMT && mt != 2000 || hasMCT && mct != 2000:
			t.Errorf("upstream max_tokens %v / max_completion_tokens %v for a request of 5000, want 2000 (the cap)", mt, mct)
		}
	})

	t.Run("streamed completion with usage", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		ctx := mcCtx(t)
		stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
			Model:         "my-fine-tune",
			Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me about your bread #gate")},
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		})
		defer stream.Close()
		acc := openai.ChatCompletionAccumulator{}
		var chunks []openai.ChatCompletionChunk
		var contentPieces []string
		firstBeforeUpstreamDone := false
		for stream.Next() {
			ch := stream.Current()
			if !acc.AddChunk(ch) {
				t.Errorf("the SDK's accumulator rejected chunk %d: %s", len(chunks), ch.RawJSON())
			}
			chunks = append(chunks, ch)
			for _, c := range ch.Choices {
				if c.Delta.Content == "" {
					continue
				}
				if len(contentPieces) == 0 {
					// The upstream holds the rest of its stream until this first piece is here:
					// a service that buffers the stream delivers it only after the hold times out.
					firstBeforeUpstreamDone = !up.gateTimedOut.Load()
					up.openGate()
				}
				contentPieces = append(contentPieces, c.Delta.Content)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %s", mcErrString(err))
		}
		if len(chunks) == 0 {
			t.Fatal("the stream had no chunk")
		}
		if !firstBeforeUpstreamDone {
			t.Errorf("the first piece reached the client only after the upstream's stream was held for %s: the service buffers the stream instead of flushing chunk by chunk", mcGateWait)
		}
		if got := strings.Join(contentPieces, ""); got != mcPlainReply {
			t.Errorf("streamed content %q, want %q", got, mcPlainReply)
		}
		if len(contentPieces) < 2 {
			t.Errorf("the content came in %d piece(s); the upstream sent it in %d", len(contentPieces), len(mcPieces(mcPlainReply)))
		}
		finish := ""
		for i, ch := range chunks {
			if ch.ID == "" || ch.ID != chunks[0].ID {
				t.Errorf("chunk %d id %q, want one non-empty id for the whole stream (first %q)", i, ch.ID, chunks[0].ID)
			}
			if raw := ch.JSON.Object.Raw(); raw != `"chat.completion.chunk"` {
				t.Errorf("chunk %d object %s, want \"chat.completion.chunk\"", i, raw)
			}
			if !ch.JSON.Created.Valid() || !ch.JSON.Model.Valid() || !ch.JSON.Choices.Valid() {
				t.Errorf("chunk %d lacks created, model or choices: %s", i, ch.RawJSON())
			}
			if ch.Model != "svc" {
				t.Errorf("chunk %d model %q, want svc for the name my-fine-tune", i, ch.Model)
			}
			if i < len(chunks)-1 && ch.JSON.Usage.Valid() {
				t.Errorf("chunk %d of %d carries usage; only the last should: %s", i, len(chunks), ch.RawJSON())
			}
			for _, c := range ch.Choices {
				if c.FinishReason != "" {
					finish = c.FinishReason
				}
			}
		}
		if finish != "stop" {
			t.Errorf("finish_reason %q in the stream, want stop", finish)
		}
		last := chunks[len(chunks)-1]
		if !last.JSON.Usage.Valid() {
			t.Errorf("the last chunk has no usage (stream_options.include_usage): %s", last.RawJSON())
		} else {
			mcWantUsage(t, last.Usage)
			if len(last.Choices) != 0 {
				t.Errorf("the usage chunk has %d choices, want an empty list", len(last.Choices))
			}
		}
		if len(acc.Choices) != 1 || acc.Choices[0].Message.Content != mcPlainReply || acc.Choices[0].FinishReason != "stop" {
			t.Errorf("the accumulated completion is %s, want content %q and finish_reason stop", acc.RawJSON(), mcPlainReply)
		}
		mcWantUsage(t, acc.Usage)
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one streamed completion, want %v", got, before+1)
		}
		call := up.only(t, "/v1/chat/completions")
		if v, _ := call.body.get("stream"); v != true {
			t.Errorf("the upstream call of a streamed completion is not streamed: %s", shorten(string(call.raw), 400))
		}
	})

	t.Run("streamed completion on the wire", func(t *testing.T) {
		// The SDK hides the framing; read it raw once: event stream, no compression, chunks as
		// data lines and data: [DONE] at the end.
		before := mcSpent(t, api, a.key)
		body := `{"model":"svc","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Hello"}]}`
		req, _ := http.NewRequest("POST", api.URL()+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+a.key)
		req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport does not unzip it
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatalf("POST /v1/chat/completions stream: %v", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			raw, _ := io.ReadAll(resp.Body)
			t.Fatalf("POST /v1/chat/completions stream: %d %s", resp.StatusCode, raw)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
			t.Errorf("Content-Type %q, want text/event-stream", ct)
		}
		if ce := resp.Header.Get("Content-Encoding"); ce != "" {
			t.Errorf("Content-Encoding %q on a stream, want none", ce)
		}
		var data []string
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, ":") {
				continue
			}
			d, ok := strings.CutPrefix(line, "data:")
			if !ok {
				if !strings.HasPrefix(line, "event:") && !strings.HasPrefix(line, "id:") && !strings.HasPrefix(line, "retry:") {
					t.Errorf("unexpected line in the event stream: %q", line)
				}
				continue
			}
			data = append(data, strings.TrimSpace(d))
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if len(data) < 3 || data[len(data)-1] != "[DONE]" {
			t.Fatalf("data lines %q, want chunks then [DONE]", data)
		}
		for i, d := range data[:len(data)-1] {
			o := parseObj(d)
			if o == nil || o.str("object") != "chat.completion.chunk" {
				t.Errorf("data line %d is not a chat.completion.chunk: %s", i, d)
				continue
			}
			if _, has := o["error"]; has {
				t.Errorf("chunk %d has an error member (the SDK reads any as a stream error): %s", i, d)
			}
		}
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one streamed completion, want %v", got, before+1)
		}
	})

	t.Run("tool call round trip", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		ctx := mcCtx(t)
		tools := []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        mcToolName,
			Description: openai.String("Current weather of a city"),
			Parameters:  shared.FunctionParameters(mcToolParams()),
		})}
		messages := []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You answer weather questions with the tool."),
			openai.UserMessage("What's the weather in Lisbon? #tool"),
		}
		first, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model: "svc", Messages: messages, Tools: tools,
			ToolChoice: openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		})
		if err != nil {
			t.Fatalf("first round: %s", mcErrString(err))
		}
		mcCheckCompletion(t, first)
		msg := first.Choices[0].Message
		if first.Choices[0].FinishReason != "tool_calls" {
			t.Errorf("finish_reason %q, want tool_calls", first.Choices[0].FinishReason)
		}
		if len(msg.ToolCalls) != 1 {
			t.Fatalf("tool_calls %s, want one", first.Choices[0].Message.RawJSON())
		}
		tc := msg.ToolCalls[0]
		if tc.ID != mcToolCallID || tc.Type != "function" || tc.Function.Name != mcToolName || tc.Function.Arguments != mcToolArgs {
			t.Errorf("tool call %s, want id %s, type function, %s(%s)", tc.RawJSON(), mcToolCallID, mcToolName, mcToolArgs)
		}
		if msg.Content != "" {
			t.Errorf("content %q beside the tool call, want null", msg.Content)
		}
		mcWantUsage(t, first.Usage)
		call := up.only(t, "/v1/chat/completions")
		mcWantMessages(t, call, []string{
			"system|You answer weather questions with the tool.",
			"user|What's the weather in Lisbon? #tool",
		})
		mcWantTools(t, call)
		if tcs, _ := call.body.get("tool_choice"); tcs != "auto" {
			t.Errorf("upstream tool_choice %v, want auto", tcs)
		}

		up.reset()
		messages = append(messages, msg.ToParam(), openai.ToolMessage(mcToolResult, tc.ID))
		second, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "svc", Messages: messages, Tools: tools})
		if err != nil {
			t.Fatalf("second round: %s", mcErrString(err))
		}
		mcCheckCompletion(t, second)
		if got := second.Choices[0].Message.Content; got != mcToolAnswer || second.Choices[0].FinishReason != "stop" {
			t.Errorf("second round: content %q finish_reason %q, want %q and stop", got, second.Choices[0].FinishReason, mcToolAnswer)
		}
		call = up.only(t, "/v1/chat/completions")
		mcWantMessages(t, call, []string{
			"system|You answer weather questions with the tool.",
			"user|What's the weather in Lisbon? #tool",
			"assistant|call:" + mcToolCallID + ":" + mcToolName + ":" + mcToolArgs,
			"tool|for:" + mcToolCallID + "|" + mcToolResult,
		})
		if got := mcSpent(t, api, a.key); got != before+2 {
			t.Errorf("interactions_spent %v after two model replies, want %v", got, before+2)
		}
	})

	t.Run("streamed tool call", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		stream := client.Chat.Completions.NewStreaming(mcCtx(t), openai.ChatCompletionNewParams{
			Model:    "svc",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Lisbon please #tool")},
			Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name: mcToolName, Parameters: shared.FunctionParameters(mcToolParams()),
			})},
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		})
		defer stream.Close()
		acc := openai.ChatCompletionAccumulator{}
		var finished []openai.FinishedChatCompletionToolCall
		deltas := 0
		for stream.Next() {
			ch := stream.Current()
			if !acc.AddChunk(ch) {
				t.Errorf("the accumulator rejected %s", ch.RawJSON())
			}
			for _, c := range ch.Choices {
				deltas += len(c.Delta.ToolCalls)
			}
			if tc, ok := acc.JustFinishedToolCall(); ok {
				finished = append(finished, tc)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %s", mcErrString(err))
		}
		if len(finished) != 1 || finished[0].ID != mcToolCallID || finished[0].Name != mcToolName || finished[0].Arguments != mcToolArgs {
			t.Errorf("finished tool calls %+v, want one %s %s(%s)", finished, mcToolCallID, mcToolName, mcToolArgs)
		}
		if deltas < 2 {
			t.Errorf("%d tool-call deltas, want the call in pieces as the upstream sent it", deltas)
		}
		if len(acc.Choices) != 1 || acc.Choices[0].FinishReason != "tool_calls" || len(acc.Choices[0].Message.ToolCalls) != 1 {
			t.Errorf("accumulated %s, want one tool call and finish_reason tool_calls", acc.RawJSON())
		}
		mcWantUsage(t, acc.Usage)
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one streamed reply, want %v", got, before+1)
		}
	})

	t.Run("reply cut at the cap", func(t *testing.T) {
		up.reset()
		resp, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:               "svc",
			Messages:            []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me everything #length")},
			MaxCompletionTokens: openai.Int(100000),
		})
		if err != nil {
			t.Fatalf("Chat.Completions.New: %s", mcErrString(err))
		}
		mcCheckCompletion(t, resp)
		if got := resp.Choices[0].FinishReason; got != "length" {
			t.Errorf("finish_reason %q for a reply the upstream cut, want length", got)
		}
		call := up.only(t, "/v1/chat/completions")
		for _, f := range []string{"max_tokens", "max_completion_tokens"} {
			if n, ok := call.body.num(f); ok && n > 2000 {
				t.Errorf("upstream %s %v, want at most 2000", f, n)
			}
		}
		stream := client.Chat.Completions.NewStreaming(mcCtx(t), openai.ChatCompletionNewParams{
			Model:    "svc",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me everything #length")},
		})
		defer stream.Close()
		acc := openai.ChatCompletionAccumulator{}
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %s", mcErrString(err))
		}
		if len(acc.Choices) != 1 || acc.Choices[0].FinishReason != "length" {
			t.Errorf("streamed reply the upstream cut: %s, want finish_reason length", acc.RawJSON())
		}
	})

	t.Run("json_schema strict", func(t *testing.T) {
		format := func() openai.ChatCompletionNewParamsResponseFormatUnion {
			return openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "weather", Strict: openai.Bool(true), Schema: mcWeatherSchema()},
			}}
		}
		before := mcSpent(t, api, a.key)
		up.reset()
		resp, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:          "svc",
			Messages:       []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Lisbon as JSON #json-ok")},
			ResponseFormat: format(),
		})
		if err != nil {
			t.Fatalf("valid JSON output: %s", mcErrString(err))
		}
		mcCheckCompletion(t, resp)
		var got, want any
		if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &got); err != nil {
			t.Errorf("content %q is not JSON: %v", resp.Choices[0].Message.Content, err)
		}
		_ = json.Unmarshal([]byte(mcJSONGood), &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("content %q, want %s", resp.Choices[0].Message.Content, mcJSONGood)
		}
		call := up.only(t, "/v1/chat/completions")
		rf, _ := call.body.get("response_format")
		wantRF := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "weather", "strict": true, "schema": mcJSONRoundTrip(mcWeatherSchema())}}
		if !reflect.DeepEqual(rf, wantRF) {
			t.Errorf("upstream response_format %s, want %s", mcJSON(rf), mcJSON(wantRF))
		}
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one reply, want %v", got, before+1)
		}

		before = mcSpent(t, api, a.key)
		up.reset()
		bad, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:          "svc",
			Messages:       []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Lisbon as JSON #json-bad")},
			ResponseFormat: format(),
		})
		if err == nil {
			t.Errorf("a reply that breaks the strict schema (%s) passed: %s", mcJSONBad, bad.RawJSON())
		} else {
			var apiErr *openai.Error
			if !errors.As(err, &apiErr) {
				t.Errorf("a reply that breaks the schema: %v, want an API error", err)
			} else {
				t.Logf("a reply that breaks the strict schema: %d code %q type %q param %q: %s", apiErr.StatusCode, apiErr.Code, apiErr.Type, apiErr.Param, apiErr.Message)
				if apiErr.StatusCode < 400 || apiErr.Code == "" || apiErr.Message == "" {
					t.Errorf("schema failure answered %d code %q message %q, want an error status with code and message", apiErr.StatusCode, apiErr.Code, apiErr.Message)
				}
			}
		}
		if got := mcSpent(t, api, a.key); got != before {
			t.Errorf("interactions_spent %v after a failed reply, want %v (nothing charged)", got, before)
		}
		if len(up.calls()) == 0 {
			t.Errorf("the upstream was not called for the schema-breaking reply")
		}

		before = mcSpent(t, api, a.key)
		up.reset()
		jo, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:          "svc",
			Messages:       []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Weather in Lisbon as a JSON object #json-ok")},
			ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}},
		})
		if err != nil {
			t.Fatalf("json_object: %s", mcErrString(err))
		}
		if !json.Valid([]byte(jo.Choices[0].Message.Content)) {
			t.Errorf("json_object content %q is not JSON", jo.Choices[0].Message.Content)
		}
		call = up.only(t, "/v1/chat/completions")
		if rf, _ := call.body.get("response_format"); !reflect.DeepEqual(rf, map[string]any{"type": "json_object"}) {
			t.Errorf("upstream response_format %s, want {\"type\":\"json_object\"}", mcJSON(rf))
		}
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one reply, want %v", got, before+1)
		}
	})

	t.Run("Responses function call round trip", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		ctx := mcCtx(t)
		tools := []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{
			Name:        mcToolName,
			Description: openai.String("Current weather of a city"),
			Parameters:  mcToolParams(),
			Strict:      openai.Bool(false),
		}}}
		input := responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("What's the weather in Lisbon? #tool", responses.EasyInputMessageRoleUser),
		}
		first, err := client.Responses.New(ctx, responses.ResponseNewParams{
			Model:           "svc",
			Instructions:    openai.String("You answer weather questions with the tool."),
			Input:           responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools:           tools,
			MaxOutputTokens: openai.Int(300),
		})
		if err != nil {
			t.Fatalf("first round: %s", mcErrString(err))
		}
		mcCheckResponse(t, first)
		var fc *responses.ResponseFunctionToolCall
		for _, item := range first.Output {
			if item.Type == "function_call" {
				c := item.AsFunctionCall()
				fc = &c
			}
		}
		if fc == nil || len(first.Output) != 1 {
			t.Fatalf("output %s, want one function_call item", mcJSONRaw(first.JSON.Output.Raw()))
		}
		if fc.CallID != mcToolCallID || fc.Name != mcToolName || fc.Arguments != mcToolArgs {
			t.Errorf("function_call %s, want call_id %s %s(%s)", fc.RawJSON(), mcToolCallID, mcToolName, mcToolArgs)
		}
		if f, ok := first.JSON.ExtraFields["store"]; ok && f.Raw() != "false" {
			t.Errorf("store %s, want always false", f.Raw())
		}
		call := up.only(t, "")
		t.Logf("the service sends a Responses request to the upstream's %s", call.path)
		switch call.path {
		case "/v1/chat/completions":
			mcWantMessages(t, call, []string{
				"system|You answer weather questions with the tool.",
				"user|What's the weather in Lisbon? #tool",
			})
			mcWantTools(t, call)
		case "/v1/responses":
			if got := call.body.str("instructions"); got != "You answer weather questions with the tool." {
				t.Errorf("upstream instructions %q", got)
			}
		default:
			t.Errorf("the upstream got %s", call.path)
		}

		up.reset()
		fcParam := fc.ToParam()
		input = append(input,
			responses.ResponseInputItemUnionParam{OfFunctionCall: &fcParam},
			responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
				CallID: openai.String(fc.CallID),
				Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String(mcToolResult)},
			}},
		)
		second, err := client.Responses.New(ctx, responses.ResponseNewParams{
			Model:        "svc",
			Instructions: openai.String("You answer weather questions with the tool."),
			Input:        responses.ResponseNewParamsInputUnion{OfInputItemList: input},
			Tools:        tools,
		})
		if err != nil {
			t.Fatalf("second round: %s", mcErrString(err))
		}
		mcCheckResponse(t, second)
		if got := second.OutputText(); got != mcToolAnswer {
			t.Errorf("second round output_text %q, want %q", got, mcToolAnswer)
		}
		if len(second.Output) != 1 || second.Output[0].Type != "message" || second.Output[0].Role != "assistant" {
			t.Errorf("second round output %s, want one assistant message", mcJSONRaw(second.JSON.Output.Raw()))
		}
		call = up.only(t, "")
		switch call.path {
		case "/v1/chat/completions":
			mcWantMessages(t, call, []string{
				"system|You answer weather questions with the tool.",
				"user|What's the weather in Lisbon? #tool",
				"assistant|call:" + mcToolCallID + ":" + mcToolName + ":" + mcToolArgs,
				"tool|for:" + mcToolCallID + "|" + mcToolResult,
			})
		case "/v1/responses":
			items, _ := call.body.get("input")
			list, _ := items.([]any)
			var types []string
			for _, it := range list {
				m, _ := it.(map[string]any)
				typ, _ := m["type"].(string)
				if typ == "" {
					typ = "message"
				}
				types = append(types, typ)
			}
			if !reflect.DeepEqual(types, []string{"message", "function_call", "function_call_output"}) {
				t.Errorf("upstream input items %v, want message, function_call, function_call_output: %s", types, shorten(string(call.raw), 1500))
			}
		}
		if got := mcSpent(t, api, a.key); got != before+2 {
			t.Errorf("interactions_spent %v after two replies, want %v", got, before+2)
		}
	})

	t.Run("Responses stream", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		up.reset()
		stream := client.Responses.NewStreaming(mcCtx(t), responses.ResponseNewParams{
			Model:        "svc",
			Instructions: openai.String("Be brief."),
			Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String("Tell me about your bread #gate")},
		})
		defer stream.Close()
		firstBeforeUpstreamDone := false
		var (
			types     []string
			deltas    []string
			doneText  string
			final     *responses.Response
			lastSeq   int64 = -1
			seqBroken bool
		)
		for stream.Next() {
			ev := stream.Current()
			types = append(types, ev.Type)
			if ev.JSON.SequenceNumber.Valid() {
				if ev.SequenceNumber <= lastSeq {
					seqBroken = true
				}
				lastSeq = ev.SequenceNumber
			}
			switch ev.Type {
			case "response.output_text.delta":
				if len(deltas) == 0 {
					firstBeforeUpstreamDone = !up.gateTimedOut.Load()
					up.openGate()
				}
				deltas = append(deltas, ev.Delta)
			case "response.output_text.done":
				doneText = ev.AsResponseOutputTextDone().Text
			case "response.completed":
				r := ev.AsResponseCompleted().Response
				final = &r
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("stream: %s", mcErrString(err))
		}
		t.Logf("Responses events: %v", types)
		if !firstBeforeUpstreamDone {
			t.Errorf("the first delta reached the client only after the upstream's stream was held for %s: the service buffers the stream", mcGateWait)
		}
		if len(types) == 0 || types[0] != "response.created" || types[len(types)-1] != "response.completed" {
			t.Errorf("events %v, want response.created first and response.completed last", types)
		}
		wantOrder := []string{"response.created", "response.output_item.added", "response.content_part.added", "response.output_text.delta",
			"response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"}
		if !mcInOrder(types, wantOrder) {
			t.Errorf("events %v, want %v in this order", types, wantOrder)
		}
		if seqBroken || lastSeq < 0 {
			t.Errorf("sequence_number missing or not increasing over the events")
		}
		if got := strings.Join(deltas, ""); got != mcPlainReply || len(deltas) < 2 {
			t.Errorf("deltas %q, want %q in pieces", deltas, mcPlainReply)
		}
		if doneText != mcPlainReply {
			t.Errorf("response.output_text.done text %q, want %q", doneText, mcPlainReply)
		}
		if final == nil {
			t.Fatal("no response.completed event")
		}
		if final.Status != "completed" || final.OutputText() != mcPlainReply {
			t.Errorf("completed response status %q output_text %q, want completed and %q", final.Status, final.OutputText(), mcPlainReply)
		}
		if final.Usage.InputTokens != mcPromptTokens || final.Usage.OutputTokens != mcOutputTokens || final.Usage.TotalTokens != mcPromptTokens+mcOutputTokens {
			t.Errorf("completed response usage %s, want %d in, %d out", final.Usage.RawJSON(), mcPromptTokens, mcOutputTokens)
		}
		if got := mcSpent(t, api, a.key); got != before+1 {
			t.Errorf("interactions_spent %v after one streamed response, want %v", got, before+1)
		}
	})

	t.Run("Embeddings from the upstream", func(t *testing.T) {
		texts := []string{"fresh sourdough bread", "opening hours on Sunday", "bicycle delivery in Alfama"}
		before := mcSpent(t, api, a.key)
		up.reset()
		floats, b64 := mcEmbedBoth(t, client, texts, 16)
		for i, text := range texts {
			want := mcUpVector(text, 16)
			if !mcSameVector(floats[i], want) {
				t.Errorf("vector %d %v, want the upstream's %v", i, floats[i], want)
			}
			if !mcSameVector(b64[i], floats[i]) {
				t.Errorf("base64 vector %d %v differs from the float one %v", i, b64[i], floats[i])
			}
		}
		calls := up.calls()
		if len(calls) == 0 {
			t.Fatal("the upstream got no embeddings call")
		}
		for _, c := range calls {
			if c.path != "/v1/embeddings" {
				t.Errorf("upstream call %s, want /v1/embeddings", c.path)
				continue
			}
			in, _ := c.body.get("input")
			if !reflect.DeepEqual(in, []any{texts[0], texts[1], texts[2]}) && !reflect.DeepEqual(in, texts) {
				t.Errorf("upstream input %v, want the texts in order", in)
			}
			if d, _ := c.body.num("dimensions"); d != 16 {
				t.Errorf("upstream dimensions %v, want 16", d)
			}
		}
		if got := mcSpent(t, api, a.key); got != before+2 {
			t.Errorf("interactions_spent %v after two embeddings requests, want %v", got, before+2)
		}

		// One text, no dimensions: one vector of the upstream's size.
		one, err := client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{
			Model: "text-embedding-3-small",
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("pastéis de nata")},
		})
		if err != nil {
			t.Fatalf("one text: %s", mcErrString(err))
		}
		if len(one.Data) != 1 || !mcSameVector(mcF32(one.Data[0].Embedding), mcUpVector("pastéis de nata", mcUpstreamDims)) {
			t.Errorf("one text: %s, want the upstream's vector", shorten(one.RawJSON(), 400))
		}
	})

	t.Run("errors name the param and cost nothing", func(t *testing.T) {
		e := s.newAccount(t, "--plan", "pro", "--name", "Acme model errors")
		ec := mcClient(api, e.key)
		before := mcSpent(t, api, e.key)
		up.reset()
		mcWantModelErrors(t, ec)
		if got := mcSpent(t, api, e.key); got != before {
			t.Errorf("interactions_spent %v after only failed requests, want %v (nothing charged)", got, before)
		}
		if calls := up.calls(); len(calls) != 0 {
			t.Errorf("the upstream got %d calls for requests the service must refuse: %v", len(calls), calls)
		}
	})

	t.Run("60 requests a minute per account", func(t *testing.T) {
		// Refused requests cost nothing and never reach the upstream, but they count: the burst
		// is 60, refilled at one a second, so a 429 comes within a few more.
		r := s.newAccount(t, "--plan", "pro", "--name", "Acme model rate")
		rc := mcClient(api, r.key)
		hello := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")}
		var limited *openai.Error
		sent := 0
		for sent < 70 && limited == nil {
			_, err := rc.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{Model: "svc", Messages: hello, N: openai.Int(2)})
			sent++
			var apiErr *openai.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("request %d: %v, want an API error", sent, err)
			}
			if apiErr.StatusCode == http.StatusTooManyRequests {
				limited = apiErr
			}
		}
		if limited == nil {
			t.Fatalf("no 429 after %d requests in a row", sent)
		}
		if sent <= 60 {
			t.Errorf("429 at request %d, want 60 allowed first", sent)
		}
		if limited.Code != "rate_limited" {
			t.Errorf("429 code %q, want rate_limited: %s", limited.Code, limited.RawJSON())
		}
		if limited.Response == nil || limited.Response.Header.Get("Retry-After") == "" {
			t.Errorf("429 without a Retry-After header")
		}
		t.Logf("429 at request %d: %s", sent, limited.RawJSON())
		// Another account is not limited by this one's use.
		_, err := client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{Model: "svc-embeddings",
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("still fine")}})
		if err != nil {
			t.Errorf("another account after this one was limited: %s", mcErrString(err))
		}
	})

	t.Run("Usage labels", func(t *testing.T) {
		u := s.newAccount(t, "--plan", "pro", "--name", "Acme model usage")
		uc := mcClient(api, u.key)
		const workflow = "Lead intake – Lisboa & Porto"
		labelsA := []option.RequestOption{
			option.WithHeader("X-Svc-Source", "n8n"),
			option.WithHeader("X-Svc-Workflow", url.PathEscape(workflow)), // as encodeURIComponent: %20
			option.WithHeader("X-Svc-Workflow-Id", "wf_42"),
			option.WithHeader("X-Svc-Execution-Id", "exec_1001"),
		}
		labelsB := []option.RequestOption{
			option.WithHeader("X-Svc-Source", "zapier"),
			option.WithHeader("X-Svc-Workflow", url.PathEscape("Nightly sync")),
			option.WithHeader("X-Svc-Workflow-Id", "wf_7"),
			option.WithHeader("X-Svc-Execution-Id", "exec_9"),
		}
		hello := openai.ChatCompletionNewParams{Model: "svc", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")}}
		for i := 0; i < 2; i++ {
			if _, err := uc.Chat.Completions.New(mcCtx(t), hello, labelsA...); err != nil {
				t.Fatalf("labelled completion: %s", mcErrString(err))
			}
		}
		if _, err := uc.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{Model: "svc-embeddings",
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("sync me")}}, labelsB...); err != nil {
			t.Fatalf("labelled embeddings: %s", mcErrString(err))
		}
		if _, err := uc.Chat.Completions.New(mcCtx(t), hello); err != nil {
			t.Fatalf("unlabelled completion: %s", mcErrString(err))
		}
		if got := mcSpent(t, api, u.key); got != 4 {
			t.Errorf("interactions_spent %v after four requests, want 4", got)
		}
		r := call(t, "GET", api.URL()+"/v1/usage", bearer(u.key)...)
		if r.status != http.StatusOK || r.body == nil {
			t.Fatalf("GET /v1/usage: %s", r)
		}
		t.Logf("GET /v1/usage: %s", shorten(string(r.raw), 3000))
		groups := mcUsageGroups(r.body)
		ga := mcFindGroup(groups, "n8n")
		if ga == nil {
			t.Fatalf("no group labelled source n8n in GET /v1/usage: %s", r.raw)
		}
		mcWantGroup(t, ga, 2, map[string]string{"source": "n8n", "workflow": workflow, "workflow_id": "wf_42"})
		gb := mcFindGroup(groups, "zapier")
		if gb == nil {
			t.Fatalf("no group labelled source zapier in GET /v1/usage: %s", r.raw)
		}
		mcWantGroup(t, gb, 1, map[string]string{"source": "zapier", "workflow": "Nightly sync", "workflow_id": "wf_7"})
		total := 0.0
		for _, g := range groups {
			total += mcGroupInteractions(g)
		}
		if total != 4 {
			t.Errorf("the groups add up to %v interactions, want 4 (two labelled n8n, one zapier, one unlabelled): %s", total, r.raw)
		}
		other := s.newAccount(t, "--plan", "pro", "--name", "Acme other")
		if r := call(t, "GET", api.URL()+"/v1/usage", bearer(other.key)...); r.status != http.StatusOK || mcFindGroup(mcUsageGroups(r.body), "n8n") != nil {
			t.Errorf("another account's GET /v1/usage: %s, want 200 without the first account's labels", r)
		}
	})
}

// ---------------------------------------------------------------------------------------------
// Without an upstream, in the embedded environment

// TestModelBuiltin runs svc-api alone over SQLite with no model upstream: model svc answers 503
// model_unavailable (with how to configure one) and costs nothing; embeddings come from the
// built-in embedder: deterministic, L2-normalised, 256 dimensions by default, similar texts closer
// than unrelated ones, the same vectors as floats and as base64.
func TestModelBuiltin(t *testing.T) {
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := s.newAccount(t, "--plan", "pro")
	client := mcClient(api, a.key)

	t.Run("models list and retrieve", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		page, err := client.Models.List(mcCtx(t))
		if err != nil {
			t.Fatalf("Models.List: %v", err)
		}
		var ids []string
		for _, m := range page.Data {
			ids = append(ids, m.ID)
			if m.Object != "model" || m.Created == 0 || m.OwnedBy == "" {
				t.Errorf("model %+v lacks object, created or owned_by", m)
			}
		}
		if strings.Join(ids, ",") != "svc,svc-assistant,svc-embeddings" {
			t.Errorf("models %v, want svc, svc-assistant, svc-embeddings", ids)
		}
		m, err := client.Models.Get(mcCtx(t), "svc-assistant")
		if err != nil || m.ID != "svc-assistant" {
			t.Errorf("Models.Get(svc-assistant) = %+v, %v", m, err)
		}
		_, err = client.Models.Get(mcCtx(t), "gpt-nope")
		mcWantAPIError(t, "Models.Get of an unknown model", err, http.StatusNotFound, "not_found", "", false)
		if got := mcSpent(t, api, a.key); got != before {
			t.Errorf("interactions_spent %v after listing models, want %v", got, before)
		}
	})

	t.Run("no upstream: model_unavailable", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		_, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model: "svc", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
		})
		apiErr := mcWantAPIError(t, "chat completion without an upstream", err, http.StatusServiceUnavailable, "model_unavailable", "", false)
		if apiErr != nil && !strings.Contains(apiErr.Message, "SVC_MODEL_BASE_URL") {
			t.Errorf("message %q does not say how to configure an upstream (SVC_MODEL_BASE_URL)", apiErr.Message)
		}
		_, err = client.Responses.New(mcCtx(t), responses.ResponseNewParams{
			Model: "svc", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hello")},
		})
		mcWantAPIError(t, "Responses without an upstream", err, http.StatusServiceUnavailable, "model_unavailable", "", false)
		stream := client.Chat.Completions.NewStreaming(mcCtx(t), openai.ChatCompletionNewParams{
			Model: "some-other-model", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")},
		})
		for stream.Next() {
			t.Errorf("a chunk without an upstream: %s", stream.Current().RawJSON())
		}
		mcWantAPIError(t, "streamed completion of an unknown model (answered by svc) without an upstream", stream.Err(), http.StatusServiceUnavailable, "model_unavailable", "", false)
		_ = stream.Close()
		if got := mcSpent(t, api, a.key); got != before {
			t.Errorf("interactions_spent %v after failed requests, want %v", got, before)
		}
	})

	t.Run("svc-assistant answers without an upstream", func(t *testing.T) {
		if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Padaria Lu", "languages": []string{"en"}, "tone": "warm"}, bearer(a.key)...); r.status != http.StatusOK {
			t.Fatalf("PATCH /v1/agent: %s", r)
		}
		before := mcSpent(t, api, a.key)
		resp, err := client.Chat.Completions.New(mcCtx(t), openai.ChatCompletionNewParams{
			Model:    "svc-assistant",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello, who are you?")},
			Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name: mcToolName, Parameters: shared.FunctionParameters(mcToolParams()),
			})},
		})
		if err != nil {
			t.Fatalf("svc-assistant: %s", mcErrString(err))
		}
		if len(resp.Choices) != 1 || resp.Choices[0].Message.Content == "" || len(resp.Choices[0].Message.ToolCalls) != 0 || resp.Choices[0].FinishReason != "stop" {
			t.Errorf("svc-assistant: %s, want a text answer (tools ignored)", shorten(resp.RawJSON(), 1000))
		}
		if !resp.JSON.Usage.Valid() || resp.Usage.PromptTokens <= 0 || resp.Usage.CompletionTokens <= 0 || resp.Usage.TotalTokens != resp.Usage.PromptTokens+resp.Usage.CompletionTokens {
			t.Errorf("svc-assistant usage %s, want counted tokens", resp.Usage.RawJSON())
		}
		spent := mcSpent(t, api, a.key)
		if spent != before+1 {
			t.Errorf("interactions_spent %v after one reply, want %v", spent, before+1)
		}
		mcWantSvcExtra(t, mcSvcExtra(t, resp.JSON.ExtraFields, resp.RawJSON()), spent, 10000)
		stream := client.Responses.NewStreaming(mcCtx(t), responses.ResponseNewParams{
			Model: "svc-assistant", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Do you have gluten-free bread?")},
		})
		defer stream.Close()
		var text string
		completed := false
		for stream.Next() {
			ev := stream.Current()
			text += ev.Delta
			completed = completed || ev.Type == "response.completed"
		}
		if err := stream.Err(); err != nil || !completed || text == "" {
			t.Errorf("svc-assistant Responses stream: err %v, completed %v, text %q", err, completed, text)
		}
	})

	t.Run("built-in embeddings", func(t *testing.T) {
		texts := []string{
			"Fresh sourdough bread baked every morning",
			"Our sourdough bread is baked fresh each morning",
			"The motorcycle engine needs new spark plugs",
		}
		before := mcSpent(t, api, a.key)
		floats, b64 := mcEmbedBoth(t, client, texts, 0)
		for i := range texts {
			if len(floats[i]) != mcBuiltinDims {
				t.Errorf("vector %d has %d dimensions, want %d", i, len(floats[i]), mcBuiltinDims)
			}
			if n := mcNorm(floats[i]); math.Abs(n-1) > 1e-3 {
				t.Errorf("vector %d has norm %v, want 1 (L2-normalised)", i, n)
			}
			if !mcSameVector(b64[i], floats[i]) {
				t.Errorf("base64 vector %d differs from the float one", i)
			}
		}
		similar, unrelated := mcCosine(floats[0], floats[1]), mcCosine(floats[0], floats[2])
		t.Logf("cosine: similar %.3f, unrelated %.3f", similar, unrelated)
		if similar <= unrelated {
			t.Errorf("similar texts score %.3f, unrelated %.3f: want the similar pair higher", similar, unrelated)
		}
		again, err := client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{
			Model: "whatever", Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String(texts[0])},
		})
		if err != nil {
			t.Fatalf("one text: %s", mcErrString(err))
		}
		if len(again.Data) != 1 || !reflect.DeepEqual(mcF32(again.Data[0].Embedding), floats[0]) {
			t.Errorf("the same text embedded again gives another vector: not deterministic")
		}
		if again.Model != "svc-embeddings" {
			t.Errorf("model %q, want svc-embeddings whatever the request names", again.Model)
		}
		small, err := client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{
			Model: "svc-embeddings", Dimensions: openai.Int(64),
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts[:2]},
		})
		if err != nil {
			t.Fatalf("dimensions 64: %s", mcErrString(err))
		}
		for i, d := range small.Data {
			if len(d.Embedding) != 64 || math.Abs(mcNorm(mcF32(d.Embedding))-1) > 1e-3 {
				t.Errorf("dimensions 64: vector %d has %d dimensions, norm %v", i, len(d.Embedding), mcNorm(mcF32(d.Embedding)))
			}
		}
		if got := mcSpent(t, api, a.key); got != before+4 {
			t.Errorf("interactions_spent %v after four embeddings requests, want %v (1 each, whatever the number of texts)", got, before+4)
		}
	})

	t.Run("embeddings limits", func(t *testing.T) {
		before := mcSpent(t, api, a.key)
		texts := make([]string, 257)
		for i := range texts {
			texts[i] = fmt.Sprintf("text %d", i)
		}
		_, err := client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{Model: "svc-embeddings",
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts}})
		mcWantAPIError(t, "257 embedding texts", err, http.StatusBadRequest, "invalid_request", "input", false) // a count, not characters (spec part 7)
		_, err = client.Embeddings.New(mcCtx(t), openai.EmbeddingNewParams{Model: "svc-embeddings",
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{strings.Repeat("a", 16001), strings.Repeat("b", 16000)}}})
		mcWantAPIError(t, "32,001 characters of embedding input", err, http.StatusBadRequest, "input_too_large", "input", false)
		if got := mcSpent(t, api, a.key); got != before {
			t.Errorf("interactions_spent %v after refused requests, want %v", got, before)
		}
	})
}

// mcWantModelErrors sends the requests the limits refuse and checks each answer's status, code
// and param.
func mcWantModelErrors(t *testing.T, c openai.Client) {
	t.Helper()
	hello := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hello")}
	image := func(i int) openai.ChatCompletionContentPartUnionParam {
		return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: fmt.Sprintf("https://images.example.com/%d.jpg", i)})
	}
	parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart("What is in these pictures?")}
	for i := range 5 {
		parts = append(parts, image(i))
	}
	texts := make([]string, 257)
	for i := range texts {
		texts[i] = fmt.Sprintf("text %d", i)
	}
	cases := []struct {
		name   string
		send   func(ctx context.Context) error
		status int
		code   string
		param  string
		prefix bool // param must start with it (a path into the field)
	}{
		{"n: 2", func(ctx context.Context) error {
			_, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "svc", Messages: hello, N: openai.Int(2)})
			return err
		}, 400, "invalid_request", "n", false},
		{"functions", func(ctx context.Context) error {
			_, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "svc", Messages: hello,
				Functions: []openai.ChatCompletionNewParamsFunction{{Name: mcToolName, Parameters: shared.FunctionParameters(mcToolParams())}}})
			return err
		}, 400, "invalid_request", "functions", false},
		{"33,000 characters", func(ctx context.Context) error {
			_, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "svc",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strings.Repeat("bread ", 5500))}})
			return err
		}, 400, "input_too_large", "messages", true},
		{"33,000 characters streamed", func(ctx context.Context) error {
			st := c.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "svc",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strings.Repeat("bread ", 5500))}})
			defer st.Close()
			for st.Next() {
			}
			return st.Err()
		}, 400, "input_too_large", "messages", true},
		{"5 images", func(ctx context.Context) error {
			_, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "svc",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(parts)}})
			return err
		}, 400, "invalid_request", "messages", true}, // a count of images, not characters of text (spec part 7)
		{"previous_response_id", func(ctx context.Context) error {
			_, err := c.Responses.New(ctx, responses.ResponseNewParams{Model: "svc", PreviousResponseID: openai.String("resp_123"),
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("And then?")}})
			return err
		}, 400, "invalid_request", "previous_response_id", false},
		{"Responses with 33,000 characters", func(ctx context.Context) error {
			_, err := c.Responses.New(ctx, responses.ResponseNewParams{Model: "svc",
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(strings.Repeat("bread ", 5500))}})
			return err
		}, 400, "input_too_large", "input", true},
		{"Responses with a built-in tool", func(ctx context.Context) error {
			_, err := c.Responses.New(ctx, responses.ResponseNewParams{Model: "svc",
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Search the web")},
				Tools: []responses.ToolUnionParam{{OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch}}}})
			return err
		}, 400, "invalid_request", "tools", true},
		{"257 embedding texts", func(ctx context.Context) error {
			_, err := c.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: "svc-embeddings", Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts}})
			return err
		}, 400, "invalid_request", "input", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.send(mcCtx(t))
			mcWantAPIError(t, tc.name, err, tc.status, tc.code, tc.param, tc.prefix)
		})
	}
}

// ---------------------------------------------------------------------------------------------
// SDK helpers

// mcClient returns an SDK client of the service with key. It never retries: each call is one
// request, counted once.
func mcClient(api *proc, key string) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(api.URL()+"/v1/"),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
		option.WithHTTPClient(checkingClient(2*mcCallTimeout)),
	)
}

func mcCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(withTest(context.Background(), t), mcCallTimeout)
	t.Cleanup(cancel)
	return ctx
}

// mcErrString renders an SDK error with the body of an API error.
func mcErrString(err error) string {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return fmt.Sprintf("%d %s", apiErr.StatusCode, apiErr.RawJSON())
	}
	return err.Error()
}

// mcWantAPIError checks that err is the SDK's API error with status, code (unless "") and param
// (unless ""; a prefix of it when prefix), and a message; it returns it (nil when it is not one).
func mcWantAPIError(t testing.TB, what string, err error, status int, code, param string, prefix bool) *openai.Error {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %d %s", what, status, code)
		return nil
	}
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		t.Errorf("%s: %v, want an API error %d %s", what, err, status, code)
		return nil
	}
	t.Logf("%s: %d %s", what, apiErr.StatusCode, apiErr.RawJSON())
	if apiErr.StatusCode != status {
		t.Errorf("%s: status %d, want %d: %s", what, apiErr.StatusCode, status, apiErr.RawJSON())
	}
	if code != "" && apiErr.Code != code {
		t.Errorf("%s: code %q, want %q: %s", what, apiErr.Code, code, apiErr.RawJSON())
	}
	switch {
	case param == "":
	case prefix && !strings.HasPrefix(apiErr.Param, param):
		t.Errorf("%s: param %q, want %s…: %s", what, apiErr.Param, param, apiErr.RawJSON())
	case !prefix && apiErr.Param != param:
		t.Errorf("%s: param %q, want %q: %s", what, apiErr.Param, param, apiErr.RawJSON())
	}
	if apiErr.Message == "" {
		t.Errorf("%s: empty message: %s", what, apiErr.RawJSON())
	}
	return apiErr
}

// mcCheckCompletion checks the fields of spec 2.13 that every chat completion has.
func mcCheckCompletion(t testing.TB, c *openai.ChatCompletion) {
	t.Helper()
	if c.ID == "" || !c.JSON.ID.Valid() {
		t.Errorf("completion without id: %s", c.RawJSON())
	}
	if raw := c.JSON.Object.Raw(); raw != `"chat.completion"` {
		t.Errorf("object %s, want \"chat.completion\"", raw)
	}
	if now := time.Now().Unix(); !c.JSON.Created.Valid() || c.Created < now-600 || c.Created > now+600 {
		t.Errorf("created %s, want the unix time of now", c.JSON.Created.Raw())
	}
	if c.Model == "" {
		t.Errorf("completion without model: %s", c.RawJSON())
	}
	if len(c.Choices) != 1 {
		t.Fatalf("%d choices, want 1: %s", len(c.Choices), c.RawJSON())
	}
	ch := c.Choices[0]
	if ch.Index != 0 || !ch.JSON.Index.Valid() || !ch.JSON.FinishReason.Valid() || !ch.JSON.Message.Valid() {
		t.Errorf("choice lacks index, finish_reason or message: %s", ch.RawJSON())
	}
	if raw := ch.Message.JSON.Role.Raw(); raw != `"assistant"` {
		t.Errorf("message role %s, want \"assistant\"", raw)
	}
	if !c.JSON.Usage.Valid() {
		t.Errorf("completion without usage: %s", c.RawJSON())
	}
}

// mcCheckResponse checks the fields every Responses object has.
func mcCheckResponse(t testing.TB, r *responses.Response) {
	t.Helper()
	if !strings.HasPrefix(r.ID, "resp") {
		t.Errorf("response id %q, want resp…", r.ID)
	}
	if raw := r.JSON.Object.Raw(); raw != `"response"` {
		t.Errorf("object %s, want \"response\"", raw)
	}
	if r.Status != "completed" {
		t.Errorf("status %q, want completed", r.Status)
	}
	if !r.JSON.CreatedAt.Valid() || !r.JSON.Output.Valid() || !r.JSON.Model.Valid() {
		t.Errorf("response lacks created_at, output or model: %s", shorten(r.RawJSON(), 1500))
	}
	if r.Usage.InputTokens != mcPromptTokens || r.Usage.OutputTokens != mcOutputTokens || r.Usage.TotalTokens != mcPromptTokens+mcOutputTokens {
		t.Errorf("usage %s, want %d input and %d output tokens as the upstream counted", r.Usage.RawJSON(), mcPromptTokens, mcOutputTokens)
	}
}

// mcWantUsage checks usage against the fake upstream's counts.
func mcWantUsage(t testing.TB, u openai.CompletionUsage) {
	t.Helper()
	if u.PromptTokens != mcPromptTokens || u.CompletionTokens != mcOutputTokens || u.TotalTokens != mcPromptTokens+mcOutputTokens {
		t.Errorf("usage %s, want prompt %d, completion %d, total %d as the upstream reported", u.RawJSON(), mcPromptTokens, mcOutputTokens, mcPromptTokens+mcOutputTokens)
	}
}

type mcSvcUsage struct {
	Spent     *float64 `json:"interactions_spent"`
	Remaining *float64 `json:"interactions_remaining"`
	Limit     *float64 `json:"interactions_limit"`
}

// mcSvcExtra reads the extra svc object of a response.
func mcSvcExtra(t testing.TB, extra map[string]respjson.Field, raw string) mcSvcUsage {
	t.Helper()
	var out mcSvcUsage
	f, ok := extra["svc"]
	if !ok {
		t.Errorf("no svc object in the response: %s", shorten(raw, 800))
		return out
	}
	if err := json.Unmarshal([]byte(f.Raw()), &out); err != nil {
		t.Errorf("svc %s: %v", f.Raw(), err)
	}
	return out
}

func mcWantSvcExtra(t testing.TB, got mcSvcUsage, spent, limit float64) {
	t.Helper()
	if got.Spent == nil || got.Remaining == nil || got.Limit == nil {
		t.Errorf("svc object %+v lacks interactions_spent, interactions_remaining or interactions_limit", got)
		return
	}
	if *got.Spent != spent || *got.Limit != limit || *got.Remaining != limit-spent {
		t.Errorf("svc {spent %v remaining %v limit %v}, want {%v %v %v}", *got.Spent, *got.Remaining, *got.Limit, spent, limit-spent, limit)
	}
}

// mcEmbedBoth embeds texts as floats and as base64 (dimensions unless 0) and returns the vectors
// of each, checking the response's shape; the base64 ones are decoded from the raw JSON, and must
// match the SDK's own decoding.
func mcEmbedBoth(t testing.TB, c openai.Client, texts []string, dims int) (floats, b64 [][]float32) {
	t.Helper()
	for _, format := range []openai.EmbeddingNewParamsEncodingFormat{openai.EmbeddingNewParamsEncodingFormatFloat, openai.EmbeddingNewParamsEncodingFormatBase64} {
		p := openai.EmbeddingNewParams{
			Model:          "text-embedding-3-small",
			Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
			EncodingFormat: format,
		}
		if dims > 0 {
			p.Dimensions = openai.Int(int64(dims))
		}
		resp, err := c.Embeddings.New(mcCtx(t), p)
		if err != nil {
			t.Fatalf("embeddings (%s): %s", format, mcErrString(err))
		}
		if resp.Model != "svc-embeddings" {
			t.Errorf("embeddings (%s): model %q, want svc-embeddings", format, resp.Model)
		}
		if raw := resp.JSON.Object.Raw(); raw != `"list"` {
			t.Errorf("embeddings (%s): object %s, want \"list\"", format, raw)
		}
		if !resp.JSON.Usage.Valid() || !resp.Usage.JSON.PromptTokens.Valid() || !resp.Usage.JSON.TotalTokens.Valid() {
			t.Errorf("embeddings (%s): usage %s, want prompt_tokens and total_tokens", format, resp.JSON.Usage.Raw())
		}
		if len(resp.Data) != len(texts) {
			t.Fatalf("embeddings (%s): %d vectors for %d texts", format, len(resp.Data), len(texts))
		}
		var vs [][]float32
		for i, d := range resp.Data {
			if d.Index != int64(i) || d.JSON.Object.Raw() != `"embedding"` {
				t.Errorf("embeddings (%s): item %d has index %d object %s", format, i, d.Index, d.JSON.Object.Raw())
			}
			if dims > 0 && len(d.Embedding) != dims {
				t.Errorf("embeddings (%s): vector %d has %d dimensions, want %d", format, i, len(d.Embedding), dims)
			}
			raw := d.JSON.Embedding.Raw()
			if format == openai.EmbeddingNewParamsEncodingFormatFloat {
				if !strings.HasPrefix(raw, "[") {
					t.Errorf("embeddings (float): vector %d is %s, want a list of numbers", i, shorten(raw, 80))
				}
				vs = append(vs, mcF32(d.Embedding))
				continue
			}
			var s string
			if err := json.Unmarshal([]byte(raw), &s); err != nil {
				t.Fatalf("embeddings (base64): vector %d is %s, want a base64 string", i, shorten(raw, 80))
			}
			v, err := mcDecodeB64(s)
			if err != nil {
				t.Fatalf("embeddings (base64): vector %d: %v", i, err)
			}
			if !mcSameVector(v, mcF32(d.Embedding)) {
				t.Errorf("embeddings (base64): the SDK decodes vector %d otherwise than little-endian float32", i)
			}
			vs = append(vs, v)
		}
		if format == openai.EmbeddingNewParamsEncodingFormatFloat {
			floats = vs
		} else {
			b64 = vs
		}
	}
	return floats, b64
}

func mcDecodeB64(s string) ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%d bytes, not a whole number of float32", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
	}
	return v, nil
}

func mcF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// mcSameVector compares vectors to float32 precision.
func mcSameVector(a, b []float32) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i])-float64(b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func mcNorm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func mcCosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot / (mcNorm(a) * mcNorm(b))
}

// mcSpent returns the account's interactions_spent from GET /v1/account.
func mcSpent(t testing.TB, api *proc, key string) float64 {
	t.Helper()
	r := call(t, "GET", api.URL()+"/v1/account", bearer(key)...)
	if r.status != http.StatusOK || r.body == nil {
		t.Fatalf("GET /v1/account: %s", r)
	}
	n, ok := r.body.num("usage.interactions_spent")
	if !ok {
		t.Fatalf("GET /v1/account: no usage.interactions_spent: %s", r)
	}
	return n
}

// mcInOrder reports whether want appear in got in this order (other items may come between).
func mcInOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func mcJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mcJSONRaw(raw string) string { return shorten(raw, 1500) }

// mcJSONRoundTrip returns v as encoding/json decodes its encoding (numbers as float64 …).
func mcJSONRoundTrip(v any) any {
	var out any
	_ = json.Unmarshal([]byte(mcJSON(v)), &out)
	return out
}

// ---------------------------------------------------------------------------------------------
// What the upstream received

// mcWantMessages checks that the upstream got the messages of want (mcMessageSummary form), whole
// and in order, at the end of its messages: the service may put a system prompt of its own first,
// and may send a developer message as a system one.
func mcWantMessages(t testing.TB, call mcUpCall, want []string) {
	t.Helper()
	raw, _ := call.body.get("messages")
	list, _ := raw.([]any)
	var got []string
	for _, m := range list {
		mm, _ := m.(map[string]any)
		got = append(got, mcMessageSummary(mm))
	}
	norm := func(s string) string {
		if rest, ok := strings.CutPrefix(s, "developer|"); ok {
			return "system|" + rest
		}
		return s
	}
	if len(got) < len(want) {
		t.Errorf("the upstream got %d messages, want %d:\n got %q\nwant %q", len(got), len(want), got, want)
		return
	}
	tail := got[len(got)-len(want):]
	for i := range want {
		if norm(tail[i]) != norm(want[i]) {
			t.Errorf("upstream messages (summarised):\n got %q\nwant %q at the end, whole and in order", got, want)
			return
		}
	}
	if extra := got[:len(got)-len(want)]; len(extra) > 0 {
		t.Logf("the service put %d message(s) of its own first: %q", len(extra), extra)
	}
}

// mcMessageSummary is "role|text|img:url|call:id:name:args|for:tool_call_id" of a chat message,
// whether its content is a string or a list of parts.
func mcMessageSummary(m map[string]any) string {
	role, _ := m["role"].(string)
	parts := []string{role}
	if id, ok := m["tool_call_id"].(string); ok {
		parts = append(parts, "for:"+id)
	}
	switch c := m["content"].(type) {
	case string:
		if c != "" {
			parts = append(parts, c)
		}
	case []any:
		for _, p := range c {
			pm, _ := p.(map[string]any)
			switch pm["type"] {
			case "text", "input_text":
				s, _ := pm["text"].(string)
				parts = append(parts, s)
			case "image_url":
				iu, _ := pm["image_url"].(map[string]any)
				u, _ := iu["url"].(string)
				parts = append(parts, "img:"+u)
			default:
				parts = append(parts, "part:"+mcJSON(pm))
			}
		}
	}
	if calls, ok := m["tool_calls"].([]any); ok {
		for _, c := range calls {
			cm, _ := c.(map[string]any)
			fn, _ := cm["function"].(map[string]any)
			id, _ := cm["id"].(string)
			name, _ := fn["name"].(string)
			args, _ := fn["arguments"].(string)
			parts = append(parts, "call:"+id+":"+name+":"+args)
		}
	}
	return strings.Join(parts, "|")
}

// mcWantTools checks that the upstream got the get_weather tool whole.
func mcWantTools(t testing.TB, call mcUpCall) {
	t.Helper()
	raw, _ := call.body.get("tools")
	list, _ := raw.([]any)
	if len(list) != 1 {
		t.Errorf("upstream tools %s, want get_weather only", mcJSON(raw))
		return
	}
	tool, _ := list[0].(map[string]any)
	fn, _ := tool["function"].(map[string]any)
	if tool["type"] != "function" || fn["name"] != mcToolName || !reflect.DeepEqual(fn["parameters"], mcJSONRoundTrip(mcToolParams())) {
		t.Errorf("upstream tool %s, want function %s with parameters %s", mcJSON(tool), mcToolName, mcJSON(mcToolParams()))
	}
	if d, ok := fn["description"]; ok && d != "Current weather of a city" {
		t.Errorf("upstream tool description %v, want it as sent", d)
	}
}

// ---------------------------------------------------------------------------------------------
// GET /v1/usage

// mcUsageGroups returns the lines of a usage statement: every JSON object in it with a "source"
// member or a "labels" object that has one, wherever the statement nests them.
func mcUsageGroups(body obj) []map[string]any {
	var out []map[string]any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if l, ok := x["labels"].(map[string]any); ok {
				if _, ok := l["source"]; ok {
					out = append(out, x) // a line with its labels nested
					return
				}
			}
			if _, ok := x["source"]; ok {
				out = append(out, x)
				return
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(map[string]any(body))
	return out
}

func mcFindGroup(groups []map[string]any, source string) map[string]any {
	for _, g := range groups {
		if g["source"] == source {
			return g
		}
		if labels, ok := g["labels"].(map[string]any); ok && labels["source"] == source {
			return g
		}
	}
	return nil
}

// mcGroupInteractions is the interactions of a group: its "interactions" or "interactions_spent"
// member.
func mcGroupInteractions(g map[string]any) float64 {
	for _, k := range []string{"interactions", "interactions_spent"} {
		if n, ok := g[k].(float64); ok {
			return n
		}
	}
	return 0
}

func mcWantGroup(t testing.TB, g map[string]any, interactions float64, labels map[string]string) {
	t.Helper()
	if got := mcGroupInteractions(g); got != interactions {
		t.Errorf("group %s: %v interactions, want %v", mcJSON(g), got, interactions)
	}
	for k, want := range labels {
		got, _ := g[k].(string)
		if l, ok := g["labels"].(map[string]any); ok && got == "" {
			got, _ = l[k].(string)
		}
		if got != want {
			t.Errorf("group %s: %s %q, want %q", mcJSON(g), k, got, want)
		}
	}
}

// ---------------------------------------------------------------------------------------------
// The fake upstream

// mcUpstream is an OpenAI-compatible server on loopback: chat completions (whole and streamed),
// responses (whole and streamed) and embeddings. It records every request.
type mcUpstream struct {
	srv *httptest.Server

	mu       sync.Mutex
	log      []mcUpCall
	gate     chan struct{} // a "#gate" stream waits for it after its first piece
	gateOnce *sync.Once

	gateTimedOut atomic.Bool
}

type mcUpCall struct {
	path, auth string
	raw        []byte
	body       obj
}

func (c mcUpCall) String() string { return c.path + " " + shorten(string(c.raw), 300) }

func newMCUpstream(t testing.TB) *mcUpstream {
	u := &mcUpstream{}
	u.reset()
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(func() {
		u.openGate()
		u.srv.Close()
	})
	return u
}

func (u *mcUpstream) URL() string { return u.srv.URL }

// reset forgets the calls so far and sets a new gate.
func (u *mcUpstream) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.log = nil
	u.gate = make(chan struct{})
	u.gateOnce = &sync.Once{}
	u.gateTimedOut.Store(false)
}

func (u *mcUpstream) openGate() {
	u.mu.Lock()
	gate, once := u.gate, u.gateOnce
	u.mu.Unlock()
	once.Do(func() { close(gate) })
}

func (u *mcUpstream) calls() []mcUpCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]mcUpCall(nil), u.log...)
}

// only returns the one call since the last reset, failing the test unless there is exactly one
// (at path, unless "").
func (u *mcUpstream) only(t testing.TB, path string) mcUpCall {
	t.Helper()
	calls := u.calls()
	if len(calls) != 1 {
		t.Fatalf("the upstream got %d calls, want 1: %v", len(calls), calls)
	}
	if path != "" && calls[0].path != path {
		t.Fatalf("the upstream got %s, want %s", calls[0].path, path)
	}
	return calls[0]
}

func (u *mcUpstream) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	u.mu.Lock()
	u.log = append(u.log, mcUpCall{path: r.URL.Path, auth: r.Header.Get("Authorization"), raw: raw, body: obj(body)})
	gate := u.gate
	u.mu.Unlock()
	if r.Method != http.MethodPost || body == nil {
		mcUpError(w, http.StatusBadRequest, "want a POST with a JSON object")
		return
	}
	switch r.URL.Path {
	case "/v1/chat/completions":
		u.chat(w, r, body, gate)
	case "/v1/responses":
		u.responses(w, r, body, gate)
	case "/v1/embeddings":
		mcUpEmbeddings(w, body)
	default:
		mcUpError(w, http.StatusNotFound, "no such route: "+r.URL.Path)
	}
}

func mcUpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}

// mcAnswer picks the answer to the last user text: a tool call, or text.
func mcAnswer(lastUser string, toolResultAfter bool) (text string, tool bool) {
	switch {
	case toolResultAfter:
		return mcToolAnswer, false
	case strings.Contains(lastUser, "#tool"):
		return "", true
	case strings.Contains(lastUser, "#json-ok"):
		return mcJSONGood, false
	case strings.Contains(lastUser, "#json-bad"):
		return mcJSONBad, false
	}
	return mcPlainReply, false
}

// mcPieces splits text after each space: the pieces of a stream.
func mcPieces(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// contentText returns the text of a message content, a string or a list of parts.
func contentText(content any) string {
	switch c := content.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if pm, ok := p.(map[string]any); ok {
				if s, ok := pm["text"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}

func mcUsage() map[string]any {
	return map[string]any{"prompt_tokens": mcPromptTokens, "completion_tokens": mcOutputTokens, "total_tokens": mcPromptTokens + mcOutputTokens}
}

// wait holds a stream until the gate opens (or the request ends); it notes a hold that timed out.
func (u *mcUpstream) wait(r *http.Request, gate chan struct{}) {
	select {
	case <-gate:
	case <-time.After(mcGateWait):
		u.gateTimedOut.Store(true)
	case <-r.Context().Done():
	}
}

func (u *mcUpstream) chat(w http.ResponseWriter, r *http.Request, body map[string]any, gate chan struct{}) {
	last, toolAfter := "", false
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		switch mm["role"] {
		case "user":
			last, toolAfter = contentText(mm["content"]), false
		case "tool":
			toolAfter = true
		}
	}
	text, tool := mcAnswer(last, toolAfter)
	model, _ := body["model"].(string)
	if stream, _ := body["stream"].(bool); stream {
		u.chatStream(w, r, body, model, last, text, tool, gate)
		return
	}
	msg := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if strings.Contains(last, "#length") {
		finish = "length"
	}
	if tool {
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{"id": mcToolCallID, "type": "function", "function": map[string]any{"name": mcToolName, "arguments": mcToolArgs}}}
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-fake-1", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices":            []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage":              mcUsage(),
		"system_fingerprint": "fp_fake",
	})
}

func (u *mcUpstream) chatStream(w http.ResponseWriter, r *http.Request, body map[string]any, model, last, text string, tool bool, gate chan struct{}) {
	includeUsage := false
	if so, ok := body["stream_options"].(map[string]any); ok {
		includeUsage, _ = so["include_usage"].(bool)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	created := time.Now().Unix()
	send := func(choices []any, usage any) {
		ch := map[string]any{"id": "chatcmpl-fake-stream", "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		if includeUsage {
			ch["usage"] = usage
		}
		b, _ := json.Marshal(ch)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "logprobs": nil, "finish_reason": finish}}
	}
	send(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil)
	finish := "stop"
	if strings.Contains(last, "#length") {
		finish = "length"
	}
	if tool {
		send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": mcToolCallID, "type": "function",
			"function": map[string]any{"name": mcToolName, "arguments": ""}}}}, nil), nil)
		third := len(mcToolArgs) / 3
		for _, p := range []string{mcToolArgs[:third], mcToolArgs[third : 2*third], mcToolArgs[2*third:]} {
			send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": p}}}}, nil), nil)
		}
		finish = "tool_calls"
	} else {
		for i, p := range mcPieces(text) {
			send(delta(map[string]any{"content": p}, nil), nil)
			if i == 0 && strings.Contains(last, "#gate") {
				u.wait(r, gate)
			}
		}
	}
	send(delta(map[string]any{}, finish), nil)
	if includeUsage {
		send([]any{}, mcUsage())
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// responses serves the Responses API, for a service that forwards it as it is.
func (u *mcUpstream) responses(w http.ResponseWriter, r *http.Request, body map[string]any, gate chan struct{}) {
	last, toolAfter := "", false
	switch in := body["input"].(type) {
	case string:
		last = in
	case []any:
		for _, it := range in {
			m, _ := it.(map[string]any)
			typ, _ := m["type"].(string)
			switch {
			case (typ == "" || typ == "message") && m["role"] == "user":
				last, toolAfter = contentText(m["content"]), false
			case typ == "function_call_output":
				toolAfter = true
			}
		}
	}
	text, tool := mcAnswer(last, toolAfter)
	model, _ := body["model"].(string)
	created := time.Now().Unix()
	var item map[string]any
	if tool {
		item = map[string]any{"type": "function_call", "id": "fc_fake_1", "call_id": mcToolCallID, "name": mcToolName, "arguments": mcToolArgs, "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": "msg_fake_1", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	response := func(status string, output []any) map[string]any {
		resp := map[string]any{"id": "resp_fake_1", "object": "response", "created_at": created, "status": status, "model": model,
			"output": output, "error": nil, "incomplete_details": nil, "instructions": body["instructions"], "parallel_tool_calls": true,
			"tool_choice": "auto", "tools": []any{}, "temperature": 1.0, "top_p": 1.0, "store": false, "text": map[string]any{"format": map[string]any{"type": "text"}}}
		if status == "completed" {
			resp["usage"] = map[string]any{"input_tokens": mcPromptTokens, "output_tokens": mcOutputTokens, "total_tokens": mcPromptTokens + mcOutputTokens,
				"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
		}
		return resp
	}
	if stream, _ := body["stream"].(bool); !stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(response("completed", []any{item}))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	seq := 0
	send := func(typ string, ev map[string]any) {
		ev["type"] = typ
		ev["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	send("response.created", map[string]any{"response": response("in_progress", []any{})})
	send("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	if tool {
		added := map[string]any{"type": "function_call", "id": "fc_fake_1", "call_id": mcToolCallID, "name": mcToolName, "arguments": "", "status": "in_progress"}
		send("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		send("response.function_call_arguments.delta", map[string]any{"item_id": "fc_fake_1", "output_index": 0, "delta": mcToolArgs})
		send("response.function_call_arguments.done", map[string]any{"item_id": "fc_fake_1", "output_index": 0, "arguments": mcToolArgs})
	} else {
		added := map[string]any{"type": "message", "id": "msg_fake_1", "status": "in_progress", "role": "assistant", "content": []any{}}
		send("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		send("response.content_part.added", map[string]any{"item_id": "msg_fake_1", "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for i, p := range mcPieces(text) {
			send("response.output_text.delta", map[string]any{"item_id": "msg_fake_1", "output_index": 0, "content_index": 0, "delta": p, "logprobs": []any{}})
			if i == 0 && strings.Contains(last, "#gate") {
				u.wait(r, gate)
			}
		}
		send("response.output_text.done", map[string]any{"item_id": "msg_fake_1", "output_index": 0, "content_index": 0, "text": text, "logprobs": []any{}})
		send("response.content_part.done", map[string]any{"item_id": "msg_fake_1", "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	send("response.completed", map[string]any{"response": response("completed", []any{item})})
}

// mcUpVector is the fake upstream's embedding of text: deterministic, L2-normalised.
func mcUpVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	var sum float64
	for i := range v {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s#%d", text, i)
		v[i] = float32(int64(h.Sum64()%2001)-1000) / 1000
		sum += float64(v[i]) * float64(v[i])
	}
	n := float32(math.Sqrt(sum))
	for i := range v {
		v[i] /= n
	}
	return v
}

func mcUpEmbeddings(w http.ResponseWriter, body map[string]any) {
	var texts []string
	switch in := body["input"].(type) {
	case string:
		texts = []string{in}
	case []any:
		for _, x := range in {
			s, ok := x.(string)
			if !ok {
				mcUpError(w, http.StatusBadRequest, "the fake embeds text only")
				return
			}
			texts = append(texts, s)
		}
	}
	dims := mcUpstreamDims
	if d, ok := body["dimensions"].(float64); ok {
		// As OpenAI's: a whole number from 1 to the model's size, else a 400.
		if d < 1 || d > 3072 || d != math.Trunc(d) {
			mcUpError(w, http.StatusBadRequest, "dimensions must be a whole number from 1 to 3072")
			return
		}
		dims = int(d)
	}
	base64Format := body["encoding_format"] == "base64"
	var data []any
	tokens := 0
	for i, text := range texts {
		v := mcUpVector(text, dims)
		var emb any = v
		if base64Format {
			b := make([]byte, 4*len(v))
			for j, x := range v {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
			}
			emb = base64.StdEncoding.EncodeToString(b)
		}
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": emb})
		tokens += len(strings.Fields(text))
	}
	model, _ := body["model"].(string)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
}
