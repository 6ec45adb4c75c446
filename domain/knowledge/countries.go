package knowledge

import (
	"regexp"
	"strings"
	"unicode"
)

// countryCodes matches the capital abbreviations of the United States that a text writes as
// letters with dots or as a word a lower-case text would read as another ("US", "U.S.", "U.S.A.",
// Spanish "EE.UU." and "EEUU"): read lower case, "US" is the stop word "us" and "U.S." two single
// letters, so "We do not ship to the US" would hold no word of "do you ship to the usa".
var countryCodes = regexp.MustCompile(`\bU\.S\.(?:A\.)?|\bEE\.\s?UU\.?|\b(?:USA|US|EEUU)\b`)

// countryWords returns text with each capital abbreviation of the United States (countryCodes)
// written "USA", the word a customer writes and the thesaurus knows; an abbreviation next to
// another word in capitals ("CONTACT US", "ABOUT US") is a heading's word, and is left as it is.
// A text without one is returned as it is, without allocating.
func countryWords(text string) string {
	if !strings.Contains(text, "US") && !strings.Contains(text, "U.S") && !strings.Contains(text, "UU") {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range countryCodes.FindAllStringIndex(text, -1) {
		if capitalNeighbour(text[:m[0]], true) || capitalNeighbour(text[m[1]:], false) {
			continue
		}
		b.WriteString(text[last:m[0]])
		b.WriteString("USA")
		last = m[1]
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// capitalNeighbour reports whether the word next to an abbreviation (the last word of before
// when back, else the first of after) is of two or more letters, all capitals.
func capitalNeighbour(s string, back bool) bool {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ':' || r == '-' })
	var word []rune
	if back {
		i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		word = []rune(s[i+1:])
	} else {
		i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		if i < 0 {
			i = len(s)
		}
		word = []rune(s[:i])
	}
	if len(word) < 2 {
		return false
	}
	for _, r := range word {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
