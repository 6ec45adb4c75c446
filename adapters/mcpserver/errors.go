package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
)

// The SDK's Streamable HTTP handler refuses a malformed request with a plain-text body
// (http.Error). jsonErrors gives those refusals the bodies a client can read, keeping the status
// the SDK chose (but for the two below):
//
//   - a POST whose body is not a JSON-RPC message the server takes (not JSON, not a request or
//     notification, a batch, an unknown method) gets a JSON-RPC error response, as JSON-RPC 2.0
//     and the MCP transport ("the HTTP response body MAY comprise a JSON-RPC error response that
//     has no id") say: -32700 Parse error, -32600 Invalid Request or -32601 Method not found;
//   - every other refusal, of the HTTP request rather than of a message (Content-Type, Accept,
//     method, session, protocol version header, size), gets the REST API's error envelope:
//     415, 405 and 400 with invalid_request (a body over the cap too, as on the REST API), 404
//     not_found for a session that is not there.
//     An Accept without the media types MCP needs is 406 Not Acceptable (the SDK says 400), and
//     another key's session is 404 not_found, as anything of another key is (the SDK says 403),
//     which also tells the client to open a new session.
//
// Answers that are not plain-text refusals (streams, JSON results, the SDK's own JSON-RPC
// errors) pass through untouched.

// jsonRPCVersion is the version member of every JSON-RPC message.
const jsonRPCVersion = "2.0"

// rpcError is a JSON-RPC 2.0 error response.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorBody    `json:"error"`
}

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

// The JSON-RPC 2.0 error codes a refused message gets.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// header-level faults the SDK answers 400: each names what the request got wrong outside its
// body. A 400 not among them, to a POST, is a fault of the message.
var headerFaults = []string{"Accept must", "Mcp-Session-Id", "protocol version", "Last-Event-ID", "Host header"}

// jsonErrors wraps the SDK's handler so that its refusals are JSON (see above).
func jsonErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Method == http.MethodPost && r.Body != nil {
			var err error
			body, err = io.ReadAll(r.Body)
			_ = r.Body.Close()
			if err != nil {
				var tooBig *http.MaxBytesError
				if errors.As(err, &tooBig) {
					// 400 invalid_request, as every other surface answers a body over the cap (spec 7:
					// above a size limit, 400)
					writeEnvelope(w, http.StatusBadRequest, domain.Invalid("", "request body is larger than %d bytes", tooBig.Limit))
					return
				}
				writeEnvelope(w, http.StatusBadRequest, domain.Invalid("", "request body could not be read"))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if reason, bad := badInitialize(body); bad {
				writeInvalidParams(w, body, reason)
				return
			}
		}
		cw := &catcher{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if cw.caught {
			refuse(w, r, body, cw.status, strings.TrimSpace(cw.text.String()))
		}
	})
}

// refuse answers the SDK's plain-text refusal of r (status and text) as JSON.
func refuse(w http.ResponseWriter, r *http.Request, body []byte, status int, text string) {
	h := w.Header()
	h.Del("Content-Length")
	switch {
	case status == http.StatusBadRequest && r.Method == http.MethodPost && !headerFault(text):
		writeRPCError(w, status, body, text)
	case status == http.StatusBadRequest && strings.HasPrefix(text, "Accept must"):
		writeEnvelope(w, http.StatusNotAcceptable, domain.Invalid("", "%s", text))
	case status == http.StatusForbidden && strings.Contains(text, "session user mismatch"),
		status == http.StatusNotFound:
		writeEnvelope(w, http.StatusNotFound, domain.NotFound("MCP session (Mcp-Session-Id)"))
	case status == http.StatusUnauthorized:
		writeEnvelope(w, status, domain.Errorf(domain.CodeUnauthorized, "missing API key"))
	case status >= http.StatusInternalServerError:
		writeEnvelope(w, status, domain.Errorf(domain.CodeInternal, "internal error"))
	case status == http.StatusForbidden:
		writeEnvelope(w, status, domain.Errorf(domain.CodeOriginNotAllowed, "%s", text))
	default:
		writeEnvelope(w, status, domain.Invalid("", "%s", text))
	}
}

func headerFault(text string) bool {
	for _, f := range headerFaults {
		if strings.Contains(text, f) {
			return true
		}
	}
	return false
}

// writeRPCError answers a refused message: the code from what the body is, the SDK's reason as
// the error's data, and the id of the request when it is a single one with an id.
func writeRPCError(w http.ResponseWriter, status int, body []byte, reason string) {
	out := rpcError{JSONRPC: jsonRPCVersion, ID: json.RawMessage("null"),
		Error: rpcErrorBody{Code: codeInvalidRequest, Message: "Invalid Request", Data: capText(reason)}}
	switch {
	case len(bytes.TrimSpace(body)) == 0 || !json.Valid(body):
		out.Error = rpcErrorBody{Code: codeParseError, Message: "Parse error", Data: "the body is not JSON"}
	case strings.HasPrefix(reason, "malformed payload"):
		out.Error.Data = `the body is not a JSON-RPC 2.0 message: an object with "jsonrpc": "2.0" and a "method"`
	case strings.Contains(reason, "not handled"):
		out.ID = requestID(body)
		out.Error.Code, out.Error.Message = codeMethodNotFound, "Method not found"
	default:
		out.ID = requestID(body)
	}
	data, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// badInitialize reports why body, an initialize request, has params the MCP schema refuses:
// InitializeRequest's params are an object with protocolVersion (a string), capabilities (an
// object) and clientInfo (an Implementation: name and version, strings). The SDK reads such a
// request leniently (a missing protocolVersion is taken as its latest, missing capabilities as
// none) and answers params of another JSON type with an error of code 0, which JSON-RPC 2.0 does
// not define; checked here, before a session is opened for it, the request gets -32602 Invalid
// params naming the member at fault. A body that is not a single initialize request is left to the
// SDK.
func badInitialize(body []byte) (string, bool) {
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Params json.RawMessage `json:"params"`
	}
	trimmed := bytes.TrimSpace(body)
	// Every message of a session passes here: one not naming initialize (a tool's call and its
	// arguments, mostly), nor holding an escape that could spell it, is not decoded a second time.
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(trimmed, []byte(`"initialize"`)) && !bytes.Contains(trimmed, []byte(`\u`)) ||
		json.Unmarshal(trimmed, &msg) != nil || msg.Method != "initialize" || len(msg.ID) == 0 {
		return "", false
	}
	params, ok := jsonObject(msg.Params)
	if !ok {
		return `"params" must be an object with protocolVersion, capabilities and clientInfo`, true
	}
	if v, ok := jsonString(params["protocolVersion"]); !ok || strings.TrimSpace(v) == "" {
		return `"params.protocolVersion" must be a non-empty string (the MCP version the client supports, e.g. "2025-06-18")`, true
	}
	if _, ok := jsonObject(params["capabilities"]); !ok {
		return `"params.capabilities" must be an object (the client's capabilities; {} for none)`, true
	}
	info, ok := jsonObject(params["clientInfo"])
	if !ok {
		return `"params.clientInfo" must be an object with name and version`, true
	}
	for _, member := range []string{"name", "version"} {
		if _, ok := jsonString(info[member]); !ok {
			return `"params.clientInfo.` + member + `" must be a string`, true
		}
	}
	return "", false
}

// jsonObject reads raw as a JSON object; false for anything else (null and absence included).
func jsonObject(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	return m, true
}

// jsonString reads raw as a JSON string; false for anything else.
func jsonString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// writeInvalidParams answers a request whose params are refused: -32602 with the request's id and
// reason as the error's data, with the status of the other refused messages (400).
func writeInvalidParams(w http.ResponseWriter, body []byte, reason string) {
	out := rpcError{JSONRPC: jsonRPCVersion, ID: requestID(body),
		Error: rpcErrorBody{Code: codeInvalidParams, Message: "Invalid params", Data: capText(reason)}}
	data, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(data)
}

// requestID is the id of the single request body is, or null: a string or a number, as JSON-RPC
// ids are.
func requestID(body []byte) json.RawMessage {
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &msg) != nil || len(msg.ID) == 0 {
		return json.RawMessage("null")
	}
	var v any
	if json.Unmarshal(msg.ID, &v) != nil {
		return json.RawMessage("null")
	}
	switch v.(type) {
	case string, float64:
		return msg.ID
	}
	return json.RawMessage("null")
}

func writeEnvelope(w http.ResponseWriter, status int, err error) {
	e, _ := domain.AsError(err)
	data, _ := json.Marshal(apijson.ErrorEnvelope{Error: apijson.ErrorOf(e, "")})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

func capText(s string) string {
	if len(s) > apijson.MaxMessage {
		return strings.ToValidUTF8(s[:apijson.MaxMessage], "") + "…"
	}
	return s
}

// catcher passes the SDK's answer through, but for a plain-text refusal (http.Error: an error
// status with a text/plain Content-Type), which it keeps for jsonErrors to answer.
type catcher struct {
	http.ResponseWriter
	wrote  bool
	caught bool
	status int
	text   bytes.Buffer
}

func (c *catcher) WriteHeader(status int) {
	if c.wrote {
		return
	}
	c.wrote = true
	if status >= http.StatusBadRequest && strings.HasPrefix(c.Header().Get("Content-Type"), "text/plain") {
		c.caught, c.status = true, status
		c.Header().Del("Content-Type")
		c.Header().Del("X-Content-Type-Options")
		return
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *catcher) Write(p []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	if c.caught {
		if c.text.Len() < 4*apijson.MaxMessage {
			c.text.Write(p)
		}
		return len(p), nil
	}
	return c.ResponseWriter.Write(p)
}

// Flush passes a stream's events on as they come.
func (c *catcher) Flush() {
	if c.caught {
		return
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (c *catcher) Unwrap() http.ResponseWriter { return c.ResponseWriter }
