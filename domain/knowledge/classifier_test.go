package knowledge

import (
	"fmt"
	"slices"
	"testing"
)

// phrasedFAQ returns answers × phrasings FAQ items: each answer asked about one thing of its own
// (things[g]) in phrasings that share all their other words with the other answers.
func phrasedFAQ(answers, phrasings int) []FAQ {
	things := []string{"balance", "invoice", "parcel", "password", "refund", "voucher", "warranty",
		"receipt", "battery", "ticket", "booking", "mortgage", "pension", "insurance", "salary",
		"charger", "blender", "jacket", "umbrella", "bicycle", "kettle", "ladder"}
	forms := []string{"how do i check the %s", "tell me about my %s", "what is the %s",
		"i need help with the %s now", "show me the %s details", "where can i see the %s"}
	var faqs []FAQ
	for g := range answers {
		for k := range phrasings {
			faqs = append(faqs, FAQ{ID: fmt.Sprintf("f%d-%d", g, k), Question: fmt.Sprintf(forms[k], things[g]), Answer: "answer about " + things[g]})
		}
	}
	return faqs
}

func TestClassifierTrainedOnlyWithEnoughPhrasings(t *testing.T) {
	for _, c := range []struct {
		answers, phrasings int
		trained            bool
	}{
		{20, 5, true},
		{22, 6, true},
		{19, 6, false}, // too few answers
		{22, 4, false}, // too few phrasings of each
		{3, 1, false},
	} {
		m := newFAQMatcher(phrasedFAQ(c.answers, c.phrasings), "", nil, nil)
		if got := m.cls != nil; got != c.trained {
			t.Errorf("%d answers × %d phrasings: trained %v, want %v", c.answers, c.phrasings, got, c.trained)
		}
	}
}

func TestClassifierPredicts(t *testing.T) {
	m := newFAQMatcher(phrasedFAQ(22, 6), "", nil, nil)
	if m.cls == nil {
		t.Fatal("no classifier trained")
	}
	for _, c := range []struct {
		query string
		want  int32 // the answer: the thing's index in phrasedFAQ
	}{
		{"parcel", 2},
		{"could you tell me the state of my mortgage", 11},
		{"the kettle details please", 20},
		{"my ladder", 21},
	} {
		p := m.cls.predict(m, m.features(c.query), nil, nil)
		best := int32(slices.Index(p, slices.Max(p)))
		if best != c.want || p[best] < 0.5 {
			t.Errorf("%q: answer %d with probability %.2f, want answer %d above 0.5", c.query, best, p[best], c.want)
		}
		sum := 0.0
		for _, v := range p {
			sum += v
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("%q: probabilities sum to %f", c.query, sum)
		}
	}
	// Words every answer shares tell none apart.
	p := m.cls.predict(m, m.features("show me the details"), nil, nil)
	if slices.Max(p) > 0.2 {
		t.Errorf("a question of shared words only: best probability %.2f, want a flat spread", slices.Max(p))
	}
}
