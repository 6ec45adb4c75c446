package ratelimit

import (
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestResultErr(t *testing.T) {
	tests := []struct {
		name      string
		r         Result
		wantCode  domain.Code
		wantRetry time.Duration
	}{
		{"allowed", Result{Allowed: true, Remaining: 3}, "", 0},
		{"denied rounds up", Result{RetryAfter: 1200 * time.Millisecond}, domain.CodeRateLimited, 2 * time.Second},
		{"denied exact", Result{RetryAfter: 3 * time.Second}, domain.CodeRateLimited, 3 * time.Second},
		{"denied below a second", Result{RetryAfter: 10 * time.Millisecond}, domain.CodeRateLimited, time.Second},
		{"denied with no wait given", Result{}, domain.CodeRateLimited, time.Second},
	}
	for _, tt := range tests {
		err := tt.r.Err(PerKey)
		if got := domain.ErrorCode(err); got != tt.wantCode {
			t.Fatalf("%s: code %q, want %q", tt.name, got, tt.wantCode)
		}
		if err == nil {
			continue
		}
		e, _ := domain.AsError(err)
		if e.RetryAfter != tt.wantRetry {
			t.Errorf("%s: RetryAfter %v, want %v", tt.name, e.RetryAfter, tt.wantRetry)
		}
		if e.Message != "too many requests: at most 120 per minute; try again later" {
			t.Errorf("%s: message %q", tt.name, e.Message)
		}
	}
}

func TestSpecLimits(t *testing.T) {
	tests := []struct {
		l      Limit
		count  int
		period time.Duration
	}{
		{PerKey, 120, time.Minute},
		{Chat, 30, time.Minute},
		{Assistant, 30, time.Minute},
		{PageUploads, 20, time.Hour},
		{Crawls, 10, time.Hour},
		{Compat, 60, time.Minute},
		{AuthFailures, 100, 20 * time.Second},
	}
	for _, tt := range tests {
		if tt.l.Count != tt.count || tt.l.Period != tt.period {
			t.Errorf("%s = %d/%v, want %d/%v", tt.l.Name, tt.l.Count, tt.l.Period, tt.count, tt.period)
		}
	}
	if Subject(Chat, "acct_1") != "chat:acct_1" {
		t.Error("Subject")
	}
}

func TestAddress(t *testing.T) {
	tests := []struct{ in, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"", ""},
		{"not an address", "not an address"},
	}
	for _, tt := range tests {
		if got := Address(tt.in); got != tt.want {
			t.Errorf("Address(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
