package knowledge

import (
	"math"
	"testing"
)

func TestCoverage(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "We offer hatha yoga, vinyasa and pilates.", Answer: "0"},
		{Question: "Each class lasts 75 minutes.", Answer: "1"},
		{Question: "Pilates mats are free for every class.", Answer: "2"},
	}, "We offer hatha yoga, vinyasa and pilates. Each class lasts 75 minutes.", nil, nil, sentenceStopWeight)
	cov := m.coverage(m.parse("do you do pilates"))
	if len(cov) != 3 || math.Abs(cov[0]-1) > 1e-9 || math.Abs(cov[2]-1) > 1e-9 || cov[1] != 0 {
		t.Errorf(`coverage("do you do pilates") = %v, want [1 0 1]: "do" is a light word, "you" a stop word`, cov)
	}
	cov = m.coverage(m.parse("pilates class"))
	if len(cov) != 3 || !(cov[0] > 0 && cov[0] < 1) || math.Abs(cov[2]-1) > 1e-9 || !(cov[1] > 0 && cov[1] < 1) {
		t.Errorf(`coverage("pilates class") = %v, want the third sentence whole, the others in part`, cov)
	}
	// A word no sentence holds counts against every sentence, but covers none: "pilates class
	// tomorrow" is two thirds covered at most; "job openings" has half its words unknown.
	cov = m.coverage(m.parse("pilates class tomorrow"))
	if len(cov) != 3 || !(cov[2] > 0.5 && cov[2] < 1) || !(cov[0] > 0 && cov[0] < cov[2]) {
		t.Errorf(`coverage("pilates class tomorrow") = %v, want the third sentence most, under 1`, cov)
	}
	// A day of the week no sentence names is no word the Brain lacks: "pilates on saturday" is
	// the pilates sentences' question whole, as "pilates" is.
	if cov := m.coverage(m.parse("pilates on saturday")); len(cov) != 3 || math.Abs(cov[0]-1) > 1e-9 || math.Abs(cov[2]-1) > 1e-9 || cov[1] != 0 {
		t.Errorf(`coverage("pilates on saturday") = %v, want [1 0 1]`, cov)
	}
	for _, q := range []string{"do you have any job openings", "do you do", "hello", "pilates for toddlers tomorrow"} {
		if cov := m.coverage(m.parse(q)); cov != nil {
			t.Errorf("coverage(%q) = %v, want nil (half its content words in no sentence, or no content word)", q, cov)
		}
	}
	// A word no sentence holds is covered by its synonyms' own content words (the thesaurus):
	// "weekdays" by "Monday to Friday", but "job" not by "work" (a light word of "work for you").
	m = newMatcher([]FAQ{
		{Question: "We are open Monday to Friday from 8am to 6pm.", Answer: "0"},
		{Question: "We work with local farms.", Answer: "1"},
	}, "We are open Monday to Friday from 8am to 6pm. We work with local farms.", nil, nil, sentenceStopWeight)
	if cov := m.coverage(m.parse("hours on weekdays")); len(cov) != 2 || math.Abs(cov[0]-1) > 1e-9 || cov[1] != 0 {
		t.Errorf(`coverage("hours on weekdays") = %v, want [1 0]`, cov)
	}
	if cov := m.coverage(m.parse("any jobs")); cov != nil {
		t.Errorf(`coverage("any jobs") = %v, want nil`, cov)
	}
	// The words of a phrase of the thesaurus are covered by the phrase's synonyms too: "indoor
	// bike" by "spinning", its "bike" by "bike" as well.
	m = newMatcher([]FAQ{
		{Question: "Spinning runs at 7am.", Answer: "0"},
		{Question: "Rent a bike for $25.", Answer: "1"},
	}, "Spinning runs at 7am. Rent a bike for $25.", nil, nil, sentenceStopWeight)
	if cov := m.coverage(m.parse("is there indoor bike")); len(cov) != 2 || math.Abs(cov[0]-1) > 1e-9 || !(cov[1] > 0 && cov[1] < 1) {
		t.Errorf(`coverage("is there indoor bike") = %v, want [1 (0, 1)]`, cov)
	}
	// A number of the customer's (an age, a group size) is no content word: the Brain states
	// quantities in its own terms ("over 70").
	m = newMatcher([]FAQ{
		{Question: "Pensioners over 70 get 10% off labour.", Answer: "0"},
		{Question: "Call-outs cost £60.", Answer: "1"},
	}, "Pensioners over 70 get 10% off labour. Call-outs cost £60.", nil, nil, sentenceStopWeight)
	for _, q := range []string{"im 74, pensioners?", "pensioners 74 75"} {
		if cov := m.coverage(m.parse(q)); len(cov) != 2 || math.Abs(cov[0]-1) > 1e-9 || cov[1] != 0 {
			t.Errorf(`coverage(%q) = %v, want [1 0]`, q, cov)
		}
	}
}

// TestCoveringFAQ checks which FAQ item of a small Brain holds every content word of a question
// in its question and answer (or their synonyms), alone of the items, and that a page titled
// with them takes the question from it.
func TestCoveringFAQ(t *testing.T) {
	docs, faqs := clinicWithReturns()
	ix := NewIndex(docs, faqs, lightStemmer{}, nil)
	for _, c := range []struct {
		query, want string
	}{
		{"do you take aetna", "insurance"},
		{"aetna and cigna?", "insurance"},
		{"laughing gas", ""},           // two items hold it
		{"do you take medicare", ""},   // no item holds it
		{"where are you located", ""},  // no content word
		{"can i return something", ""}, // the page "Returns" is about it
		{"how much is a kit", "kits"},
		{"installments?", "finance"}, // by its synonyms (the page's "instalments" is not an item)
	} {
		got := ""
		if f, _ := ix.coveringFAQ(ix.contentTerms(ix.faq.parse(c.query))); f >= 0 {
			got = ix.faqs[f].ID
		}
		if got != c.want {
			t.Errorf("coveringFAQ(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

// TestHeld checks Hit.Held: the share of a question's content words that a chunk's text or an
// FAQ item's question and answer hold, a word the Brain does not hold counting as held by none.
func TestHeld(t *testing.T) {
	docs := pageDocs(clinicPages)
	faqs := []FAQ{
		{ID: "cancel", Question: "How do I cancel my appointment?", Answer: "Call us a day ahead."},
		{ID: "insurance", Question: "Which insurance do you accept?", Answer: "Most dental insurers, including Aetna."},
	}
	ix := NewIndex(docs, faqs, lightStemmer{}, nil)
	for _, c := range []struct {
		query, id string
		want      float64
	}{
		{"can i cancel my whitening appointment", "cancel", 2.0 / 3},  // cancel, appointment; not whitening
		{"can i cancel my whitening appointment", "page1-0", 1.0 / 3}, // whitening
		{"do you take aetna", "insurance", 1},
		{"do you take aetna", "page1-0", 0},
		{"insurance for my llama", "insurance", 0.5}, // llama: in no entry, held by none
		// A run of words in no entry names one thing: "pygmy llama" is one word held by none.
		{"insurance for my pygmy llama", "insurance", 0.5},
		{"insurance for my pygmy old llama", "insurance", 0.5}, // "old" is no content word
		{"pygmy insurance llama", "insurance", 1.0 / 3},        // two things, apart
	} {
		var got float64 = -1
		for _, h := range ix.Search(c.query, nil, 10) {
			if h.FAQ.ID == c.id || h.Kind == KindChunk && h.Chunk.ID == c.id {
				got = h.Held
			}
		}
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Held(%q, %s) = %.3f, want %.3f", c.query, c.id, got, c.want)
		}
	}
}

// TestFunctionWords: the words of grammar of each language (functionWords) are no content words,
// in their own language only, and a sentence then covers the question's words as if the customer
// had not typed them.
func TestFunctionWords(t *testing.T) {
	for _, tt := range []struct {
		word, lang string
		content    bool
	}{
		{"ai", "pt", false},  // "aí"
		{"pra", "pt", false}, // "para"
		{"algum", "pt", false},
		{"mim", "pt", false},
		{"estacionar", "pt", true},
		{"ahi", "es", false},
		{"solo", "es", false}, // "only"
		{"solo", "en", true},  // "solo walks"
		{"anywhere", "en", false},
		{"someone", "en", false},
		{"shower", "en", true},
		{"someone", "es", true}, // another language's word is read as it is
	} {
		if got := contentWord(tt.word, tt.lang); got != tt.content {
			t.Errorf("contentWord(%q, %q) = %v, want %v", tt.word, tt.lang, got, tt.content)
		}
	}
	m := newMatcher([]FAQ{
		{Question: "Não temos estacionamento próprio; o parque público fica a 5 minutos a pé.", Answer: "0"},
		{Question: "As aulas são de segunda a sexta.", Answer: "1"},
	}, "Não temos estacionamento próprio; o parque público fica a 5 minutos a pé. As aulas são de segunda a sexta.", nil, nil, sentenceStopWeight)
	// "aí" was a word no sentence holds, half the question's: its coverage was nil.
	if cov := m.coverage(m.parse("dá para estacionar aí?")); len(cov) != 2 || math.Abs(cov[0]-1) > 1e-9 || cov[1] != 0 {
		t.Errorf(`coverage("dá para estacionar aí?") = %v, want [1 0]`, cov)
	}
}

// TestUnknownRun: adjacent words of a question that no sentence holds name one thing ("shih
// tzu"), and count as one word held by none, against the coverage and in its choice of nil.
func TestUnknownRun(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "Banho para cães de porte pequeno: R$ 55.", Answer: "0"},
		{Question: "A diária do hotel custa R$ 90.", Answer: "1"},
	}, "Banho para cães de porte pequeno: R$ 55. A diária do hotel custa R$ 90.", nil, nil, sentenceStopWeight)
	for _, tt := range []struct {
		query string
		nil   bool
	}{
		{"qto custa o banho de um shih tzu pequeno", false}, // banho, pequeno and one unknown
		{"qto custa o banho de um shih pequeno tzu", true},  // two unknowns apart: half
		{"shih tzu", true},
	} {
		cov := m.coverage(m.parse(tt.query))
		if (cov == nil) != tt.nil {
			t.Errorf("coverage(%q) = %v, want nil %v", tt.query, cov, tt.nil)
		}
		if cov != nil && !(cov[0] > 0.5 && cov[0] < 1) {
			t.Errorf("coverage(%q) = %v, want the bath's sentence most, under 1", tt.query, cov)
		}
	}
}

// TestCoverageUnder: an item standing under another (a page's sentence under its title) holds
// too the query's words that item holds, and only those; nil heading is coverage.
func TestCoverageUnder(t *testing.T) {
	m := newMatcher([]FAQ{
		{Question: "MOT and servicing", Answer: "0"},
		{Question: "The test takes about 45 minutes.", Answer: "1"},
		{Question: "For an MOT we usually have a slot within two days.", Answer: "2"},
		{Question: "Tyre repair", Answer: "3"},
		{Question: "A puncture repair takes 30 minutes.", Answer: "4"},
	}, "MOT and servicing. The test takes about 45 minutes. For MOTs we have a slot within two days.", nil, nil, sentenceStopWeight)
	under := []int{-1, 0, -1, -1, 3} // sentences 1 and 4 stand under titles 0 and 3
	for _, tt := range []struct {
		query   string
		heading func(int) int
		want    []float64
	}{
		{"how long does the mot take", nil, []float64{1, 0, 1, 0, 0}},
		{"how long does the mot take", func(i int) int { return under[i] }, []float64{1, 1, 1, 0, 0}},
		// Both the title and the sentence hold "mot" or "test": each word held once, never over 1.
		{"mot test", func(i int) int { return under[i] }, []float64{-1, 1, -1, 0, 0}},
		// A title holding none of the words lends nothing.
		{"how long does a repair take", func(i int) int { return under[i] }, []float64{0, 0, 0, 1, 1}},
	} {
		got := m.coverageUnder(m.parse(tt.query), tt.heading)
		if len(got) != len(tt.want) {
			t.Fatalf("coverageUnder(%q) = %v", tt.query, got)
		}
		for i, w := range tt.want {
			if w >= 0 && math.Abs(got[i]-w) > 1e-9 {
				t.Errorf("coverageUnder(%q, heading %v): item %d = %.3f, want %.3f (all %v)", tt.query, tt.heading != nil, i, got[i], w, got)
			}
		}
		if tt.heading != nil && got[1] > 1+1e-9 {
			t.Errorf("coverageUnder(%q): %v over 1", tt.query, got)
		}
	}
}

// clinicWithReturns is the clinic's pages with a page of returns, and FAQ items of which some
// share words (laughing gas, kits).
func clinicWithReturns() ([]Doc, []FAQ) {
	docs := pageDocs(append(clinicPages[:len(clinicPages):len(clinicPages)], Page{URL: "https://clinic.example/returns", Title: "Returns", Content: "Unopened whitening kits can be returned within 14 days."}))
	faqs := []FAQ{
		{ID: "insurance", Question: "Which insurance do you accept?", Answer: "Most dental insurers, including Aetna and Cigna."},
		{ID: "sedation", Question: "Do you offer sedation?", Answer: "Yes, laughing gas for anxious patients."},
		{ID: "kits", Question: "Do you sell whitening kits?", Answer: "Yes, $40; unopened kits can be returned."},
		{ID: "gas", Question: "Is laughing gas safe?", Answer: "Yes, it wears off in minutes."},
		{ID: "finance", Question: "Do you offer financing?", Answer: "Yes, for treatments over $500."},
	}
	return docs, faqs
}

// TestAskingKept: the words of "cuánto sale" and "quanto sai" ask a price, but "sale" and "sai"
// alone stay content words ("mi vuelo sale a las 20h").
func TestAskingKept(t *testing.T) {
	for _, c := range []struct {
		lang, word string
		asking     bool
	}{
		{"es", "cuanto", true},
		{"es", "sale", false},
		{"pt", "qnto", true},
		{"pt", "sai", false},
	} {
		if got := askingWord(c.word, c.lang); got != c.asking {
			t.Errorf("%s %q: asking %v, want %v", c.lang, c.word, got, c.asking)
		}
	}
}
