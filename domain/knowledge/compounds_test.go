package knowledge

import "testing"

func TestCompounds(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "We sign your logbook at the end of each lesson.", Answer: "0"},
		{Question: "Rent an ebike for $45 a day.", Answer: "1"},
	}, "We sign your logbook at the end of each lesson. Rent an ebike for $45 a day.", nil, nil, sentenceStopWeight)
	for _, c := range []struct {
		query string
		want  []string // the keys of the compounds found
	}{
		{"does it count in my log book", []string{"wlogbook"}},
		{"can i rent an e bike", []string{"webike"}},
		{"can i rent an ebike", nil},  // the query holds it already
		{"how long is a lesson", nil}, // no pair the items hold as one word
		{"is the book a log", nil},    // not adjacent in this order
	} {
		var got []string
		raw := m.textFeatures(c.query)
		for _, f := range m.compounds(m.parse(c.query), raw) {
			got = append(got, f.key)
		}
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
			t.Errorf("compounds(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

func TestSplits(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "E-bike diagnostics: 25 euros.", Answer: "0"},
		{Question: "A basic tune-up costs 35 euros; check-in at the desk.", Answer: "1"},
		{Question: "We sell pet food and car seats.", Answer: "2"},
	}, "E-bike diagnostics: 25 euros. A basic tune-up costs 35 euros; check-in at the desk. We sell pet food and car seats.", nil, nil, sentenceStopWeight)
	for _, c := range []struct {
		query string
		want  []string // the keys of the parts found
	}{
		{"do you do ebike repairs", []string{"wbike"}},
		{"how much for a tuneup", []string{"wtune"}},
		{"where is the checkin", []string{"wcheck"}},
		{"do you sell carpet", nil},         // two words of content are not split apart
		{"can i get a bike tune up", nil},   // written apart already
		{"how much is a diagnostics", nil},  // a word the items hold
		{"is there a button to press", nil}, // "butt" is no word of the items
	} {
		var got []string
		q := m.parse(c.query)
		for _, f := range m.splits(q, m.textFeatures(c.query)) {
			got = append(got, f.key)
		}
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
			t.Errorf("splits(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}
