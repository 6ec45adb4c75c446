package httpapi

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ratelimit"
)

// The middleware: request ids, the access log, panics, the body cap, CORS of the client routes,
// authentication by API key, the rate limits, the plan check of the web channels, and the relay
// nudge.

const (
	ctxRequestID = "svc.request_id"
	ctxLogger    = "svc.logger"
	ctxPrincipal = "svc.principal"
	ctxAdmission = "svc.admission"
	ctxEarly     = "svc.early" // a reply's interaction held early (holdEarly)

	headerRequestID = "X-Request-Id"
)

// The headers every request of an API key reads or writes, in canonical form
// (http.CanonicalHeaderKey), so that requestHeader and the rate limit's headers index the header
// maps directly rather than canonicalizing the name again on each use as Header.Get and Set do.
// On the wire the rate limit's are written as they always were: X-Ratelimit-Limit and so on.
const (
	headerAuthorization      = "Authorization"
	headerRateLimitLimit     = "X-Ratelimit-Limit"
	headerRateLimitRemaining = "X-Ratelimit-Remaining"
	headerRateLimitReset     = "X-Ratelimit-Reset"
)

// requestHeader is the request's first value of the header named key, which must be in canonical
// form (TestCanonicalHeaders): Header.Get without the canonicalization.
func requestHeader(c *gin.Context, key string) string {
	if v := c.Request.Header[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// requestID takes the caller's X-Request-Id when it is sane, else makes one, and sets it on the
// response and on the request's logger.
func (s *Server) requestID(c *gin.Context) {
	id := requestHeader(c, headerRequestID)
	if !saneRequestID(id) {
		id = ident.New("req")
	}
	c.Set(ctxRequestID, id)
	c.Set(ctxLogger, &requestLogger{base: s.log, id: id})
	c.Header(headerRequestID, id)
	c.Next()
}

// requestLogger is a request's logger, made with its request id only when something is logged:
// most requests log nothing at the usual levels, and zap encodes a child logger's fields when it
// is made.
type requestLogger struct {
	base *zap.Logger
	id   string
	made atomic.Pointer[zap.Logger] // the handler's goroutines may log at once
}

func (l *requestLogger) get() *zap.Logger {
	if m := l.made.Load(); m != nil {
		return m
	}
	l.made.CompareAndSwap(nil, l.base.With(zap.String("request_id", l.id)))
	return l.made.Load()
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if r < 0x21 || r > 0x7e {
			return false
		}
	}
	return true
}

// logger returns the request's logger.
func logger(c *gin.Context) *zap.Logger {
	if l, ok := c.Get(ctxLogger); ok {
		return l.(*requestLogger).get()
	}
	return zap.NewNop()
}

// accessLog writes one line per request and feeds the metrics. It never logs headers or bodies.
func (s *Server) accessLog(c *gin.Context) {
	start := time.Now()
	c.Next()
	elapsed := time.Since(start)
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	status := c.Writer.Status()
	s.metrics.observe(c.Request.Method, route, status, elapsed)
	if !s.log.Core().Enabled(zap.InfoLevel) {
		return
	}
	fields := []zap.Field{
		zap.String("method", c.Request.Method),
		zap.String("route", route),
		zap.Int("status", status),
		zap.Duration("duration", elapsed),
	}
	if p, ok := principal(c); ok {
		fields = append(fields, zap.String("account_id", p.Account.ID), zap.String("key_id", p.KeyID))
	}
	logger(c).Info("request", fields...)
}

// recovery turns a panic into a 500 envelope, logged once.
func (s *Server) recovery(c *gin.Context) {
	defer func() {
		if r := recover(); r != nil {
			if r == http.ErrAbortHandler {
				panic(r)
			}
			logger(c).Error("panic", zap.Any("panic", r), zap.Stack("stack"))
			if !c.Writer.Written() {
				s.fail(c, domain.Errorf(domain.CodeInternal, "internal error"))
			}
			c.Abort()
		}
	}()
	c.Next()
}

// limitBody caps the request body and decompresses one sent with Content-Encoding gzip or
// deflate (decodedBody), capped again once decompressed; reading past a cap fails the decoding
// with a 400, and so does reading a body of another coding (naming the header).
func (s *Server) limitBody(c *gin.Context) {
	if c.Request.Body != nil && c.Request.Body != http.NoBody {
		body := http.MaxBytesReader(c.Writer, c.Request.Body, s.opts.MaxBodyBytes)
		if values, ok := c.Request.Header[headerContentEncoding]; ok {
			decoded, err := decodedBody(c.Writer, body, values, s.opts.MaxBodyBytes)
			if err != nil {
				decoded = io.NopCloser(errReader{err})
			}
			body = decoded
		}
		c.Request.Body = body
	}
	c.Next()
}

// cors opens the client routes to apps on any origin, the API's public description (GET /v1 and
// GET /v1/openapi.json: no credential, so an API explorer on any page may read it) likewise, and
// the public widget endpoints to the pages the widget's allowed domains let in (widgetPreflight,
// openWidget); no other route answers cross-origin.
func (s *Server) cors(c *gin.Context) {
	path := c.Request.URL.Path
	if c.Request.Method == http.MethodOptions && strings.HasPrefix(path, widgetAPIPrefix) {
		s.widgetPreflight(c)
		return
	}
	h := c.Writer.Header()
	switch {
	case strings.HasPrefix(path, "/v1/client/"):
		h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id, Idempotency-Key")
		h.Set("Access-Control-Expose-Headers", "X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotent-Replayed, Idempotency-Key")
	case path == "/v1" || path == "/v1/openapi.json":
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Content-Type, X-Request-Id")
		h.Set("Access-Control-Expose-Headers", "X-Request-Id")
	default:
		c.Next()
		return
	}
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Max-Age", "600")
	if c.Request.Method == http.MethodOptions {
		c.AbortWithStatus(http.StatusNoContent)
		return
	}
	c.Next()
}

// bearer returns the credential of an Authorization header: the token of Bearer, or, as Stripe
// takes its secret key, the user name of Basic with an empty password (`curl -u svc_live_…:`).
// Either goes through the same check; anything else is no credential (""), and so are two
// Authorization headers: they name no one credential (a proxy that checks the last header would
// have checked another key than the first, which this would use).
func bearer(c *gin.Context) string {
	if len(c.Request.Header[headerAuthorization]) > 1 {
		return ""
	}
	if user, password, ok := c.Request.BasicAuth(); ok {
		if password != "" {
			return "" // a password is no part of the credential: refused as none, not ignored
		}
		return user
	}
	scheme, token, ok := strings.Cut(requestHeader(c, headerAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// authKey authenticates the API key and counts the request against the per-key limit and the
// account limits given (each answered later, in the route's order: see admitted). The account id
// of the request comes only from here. A failed authentication is throttled (see refuse).
func (s *Server) authKey(accountLimits ...ratelimit.Limit) gin.HandlerFunc {
	return s.authKeyWith(s.uc.Access.Admit, nil, accountLimits)
}

// authKeyKept is authKey for the model-compatible endpoints, whose charge checks the allowance
// again: a recent check of the key is reused while no key or account changed (Access.AdmitKept),
// and a reply's interaction is held as soon as the key is let in (holdEarly).
func (s *Server) authKeyKept(accountLimits ...ratelimit.Limit) gin.HandlerFunc {
	return s.authKeyWith(s.uc.Access.AdmitKept, s.holdEarly, accountLimits)
}

// authKeyWith authenticates with admit; early, when set, runs once the key is let in and before
// the limits are applied, and the function it returns (when not nil) when the request is answered.
func (s *Server) authKeyWith(admit func(context.Context, string, ...ratelimit.Limit) (accounts.Admission, error),
	early func(*gin.Context, accounts.Admission) func(), accountLimits []ratelimit.Limit) gin.HandlerFunc {
	return func(c *gin.Context) {
		ad, err := admit(c.Request.Context(), bearer(c), accountLimits...)
		if err != nil {
			s.refuse(c, err)
			return
		}
		c.Set(ctxPrincipal, ad.Principal)
		c.Set(ctxAdmission, ad)
		if early != nil {
			if done := early(c, ad); done != nil {
				defer done()
			}
		}
		if !s.admitted(c, ratelimit.PerKey) {
			return
		}
		c.Next()
	}
}

// refuse answers a request whose authentication failed: a failed authentication counts against
// the client address's allowance of failures, past which it answers 429 (Access.Refused). The
// address is gin's ClientIP: the connection's peer, or a forwarded address only when the peer is
// one of the trusted proxies (Options.TrustedProxies).
func (s *Server) refuse(c *gin.Context, err error) {
	s.fail(c, s.uc.Access.Refused(c.Request.Context(), c.ClientIP(), err))
}

// admitted answers 429 when the request is over limit l, as counted by authKey, and sets the
// rate-limit headers of the per-key limit. It reports whether the request may go on.
func (s *Server) admitted(c *gin.Context, l ratelimit.Limit) bool {
	v, _ := c.Get(ctxAdmission)
	ad, _ := v.(accounts.Admission)
	res, err := ad.Limit(l)
	return s.applyLimit(c, l, res, err)
}

// limit counts the request against l for subject, with the count plan (the account's plan) sets,
// sets the rate-limit headers, and answers 429 when over. It reports whether the request may go on.
func (s *Server) limit(c *gin.Context, plan, subject string, l ratelimit.Limit) bool {
	res, err := s.uc.Access.Limit(c.Request.Context(), plan, subject, l)
	return s.applyLimit(c, l, res, err)
}

// applyLimit applies the outcome of counting a request against l: the rate-limit headers, and the
// error when over. The headers describe the per-key limit, except on a 429 of another limit (the
// account's chat, assistant, model, page-upload or crawl limit), which they describe instead: a
// refusal never says that requests remain.
func (s *Server) applyLimit(c *gin.Context, l ratelimit.Limit, res ratelimit.Result, err error) bool {
	code := domain.ErrorCode(err)
	if (l.Name == ratelimit.PerKey.Name && code != domain.CodeInternal) || code == domain.CodeRateLimited {
		h := c.Writer.Header()
		h[headerRateLimitLimit] = []string{strconv.Itoa(res.Limit)}
		h[headerRateLimitRemaining] = []string{strconv.Itoa(res.Remaining)}
		h[headerRateLimitReset] = []string{strconv.Itoa(int((res.ResetAfter + time.Second - 1) / time.Second))}
	}
	if err != nil {
		s.fail(c, err)
		return false
	}
	return true
}

// webChannels answers 402 plan_required when the account's plan lacks the web channels.
func (s *Server) webChannels(c *gin.Context) {
	p, _ := principal(c)
	if err := s.uc.Access.RequireWebChannels(p.Account); err != nil {
		s.fail(c, err)
		return
	}
	c.Next()
}

// principal returns the authenticated key's principal.
func principal(c *gin.Context) (accounts.Principal, bool) {
	v, ok := c.Get(ctxPrincipal)
	if !ok {
		return accounts.Principal{}, false
	}
	p, ok := v.(accounts.Principal)
	return p, ok
}

// nudgeRelay asks the relay to look at the outbox as soon as a write request that wrote to it
// has committed, so the events it wrote do not wait for the relay's next tick.
func (s *Server) nudgeRelay(c *gin.Context) {
	if c.Request.Method == http.MethodGet || s.uc.Relay == nil {
		c.Next()
		return
	}
	ctx, wrote := events.Watch(c.Request.Context())
	c.Request = c.Request.WithContext(ctx)
	c.Next()
	if wrote() {
		s.uc.Relay.Nudge()
	}
}
