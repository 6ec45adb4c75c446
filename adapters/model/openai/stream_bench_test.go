package openai

import (
	"bytes"
	"testing"

	"go.uber.org/zap"

	"github.com/svcagent/svc/domain/model"
)

// BenchmarkStreamRead reads a short streamed reply (a role event, two pieces, the finish and the
// usage, as the load harness's upstream sends) from memory: the client's own work per stream.
func BenchmarkStreamRead(b *testing.B) {
	head := `"id":"chatcmpl-b","object":"chat.completion.chunk","created":1767225600,"model":"gpt-test"`
	var events bytes.Buffer
	for _, data := range []string{
		`{` + head + `,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}`,
		`{` + head + `,"choices":[{"index":0,"delta":{"content":"We open at nine "},"finish_reason":null}],"usage":null}`,
		`{` + head + `,"choices":[{"index":0,"delta":{"content":"on Saturdays."},"finish_reason":null}],"usage":null}`,
		`{` + head + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29}}`,
		`[DONE]`,
	} {
		events.WriteString("data: " + data + "\n\n")
	}
	c := New(Options{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-test"}, zap.NewNop())
	b.ReportAllocs()
	for b.Loop() {
		s := &stream{c: c, fn: func(model.Chunk) error { return nil }}
		if err := s.read(bytes.NewReader(events.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
