package apijson

import "testing"

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
