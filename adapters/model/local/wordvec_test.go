package local

import (
	"bytes"
	"compress/gzip"
	"math"
	"testing"
)

func TestWordVectors(t *testing.T) {
	table, err := builtinWords()
	if err != nil {
		t.Fatalf("the built-in table: %v", err)
	}
	if len(table.scales) != 50_000 || table.dims != 100 {
		t.Fatalf("the built-in table has %d words of %d dimensions; want 50000 of 100", len(table.scales), table.dims)
	}
	w := NewWordVectors()
	for _, c := range []struct {
		word string
		rank int
	}{{"the", 0}, {"of", 1}, {"zqxjv", -1}, {"The", -1}, {"", -1}} {
		if got := w.Rank(c.word); got != c.rank {
			t.Errorf("Rank(%q) = %d, want %d", c.word, got, c.rank)
		}
	}
	vec := func(word string) []float32 {
		r := w.Rank(word)
		if r < 0 {
			t.Fatalf("no vector for %q", word)
		}
		v := make([]float32, w.Dims())
		w.AddVector(v, r, 1)
		return v
	}
	cos := func(a, b string) float64 {
		x, y := vec(a), vec(b)
		var xy, xx, yy float64
		for j := range x {
			xy += float64(x[j]) * float64(y[j])
			xx += float64(x[j]) * float64(x[j])
			yy += float64(y[j]) * float64(y[j])
		}
		return xy / math.Sqrt(xx*yy)
	}
	for _, c := range []struct{ word, near, far string }{
		{"laugh", "funny", "invoice"},
		{"refund", "payment", "weather"},
		{"vacation", "holiday", "password"},
	} {
		if near, far := cos(c.word, c.near), cos(c.word, c.far); near <= far+0.2 {
			t.Errorf("cos(%s, %s) = %.2f, not well above cos(%s, %s) = %.2f", c.word, c.near, near, c.word, c.far, far)
		}
	}
}

func TestReadWordVectorsRejects(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	head := append([]byte(wordMagic), 2, 0, 0, 0, 3, 0, 0, 0)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"not gzip", []byte("SVCWV1\n")},
		{"other magic", gz([]byte("SVCWV9\n\x02\x00\x00\x00\x03\x00\x00\x00"))},
		{"no words", gz(append([]byte(wordMagic), 0, 0, 0, 0, 3, 0, 0, 0))},
		{"truncated words", gz(append(head, "ab\n"...))},
		{"truncated values", gz(append(append(head, "ab\ncd\n"...), make([]byte, 8+3)...))},
	} {
		if _, err := readWordVectors(bytes.NewReader(c.data), 0); err == nil {
			t.Errorf("%s: read without error", c.name)
		}
	}
	table, err := readWordVectors(bytes.NewReader(gz(append(append(head, "ab\ncd\n"...), append(make([]byte, 8), 1, 2, 3, 4, 5, 6)...))), 1)
	if err != nil || len(table.scales) != 1 || table.word(0) != "ab" || len(table.values) != 3 {
		t.Errorf("a table of 2 words read with limit 1: %+v, %v", table, err)
	}
}
