package knowledge

import "testing"

// TestWordsExpand checks that an FAQ matched by its words only is matched with the synonyms of
// the question's words that its questions hold, and that the item asked in other words is then
// nearer; an FAQ with a classifier is matched as before.
func TestWordsExpand(t *testing.T) {
	faqs := []FAQ{
		{Question: "Do you do funeral and sympathy flowers?", Answer: "a"},
		{Question: "Can I include a message with the flowers?", Answer: "b"},
		{Question: "Do you sell plants?", Answer: "c"},
	}
	m := newFAQMatcher(faqs, "Do you do funeral and sympathy flowers? Can I include a message?", nil, nil)
	for _, c := range []struct {
		query    string
		expanded bool // whether synonyms some item holds are added
	}{
		{"my grandpa passed away, can you send something for the memorial", true},
		{"do you sell plants", false},
		{"what is the capital of france", false},
	} {
		raw := m.textFeatures(c.query)
		if got := len(m.wordsExpand(m.parse(c.query), raw)) > 0; got != c.expanded {
			t.Errorf("%q: expanded %v, want %v", c.query, got, c.expanded)
		}
	}
	q := "my grandpa passed away, can you send something for the memorial"
	sim, _, _ := m.match(m.parse(q), m.textFeatures(q), nil)
	plain := make([]float64, len(faqs))
	m.similarity(m.weigh(nil, m.textFeatures(q)), plain)
	if !(sim[0] > 2*plain[0]) || sim[2] > plain[2] {
		t.Errorf("%q: similarities %v, without synonyms %v: want the sympathy item's twice as high, the plants' no higher", q, sim, plain)
	}
	m.cls = &classifier{}
	if x := m.wordsExpand(m.parse(q), m.textFeatures(q)); x != nil {
		t.Errorf("with a classifier: synonyms %v, want none", x)
	}
}
