package policy

import (
	"strings"
	"unicode"
)

// normalize returns a message as the rules read it: lower case, accents folded, punctuation
// dropped and words separated by single spaces, with a space at both ends so that every word is
// enclosed in spaces. It also undoes light obfuscation: invisible characters are dropped
// ("ig\u200bnore"), apostrophes inside words are dropped ("don't" is "dont"), digits and symbols
// standing for letters inside a word are read as those letters ("ign0re", "@dmin", "in$tructions")
// and runs of three or more single letters one character apart are joined ("i g n o r e",
// "p.r.o.m.p.t").
func normalize(s string) string {
	var (
		words []string
		gaps  []int // gaps[i]: separator characters between words[i-1] and words[i]
		cur   []rune
		gap   int
	)
	flush := func() {
		if w := readWord(cur); w != "" {
			words = append(words, w)
			gaps = append(gaps, gap)
			gap = 0
		}
		cur = cur[:0]
	}
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r):
			// a combining accent or an invisible character: part of the word around it
		case isApostrophe(r) && len(cur) > 0:
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' || r == '$':
			r = unicode.ToLower(plain(r))
			if f, ok := folds[r]; ok {
				cur = append(cur, []rune(f)...)
			} else {
				cur = append(cur, r)
			}
		default:
			flush()
			gap++
		}
	}
	flush()
	return " " + strings.Join(joinSpelled(words, gaps), " ") + " "
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == '`' || r == 'ʼ' }

// readWord returns w as a word, with digits and symbols inside words that also have letters read
// as the letters they imitate; a word without letters keeps its digits and loses its symbols.
func readWord(w []rune) string {
	letters := false
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters = true
			break
		}
	}
	var b strings.Builder
	for _, r := range w {
		if l, ok := leet[r]; ok && letters {
			r = l
		} else if r == '@' || r == '$' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var leet = map[rune]rune{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}

// joinSpelled joins runs of three or more one-letter words spaced alike, one to three
// characters apart ("i g n o r e", "I  G  N  O  R  E"); a wider or different gap ends a word
// ("s y s t e m  p r o m p t" is "system prompt").
func joinSpelled(words []string, gaps []int) []string {
	out := words[:0:0]
	for i := 0; i < len(words); {
		j := i + 1
		if isLetter(words[i]) && j < len(words) && gaps[j] <= 3 {
			for j < len(words) && gaps[j] == gaps[i+1] && isLetter(words[j]) {
				j++
			}
		}
		if j-i >= 3 {
			out = append(out, strings.Join(words[i:j], ""))
		} else {
			out = append(out, words[i:j]...)
		}
		i = j
	}
	return out
}

// isLetter reports whether w is a single letter.
func isLetter(w string) bool {
	r := []rune(w)
	return len(r) == 1 && unicode.IsLetter(r[0])
}

// plain returns the ASCII character a full-width form or a Cyrillic look-alike of a Latin letter
// stands for ("Ｉｇｎｏｒｅ", "іgnоrе"), and any other rune unchanged.
func plain(r rune) rune {
	if '！' <= r && r <= '～' {
		return r - '！' + '!'
	}
	if l, ok := lookalikes[r]; ok {
		return l
	}
	return r
}

var lookalikes = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j',
	'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ӏ': 'l', 'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm',
	'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x', 'І': 'i',
}

// folds maps lower-case Latin letters with diacritics to plain ASCII.
var folds = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'ı': "i"}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "e": "èéêëēĕėęě", "i": "ìíîïĩīĭįǐ", "n": "ñńņň",
		"o": "òóôõöōŏőǒ", "s": "śŝşšș", "u": "ùúûüũūŭůűųǔ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()
