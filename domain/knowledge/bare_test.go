package knowledge

import "testing"

// TestStatesLeastAge checks the least age a sentence states: by words that make a number one
// ("aged 5 and over", "must be 18", "mayores de 12"), or after a word that starts a range in a
// sentence of ages ("from 6 years", "a partir dos 8 anos"); not a price, a time, or an age that
// is no least one.
func TestStatesLeastAge(t *testing.T) {
	for _, tt := range []struct{ sentence, want string }{
		{"Children aged 5 and over are welcome.", "5"},
		{"Classes for ages 5 and up.", "5"},
		{"Riders must be 18 and hold a licence.", "18"},
		{"Lessons from 6 years.", "6"},
		{"Sim, atendemos a partir de 6 anos, com um responsável presente.", "6"},
		{"Aulas a partir dos 8 anos.", "8"},
		{"Solo alojamos a mayores de 12 en los dormitorios.", "12"},
		{"La edad mínima es de 10 años.", "10"},
		{"Kids 12 and older can climb alone.", "12"},
		{"Group sessions from $18 per person.", ""}, // a price
		{"We open from 9am on Saturdays.", ""},      // a time
		{"Memberships from 25 a month.", ""},        // no sentence of ages
		{"Kids under 12 must be supervised.", ""},   // an upper bound
		{"Our youngest swimmer is 3 years old.", ""},
	} {
		if got := statesLeastAge(tt.sentence); got != tt.want {
			t.Errorf("statesLeastAge(%q) = %q, want %q", tt.sentence, got, tt.want)
		}
	}
}

// TestBare checks Hit.Bare: a question asking only a price or a least age, naming nothing it is
// of, is answered by the Brain's one price list (the one page or item stating prices, else the
// one page titled by its prices) or its one least age; a question naming a thing, asking
// another kind of fact besides, or a Brain with no one such answer, has none.
func TestBare(t *testing.T) {
	titled := NewIndex(pageDocs([]Page{
		{URL: "https://climb.example/prices", Title: "Prices and passes", Content: "Crux is a bouldering gym. A casual entry costs $24 for adults. A monthly membership is $89."},
		{URL: "https://climb.example/kids", Title: "Kids and parties", Content: "A party costs $320 for up to ten kids. Children aged 5 and over are welcome."},
	}), []FAQ{{ID: "book", Question: "Do I need to book?", Answer: "No, just walk in."}}, lightStemmer{}, nil)
	untitled := NewIndex(pageDocs([]Page{
		{URL: "https://climb.example/entry", Title: "Entry", Content: "A casual entry costs $24 for adults."},
		{URL: "https://climb.example/kids", Title: "Kids", Content: "A party costs $320. Kids Club from 6 years. Teenagers over 12 years old climb alone."},
	}), nil, lightStemmer{}, nil)
	one := NewIndex(pageDocs([]Page{
		{URL: "https://app.example/plans", Title: "Plans and billing", Content: "Tally has three plans. Solo: $12 a month. Team: $29 a month."},
		{URL: "https://app.example/account", Title: "Your account", Content: "Reset your password from the sign-in page."},
	}), nil, lightStemmer{}, nil)
	pt := NewIndex(pageDocs([]Page{
		{URL: "https://fisio.example/valores", Title: "Convênios e valores", Content: "Atendemos pelos convênios Unimed e Cassi. Particular: avaliação R$ 180 e sessão avulsa R$ 150."},
		{URL: "https://fisio.example/tratamentos", Title: "Tratamentos", Content: "Atendemos fisioterapia ortopédica e pilates clínico. Pilates para gestantes a partir do 2º trimestre."},
	}), []FAQ{{ID: "criancas", Question: "Vocês atendem crianças?", Answer: "Sim, atendemos a partir de 6 anos, com um responsável presente."}}, lightStemmer{}, nil)
	es := NewIndex(pageDocs([]Page{
		{URL: "https://hostal.example/habitaciones", Title: "Habitaciones", Content: "Dormitorios desde 15 € por noche. En los dormitorios solo alojamos a mayores de 18 años."},
	}), nil, lightStemmer{}, nil)
	farm := NewIndex(pageDocs([]Page{
		{URL: "https://farm.example/u-pick", Title: "U-pick", Content: "Entry to the farm is free. You pay only for what you pick: strawberries $4.50 a pound."},
		{URL: "https://farm.example/store", Title: "Prices", Content: "Pies are $22. Festival tickets are $12; children under 3 get in free."},
	}), nil, lightStemmer{}, nil)
	granja := NewIndex(pageDocs([]Page{
		{URL: "https://granja.example/visita", Title: "Visita", Content: "La entrada cuesta 5 € por persona. Las fresas salen a 4 € el kilo."},
	}), nil, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix       *Index
		query    string
		sentence string // of the Bare hit; "" for none
		faq      string // the Bare item's id
	}{
		{titled, "how much is it?", "A casual entry costs $24 for adults.", ""},
		{titled, "from what age?", "Children aged 5 and over are welcome.", ""},
		{one, "how much is it?", "Solo: $12 a month.", ""},
		{pt, "a partir de que idade?", "", "criancas"},
		{pt, "quanto é?", "Particular: avaliação R$ 180 e sessão avulsa R$ 150.", ""},
		{es, "¿desde qué edad?", "En los dormitorios solo alojamos a mayores de 18 años.", ""},
		{es, "¿cuánto es?", "Dormitorios desde 15 € por noche.", ""},
		{untitled, "how much is it?", "", ""},          // prices on two pages, none titled so
		{untitled, "from what age?", "", ""},           // two least ages
		{titled, "how much is a party?", "", ""},       // a thing named
		{titled, "how much notice do i need?", "", ""}, // a duration asked
		{titled, "what age do kids need to be for a party?", "", ""},
		// The price of getting in: the entry's own sentence, not the price list.
		{farm, "how much to get in", "Entry to the farm is free.", ""},
		{farm, "how much is it?", "Pies are $22.", ""},
		{granja, "¿cuánto cuesta entrar?", "La entrada cuesta 5 € por persona.", ""},
		{one, "how much to get in?", "", ""}, // no sentence of the entry: not the plans' price
	} {
		hits := tt.ix.Search(tt.query, nil, 5)
		var bare Hit
		for i, h := range hits {
			if h.Bare {
				if i != 0 {
					t.Errorf("Search(%q): the Bare hit is hit %d", tt.query, i+1)
				}
				bare = h
			}
		}
		switch {
		case tt.faq != "" && (bare.Kind != KindFAQ || bare.FAQ.ID != tt.faq):
			t.Errorf("Search(%q): Bare %s %q %q, want item %s", tt.query, bare.Kind, bare.FAQ.ID, bare.Sentence, tt.faq)
		case tt.faq == "" && bare.Sentence != tt.sentence:
			t.Errorf("Search(%q): Bare sentence %q, want %q", tt.query, bare.Sentence, tt.sentence)
		}
	}
}
