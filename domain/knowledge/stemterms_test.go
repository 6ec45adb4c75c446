package knowledge

import (
	"strings"
	"testing"
)

// verbStemmer strips, as the Snowball stemmers of Portuguese and Spanish do, the endings of a
// verb's forms ("amos", "am", "ar") and a final "o".
type verbStemmer struct{}

func (verbStemmer) Stem(word, _ string) string {
	for _, suffix := range []string{"amos", "am", "ar", "an", "o"} {
		if s, ok := strings.CutSuffix(word, suffix); ok && len(s) >= 3 {
			return s
		}
	}
	return word
}

// TestStemKnown: a form of a verb that Tokens' light stemming does not join to the Brain's word
// counts in BM25 as that word's term (stemKnown), unless a word of another stem is as near it
// (nearest) or more than stemSuffix letters follow the stem.
func TestStemKnown(t *testing.T) {
	pages := func(texts ...string) *Index {
		docs := make([]Doc, len(texts))
		for i, text := range texts {
			docs[i] = Doc{Chunk: Chunk{ID: string(rune('a' + i)), URL: "https://loja.example/p", Title: "Informações", Text: text}}
		}
		return NewIndex(docs, nil, verbStemmer{}, nil)
	}
	for _, c := range []struct {
		pages    []string
		question string
		unknown  int // of the question's terms after stemKnown
	}{
		{[]string{"Aceitamos Pix, cartão de débito e cartão de crédito na loja.", "Os cães são bem-vindos na esplanada da nossa loja."}, "vocês aceitam pix?", 0},
		// "compram" is nearer "compramos" than "comprovante", a word of another stem.
		{[]string{"Compramos livros usados em bom estado na nossa loja.", "Guarde o comprovante da compra na nossa loja."}, "vocês compram livros?", 0},
		// "pagar" is as near "pagamento", another stem, as "pagam": it may mean either.
		{[]string{"As faltas sem aviso pagam uma taxa de 20 reais na loja.", "O pagamento é feito com Pix ou cartão na nossa loja."}, "posso pagar no pix?", 1},
		// "estacionamento" is no form of "estaciono".
		{[]string{"Eu estaciono o carro na rua ao lado da nossa loja.", "Os cães são bem-vindos na esplanada da nossa loja."}, "tem estacionamento?", 1},
	} {
		ix := pages(c.pages...)
		if ix.faq.lang != "pt" {
			t.Fatalf("%q: the Brain read as %q", c.question, ix.faq.lang)
		}
		q := ix.faq.parse(c.question)
		known, unknown := ix.lookup(Tokens(c.question))
		if ix.stemTerms != nil && q.lang == ix.faq.lang {
			known, unknown = ix.stemKnown(q, known, unknown)
		}
		if unknown != c.unknown {
			t.Errorf("%q: %d unknown terms (known %v), want %d", c.question, unknown, known, c.unknown)
		}
	}
}
