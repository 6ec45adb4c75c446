package knowledge

import (
	"slices"
	"strings"
	"testing"
)

func TestSharesTopic(t *testing.T) {
	for _, c := range []struct {
		query, question string
		want            bool
	}{
		{"do you sell skateboards", "Do you sell electric bikes?", false},
		{"do you take apple pay", "Do you take trade-ins?", false},
		{"how much does whitening cost", "How much does a root canal cost?", false},
		{"¿tenéis servicio de fisioterapia?", "¿Tenéis clases online?", false},
		{"can i trade in my old bike", "Do you take trade-ins?", true},
		{"do you accept credit cards", "Which payment methods do you accept?", true},
		{"any promo codes?", "Do you have a discount code?", true},
		// "levar" and "llevar" are "take": light as "take", "bring", "trazer" and "traer" are.
		{"posso levar o meu cão?", "Posso levar o meu próprio bolo de aniversário?", false},
		{"posso levar bolo de aniversário?", "Posso levar o meu próprio bolo de aniversário?", true},
		{"¿puedo llevar a mi hijo?", "¿Puedo llevar mi propia comida?", false},
		// A synonym of a term of the FAQ question (a member of one of its thesaurus groups).
		{"what paperwork do i need", "What documents do I need to bring?", true},
		{"¿qué papeles necesito?", "¿Qué documentos hay que llevar?", true},
		{"posso desmarcar?", "Como faço para cancelar?", true},
		// "change" a booking is moving it: one of the group of "reschedule".
		{"can i change my booking?", "Can I reschedule?", true},
		{"what paperwork do i need", "Do you guarantee your work?", false},
		{"do you take cheques", "Do you take trade-ins?", false},
	} {
		if got := SharesTopic(c.query, c.question); got != c.want {
			t.Errorf("SharesTopic(%q, %q) = %v, want %v", c.query, c.question, got, c.want)
		}
	}
}

// TestThesaurus checks that the thesaurus is read (every group of at least two members, in the
// three languages) and that a question is expanded only with synonyms the Brain's sentences hold.
func TestThesaurus(t *testing.T) {
	for _, lang := range []string{"en", "pt", "es"} {
		if s := thesauri[lang]; s == nil || len(s.groups) < 40 {
			t.Fatalf("%s: thesaurus of %d groups", lang, len(thesauri[lang].groups))
		}
	}
	ix := clinicIndex(lightStemmer{})
	m := ix.sents.m
	keys := func(query string) []string {
		var out []string
		for _, f := range m.expand(m.parse(query), m.textFeatures(query)) {
			out = append(out, f.key)
			if f.gram || f.weight <= 0 || f.weight > thesaurusWeight {
				t.Errorf("%q: synonym %+v", query, f)
			}
		}
		return out
	}
	// "installments" is no word of the pages, but "instalments" and "payment plans" are; "monthly
	// payments" is not, and is left out.
	got := keys("can I pay in installments")
	for _, want := range []string{"winstalment", "wplan"} {
		if !slices.Contains(got, want) {
			t.Errorf("installments: synonyms %q, want %s among them", got, want)
		}
	}
	if slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "wfinanc") }) {
		t.Errorf("installments: synonyms %q hold a word of no sentence", got)
	}
	if got := keys("what is the capital of france"); len(got) != 0 {
		t.Errorf("an unrelated question is expanded with %q", got)
	}
	// The sentence that answers in other words is found.
	hits := ix.Search("can I pay in installments", nil, 1)
	if len(hits) == 0 || !strings.HasPrefix(hits[0].Sentence, "Payment plans") {
		t.Errorf("installments: hits %+v", hits)
	}
}

// TestTitleNotPassage checks that a chunk's title, however like the question, is not the
// sentence its passage starts from.
func TestTitleNotPassage(t *testing.T) {
	ix := clinicIndex(lightStemmer{})
	hits := ix.Search("opening hours and location", nil, 1)
	if len(hits) == 0 || hits[0].Chunk.URL != "https://clinic.example/hours" {
		t.Fatalf("hits %+v", hits)
	}
	if s := hits[0].Sentence; s == "" || s == clinicPages[0].Title {
		t.Errorf("sentence %q, want one of the text", s)
	}
}

// TestSplitPhrase checks that a phrasal verb of the thesaurus split by its object ("pick it up")
// is read as the phrase ("pick up", "collect").
func TestSplitPhrase(t *testing.T) {
	m := newMatcher([]FAQ{{Question: "Orders you collect in person get 10% off.", Answer: "0"}}, "Orders you collect in person get 10% off.", lightStemmer{}, nil, sentenceStopWeight)
	for _, c := range []struct {
		query string
		want  bool
	}{
		{"discount if i pick it up myself", true},
		{"can i pick them up", true},
		{"pick the parcel up", false}, // a noun between: no phrase
	} {
		var keys []string
		for _, f := range m.expand(m.parse(c.query), m.textFeatures(c.query)) {
			keys = append(keys, f.key)
		}
		if got := slices.Contains(keys, "wcollect"); got != c.want {
			t.Errorf("%q: synonyms %q, want collect among them: %v", c.query, keys, c.want)
		}
	}
}

// TestCountryRegion checks that a country a question names finds the region its Brain names
// ("shipping to France" and "EU delivery"), in each language, and that one country is no other
// ("France" finds no "Germany").
func TestCountryRegion(t *testing.T) {
	firstSentences(t, []pageQuery{
		{"en", "UK delivery costs £3.95. EU delivery costs £9.95. Gift wrap is free.",
			"how much is delivery to France?", "EU delivery costs £9.95."},
		{"en", "UK delivery costs £3.95. EU delivery costs £9.95. Gift wrap is free.",
			"how much is delivery to england", "UK delivery costs £3.95."},
		{"pt", "Enviamos para Portugal e para a Europa. O envio para a Europa custa 12 euros. O envio em Portugal custa 4 euros.",
			"quanto custa o envio para a Alemanha?", "O envio para a Europa custa 12 euros."},
		{"es", "Enviamos a España y a Europa. El envío a Europa cuesta 15 euros. El envío en España cuesta 4 euros.",
			"cuánto cuesta el envío a Francia?", "El envío a Europa cuesta 15 euros."},
	})
	m := clinicIndex(lightStemmer{}).sents.m
	for _, f := range m.expand(m.parse("do you ship to france"), m.textFeatures("do you ship to france")) {
		if f.key == "wgermany" {
			t.Errorf("france is expanded with germany")
		}
	}
	s := thesauri["en"]
	for _, g := range s.words[Tokens("france")[0]] {
		if slices.Contains(s.groups[g], "germany") {
			t.Errorf("france and germany share a group: %q", s.groups[g])
		}
	}
}

func TestAsksOther(t *testing.T) {
	for _, c := range []struct {
		query, question, answer string
		want                    bool
	}{
		{"do you install security cameras", "Do you install smart locks?", "Yes, we install Schlage, Yale and August smart locks.", true},
		{"aceitam mbway", "Aceitam receitas em papel?", "Sim, aviamos receitas em papel e eletrónicas.", true},
		{"qué tengo que pagar para entrar al depto", "¿Hay que pagar expensas?", "Sí, las expensas ordinarias las paga el inquilino.", true},
		// The answer holds the question's thing, or a word near it.
		{"alugam canadianas? parti o pé", "Alugam equipamentos?", "Alugamos cadeiras de rodas, canadianas e bombas tira-leite.", false},
		{"do you install smart lock", "Do you install smart locks?", "Yes.", false},
		// The first terms differ: the verb is not what both open with.
		{"do you accept credit cards", "Which payment methods do you accept?", "Cards, MB WAY and cash.", false},
		// The shared first term is a thing, after an article, a possessive or a light verb.
		{"are the clothes ethical", "Are your clothes sustainable?", "Most of our range is organic cotton.", false},
		{"where is my data stored", "Is my data safe?", "It is encrypted.", false},
		{"do u have packages or a bulk discount", "Do you have packages?", "No.", false},
		// Nothing but the verb to tell apart.
		{"do you install", "Do you install smart locks?", "Yes.", false},
	} {
		if got := AsksOther(c.query, FAQ{Question: c.question, Answer: c.answer}); got != c.want {
			t.Errorf("AsksOther(%q, %q) = %v, want %v", c.query, c.question, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{"sun", "sunday", true}, {"brekfast", "breakfast", true}, {"cameras", "locks", false}, {"su", "sunday", false}} {
		if got := nearTerm(c.a, c.b); got != c.want {
			t.Errorf("nearTerm(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestPricePhrases checks that the colloquial ways of asking a price ("quanto fica", "cuánto
// sale") find the sentence that states one, as "quanto custa" and "cuánto cuesta" do.
func TestPricePhrases(t *testing.T) {
	firstSentences(t, []pageQuery{
		{"pt", "O pack de dez aulas é pessoal. O pack de dez aulas custa 220 euros.", "quanto fica o pack de dez aulas?", "O pack de dez aulas custa 220 euros."},
		{"pt", "O pack de dez aulas é pessoal. O pack de dez aulas custa 220 euros.", "o pack de dez aulas quanto sai?", "O pack de dez aulas custa 220 euros."},
		{"es", "El póster en A1 se imprime en el día. El póster en A1 cuesta 12 euros.", "a cuanto sale el póster en A1?", "El póster en A1 cuesta 12 euros."},
		{"es", "El póster en A1 se imprime en el día. El póster en A1 cuesta 12 euros.", "cuánto me sale el póster en A1", "El póster en A1 cuesta 12 euros."},
		{"pt", "O pack de dez aulas é pessoal. O pack de dez aulas custa 220 euros.", "qnto é o pack de dez aulas?", "O pack de dez aulas custa 220 euros."},
		{"es", "La excursión al volcán sale a las 8:00. La excursión al volcán cuesta 40 euros.", "cuánto sale la excursión al volcán?", "La excursión al volcán cuesta 40 euros."},
	})
}

// TestInstallmentPhrases: Latin American customers ask to pay "en cuotas" or "de a poquito" for
// a page's "a plazos".
func TestInstallmentPhrases(t *testing.T) {
	s := thesauri["es"]
	for _, phrase := range []string{" en cuotas ", " de a poquito "} {
		var members []string
		for _, g := range s.phrases[phrase] {
			members = append(members, s.groups[g]...)
		}
		if !slices.Contains(members, "a plazos") {
			t.Errorf("es %q: groups %q, want \"a plazos\" among them", phrase, members)
		}
	}
}

// pageQuery is a page of one business, a question in lang, and the sentence of the page that
// should come first for it.
type pageQuery struct {
	lang, page, query, want string
}

// firstSentences checks that each question finds its sentence first in an index of its page.
func firstSentences(t *testing.T, cases []pageQuery) {
	t.Helper()
	for _, c := range cases {
		ix := NewIndex(pageDocs([]Page{{URL: "https://shop.example/shipping", Title: "Shipping", Content: c.page}}), nil, lightStemmer{}, nil)
		hits := ix.Search(c.query, nil, 1)
		if len(hits) == 0 || hits[0].Sentence != c.want {
			t.Errorf("%s %q: hits %+v, want the sentence %q", c.lang, c.query, hits, c.want)
		}
	}
}

// TestThesaurusPhrases checks that a customer's phrase of a group finds the sentence saying it in
// other words: a verb's form the phrase of the group is written with ("me doy de baja" for "dar
// de baja", "cancelar").
func TestThesaurusPhrases(t *testing.T) {
	for _, c := range []struct {
		query, content, want string
	}{
		{"¿cómo me doy de baja?", "Las clases de grupo duran una hora. Para cancelar la mensualidad, avísanos por escrito antes del día 25.", "cancelar"},
		{"si te das de baja, qué pasa?", "Las clases de grupo duran una hora. Si cancelas, se cobra el mes siguiente.", "cancelas"},
	} {
		ix := NewIndex(pageDocs([]Page{{URL: "https://escuela.example/normas", Title: "Normas", Content: c.content}}), nil, lightStemmer{}, nil)
		if hits := ix.Search(c.query, nil, 1); len(hits) == 0 || !strings.Contains(hits[0].Sentence, c.want) {
			t.Errorf("Search(%q) = %+v, want the sentence of %q", c.query, hits, c.want)
		}
	}
}
