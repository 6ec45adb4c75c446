package knowledge

import "testing"

// TestOther checks Hit.Other: an FAQ item holding every content word of the query but one, a
// kind of the noun they share that no entry of the Brain holds, while the item's question names
// a kind of its own. A word near one of the Brain's (a misspelling), one the item's question says
// too, or one that names no kind of the shared noun ("por zoom") does not make it so.
func TestOther(t *testing.T) {
	es := NewIndex(pageDocs([]Page{{URL: "https://baile.example/clases", Title: "Clases",
		Content: "Damos clases de flamenco, sevillanas, salsa y bachata para todos los niveles. Las clases de grupo duran una hora."}}),
		[]FAQ{
			{ID: "online", Question: "¿Dais clases online?", Answer: "No, todas nuestras clases son presenciales en la escuela."},
			{ID: "parking", Question: "¿Hay aparcamiento?", Answer: "Sí, en la calle de atrás."},
		}, lightStemmer{}, nil)
	en := NewIndex(pageDocs([]Page{{URL: "https://dance.example/classes", Title: "Classes",
		Content: "We teach salsa and swing classes for every level. Group lessons last an hour."}}),
		[]FAQ{
			{ID: "online", Question: "Do you do online lessons?", Answer: "No, all our lessons are in the studio."},
			{ID: "parking", Question: "Is there parking?", Answer: "Yes, behind the studio."},
		}, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix          *Index
		query, item string
		want        bool
	}{
		{es, "dais clases de tango?", "online", true},
		{es, "hay clases de zumba?", "online", true},
		{en, "do you do tango lessons?", "online", true},
		{es, "dais clases de flamnco?", "online", false},   // a misspelling of a word of the Brain
		{es, "dais clases online?", "online", false},       // the item's question says it
		{es, "hay clases por zoom?", "online", false},      // no kind of "clases": the item answers it
		{es, "dais clases de salsa?", "online", false},     // the Brain holds it
		{en, "do you do online lessons?", "online", false}, // the same question
		{en, "do you do lessons on zoom?", "online", false},
	} {
		if h, ok := itemHit(t, tt.ix, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}

// TestOtherThing checks Hit.Other for a thing asked to be there or offered ("is there a …", "tem
// …", "hay …") that no entry of the Brain holds: the item holding the rest of the question is
// about something else. A thing the Brain knows, a misspelling of one, an unknown word that is
// not the thing asked for, or no question of that form, does not make it so.
func TestOtherThing(t *testing.T) {
	en := NewIndex(pageDocs([]Page{{URL: "https://swim.example/lessons", Title: "Lessons",
		Content: "Lessons run in our indoor pool for babies, children and adults. There are lockers and showers."}}),
		[]FAQ{{ID: "heated", Question: "Is the pool heated?", Answer: "Yes, it is kept at 32°C."}}, lightStemmer{}, nil)
	pt := NewIndex(pageDocs([]Page{{URL: "https://natacao.example/aulas", Title: "Aulas",
		Content: "As aulas são na nossa piscina coberta, para bebés, crianças e adultos. Há cacifos e duches."}}),
		[]FAQ{{ID: "aquecida", Question: "A piscina é aquecida?", Answer: "Sim, a 32°C."}}, lightStemmer{}, nil)
	es := NewIndex(pageDocs([]Page{{URL: "https://natacion.example/clases", Title: "Clases",
		Content: "Las clases son en nuestra piscina cubierta, para bebés, niños y adultos. Hay taquillas y duchas."}}),
		[]FAQ{{ID: "climatizada", Question: "¿La piscina está climatizada?", Answer: "Sí, a 32°C."}}, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix          *Index
		query, item string
		want        bool
	}{
		{en, "is there a cafe at the pool?", "heated", true},
		{en, "do you have a sauna at the pool", "heated", true},
		{pt, "tem cafetaria na piscina?", "aquecida", true},
		{es, "hay cafetería en la piscina?", "climatizada", true},
		{en, "is there a shower at the pool?", "heated", false},     // the Brain holds it
		{en, "is there a locke at the pool?", "heated", false},      // a misspelling of a word of the Brain
		{en, "how warm is the pool?", "heated", false},              // no thing asked for
		{en, "is the pool heated in winter mate?", "heated", false}, // the unknown words are no thing asked for
		{es, "la piscina está climatizada?", "climatizada", false},  // the same question
		{pt, "a piscina e aquecida no inverno?", "aquecida", false}, // no thing asked for
	} {
		if h, ok := itemHit(t, tt.ix, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}

// TestOtherService checks Hit.Other for the thing a service is asked on, after its verb ("do you
// install solar panels", "vocês consertam impressoras?", "arreglan impresoras?"), when no entry
// of the Brain holds it: the item holding the verb is about another thing.
func TestOtherService(t *testing.T) {
	en := NewIndex(pageDocs([]Page{{URL: "https://plumb.example/services", Title: "Services",
		Content: "We fix leaks, unblock drains and service boilers across the city."}}),
		[]FAQ{{ID: "boiler", Question: "Which boiler brands do you install?", Answer: "We install Worcester Bosch and Vaillant."}}, lightStemmer{}, nil)
	pt := NewIndex(pageDocs([]Page{{URL: "https://repara.example/servicos", Title: "Serviços",
		Content: "Reparamos telemóveis, tablets e computadores na hora."}}),
		[]FAQ{{ID: "consolas", Question: "Vocês consertam consolas?", Answer: "Sim, PlayStation e Xbox."}}, lightStemmer{}, nil)
	es := NewIndex(pageDocs([]Page{{URL: "https://arregla.example/servicios", Title: "Servicios",
		Content: "Reparamos móviles, tablets y ordenadores en el día."}}),
		[]FAQ{{ID: "consolas", Question: "¿Arreglan consolas?", Answer: "Sí, PlayStation y Xbox."}}, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix          *Index
		query, item string
		want        bool
	}{
		{en, "do you install solar panels", "boiler", true},
		{pt, "vocês consertam impressoras?", "consolas", true},
		{pt, "consertam impressoras?", "consolas", true},
		{es, "arreglan impresoras?", "consolas", true},
		{en, "do you install boilers", "boiler", false},          // the Brain holds it
		{en, "do you install vaillant boilers", "boiler", false}, // the same
		{en, "which boilers do you install", "boiler", false},
		{es, "arreglan consolas?", "consolas", false},
	} {
		if h, ok := itemHit(t, tt.ix, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}

// TestOtherKindAfter checks Hit.Other for a thing asked to be offered whose kind, after it and
// "de" in Portuguese and Spanish, no entry knows ("vcs fazem box de acrílico?"): an item naming
// the thing plain ("Fazem manutenção de box?") is about the Brain's own kind. A kind the Brain
// holds, or a thing not asked after the asking phrase or the verb, does not make it so.
func TestOtherKindAfter(t *testing.T) {
	pt := NewIndex(pageDocs([]Page{{URL: "https://vidro.example/box", Title: "Box",
		Content: "O box de vidro temperado de 8 mm sai a partir de R$ 900. Também fazemos box até o teto."}}),
		[]FAQ{{ID: "manutencao", Question: "Fazem manutenção de box?", Answer: "Sim, trocamos roldanas e puxadores de box de qualquer marca."}}, lightStemmer{}, nil)
	es := NewIndex(pageDocs([]Page{{URL: "https://gym.example/clases", Title: "Clases",
		Content: "Damos clases de spinning y de pilates por la mañana y por la tarde."}}),
		[]FAQ{{ID: "precio", Question: "¿Cuánto cuestan las clases?", Answer: "Cada clase cuesta 8 €; el bono de 10, 70 €."}}, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix          *Index
		query, item string
		want        bool
	}{
		{pt, "vcs fazem box de acrílico?", "manutencao", true},
		{es, "tienen clases de zumba?", "precio", true},
		{pt, "vcs fazem box de vidro?", "manutencao", false}, // the Brain holds it
		{es, "tienen clases de pilates?", "precio", false},
	} {
		if h, ok := itemHit(t, tt.ix, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}
