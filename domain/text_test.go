package domain

import "testing"

func TestHasVisible(t *testing.T) {
	for s, want := range map[string]bool{
		"":                         false,
		" \t\r\n":                  false,
		"\u200b\u200c\u200d\u2060": false, // zero-width space, joiners, word joiner
		"\ufeff\ufe0f":             false, // BOM, a variation selector
		"\u3164\u2800":             false, // a Hangul filler, a blank braille pattern
		"a":                        true,
		"\u200b?":                  true,
		"🍕":                        true,
		"営":                        true,
	} {
		if got := HasVisible(s); got != want {
			t.Errorf("HasVisible(%q) = %v, want %v", s, got, want)
		}
	}
}
