package knowledge

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/svcagent/svc/domain/language"
)

// Parameters of the FAQ matcher (see faqMatcher), tuned on an intent set (docs in
// testdata/eval/README.md): each was kept because the measured figures improved.
const (
	// faqWordWeight is the share of the cosine of the word stems in an FAQ item's similarity; the
	// cosine of character n-grams has the rest.
	faqWordWeight = 0.5
	// faqGramMin and faqGramMax bound the character n-grams of a word (marked at its ends).
	faqGramMin, faqGramMax = 3, 5
	// faqBestWeight is the share of the best item's similarity in an answer's score; the cosine
	// with the centroid of all the items that share the answer has the rest.
	faqBestWeight = 0.3
	// faqMarginWeight weighs an answer's lead over the next one in its confidence.
	faqMarginWeight = 3
)

// faqMatcher scores the answers of the FAQ items for a question. It compares the question with
// each item's question by two TF-IDF cosines: one of the words' Snowball stems in the text's
// language (en, pt, es), which meets inflections ("cancelled", "cancel"), and one of the words'
// character 3- to 5-grams, which meets misspellings ("tranfser", "transfer"). A feature weighs 1
// plus the log of its count, times its idf over the FAQ questions; each kind is a unit vector of
// its own, and the two cosines are averaged. Stop words (en, pt, es) are kept unstemmed, since
// in short questions "how", "when" and "my" tell intents apart, but a question made only of them
// matches nothing; single letters are dropped.
//
// Items with the same answer (trimmed) are one answer: its score mixes the best item's
// similarity (faqBestWeight) with the cosine of the question and the centroid of the answer's
// items, so that an answer asked in many ways is found by the words of any of them. For an FAQ of
// many answers each asked in several ways, half the score is the probability of the answer by a
// classifier trained on the items' questions (classifier). For an FAQ in English, with word
// vectors given, the meaning of the words counts too (denseSpace: "make me laugh" near "tell me
// a joke"); other languages are matched as before.
type faqMatcher struct {
	lang string // the Brain's language: that of texts too short to tell
	stem Stemmer
	// stopWeight scales the features of stop words (1: as others, 0: none).
	stopWeight float64
	// words holds the feature keys of each word (wordKeys) and buf the buffers of textFeatures
	// while the matcher is built; nil after.
	words map[string][]string
	buf   *featureBuf
	feats keyTable
	// idfs is the idf of a feature by how many items hold it (idf); the postings of feature id
	// are posts[starts[id]:starts[id+1]] (postings), in the order of the items.
	idfs   []float64
	starts []int32
	posts  []faqPosting
	// answer is the answer of each item; norm is the length of the sum of each answer's items'
	// vectors.
	answer []int32
	norm   []float64
	// cls learns which words tell the answers apart; nil for an FAQ of few answers.
	cls *classifier
	// dense compares the meaning of English questions (nil without word vectors or for a Brain
	// in another language); vecs are the items' unit vectors in it (items × dims, zeros for an
	// item without), centroids the unit vector of the sum of each answer's (answers × dims), and
	// members the items of each answer.
	dense     *denseSpace
	vecs      []float32
	centroids []float32
	members   [][]int32
	// synonyms caches the keys of the stems of each thesaurus group's members that some item
	// holds (expand), by language and group.
	synonyms sync.Map
}

// matchBuf holds what a query's match with the items works in (match, Index.matchFAQ): its
// similarities and scores, which the caller reads until it has made its candidates, and the
// candidates themselves, which it copies. A search keeps one for the next (searchBuf); a nil
// one is a new one.
type matchBuf struct {
	sim, scores, sums []float64 // of each item, of each answer (aggregate)
	dsim, dscores     []float64 // by the vectors of meaning (meaning)
	order             []int     // of the answers (meaning)
	qv                []float32 // the query's vector of meaning (denseQuery)
	rows              []int32   // the classifier's input (classifier.input)
	x, probs          []float64
	rep               []candidate // of each answer (Index.matchFAQ)
}

// zeroed returns s of n elements, all zero, grown when it holds fewer.
func zeroed[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}

// featureBufs holds the featureBufs of the queries of every matcher (those of a matcher being
// built are its own): a process holds many Brains, each searched now and then, and a pool of each
// would be emptied by the collector more often than used.
var featureBufs = sync.Pool{New: func() any { return &featureBuf{seen: map[string]int{}} }}

// featureBuf holds what count counts a text's features in, and what a query's are compared in
// (similarity, sentenceMatcher.best): each use empties what it reads first.
type featureBuf struct {
	seen   map[string]int // the index of each feature in order
	order  []string       // the features in the order they first appear
	counts []int
	stops  []bool // whether only stop words give the feature
	// weights and ids are similarity's; own, all and sim sentenceMatcher.best's.
	weights  []float64
	ids      []int32
	own, all []feature
	sim      []float64
}

type faqPosting struct {
	item   int32
	weight float32 // of the feature in the item's vector
}

// feature is a feature of a text with its weight before idf.
type feature struct {
	key    string
	weight float64
	gram   bool
	stop   bool // only stop words give it
}

// newFAQMatcher indexes the FAQ items' questions; corpus is text of the Brain to tell its
// language by; stem may be nil (words are then matched as they are).
func newFAQMatcher(faqs []FAQ, corpus string, stem Stemmer, wv WordVectors) *faqMatcher {
	return newMatcher(faqs, corpus, stem, wv, 1)
}

// newMatcher is newFAQMatcher with the stop words' features weighing stopWeight.
func newMatcher(faqs []FAQ, corpus string, stem Stemmer, wv WordVectors, stopWeight float64) *faqMatcher {
	m := &faqMatcher{lang: language.Detect(corpus, language.English), stem: stem, stopWeight: stopWeight, answer: make([]int32, len(faqs)),
		words: map[string][]string{}, buf: &featureBuf{seen: map[string]int{}}}
	answers := map[string]int32{}
	feats := map[string]int32{} // while the matcher is built; then m.feats
	var keys []string           // of the features, by id
	docs := make([][]feature, len(faqs))
	ids := make([][]int32, len(faqs)) // of each item's features
	var df []int
	for i, f := range faqs {
		a := strings.TrimSpace(f.Answer)
		g, ok := answers[a]
		if !ok {
			g = int32(len(answers))
			answers[a] = g
		}
		m.answer[i] = g
		docs[i] = m.features(f.Question)
		ids[i] = make([]int32, len(docs[i]))
		for j, ft := range docs[i] {
			id, ok := feats[ft.key]
			if !ok {
				id = int32(len(df))
				feats[ft.key] = id
				keys = append(keys, ft.key)
				df = append(df, 0)
			}
			df[id]++
			ids[i][j] = id
		}
	}
	m.feats = newKeyTable(keys)
	n := float64(len(faqs))
	m.idfs = make([]float64, len(faqs)+1)
	for d := range m.idfs {
		m.idfs[d] = math.Log((1+n)/(1+float64(d))) + 1
	}
	m.starts = make([]int32, len(df)+1)
	for id, d := range df {
		m.starts[id+1] = m.starts[id] + int32(d)
	}
	m.posts = make([]faqPosting, m.starts[len(df)])
	next := slices.Clone(m.starts[:len(df)]) // where each feature's next posting goes
	// The length of the sum of each answer's items' vectors: of its one item's for most answers,
	// summed feature by feature for the others.
	size := make([]int, len(answers))
	for _, g := range m.answer {
		size[g]++
	}
	sums := make([]map[int32]float64, len(answers))
	m.norm = make([]float64, len(answers))
	for i, doc := range docs {
		w := make([]float64, len(doc))
		for j, ft := range doc {
			w[j] = ft.weight * m.idfs[df[ids[i][j]]]
		}
		normalise(doc, w)
		g := m.answer[i]
		if size[g] > 1 && sums[g] == nil {
			sums[g] = map[int32]float64{}
		}
		for j, id := range ids[i] {
			m.posts[next[id]] = faqPosting{item: int32(i), weight: float32(w[j])}
			next[id]++
			if size[g] > 1 {
				sums[g][id] += w[j]
			} else {
				m.norm[g] += w[j] * w[j]
			}
		}
	}
	for g, sum := range sums {
		for _, id := range slices.Sorted(maps.Keys(sum)) { // in a fixed order: the same bits on every build
			m.norm[g] += sum[id] * sum[id]
		}
		m.norm[g] = math.Sqrt(m.norm[g])
	}
	m.words, m.buf = nil, nil
	m.indexDense(faqs, wv, len(answers))
	m.cls = newClassifier(m, docs, len(answers))
	return m
}

// indexDense sets the items' vectors of meaning when there are word vectors and the Brain is in
// English.
func (m *faqMatcher) indexDense(faqs []FAQ, wv WordVectors, answers int) {
	if wv == nil || m.lang != "en" || len(faqs) < denseMinItems || wv.Dims() == 0 {
		return
	}
	d := &denseSpace{wv: wv, dims: wv.Dims()}
	raw := make([][]float32, len(faqs))
	for i, f := range faqs {
		if language.Detect(f.Question, m.lang) != "en" {
			continue
		}
		if v, ok := d.embed(foldWords(f.Question)); ok {
			raw[i] = v
		}
	}
	m.dense, m.vecs = newDenseSpace(wv, raw)
	if m.dense == nil {
		return
	}
	dims := m.dense.dims
	m.centroids = make([]float32, answers*dims)
	m.members = make([][]int32, answers)
	for i, g := range m.answer {
		m.members[g] = append(m.members[g], int32(i))
		s := m.centroids[int(g)*dims : int(g+1)*dims]
		for j, x := range m.vecs[i*dims : (i+1)*dims] {
			s[j] += x
		}
	}
	for g := range answers {
		s := m.centroids[g*dims : (g+1)*dims]
		if norm := math.Sqrt(float64(dot(s, s))); norm > 0 {
			for j := range s {
				s[j] = float32(float64(s[j]) / norm)
			}
		}
	}
}

// denseQuery returns the unit vector of meaning of a query, or nil when it has none (no word
// vectors, not English, no word with a vector).
func (m *faqMatcher) denseQuery(q *query, b *matchBuf) []float32 {
	if m.dense == nil || q.lang != "en" {
		return nil
	}
	raw, ok := m.dense.embed(q.folded)
	if !ok {
		return nil
	}
	b.qv = zeroed(b.qv, m.dense.dims)
	m.dense.project(raw, b.qv)
	return b.qv
}

// normalise scales the weights of the word features and of the gram features each to unit
// length, times their share of the similarity.
func normalise(doc []feature, w []float64) {
	var words, grams float64
	for j, ft := range doc {
		if ft.gram {
			grams += w[j] * w[j]
		} else {
			words += w[j] * w[j]
		}
	}
	words, grams = math.Sqrt(words), math.Sqrt(grams)
	for j, ft := range doc {
		switch {
		case ft.gram && grams > 0:
			w[j] = w[j] / grams * (1 - faqWordWeight)
		case !ft.gram && words > 0:
			w[j] = w[j] / words * faqWordWeight
		}
	}
}

// match returns, for a query of features raw (queryFeatures), the similarity in [0, 1] of the query with each item (sim, one per item), the
// score in [0, 1] of each answer (one per answer, indexed like answer), and whether the query's
// vector of meaning took part (meant): for an English FAQ with word vectors, a part
// (denseWeight) of the similarity and of the score is the cosine of the vectors of meaning (an
// answer's: best item and centroid as for the words), and the classifier reads the vector too.
// sim and scores are b's (nil: a new one).
func (m *faqMatcher) match(q *query, raw []feature, b *matchBuf) (sim, scores []float64, meant bool) {
	if b == nil {
		b = &matchBuf{}
	}
	own := m.weigh(nil, raw)
	b.sim = zeroed(b.sim, len(m.answer))
	sim = b.sim
	if x := m.wordsExpand(q, raw); len(x) > 0 {
		m.similarity(m.weigh(nil, append(raw[:len(raw):len(raw)], x...)), sim)
	} else {
		m.similarity(own, sim)
	}
	scores = m.aggregate(sim, m.norm, faqBestWeight, b)
	var qv []float32
	if len(own) > 0 {
		qv = m.denseQuery(q, b)
	}
	if qv != nil {
		dsim, dscores := m.meaning(qv, b)
		for g := range scores {
			scores[g] = (1-denseWeight)*scores[g] + denseWeight*max(dscores[g], 0)
		}
		for i := range sim {
			sim[i] = (1-denseWeight)*sim[i] + denseWeight*max(dsim[i], 0)
		}
	}
	if m.cls != nil && len(own) > 0 {
		for g, p := range m.cls.predict(m, own, qv, b) {
			scores[g] = (1-classifierWeight)*scores[g] + classifierWeight*p
		}
	}
	return sim, scores, qv != nil
}

// meaning returns the cosine of a query's vector of meaning with the items' (dsim) and the
// answers' scores by it (dscores): the cosine with each answer's centroid, and for the
// denseNearest answers of the highest such cosine, faqBestWeight of it the best item's cosine
// instead (the other items' cosines are left 0: comparing with every item would take as long as
// all the rest of a search, for answers that cannot come first).
func (m *faqMatcher) meaning(qv []float32, b *matchBuf) (dsim, dscores []float64) {
	dims := m.dense.dims
	b.dsim, b.dscores, b.order = zeroed(b.dsim, len(m.answer)), zeroed(b.dscores, len(m.members)), zeroed(b.order, len(m.members))
	dsim, dscores, order := b.dsim, b.dscores, b.order
	for g := range dscores {
		dscores[g] = float64(dot(qv, m.centroids[g*dims:(g+1)*dims]))
		order[g] = g
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(dscores[b], dscores[a]) })
	for _, g := range order[:min(len(order), denseNearest)] {
		best := 0.0
		for _, i := range m.members[g] {
			dsim[i] = float64(dot(qv, m.vecs[int(i)*dims:int(i+1)*dims]))
			best = max(best, dsim[i])
		}
		dscores[g] = faqBestWeight*best + (1-faqBestWeight)*dscores[g]
	}
	return dsim, dscores
}

// aggregate returns the score of each answer from the similarity of each item: best of the
// best item's, the rest the cosine with the centroid of the answer's items (norm: the length of
// the sum of their vectors); in b's scores.
func (m *faqMatcher) aggregate(sim, norm []float64, best float64, b *matchBuf) []float64 {
	b.scores, b.sums = zeroed(b.scores, len(norm)), zeroed(b.sums, len(norm))
	top, sums := b.scores, b.sums
	for i, s := range sim {
		g := m.answer[i]
		top[g] = max(top[g], s)
		sums[g] += s
	}
	for g := range top {
		centroid := 0.0
		if norm[g] > 0 {
			centroid = sums[g] / norm[g]
		}
		top[g] = best*top[g] + (1-best)*centroid
	}
	return top
}

// confidence is how sure a score of an answer is, given the best score of the other answers:
// the mean of the score and faqMarginWeight times its lead, in [0, 1]. With the classifier the
// leads are sharper (its probabilities are peaked), so the confidence is scaled by
// classifierConfidence to mean as much as without it, and one threshold serves both; so is the
// confidence of a query matched with its vector of meaning (meant), by denseConfidence.
func (m *faqMatcher) confidence(score, other float64, meant bool) float64 {
	c := (score + faqMarginWeight*(score-other)) / 2
	if m.cls != nil {
		c *= classifierConfidence
	}
	if meant {
		c *= denseConfidence
	}
	return min(max(c, 0), 1)
}

// similarity adds to sim[i] the similarity of a query of features q with item i, in [0, 1].
func (m *faqMatcher) similarity(q []feature, sim []float64) {
	b := featureBufs.Get().(*featureBuf)
	defer featureBufs.Put(b)
	b.weights, b.ids = slices.Grow(b.weights[:0], len(q)), slices.Grow(b.ids[:0], len(q))
	w, ids := b.weights[:len(q)], b.ids[:len(q)] // each set below
	unseen := math.Log(1+float64(len(m.answer))) + 1
	for j, ft := range q {
		id, ok := m.feats.get(ft.key)
		ids[j] = -1
		w[j] = ft.weight * unseen
		if ok {
			ids[j] = id
			w[j] = ft.weight * m.idf(id)
		}
	}
	normalise(q, w)
	for j, id := range ids {
		if id < 0 {
			continue
		}
		for _, p := range m.postings(id) {
			sim[p.item] += w[j] * float64(p.weight)
		}
	}
}

// idf returns the idf of feature id over the items' questions: 1 plus the log of (1 + items)
// over (1 + the items that hold it).
func (m *faqMatcher) idf(id int32) float64 { return m.idfs[m.starts[id+1]-m.starts[id]] }

// postings returns the items that hold feature id, each with the feature's weight in its vector.
func (m *faqMatcher) postings(id int32) []faqPosting { return m.posts[m.starts[id]:m.starts[id+1]] }

// features returns the features of a text as this matcher weighs them (weigh).
func (m *faqMatcher) features(text string) []feature { return m.weigh(nil, m.textFeatures(text)) }

// weigh returns the features of a text with those only stop words give weighing stopWeight
// (left out at 0): q itself when they weigh as others, else appended to dst emptied.
func (m *faqMatcher) weigh(dst, q []feature) []feature {
	if m.stopWeight == 1 {
		return q
	}
	out := slices.Grow(dst[:0], len(q))
	for _, f := range q {
		if f.stop {
			if m.stopWeight == 0 {
				continue
			}
			f.weight *= m.stopWeight
		}
		out = append(out, f)
	}
	return out
}

// textFeatures returns the features of a text with their counts' weights (1 + log count),
// marking those that only stop words give; nil for a text of stop words only.
func (m *faqMatcher) textFeatures(text string) []feature {
	lang := language.Detect(text, m.lang)
	words := lowerWords(text)
	return m.count(nil, len(words), func(i int) ([]string, bool) { return m.wordKeys(words[i], lang) })
}

// queryFeatures returns the features of a query as textFeatures does those of its text, in dst
// emptied.
func (m *faqMatcher) queryFeatures(dst []feature, q *query) []feature {
	return m.count(dst, len(q.words), func(i int) ([]string, bool) {
		if q.stems[i] == "" {
			return nil, false
		}
		_, stop := stopwords[q.folded[i]]
		if q.abroad != nil && q.abroad[i] != "" {
			t := q.abroad[i] // the Brain's word for a word of another language (abroadRead)
			return featureKeys(m.stemFeature(t, t, m.lang), t), false
		}
		return featureKeys(q.stems[i], q.folded[i]), stop
	})
}

// count returns the features of the n words of a text, of which keys gives the feature keys of
// word i and whether it is a stop word (as wordKeys does), as textFeatures says, in dst emptied
// (nil: a new slice).
func (m *faqMatcher) count(dst []feature, n int, keys func(i int) ([]string, bool)) []feature {
	// The features in the order they first appear, with their counts; while the matcher is
	// built, in the same buffers for every text.
	b := m.buf
	if b == nil {
		b = featureBufs.Get().(*featureBuf)
		defer featureBufs.Put(b)
	}
	clear(b.seen)
	seen, order, counts, stops := b.seen, b.order[:0], b.counts[:0], b.stops[:0]
	defer func() { b.order, b.counts, b.stops = order, counts, stops }()
	content := false
	for i := range n {
		keys, stop := keys(i)
		if keys == nil {
			continue
		}
		content = content || !stop
		for _, k := range keys {
			if i, ok := seen[k]; ok {
				counts[i]++
				stops[i] = stops[i] && stop
				continue
			}
			seen[k] = len(order)
			order = append(order, k)
			counts = append(counts, 1)
			stops = append(stops, stop)
		}
	}
	if !content {
		return nil // only stop words: nothing to look up
	}
	out := slices.Grow(dst[:0], len(order))[:len(order)]
	for i, k := range order {
		out[i] = feature{key: k, weight: 1 + math.Log(float64(counts[i])), gram: k[0] == 'g', stop: stops[i]}
	}
	return out
}

// wordKeys returns the keys of the features of a lower-case word in lang (featureKeys), and
// whether it is a stop word. Nil for a word that has none (a single letter). While the matcher
// is built, the keys of each word are made once (m.words), however often the word occurs.
func (m *faqMatcher) wordKeys(w, lang string) ([]string, bool) {
	folded := foldWord(w)
	if folded == "" || len(folded) == 1 && !isDigit(folded[0]) {
		return nil, false
	}
	_, stop := stopwords[folded]
	if m.words != nil {
		if keys, ok := m.words[lang+":"+w]; ok {
			return keys, stop
		}
	}
	keys := featureKeys(m.stemFeature(w, folded, lang), folded)
	if m.words != nil {
		m.words[lang+":"+w] = keys
	}
	return keys, stop
}

// featureKeys returns the keys of the features of a word (folded) whose stem's feature is stem
// (stemFeature): that one, then the word's character n-grams, marked at its ends. The n-grams'
// keys share one string.
func featureKeys(stem, folded string) []string {
	g := " " + folded + " "
	size := 0
	for n := faqGramMin; n <= faqGramMax; n++ {
		size += max(len(g)-n+1, 0) * (1 + n)
	}
	var b strings.Builder
	b.Grow(size)
	for n := faqGramMin; n <= faqGramMax; n++ {
		for i := 0; i+n <= len(g); i++ {
			b.WriteByte('g')
			b.WriteString(g[i : i+n])
		}
	}
	grams := b.String()
	keys := make([]string, 0, 3*len(folded))
	keys = append(keys, stem)
	for n := faqGramMin; n <= faqGramMax; n++ {
		for i := 0; i+n <= len(g); i++ {
			keys, grams = append(keys, grams[:1+n]), grams[1+n:]
		}
	}
	return keys
}

// apostrophes drops the apostrophes of a text.
var apostrophes = strings.NewReplacer("'", "", "’", "")

// lowerWords splits text into lower-case words of letters and digits, accents kept (the
// stemmers read them); apostrophes inside a word are dropped.
func lowerWords(text string) []string {
	text = apostrophes.Replace(strings.ToLower(countryWords(text)))
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	})
}

// foldWords returns the words of a text (lowerWords), accents folded (foldWord).
func foldWords(text string) []string {
	words := lowerWords(text)
	for i, w := range words {
		words[i] = foldWord(w)
	}
	return words
}

// foldWord returns a word lower case, accents folded, as Tokens reads it.
func foldWord(w string) string {
	if plainWord(w) {
		return w // eachWord would give it back as it is: no copy
	}
	var b strings.Builder
	eachWord(w, func(p []byte) { b.Write(p) })
	return b.String()
}

// plainWord reports whether a word is of lower-case ASCII letters and digits only.
func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || isDigit(c)) {
			return false
		}
	}
	return true
}

// Stemmer reduces a lower-case word of a language (en, pt or es; another is read as English) to
// the stem retrieval matches on: a Snowball stemmer, given by an adapter (the domain does no
// stemming of its own beyond Tokens' light rules).
type Stemmer interface {
	Stem(word, lang string) string
}

// stemWord returns the stem of a lower-case word in lang, or the word itself without a stemmer,
// for words of fewer than 3 letters and for words with digits. An irregular form of a verb is
// stemmed as its infinitive (verbLemma), an irregular plural as its singular (nounSingular), the
// noun of a verb's action whose root differs as the verb (actionVerb).
func (m *faqMatcher) stemWord(w, lang string) string {
	if m.stem == nil || len(w) < 3 || hasDigit(w) {
		return w
	}
	if verb, ok := verbLemma(w, lang); ok {
		w = verb // "broke" stems as "break", "conduzco" as "conducir"
	} else if noun, ok := nounSingular(w, lang); ok {
		w = noun // "children" stems as "child", "lápices" as "lápiz"
	} else if verb, ok := actionVerb(w, lang); ok {
		w = verb // "impresión" stems as "imprimir", "inscrição" as "inscrever"
	}
	return m.stem.Stem(spellAccents(w, lang), lang)
}

// wordsExpand returns the synonyms (expand) a query of features raw is matched with by an FAQ
// matched by its words only (neither classifier nor vectors of meaning: a business's FAQ of one
// question per answer), nil for the others: a customer's "funeral home" or "exame pra me
// matricular" meets an FAQ question in the business's words as the pages' sentences do. A
// synonym shares no term (Hit.Overlap), so an item it finds that shares none with the question
// is still not answered.
func (m *faqMatcher) wordsExpand(q *query, raw []feature) []feature {
	if m.cls != nil || m.dense != nil || len(raw) == 0 {
		return nil
	}
	return m.expand(q, raw)
}
