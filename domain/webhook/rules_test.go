package webhook

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
)

func TestValidateURL(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", MaxURL)
	tests := []struct {
		raw          string
		allowPrivate bool
		ok           bool
	}{
		{"https://example.com/hooks/svc", false, true},
		{"https://example.com:8443/hooks?src=svc", false, true},
		{"HTTPS://Example.COM/x", false, true},
		{"https://93.184.216.34/hook", false, true},
		{"https://[2606:2800:220:1::]/hook", false, true},
		{"", false, false},
		{long, false, false},
		{"http://example.com/hook", false, false},
		{"http://example.com/hook", true, false},
		{"http://127.0.0.1:8080/hook", false, false},
		{"http://127.0.0.1:8080/hook", true, true},
		{"http://localhost:8080/hook", true, true},
		{"http://[::1]:8080/hook", true, true},
		{"http://10.0.0.5/hook", true, false},
		{"https://127.0.0.1/hook", false, false},
		{"https://127.0.0.1/hook", true, true},
		{"https://localhost/hook", false, false},
		{"https://api.localhost/hook", false, false},
		{"https://10.1.2.3/hook", false, false},
		{"https://192.168.1.1/hook", false, false},
		{"https://169.254.169.254/latest", false, false},
		{"https://[::ffff:127.0.0.1]/hook", false, false},
		{"https://[fd00::1]/hook", false, false},
		{"https://0.0.0.0/hook", false, false},
		{"https://user:pass@example.com/hook", false, false},
		{"https://user@example.com/hook", false, false},
		{"https://example.com/hook#frag", false, false},
		{"ftp://example.com/hook", false, false},
		{"example.com/hook", false, false},
		{"https:///hook", false, false},
		{"https:example.com", false, false},
		{"https://exa mple.com/", false, false},
		{"https://example.com/\x00", false, false},
	}
	for _, tt := range tests {
		err := ValidateURL(tt.raw, tt.allowPrivate)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateURL(%.60q, %v) = %v, want ok %v", tt.raw, tt.allowPrivate, err, tt.ok)
			continue
		}
		if err != nil {
			if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != "url" {
				t.Errorf("ValidateURL(%.60q) error %v, want invalid_request on url", tt.raw, err)
			}
			if strings.Contains(err.Error(), "pass") {
				t.Errorf("ValidateURL error shows the credentials: %v", err)
			}
		}
	}
}

func TestValidateEvents(t *testing.T) {
	tests := []struct {
		in   []string
		want []string // nil: invalid
	}{
		{[]string{"*"}, []string{"*"}},
		{[]string{"*", "*"}, []string{"*"}},
		{[]string{"message.replied"}, []string{"message.replied"}},
		{[]string{"limit.reached", "message.replied", "limit.reached"}, []string{"limit.reached", "message.replied"}},
		{[]string{"message.replied", "booking.created", "limit.reached", "knowledge.updated", "webhook.test"},
			[]string{"message.replied", "booking.created", "limit.reached", "knowledge.updated", "webhook.test"}},
		{nil, nil},
		{[]string{}, nil},
		{[]string{""}, nil},
		{[]string{"message.sent"}, nil},
		{[]string{"Message.Replied"}, nil},
		{[]string{"message.replied", "booking.created", "message.sent"}, nil},
		{[]string{"*", "message.replied"}, nil},
		{[]string{"message.replied", "*"}, nil},
		{[]string{"all"}, nil},
	}
	for _, tt := range tests {
		got, err := ValidateEvents(tt.in)
		if tt.want == nil {
			// An unknown entry is named by its index (events[2]), as items[3].question is; a
			// list that is wrong as a whole names events.
			want := "events"
			for i, e := range tt.in {
				if e != AllEvents && !event.Known(event.Type(e)) {
					want = fmt.Sprintf("events[%d]", i)
					break
				}
			}
			if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != want {
				t.Errorf("ValidateEvents(%q) = %q, %v; want invalid_request on %s", tt.in, got, err, want)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ValidateEvents(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNewSecret(t *testing.T) {
	random := bytes.Repeat([]byte{0xfb}, SecretBytes)
	s := NewSecret(random)
	rest, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok {
		t.Fatalf("NewSecret = %q, want the %q prefix", s, SecretPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || !bytes.Equal(b, random) {
		t.Errorf("NewSecret = %q does not carry the random bytes as base64url", s)
	}
	if len(s) != len(SecretPrefix)+43 || strings.ContainsAny(rest, "+/=") {
		t.Errorf("NewSecret = %q, want whsec_ and 43 URL-safe characters", s)
	}
	if MaxPerAccount != 10 {
		t.Errorf("MaxPerAccount = %d, want 10 (spec part 8)", MaxPerAccount)
	}
}
