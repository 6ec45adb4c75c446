package knowledge

import "github.com/svcagent/svc/domain/language"

// query is a customer's question as the matchers read it, parsed once for a search (parse)
// rather than by each of them: its language and its words, with what each matcher reads of
// them.
type query struct {
	text string
	lang string // language.Detect of the text, the Brain's language when too short to tell
	norm string // NormalizeQuestion of the text
	// padded is norm with a space on either side, as askedBy reads it.
	padded string
	words  []string // lower case, accents kept (lowerWords): as the stemmers read them
	folded []string // of each word: accents folded too (foldWord)
	// stems are, of each word, the key of its stem's feature as wordKeys makes it (a stop word's
	// own), or "" for a word that has none (a single letter).
	stems []string
	// story is, of each word, whether it tells the customer's case before the clause that asks
	// (storyWords); read once by story.
	story     []bool
	storyRead bool
	// abroad is, of each word of a question in another language than the Brain's that the Brain
	// does not hold, the Brain's word for its sense it is read as ("" for the others; nil when
	// there is none): abroadRead.
	abroad []string
}

// storyWords returns, of each word, whether it tells the customer's case (storyWords); nil when
// the query is one clause.
func (q *query) storyWords() []bool {
	if !q.storyRead {
		q.story, q.storyRead = storyWords(q.text, len(q.words)), true
	}
	return q.story
}

// parse reads a query in the matcher's language and with its stemmer (the FAQ's and the
// sentences' matchers of an index share both).
func (m *faqMatcher) parse(text string) *query {
	norm := NormalizeQuestion(text)
	q := &query{text: text, lang: language.Detect(text, m.lang), norm: norm, padded: " " + norm + " ", words: lowerWords(text)}
	q.folded = make([]string, len(q.words))
	q.stems = make([]string, len(q.words))
	for i, w := range q.words {
		q.folded[i] = foldWord(w)
		q.stems[i] = m.stemFeature(w, q.folded[i], q.lang)
	}
	return q
}

// stemFeature returns the key of the stem feature of a lower-case word (folded: the same folded)
// in lang, as wordKeys makes it: the word itself for a stop word; "" for a single letter.
func (m *faqMatcher) stemFeature(w, folded, lang string) string {
	if folded == "" || len(folded) == 1 && !isDigit(folded[0]) {
		return ""
	}
	if _, stop := stopwords[folded]; stop {
		return "w" + folded
	}
	return "w" + foldWord(m.stemWord(w, lang))
}

// stemKey returns the key of the stem feature of word i, as the matcher's stemKey does: false for
// a stop word or a single letter.
func (q *query) stemKey(i int) (string, bool) {
	if _, stop := stopwords[q.folded[i]]; stop {
		return "", false
	}
	return q.stems[i], q.stems[i] != ""
}

// phraseKey writes to buf (emptied) the words of a phrase as the thesaurus keys its phrases:
// separated by spaces, with a space on either side.
func phraseKey(buf []byte, words ...string) []byte {
	buf = append(buf[:0], ' ')
	for _, w := range words {
		buf = append(append(buf, w...), ' ')
	}
	return buf
}
