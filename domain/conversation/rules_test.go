package conversation

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		err  error
		ok   bool
	}{
		{"message", ValidateMessage("message", "Do you deliver?"), true},
		{"blank message", ValidateMessage("message", " \n"), false},
		{"long message", ValidateMessage("message", strings.Repeat("é", MaxMessage+1)), false},
		{"max message", ValidateMessage("message", strings.Repeat("é", MaxMessage)), true},
		{"id", ValidateID("conversation_id", "order-42_a:b@c.d"), true},
		{"id with space", ValidateID("conversation_id", "a b"), false},
		{"empty id", ValidateID("conversation_id", ""), false},
		{"long id", ValidateID("conversation_id", strings.Repeat("a", MaxIDLength+1)), false},
		{"name", ValidateCustomerName("Ana"), true},
		{"long name", ValidateCustomerName(strings.Repeat("a", MaxCustomerName+1)), false},
	}
	for _, tt := range tests {
		if (tt.err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, tt.err)
		}
	}
	if ContactID(ChannelWeb, "123") != "web:123" {
		t.Error("ContactID")
	}
}
