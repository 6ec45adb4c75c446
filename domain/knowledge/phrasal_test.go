package knowledge

import (
	"slices"
	"testing"
)

func TestPhrasalVerbs(t *testing.T) {
	texts := []string{
		"Each month we pick a different single origin.",
		"Drop off your laptop any time we are open.",
		"We set up new computers.",
	}
	m := newMatcher([]FAQ{{Question: texts[0], Answer: "0"}}, texts[0]+" "+texts[1], nil, nil, sentenceStopWeight)
	known := m.phrasalVerbs(texts)
	for _, c := range []struct {
		query string
		// left: the stem features left out of the sentences' query (turned into a key no
		// sentence holds); kept: those kept as they are.
		left, kept []string
	}{
		// "pick up" is no "pick": the Brain writes "pick" alone only.
		{"can I pick up my order?", []string{"wpick"}, []string{"worder"}},
		// Written apart or as one ("pickup"), the Brain's phrasal verbs stand.
		{"can I drop off my laptop?", nil, []string{"wdrop", "wlaptop"}},
		{"can you set up my printer", nil, []string{"wset", "wprinter"}},
		{"can you pick up my bike", []string{"wpick"}, []string{"wbike"}},
		// A verb without its particle, and a particle after a stop word, are themselves.
		{"which coffee do you pick", nil, []string{"wpick", "wcoffee"}},
		{"is it up to date", nil, nil},
		// Other particles than "up" and "off" keep their verb ("find out", "sent out").
		{"can you find out what's wrong", nil, []string{"wfind"}},
	} {
		q := m.parse(c.query)
		raw := m.queryFeatures(nil, q)
		got := withoutPhrasal(q, raw, known)
		for _, k := range c.left {
			if !slices.ContainsFunc(raw, func(f feature) bool { return f.key == k }) {
				t.Fatalf("%q: no feature %s to leave out", c.query, k)
			}
			if slices.ContainsFunc(got, func(f feature) bool { return f.key == k }) {
				t.Errorf("withoutPhrasal(%q) kept %s", c.query, k)
			}
			if !slices.ContainsFunc(got, func(f feature) bool { return f.key == k+" phrasal" }) {
				t.Errorf("withoutPhrasal(%q) dropped %s from the question's length", c.query, k)
			}
		}
		for _, k := range c.kept {
			if !slices.ContainsFunc(got, func(f feature) bool { return f.key == k }) {
				t.Errorf("withoutPhrasal(%q) left out %s", c.query, k)
			}
		}
		if len(c.left) == 0 && !slices.Equal(got, raw) {
			t.Errorf("withoutPhrasal(%q) changed the features", c.query)
		}
		terms := Tokens(c.query)
		gotTerms := withoutPhrasalTerms(q, terms, known)
		if len(c.left) == 0 && !slices.Equal(gotTerms, terms) {
			t.Errorf("withoutPhrasalTerms(%q) = %v, want %v", c.query, gotTerms, terms)
		}
		if len(c.left) > 0 && (len(gotTerms) != len(terms) || slices.Equal(gotTerms, terms)) {
			t.Errorf("withoutPhrasalTerms(%q) = %v: want the verb's term marked, none dropped", c.query, gotTerms)
		}
	}
	// Written as one ("pickup", "pick-up"), the Brain writes the phrasal verb too.
	for _, text := range []string{"Free pickup in town.", "Pick-up from 9am.", "Pick up your order at the desk."} {
		q := m.parse("can I pick up my order?")
		raw := m.queryFeatures(nil, q)
		if got := withoutPhrasal(q, raw, m.phrasalVerbs([]string{text})); !slices.Equal(got, raw) {
			t.Errorf("withoutPhrasal with the Brain's %q changed the features", text)
		}
	}
	// A Brain not in English: no phrasal verbs, nothing left out.
	pt := newMatcher([]FAQ{{Question: "Fazemos a recolha da encomenda na loja.", Answer: "0"}}, "Fazemos a recolha da encomenda na loja. Entregamos em casa.", nil, nil, sentenceStopWeight)
	if got := pt.phrasalVerbs([]string{"pick up"}); got != nil {
		t.Errorf("phrasalVerbs of a Portuguese Brain = %v, want nil", got)
	}
}
