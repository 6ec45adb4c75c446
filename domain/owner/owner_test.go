package owner

import (
	"strings"
	"testing"
	"time"
)

func TestValidatePassword(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"correct horse", true},
		{"short", false},
		{"123456789", false},
		{"1234567890", true},
		{strings.Repeat("a", 72), true},
		{strings.Repeat("a", 73), false},
		{"with\x00nul-inside", false},
		{"tab\tinside-here", false},
		{"\xffinvalid-utf8-x", false},
		{"ãéíõúçñ€€€", true},
	}
	for _, tt := range tests {
		if err := ValidatePassword(tt.in); (err == nil) != tt.ok {
			t.Errorf("ValidatePassword(%q) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}

func TestValidateEmail(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"lu@example.com", true},
		{"", false},
		{"lu", false},
		{"@example.com", false},
		{"lu@", false},
		{"lu @example.com", false},
		{"<lu@example.com>", false},
		{strings.Repeat("a", 250) + "@x.io", false},
	}
	for _, tt := range tests {
		if err := ValidateEmail(tt.in); (err == nil) != tt.ok {
			t.Errorf("ValidateEmail(%q) = %v, want ok %v", tt.in, err, tt.ok)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	if got := NormalizeEmail("  Lu@Example.COM "); got != "lu@example.com" {
		t.Errorf("NormalizeEmail = %q", got)
	}
}

func TestSafeNext(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/app/keys", "/app/keys"},
		{"/cms/connect?site=https%3A%2F%2Fx&state=1", "/cms/connect?site=https%3A%2F%2Fx&state=1"},
		{"", "/app/"},
		{"//evil.example/", "/app/"},
		{"/\\evil.example", "/app/"},
		{"https://evil.example/", "/app/"},
		{"javascript:alert(1)", "/app/"},
		{"/app/\r\nSet-Cookie: x", "/app/"},
		{"/a\\b", "/app/"},
	}
	for _, tt := range tests {
		if got := SafeNext(tt.in, "/app/"); got != tt.want {
			t.Errorf("SafeNext(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSession(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	s := NewSession("h", "acct_1", now)
	tests := []struct {
		at      time.Time
		expired bool
	}{
		{now, false},
		{now.Add(SessionTTL - time.Second), false},
		{now.Add(SessionTTL), true},
		{now.Add(SessionTTL + time.Hour), true},
	}
	for _, tt := range tests {
		if got := s.Expired(tt.at); got != tt.expired {
			t.Errorf("Expired(%v) = %v, want %v", tt.at, got, tt.expired)
		}
	}
}

func TestLooksLikeToken(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{TokenPrefix + strings.Repeat("a", 43), true},
		{TokenPrefix + "short", false},
		{"svc_live_" + strings.Repeat("a", 43), false},
		{TokenPrefix + strings.Repeat("a", 300), false},
	}
	for _, tt := range tests {
		if got := LooksLikeToken(tt.in); got != tt.ok {
			t.Errorf("LooksLikeToken(%q) = %v", tt.in, got)
		}
	}
}
