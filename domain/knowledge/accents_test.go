package knowledge

import (
	"strings"
	"testing"
)

// accentStemmer strips, as the Snowball stemmers of Spanish and Portuguese do, suffixes that are
// written with an accent ("ión", "áis", "ção", "ável") and the plain "as" and "es", but not the
// same endings typed without their accent.
type accentStemmer struct{}

func (accentStemmer) Stem(word, _ string) string {
	for _, suffix := range []string{"ciones", "ción", "iones", "ión", "áis", "éis", "ções", "ção", "ável", "ível", "ência", "as", "es"} {
		if s, ok := strings.CutSuffix(word, suffix); ok && len(s) >= 3 {
			return s
		}
	}
	return word
}

func TestSpellAccents(t *testing.T) {
	m := &faqMatcher{stem: accentStemmer{}}
	for _, c := range []struct {
		typed, written, lang string
	}{
		{"habitacion", "habitación", "es"},
		{"recepcion", "recepción", "es"},
		{"trabajais", "trabajáis", "es"},
		{"devolveis", "devolvéis", "es"},
		{"tenes", "tenés", "es"}, // the voseo: "tenés" as "tenes", whose "es" is stripped
		{"despues", "después", "es"},
		{"informacao", "informação", "pt"},
		{"marcacoes", "marcações", "pt"},
		{"disponivel", "disponível", "pt"},
		{"experiencia", "experiência", "pt"},
	} {
		if got, want := m.stemWord(c.typed, c.lang), m.stemWord(c.written, c.lang); got != want {
			t.Errorf("%s %q: stem %q, but %q has %q", c.lang, c.typed, got, c.written, want)
		}
	}
	// Words whose ending's accent is not certain, or too short, are left as typed.
	for _, c := range []struct{ word, lang string }{
		{"gratis", "es"}, {"farmacia", "es"}, {"ion", "es"}, {"cao", "pt"}, {"station", "en"}, {"cancion", "pt"},
	} {
		if got := spellAccents(c.word, c.lang); got != c.word {
			t.Errorf("spellAccents(%q, %s) = %q, want it as typed", c.word, c.lang, got)
		}
	}
}
