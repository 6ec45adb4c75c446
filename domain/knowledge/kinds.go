package knowledge

import (
	"slices"
	"strings"
	"unicode"
)

// phraseKinds returns, of each sentence (its text), whether it names a kind of a phrase of the
// question that the question does not say, while another sentence holding the phrase names it
// plain: "precio curso open water" against "El curso Advanced Open Water cuesta 330 €…" when
// "El curso Open Water Diver (PADI) … cuesta 420 €" is there too. The phrase is a run of two or
// more content words of the question, held in that order by the sentence; the sentence names a
// kind of it when the word before it there is a content word the question says nowhere, plain
// when it is not. Only sentences with live (positive) scores count; nil when no sentence is
// marked.
func phraseKinds(q *query, texts []string, sim []float64) []bool {
	qw := q.folded
	if !slices.ContainsFunc(qw, func(w string) bool { return runWord(w, q.lang) }) {
		return nil
	}
	said := make([]string, len(qw))
	for i, f := range qw {
		said[i] = stem(f)
	}
	// 0: holds no run; 1: names a run plain; 2: names a run only as a kind of it.
	marks := make([]uint8, len(texts))
	var plain, kind bool
	for i, text := range texts {
		if sim[i] <= 0 {
			continue
		}
		words, capital, joined := nameWords(text)
		for j := range words {
			for k := range qw {
				n := 0
				for j+n < len(words) && k+n < len(qw) && words[j+n] == qw[k+n] && runWord(qw[k+n], q.lang) {
					n++
				}
				if n < 2 || j > 0 && k > 0 && words[j-1] == qw[k-1] && runWord(qw[k-1], q.lang) {
					continue // too short, or inside a longer run
				}
				if j > 0 && capital[j-1] && capital[j] && joined[j] && contentWord(words[j-1], q.lang) &&
					!slices.ContainsFunc(said, func(s string) bool { return nearTerm(stem(words[j-1]), s) }) {
					if marks[i] == 0 {
						marks[i] = 2
					}
					continue
				}
				marks[i] = 1
			}
		}
		plain = plain || marks[i] == 1
		kind = kind || marks[i] == 2
	}
	if !plain || !kind {
		return nil
	}
	out := make([]bool, len(texts))
	for i, m := range marks {
		out[i] = m == 2
	}
	return out
}

// runWord reports whether a word (folded) of a question may be of a phrase it names: no stop or
// function word, single letter or number (a light word or an asking word may: "open water"); a
// content word (contentWord) is one of them.
func runWord(folded, lang string) bool {
	if len(folded) < 2 || allDigits(folded) {
		return false
	}
	if _, stop := stopwords[folded]; stop {
		return false
	}
	if _, stop := chatStopwords[folded]; stop {
		return false
	}
	_, fn := functionWords[lang][folded]
	return !fn
}

// nameWords returns the words of a text (lower case, folded), of each whether it is written with
// a capital and whether only spaces part it from the word before.
func nameWords(text string) (words []string, capital, joined []bool) {
	start, spaced := -1, true
	for i, r := range text + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := text[start:i]
			words = append(words, foldWord(strings.ToLower(w)))
			capital = append(capital, unicode.IsUpper([]rune(w)[0]))
			joined = append(joined, spaced && len(words) > 1)
			start, spaced = -1, true
		}
		if !unicode.IsSpace(r) {
			spaced = false
		}
	}
	return words, capital, joined
}
