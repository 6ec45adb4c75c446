package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/outage"
)

// statusOf maps every error code to its HTTP status: the one place that does.
var statusOf = map[domain.Code]int{
	domain.CodeInvalidRequest:          http.StatusBadRequest,
	domain.CodeInputTooLarge:           http.StatusBadRequest,
	domain.CodeContentPolicy:           http.StatusBadRequest,
	domain.CodeUnauthorized:            http.StatusUnauthorized,
	domain.CodePlanRequired:            http.StatusPaymentRequired,
	domain.CodeInteractionLimitReached: http.StatusPaymentRequired,
	domain.CodeAccountInactive:         http.StatusForbidden,
	domain.CodeOriginNotAllowed:        http.StatusForbidden,
	domain.CodeNotFound:                http.StatusNotFound,
	domain.CodeApprovalNotFound:        http.StatusNotFound,
	domain.CodeAgentNotConfigured:      http.StatusConflict,
	domain.CodeCrawlFailed:             http.StatusUnprocessableEntity,
	domain.CodeRateLimited:             http.StatusTooManyRequests,
	domain.CodeAssistantError:          http.StatusInternalServerError,
	domain.CodeAgentUnavailable:        http.StatusServiceUnavailable,
	domain.CodeModelUnavailable:        http.StatusServiceUnavailable,
	domain.CodeServiceUnavailable:      http.StatusServiceUnavailable,
	domain.CodeInternal:                http.StatusInternalServerError,
}

// fail answers err with the envelope and its status and ends the request. Errors that carry no
// code are ours: they are logged here, once, and the caller sees only the request id.
func (s *Server) fail(c *gin.Context, err error) {
	status, body := s.errorOf(c, err)
	c.AbortWithStatusJSON(status, apijson.ErrorEnvelope{Error: body})
}

// errorOf maps err to its status and the envelope's inner object, setting the headers that go
// with it; fail writes them, and a stream that has begun writes the object as its last event.
func (s *Server) errorOf(c *gin.Context, err error) (int, apijson.ErrorBody) {
	// A request cut short by the shutdown (its drain ran out) answers 503, not 500.
	err = outage.Cut(c.Request.Context(), err)
	e, ok := domain.AsError(err)
	if !ok || e.Code == domain.CodeInternal {
		logger(c).Error("request failed", zap.Error(err))
		e = &domain.Error{Code: domain.CodeInternal, Message: "internal error; quote request id " + c.GetString(ctxRequestID) + " if you contact support"}
	}
	status, known := statusOf[e.Code]
	if !known {
		status = http.StatusInternalServerError
	}
	body := apijson.ErrorOf(e, s.opts.UpgradeURL)
	c.Set(ctxErrorCode, e.Code) // for idempotent: some refusals free the request's key
	switch e.Code {
	case domain.CodeUnauthorized:
		c.Header("WWW-Authenticate", "Bearer")
	case domain.CodeRateLimited, domain.CodeServiceUnavailable:
		c.Header("Retry-After", strconv.Itoa(body.RetryAfter))
	}
	return status, body
}
