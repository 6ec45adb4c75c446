package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestSSEEvent checks the bytes of server-sent events: an "event:" line when named, then the
// "data:" line holding exactly what json.Marshal makes of the value (HTML characters escaped,
// text as it is), or the text itself, and a blank line; each event after the first as the first.
func TestSSEEvent(t *testing.T) {
	rec := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(rec)
	w := &sse{c: c}
	content := `<b>"a" & 'b'</b> é 😀 \ ` + "\u2028 \t\n"
	values := []struct {
		name string
		v    any
	}{
		{"", chunkJSON{ID: "chatcmpl-1", Object: "chat.completion.chunk", Created: 1, Model: "svc",
			Choices: []chunkChoiceJSON{{Delta: deltaJSON{Content: &content}}}}},
		{"response.output_text.delta", map[string]any{"type": "response.output_text.delta", "delta": content, "n": 1.5}},
		{"", "[DONE]"},
		{"", []int{}},
	}
	var want string
	for _, e := range values {
		if err := w.event(e.name, e.v); err != nil {
			t.Fatal(err)
		}
		if e.name != "" {
			want += "event: " + e.name + "\n"
		}
		data, ok := e.v.(string)
		if !ok {
			b, err := json.Marshal(e.v)
			if err != nil {
				t.Fatal(err)
			}
			data = string(b)
		}
		want += "data: " + data + "\n\n"
	}
	if got := rec.Body.String(); got != want {
		t.Fatalf("events:\n%q\nwant\n%q", got, want)
	}
	if err := w.event("", func() {}); err == nil {
		t.Fatal("a value JSON cannot hold was written")
	}
}
