package event

import (
	"testing"
	"time"
)

func TestKnown(t *testing.T) {
	tests := []struct {
		in   Type
		want bool
	}{
		{MessageReplied, true}, {BookingCreated, true}, {LimitReached, true},
		{KnowledgeUpdated, true}, {WebhookTest, true}, {"*", false}, {"message.sent", false},
	}
	for _, tt := range tests {
		if got := Known(tt.in); got != tt.want {
			t.Errorf("Known(%q) = %v", tt.in, got)
		}
	}
}

func TestStamp(t *testing.T) {
	tests := []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 21, 9, 5, 7, 0, time.UTC), "2026-11-21T09:05:07.000Z"},
		{time.Date(2026, 11, 21, 9, 5, 7, 123456789, time.UTC), "2026-11-21T09:05:07.123Z"},
		{time.Date(2026, 11, 21, 10, 5, 7, 0, time.FixedZone("", 3600)), "2026-11-21T09:05:07.000Z"},
	}
	for _, tt := range tests {
		if got := Stamp(tt.at); got != tt.want {
			t.Errorf("Stamp(%v) = %q, want %q", tt.at, got, tt.want)
		}
	}
}
