package account

import (
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		in      string
		want    Status
		wantErr bool
	}{
		{"active", Active, false},
		{"inactive", Inactive, false},
		{"Active", "", true},
		{"", "", true},
		{"deleted", "", true},
	}
	for _, tt := range tests {
		got, err := ParseStatus(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseStatus(%q) = %q, %v", tt.in, got, err)
		}
		if err != nil && domain.ErrorCode(err) != domain.CodeInvalidRequest {
			t.Errorf("ParseStatus(%q) code = %q", tt.in, domain.ErrorCode(err))
		}
	}
}

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Acme", true},
		{"  ", false},
		{"", false},
		{strings.Repeat("é", MaxNameLength), true},
		{strings.Repeat("a", MaxNameLength+1), false},
	}
	for _, tt := range tests {
		if err := ValidateName(tt.name); (err == nil) != tt.ok {
			t.Errorf("ValidateName(%q) = %v", tt.name, err)
		}
	}
}

func TestValidateEmail(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"", true},
		{"owner@example.com", true},
		{"owner", false},
		{"@example.com", false},
		{"owner@", false},
		{"a b@example.com", false},
	}
	for _, tt := range tests {
		if err := ValidateEmail(tt.in); (err == nil) != tt.ok {
			t.Errorf("ValidateEmail(%q) = %v", tt.in, err)
		}
	}
}

func TestUsable(t *testing.T) {
	tests := []struct {
		status Status
		want   domain.Code
	}{
		{Active, ""},
		{Inactive, domain.CodeAccountInactive},
	}
	for _, tt := range tests {
		if got := domain.ErrorCode(Account{Status: tt.status}.Usable()); got != tt.want {
			t.Errorf("Usable(%q) = %q, want %q", tt.status, got, tt.want)
		}
	}
}

func TestKeyHelpers(t *testing.T) {
	key := KeyPrefix + strings.Repeat("A", 43)
	tests := []struct {
		in   string
		want bool
	}{
		{key, true},
		{"svc_cs_" + strings.Repeat("A", 43), false},
		{KeyPrefix + "short", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := LooksLikeKey(tt.in); got != tt.want {
			t.Errorf("LooksLikeKey(%q) = %v", tt.in, got)
		}
	}
	if h := HashSecret(key); len(h) != 64 || h == HashSecret(key+"x") {
		t.Errorf("HashSecret gives %q", h)
	}
	if Last4Of(key) != "AAAA" || Last4Of("ab") != "ab" {
		t.Error("Last4Of")
	}
	if (Key{}).Revoked() || !(Key{RevokedAt: time.Unix(1, 0)}).Revoked() {
		t.Error("Revoked")
	}
}
