// Package local is the built-in model engine: it needs no network and no model files.
package local

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/wire"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/ports"
)

// Set provides the built-in embedder as ports.Embedder, the Snowball stemmer as ports.Stemmer and
// the table of English word vectors as ports.WordVectors.
var Set = wire.NewSet(NewEmbedder, wire.Bind(new(ports.Embedder), new(*Embedder)),
	NewStemmer, wire.Bind(new(ports.Stemmer), new(*Stemmer)),
	NewWordVectors, wire.Bind(new(ports.WordVectors), new(*WordVectors)))

// Dimensions of the vectors the Embedder makes.
const (
	DefaultDimensions = 256
	MaxDimensions     = 4096
)

// Weights of the kinds of features: whole terms count most, pairs of neighbouring terms carry
// some word order, and character 3- and 4-grams of terms let related forms ("deliver",
// "delivery") and misspellings meet.
const (
	termWeight = 1.0
	pairWeight = 0.5
	gramWeight = 0.25
)

// Embedder makes vectors by feature hashing: each term of a text (knowledge.Tokens, so queries
// and documents are read alike), each pair of neighbouring terms, and each character 3- and
// 4-gram of a term marked at its start and end, is hashed (FNV-1a, mixed) to a dimension and a
// sign; a feature's weight grows with the log of its count. Vectors are L2-normalised, so a dot
// product is a cosine. The same text always gives the same vector. A text with no words gives
// the zero vector, which is not normalisable and is similar to nothing.
type Embedder struct {
	scratch sync.Pool // of *features
}

// NewEmbedder returns the built-in embedder.
func NewEmbedder() *Embedder {
	return &Embedder{scratch: sync.Pool{New: func() any { return new(features) }}}
}

// Embed returns one vector for each text, of the given dimensions (0 means DefaultDimensions,
// else 1 to MaxDimensions). Large batches are embedded in parallel.
func (e *Embedder) Embed(ctx context.Context, texts []string, dimensions int) ([][]float32, error) {
	switch {
	case dimensions == 0:
		dimensions = DefaultDimensions
	case dimensions < 0 || dimensions > MaxDimensions:
		return nil, domain.Invalid("dimensions", "dimensions must be between 1 and %d", MaxDimensions)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	flat := make([]float32, len(texts)*dimensions)
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = flat[i*dimensions : (i+1)*dimensions : (i+1)*dimensions]
	}

	workers := min(runtime.GOMAXPROCS(0), len(texts)/4)
	if workers < 2 {
		f := e.scratch.Get().(*features)
		defer e.scratch.Put(f)
		for i, t := range texts {
			if i%64 == 63 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			f.embed(t, out[i])
		}
		return out, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			f := e.scratch.Get().(*features)
			defer e.scratch.Put(f)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(texts) || ctx.Err() != nil {
					return
				}
				f.embed(texts[i], out[i])
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// features holds the hashed features of one text; it is reused from text to text.
type features struct {
	terms, pairs, grams []uint64
	marked              []byte // a term between '^' and '$'
	runes               []int  // offsets of the runes of marked, and its length
}

// embed writes the vector of text into v, which is zero.
func (f *features) embed(text string, v []float32) {
	f.terms, f.pairs, f.grams = f.terms[:0], f.pairs[:0], f.grams[:0]
	tokens := knowledge.Tokens(text)
	if len(tokens) == 0 { // only stopwords: better them than nothing
		tokens = strings.Fields(knowledge.NormalizeQuestion(text))
	}
	for i, t := range tokens {
		f.terms = append(f.terms, hash(offset64^'t', t))
		if i > 0 {
			f.pairs = append(f.pairs, hash(hash(hash(offset64^'p', tokens[i-1]), " "), t))
		}
		f.marked = append(append(append(f.marked[:0], '^'), t...), '$')
		f.runes = f.runes[:0]
		for off := range string(f.marked) {
			f.runes = append(f.runes, off)
		}
		f.runes = append(f.runes, len(f.marked))
		for _, n := range [...]int{3, 4} {
			for s := 0; s+n < len(f.runes); s++ {
				f.grams = append(f.grams, hash(offset64^uint64('0'+n), f.marked[f.runes[s]:f.runes[s+n]]))
			}
		}
	}
	add(v, f.terms, termWeight)
	add(v, f.pairs, pairWeight)
	add(v, f.grams, gramWeight)

	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	norm := math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) / norm)
	}
}

// add adds features to v: each distinct hash once, weighted by 1 + ln(count), at the dimension
// and with the sign its mixed hash picks. It sorts hashes.
func add(v []float32, hashes []uint64, weight float64) {
	slices.Sort(hashes)
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		h := mix(hashes[i])
		w := float32(weight * (1 + math.Log(float64(j-i))))
		if h>>63 != 0 {
			w = -w
		}
		v[(h&(1<<63-1))%uint64(len(v))] += w
		i = j
	}
}

// FNV-1a, 64 bits.
const (
	offset64 = 14695981039346656037
	prime64  = 1099511628211
)

// hash continues an FNV-1a hash h over s.
func hash[T string | []byte](h uint64, s T) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return h
}

// mix spreads the bits of an FNV hash (murmur3's finaliser), so that its low bits pick the
// dimension and its top bit the sign independently.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
