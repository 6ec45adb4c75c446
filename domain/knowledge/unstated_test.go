package knowledge

import "testing"

// TestFactAsked checks the kinds of fact a question asks that Hit.Unstated weighs: a price or a
// duration, not a time of day, nor a duration asked by "when", nor a place.
func TestFactAsked(t *testing.T) {
	m := newFAQMatcher(nil, "", lightStemmer{}, nil)
	for _, tt := range []struct {
		query string
		want  cue
	}{
		{"how much are snow chains", cuePrice},
		{"necesito una 4x4, que precio tiene?", cuePrice},
		{"quanto tempo demora cada nível", cueDuration},
		{"how long does a level last", cueDuration},
		{"when will i get my refund", 0}, // a time of day as well
		{"abrem ao domingo?", 0},
		{"where are you located", 0},
		{"do you provide snow chains", 0},
	} {
		if got := m.parse(tt.query).factAsked(); got != tt.want {
			t.Errorf("factAsked(%q) = %05b, want %05b", tt.query, got, tt.want)
		}
	}
}

// TestUnstated checks Hit.Unstated: an FAQ item of a small Brain whose question does not ask,
// and whose answer does not state, the price or duration a question asks for.
func TestUnstated(t *testing.T) {
	docs := pageDocs([]Page{{URL: "https://cars.example/fleet", Title: "Fleet", Content: "Our SUVs cost $78 a day. Snow chains fit every SUV."}})
	faqs := []FAQ{
		{ID: "chains", Question: "Do you provide snow chains?", Answer: "Yes, free in winter for every SUV."},
		{ID: "chile", Question: "Can I drive to Chile?", Answer: "Yes, with a permit: it costs $90 per rental."},
		{ID: "level", Question: "Do you give a level certificate?", Answer: "Yes, at the end of each level."},
		{ID: "length", Question: "How long does a level last?", Answer: "A semester."},
	}
	ix := NewIndex(docs, faqs, lightStemmer{}, nil)
	for _, tt := range []struct {
		query, item string
		want        bool
	}{
		{"how much are snow chains", "chains", true},
		{"do you provide snow chains", "chains", false}, // no fact asked
		{"how much to drive to chile", "chile", false},  // the answer states a price
		{"how long is each level", "level", true},
		{"how long is each level", "length", false}, // the question asks a duration
		{"when do i get my level certificate", "level", false},
	} {
		if h, ok := itemHit(t, ix, tt.query, tt.item); ok && h.Unstated != tt.want {
			t.Errorf("Search(%q): %s Unstated %v, want %v", tt.query, tt.item, h.Unstated, tt.want)
		}
	}
}

// itemHit returns the hit of FAQ item id among the hits of a search, and reports an error when
// it is not among them.
func itemHit(t *testing.T, ix *Index, query, id string) (Hit, bool) {
	t.Helper()
	for _, h := range ix.Search(query, nil, 10) {
		if h.Kind == KindFAQ && h.FAQ.ID == id {
			return h, true
		}
	}
	t.Errorf("Search(%q): %s not among the hits", query, id)
	return Hit{}, false
}
