package knowledge

import (
	"slices"
	"strings"
)

// phrasalParticles are the English adverbs that make a verb before them a phrasal verb of another
// meaning: "pick up my order" is no "pick" ("Each month we pick a different single origin"),
// "drop off my laptop" no "drop", "set up my printer" no "set". Not "out", "back" or "down",
// which mostly leave the verb's meaning as it is ("find out", "sent out", "came back"): with
// them the eval's tuning splits lost answers (testdata/eval/README.md, round 21).
var phrasalParticles = []string{"up", "off"}

// particleOf returns the particle a word (lower case) is, or "".
func particleOf(w string) string {
	for _, p := range phrasalParticles {
		if w == p {
			return p
		}
	}
	return ""
}

// phrasalKey is the key of a phrasal verb: its verb's stem feature (stemFeature) and its particle.
func phrasalKey(stem, particle string) string { return stem + " " + particle }

// phrasalVerbs returns the phrasal verbs of English texts (phrasalKey): a word then a particle
// ("picked up", "pick-up", "drop off"), and a word written as one of a verb of three letters or
// more and a particle ("pickup", "dropoff", "setup", "checkout"); nil when the Brain's language
// is not English.
func (m *faqMatcher) phrasalVerbs(texts []string) map[string]struct{} {
	if m.lang != "en" {
		return nil
	}
	out := map[string]struct{}{}
	for _, t := range texts {
		words := lowerWords(t)
		for i, w := range words {
			if i+1 < len(words) {
				if p := particleOf(words[i+1]); p != "" && !stopPart(w) {
					out[phrasalKey(m.stemFeature(w, foldWord(w), "en"), p)] = struct{}{}
				}
			}
			for _, p := range phrasalParticles {
				if head, ok := strings.CutSuffix(w, p); ok && len(head) >= 3 && !stopPart(head) {
					out[phrasalKey(m.stemFeature(head, foldWord(head), "en"), p)] = struct{}{}
				}
			}
		}
	}
	return out
}

// withoutPhrasal takes out of a query's features (feats) those of the verb of a phrasal verb of
// an English question that the Brain never writes (known: phrasalVerbs): "can I pick up my
// order?" asks no sentence holding "pick" alone. Its n-grams are dropped, its stem is kept under
// a key no sentence holds (it still weighs in the question, as a word the Brain lacks); a key
// another word of the question makes too stays. feats itself when there is none.
func withoutPhrasal(q *query, feats []feature, known map[string]struct{}) []feature {
	verbs := unknownPhrasal(q, known)
	if verbs == nil {
		return feats
	}
	drop := map[string]struct{}{}
	for _, i := range verbs {
		for _, k := range featureKeys(q.stems[i], q.folded[i]) {
			drop[k] = struct{}{}
		}
	}
	for i := range q.words {
		if q.stems[i] == "" || slices.Contains(verbs, i) {
			continue
		}
		for _, k := range featureKeys(q.stems[i], q.folded[i]) {
			delete(drop, k)
		}
	}
	out := make([]feature, 0, len(feats))
	for _, f := range feats {
		if _, ok := drop[f.key]; !ok {
			out = append(out, f)
		} else if !f.gram {
			f.key += " phrasal" // a word no sentence holds: it still counts in the question's length
			out = append(out, f)
		}
	}
	return out
}

// unknownPhrasal returns the indexes of the words of an English query that are the verb of a
// phrasal verb the Brain never writes (known: phrasalVerbs); nil when none.
func unknownPhrasal(q *query, known map[string]struct{}) []int {
	if q.lang != "en" || known == nil {
		return nil
	}
	var verbs []int
	for i := 0; i+1 < len(q.words); i++ {
		p := particleOf(q.words[i+1])
		if p == "" || q.stems[i] == "" || stopPart(q.words[i]) {
			continue
		}
		if _, ok := known[phrasalKey(q.stems[i], p)]; !ok {
			verbs = append(verbs, i)
		}
	}
	return verbs
}

// withoutPhrasalTerms marks, among a query's BM25 terms (Tokens), those of the verbs of the
// phrasal verbs the Brain never writes (unknownPhrasal) as terms no entry holds (counted as
// unknown), unless another word makes them too; terms itself when there is none.
func withoutPhrasalTerms(q *query, terms []string, known map[string]struct{}) []string {
	verbs := unknownPhrasal(q, known)
	if verbs == nil {
		return terms
	}
	drop := map[string]bool{}
	for _, i := range verbs {
		for _, t := range Tokens(q.words[i]) {
			drop[t] = true
		}
	}
	for i, w := range q.words {
		if !slices.Contains(verbs, i) {
			for _, t := range Tokens(w) {
				delete(drop, t)
			}
		}
	}
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if drop[t] {
			t += " phrasal" // a term no entry holds: it still counts in the most a chunk could score
		}
		out = append(out, t)
	}
	return out
}
