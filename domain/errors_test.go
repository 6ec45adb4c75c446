package domain

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCode(t *testing.T) {
	wrapped := fmt.Errorf("load: %w", NotFound("account"))
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"nil", nil, ""},
		{"plain", errors.New("boom"), CodeInternal},
		{"domain", Invalid("message", "required"), CodeInvalidRequest},
		{"wrapped", wrapped, CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErrorCode(tt.err); got != tt.want {
				t.Fatalf("ErrorCode() = %q, want %q", got, tt.want)
			}
		})
	}
	if !IsNotFound(wrapped) {
		t.Fatal("IsNotFound(wrapped) = false")
	}
	if got := Invalid("ttl_minutes", "must be between %d and %d", 5, 1440).Error(); got != "invalid_request: must be between 5 and 1440 (ttl_minutes)" {
		t.Fatalf("Error() = %q", got)
	}
}
