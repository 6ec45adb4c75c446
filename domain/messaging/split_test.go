package messaging

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	one := func(rune) int { return 1 }
	tests := []struct {
		name     string
		text     string
		limit    int
		maxParts int
		want     []string
	}{
		{"fits", "Hello there.", 20, 4, []string{"Hello there."}},
		{"exactly the limit", "abcdefghij", 10, 4, []string{"abcdefghij"}},
		{"blank", " \n ", 10, 4, nil},
		{"at a paragraph", "First para. Still.\n\nSecond para here.", 25, 4, []string{"First para. Still.", "Second para here."}},
		{"a paragraph before a later line break", "Aaaa bbbb cc.\n\nDd ee.\nFf gg hh", 24, 4, []string{"Aaaa bbbb cc.", "Dd ee.\nFf gg hh"}},
		{"at a line break", "Line one here\nline two here", 20, 4, []string{"Line one here", "line two here"}},
		{"at a sentence", "One two three. Four five six seven", 22, 4, []string{"One two three.", "Four five six seven"}},
		{"at a word", "alpha beta gamma delta epsilon", 14, 4, []string{"alpha beta", "gamma delta", "epsilon"}},
		{"a paragraph too early is passed for a word", "Hi.\n\nalpha beta gamma delta", 16, 4, []string{"Hi.\n\nalpha beta", "gamma delta"}},
		{"no space: between characters", "abcdefghijklmnop", 6, 4, []string{"abcdef", "ghijkl", "mnop"}},
		{"CJK sentence ends", "今日は晴れです。明日は雨です。", 10, 4, []string{"今日は晴れです。", "明日は雨です。"}},
		{"capped: the last part cut", "aa bb cc dd ee ff gg hh", 5, 2, []string{"aa bb", "cc…"}},
		{"capped, the rest fits", "aa bb cc", 5, 2, []string{"aa bb", "cc"}},
	}
	for _, tt := range tests {
		got := split(tt.text, tt.limit, tt.maxParts, one)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: split(%q, %d) = %q, want %q", tt.name, tt.text, tt.limit, got, tt.want)
		}
		for _, p := range got {
			if n := utf8.RuneCountInString(p); n > tt.limit || !utf8.ValidString(p) || p == "" {
				t.Errorf("%s: part %q of %d characters, limit %d", tt.name, p, n, tt.limit)
			}
		}
	}
}

// textLength returns the length of s in UTF-16 code units, as the apps count it against MaxText.
func textLength(s string) int { return len(utf16.Encode([]rune(s))) }

// TestSplitApps checks the apps' count: UTF-16 code units on both, WhatsApp's "characters"
// included (an emoji is two, never split between its halves).
func TestSplitApps(t *testing.T) {
	emoji := strings.Repeat("🍞", MaxText) // 4096 characters, 8192 UTF-16 code units
	parts := Split(emoji)
	if len(parts) != 2 || parts[0]+parts[1] != emoji {
		t.Fatalf("%d parts, want 2 that make the text", len(parts))
	}
	for _, p := range parts {
		if n := textLength(p); n > MaxText || !utf8.ValidString(p) {
			t.Errorf("part of %d UTF-16 code units (valid UTF-8 %v), limit %d", n, utf8.ValidString(p), MaxText)
		}
	}
	if n := textLength(parts[0]); n != MaxText {
		t.Errorf("the first part holds %d code units, want %d (full, each emoji whole)", n, MaxText)
	}
	if n := units('é') + units('🍞'); n != 3 {
		t.Errorf("units of é🍞 = %d, want 3", n)
	}

	// The longest reply: a 5000-character Brain answer of sentences, then action links.
	long := strings.Repeat("Our sourdough rests for two days before baking. ", 104)[:4990] + "\n\nhttps://shop.example/bread"
	parts = Split(long)
	if len(parts) != 2 || !strings.HasSuffix(parts[0], "baking.") || !strings.HasPrefix(parts[1], "Our ") ||
		!strings.HasSuffix(parts[1], "\n\nhttps://shop.example/bread") || len(parts[0])+1+len(parts[1]) != len(long) {
		t.Errorf("a 5000-character reply: %d parts, want 2 split after a sentence", len(parts))
	}
	if got := len(Split(strings.Repeat("x ", 5*MaxText))); got != MaxParts {
		t.Errorf("a text of 10240 words: %d parts, want the cap %d", got, MaxParts)
	}
	if got := Fit(emoji); textLength(got) > MaxText || !strings.HasSuffix(got, "…") {
		t.Errorf("Fit: %d code units, want at most %d, cut with an ellipsis", textLength(got), MaxText)
	}
	if Fit(" ") != "" {
		t.Error("Fit of a blank text is not empty")
	}
}
