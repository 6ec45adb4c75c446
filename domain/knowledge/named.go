package knowledge

import (
	"slices"
	"strings"
)

// NamedOnly reports whether a question names the business and a sentence shares with it no word
// but the name's: the business's own name tells to whom a question is put, not what it asks, so
// a sentence holding only the name ("O Salão Bela Vista fica na Avenida de Roma") answers none of
// "o bela vista faz barba?". A question names the business by the name's first word ("can tally
// chase them") or by two of its words in a row ("o bela vista", "casa limpia"); one word of the
// name alone that is not its first is often the kind of business ("Braehead Golf Club" and "how
// much is a round of golf"), which the question asks about. A question made only of the name's
// words is not one the rule reads (false).
func NamedOnly(question, sentence, name string) bool {
	if !sharesWord(question, name) {
		return false // most questions: no word of the name: nothing read further
	}
	names := Tokens(name)
	if len(names) == 0 {
		return false
	}
	asked := Tokens(question)
	named := false
	for i, t := range asked {
		if t == names[0] || i > 0 && slices.Contains(names, t) && slices.Contains(names, asked[i-1]) {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	rest := false
	words := Tokens(sentence)
	for _, t := range asked {
		if slices.Contains(names, t) {
			continue
		}
		if slices.Contains(words, t) {
			return false
		}
		rest = true
	}
	return rest
}

// sharesWord reports whether a holds, in any case, a word of b of three or more bytes, even
// inside another word: a cheap test, without allocating, before the question is read as terms.
func sharesWord(a, b string) bool {
	for w := range strings.FieldsSeq(b) {
		if len(w) < 3 {
			continue
		}
		for i := 0; i+len(w) <= len(a); i++ {
			if strings.EqualFold(a[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}
