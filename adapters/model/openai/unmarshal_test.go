package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestUnmarshalAsV1 checks that unmarshal reads the upstream's replies and stream events as
// encoding/json does: the same values, or an error for the same texts, on ordinary and odd
// input alike (names in other cases, duplicate names, nulls, invalid UTF-8, escapes, raw error
// objects, numbers of the wrong kind, trailing text).
func TestUnmarshalAsV1(t *testing.T) {
	texts := []string{
		wireReply,
		`{"id":"c","model":"m","created":1,"choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		`{"ID":"c","MODEL":"m","Choices":[{"Message":{"Content":"case"},"Finish_Reason":"stop"}]}`,
		`{"id":"a","id":"b","choices":[{"message":{"content":"one","content":"two"}}]}`,
		`{"id":null,"choices":[{"message":{"content":null,"tool_calls":null}}],"usage":null}`,
		"{\"id\":\"\xff\xfe\",\"choices\":[{\"message\":{\"content\":\"caf\xc3\xa9 \xed\xa0\x80\"}}]}",
		`{"choices":[{"message":{"content":"\ud800 \ud83d\ude00 \u00e9 \n\t\"\\"}}]}`,
		`{"choices":[{"message":{"tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"role":"assistant","content":"x","tool_calls":[{"index":1,"id":"t","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
		`{"error":{"message":"overloaded","type":"server_error","code":null}}`,
		`{"error":null,"choices":[]}`,
		`{"created":1.5}`, `{"created":"1"}`, `{"created":1e3}`, `{"usage":{"prompt_tokens":-1}}`,
		`{"choices":{}}`, `{"choices":[{"message":"x"}]}`, `[]`, `null`, ``, `{`, `{"id":"c"} x`, `{"id":"c"}{}`,
		`{"unknown":{"deep":[1,2,{"x":null}]},"id":"c"}`,
	}
	for _, text := range texts {
		for _, newValue := range []func() any{func() any { return new(chatResponse) }, func() any { return new(chunk) }} {
			want, got := newValue(), newValue()
			wantErr := json.Unmarshal([]byte(text), want)
			err := unmarshal([]byte(text), got)
			if (err != nil) != (wantErr != nil) {
				t.Errorf("%T of %q: error %v, encoding/json's %v", got, text, err, wantErr)
				continue
			}
			if err == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("%T of %q:\n got %+v\nwant %+v", got, text, got, want)
			}
		}
	}
}
