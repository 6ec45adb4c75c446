package knowledge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchWords is a vocabulary of real words followed by made-up ones, drawn from with a Zipf law
// so that, as in real text, a few words are frequent and most are rare.
var benchWords = func() []string {
	words := append([]string(nil), vocabulary...)
	syllables := strings.Fields("ba be bi bo bu ca co cu da de di do fa fe fi lo la le li ma me mi mo na ne no pa pe po ra re ri ro sa se si so ta te ti to va ve vi")
	r := rand.New(rand.NewPCG(7, 7))
	for range 6000 {
		n := 2 + r.IntN(3)
		var w string
		for range n {
			w += syllables[r.IntN(len(syllables))]
		}
		words = append(words, w)
	}
	return words
}()

// benchText returns about n characters of sentences and paragraphs.
func benchText(r *rand.Rand, z *rand.Zipf, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			switch x := r.IntN(100); {
			case x < 2:
				b.WriteString(".\n\n")
			case x < 10:
				b.WriteString(". ")
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(benchWords[z.Uint64()])
	}
	b.WriteByte('.')
	return b.String()
}

func newZipf(r *rand.Rand) *rand.Zipf {
	return rand.NewZipf(r, 1.07, 2, uint64(len(benchWords)-1))
}

// benchCorpus returns 5,000 chunks of about 800 characters and 100 FAQ items, with vectors of
// dims dimensions unless dims is 0, and 64 queries with their vectors.
func benchCorpus(dims int) ([]Doc, []FAQ, []string, [][]float32) {
	r := rand.New(rand.NewPCG(1, 1))
	z := newZipf(r)
	docs := make([]Doc, 5000)
	for i := range docs {
		c := Chunk{ID: fmt.Sprintf("chunk-%05d", i), Source: SourceCrawl, URL: fmt.Sprintf("https://shop.example/p/%d", i/15), Title: benchText(r, z, 30), Text: benchText(r, z, 800)}
		docs[i] = Doc{Chunk: c, Vector: vectorOf(c.Title+"\n"+c.Text, dims)}
	}
	faqs := make([]FAQ, 100)
	for i := range faqs {
		q := benchText(r, z, 50) + "?"
		faqs[i] = FAQ{ID: fmt.Sprintf("faq-%03d", i), Question: q, Answer: benchText(r, z, 300), Vector: vectorOf(q, dims)}
	}
	queries := make([]string, 64)
	vecs := make([][]float32, len(queries))
	for i := range queries {
		if i%4 == 0 { // some queries ask an FAQ question
			queries[i] = faqs[i].Question
		} else {
			queries[i] = benchText(r, z, 20+r.IntN(60)) + "?"
		}
		vecs[i] = vectorOf(queries[i], dims)
	}
	return docs, faqs, queries, vecs
}

// BenchmarkSearch ranks 5,000 chunks and 100 FAQ items for one query, without vectors (lexical
// only) and with vectors of 256 dimensions (the query's vector is made beforehand).
func BenchmarkSearch(b *testing.B) {
	for _, dims := range []int{0, 256} {
		b.Run(fmt.Sprintf("chunks=5000/dims=%d", dims), func(b *testing.B) {
			docs, faqs, queries, vecs := benchCorpus(dims)
			ix := NewIndex(docs, faqs, lightStemmer{}, nil)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ix.Search(queries[i%len(queries)], vecs[i%len(vecs)], 8)
				i++
			}
		})
	}
}

// BenchmarkIndexBuild splits 300 pages of 4,000 characters into chunks and indexes them with
// their vectors of 256 dimensions (made beforehand: embedding is measured in its adapter).
func BenchmarkIndexBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	z := newZipf(r)
	pages := make([]Page, 300)
	for i := range pages {
		pages[i] = Page{URL: fmt.Sprintf("https://shop.example/p/%d", i), Title: benchText(r, z, 30), Content: benchText(r, z, 4000)}
	}
	var vecs [][]float32
	for _, p := range pages {
		for _, c := range Split(p, 0, 0) {
			vecs = append(vecs, vectorOf(c.Text, 256))
		}
	}
	b.ReportAllocs()
	chunks := 0
	for b.Loop() {
		var docs []Doc
		for _, p := range pages {
			for _, c := range Split(p, 0, 0) {
				c.ID = fmt.Sprintf("%s#%d", p.URL, c.Ordinal)
				docs = append(docs, Doc{Chunk: c, Vector: vecs[len(docs)]})
			}
		}
		NewIndex(docs, nil, nil, nil)
		chunks = len(docs)
	}
	b.ReportMetric(float64(chunks), "chunks")
}

// BenchmarkIndexBuildSmall is BenchmarkIndexBuild for a small business's site at the most
// chunks whose sentences are still matched one by one (SentenceMaxChunks): 14 pages of 4,000
// characters, about 100 chunks, with the stemmer of the tests.
func BenchmarkIndexBuildSmall(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	z := newZipf(r)
	var docs []Doc
	for i := range 14 {
		p := Page{URL: fmt.Sprintf("https://shop.example/p/%d", i), Title: benchText(r, z, 30), Content: benchText(r, z, 4000)}
		for _, c := range Split(p, 0, 0) {
			c.ID = fmt.Sprintf("%s#%d", p.URL, c.Ordinal)
			docs = append(docs, Doc{Chunk: c, Vector: vectorOf(c.Text, 256)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(docs, nil, lightStemmer{}, nil)
	}
	b.ReportMetric(float64(len(docs)), "chunks")
}
