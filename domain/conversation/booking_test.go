package conversation

import "testing"

func TestBookingDuration(t *testing.T) {
	tests := []struct{ in, want string }{
		{"30 min", "30 min"},
		{"30", "30 min"},
		{"30 minutes", "30 min"},
		{" 45 mins ", "45 min"},
		{"1 hour", "60 min"},
		{"1 Hour", "60 min"},
		{"2 hours", "120 min"},
		{"1.5 hours", "90 min"},
		{"1,5 horas", "90 min"},
		{"1h", "60 min"},
		{"1h30", "90 min"},
		{"1h 30m", "90 min"},
		{"1 hour and 15 minutes", "75 min"},
		{"90m", "90 min"},
		{"45 minutos", "45 min"},
		{"", ""},
		{"all afternoon", "all afternoon"},
		{"0", "0"},
		{"30 days", "30 days"},
	}
	for _, tt := range tests {
		if got := BookingDuration(tt.in); got != tt.want {
			t.Errorf("BookingDuration(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
