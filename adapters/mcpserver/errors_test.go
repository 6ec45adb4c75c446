package mcpserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/domain/account"
)

// TestMalformedRequests checks the answers to requests the SDK refuses: a JSON-RPC error
// response for a message that is not one the server takes, the REST envelope for the rest.
func TestMalformedRequests(t *testing.T) {
	s := New(UseCases{}, Options{}, zap.NewNop())
	p := accounts.Principal{KeyID: "key_1", Account: account.Account{ID: "acc_1"}}
	both := "application/json, text/event-stream"
	const v = "2025-06-18"
	for _, tt := range []struct {
		name    string
		method  string
		body    string
		headers []string
		limit   int64
		status  int
		rpc     int    // the JSON-RPC error code, or 0 for the envelope
		id      string // the JSON-RPC id
		code    string // the envelope's code
	}{
		{"invalid JSON", "POST", `{"jsonrpc":`, []string{"Accept", both}, 0, 400, -32700, "null", ""},
		{"an empty body", "POST", ``, []string{"Accept", both}, 0, 400, -32700, "null", ""},
		{"JSON that is not JSON-RPC", "POST", `{"hello":"world"}`, []string{"Accept", both}, 0, 400, -32600, "null", ""},
		{"a JSON array of numbers", "POST", `[1,2]`, []string{"Accept", both}, 0, 400, -32600, "null", ""},
		{"a batch", "POST", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, []string{"Accept", both, "MCP-Protocol-Version", v}, 0, 400, -32600, "null", ""},
		{"an unknown method", "POST", `{"jsonrpc":"2.0","id":7,"method":"nope/nope","params":{}}`, []string{"Accept", both}, 0, 400, -32601, "7", ""},
		{"a request without params", "POST", `{"jsonrpc":"2.0","id":"a","method":"tools/call"}`, []string{"Accept", both}, 0, 400, -32600, `"a"`, ""},
		{"initialize with params not an object", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":5}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize with params an array", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":[]}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize with params null", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":null}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize without params", "POST", `{"jsonrpc":"2.0","id":"i","method":"initialize"}`, []string{"Accept", both}, 0, 400, -32602, `"i"`, ""},
		{"initialize without protocolVersion", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize with a number for protocolVersion", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":20250618,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize without capabilities", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"x","version":"1"}}}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize without clientInfo", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"initialize with a clientInfo without version", "POST", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x"}}}`, []string{"Accept", both}, 0, 400, -32602, "3", ""},
		{"Content-Type text/plain", "POST", `{}`, []string{"Content-Type", "text/plain", "Accept", both}, 0, 415, 0, "", "invalid_request"},
		{"a POST accepting JSON only", "POST", `{}`, []string{"Accept", "application/json"}, 0, 406, 0, "", "invalid_request"},
		{"a GET without Accept", "GET", ``, nil, 0, 406, 0, "", "invalid_request"},
		{"a GET without a session", "GET", ``, []string{"Accept", "text/event-stream"}, 0, 400, 0, "", "invalid_request"},
		{"a GET of an unknown session", "GET", ``, []string{"Accept", "text/event-stream", "Mcp-Session-Id", "nope"}, 0, 404, 0, "", "not_found"},
		{"a POST to an unknown session", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, []string{"Accept", both, "Mcp-Session-Id", "nope"}, 0, 404, 0, "", "not_found"},
		{"a DELETE without a session", "DELETE", ``, nil, 0, 400, 0, "", "invalid_request"},
		{"PUT", "PUT", `{}`, nil, 0, 405, 0, "", "invalid_request"},
		{"an unknown protocol version", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, []string{"Accept", both, "MCP-Protocol-Version", "1999-01-01"}, 0, 400, 0, "", "invalid_request"},
		{"a body over the limit", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, []string{"Accept", both}, 10, 400, 0, "", "invalid_request"}, // as the REST API answers (spec 7)
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, "http://svc.test/mcp", strings.NewReader(tt.body))
			r.Header.Set("Authorization", "Bearer svc_live_x")
			if tt.method == "POST" {
				r.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i+1 < len(tt.headers); i += 2 {
				r.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			w := httptest.NewRecorder()
			if tt.limit > 0 {
				r.Body = http.MaxBytesReader(w, r.Body, tt.limit)
			}
			s.Serve(w, r, p)
			if w.Code != tt.status {
				t.Fatalf("status %d %q, want %d", w.Code, w.Body.String(), tt.status)
			}
			// the Content-Type of every other JSON answer, the JSON-RPC errors' too
			if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q, want application/json; charset=utf-8: %s", ct, w.Body.String())
			}
			if w.Header().Get("X-Content-Type-Options") != "" {
				t.Errorf("X-Content-Type-Options of the plain-text refusal left")
			}
			var got struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    json.RawMessage `json:"code"`
					Message string          `json:"message"`
					Data    string          `json:"data"`
				} `json:"error"`
			}
			dec := json.NewDecoder(strings.NewReader(w.Body.String()))
			dec.DisallowUnknownFields()
			if tt.rpc == 0 {
				dec = json.NewDecoder(strings.NewReader(w.Body.String())) // the envelope has optional members
			}
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("body %q: %v", w.Body.String(), err)
			}
			if got.Error.Message == "" {
				t.Errorf("body %s: no error message", w.Body.String())
			}
			if tt.rpc != 0 {
				if got.JSONRPC != "2.0" || string(got.ID) != tt.id || string(got.Error.Code) != jsonInt(tt.rpc) {
					t.Errorf("body %s, want a JSON-RPC 2.0 error %d with id %s", w.Body.String(), tt.rpc, tt.id)
				}
				return
			}
			if got.JSONRPC != "" || string(got.Error.Code) != `"`+tt.code+`"` {
				t.Errorf("body %s, want the envelope with code %s", w.Body.String(), tt.code)
			}
		})
	}
	t.Run("405 keeps Allow", func(t *testing.T) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("PUT", "http://svc.test/mcp", nil)
		r.Header.Set("Authorization", "Bearer svc_live_x")
		s.Serve(w, r, p)
		if got := w.Header().Get("Allow"); got != "GET, POST, DELETE" {
			t.Errorf("Allow %q, want GET, POST, DELETE", got)
		}
	})
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
