package domain

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
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

func TestQuote(t *testing.T) {
	long := strings.Repeat("é", MaxQuoted)
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", "lead", `"lead"`},
		{"exactly the limit", long, strconv.Quote(long)},
		{"one more", long + "x", strconv.Quote(long + "…")},
		{"oversized", strings.Repeat("a", 7<<20), strconv.Quote(strings.Repeat("a", MaxQuoted) + "…")},
		{"control characters escaped", "a\x00b", `"a\x00b"`},
		{"invalid UTF-8 escaped", "a\xffb", `"a\xffb"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				t.Fatalf("Quote() = %.80s, want %.80s", got, tt.want)
			}
		})
	}
}
