package channel

import "testing"

func TestChannel(t *testing.T) {
	tests := []struct {
		ch              Channel
		customer, links bool
	}{
		{API, true, false},
		{Web, true, false},
		{Messaging, true, true},
		{Owner, false, false},
		{"", false, false},
		{"fax", false, false},
	}
	for _, tt := range tests {
		if got := tt.ch.Customer(); got != tt.customer {
			t.Errorf("%q.Customer() = %v, want %v", tt.ch, got, tt.customer)
		}
		if got := tt.ch.Links(); got != tt.links {
			t.Errorf("%q.Links() = %v, want %v", tt.ch, got, tt.links)
		}
	}
}
