package apijson

import (
	"time"

	"github.com/svcagent/svc/domain"
)

// ErrorBody is the error envelope's inner object (spec part 7).
type ErrorBody struct {
	Code       domain.Code `json:"code"`
	Message    string      `json:"message"`
	Param      string      `json:"param,omitempty"`
	Type       string      `json:"type,omitempty"`
	RetryAfter int         `json:"retry_after,omitempty"`
	UpgradeURL string      `json:"upgrade_url,omitempty"`
}

// ErrorEnvelope is the body of every error answer.
type ErrorEnvelope struct {
	Error ErrorBody `json:"error"`
}

// ErrorOf is the inner object of e; upgradeURL is where a plan can be raised.
func ErrorOf(e *domain.Error, upgradeURL string) ErrorBody {
	body := ErrorBody{Code: e.Code, Message: capMessage(e.Message), Param: CapParam(e.Field)}
	switch e.Code {
	case domain.CodeInteractionLimitReached:
		body.Type = "insufficient_quota"
		body.UpgradeURL = upgradeURL
	case domain.CodePlanRequired:
		body.UpgradeURL = upgradeURL
	case domain.CodeRateLimited, domain.CodeServiceUnavailable:
		body.RetryAfter = RetryAfter(e)
	}
	return body
}

// RetryAfter is the whole seconds, at least one, after which e's request may be tried again.
func RetryAfter(e *domain.Error) int {
	return max(int((e.RetryAfter+time.Second-1)/time.Second), 1)
}

// MaxMessage is the longest error message answered: the messages quote at most a short prefix of
// a value (domain.Quote), and this cut keeps one that would quote more from echoing it whole.
const MaxMessage = 500

func capMessage(m string) string { return cut(m, MaxMessage) }
