package httpapi

import (
	"encoding/json"
	"testing"
)

// TestJSONString checks that a message's content string reads as json.Unmarshal reads it, for
// plain, escaped and odd strings alike (a lone surrogate, bytes that are not UTF-8), and that
// what json.Unmarshal refuses is refused.
func TestJSONString(t *testing.T) {
	for _, raw := range []string{
		`""`, `"When do you open on Saturdays?"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9t\u00E9 \ud83d\ude00 ñ 😀"`,
		`"\u0000"`, `"\ud800"`, `"\udc00x"`, "\"\xff\xfe\"", `"\u12"`, `"\x"`, `"abc`, `"a" "b"`, `"a"x`,
	} {
		var want string
		wantErr := json.Unmarshal([]byte(raw), &want)
		got, err := jsonString([]byte(raw))
		if (err != nil) != (wantErr != nil) || got != want {
			t.Errorf("jsonString(%s) = %q, %v; json.Unmarshal: %q, %v", raw, got, err, want, wantErr)
		}
	}
}
