package knowledge

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Kind says what a Hit is.
type Kind string

// The kinds of hits.
const (
	KindChunk Kind = "chunk"
	KindFAQ   Kind = "faq"
)

// Doc is a chunk to index with its vector (nil when there is none).
type Doc struct {
	Chunk  Chunk
	Vector []float32
}

// FAQ is a question and answer to index. Vector should embed the question: it is compared with
// the customer's question to tell a close match.
type FAQ struct {
	ID       string
	Question string
	Answer   string
	Vector   []float32
}

// Hit is a chunk or FAQ item that matches a query, without its vector. Score is the relevance in
// [0, 1] (see Index); BM25 and Cosine are a chunk's parts before fusion (Cosine is 0 without
// vectors, and for an FAQ item that shares no term with the query). Overlap is, for an FAQ
// item, how much its question's terms and the query's overlap (Dice coefficient; 1 for the same
// question). Strong marks an FAQ item whose question matches the query closely enough to answer
// with its answer directly.
type Hit struct {
	Kind  Kind
	Chunk Chunk // when Kind is KindChunk
	// Sentence is, for a chunk of a small Brain, the sentence of its text most like the query
	// (see Index; its title may score the chunk but is not a passage); empty when none is.
	Sentence string
	// Second is, for a chunk of a small Brain, another sentence of its text nearly as like the
	// query that states the kind of fact the question asks too (a price, a time…); empty when
	// none is. A passage shows it after Sentence.
	Second  string
	FAQ     FAQ // when Kind is KindFAQ
	Score   float64
	BM25    float64
	Cosine  float64
	Overlap float64
	Strong  bool
	// Meant is, for an FAQ item, whether its answer was also matched by the meaning of the
	// query's words, by an FAQ of many answers each asked in several ways (with the classifier)
	// in English with word vectors: it may then share no term with the query ("who built you"
	// for "who made you") and still be the answer.
	Meant bool
	// Covers is, for an FAQ item of a small FAQ (no classifier), whether its question and answer
	// hold every content word of the query (neither stop, light nor asking words) and no other
	// item's do: "do you take aetna" is answered by "Which insurance do you accept?", whose
	// answer alone names Aetna. Such an item is among the hits, last if it ranks below them.
	Covers bool
	// Sole is, for an item that Covers, whether no chunk holds the query's content words either:
	// the Brain says it only there ("hay clases por zoom": no page names Zoom).
	Sole bool
	// Unstated is, for an FAQ item of a small FAQ (no classifier), whether the query asks for a
	// price or a duration (its form: "que precio tiene", "quanto tempo demora") that the item's
	// question does not ask and its answer does not state: the item answers another question
	// ("necesito una 4x4 para ir a la nieve, que precio tiene?" and "¿Dan cadenas para la
	// nieve?", whose answer is "Sí, gratis…").
	Unstated bool
	// Other is, for an FAQ item of a small Brain, whether the query and the item name two
	// things of one kind: the item's question and answer hold every content word of the query
	// but one, which no entry holds (nor a synonym of it, nor a word near it: a misspelling, a
	// prefix), and the item's question names a thing of its own that the query does not (a
	// content term after its verb, near none of the query's words). "dais clases de tango?"
	// and "¿Dais clases online?": no page names tango, the item answers about online classes.
	// Or the word no entry holds is the thing the query asks to be there, or a service on
	// (asksThing): "is there a cafe at the pool?" and "Is the pool heated?". Or the query asks
	// the business to offer a thing that the item's question does not name and its answer names
	// only as required of the customer or forbidden (namesRequired): "do you sell bowling shirts"
	// and "Is there a dress code?", "No dress code, but shirts are required…". For a chunk, its
	// sentence names the thing the query asks the business to sell only as included in a service
	// or rented (namesIncluded): "vendéis equipo de buceo?" and "Cuesta 75 € con todo el equipo
	// incluido."; the engine does not answer from it.
	Other bool
	// Bare is, for a small Brain, whether the hit is the Brain's one answer to a query that asks
	// only a price or a least age, naming nothing it is of ("how much is it?", "a partir de que
	// idade?"; Index.bare): its one price list, its one least age. Such a hit is the first.
	Bare bool
	// Plain is, for an FAQ item that Covers the query, whether the query asks no kind of fact by
	// its form (neither a price, a place, a time, a duration, a way to do something nor whether
	// the customer may: "do i have to get the tap myself", "do u do vegan pizza"): a question of
	// yes or no, which the item holding all its words answers as a page's sentence holding them
	// too does not ("Do I need to buy the parts myself?", not "Replacing a tap £95 plus the tap.").
	Plain bool
	// Held is, for a hit of a small Brain (at most SentenceMaxChunks chunks, or no chunk and a
	// small FAQ), the share of the query's content words (neither stop, light nor asking words;
	// a word no entry holds by its synonyms, the thesaurus) that its chunk's title and text, or
	// its item's question and answer, hold; a word neither the Brain nor its synonyms hold
	// counts, held by none. Read for the hits returned only.
	Held float64
	// Measured is whether Held was read: a hit of a small Brain, among the hits returned.
	Measured bool
	// Confidence is, for an FAQ item, how sure it is that its answer is the one asked for, in
	// [0, 1]: its answer's score and its lead over the next answer's (see Index).
	Confidence float64
}

// Ranking parameters.
const (
	// BM25 term-frequency saturation and length normalisation.
	bm25K1 = 1.2
	bm25B  = 0.75
	// lexicalWeight is the share of the lexical score in the fused one when the query has a
	// vector; the cosine has the rest.
	lexicalWeight = 0.5
	// StrongOverlap is the least overlap (Dice coefficient) of the query's and an FAQ question's
	// terms that makes the item a Strong hit: 3 shared terms of 4 in each, or 2 of 2 and 3.
	StrongOverlap = 0.75
	// StrongCosine is the least cosine of the query's and an FAQ item's vectors that makes the
	// item a Strong hit, when the two also share a term.
	StrongCosine = 0.9
)

// brainSample is about how many characters of the Brain tell its language.
const brainSample = 20_000

// DefaultHits is how many hits Search returns when asked for 0.
const DefaultHits = 5

// Index ranks the chunks and FAQ items of one version of an account's knowledge. Build it once
// with NewIndex and share it: Search is safe for concurrent use.
//
// Chunks are ranked by two scores fused by a weighted sum of normalised parts:
//
//   - lexical: BM25 (k1 1.2, b 0.75) over each chunk's title and text, divided by the most any
//     document could score for the query (every query term at saturation), so it lies in [0, 1]
//     and query terms absent from the knowledge lower it.
//   - vector: the cosine of the query's and the chunk's vectors, floored at 0.
//
// A chunk's Score is lexical when the query has no vector (or one of other dimensions than the
// index's), else half lexical and half cosine; chunks without a vector then score only their
// lexical half. Unlike reciprocal rank fusion the score is absolute, so a caller can tell a weak
// best hit from a good one.
//
// FAQ items are ranked by answer (faqMatcher, with its classifier for an FAQ of many answers each
// asked in several ways): items that share an answer give one hit, the item closest to the
// query, whose Score is its answer's score in [0, 1] and whose Confidence weighs that score with
// its lead over the next answer's. A query of stop words only matches no FAQ
// item. An FAQ item is Strong when its question is the query's (normalised), or when its
// answer has the best score and its question's overlap with the query (Dice over Tokens) reaches
// StrongOverlap, or its cosine reaches StrongCosine and they share a term; Strong hits come
// first. Ties are broken by ID, then kind, so the order is deterministic.
type Index struct {
	chunks []Chunk
	chars  int      // of every entry's text (Hit.chars: SearchContext gives a Brain that fits whole)
	faqs   []FAQ    // without vectors
	ids    []string // of each entry: chunks first, then FAQ items
	terms  keyTable
	// idfs is the idf of a term by how many entries hold it (termIDF). The postings of term t
	// are the entries postEntries[postStarts[t]:postStarts[t+1]], in order, with the term's
	// BM25 weight before idf in each (postWeights, alike; postings).
	idfs        []float64
	postStarts  []int32
	postEntries []int32
	postWeights []float32
	// idfUnseen is the idf of a term no entry holds.
	idfUnseen float64
	// stemTerms, of a small Brain (its chunks matched by their sentences) in Portuguese or
	// Spanish, gives the terms of the Brain's words by their stem as the matchers read them
	// (faqMatcher.stemWord): a form of a verb that the terms (Tokens' light stemming, made for
	// English) miss, "aceitam" for the page's "aceitamos" or "compráis" for "compramos", counts
	// in BM25 as the page's word, not as a word no entry holds (stemKnown).
	stemTerms map[string]int32
	// brainWords are the Brain's words stemTerms was made of, sorted, and brainStems their stems.
	brainWords, brainStems []string

	dims int       // of the vectors; 0 when there are none
	vecs []float32 // entry i's unit vector at [i*dims, (i+1)*dims), zeros when it has none

	questions  []string  // normalised question of each FAQ item
	questTerms [][]int32 // sorted distinct terms of each FAQ item's question
	titleTerms [][]int32 // sorted distinct terms of each chunk's title, for coveringFAQ
	facts      []cue     // of each FAQ item: the kinds of fact its question asks or its answer states
	ruled      []bool    // of each FAQ item: whether its answer states a thing required or forbidden (requiredRule)
	faq        *faqMatcher
	sents      *sentenceMatcher // nil for a large Brain
}

// searchBufs holds the searchBufs of every index's searches: a process holds many Brains, each
// searched now and then, and a pool of each would be emptied by the collector more often than
// used.
var searchBufs = sync.Pool{New: func() any { return new(searchBuf) }}

// searchBuf holds what one search works in and drops once its hits are made, kept for the next
// search (searchBufs): a search's garbage sets much of a busy process's heap.
type searchBuf struct {
	bm25 []float64   // one score per entry
	qv   []float32   // the query's unit vector
	raw  []feature   // the query's features (faqMatcher.queryFeatures)
	top  []candidate // the best candidates (topK), emptied
	faq  matchBuf
}

// postings are the entries that hold a term, each with its BM25 term weight before idf, while
// the index is built.
type postings struct {
	entries []int32
	weights []float32
}

// NewIndex indexes chunks and FAQ items; stem stems the words of FAQ questions and of queries
// (nil: none); words gives the vectors of English words that an English FAQ is also matched by
// meaning with (nil: none; see faqMatcher). Vectors are compared only with vectors of the same dimensions as the first one
// given; the others are ignored.
func NewIndex(docs []Doc, faqs []FAQ, stem Stemmer, words WordVectors) *Index {
	n := len(docs) + len(faqs)
	ix := &Index{
		chunks:     make([]Chunk, len(docs)),
		faqs:       make([]FAQ, len(faqs)),
		ids:        make([]string, 0, n),
		questions:  make([]string, len(faqs)),
		questTerms: make([][]int32, len(faqs)),
	}
	// The terms and their postings while the index is built; then ix.terms and ix.postStarts,
	// postEntries and postWeights.
	terms := map[string]int32{}
	var (
		keys  []string // of the terms, by id
		posts []postings
	)
	term := func(t string) int32 { // the id of a term, added when it is new
		id, ok := terms[t]
		if !ok {
			id = int32(len(posts))
			terms[t] = id
			keys = append(keys, t)
			posts = append(posts, postings{})
		}
		return id
	}
	lengths := make([]int, 0, n)
	counts := make(map[int32]int)
	add := func(id string, tokens []string) {
		entry := int32(len(ix.ids))
		ix.ids = append(ix.ids, id)
		lengths = append(lengths, len(tokens))
		clear(counts)
		for _, t := range tokens {
			counts[term(t)]++
		}
		for t, c := range counts {
			p := &posts[t]
			p.entries = append(p.entries, entry)
			p.weights = append(p.weights, float32(c))
		}
	}
	for i, d := range docs {
		ix.chunks[i] = d.Chunk
		add(d.Chunk.ID, Tokens(d.Chunk.Title+"\n"+d.Chunk.Text))
	}
	for i, f := range faqs {
		ix.faqs[i] = FAQ{ID: f.ID, Question: f.Question, Answer: f.Answer}
		add(f.ID, Tokens(f.Question+"\n"+f.Answer))
		ix.questions[i] = NormalizeQuestion(f.Question)
	}
	ix.terms = newKeyTable(keys)
	for i, f := range faqs {
		ix.questTerms[i], _ = ix.lookup(Tokens(f.Question))
	}
	if len(faqs) > 0 && len(docs) <= SentenceMaxChunks {
		ix.titleTerms = make([][]int32, len(docs))
		for i, d := range docs {
			ix.titleTerms[i], _ = ix.lookup(Tokens(d.Chunk.Title))
		}
	}

	total := 0
	for _, l := range lengths {
		total += l
	}
	avg := max(float64(total)/float64(max(n, 1)), 1)
	ix.idfs = make([]float64, n+1)
	for df := range ix.idfs {
		ix.idfs[df] = idf(n, df)
	}
	ix.postStarts = make([]int32, len(posts)+1)
	for t, p := range posts {
		ix.postStarts[t+1] = ix.postStarts[t] + int32(len(p.entries))
	}
	ix.postEntries = make([]int32, 0, ix.postStarts[len(posts)])
	ix.postWeights = make([]float32, 0, ix.postStarts[len(posts)])
	for _, p := range posts {
		// Postings were appended in entry order (map order only shuffles terms within an
		// entry), so they are sorted; turn counts into weights.
		for i, e := range p.entries {
			tf := float64(p.weights[i])
			norm := 1 - bm25B + bm25B*float64(lengths[e])/avg
			ix.postWeights = append(ix.postWeights, float32(tf*(bm25K1+1)/(tf+bm25K1*norm)))
		}
		ix.postEntries = append(ix.postEntries, p.entries...)
	}
	ix.idfUnseen = idf(n, 0)

	var corpus strings.Builder
	for _, f := range faqs {
		corpus.WriteString(f.Question + "\n")
	}
	for _, d := range docs {
		if corpus.Len() > brainSample {
			break
		}
		corpus.WriteString(d.Chunk.Text + "\n")
	}
	ix.faq = newFAQMatcher(faqs, corpus.String(), stem, words)
	ix.facts = make([]cue, len(faqs))
	ix.ruled = make([]bool, len(faqs))
	for i, f := range faqs {
		ix.facts[i] = askedBy(" "+ix.questions[i]+" ", cueWords[ix.faq.lang]) | statedCue(f.Answer)
		ix.ruled[i] = requiredRule.MatchString(NormalizeQuestion(f.Answer))
	}
	ix.sents = newSentenceMatcher(ix.chunks, corpus.String(), stem)
	if ix.sents != nil && stem != nil && ix.faq.lang != "en" {
		ix.indexStems(docs, faqs)
	}
	if ix.sents != nil {
		texts := slices.Clone(ix.sents.text)
		for _, f := range faqs {
			texts = append(texts, f.Question, f.Answer)
		}
		ix.sents.phrasal = ix.sents.m.phrasalVerbs(texts)
	}
	ix.indexVectors(docs, faqs)
	for _, c := range ix.chunks {
		ix.chars += Hit{Kind: KindChunk, Chunk: c}.chars()
	}
	for _, f := range ix.faqs {
		ix.chars += Hit{Kind: KindFAQ, FAQ: f}.chars()
	}
	return ix
}

// idf is BM25's inverse document frequency of a term held by df of n entries, never negative.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n-df)+0.5)/(float64(df)+0.5))
}

// termIDF returns the idf of term t: idf of the entries that hold it.
func (ix *Index) termIDF(t int32) float64 { return ix.idfs[ix.postStarts[t+1]-ix.postStarts[t]] }

// postings returns the entries that hold term t, in order, and its BM25 weight before idf in
// each.
func (ix *Index) postings(t int32) ([]int32, []float32) {
	start, end := ix.postStarts[t], ix.postStarts[t+1]
	return ix.postEntries[start:end], ix.postWeights[start:end]
}

// lookup returns the sorted distinct ids of the tokens the index knows and how many distinct
// tokens it does not know.
func (ix *Index) lookup(tokens []string) (known []int32, unknown int) {
	seen := make(map[string]struct{}, len(tokens))
	for _, t := range tokens {
		if _, dup := seen[t]; dup {
			continue
		}
		seen[t] = struct{}{}
		if id, ok := ix.terms.get(t); ok {
			known = append(known, id)
		} else {
			unknown++
		}
	}
	slices.Sort(known)
	return known, unknown
}

// indexStems fills stemTerms, brainWords and brainStems with the words of docs and faqs. A stem
// names no term (-1) when the words it stems are of two terms.
func (ix *Index) indexStems(docs []Doc, faqs []FAQ) {
	ix.stemTerms = map[string]int32{}
	stems := map[string]string{} // of each word of the Brain
	stemOf := func(text string) {
		eachWord(text, func(w []byte) {
			if len(w) < 3 {
				return
			}
			if _, stop := stopwords[string(w)]; stop {
				return
			}
			if _, seen := stems[string(w)]; seen {
				return
			}
			id, ok := ix.terms.get(stem(string(w)))
			if !ok {
				return
			}
			st := ix.faq.stemWord(string(w), ix.faq.lang)
			stems[string(w)] = st
			if had, seen := ix.stemTerms[st]; !seen {
				ix.stemTerms[st] = id
			} else if had != id {
				ix.stemTerms[st] = -1
			}
		})
	}
	for _, d := range docs {
		stemOf(d.Chunk.Title + "\n" + d.Chunk.Text)
	}
	for _, f := range faqs {
		stemOf(f.Question + "\n" + f.Answer)
	}
	ix.brainWords = slices.Sorted(maps.Keys(stems))
	ix.brainStems = make([]string, len(ix.brainWords))
	for i, w := range ix.brainWords {
		ix.brainStems[i] = stems[w]
	}
}

// nearest reports whether, of the Brain's words that begin with st, one of stem st shares a
// longer beginning with the question's word f than any of another stem: "compráis" is nearer
// "compramos" than "comprobante", but "pagar" is as near "pagamento" as "pagam".
func (ix *Index) nearest(f, st string) bool {
	same, other := 0, 0
	for i, _ := slices.BinarySearch(ix.brainWords, st); i < len(ix.brainWords) && strings.HasPrefix(ix.brainWords[i], st); i++ {
		n := commonPrefix(f, ix.brainWords[i])
		if ix.brainStems[i] == st {
			same = max(same, n)
		} else {
			other = max(other, n)
		}
	}
	return same > other
}

// commonPrefix returns the length of the bytes a and b begin with alike.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// stemSuffix is the most letters a question's word may have after its stem to be read by it
// (stemKnown): an inflection ("aceitam", "compráis"), not a derived noun ("estacionamiento" is
// no "estación").
const stemSuffix = 4

// stemKnown returns known and unknown (lookup's) with the content words of q that no term holds
// but whose stem names one (stemTerms) and that are nearer a word of that stem than any of
// another (nearest: "pagar" may mean "pagamento" as well as "pagam", "montáis" "montaje" as well
// as "montar") among the known: the BM25 of "aceitam pix?" counts the
// page's "aceitamos", not a word no entry holds that lowers every entry's score alike.
func (ix *Index) stemKnown(q *query, known []int32, unknown int) ([]int32, int) {
	for _, f := range q.folded {
		if unknown == 0 {
			break
		}
		if len(f) < 3 || !contentWord(f, q.lang) {
			continue
		}
		if _, ok := ix.terms.get(stem(f)); ok {
			continue
		}
		st := ix.faq.stemWord(f, q.lang)
		id, ok := ix.stemTerms[st]
		if !ok || id < 0 || len(f) > len(st)+stemSuffix || !ix.nearest(f, st) {
			continue
		}
		if at, found := slices.BinarySearch(known, id); !found {
			known = slices.Insert(known, at, id)
			unknown--
		}
	}
	return known, unknown
}

// indexVectors copies the entries' vectors of the first vector's dimensions, scaled to unit
// length, into one slice.
func (ix *Index) indexVectors(docs []Doc, faqs []FAQ) {
	n := len(docs) + len(faqs)
	vector := func(i int) []float32 {
		if i < len(docs) {
			return docs[i].Vector
		}
		return faqs[i-len(docs)].Vector
	}
	for i := range n {
		if v := vector(i); len(v) > 0 {
			ix.dims = len(v)
			break
		}
	}
	if ix.dims == 0 {
		return
	}
	ix.vecs = make([]float32, n*ix.dims)
	for i := range n {
		v := vector(i)
		if len(v) != ix.dims {
			continue
		}
		if norm := math.Sqrt(float64(dot(v, v))); norm > 0 {
			dst := ix.vecs[i*ix.dims : (i+1)*ix.dims]
			for j, x := range v {
				dst[j] = float32(float64(x) / norm)
			}
		}
	}
}

// candidate is an entry being ranked.
type candidate struct {
	entry        int32
	score        float64
	bm25, cosine float64
	overlap      float64
	strong       bool
	covers, sole bool
	unstated     bool
	plain        bool
	meant        bool
	confidence   float64
	sentence     int32   // of a chunk: its best sentence in ix.sents, or -1
	second       int32   // of a chunk: a second sentence in ix.sents, or -1 (Hit.Second)
	sentHeld     float64 // of a chunk: the share of the query's content words its best sentence holds
}

// Search returns the k best hits for a query, best first; k 0 means DefaultHits. queryVec is the
// query's vector from the embedder that made the index's vectors, or nil. Entries that score 0
// are left out.
func (ix *Index) Search(query string, queryVec []float32, k int) []Hit {
	hits, _ := ix.search(query, queryVec, k, 0)
	return hits
}

// ContextChars is about how many characters of the Brain a model upstream is given for a message
// (SearchContext): some 1,500 tokens, at the low end of what retrieval for a model usually gives,
// and the whole of a small Brain (a few pages and FAQ items) most often.
const ContextChars = 6000

// ContextMax bounds how many passages SearchContext gives, whatever their length (an FAQ of many
// short items).
const ContextMax = 20

// SearchContext is Search, and the passages a model upstream is given for the query: the k hits,
// then the entries ranked after them, best first, each if its text (a chunk's title and text, an
// item's question and answer) fits in what is left of budget characters (0: ContextChars), at
// most ContextMax in all. The hits are Search's whatever the budget; they may fill it alone. The
// passages after the hits have no Held. A Brain whose every entry fits in budget and ContextMax
// is given whole, the entries no ranking holds (they score 0) last. A negative budget gives the
// hits only, as Search, and no context (nil): for a replier that reads only the hits.
func (ix *Index) SearchContext(query string, queryVec []float32, k, budget int) (hits, context []Hit) {
	switch {
	case budget < 0:
		return ix.Search(query, queryVec, k), nil
	case budget == 0:
		budget = ContextChars
	}
	whole := ix.chars <= budget && len(ix.ids) <= ContextMax
	hits, all := ix.search(query, queryVec, k, max(ContextMax-max(k, 0), 0))
	for _, h := range hits {
		budget -= h.chars()
	}
	// all holds the hits, then the entries after them: those that fit are moved up in place.
	context = all[:len(hits)]
	for _, h := range all[len(hits):] {
		if len(context) == ContextMax {
			break
		}
		if n := h.chars(); n <= budget {
			context = append(context, h)
			budget -= n
		}
	}
	if whole && len(context) < len(ix.ids) {
		context = ix.rest(context) // a Brain that fits is given whole, what matched nothing last
	}
	return hits, context
}

// rest appends to passages the entries of the index they do not hold, chunks then FAQ items, in
// the order they were indexed.
func (ix *Index) rest(passages []Hit) []Hit {
	given := len(passages) // at most ContextMax: compared one by one
	for _, c := range ix.chunks {
		if !slices.ContainsFunc(passages[:given], func(h Hit) bool { return h.Kind == KindChunk && h.Chunk.ID == c.ID }) {
			passages = append(passages, Hit{Kind: KindChunk, Chunk: c})
		}
	}
	for _, f := range ix.faqs {
		if !slices.ContainsFunc(passages[:given], func(h Hit) bool { return h.Kind == KindFAQ && h.FAQ.ID == f.ID }) {
			passages = append(passages, Hit{Kind: KindFAQ, FAQ: f})
		}
	}
	return passages
}

// chars is how many characters of text a hit gives a model: its chunk's title and text, or its
// item's question and answer.
func (h Hit) chars() int {
	if h.Kind == KindFAQ {
		return utf8.RuneCountInString(h.FAQ.Question) + utf8.RuneCountInString(h.FAQ.Answer)
	}
	return utf8.RuneCountInString(h.Chunk.Title) + utf8.RuneCountInString(h.Chunk.Text)
}

// search returns Search's k hits, and them followed by up to more entries ranked after them, best
// first (all; hits is its beginning, of its length as capacity).
func (ix *Index) search(query string, queryVec []float32, k, more int) (hits, all []Hit) {
	if k <= 0 {
		k = DefaultHits
	}
	n := len(ix.ids)
	if n == 0 {
		return nil, nil
	}
	q := ix.faq.parse(query)
	if bought, ok := withBuying(q); ok {
		query, q = bought, ix.faq.parse(bought) // the customer sells: what the business buys
	}
	terms := Tokens(query)
	if ix.sents != nil {
		terms = withoutPhrasalTerms(q, terms, ix.sents.phrasal)
	}
	known, unknown := ix.lookup(terms)
	if unknown > 0 && ix.stemTerms != nil && q.lang == ix.faq.lang {
		known, unknown = ix.stemKnown(q, known, unknown)
	}
	if ix.abroadRead(q) && unknown > 0 {
		known, unknown = ix.abroadKnown(q, known, unknown)
	}

	// BM25 of every entry, and the most any entry could score.
	buf := searchBufs.Get().(*searchBuf)
	defer searchBufs.Put(buf)
	buf.bm25 = zeroed(buf.bm25, n)
	bm25 := buf.bm25
	best := float64(unknown) * ix.idfUnseen * (bm25K1 + 1)
	for _, t := range known {
		idf := ix.termIDF(t)
		best += idf * (bm25K1 + 1)
		entries, weights := ix.postings(t)
		for i, e := range entries {
			bm25[e] += idf * float64(weights[i])
		}
	}

	var qv []float32
	if ix.dims > 0 && len(queryVec) == ix.dims {
		if norm := math.Sqrt(float64(dot(queryVec, queryVec))); norm > 0 {
			buf.qv = slices.Grow(buf.qv[:0], ix.dims)[:ix.dims]
			qv = buf.qv
			for i, x := range queryVec {
				qv[i] = float32(float64(x) / norm)
			}
		}
	}

	var (
		sent, held    []float64
		which, second []int32
	)
	var raw []feature // the query's features for the FAQ's and the sentences' matchers
	if len(ix.faqs) > 0 || ix.sents != nil {
		raw = ix.faq.queryFeatures(buf.raw[:0], q)
		if raw != nil {
			buf.raw = raw
		}
	}
	if ix.sents != nil {
		sent, which, second, held = ix.sents.best(q, raw, len(ix.chunks))
	}
	// topK keeps as many candidates as its capacity: the buffer's is cut to k+more.
	buf.top = slices.Grow(buf.top[:0], k+more)
	top := topK(buf.top[: 0 : k+more])
	for e := range len(ix.chunks) {
		c := candidate{entry: int32(e), bm25: bm25[e], sentence: -1, second: -1}
		if best > 0 {
			c.score = c.bm25 / best
		}
		if qv != nil {
			c.cosine = float64(dot(qv, ix.vecs[e*ix.dims:(e+1)*ix.dims]))
			c.score = lexicalWeight*c.score + (1-lexicalWeight)*max(c.cosine, 0)
		}
		if ix.sents != nil {
			s := 0.0
			if sent != nil {
				s, c.sentence, c.second = sent[e], which[e], second[e]
			}
			if held != nil {
				c.sentHeld = held[e]
			}
			c.score = (1-sentenceWeight)*c.score + sentenceWeight*s
		}
		if c.score > 0 {
			top.push(c, ix.better)
		}
	}
	// The query's content words, in a small Brain (its chunks matched by their sentences, or no
	// chunk and an FAQ without the classifier), for Hit.Held and Hit.Covers.
	var content [][]int32
	contentUnknown := 0
	small := ix.sents != nil || ix.faq.cls == nil && ix.titleTerms != nil
	var strange [][2]int
	if small {
		content, strange = ix.contentWords(q)
		contentUnknown = len(strange)
	}
	cover := candidate{entry: -1}
	for _, c := range ix.matchFAQ(q, raw, known, unknown, qv, bm25, content, contentUnknown, &buf.faq) {
		top.push(c, ix.better)
		if c.covers {
			cover = c
		}
	}

	slices.SortFunc(top, func(a, b candidate) int {
		if ix.better(a, b) {
			return -1
		}
		return 1
	})
	// The hits are the k best (the candidates after them do not change them), the entries after
	// them the rest of top.
	var rest topK
	if len(top) > k {
		top, rest = top[:k], slices.Clone(top[k:])
	}
	nearTie(top, len(ix.chunks))
	if small && ix.sents != nil {
		ix.heldTie(top, content, contentUnknown)
	}
	if cover.entry >= 0 && len(top) == k && !slices.ContainsFunc(top, func(c candidate) bool { return c.entry == cover.entry }) {
		rest = slices.DeleteFunc(rest, func(c candidate) bool { return c.entry == cover.entry })
		if more > 0 {
			rest = slices.Insert(rest, 0, top[k-1])
		}
		top[k-1] = cover // the item that holds the question's words is among the hits (Hit.Covers)
	}
	if len(top) == 0 {
		if !small {
			return nil, nil
		}
		if h, ok := ix.bare(q); ok {
			return []Hit{h}, []Hit{h}
		}
		return nil, nil
	}
	// Held is read by the engine, of the hits only: the entries after them go without it.
	all = make([]Hit, 0, max(len(top)+len(rest), k+more)) // k+more: room for a Brain given whole (SearchContext)
	all = ix.hits(all, top, content, contentUnknown, small)
	hits = all[:len(top):len(top)]
	if small {
		ix.namesOther(hits, top, q, content, strange)
		ix.namesRequired(hits, top, q)
		namesIncluded(hits, q)
		chunkFirst(hits)
		if h, ok := ix.bare(q); ok {
			hits = barest(hits, h)
		}
	}
	return hits, ix.hits(all, rest, nil, 0, false)
}

// hits appends to dst the hits of candidates (content, contentUnknown and small as search reads
// them; small false: without Held).
func (ix *Index) hits(dst []Hit, top topK, content [][]int32, contentUnknown int, small bool) []Hit {
	for _, c := range top {
		h := Hit{Score: c.score, BM25: c.bm25, Cosine: c.cosine, Overlap: c.overlap, Strong: c.strong, Meant: c.meant, Covers: c.covers, Sole: c.sole, Unstated: c.unstated, Plain: c.plain, Confidence: c.confidence}
		if e := int(c.entry); e < len(ix.chunks) {
			h.Kind, h.Chunk = KindChunk, ix.chunks[e]
			if c.sentence >= 0 {
				h.Sentence = ix.sents.text[c.sentence]
			}
			if c.second >= 0 {
				h.Second = ix.sents.text[c.second]
			}
		} else {
			h.Kind, h.FAQ = KindFAQ, ix.faqs[e-len(ix.chunks)]
		}
		if small {
			h.Held, h.Measured = ix.held(c.entry, content, contentUnknown), true
		}
		dst = append(dst, h)
	}
	return dst
}

// matchFAQ returns the candidates of the FAQ items, in their order, one item for each answer:
// the Strong one if any, else the most similar, unless it scores 0 and is not Strong. Its score
// is its answer's (faqMatcher), its BM25 that of its question and answer; Overlap and Strong are
// as Index says. The candidates are b's.
func (ix *Index) matchFAQ(q *query, raw []feature, known []int32, unknown int, qv []float32, bm25 []float64, words [][]int32, unknownWords int, b *matchBuf) []candidate {
	if len(ix.faqs) == 0 {
		return nil
	}
	sim, scores, meant := ix.faq.match(q, raw, b)
	cover, sole := -1, false
	var asked cue
	plain := false
	small := ix.faq.cls == nil && ix.titleTerms != nil
	if small {
		cover, sole = ix.coveringFAQ(words, unknownWords)
		asked, plain = q.factAsked(), q.cues() == 0
	}
	first, second := -1.0, -1.0 // the two best answers' scores
	for _, s := range scores {
		switch {
		case s > first:
			first, second = s, first
		case s > second:
			second = s
		}
	}
	b.rep = zeroed(b.rep, len(scores))
	rep := b.rep // the item that stands for each answer
	for g := range rep {
		rep[g].entry = -1
	}
	for f := range ix.faqs {
		e := len(ix.chunks) + f
		g := ix.faq.answer[f]
		c := candidate{entry: int32(e), bm25: bm25[e]}
		if c.bm25 > 0 { // else it holds no term of the query (each adds a positive BM25)
			c.overlap = dice(known, unknown, ix.questTerms[f])
		}
		same := q.norm != "" && q.norm == ix.questions[f]
		if same {
			c.overlap = 1
		}
		if qv != nil && c.overlap > 0 { // the cosine matters only to tell a Strong hit
			c.cosine = float64(dot(qv, ix.vecs[e*ix.dims:(e+1)*ix.dims]))
		}
		c.score, c.meant = scores[g], meant && ix.faq.cls != nil
		// Terms are words without stop words, so "what is my name" has all the terms of "what
		// is your name": an item close by its terms is Strong only when its answer is also the
		// best by score (which reads the stop words), or when it is the same question.
		c.strong = same || scores[g] == first && (c.overlap >= StrongOverlap || (c.overlap > 0 && c.cosine >= StrongCosine))
		c.covers = f == cover
		c.sole = c.covers && sole
		c.unstated = asked != 0 && asked&ix.facts[f] == 0
		c.plain = c.covers && plain
		if r := rep[g]; r.entry < 0 || c.strong && !r.strong || c.strong == r.strong && sim[f] > sim[int(r.entry)-len(ix.chunks)] {
			rep[g] = c
		}
	}
	out := rep[:0]
	for _, c := range rep {
		if c.entry >= 0 && (c.score > 0 || c.strong || c.covers) {
			other := first // the confidence is its answer's, the same for each of its items
			if c.score == first {
				other = second
			}
			c.confidence = ix.faq.confidence(c.score, other, meant)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b candidate) int { return int(a.entry) - int(b.entry) })
	return out
}

// coveringFAQ returns the one FAQ item whose question and answer hold every content word of the
// query (contentWord; by the index's terms, Tokens' stems; a word no entry holds by a content
// word of its synonyms, the thesaurus), or -1 when the query has none, or no item or more than
// one holds them all, or a page's title holds them all; and whether no chunk holds them all.
func (ix *Index) coveringFAQ(words [][]int32, unknown int) (int, bool) {
	if len(words) == 0 || unknown > 0 {
		return -1, false
	}
	found := -1
	for f := range ix.faqs {
		e := int32(len(ix.chunks) + f)
		if slices.ContainsFunc(words, func(ids []int32) bool { return !ix.holds(e, ids) }) {
			continue
		}
		if found >= 0 {
			return -1, false
		}
		found = f
	}
	if found < 0 {
		return -1, false
	}
	sole := true
	for c := range ix.chunks {
		if !slices.ContainsFunc(words, func(ids []int32) bool { return !ix.holds(int32(c), ids) }) {
			sole = false
			break
		}
	}
	// A page whose title holds them is about what the question asks ("Returns and exchanges"
	// for "how do i return something"), more than an answer naming it in passing.
	for _, title := range ix.titleTerms {
		if !slices.ContainsFunc(words, func(ids []int32) bool {
			return !slices.ContainsFunc(ids, func(id int32) bool { return slices.Contains(title, id) })
		}) {
			return -1, false
		}
	}
	return found, sole
}

// holds reports whether entry e holds one of the terms ids.
func (ix *Index) holds(e int32, ids []int32) bool {
	for _, id := range ids {
		if entries, _ := ix.postings(id); binaryHas(entries, e) {
			return true
		}
	}
	return false
}

// held returns the share of the query's content words (contentTerms: words, and unknown that no
// entry holds) that entry e holds.
func (ix *Index) held(e int32, words [][]int32, unknown int) float64 {
	if len(words)+unknown == 0 {
		return 0
	}
	n := 0
	for _, ids := range words {
		if ix.holds(e, ids) {
			n++
		}
	}
	return float64(n) / float64(len(words)+unknown)
}

// contentTerms returns, of each content word of the query (contentWord), its index's term, else
// the terms of the content words of its synonyms (the thesaurus, of its own groups and of the
// thesaurus's phrases of the query that hold it: "pay monthly"); and how many content words have
// neither, adjacent ones counting as one (a run of them names one thing: "shih tzu").
func (ix *Index) contentTerms(q *query) (words [][]int32, unknown int) {
	words, strange := ix.contentWords(q)
	return words, len(strange)
}

// contentWords returns contentTerms' words, and the first and last place in the query's words
// (q.folded) of each run of content words that have neither a term nor a synonym's (contentTerms'
// unknown).
func (ix *Index) contentWords(q *query) (words [][]int32, strange [][2]int) {
	lang := q.lang
	syn := thesauri[lang]
	phrases := phraseGroups(syn, q.folded)
	last := -2 // the last word in no entry: none yet
	for i, f := range q.folded {
		if !contentWord(f, lang) {
			continue
		}
		st := stem(f)
		if id, ok := ix.terms.get(st); ok {
			words = append(words, []int32{id})
			continue
		}
		var ids []int32
		if syn != nil {
			ids = ix.synonymTerms(syn, syn.words[st], lang, nil)
			if phrases != nil {
				for _, p := range phrases[i] { // "monthly" of "pay monthly"
					ids = ix.synonymTerms(syn, []int32{p.group}, lang, ids)
				}
			}
		}
		if len(ids) == 0 {
			if last != i-1 {
				strange = append(strange, [2]int{i, i}) // a run of such words names one thing ("shih tzu")
			}
			last, strange[len(strange)-1][1] = i, i
			continue
		}
		words = append(words, ids)
	}
	return words, strange
}

// binaryHas reports whether sorted entries hold e.
func binaryHas(entries []int32, e int32) bool {
	_, ok := slices.BinarySearch(entries, e)
	return ok
}

// synonymTerms appends to ids the index's terms of the content words of the members of groups
// gs of the thesaurus syn of lang, each once.
func (ix *Index) synonymTerms(syn *synonyms, gs []int32, lang string, ids []int32) []int32 {
	for _, g := range gs {
		for _, member := range syn.groups[g] {
			for _, sw := range strings.Fields(member) {
				folded := foldWord(sw)
				if !contentWord(folded, lang) {
					continue
				}
				if id, ok := ix.terms.get(stem(folded)); ok && !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}

// better reports whether a ranks before b: Strong first, then by score, then by ID and kind.
func (ix *Index) better(a, b candidate) bool {
	if a.strong != b.strong {
		return a.strong
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if c := strings.Compare(ix.ids[a.entry], ix.ids[b.entry]); c != 0 {
		return c < 0
	}
	return a.entry < b.entry // chunks before FAQ items
}

// dice is the overlap of a query's terms (known ids and a count of unknown ones) and a
// question's: twice the shared terms over the terms of both.
func dice(query []int32, unknown int, question []int32) float64 {
	shared, i, j := 0, 0, 0
	for i < len(query) && j < len(question) {
		switch {
		case query[i] < question[j]:
			i++
		case query[i] > question[j]:
			j++
		default:
			shared++
			i++
			j++
		}
	}
	all := len(query) + unknown + len(question)
	if all == 0 {
		return 0
	}
	return 2 * float64(shared) / float64(all)
}

// topK keeps the best candidates seen, as a heap with the worst at the root.
type topK []candidate

func (h *topK) push(c candidate, better func(a, b candidate) bool) {
	s := *h
	if len(s) < cap(s) {
		s = append(s, c)
		for i := len(s) - 1; i > 0; { // sift up
			parent := (i - 1) / 2
			if !better(s[parent], s[i]) {
				break
			}
			s[parent], s[i] = s[i], s[parent]
			i = parent
		}
		*h = s
		return
	}
	if !better(c, s[0]) {
		return
	}
	s[0] = c
	for i := 0; ; { // sift down
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(s) && better(s[worst], s[l]) {
			worst = l
		}
		if r < len(s) && better(s[worst], s[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		s[i], s[worst] = s[worst], s[i]
		i = worst
	}
}

// dot is the dot product of two vectors of the same length.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// heldMargin is how near the best chunk's score a second chunk must come for the share of the
// query's content words each holds to order them (heldTie).
const heldMargin = 0.10

// heldTie puts first, of the two best chunks of a small Brain (whatever FAQ items rank between)
// within heldMargin of each other, the one whose title and text hold more of the query's content
// words (words, unknown: as Hit.Held reads them), when its best sentence holds as many of them
// as the other's (nearTie's measure): "failed my test today :( what now" and the driving test's
// "If you don't pass, don't panic: you can book another test after a few days." (0.164, holding
// "failed" by its synonyms) rather than "Our Test Day Package costs $250." (0.170, whose chunk
// does not). Scores a tenth apart say no more than a word weighed differently; the chunk that
// holds more of what was asked is the one a reader, or a model upstream, should see first.
func (ix *Index) heldTie(top topK, words [][]int32, unknown int) {
	i, j := twoChunks(top, int32(len(ix.chunks)))
	if j < 0 {
		return
	}
	a, b := top[i], top[j]
	if b.score >= (1-heldMargin)*a.score && ix.held(b.entry, words, unknown) > ix.held(a.entry, words, unknown) && b.sentHeld >= a.sentHeld {
		top[i], top[j] = b, a
	}
}

// twoChunks returns the places in top of its first two chunks (entries under chunks), -1 for
// each missing.
func twoChunks(top topK, chunks int32) (i, j int) {
	i, j = -1, -1
	for k, c := range top {
		if c.entry >= chunks {
			continue
		}
		if i >= 0 {
			return i, k
		}
		i = k
	}
	return i, j
}

// tieMargin is how near the best chunk's score a second chunk must come for the two to be tied
// (nearTie).
const tieMargin = 0.03

// nearTie puts first, of the two best chunks of a small Brain (whatever FAQ items rank between)
// when they are nearly tied (tieMargin), the one whose best sentence holds more of the query's
// content words: their scores say no more than a word or two weighed differently ("qto custa o
// banho de um shih tzu pequeno": the hotel's "A diária custa R$ 90 para cães pequenos" and the
// bath's "Banho para cães de porte pequeno: R$ 55"), and the sentence answered from is the one
// that holds what the customer asked about.
func nearTie(top topK, chunks int) {
	i, j := twoChunks(top, int32(chunks))
	if j < 0 {
		return
	}
	a, b := top[i], top[j]
	if b.score >= (1-tieMargin)*a.score && b.sentHeld > a.sentHeld {
		top[i], top[j] = b, a
	}
}

// chunkFirst puts first, of the hits of a small Brain, the best chunk when an FAQ item ranks
// first that is neither Strong nor covers the question (Hit.Covers) and holds fewer of the
// question's content words than the chunk's title and text (Hit.Held): an item's score and a
// chunk's are of two scales, and the item that shares a word ("¿Mi mascota tiene que ir en
// ayunas a la operación?" for "se puede pagar a plazos la operacion") says less of what was
// asked than the passage that holds more of it ("Para cirugías … se puede pagar en tres meses
// sin intereses."). The others keep their
// order after it. The built-in engine weighs items and chunks apart; a model upstream reads the
// first hit first.
func chunkFirst(hits []Hit) {
	if len(hits) < 2 || hits[0].Kind != KindFAQ || hits[0].Strong || hits[0].Covers {
		return
	}
	j := slices.IndexFunc(hits, func(h Hit) bool { return h.Kind == KindChunk })
	if j <= 0 || hits[j].Held <= hits[0].Held {
		return
	}
	c := hits[j]
	copy(hits[1:j+1], hits[:j])
	hits[0] = c
}
