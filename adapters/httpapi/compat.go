package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/internal/outage"
)

// The model-compatible endpoints (spec part 4.8) speak the wire format of OpenAI's API, so that
// its SDKs and the tools built on them work unchanged. Their bodies are read leniently: fields
// this service does not use are ignored, as OpenAI-compatible servers do, while fields it cannot
// honour (n other than 1, functions, previous_response_id, built-in tools) are refused by name.
//
// This file holds what they share: the limit, the usage labels, the tool and sampling fields, and
// server-sent events. Each endpoint has its file: compat_chat.go (POST /v1/chat/completions),
// compat_responses.go (POST /v1/responses), compat_embeddings.go (POST /v1/embeddings),
// compat_models.go (GET /v1/models, GET /v1/models/{model}); usage.go has the statement their
// labels feed.

// compatLimit applies the model endpoints' limit, 60 requests a minute per account, as counted
// by authKey.
func (s *Server) compatLimit(c *gin.Context) {
	if !s.admitted(c, ratelimit.Compat) {
		return
	}
	c.Next()
}

// holdEarly starts holding the interaction of a reply (POST /v1/chat/completions, POST
// /v1/responses) as soon as its key is let in, before its rate limits are counted and its body
// read (compat.Service.HoldEarly): in production the charge's round trip to Postgres then overlaps
// the limiter's to Redis and the upstream's, rather than the upstream's alone, and is done by the
// time the upstream answers. The reply takes it by its id (replyID); a request that ends before
// (rate limited, a body refused, the web channels not in the plan) gives it back before its answer
// is sent, so nothing is charged for it. No early hold is made for an account that a rate limit
// refused within the last minute (accounts.Admission.Limited), so that a caller above its limit
// costs the store nothing, nor when the request could not use it (its labels or plan refused).
func (s *Server) holdEarly(c *gin.Context, ad accounts.Admission) func() {
	var newRef func() string
	switch c.FullPath() {
	case "/v1/chat/completions":
		newRef = newCompletionID
	case "/v1/responses":
		newRef = newResponseID
	default:
		return nil
	}
	// Embedded, the reply holds inline (HoldsEarly false): its id and labels are made once, by
	// the handler, not here as well.
	if ad.Limited || s.uc.Access.RequireWebChannels(ad.Principal.Account) != nil || !s.uc.Compat.HoldsEarly() {
		return nil
	}
	who, err := caller(c)
	if err != nil {
		return nil
	}
	ctx := c.Request.Context()
	e := s.uc.Compat.HoldEarly(ctx, who, ledger.ModelReply, newRef())
	if e == nil {
		return nil
	}
	c.Set(ctxEarly, e)
	return func() {
		if err := s.uc.Compat.Drop(ctx, e); err != nil {
			logger(c).Error("give back an early hold", zap.Error(err))
		}
	}
}

// replyID is the id of the request's reply: the one its early hold carries (holdEarly), else a
// new one from fresh.
func replyID(who compat.Caller, fresh func() string) string {
	if id := who.Early.Ref(); id != "" {
		return id
	}
	return fresh()
}

// Usage label headers (spec 4.8).
const (
	headerSource      = "X-Svc-Source"
	headerWorkflow    = "X-Svc-Workflow"
	headerWorkflowID  = "X-Svc-Workflow-Id"
	headerExecutionID = "X-Svc-Execution-Id"
)

// opening is how every compatible endpoint begins: the caller and its labels, the body decoded
// (unknown fields ignored, as OpenAI-compatible servers do) and the use case's request made of it.
func opening[In, Req any](c *gin.Context, of func(In) (Req, error)) (who compat.Caller, in In, req Req, err error) {
	if who, err = caller(c); err != nil {
		return who, in, req, err
	}
	if err = apijson.Decode(c.Request.Body, &in, false); err != nil {
		return who, in, req, err
	}
	req, err = of(in)
	return who, in, req, err
}

// caller is the request's account and usage labels; a label that is too long or holds control
// characters is a 400 naming its header.
func caller(c *gin.Context) (compat.Caller, error) {
	p, _ := principal(c)
	var l ledger.Labels
	for _, h := range []struct {
		name   string
		dst    *string
		decode bool
	}{
		{headerSource, &l.Source, false},
		{headerWorkflow, &l.Workflow, true},
		{headerWorkflowID, &l.WorkflowID, false},
		{headerExecutionID, &l.ExecutionID, false},
	} {
		v := strings.TrimSpace(requestHeader(c, h.name))
		if h.decode {
			if d, err := url.PathUnescape(v); err == nil {
				v = strings.TrimSpace(d)
			}
		}
		if !utf8.ValidString(v) || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return compat.Caller{}, domain.Invalid(h.name, "the %s header must be printable UTF-8 text", h.name)
		}
		if n := utf8.RuneCountInString(v); n > ledger.MaxLabelLength {
			return compat.Caller{}, domain.Invalid(h.name, "the %s header may have at most %d characters; it has %d", h.name, ledger.MaxLabelLength, n)
		}
		*h.dst = v
	}
	who := compat.Caller{Account: p.Account, Usage: p.Usage, Labels: l}
	if e, ok := c.Get(ctxEarly); ok {
		who.Early, _ = e.(*compat.Early)
	}
	return who, nil
}

// present reports whether a raw JSON member was sent with a value other than null.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func checkSampling(temperature, topP *float64) error {
	if t := temperature; t != nil && (*t < 0 || *t > 2) {
		return domain.Invalid("temperature", "temperature must be between 0 and 2")
	}
	if p := topP; p != nil && (*p < 0 || *p > 1) {
		return domain.Invalid("top_p", "top_p must be between 0 and 1")
	}
	return nil
}

func maxTokensOf(param string, v *int) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 {
		return 0, domain.Invalid(param, "%s must be at least 1", param)
	}
	return *v, nil
}

func toolOf(at, name, description string, params json.RawMessage, strict *bool) (model.Tool, error) {
	t := model.Tool{Name: name, Description: description, Strict: strict != nil && *strict}
	if present(params) {
		if p := bytes.TrimSpace(params); p[0] != '{' {
			return model.Tool{}, domain.Invalid(at+".parameters", "parameters must be a JSON Schema object")
		}
		t.Parameters = params
	}
	return t, nil
}

// toolChoiceOf reads tool_choice: "auto", "none", "required", or a named function in the
// chat-completions form {"type":"function","function":{"name":…}} or the Responses form
// {"type":"function","name":…}. Without tools, auto and none are dropped.
func toolChoiceOf(raw json.RawMessage, haveTools bool) (*model.ToolChoice, error) {
	if !present(raw) {
		return nil, nil
	}
	var mode string
	if json.Unmarshal(raw, &mode) == nil {
		switch mode {
		case "auto", "none":
			if !haveTools {
				return nil, nil
			}
			return &model.ToolChoice{Mode: mode}, nil
		case "required":
			if !haveTools {
				return nil, domain.Invalid("tool_choice", "tool_choice required needs tools")
			}
			return &model.ToolChoice{Mode: mode}, nil
		}
		return nil, domain.Invalid("tool_choice", "tool_choice must be auto, none, required or a function")
	}
	var named struct {
		Type     string `json:"type"`
		Name     string `json:"name"`
		Function *struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &named); err != nil || named.Type != "function" {
		return nil, domain.Invalid("tool_choice", "tool_choice must be auto, none, required or a function")
	}
	name := named.Name
	if named.Function != nil {
		name = named.Function.Name
	}
	if name == "" {
		return nil, domain.Invalid("tool_choice", "tool_choice names no function")
	}
	return &model.ToolChoice{Mode: "function", Name: name}, nil
}

// ---------------------------------------------------------------------------------------------
// Server-sent events

// sse writes server-sent events, each flushed at once. It writes the headers with the first
// event, so that a request that fails before its first piece is answered with a plain error.
type sse struct {
	c       *gin.Context
	started bool
	buf     bytes.Buffer
	enc     *json.Encoder // writes into buf: an event's JSON is encoded in place, not allocated apart
}

func (w *sse) start() {
	if w.started {
		return
	}
	w.started = true
	h := w.c.Writer.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	w.c.Status(http.StatusOK)
	w.c.Writer.WriteHeaderNow()
}

// event writes one event: an "event:" line when name is set, the JSON of v (or raw text) on a
// "data:" line, and a blank line.
func (w *sse) event(name string, v any) error {
	w.start()
	w.buf.Reset()
	if name != "" {
		w.buf.WriteString("event: ")
		w.buf.WriteString(name)
		w.buf.WriteByte('\n')
	}
	w.buf.WriteString("data: ")
	if s, ok := v.(string); ok {
		w.buf.WriteString(s)
		w.buf.WriteString("\n\n")
	} else {
		if w.enc == nil {
			w.enc = json.NewEncoder(&w.buf)
		}
		// Encode writes what json.Marshal returns (HTML escaped alike) and a line break.
		if err := w.enc.Encode(v); err != nil {
			return err
		}
		w.buf.WriteByte('\n')
	}
	if _, err := w.c.Writer.Write(w.buf.Bytes()); err != nil {
		return err
	}
	w.c.Writer.Flush()
	return nil
}

// compatFail answers err as fail does. An error that asking again cannot clear, only the owner
// (svc-assistant's agent not set up, 409, or turned off for the API, 503) or the operator (model
// svc on a service without an upstream, 503), also says X-Should-Retry: false: OpenAI's SDKs
// read that header before their own rule, which retries every 409 and 5xx (twice by default,
// with backoff), and would otherwise ask three times.
func (s *Server) compatFail(c *gin.Context, err error) {
	switch code := domain.ErrorCode(err); {
	case code == domain.CodeAgentNotConfigured, code == domain.CodeAgentUnavailable, errors.Is(err, compat.ErrNoUpstream):
		c.Header("X-Should-Retry", "false")
	}
	s.fail(c, err)
}

// streamFail answers err: with the envelope and its status while nothing was sent (compatFail),
// else as the stream's last event (named name, shaped by shape from the mapped error).
func (s *Server) streamFail(c *gin.Context, w *sse, err error, name string, shape func(apijson.ErrorBody) any) {
	if !w.started {
		s.compatFail(c, err)
		return
	}
	if ctx := c.Request.Context(); ctx.Err() != nil && !outage.Stopping(ctx) {
		return // the caller left
	}
	// A stream cut short by the shutdown ends with the 503's error as its last event, so that the
	// caller still there knows that the answer is incomplete and to ask again.
	_, body := s.errorOf(c, err)
	_ = w.event(name, shape(body))
}
