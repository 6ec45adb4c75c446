package ident

import (
	"strings"
	"testing"
)

func TestNewAndSecret(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := New("acct")
		if !strings.HasPrefix(id, "acct_") || len(id) != len("acct_")+24 {
			t.Fatalf("New = %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate %q", id)
		}
		seen[id] = true
	}
	s := Secret("svc_live_")
	if !strings.HasPrefix(s, "svc_live_") || len(s) != len("svc_live_")+43 {
		t.Fatalf("Secret = %q", s)
	}
	for _, c := range strings.TrimPrefix(s, "svc_live_") {
		if !strings.ContainsRune(alphabet, c) {
			t.Fatalf("Secret has %q", c)
		}
	}
}
