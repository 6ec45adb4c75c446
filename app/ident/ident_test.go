package ident

import (
	"strings"
	"testing"
	"time"
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

func TestOrdered(t *testing.T) {
	base := time.Date(2026, 11, 28, 1, 2, 3, 0, time.UTC)
	prev := ""
	for i := range 200 {
		id := Ordered("msg", base.Add(time.Duration(i)*time.Millisecond))
		if !strings.HasPrefix(id, "msg_") || len(id) != len("msg_")+24 {
			t.Fatalf("Ordered = %q", id)
		}
		if id <= prev {
			t.Fatalf("%q made after %q sorts before it", id, prev)
		}
		prev = id
	}
	a, b := Ordered("evt", base), Ordered("evt", base) // the same millisecond: the random part differs
	if a == b || len(a) != len("evt_")+24 {
		t.Fatalf("Ordered = %q, %q", a, b)
	}
}

// TestAllocations checks that an identifier costs one allocation, the string itself: its random
// characters are drawn on the stack (every request makes several: its id, the reply's, the
// charge's).
func TestAllocations(t *testing.T) {
	for name, make := range map[string]func() string{
		"New":     func() string { return New("acct") },
		"Secret":  func() string { return Secret("svc_live_") },
		"Ordered": func() string { return Ordered("msg", time.Unix(1767225600, 0)) },
	} {
		if n := testing.AllocsPerRun(100, func() { _ = make() }); n != 1 {
			t.Errorf("%s: %v allocations, want 1", name, n)
		}
	}
}
