package knowledge

import (
	"slices"
	"strings"

	"github.com/svcagent/svc/domain/language"
)

// coverBoost, times the square of its coverage (coverage), is added to the similarity of a
// sentence that holds the question's content words: a short question ("onde ficam", "hacéis
// pilates") has one or two words that say what it asks, and a cosine over a sentence of fifteen
// words leaves them under the threshold even when the sentence holds every one of them. Squared,
// so that a sentence holding half of them ("do you repair cars" and "Flat tyre repair $15") gets
// a quarter of it.
const coverBoost = 0.1

// coverage returns, for each item, the share of the query's content words (its words in the
// matcher's language that are neither stop words nor light words, lightWords, by their stems'
// keys as wordKeys makes them, each weighed by its idf) that the item holds. Nil when the query
// has none, or has one that no item holds: the Brain may then not know what it is about ("do you
// have any job openings" is not asking the opening hours).
func (m *faqMatcher) coverage(query string) []float64 {
	lang := language.Detect(query, m.lang)
	var ids []int32
	total := 0.0
	for _, w := range lowerWords(query) {
		folded := foldWord(w)
		if len(folded) < 2 {
			continue
		}
		if _, stop := stopwords[folded]; stop {
			continue
		}
		if _, light := lightWords[stem(folded)]; light || askingWord(folded, lang) {
			continue
		}
		id, ok := m.feats.get("w" + foldWord(m.stemWord(w, lang)))
		if !ok {
			return nil
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
			total += m.idf(id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	out := make([]float64, len(m.answer))
	for _, id := range ids {
		share := m.idf(id) / total
		for _, p := range m.postings(id) {
			out[p.item] += share
		}
	}
	return out
}

// formOnly reports whether a query in lang is made only of its form: stop words, light words and
// the words that ask a kind of fact ("where are you located", "when are you open"), no word that
// says what it is about.
func formOnly(query, lang string) bool {
	for _, w := range lowerWords(query) {
		folded := foldWord(w)
		if len(folded) < 2 {
			continue
		}
		if _, stop := stopwords[folded]; stop {
			continue
		}
		if _, light := lightWords[stem(folded)]; light || askingWord(folded, lang) {
			continue
		}
		return false
	}
	return true
}

// askingWords are the words of the phrases by which a question asks for a price, a place, a
// time or a duration (cueWords: "onde", "custa", "fecham", "que horas"), by language: they say
// what kind of fact the question asks, which the cues weigh, not what it is about.
var askingWords = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for lang, cues := range cueWords {
		out[lang] = make(map[string]bool)
		for c, phrases := range cues {
			if c == cueWay {
				continue // the channels ("phone", "WhatsApp") are what a question may be about
			}
			for _, p := range phrases {
				for _, w := range strings.Fields(p) {
					out[lang][w] = true
				}
			}
		}
	}
	return out
}()

func askingWord(folded, lang string) bool { return askingWords[lang][folded] }
