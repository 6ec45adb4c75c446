package apijson

import (
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
)

// TestAssistantNullIsAbsent: in POST /v1/assistant (and the assistant tool) a field sent as
// null is taken as absent, as every optional field of the API has it (and ParamsOf for a tool's
// arguments): {"approve":null} is a request without message or approve, answered by naming
// message and saying approve is the other way; a null approve beside a message leaves an
// instruction, and null fields beside an approve do not count as sent with it.
func TestAssistantNullIsAbsent(t *testing.T) {
	tests := []struct {
		body, approve, message, param, contains string
	}{
		{body: `{"approve":null}`, param: "message", contains: "or approve"},
		{body: `{"approve":null,"message":"What are my tasks today?"}`, message: "What are my tasks today?"},
		{body: `{"approve":"apr_1","message":null,"mode":null,"lang":null}`, approve: "apr_1"},
		{body: `{"approve":""}`, param: "approve"},
	}
	for _, tt := range tests {
		var in AssistantIn
		if err := Unmarshal([]byte(tt.body), &in, true); err != nil {
			t.Fatalf("%s: %v", tt.body, err)
		}
		approve, instr, err := in.Request().Validate()
		if tt.param != "" {
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.param || !strings.Contains(e.Message, tt.contains) {
				t.Errorf("%s: %v, want invalid_request naming %s", tt.body, err, tt.param)
			}
			continue
		}
		if err != nil || approve != tt.approve || instr.Message != tt.message {
			t.Errorf("%s: approve %q, message %q, %v; want approve %q, message %q", tt.body, approve, instr.Message, err, tt.approve, tt.message)
		}
	}
}
