package session

import (
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestTTL(t *testing.T) {
	tests := []struct {
		minutes int
		given   bool
		want    time.Duration
		ok      bool
	}{
		{0, false, 60 * time.Minute, true},
		{5, true, 5 * time.Minute, true},
		{1440, true, 24 * time.Hour, true},
		{4, true, 0, false},
		{1441, true, 0, false},
		{0, true, 0, false},
		{-5, true, 0, false},
	}
	for _, tt := range tests {
		got, err := TTL(tt.minutes, tt.given)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("TTL(%d, %v) = %v, %v", tt.minutes, tt.given, got, err)
		}
		if e, ok := domain.AsError(err); ok && e.Field != "ttl_minutes" {
			t.Errorf("field %q", e.Field)
		}
	}
}

func TestExpiredAndToken(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		expires time.Time
		want    bool
	}{{now.Add(time.Second), false}, {now, true}, {now.Add(-time.Minute), true}}
	for _, tt := range tests {
		if got := (Session{ExpiresAt: tt.expires}).Expired(now); got != tt.want {
			t.Errorf("Expired at %v = %v", tt.expires, got)
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{{TokenPrefix + strings.Repeat("a", 43), true}, {"svc_live_" + strings.Repeat("a", 43), false}, {TokenPrefix, false}} {
		if LooksLikeToken(tc.in) != tc.want {
			t.Errorf("LooksLikeToken(%q)", tc.in)
		}
	}
}
