package agent

import "testing"

func TestConfigured(t *testing.T) {
	tests := []struct {
		name string
		p    Profile
		want bool
	}{
		{"default", Default("acct_1"), false},
		{"blank name", Profile{BusinessName: "  "}, false},
		{"named", Profile{BusinessName: "Padaria Lu"}, true},
	}
	for _, tt := range tests {
		if got := tt.p.Configured(); got != tt.want {
			t.Errorf("%s: Configured = %v", tt.name, got)
		}
	}
	if d := Default("acct_1"); d.Channels != AllOn || d.AccountID != "acct_1" {
		t.Errorf("Default = %+v", d)
	}
}
