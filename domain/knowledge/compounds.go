package knowledge

import "strings"

// compoundWeight is the weight of the feature of two adjacent words of a question written as
// one ("log book" for a page's "logbook", "e bike" for "ebike"), against 1 for a word of its own.
const compoundWeight = 1.0

// compounds returns, for the sentences' query, the stem features of the pairs of adjacent words of a query that the items
// hold written as one word and the query does not (have: the query's features so far); nil when
// none.
func (m *faqMatcher) compounds(q *query, have []feature) []feature {
	words := q.words
	var out []feature
	for i := 0; i+1 < len(words); i++ {
		if stopPart(words[i]) || stopPart(words[i+1]) {
			continue // "the book", "is it": no word of a page is written so
		}
		joined := words[i] + words[i+1]
		key, ok := m.stemKey(joined, foldWord(joined), q.lang)
		if !ok {
			continue
		}
		if _, known := m.feats.get(key); !known {
			continue
		}
		out = addNew(out, have, key)
	}
	return out
}

// addNew appends the feature of key to out (at compoundWeight) unless have or out holds it.
func addNew(out, have []feature, key string) []feature {
	for _, f := range have {
		if f.key == key {
			return out
		}
	}
	for _, f := range out {
		if f.key == key {
			return out
		}
	}
	return append(out, feature{key: key, weight: compoundWeight})
}

// splits returns, for the sentences' query, the stem features of the words of a query written as
// one that the items hold written apart: a word the items do not hold, made of "e" and a word
// they hold ("ebike" for a page's "e-bike", "email" for "e-mail"), or of a word they hold of four
// letters or more and a particle ("tuneup" for "tune-up", "checkin" for "check-in", "dropoff"
// for "drop off", "checkout"). Two words of content are never split apart ("carpet" is no "car"
// and "pet"), nor a word ending as a particle does by chance ("button", "cabin"). nil when none.
func (m *faqMatcher) splits(q *query, have []feature) []feature {
	var out []feature
	for _, w := range q.words {
		if len(w) < 4 || !plainWord(w) {
			continue
		}
		if key, ok := m.stemKey(w, w, q.lang); ok {
			if _, known := m.feats.get(key); known {
				continue
			}
		}
		var parts []string
		if strings.HasPrefix(w, "e") {
			parts = append(parts, w[1:])
		}
		for _, p := range particles {
			if head, ok := strings.CutSuffix(w, p); ok && len(head) >= 4 {
				parts = append(parts, head)
			}
		}
		for _, part := range parts {
			key, ok := m.stemKey(part, part, q.lang)
			if !ok {
				continue
			}
			if _, known := m.feats.get(key); known {
				out = addNew(out, have, key)
			}
		}
	}
	return out
}

// particles end English words written as one that are also written apart.
var particles = [...]string{"up", "in", "out", "off", "down"}

// stopPart reports whether a word is a stop word of two letters or more (a single letter may be
// part of a compound: "e bike").
func stopPart(w string) bool {
	if len(w) < 2 {
		return false
	}
	_, stop := stopwords[w]
	return stop
}
