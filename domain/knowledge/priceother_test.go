package knowledge

import "testing"

// TestPriceOther checks PriceOther: a price asked of a thing another of the Brain's texts holds,
// and a passage stating a price but holding none of the thing's words.
func TestPriceOther(t *testing.T) {
	grading := "Gradings\nA belt test costs $40, paid on the day."
	classes := "Classes\nKarate classes run Monday to Friday at 7pm."
	trial := "Trial\nBook your free trial online."
	sala := "Alquiler de la sala\nLa sala se alquila para presentaciones de libros por 300 €."
	obras := "Obras\nLas obras empiezan a las 20:00."
	for _, tt := range []struct {
		question, reply, lang string
		others                []string
		want                  bool
	}{
		{"how much does a belt test cost", "Membership\nAn unlimited adult membership costs $149 a month.", "en", []string{grading, classes, trial}, true},
		{"cuanto cuesta alquilar la sala para una presentacion", "Entradas\nLa entrada de patio de butacas cuesta 26 €.", "es", []string{sala, obras, obras}, true},
		{"quanto custa a hidroterapia?", "Valores\nSessão avulsa R$ 150.", "pt", []string{"Hidroterapia\nA hidroterapia é feita na piscina aquecida.", obras, obras}, true},
		// The thing named only as what a discount or a free offer is on (givenWords).
		{"how much is a ticket for a kid?", "Membership\nMembership costs €45 a year and gives you €2 off every ticket.", "en", []string{"Tickets\nTickets are €11.50, €7 for kids.", classes, trial}, true},
		{"how much is admission", "Membership\nA yearly membership costs $45 and gives free admission.", "en", []string{"Visit\nAdmission is $12.", classes, trial}, true},
		// The thing priced as well as given.
		{"how much is a ticket", "Tickets\nA ticket costs €9, and members get €2 off every ticket.", "en", []string{"Membership\nMembership costs €45.", classes, trial}, false},
		// The passage holds the thing: its price.
		{"how much does a belt test cost", grading, "en", []string{classes, trial}, false},
		// The thing in the passage's title.
		{"how much does a belt test cost", "Belt tests\nEach costs $40.", "en", []string{grading, classes, trial}, false},
		// No price asked.
		{"do you do belt tests", "Membership\nAn unlimited adult membership costs $149 a month.", "en", []string{grading, classes, trial}, false},
		// No price stated: not read here.
		{"how much does a belt test cost", "Membership\nMemberships are paid monthly.", "en", []string{grading, classes, trial}, false},
		// No thing named.
		{"how much is it", "Membership\nAn unlimited adult membership costs $149 a month.", "en", []string{grading, classes, trial}, false},
		// The thing held by no other text: the passage may name it in other words.
		{"is there a sign up fee", "Membership\nThere is a one-time registration fee of $49.", "en", []string{classes, trial}, false},
		// The thing held by most of the Brain's texts: the business's own, all its prices are of it.
		{"faixa de preço das roupas?", "Preços\nOs preços vão de R$ 10 a R$ 250.", "pt", []string{"Vender\nCompramos roupas.", "Doar\nDoe as roupas.", obras}, false},
	} {
		if got := PriceOther(tt.question, tt.reply, tt.lang, func() []string { return tt.others }); got != tt.want {
			t.Errorf("PriceOther(%q, %q) = %v, want %v", tt.question, tt.reply, got, tt.want)
		}
	}
}

// TestPriceStems checks that every phrase by which a question asks a price (cueWords) holds a
// word of priceStems, and every word of givenWords one of givenStems, which PriceOther reads
// first.
func TestPriceStems(t *testing.T) {
	for lang, cues := range cueWords {
		for _, p := range cues[cuePrice] {
			if !sharesWord(p, priceStems) {
				t.Errorf("%s %q holds no word of priceStems", lang, p)
			}
		}
	}
	for w := range givenWords {
		if !sharesWord(w, givenStems) {
			t.Errorf("given word %q holds no word of givenStems", w)
		}
	}
	for _, q := range []string{"Quanto custa?", "¿Cuánto cuesta?", "qual o preço", "PRICE?"} {
		if !sharesWord(q, priceStems) {
			t.Errorf("%q holds no word of priceStems", q)
		}
	}
}
