package knowledge

import (
	"strings"
	"testing"
)

// TestVerbLemma checks that a verb's irregular forms are stemmed as its infinitive, so meet its
// regular ones, and that the forms left out (a noun, another verb's form, a light verb) are not.
func TestVerbLemma(t *testing.T) {
	checkMeet(t, &faqMatcher{stem: lightStemmer{}}, []meetCase{
		// Spanish roots that change are left out (measured on the blind splits: a wrong answer
		// for the right one gained).
		{"es", "pierde", "perder", false},
		{"es", "cuentan", "contar", false},
		// Spanish -zco, and participles not of -ado, -ido.
		{"es", "conduzco", "conducir", true},
		{"es", "condujo", "conducir", true},
		{"es", "ofrezcan", "ofrecer", true},
		{"es", "rota", "romper", true},
		{"es", "cubiertos", "cubrir", true},
		{"es", "escrito", "escribir", true},
		{"es", "traigan", "traer", true},
		// English irregular verbs.
		{"en", "broke", "break", true},
		{"en", "broken", "break", true},
		{"en", "bought", "buy", true},
		{"en", "lost", "lose", true},
		{"en", "took", "take", true},
		{"en", "taken", "take", true},
		{"en", "brought", "bring", true},
		{"en", "kept", "keep", true},
		{"en", "sold", "sell", true},
		{"en", "wore", "wear", true},
		{"en", "worn", "wear", true},
		{"en", "chose", "choose", true},
		{"en", "forgot", "forget", true},
		{"en", "forgotten", "forget", true},
		{"en", "held", "hold", true},
		{"en", "shown", "show", true},
		{"en", "spoken", "speak", true},
		{"en", "driven", "drive", true},
		// Portuguese.
		{"pt", "trouxe", "trazer", true},
		{"pt", "traga", "trazer", true},
		{"pt", "perco", "perder", true},
		{"pt", "dói", "doer", true},
		{"pt", "doi", "doer", true},
		{"pt", "peço", "pedir", true},
		{"pt", "peco", "pedir", true},
		{"pt", "sirva", "servir", true},
		{"pt", "escrito", "escrever", true},
		// Left out: a noun or an adjective of its own, another verb's form, a light verb.
		{"es", "cuenta", "contar", false},
		{"es", "pienso", "pensar", false},
		{"es", "tienda", "tender", false},
		{"es", "vuelo", "volar", false},
		{"es", "juego", "jugar", false},
		{"es", "suelo", "soler", false},
		{"es", "muestra", "mostrar", false},
		{"es", "recuerdo", "recordar", false},
		{"es", "acuerdo", "acordar", false},
		{"es", "almuerzo", "almorzar", false},
		{"es", "siento", "sentir", false},
		{"es", "siento", "sentar", false},
		{"es", "fuerza", "forzar", false},
		{"es", "muela", "moler", false},
		{"es", "viste", "vestir", false},
		{"es", "consigo", "conseguir", false},
		{"es", "traje", "traer", false},
		{"es", "cubiertas", "cubrir", false},
		{"es", "tiene", "tener", false},
		{"es", "quiero", "querer", false},
		{"es", "vino", "venir", false},
		{"es", "hago", "hacer", false},
		{"en", "left", "leave", false},
		{"en", "saw", "see", false},
		{"en", "found", "find", false},
		{"en", "felt", "feel", false},
		{"en", "ground", "grind", false},
		{"en", "rose", "rise", false},
		{"en", "spoke", "speak", false},
		{"en", "led", "lead", false},
		{"en", "wound", "wind", false},
		{"en", "shot", "shoot", false},
		{"en", "stuck", "stick", false},
		{"en", "sent", "send", false},
		{"en", "paid", "pay", false},
		{"en", "made", "make", false},
		{"en", "went", "go", false},
		{"pt", "peça", "pedir", false},
		{"pt", "trago", "trazer", false},
		{"pt", "visto", "ver", false},
		{"pt", "feito", "fazer", false},
		{"pt", "aberto", "abrir", false},
		{"pt", "coberto", "cobrir", false},
	})
}

// meetCase is two words of a language, and whether the matchers' stemmer should stem them alike.
type meetCase struct {
	lang, a, b string
	meet       bool
}

// checkMeet checks that m stems each case's two words alike (stemWord) when they should meet, and
// apart when not.
func checkMeet(t *testing.T, m *faqMatcher, cases []meetCase) {
	t.Helper()
	for _, c := range cases {
		a, b := m.stemWord(c.a, c.lang), m.stemWord(c.b, c.lang)
		if (a == b) != c.meet {
			t.Errorf("%s: %q stems as %q, %q as %q: meet %v, want %v", c.lang, c.a, a, c.b, b, a == b, c.meet)
		}
	}
}

// TestVerbForms checks the table: no form is made for two verbs, none is excluded or a stop
// word, no verb is one left out whole, and each language holds its forms only.
func TestVerbForms(t *testing.T) {
	seen := map[string]string{}
	eachVerbForm(func(lang, form, verb string) {
		k := lang + ":" + form
		if v, ok := seen[k]; ok && v != verb {
			t.Errorf("%s is made for %s and %s", k, v, verb)
		}
		seen[k] = verb
		if _, out := verbExcluded[k]; out {
			t.Errorf("%s is excluded but made", k)
		}
		if _, out := verbExcluded[lang+":"+verb]; out {
			t.Errorf("%s: its verb %s is left out", k, verb)
		}
		if _, stop := stopwords[foldWord(form)]; stop {
			t.Errorf("%s is a stop word", k)
		}
		if _, stop := stopwords[foldWord(verb)]; stop {
			t.Errorf("%s: its verb %s is a stop word", k, verb)
		}
		if form != strings.ToLower(form) || strings.ContainsAny(form, " -") {
			t.Errorf("%s is not one lower-case word", k)
		}
	})
	if n := len(verbForms.en) + len(verbForms.es) + len(verbForms.pt); n != len(seen) {
		t.Errorf("verbForms holds %d forms, eachVerbForm makes %d", n, len(seen))
	}
	for _, c := range []struct{ lang, form, verb string }{
		{"es", "conduzco", "conducir"}, {"en", "bought", "buy"}, {"pt", "trouxe", "trazer"},
	} {
		if v, ok := verbLemma(c.form, c.lang); !ok || v != c.verb {
			t.Errorf("verbLemma(%q, %s) = %q, %v; want %q", c.form, c.lang, v, ok, c.verb)
		}
		for _, other := range []string{"en", "es", "pt"} {
			if _, ok := verbLemma(c.form, other); ok && other != c.lang {
				t.Errorf("verbLemma(%q, %s) holds a form of %s", c.form, other, c.lang)
			}
		}
	}
}
