package knowledge

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
		dup := false
		for _, f := range have {
			dup = dup || f.key == key
		}
		for _, f := range out {
			dup = dup || f.key == key
		}
		if !dup {
			out = append(out, feature{key: key, weight: compoundWeight})
		}
	}
	return out
}

// stopPart reports whether a word is a stop word of two letters or more (a single letter may be
// part of a compound: "e bike").
func stopPart(w string) bool {
	if len(w) < 2 {
		return false
	}
	_, stop := stopwords[w]
	return stop
}
