package apijson

import (
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
)

func TestMayHoldControls(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{"a":"plain text, accents \u00e9 and emoji \ud83d\udc4d"}`, false},
		{`{"a":"line\nbreak\ttab\r"}`, false},
		{`{"a":"\\u0000 is text"}`, false},
		{`{"a":"\u0000"}`, true},
		{`{"a":"\u001F"}`, true},
		{`{"a":"\u007f"}`, true},
		{`{"a":"\u0085"}`, true},
		{`{"a":"\b"}`, true},
		{`{"a":"\f"}`, true},
		{"{\"a\":\"\x7f\"}", true},
		{"{\"a\":\"\u0090\"}", true},
	}
	for _, tt := range tests {
		if got := mayHoldControls([]byte(tt.in)); got != tt.want {
			t.Errorf("mayHoldControls(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestDeepNesting: well-formed JSON nested past the decoder's depth is refused as too deep, naming
// the body's field that holds it, not as "malformed JSON at byte …" with no field.
func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	var dst struct {
		Message string `json:"message"`
		Extra   any    `json:"extra"`
	}
	for _, strict := range []bool{true, false} {
		err := Unmarshal([]byte(`{"message":"hi","extra":`+deep+`}`), &dst, strict)
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeInvalidRequest || e.Field != "extra" || !strings.Contains(e.Message, "nested too deeply") {
			t.Errorf("strict %v: %v, want 400 naming extra as nested too deeply", strict, err)
		}
	}
	// One level less is read.
	ok := strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1)
	if err := Unmarshal([]byte(`{"message":"hi","extra":`+ok+`}`), &dst, false); err != nil {
		t.Errorf("%d levels: %v", maxDepth, err)
	}
}
