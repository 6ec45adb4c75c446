package tokens

import (
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	c := NewLazy()
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Hello, world!", 4},
		{"<|endoftext|>", 7}, // special-token text counts as text
	}
	for _, tt := range tests {
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
	if n := c.Count(strings.Repeat("word ", 1000)); n < 900 || n > 1100 {
		t.Errorf("1000 words are %d tokens", n)
	}
}

func TestTruncate(t *testing.T) {
	c := NewLazy()
	text := strings.Repeat("one two three ", 100)
	cut, ok := c.Truncate(text, 10)
	if !ok || c.Count(cut) > 10 || !strings.HasPrefix(text, cut) || len(cut) == 0 {
		t.Fatalf("Truncate = %q, %t", cut, ok)
	}
	if same, ok := c.Truncate("short", 10); ok || same != "short" {
		t.Fatalf("short text: %q, %t", same, ok)
	}
}

func TestDecode(t *testing.T) {
	c := NewLazy()
	// "hello world" in cl100k_base.
	if s, err := c.Decode([]int{15339, 1917}); err != nil || s != "hello world" {
		t.Fatalf("Decode = %q, %v", s, err)
	}
	for _, ids := range [][]int{{-1}, {1 << 30}} {
		if _, err := c.Decode(ids); err == nil {
			t.Errorf("Decode(%v): no error", ids)
		}
	}
}
