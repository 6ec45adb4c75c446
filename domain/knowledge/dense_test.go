package knowledge

import (
	"hash/fnv"
	"math"
	"testing"
)

// fakeWords is a table of word vectors of 64 dimensions: each word a direction of its own (from
// its hash), but the words of one meaning (synonyms) the same direction. It counts lookups.
type fakeWords struct {
	words    []string
	rank     map[string]int
	synonyms map[string]string // word → the word whose direction it shares
	lookups  int
}

func newFakeWords(words []string, synonyms map[string]string) *fakeWords {
	f := &fakeWords{rank: map[string]int{}, synonyms: synonyms}
	for _, w := range words {
		f.rank[w] = len(f.words)
		f.words = append(f.words, w)
	}
	return f
}

func (f *fakeWords) Dims() int { return 64 }

func (f *fakeWords) Rank(word string) int {
	f.lookups++
	if r, ok := f.rank[word]; ok {
		return r
	}
	return -1
}

func (f *fakeWords) AddVector(dst []float32, rank int, weight float32) {
	w := f.words[rank]
	if s, ok := f.synonyms[w]; ok {
		w = s
	}
	for j := range dst {
		h := fnv.New32a()
		h.Write([]byte{byte(j)})
		h.Write([]byte(w))
		dst[j] += weight * (float32(h.Sum32()%1000)/1000 - 0.5)
	}
}

// jokesFAQ is phrasedFAQ(22, 3) (66 items, so matched by meaning, with no classifier) and an
// answer about jokes whose questions share no word, nor a character 3-gram, with "amuse".
func jokesFAQ() []FAQ {
	return append(phrasedFAQ(22, 3),
		FAQ{ID: "joke-1", Question: "tell me a joke", Answer: "jokes"},
		FAQ{ID: "joke-2", Question: "i want to hear a joke", Answer: "jokes"},
		FAQ{ID: "joke-3", Question: "say something funny", Answer: "jokes"})
}

// jokesWords has a vector for every word of jokesFAQ, "laugh" and "amuse" meaning what "joke"
// and "funny" mean.
func jokesWords() *fakeWords {
	words := []string{"the", "me", "my", "with", "now", "about", "how", "do", "check", "tell",
		"what", "is", "need", "help", "show", "details", "where", "can", "see", "want", "to", "hear",
		"say", "something", "make", "joke", "funny", "laugh", "amuse"}
	for _, f := range phrasedFAQ(22, 1) {
		words = append(words, f.Answer[len("answer about "):])
	}
	return newFakeWords(words, map[string]string{"laugh": "joke", "funny": "joke", "amuse": "joke"})
}

func TestMeaningMatchesQuestionsThatShareNoWord(t *testing.T) {
	faqs := jokesFAQ()
	for _, c := range []struct {
		name  string
		words WordVectors
		want  string // the first FAQ hit's answer, "" for none
	}{
		{"with word vectors", jokesWords(), "jokes"},
		{"without", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix := NewIndex(nil, faqs, lightStemmer{}, c.words)
			got := ""
			for _, h := range ix.Search("amuse", nil, 5) {
				if h.Kind == KindFAQ {
					got = h.FAQ.Answer
					if h.Confidence <= 0 {
						t.Errorf("confidence %v, want > 0", h.Confidence)
					}
					break
				}
			}
			if got != c.want {
				t.Errorf("first FAQ answer for %q = %q, want %q", "amuse", got, c.want)
			}
		})
	}
}

func TestMeaningOnlyForLargeEnglishFAQs(t *testing.T) {
	pt := make([]FAQ, 0, 60)
	for _, f := range phrasedFAQ(20, 3) {
		pt = append(pt, FAQ{ID: f.ID, Question: "Qual é o horário da loja " + f.ID + "?", Answer: f.Answer})
	}
	for _, c := range []struct {
		name string
		faqs []FAQ
		used bool
	}{
		{"large English FAQ", jokesFAQ(), true},
		{"fewer items than denseMinItems", jokesFAQ()[:denseMinItems-1], false},
		{"Portuguese FAQ", pt, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			words := jokesWords()
			ix := NewIndex(nil, c.faqs, lightStemmer{}, words)
			ix.Search("amuse", nil, 5)
			if used := words.lookups > 0; used != c.used {
				t.Errorf("word vectors looked up %d times; want used %v", words.lookups, c.used)
			}
		})
	}
}

func TestMeaningOfText(t *testing.T) {
	d := &denseSpace{wv: jokesWords(), dims: 64}
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"make me laugh", true},
		{"Make me LAUGH!", true},
		{"make me laugh, señor zorro", false}, // 2 content words of 4 have a vector
		{"Há estacionamento?", false},         // "ha" alone is not enough
		{"how do i", false},                   // stop words only
		{"", false},
	} {
		v, ok := d.embed(foldWords(c.text))
		if ok != c.ok {
			t.Errorf("embed(%q) ok = %v, want %v", c.text, ok, c.ok)
		}
		if len(v) != 64 {
			t.Errorf("embed(%q) has %d values, want 64", c.text, len(v))
		}
	}
}

func TestPrincipalComponent(t *testing.T) {
	// Points along (1, 2, 0) with a little spread across it: the component is ±(1, 2, 0)/√5.
	raw := [][]float32{{1, 2, 0.1}, {-1, -2, -0.1}, {2, 4, -0.1}, {-2, -4, 0.1}, nil}
	pc := principal(raw, []float32{0, 0, 0}, 3)
	want := []float64{1 / math.Sqrt(5), 2 / math.Sqrt(5), 0}
	sign := math.Copysign(1, float64(pc[0]))
	for j := range want {
		if math.Abs(sign*float64(pc[j])-want[j]) > 0.02 {
			t.Fatalf("principal component %v, want ±%v", pc, want)
		}
	}
	if principal([][]float32{{1, 1}, {1, 1}}, []float32{1, 1}, 2) != nil {
		t.Error("points that do not vary have a principal component")
	}
}
