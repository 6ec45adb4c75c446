package knowledge

import "testing"

// TestNounSingular checks that an irregular plural is stemmed as its singular, by the matchers'
// stemmer (stemWord) and by Tokens' light rules (English), so meets it, and that other words
// do not.
func TestNounSingular(t *testing.T) {
	cases := []meetCase{
		{"en", "children", "child", true},
		{"en", "childrens", "child", true}, // "children's", the apostrophe dropped
		{"en", "kid", "child", false},      // the thesaurus's pair, not the table's
		{"en", "people", "person", true},
		{"en", "women", "woman", true},
		{"en", "womens", "woman", true},
		{"en", "men", "man", true},
		{"en", "teeth", "tooth", true},
		{"en", "feet", "foot", true},
		{"en", "knives", "knife", true},
		{"es", "lápices", "lápiz", true},
		{"es", "lapices", "lápiz", true},
		{"es", "exámenes", "examen", true},
		{"es", "imagenes", "imagen", true},
		{"es", "caracteres", "carácter", true},
		// Left out: a plural that is also a verb's form; words of no table.
		{"en", "leaves", "leaf", false},
		{"en", "women", "man", false},
		{"en", "people", "persona", false},
		{"pt", "pessoas", "person", false},
	}
	checkMeet(t, &faqMatcher{stem: lightStemmer{}}, cases)
	for _, c := range cases {
		if a, b := stem(c.a), stem(c.b); c.lang == "en" && (a == b) != c.meet {
			t.Errorf("stem: %q is %q, %q is %q: meet %v, want %v", c.a, a, c.b, b, a == b, c.meet)
		}
	}
	checkForms(t, nounForms, nil)
}

// TestActionVerb checks that the noun of a verb's action whose root differs from the verb's is
// stemmed as the verb, so meets it, and that other words of the same root do not.
func TestActionVerb(t *testing.T) {
	cases := []meetCase{
		{"es", "impresión", "imprimir", true},
		{"es", "impresiones", "imprimir", true},
		{"es", "impresion", "imprimir", true}, // as Tokens folds it
		{"es", "inscripción", "inscribir", true},
		{"es", "devoluciones", "devolver", true},
		{"es", "traducción", "traducir", true},
		{"pt", "impressão", "imprimir", true},
		{"pt", "impressoes", "imprimir", true},
		{"pt", "inscrição", "inscrever", true},
		{"pt", "devolução", "devolver", true},
		{"pt", "subscrição", "subscrever", true},
		// Left out: the machine, not the action; another language's noun; English (its
		// stemmer's "delivery" and "deliver" stay apart: joined, no answer changed).
		{"es", "impresora", "imprimir", false},
		{"pt", "impressora", "imprimir", false},
		{"en", "impresión", "imprimir", false},
		{"en", "delivery", "deliver", false},
	}
	checkMeet(t, &faqMatcher{stem: lightStemmer{}}, cases)
	checkForms(t, actionVerbs, nounForms)
}

// checkForms checks a table of forms (formTables): none is a stop word, a verb's form (verbForms)
// or a form of other (nil for none).
func checkForms(t *testing.T, tables, other map[string]map[string]string) {
	t.Helper()
	for lang, forms := range tables {
		for form := range forms {
			if _, stop := stopwords[foldWord(form)]; stop {
				t.Errorf("%s:%s is a stop word", lang, form)
			}
			if _, ok := verbLemma(form, lang); ok {
				t.Errorf("%s:%s is a verb's form too", lang, form)
			}
			if _, ok := other[lang][form]; ok {
				t.Errorf("%s:%s is in the other table too", lang, form)
			}
		}
	}
}
