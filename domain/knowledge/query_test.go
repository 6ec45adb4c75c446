package knowledge

import (
	"reflect"
	"testing"
)

// TestQueryFeatures checks that a query parsed once has the features its text has (the n-gram
// keys of a word sharing one string, its stems those wordKeys makes), and that the parse holds
// the language and the words the matchers read.
func TestQueryFeatures(t *testing.T) {
	m := newFAQMatcher([]FAQ{{Question: "Do you deliver on Sundays?", Answer: "a"}, {Question: "Onde ficam?", Answer: "b"}},
		"Do you deliver on Sundays?", lightStemmer{}, nil)
	for _, text := range []string{
		"Do you deliver to the US on Sundays?",
		"Onde ficam? Há estacionamento perto?",
		"¿Hacéis entregas a domicilio los domingos?",
		"a b 42 x9 I'm",
		"how do i",
		"",
	} {
		q := m.parse(text)
		if got, want := m.queryFeatures(nil, q), m.textFeatures(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: features %v, want %v", text, got, want)
		}
		if len(q.folded) != len(q.words) || len(q.stems) != len(q.words) {
			t.Errorf("%q: %d words, %d folded, %d stems", text, len(q.words), len(q.folded), len(q.stems))
		}
	}
	if q := m.parse("¿Hacéis entregas a domicilio?"); q.lang != "es" || q.padded != " haceis entregas a domicilio " || q.folded[0] != "haceis" || q.words[0] != "hacéis" {
		t.Errorf("parse: %+v", q)
	}
}

// questionIn returns a question in lang as the cues read it (query.cues, query.dayParts).
func questionIn(text, lang string) *query {
	return &query{text: text, lang: lang, padded: " " + NormalizeQuestion(text) + " "}
}
