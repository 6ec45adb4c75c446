package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	got := Sentences("Opening hours\nWe open at 9am. On Saturdays from 9am to 2pm! Prices: e.g. $90.\n\n“Quoted.” Closed on Sundays")
	want := []string{"Opening hours", "We open at 9am.", "On Saturdays from 9am to 2pm!", "Prices: e.g. $90.", "“Quoted.” Closed on Sundays"}
	if !slices.Equal(got, want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
}

// An abbreviation before a name or a number does not end a sentence (Abbreviated); "No." before a
// capital does: it answers.
func TestSentencesAbbreviations(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Five drams from the cask in our No. 3 warehouse, for £60. It runs at 11am.",
			[]string{"Five drams from the cask in our No. 3 warehouse, for £60.", "It runs at 11am."}},
		{"Can I park there? No. The car park is for staff.",
			[]string{"Can I park there?", "No.", "The car park is for staff."}},
		{"Our vet, Dr. Silva, sees cats on Mondays. Book ahead.",
			[]string{"Our vet, Dr. Silva, sees cats on Mondays.", "Book ahead."}},
		{"La oficina está en Av. Santa Fe 3960, en la Sra. Gómez (núm. 5) o en la Avda. Mayo.",
			[]string{"La oficina está en Av. Santa Fe 3960, en la Sra. Gómez (núm. 5) o en la Avda. Mayo."}},
		{"Ligue para o tel. 244 555 071. Atendemos de manhã.",
			[]string{"Ligue para o tel. 244 555 071.", "Atendemos de manhã."}},
		{"We are open till 9. Saturdays too.", []string{"We are open till 9.", "Saturdays too."}},
	} {
		if got := Sentences(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Sentences(%q) = %q, want %q", c.text, got, c.want)
		}
		words := splitWords(c.text)
		var ends int
		for _, w := range words[:len(words)-1] {
			if w.brk == brkSentence {
				ends++
			}
		}
		if ends != len(c.want)-1 {
			t.Errorf("splitWords(%q): %d sentence ends, want %d", c.text, ends, len(c.want)-1)
		}
	}
}

func TestCues(t *testing.T) {
	asked := map[string][]struct {
		query string
		want  cue
	}{
		"en": {
			{"how much is a cleaning", cuePrice},
			{"whats ur address", cuePlace},
			{"what time do you close on saturday", cueTime},
			{"is there parking", 0},
			{"how long does a repair take", cueDuration},
			{"when will i get my refund", cueTime | cueDuration | cueSeason},
			{"when can we pick blueberries", cueTime | cueDuration | cueSeason | cueLeave},
			{"how do i get an appointment", cueWay},
			{"how far is the beach", cuePlace},
			{"is there a bus stop nearby", cuePlace},
			{"can i bring my dog", cueLeave},
			{"do you have a dog", 0},
			{"my rescue is reactive, can someone walk him", cueLeave},
			{"can he stay overnight", cueLeave},
			{"how fast can u get here in an emergency", cueDuration | cueLeave},
			{"how soon can you come", cueDuration},
			{"do you do fast repairs", 0},
			{"how far in advance should i book", cuePlace | cueDuration}, // the notice: a duration
			{"how much notice do you need", cuePrice | cueDuration},
			{"what age can my baby start?", cueAge | cueLeave},
			{"how old do i have to be for a piercing", cueAge},
			{"bike for my 6 year old", 0}, // the customer's case, not the age asked
		},
		"pt": {
			{"quanto custa a manicure", cuePrice},
			{"onde ficam", cuePlace},
			{"a que horas fecham ao sabado", cueTime},
			{"como faço marcação", cueWay},
			{"fica perto do shopping", cuePlace},
			{"comprei um óculos e não gostei, posso trocar?", cueLeave},
			{"dá pra estacionar aí?", cueLeave},
			{"meu filho pode fazer o exame?", cueLeave},
			{"quão rápido vocês chegam", cueDuration},
			{"com quanta antecedência tenho de marcar", cueDuration},
			{"as encomendas demoram muito", cueDuration},
			{"quanto cobram pela deslocação?", cuePrice},
			{"com quantos anos posso fazer musculação?", cueAge | cueLeave},
			{"qual a idade mínima?", cueAge},
			{"tem alguma atividade pro meu filho de 8 anos?", 0},
		},
		"es": {
			{"¿Dónde estáis?", cuePlace},
			{"a qué hora abren", cueTime},
			{"queda cerca de la playa", cuePlace},
			{"puedo llevar a mi perro", cueLeave},
			{"¿se puede pagar a plazos?", cueLeave},
			{"¿mi hijo puede venir?", cueLeave},
			{"qué tan rápido llegan", cueDuration},
			{"con cuánta antelación hay que reservar", cueDuration},
			{"cuánto tardan los muebles a medida", cueDuration},
			{"cuanto cobráis la hora?", cuePrice},
			{"cuánto cobran la sillita", cuePrice},
			{"si anulo me cobráis algo?", 0}, // whether, not how much
			{"desde qué edad pueden hacer el tour?", cueAge | cueLeave},
			{"¿cuántos años hay que tener?", cueAge},
		},
	}
	for lang, cases := range asked {
		for _, c := range cases {
			if got := questionIn(c.query, lang).cues(); got != c.want {
				t.Errorf("cues of %q (%s) = %b, want %b", c.query, lang, got, c.want)
			}
		}
	}
	for _, c := range []struct {
		sentence string
		want     cue
	}{
		{"Check-ups and cleaning ($90): an exam.", cuePrice},
		{"Corte de homem: 15 €.", cuePrice},
		{"Prices start at 25 euros for a cake.", cuePrice},
		{"On Saturdays from 9am to 2pm.", cueTime},
		{"Clases a las 7:30 y 18:30.", cueTime},
		{"O fado ao vivo é às sextas a partir das 21h30.", cueTime},
		{"Abrimos às 9h e fechamos às 19h15.", cueTime},
		{"We open at 9 a.m. on weekdays.", cueTime},
		{"The kitchen closes at 10.30 p.m.", cueTime},
		{"Standard delivery takes 3–5 working days.", cueDuration},
		{"Refunds reach your card within five working days.", cueDuration},
		{"Please arrive 10 minutes early.", cueDuration},
		{"Book online, by phone at (555) 201-4400 or at the front desk.", cueWay},
		{"Pode marcar pelo WhatsApp ou no salão.", cueWay | cueLeave}, // "pode": a rule too
		{"Our clinic is at 42 Oak Street.", cuePlace},
		{"Fica na Avenida de Roma, 85.", cuePlace},
		{"There is a bike rack outside.", 0},
		{"Our street is quiet.", 0}, // a street without a number is no address
		{"Well-behaved dogs are welcome in ground-floor rooms.", cueLeave},
		{"No se admiten mascotas, salvo perros de asistencia.", cueLeave},
		{"Depois de 10 minutos do início, não é possível entrar.", cueLeave | cueDuration},
		{"We don't take bookings through Instagram messages.", cueLeave},
		{"Bike racks are by the entrance.", 0},
		{"Idade mínima para a musculação: 14 anos.", cueAge},
		{"Estudiantes y mayores de 65 años tienen un 15 % de descuento.", cueAge},
		{"We see children from age 3.", cueAge},
		{"Drivers aged 25 or over.", cueAge},
		{"Menores de 16 anos precisam da autorização dos pais.", cueAge},
		{"Our team has 3 vans.", 0},
		// A time of the year by its months.
		{"Pumpkins are in the patch from late September.", cueSeason},
		{"O parque está aberto de março a novembro.", cueSeason},
		{"En temporada de lluvias (junio a septiembre) llueve por la tarde.", cueSeason},
		{"You may bring your own cake.", cueLeave}, // "may": no month
		{"A marco on the trail.", 0},
	} {
		if got := statedCue(c.sentence); got != c.want {
			t.Errorf("statedCue(%q) = %b, want %b", c.sentence, got, c.want)
		}
	}
}

// clinicPages are a small business's site: what is asked is said in one sentence of a chunk
// among others, in other words than the question's.
var clinicPages = []Page{
	{URL: "https://clinic.example/hours", Title: "Opening hours and location", Content: "Oak Street Dental is a family dental practice in Springfield. Our clinic is at 42 Oak Street, on the corner with Elm Avenue, above the pharmacy.\n\nWe are open Monday to Friday from 8am to 6pm, and on Saturdays from 9am to 2pm. We are closed on Sundays and public holidays."},
	{URL: "https://clinic.example/services", Title: "Services and prices", Content: "We offer general and family dentistry for adults and children from age 3.\n\nCheck-ups and cleaning ($90): an exam, X-rays when needed, and a professional cleaning by our hygienist. Fillings from $120. Teeth whitening ($350): one session in the chair plus a take-home kit.\n\nPayment plans are available for treatments over $500: pay in 6 or 12 monthly instalments without interest."},
}

func clinicIndex(stem Stemmer) *Index {
	return NewIndex(pageDocs(clinicPages), nil, stem, nil)
}

// pageDocs splits pages into the chunks of an index, with ids page<i>-<ordinal>.
func pageDocs(pages []Page) []Doc {
	var docs []Doc
	for i, p := range pages {
		for _, c := range Split(p, 0, 0) {
			c.ID = fmt.Sprintf("page%d-%d", i, c.Ordinal)
			docs = append(docs, Doc{Chunk: c})
		}
	}
	return docs
}

// TestSearchBySentence checks that a small Brain's chunk is found by the sentence that answers
// the question, and that the hit says which sentence: BM25 over the whole chunk scored these
// under the engine's threshold, or found the sentence's words elsewhere in the chunk.
func TestSearchBySentence(t *testing.T) {
	ix := clinicIndex(lightStemmer{})
	for _, c := range []struct{ query, url, sentence string }{
		{"how much is a cleaning", "https://clinic.example/services", "Check-ups and cleaning ($90)"},
		{"how much does whitening cost", "https://clinic.example/services", "Teeth whitening ($350)"},
		{"what time do you close on saturday", "https://clinic.example/hours", "on Saturdays from 9am to 2pm"},
	} {
		hits := ix.Search(c.query, nil, 3)
		if len(hits) == 0 {
			t.Errorf("%q: no hits", c.query)
			continue
		}
		h := hits[0]
		if h.Chunk.URL != c.url || !strings.Contains(h.Sentence, c.sentence) {
			t.Errorf("%q: first hit %s %q, want %s %q", c.query, h.Chunk.URL, h.Sentence, c.url, c.sentence)
		}
		if h.Score < 0.17 {
			t.Errorf("%q: score %.3f, under the engine's threshold", c.query, h.Score)
		}
	}
	// Unrelated questions stay low.
	for _, q := range []string{"what is the capital of france", "do you sell car insurance", "how do I reset my password"} {
		if hits := ix.Search(q, nil, 1); len(hits) > 0 && hits[0].Score >= 0.17 {
			t.Errorf("unrelated %q scores %.3f", q, hits[0].Score)
		}
	}
}

// TestSentencesOnlyForSmallBrains checks that a Brain of more than SentenceMaxChunks chunks is
// not matched sentence by sentence (its index builds as before).
func TestSentencesOnlyForSmallBrains(t *testing.T) {
	chunks := make([]Chunk, SentenceMaxChunks+1)
	for i := range chunks {
		chunks[i] = Chunk{ID: fmt.Sprint(i), Text: "Some text. More text."}
	}
	if newSentenceMatcher(chunks, "", nil) != nil {
		t.Error("a large Brain has a sentence matcher")
	}
	if newSentenceMatcher(chunks[:SentenceMaxChunks], "", nil) == nil {
		t.Error("a small Brain has no sentence matcher")
	}
}

// TestSecondSentence checks that a sentence nearly as like the question as the best one, stating
// the kind of fact it asks too, is given as the hit's Second, and that none is given when the
// question asks no kind of fact.
func TestSecondSentence(t *testing.T) {
	ix := NewIndex([]Doc{{Chunk: Chunk{ID: "returns", URL: "https://shop.example/returns", Title: "Returns",
		Text: "You can return any unworn item with its tags within 30 days of delivery for a full refund. Returns are free in the UK. " +
			"Refunds are made to the original payment method within 5 working days of the return reaching us."}}}, nil, lightStemmer{}, nil)
	hits := ix.Search("when will i get my refund", nil, 1)
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	if got := hits[0].Sentence + " | " + hits[0].Second; !strings.Contains(got, "5 working days") || !strings.Contains(got, "30 days") {
		t.Errorf("sentences %q, want both durations", got)
	}
	if hits := ix.Search("refund", nil, 1); len(hits) > 0 && hits[0].Second != "" {
		t.Errorf("a question asking no fact has a second sentence %q", hits[0].Second)
	}
}

// TestFormOnly checks which questions are made of their form only, and that such a question's
// chunk is scored by its sentences alone when its best sentence states the fact asked: BM25 and
// the vector find no word of "where are you located" (with them, the chunk scored 0.7 × 0.116
// and a little).
func TestFormOnly(t *testing.T) {
	for _, c := range []struct {
		query, lang string
		want        bool
	}{
		{"where are you located", "en", true},
		{"when are you open", "en", true},
		{"a que horas abrem", "pt", true},
		{"where can i park", "en", false},
		{"do you sell skateboards", "en", false},
		{"whats ur address", "en", true},
		{"wheres the shop", "en", false},
		{"wheres ur shop", "en", false},
		{"where r u", "en", true},
		{"donde estais", "es", true},
		{"onde vc fica", "pt", true},
		{"vc tem estacionamento", "pt", false},
		{"how do i book", "en", false},
		{"how do i do something", "en", true},
		{"como faço", "pt", true},
	} {
		if got := formOnly(&query{lang: c.lang, folded: foldWords(c.query)}); got != c.want {
			t.Errorf("formOnly(%q) = %v, want %v", c.query, got, c.want)
		}
	}
	for _, q := range []string{"where are you located", "whats ur address"} {
		hits := clinicIndex(lightStemmer{}).Search(q, nil, 1)
		if len(hits) == 0 || !strings.Contains(hits[0].Sentence, "42 Oak Street") || hits[0].Score < 0.11 {
			t.Errorf("%s: %+v", q, hits)
		}
	}
}

// TestBareForm checks that a question of stop words only that asks a place ("where r u") finds
// the sentence stating one, as "whats your address" does, and that one asking nothing finds none.
func TestBareForm(t *testing.T) {
	ix := clinicIndex(lightStemmer{})
	for _, q := range []string{"where r u", "where are you?"} {
		hits := ix.Search(q, nil, 1)
		if len(hits) == 0 || !strings.HasPrefix(hits[0].Sentence, "Our clinic is at 42 Oak Street") || hits[0].Score < 0.17 {
			t.Errorf("%q: hits %+v, want the address's sentence over 0.17", q, hits)
		}
	}
	if hits := ix.Search("are you?", nil, 1); len(hits) > 0 && hits[0].Score > 0 {
		t.Errorf(`"are you?": hits %+v, want none`, hits)
	}
}

// TestStates: a sentence gains the cue's boost when it states a fact the question asks; a rule
// (cueLeave) only when it holds at least leaveHeld of the question's content words.
func TestStates(t *testing.T) {
	for _, tt := range []struct {
		name          string
		stated, asked cue
		cov           []float64
		want          bool
	}{
		{"a price asked and stated", cuePrice, cuePrice, nil, true},
		{"a price asked, a time stated", cueTime, cuePrice, []float64{1}, false},
		{"a rule holding the question's words", cueLeave, cueLeave, []float64{0.6}, true},
		{"a rule holding half of them", cueLeave, cueLeave, []float64{0.5}, true},
		{"a rule about something else", cueLeave, cueLeave, []float64{0.2}, false},
		{"a rule, no coverage", cueLeave, cueLeave, nil, false},
		{"a rule not asked", cueLeave, cuePrice, []float64{1}, false},
		{"a rule stating a price asked too", cueLeave | cuePrice, cueLeave | cuePrice, []float64{0}, true},
	} {
		if got := states(tt.stated, tt.asked, tt.cov, 0); got != tt.want {
			t.Errorf("%s: states(%b, %b, %v) = %v, want %v", tt.name, tt.stated, tt.asked, tt.cov, got, tt.want)
		}
	}
}

// TestPercentOfThing checks that a question asking a price gets the sentence stating a
// percentage of the thing it names ("A 25% deposit …") over a price of another thing in a
// sentence naming it too, and that a percentage of another thing is no price of it.
func TestPercentOfThing(t *testing.T) {
	ix := NewIndex([]Doc{{Chunk: Chunk{ID: "booking", URL: "https://caterer.example/booking", Title: "Booking",
		Text: "A 25% deposit secures your date; the balance is due 7 days before the event. " +
			"Cancel more than 60 days before the event and we refund the deposit less a $150 admin fee."}}}, nil, lightStemmer{}, nil)
	hits := ix.Search("how much deposit do we need to pay", nil, 1)
	if len(hits) == 0 || !strings.Contains(hits[0].Sentence, "25% deposit") {
		t.Errorf("first hit %+v, want the 25%% deposit's sentence", hits)
	}
	for _, c := range []struct {
		sentence string
		terms    []string
		want     bool
	}{
		{"A 25% deposit secures your date.", Tokens("how much deposit"), true},
		{"Pagamos 10 % de sinal na reserva.", Tokens("quanto é o sinal"), true},
		{"We give a 10% discount on rekeying.", Tokens("how much is rekeying"), false},
		{"Deposit: 25 per cent.", Tokens("how much deposit"), false},
	} {
		if got := percentOf(c.sentence, c.terms); got != c.want {
			t.Errorf("percentOf(%q, %q) = %v, want %v", c.sentence, c.terms, got, c.want)
		}
	}
}

// TestAgeAsked checks that a question asking an age gets the sentence of its words stating one
// ("for ages 8 and up", "14 anos", "mayores de 18") over another of the same words, in en, pt
// and es, and that a question stating the customer's age asks none.
func TestAgeAsked(t *testing.T) {
	for _, c := range []struct {
		lang, text, query, want string
	}{
		{"en", "Surf lessons for kids run on Saturday mornings, with the board included. Lessons are for ages 8 and up.", "what age for the kids surf lessons?", "ages 8"},
		{"pt", "As aulas de surf são aos sábados de manhã, com prancha incluída. As aulas são para maiores de 8 anos.", "com que idade posso ter aulas de surf?", "maiores de 8"},
		{"es", "La cata de vinos es los viernes por la tarde, con tapas incluidas. La cata es solo para mayores de 18 años.", "desde qué edad se puede ir a la cata de vinos?", "mayores de 18"},
	} {
		ix := NewIndex([]Doc{{Chunk: Chunk{ID: "p", URL: "https://shop.example/p", Title: "Info", Text: c.text}}}, nil, lightStemmer{}, nil)
		hits := ix.Search(c.query, nil, 1)
		if len(hits) == 0 || !strings.Contains(hits[0].Sentence, c.want) {
			t.Errorf("%s: %q: first hit %+v, want the sentence of %q", c.lang, c.query, hits, c.want)
		}
	}
}

// TestTitleOnlySentence checks that a sentence holding only the question's words that its
// chunk's title holds ("We fit hearing aids from Phonak and Oticon." under "Hearing aids") is not
// the chunk's sentence when another holds the question's other words (here by the thesaurus: "fix"
// and "repair").
func TestTitleOnlySentence(t *testing.T) {
	ix := NewIndex(pageDocs([]Page{
		{URL: "https://hear.example/aids", Title: "Hearing aids", Content: "We fit hearing aids from Phonak and Oticon. Every new pair comes with a warranty of three years. Out of warranty, a repair costs from $180, and we can lend you a loan aid while yours is away at the manufacturer, which usually takes 2 weeks."},
		{URL: "https://hear.example/tests", Title: "Hearing tests", Content: "A hearing test takes 45 minutes."},
	}), nil, lightStemmer{}, nil)
	hits := ix.Search("me nan's hearing aid stopped working, can you fix it", nil, 3)
	if len(hits) == 0 || hits[0].Chunk.URL != "https://hear.example/aids" {
		t.Fatalf("hits = %+v, want the aids page first", hits)
	}
	if want := "Out of warranty, a repair costs from $180, and we can lend you a loan aid while yours is away at the manufacturer, which usually takes 2 weeks."; hits[0].Sentence != want {
		t.Errorf("sentence %q, want %q", hits[0].Sentence, want)
	}
}
