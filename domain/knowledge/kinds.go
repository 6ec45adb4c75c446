package knowledge

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
	run := make([]bool, len(qw)) // of each word of the question: whether a phrase may hold it
	pair := false                // whether two of them follow each other: a phrase to look for
	for k, w := range qw {
		run[k] = runWord(w, q.lang)
		pair = pair || k > 0 && run[k-1] && run[k]
	}
	if !pair {
		return nil
	}
	var said []string // the question's words' stems, made when a sentence may name a kind
	// 0: holds no run; 1: names a run plain; 2: names a run only as a kind of it.
	marks := make([]uint8, len(texts))
	var plain, kind bool
	var words []nameWord // one sentence's, the slice reused
	for i, text := range texts {
		if sim[i] <= 0 {
			continue
		}
		words = nameWords(words[:0], text)
		for j := range words {
			for k := range qw {
				n := 0
				for j+n < len(words) && k+n < len(qw) && run[k+n] && words[j+n].is(qw[k+n]) {
					n++
				}
				if n < 2 || j > 0 && k > 0 && run[k-1] && words[j-1].is(qw[k-1]) {
					continue // too short, or inside a longer run
				}
				if j > 0 && words[j-1].capital && words[j].capital && words[j].joined {
					before := words[j-1].folded()
					if said == nil {
						said = make([]string, len(qw))
						for k, f := range qw {
							said[k] = stem(f)
						}
					}
					if contentWord(before, q.lang) && !slices.ContainsFunc(said, func(s string) bool { return nearTerm(stem(before), s) }) {
						if marks[i] == 0 {
							marks[i] = 2
						}
						continue
					}
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

// A nameWord is a word of a sentence as written (nameWords), whether it is written with a capital
// and whether only spaces part it from the word before.
type nameWord struct {
	text            string
	capital, joined bool
}

// folded returns the word lower case, accents folded.
func (w nameWord) folded() string { return foldWord(strings.ToLower(w.text)) }

// is reports whether the word is folded, a word lower case with accents folded: without a copy
// when it is written in ASCII.
func (w nameWord) is(folded string) bool {
	for i := 0; i < len(w.text); i++ {
		if w.text[i] >= utf8.RuneSelf {
			return w.folded() == folded
		}
	}
	return strings.EqualFold(w.text, folded)
}

// nameWords appends the words of a text to words.
func nameWords(words []nameWord, text string) []nameWord {
	start, spaced := -1, true
	end := func(i int) {
		w := text[start:i]
		first, _ := utf8.DecodeRuneInString(w)
		words = append(words, nameWord{text: w, capital: unicode.IsUpper(first), joined: spaced && len(words) > 0})
		start, spaced = -1, true
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			end(i)
		}
		if !unicode.IsSpace(r) {
			spaced = false
		}
	}
	if start >= 0 {
		end(len(text))
	}
	return words
}
