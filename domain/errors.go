// Package domain holds the service's pure model. This file defines the one error type every layer
// returns; only the HTTP adapter turns it into a status code and an envelope.
package domain

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Code is a machine-readable error code of the interface specification (part 7).
type Code string

// The codes of the interface specification, part 7, plus CodeServiceUnavailable for a dependency
// that cannot be reached right now (the database), CodeOriginNotAllowed for a page the widget's
// allowed domains leave out, and CodeInternal for failures that are ours.
const (
	CodeInvalidRequest          Code = "invalid_request"
	CodeInputTooLarge           Code = "input_too_large"
	CodeContentPolicy           Code = "content_policy"
	CodeUnauthorized            Code = "unauthorized"
	CodePlanRequired            Code = "plan_required"
	CodeInteractionLimitReached Code = "interaction_limit_reached"
	CodeAccountInactive         Code = "account_inactive"
	CodeNotFound                Code = "not_found"
	CodeApprovalNotFound        Code = "approval_not_found"
	CodeAgentNotConfigured      Code = "agent_not_configured"
	CodeCrawlFailed             Code = "crawl_failed"
	CodeRateLimited             Code = "rate_limited"
	CodeAssistantError          Code = "assistant_error"
	CodeAgentUnavailable        Code = "agent_unavailable"
	CodeModelUnavailable        Code = "model_unavailable"
	CodeServiceUnavailable      Code = "service_unavailable"
	CodeOriginNotAllowed        Code = "origin_not_allowed"
	CodeInternal                Code = "internal_error"
)

// Error is a failure the caller can act on: a code of the specification, a human message, and
// optionally the request field at fault and how long to wait before trying again. Format and Args
// are the message's English form and its values (Message is fmt.Sprintf(Format, Args...)) when it
// was made by Errorf or Invalid, so that a page for people can say it in their language; an
// Error made otherwise has no Format.
type Error struct {
	Code       Code
	Message    string
	Field      string
	RetryAfter time.Duration
	Err        error
	Format     string
	Args       []any
}

func (e *Error) Error() string {
	msg := string(e.Code) + ": " + e.Message
	if e.Field != "" {
		msg += " (" + e.Field + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Invalid returns a 400 invalid_request Error naming the field at fault.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidRequest, Field: field, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// NotFound returns a not_found Error for a kind of resource.
func NotFound(what string) *Error {
	return &Error{Code: CodeNotFound, Message: what + " not found"}
}

// ErrUnread marks a refusal decided from a credential's form alone (none was sent, or it has
// the form of no credential), before anything was read: cheap to answer, such a refusal is not
// counted among the failed authentications that are throttled.
var ErrUnread = errors.New("refused by its form, unread")

// Unread returns e marked ErrUnread.
func Unread(e *Error) *Error {
	c := *e
	c.Err = ErrUnread
	return &c
}

// AsError returns the domain Error inside err, if there is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// ErrorCode returns the code of err: "" for nil, CodeInternal for an error that carries no code.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	if e, ok := AsError(err); ok {
		return e.Code
	}
	return CodeInternal
}

// IsNotFound reports whether err carries the not_found code.
func IsNotFound(err error) bool { return ErrorCode(err) == CodeNotFound }

// MaxQuoted is how many characters of a caller's value an error message quotes at most.
const MaxQuoted = 40

// Quote quotes a caller's value for an error message, as %q does, but only its first MaxQuoted
// characters, with … when there are more: a message never echoes a whole oversized value.
func Quote(s string) string {
	n := 0
	for i := range s {
		if n == MaxQuoted {
			return strconv.Quote(s[:i] + "…")
		}
		n++
	}
	return strconv.Quote(s)
}
