package domain

import (
	"strings"
	"unicode"
)

// HasVisible reports whether s has a character that shows: a text of spaces, controls, format
// characters (zero-width space, joiners, BOM), variation selectors, other default-ignorable
// characters (Hangul fillers) and blank braille patterns only is blank, however long.
func HasVisible(s string) bool { return strings.IndexFunc(s, visible) >= 0 }

func visible(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.IsControl(r) && r != '\u2800' &&
		!unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
