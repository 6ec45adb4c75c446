package knowledge

import (
	"strings"
	"unicode/utf8"
)

// Chunk is a piece of a page small enough to rank and to hand to the model. Split fills every
// field but ID and Source, which the caller sets.
type Chunk struct {
	ID      string
	Source  Source
	URL     string
	Title   string
	Text    string
	Ordinal int    // position of the chunk in its page, from 0
	Cart    string // the cart id of its page (Page.Cart)
}

// Sizes of chunks, in characters, when Split is given 0.
const (
	DefaultChunkSize    = 800
	DefaultChunkOverlap = 150
)

// Split cuts the content of a page into chunks of at most size characters, each beginning with up
// to overlap characters from the end of the one before it. Cuts fall between paragraphs where the
// chunk can still be at least half full, else between lines, else between sentences, else between
// words; a word is never cut, so only a single word longer than size makes a longer chunk.
// Whitespace inside a line is collapsed; line and paragraph breaks are kept.
//
// size 0 means DefaultChunkSize; overlap 0 means DefaultChunkOverlap and a negative overlap none;
// overlap is at most half of size. Content with no words gives no chunks.
func Split(p Page, size, overlap int) []Chunk {
	if size <= 0 {
		size = DefaultChunkSize
	}
	switch {
	case overlap == 0:
		overlap = DefaultChunkOverlap
	case overlap < 0:
		overlap = 0
	}
	overlap = min(overlap, size/2)

	words := splitWords(p.Content)
	if len(words) == 0 {
		return nil
	}
	// pos[i] and end[i] are the offsets of word i in the text all words make when joined with
	// their separators, so words i..j take end[j]-pos[i] characters.
	pos := make([]int, len(words))
	end := make([]int, len(words))
	for i, w := range words {
		if i > 0 {
			pos[i] = end[i-1] + len(separators[w.sep])
		}
		end[i] = pos[i] + int(w.n)
	}

	var chunks []Chunk
	last := len(words) - 1
	for start := 0; ; {
		j := start
		for j < last && end[j+1]-pos[start] <= size {
			j++
		}
		if j < last {
			// Cut at the strongest boundary in the back half of the chunk; an overlap is at most
			// half of size, so the chunk always gets past the end of the one before.
			best := j
			for e := j - 1; e >= start && end[e]-pos[start] > size/2; e-- {
				if words[e].brk > words[best].brk {
					best = e
				}
			}
			j = best
		}
		chunks = append(chunks, Chunk{URL: p.URL, Title: p.Title, Text: join(words[start : j+1]), Ordinal: len(chunks), Cart: p.Cart})
		if j == last {
			return chunks
		}
		start = overlapStart(words, pos, end, start, j, overlap, size)
	}
}

// overlapStart returns the first word of the chunk after words[start..j]: the earliest word that
// starts a sentence within the last overlap characters of the chunk, else the earliest word
// within them, moved on as far as needed for the next word to fit in size.
func overlapStart(words []word, pos, end []int, start, j, overlap, size int) int {
	s := j + 1
	for i := start + 1; i <= j; i++ {
		if end[j]-pos[i] <= overlap {
			s = i
			break
		}
	}
	for i := s; i <= j; i++ {
		if words[i-1].brk >= brkSentence {
			s = i
			break
		}
	}
	for s <= j && end[j+1]-pos[s] > size {
		s++
	}
	return s
}

// Strengths of the boundary after a word; separators holds the text that joins a word to the
// one after such a boundary.
const (
	brkWord uint8 = iota
	brkSentence
	brkLine
	brkParagraph
)

var separators = [...]string{brkWord: " ", brkSentence: " ", brkLine: "\n", brkParagraph: "\n\n"}

// word is a word of a page with the separator before it and the boundary after it.
type word struct {
	text string
	n    int32 // characters
	sep  uint8 // index in separators
	brk  uint8
}

// splitWords splits content into words, noting line and paragraph breaks and sentence ends.
func splitWords(content string) []word {
	words := make([]word, 0, len(content)/6+1)
	sep := brkLine
	for line := range strings.Lines(content) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			if len(words) > 0 {
				sep = brkParagraph
				words[len(words)-1].brk = brkParagraph
			}
			continue
		}
		for i, f := range fields {
			w := word{text: f, sep: sep, n: int32(utf8.RuneCountInString(f))}
			if endsSentence(f) && (i+1 == len(fields) || !Abbreviated(f, firstRune(fields[i+1]))) {
				w.brk = brkSentence
			}
			if i == len(fields)-1 {
				w.brk = max(w.brk, brkLine)
			}
			words = append(words, w)
			sep = brkWord
		}
		sep = brkLine
	}
	return words
}

// endsSentence reports whether a word ends a sentence: its last character, after closing quotes
// and brackets, is a full stop, question or exclamation mark or an ellipsis.
func endsSentence(w string) bool {
	w = strings.TrimRight(w, `"')]}»”’`)
	r, _ := utf8.DecodeLastRuneInString(w)
	return strings.ContainsRune(".!?…。！？", r)
}

// firstRune returns the first letter of a word.
func firstRune(w string) rune {
	r, _ := utf8.DecodeRuneInString(w)
	return r
}

// join writes words with their separators, the first one without.
func join(words []word) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(separators[w.sep])
		}
		b.WriteString(w.text)
	}
	return b.String()
}
