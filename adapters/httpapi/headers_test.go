package httpapi

import (
	"net/http"
	"testing"
)

// TestCanonicalHeaders checks that the header names requestHeader reads and the rate limit's
// headers are written under are canonical: a map lookup under another spelling would miss the
// header a client sent, and a value set under one would be written in a new spelling.
func TestCanonicalHeaders(t *testing.T) {
	for _, key := range []string{
		headerRequestID, headerAuthorization,
		headerSource, headerWorkflow, headerWorkflowID, headerExecutionID,
		headerRateLimitLimit, headerRateLimitRemaining, headerRateLimitReset,
	} {
		if canonical := http.CanonicalHeaderKey(key); key != canonical {
			t.Errorf("header %q is not canonical: %q", key, canonical)
		}
	}
}
