package httpapi

import (
	"bytes"
	"io"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
)

// The Idempotency-Key header of the POST routes of API keys, client session tokens and the
// widget's chat (Stripe's
// idempotent requests, app/idempotent): the first request with a key runs and its answer is kept
// a day; the same request again gets that answer, with Idempotent-Replayed: true, and runs
// nothing. Every answer to a request with a well-formed key, run or replayed, carries the key back
// in Idempotency-Key, as Stripe's do. A request without the header costs one header lookup and
// nothing else.

const (
	headerIdempotencyKey     = "Idempotency-Key"
	headerIdempotentReplayed = "Idempotent-Replayed"

	ctxIdemBody  = "svc.idempotency_body" // the raw body keepBody read (an idemBody)
	ctxIdemRef   = "svc.idempotency_ref"  // the running request's idempotency.Record.Ref
	ctxErrorCode = "svc.error_code"       // the domain.Code of the error errorOf answered
)

type idemBody struct {
	raw []byte
	err error
}

// keepBody reads the raw body of a request with an Idempotency-Key before a middleware that
// reads the body ahead of the handler (authKeyChat), keeps it for idempotent, and gives the
// request a body of the same bytes (and, when reading failed, the same failure).
func (s *Server) keepBody(c *gin.Context) {
	if _, ok := c.Request.Header[headerIdempotencyKey]; !ok {
		c.Next()
		return
	}
	b := readRawBody(c)
	c.Set(ctxIdemBody, b)
	c.Next()
}

// readRawBody reads the request's body whole and puts back a body that reads the same (and
// fails the same: a body over the cap is still refused by the handler's decoding).
func readRawBody(c *gin.Context) idemBody {
	if c.Request.Body == nil {
		return idemBody{raw: []byte{}}
	}
	raw, err := io.ReadAll(c.Request.Body)
	var rest io.Reader = bytes.NewReader(raw)
	if err != nil {
		rest = io.MultiReader(rest, errReader{err})
	}
	c.Request.Body = io.NopCloser(rest)
	return idemBody{raw: raw, err: err}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// idempotent runs a request that carries an Idempotency-Key as app/idempotent decides: it
// replays the kept answer, or runs the handler and keeps its answer (or frees the key when the
// answer is a failure of the service, a 429, or a panic). It follows authentication: the key
// belongs to the account and the credential (the API keys' scope, or the client session's).
func (s *Server) idempotent(c *gin.Context) {
	values, ok := c.Request.Header[headerIdempotencyKey]
	if !ok {
		c.Next()
		return
	}
	if len(values) != 1 {
		s.fail(c, domain.Invalid(idempotency.Field, "send one %s header", idempotency.Field))
		return
	}
	if idempotency.ValidateKey(values[0]) == nil {
		c.Header(headerIdempotencyKey, values[0])
	}
	var b idemBody
	if v, kept := c.Get(ctxIdemBody); kept {
		b, _ = v.(idemBody)
	} else {
		b = readRawBody(c)
	}
	if b.err != nil {
		c.Next() // the handler refuses the body (400) as it would without the key; nothing is kept
		return
	}
	req := idempotent.Request{Key: values[0], Route: c.Request.Method + " " + c.Request.URL.RequestURI(), Body: b.raw}
	if _, isClient := c.Get(ctxClient); isClient {
		p := client(c)
		req.AccountID, req.Scope = p.Account.ID, idempotency.ClientScope(p.Session.ID)
	} else if _, isWidget := c.Get(ctxVisit); isWidget {
		req.AccountID, req.Scope = visit(c).Account.ID, idempotency.ScopeWidget
	} else {
		p, _ := principal(c)
		req.AccountID, req.Scope = p.Account.ID, idempotency.ScopeKey
	}
	out, err := s.uc.Idempotent.Begin(c.Request.Context(), req)
	if err != nil {
		s.fail(c, err)
		return
	}
	if out.Replayed {
		c.Header(headerIdempotentReplayed, "true")
		c.Data(out.Replay.Status, out.Replay.ContentType, out.Replay.Body)
		c.Abort()
		return
	}
	// A handler that stores before it may fail in a way that frees the key (a chat message, then
	// 402 or 5xx from its reply) keeps the request's name with what it stored, for the retry.
	c.Set(ctxIdemRef, out.Reservation.Ref())
	rec := &recorder{ResponseWriter: c.Writer}
	c.Writer = rec
	finished := false
	defer func() {
		if finished {
			return
		}
		// A panic: free the key, and let recovery answer.
		if err := s.uc.Idempotent.Abandon(c.Request.Context(), out.Reservation); err != nil {
			logger(c).Warn("idempotency: release the key of a request that panicked", zap.Error(err))
		}
	}()
	c.Next()
	finished = true
	c.Writer = rec.ResponseWriter
	resp := idempotency.Response{Status: rec.Status(), ContentType: rec.Header().Get("Content-Type"), Body: rec.body.Bytes()}
	if v, ok := c.Get(ctxErrorCode); ok {
		resp.Code, _ = v.(domain.Code)
	}
	if err := s.uc.Idempotent.Finish(c.Request.Context(), out.Reservation, resp); err != nil {
		logger(c).Warn("idempotency: keep the answer", zap.Error(err))
	}
}

// recorder copies what a handler writes, for idempotent to keep.
type recorder struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (w *recorder) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *recorder) WriteString(s string) (int, error) {
	w.body.WriteString(s)
	return w.ResponseWriter.WriteString(s)
}
