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
		{"zero-width spaces only", ValidateMessage("message", "\u200b\u200b"), false},
		{"invisible characters only", ValidateMessage("message", "\u200d\ufeff\u2060\u00ad\u3164\u2800\ufe0f\u00a0\u3000\x01"), false},
		{"a word among zero-width spaces", ValidateMessage("message", "\u200bhi\u200b"), true},
		{"an emoji", ValidateMessage("message", "\U0001F44D"), true},
		{"long message", ValidateMessage("message", strings.Repeat("é", MaxMessage+1)), false},
		{"max message", ValidateMessage("message", strings.Repeat("é", MaxMessage)), true},
		{"id", ValidateID("conversation_id", "order-42_a:b@c.d"), true},
		{"id with space", ValidateID("conversation_id", "a b"), false},
		{"empty id", ValidateID("conversation_id", ""), false},
		{"long id", ValidateID("conversation_id", strings.Repeat("a", MaxIDLength+1)), false},
		{"customer id", ValidateCustomerID("conversation_id", "order-42"), true},
		{"customer id with asc in it", ValidateCustomerID("conversation_id", "basc_1"), true},
		{"customer id of the assistant's", ValidateCustomerID("conversation_id", "asc_abc"), false},
		{"customer id with a space", ValidateCustomerID("conversation_id", "a b"), false},
		{"assistant id", ValidateID("conversation_id", "asc_abc"), true},
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
