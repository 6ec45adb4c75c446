package outbox

import (
	"testing"
	"time"
)

func TestClaimable(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		m    Message
		want bool
	}{
		{"new", Message{}, true},
		{"claimed just now", Message{EnqueuedAt: now}, false},
		{"claimed within lease", Message{EnqueuedAt: now.Add(-Lease + time.Second)}, false},
		{"lease over", Message{EnqueuedAt: now.Add(-Lease)}, true},
		{"done", Message{EnqueuedAt: now.Add(-time.Hour), DoneAt: now.Add(-time.Minute)}, false},
		{"done without claim", Message{DoneAt: now}, false},
	}
	for _, tt := range tests {
		if got := tt.m.Claimable(now, Lease); got != tt.want {
			t.Errorf("%s: Claimable = %v, want %v", tt.name, got, tt.want)
		}
	}
}
