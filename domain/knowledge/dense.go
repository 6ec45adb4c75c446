package knowledge

import (
	"math"
)

// WordVectors gives vectors of English words that carry their meaning ("laugh" near "joke"),
// for the FAQ matcher to compare questions that share no word. An adapter holds the table; the
// domain only reads it.
type WordVectors interface {
	// Dims returns the dimensions of the vectors.
	Dims() int
	// Rank returns the rank of a lower-case, accent-folded word by its frequency in general
	// English (0 for the most frequent), or -1 when the table has no vector for it.
	Rank(word string) int
	// AddVector adds weight times the vector of the word of a rank to dst (of Dims values).
	AddVector(dst []float32, rank int, weight float32)
}

// denseSpace turns English questions into unit vectors of meaning: the weighted mean of their
// words' vectors (smooth inverse frequency: a word of general frequency p weighs a / (a + p)),
// centred on the mean of the FAQ questions' and without their first principal component, so
// that what all questions share ("how do I …") does not make them all alike.
type denseSpace struct {
	wv   WordVectors
	dims int
	mean []float32 // of the FAQ questions' mean vectors
	pc   []float32 // their first principal component, unit length; nil when none
}

// Parameters of the vectors of meaning, tuned on an intent set (testdata/eval/README.md).
const (
	// sifWeight is the a of smooth inverse frequency: a word of frequency p weighs a / (a + p),
	// so "the" (p 0.07) weighs 0.01 and a word of rank 1,000 0.93.
	sifWeight = 1e-3
	// denseWeight is the share of the vectors of meaning in an FAQ answer's similarity score
	// (the words' and n-grams' TF-IDF cosines have the rest).
	denseWeight = 0.3
	// denseMinItems is the fewest FAQ items that are matched by meaning: the centring and the
	// principal component are taken from the FAQ's questions, and from a handful of them they
	// remove what tells them apart.
	denseMinItems = 50
	// denseCoverage is the least share of a text's content words that must have a vector for
	// the text to have a vector of meaning.
	denseCoverage = 0.75
	// denseNearest is how many answers, nearest in meaning by their centroid, are also scored
	// by their best item's meaning.
	denseNearest = 20
	// denseConfidence scales the confidence of an answer scored with the vectors of meaning:
	// on the intent set the threshold of the most right answers with at most 12 % wrong was
	// 0.205 with them and 0.15 without, so that one threshold serves both.
	denseConfidence = 0.15 / 0.205
)

// zipfNorm is the harmonic number of a vocabulary of about 400,000 words: under Zipf's law the
// word of rank r (from 0) has frequency 1 / ((r+1) · zipfNorm).
var zipfNorm = math.Log(400_000) + 0.5772

// embed returns the weighted mean of the vectors of the words (folded: foldWords) of a text in
// English (raw: not centred), and whether it has one: whether at least denseCoverage of its
// content words (not stop words) have a vector, so that a text in another language that says
// little to Detect ("Há estacionamento?") is not read by the few of its words that English has
// too.
func (d *denseSpace) embed(words []string) ([]float32, bool) {
	v := make([]float32, d.dims)
	content, known := 0, 0
	for _, folded := range words {
		if len(folded) < 2 {
			continue
		}
		_, stop := stopwords[folded]
		if !stop {
			content++
		}
		r := d.wv.Rank(folded)
		if r < 0 {
			continue
		}
		if !stop {
			known++
		}
		p := 1 / (float64(r+1) * zipfNorm)
		d.wv.AddVector(v, r, float32(sifWeight/(sifWeight+p)))
	}
	return v, known > 0 && float64(known) >= denseCoverage*float64(content)
}

// newDenseSpace fits the centring of the FAQ questions' raw vectors (nil where a question has
// none) and returns it with their unit vectors (items × dims, zeros where none).
func newDenseSpace(wv WordVectors, raw [][]float32) (*denseSpace, []float32) {
	d := &denseSpace{wv: wv, dims: wv.Dims()}
	d.mean = make([]float32, d.dims)
	n := 0
	for _, v := range raw {
		if v == nil {
			continue
		}
		n++
		for j, x := range v {
			d.mean[j] += x
		}
	}
	if n == 0 {
		return nil, nil
	}
	for j := range d.mean {
		d.mean[j] /= float32(n)
	}
	d.pc = principal(raw, d.mean, d.dims)
	out := make([]float32, len(raw)*d.dims)
	for i, v := range raw {
		if v != nil {
			d.project(v, out[i*d.dims:(i+1)*d.dims])
		}
	}
	return d, out
}

// project writes the unit vector of a raw vector, centred and without the principal
// component, into dst.
func (d *denseSpace) project(v, dst []float32) {
	for j, x := range v {
		dst[j] = x - d.mean[j]
	}
	if d.pc != nil {
		p := dot(dst, d.pc)
		for j := range dst {
			dst[j] -= p * d.pc[j]
		}
	}
	if norm := math.Sqrt(float64(dot(dst, dst))); norm > 0 {
		for j := range dst {
			dst[j] = float32(float64(dst[j]) / norm)
		}
	}
}

// principal returns the first principal component of the centred vectors (nil ones skipped),
// by power iteration on their covariance; nil when they do not vary.
func principal(raw [][]float32, mean []float32, dims int) []float32 {
	cov := make([]float64, dims*dims)
	c := make([]float64, dims)
	for _, v := range raw {
		if v == nil {
			continue
		}
		for j := range c {
			c[j] = float64(v[j] - mean[j])
		}
		for a := range dims {
			row := cov[a*dims : (a+1)*dims]
			for b := range dims {
				row[b] += c[a] * c[b]
			}
		}
	}
	x := make([]float64, dims)
	for j := range x {
		x[j] = 1 / math.Sqrt(float64(dims+j))
	}
	y := make([]float64, dims)
	for range 50 {
		norm := 0.0
		for a := range dims {
			s := 0.0
			for b, w := range cov[a*dims : (a+1)*dims] {
				s += w * x[b]
			}
			y[a] = s
			norm += s * s
		}
		if norm == 0 {
			return nil
		}
		norm = math.Sqrt(norm)
		for j := range x {
			x[j] = y[j] / norm
		}
	}
	pc := make([]float32, dims)
	for j, v := range x {
		pc[j] = float32(v)
	}
	return pc
}
