package tests

import (
	"strings"
	"testing"
)

// TestMCPRawArguments: tool arguments that no JSON client library would send but a raw client
// can (invalid UTF-8 inside a string, a string of 1 MB, NUL) are refused as the REST route refuses
// the same body: a tool error (or a JSON-RPC error for bytes that are not JSON) with
// invalid_request naming the argument; nothing is stored.
func TestMCPRawArguments(t *testing.T) {
	binaries(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := newOwner(t, s, api, nil, false)
	cs := connectMCP(t, api, a.key)
	big := strings.Repeat("a", 1<<20)
	for _, tt := range []struct {
		name, args, param string
	}{
		{"invalid UTF-8 in the message", `{"message":"caf` + "\xe9" + `"}`, "message"},
		{"invalid UTF-8 in a FAQ answer", `{"items":[{"question":"Open?","answer":"s` + "\xff" + `m"}]}`, "items[0].answer"},
		{"invalid UTF-8 in the business name", `{"business_name":"Padaria ` + "\xc3\x28" + `"}`, "business_name"},
		{"a 1 MB message", `{"message":"` + big + `"}`, "message"},
		{"a 1 MB conversation id", `{"message":"hi","conversation_id":"` + big + `"}`, "conversation_id"},
		{"NUL in a FAQ question", `{"items":[{"question":"Open\u0000?","answer":"yes"}]}`, "items[0].question"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tool := map[string]string{"message": "assistant", "items": "add_faq", "business_name": "update_agent"}[strings.SplitN(strings.TrimPrefix(tt.args, `{"`), `"`, 2)[0]]
			body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + tt.args + `}}`
			r := callRaw(t, "POST", api.URL()+"/mcp", []byte(body), append(bearer(a.key), "Content-Type", "application/json",
				"Accept", "application/json, text/event-stream", "Mcp-Session-Id", cs.ID(), "MCP-Protocol-Version", "2025-06-18")...)
			text := string(r.raw)
			if r.status >= 500 || !strings.Contains(text, "invalid_request") || !strings.Contains(text, `\"param\":\"`+tt.param+`\"`) &&
				!strings.Contains(text, `"param":"`+tt.param+`"`) {
				t.Errorf("%s: %d %s, want invalid_request naming %s", tool, r.status, shorten(text, 400), tt.param)
			}
		})
	}
	kn := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
	if n, _ := kn.body.num("counts.faq"); n != 0 {
		t.Errorf("FAQ after refused calls: %s", kn)
	}
	if ag := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); ag.body.str("business_name") != "Padaria Lu" {
		t.Errorf("agent after refused calls: %s", ag)
	}
}
