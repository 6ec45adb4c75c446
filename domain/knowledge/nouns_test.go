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
	for lang, forms := range nounForms {
		for form := range forms {
			if _, stop := stopwords[foldWord(form)]; stop {
				t.Errorf("%s:%s is a stop word", lang, form)
			}
			if _, ok := verbLemma(form, lang); ok {
				t.Errorf("%s:%s is a verb's form too", lang, form)
			}
		}
	}
}
