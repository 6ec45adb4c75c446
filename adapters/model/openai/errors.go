package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

const contentPolicyMsg = "the model's safety filter refused this content"

// apiError is the error object of an OpenAI-compatible upstream: {"error": {...}} (OpenAI, Azure,
// Ollama, llama.cpp), {"error": "text"}, or the object at the top level (older vLLM).
type apiError struct {
	Status  int
	Message string
	Type    string
	Param   string
	Code    string
	Inner   string // Azure's innererror.code
}

func (e *apiError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model upstream answered %d", e.Status)
	for _, kv := range [][2]string{{"type", e.Type}, {"code", e.Code}, {"param", e.Param}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// contentPolicy reports whether the upstream's safety system refused the request.
func (e *apiError) contentPolicy() bool {
	switch {
	case e.Code == "content_filter", e.Code == "content_policy_violation",
		e.Type == "content_filter", e.Type == "content_policy_violation",
		e.Inner == "ResponsibleAIPolicyViolation":
		return true
	case e.Code == "invalid_prompt": // OpenAI's reasoning models: "flagged as potentially violating our usage policy"
		return strings.Contains(strings.ToLower(e.Message), "usage policy")
	}
	return false
}

// parseAPIError reads an error body; what is not JSON becomes the message.
func parseAPIError(status int, b []byte) *apiError {
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	obj := b
	if json.Unmarshal(b, &env) == nil && len(env.Error) > 0 {
		if s := text(env.Error); s != "" && env.Error[0] == '"' {
			return &apiError{Status: status, Message: s}
		}
		obj = env.Error
	}
	var w struct {
		Message, Type, Param, Code json.RawMessage
		InnerError                 struct{ Code json.RawMessage } `json:"innererror"`
	}
	if err := json.Unmarshal(obj, &w); err != nil || len(w.Message) == 0 {
		return &apiError{Status: status, Message: strings.TrimSpace(string(b))}
	}
	return &apiError{
		Status:  status,
		Message: text(w.Message),
		Type:    text(w.Type),
		Param:   text(w.Param),
		Code:    text(w.Code),
		Inner:   text(w.InnerError.Code),
	}
}

// text is a JSON string's value, or a number's or literal's text; "" for null.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(raw)); t != "null" {
		return t
	}
	return ""
}

// statusError maps an upstream answer other than 2xx.
func (c *Client) statusError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
	e := parseAPIError(resp.StatusCode, b)
	e.Message = c.clean(e.Message)
	e.Param = c.clean(e.Param)
	after := retryAfter(resp.Header, time.Now())
	status := resp.StatusCode
	switch {
	case e.contentPolicy():
		return &domain.Error{Code: domain.CodeContentPolicy, Message: contentPolicyMsg, Err: e}
	case status == http.StatusUnauthorized, status == http.StatusForbidden,
		e.Code == "insufficient_quota", e.Code == "model_not_found",
		status == http.StatusNotFound && e.Param == "":
		// Our key, quota, model name or URL is wrong: nothing the caller can fix.
		return &failure{err: e, operator: true}
	case resp.Header.Get("X-Should-Retry") == "false":
		return &failure{err: e, after: after}
	case resp.Header.Get("X-Should-Retry") == "true",
		status == http.StatusRequestTimeout, status == http.StatusConflict,
		status == http.StatusTooManyRequests, status >= 500:
		return &failure{err: e, retry: true, after: after}
	case status == http.StatusRequestEntityTooLarge:
		return &domain.Error{Code: domain.CodeInputTooLarge, Message: "the request is too large for the model", Field: e.Param, Err: e}
	case status == http.StatusBadRequest, status == http.StatusNotFound, status == http.StatusUnprocessableEntity:
		msg := e.Message
		if msg == "" {
			msg = "the model rejected the request"
		}
		err := domain.Invalid(e.Param, "%s", msg)
		err.Err = e
		return err
	}
	return &failure{err: e, operator: true}
}

// streamError maps an error event inside a stream; passed says whether pieces were passed on.
func (c *Client) streamError(raw []byte, passed bool) error {
	e := parseAPIError(0, raw)
	e.Message = c.clean(e.Message)
	e.Param = c.clean(e.Param)
	if e.contentPolicy() {
		return &domain.Error{Code: domain.CodeContentPolicy, Message: contentPolicyMsg, Err: e}
	}
	return &failure{err: e, retry: !passed}
}

// clean removes the API key from upstream text (some upstreams echo it) and shortens it.
func (c *Client) clean(s string) string {
	if k := c.opts.APIKey; len(k) >= 4 {
		s = strings.ReplaceAll(s, k, "[redacted]")
	}
	if len(s) > maxMessageLen {
		n := maxMessageLen
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
