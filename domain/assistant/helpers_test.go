package assistant

import (
	"strings"

	"github.com/svcagent/svc/domain"
)

func stringOf(r rune, n int) string { return strings.Repeat(string(r), n) }

func asInvalid(err error) (string, bool) {
	e, ok := domain.AsError(err)
	if !ok || e.Code != domain.CodeInvalidRequest {
		return "", false
	}
	return e.Field, true
}
