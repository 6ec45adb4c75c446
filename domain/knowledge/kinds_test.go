package knowledge

import (
	"slices"
	"testing"
)

// TestPhraseKinds checks that a sentence naming a kind of the question's phrase ("Advanced Open
// Water" for "open water") is marked when a sibling names the phrase plain, and only then.
func TestPhraseKinds(t *testing.T) {
	for _, c := range []struct {
		lang, question string
		sentences      []string
		want           []bool
	}{
		{"es", "precio curso open water", []string{
			"El curso Open Water Diver (PADI) dura 4 días y cuesta 420 €.",
			"El curso Advanced Open Water cuesta 330 €.",
		}, []bool{false, true}},
		{"en", "how much is the yoga teacher training", []string{
			"Our Yoga Teacher Training runs for 200 hours and costs $2,900.",
			"Advanced Yoga Teacher Training (300 hours) costs $3,400.",
		}, []bool{false, true}},
		{"pt", "quanto custa o corte feminino", []string{
			"O corte feminino custa 80 reais.",
			"O Mega Corte Feminino com escova custa 150 reais.",
		}, []bool{false, true}},
		// The question says the kind: not marked.
		{"es", "precio advanced open water", []string{
			"El curso Open Water Diver (PADI) dura 4 días y cuesta 420 €.",
			"El curso Advanced Open Water cuesta 330 €.",
		}, nil},
		// No sibling names the phrase plain: not marked.
		{"es", "precio curso open water", []string{
			"El curso Advanced Open Water cuesta 330 €.",
			"Salimos en barco a las 9:00.",
		}, nil},
		// A word before the phrase that is no part of a name with it (lower case, or parted by
		// a comma): not marked.
		{"en", "where's the car park exactly", []string{
			"Our Park & Ride car park is on Shadow Moss Road.",
			"The car park is open all night.",
		}, nil},
		{"es", "quiero ir al eje cafetero", []string{
			"Tenemos planes a Cartagena, Eje Cafetero y San Andrés.",
			"El plan al Eje Cafetero cuesta desde $980.000.",
		}, nil},
	} {
		m := &faqMatcher{lang: c.lang}
		sim := make([]float64, len(c.sentences))
		for i := range sim {
			sim[i] = 0.5
		}
		if got := phraseKinds(m.parse(c.question), c.sentences, sim); !slices.Equal(got, c.want) {
			t.Errorf("phraseKinds(%q, %q) = %v, want %v", c.question, c.sentences, got, c.want)
		}
	}
}
