package knowledge

import (
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only stopwords and punctuation", "Do you? ... and the!", nil},
		{"en question", "Do you deliver to Porto?", []string{"deliver", "porto"}},
		{"en plurals", "Deliveries, prices and boxes", []string{"deliveri", "pric", "box"}},
		{"en verbs", "Shipping orders; we shipped it, booked", []string{"ship", "order", "ship", "book"}},
		{"en apostrophe", "Don't miss the customer's reviews", []string{"miss", "customer", "review"}},
		{"curly apostrophe", "We’re open", []string{"open"}},
		{"pt accents", "Qual é o horário de funcionamento?", []string{"horario", "funcionamento"}},
		{"pt plurals", "Opções de pagamento, cartões e informações", []string{"opco", "pagamento", "carto", "informaco"}},
		{"pt -ais -eis -ns", "Hotéis locais com viagens", []string{"hotel", "local", "viagen"}},
		{"es accents", "¿Cuál es el horario de atención?", []string{"horario", "atencion"}},
		{"es plurals", "Las ciudades y los hoteles", []string{"ciudad", "hotel"}},
		{"ñ and ç", "Mañana, açúcar", []string{"manana", "acucar"}},
		{"decomposed accent", "cafe\u0301 sao", []string{"caf"}},
		{"ß and æ", "Straße Æther", []string{"strass", "aether"}},
		{"numbers kept, letters dropped", "Size 9 a b 24h 10:30", []string{"siz", "9", "24h", "10", "30"}},
		{"other scripts", "Привет мир", []string{"привет", "мир"}},
		{"short words kept", "bus gas tax", []string{"bus", "gas", "tax"}},
		{"-ss -us -is kept", "class bonus analysis", []string{"class", "bonus", "analysis"}},
		{"pt-BR chat forms", "quanto ta o platinado", []string{"quanto", "platinado"}},
		{"pt-BR sou, tbm, pq", "sou celiaco, tbm pq", []string{"celiaco"}},
		{"pt-BR tb", "tem garantia tb", []string{"garantia"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Tokens(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// A regional interjection says nothing of what a question asks: it is no term (stopwords).
func TestTokensInterjections(t *testing.T) {
	for _, c := range []struct{ with, without string }{
		{"bah, como funciona a visita na fabrica?", "como funciona a visita na fabrica?"},
		{"quanto custa a visita tchê", "quanto custa a visita"},
		{"wena, que incluye la mantencion? cachai", "que incluye la mantencion?"},
		{"how much for an hour massage eh", "how much for an hour massage"},
		{"is it weird to talk during the massage lol", "is it weird to talk during the massage"},
		{"is there somewhere to eat", "is there to eat"},
		{"can i park anywhere near you", "can i park near you"},
	} {
		if got, want := Tokens(c.with), Tokens(c.without); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.with, got, want)
		}
	}
}

func TestStemJoinsForms(t *testing.T) {
	same := [][]string{
		{"policy", "policies"},
		{"delivery", "deliveries"},
		{"cookie", "cookies"},
		{"price", "prices"},
		{"box", "boxes"},
		{"class", "classes"},
		{"church", "churches"},
		{"bonus", "bonuses"},
		{"order", "orders", "ordered", "ordering"},
		{"ship", "ships", "shipped", "shipping"},
		{"book", "books", "booked", "booking", "bookings"},
		{"close", "closed", "closing"},
		{"open", "opens", "opened", "opening", "openings"},
		{"hour", "hours"},
		{"monday", "mondays"},
		{"shoe", "shoes"},
		{"potato", "potatoes"},
		{"item", "items", "itens"},
		{"opção", "opções", "opcao", "opcoes"},
		{"cartão", "cartões"},
		{"informação", "informações"},
		{"viagem", "viagens"},
		{"jardim", "jardins"},
		{"hotel", "hotéis", "hoteles"},
		{"local", "locais"},
		{"papel", "papéis"},
		{"produto", "produtos"},
		{"horário", "horários"},
		{"flor", "flores"},
		{"leite", "leites"},
		{"ciudad", "ciudades"},
		{"razón", "razones"},
		{"atención", "atenciones"},
		{"país", "países"},
		{"mes", "meses"},
		{"entrega", "entregas"},
		{"decorate", "decorated", "decoration", "decorations"},
		{"locate", "located", "location", "locations"},
		{"vaccinate", "vaccinated", "vaccination"},
	}
	for _, forms := range same {
		want := stem(fold(forms[0]))
		for _, f := range forms[1:] {
			if got := stem(fold(f)); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want the same", forms[0], want, f, got)
			}
		}
	}
	different := [][2]string{
		{"shipping", "shop"},
		{"hour", "house"},
		{"delivery", "deliver"}, // conservative: no derivational stemming
		{"plan", "plans2"},
		{"menu", "month"},
		{"porto", "port"},
		{"station", "state"}, // -ation only from eight letters
	}
	for _, p := range different {
		if a, b := stem(fold(p[0])), stem(fold(p[1])); a == b {
			t.Errorf("stem(%q) = stem(%q) = %q: want different", p[0], p[1], a)
		}
	}
}

// fold lower-cases and folds one word as Tokens does, without stemming.
func fold(w string) string { return NormalizeQuestion(w) }

func TestStemKeepsShortAndNumeric(t *testing.T) {
	for _, w := range []string{"bus", "gas", "was", "day", "mao", "3rds", "mp3s", "2025"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestNormalizeQuestion(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ?!  ", ""},
		{"What are your opening hours?", "what are your opening hours"},
		{"  WHAT are   your\topening\nhours ??", "what are your opening hours"},
		{"Qual é o horário?", "qual e o horario"},
		{"¿Hacéis envíos a Canarias?", "haceis envios a canarias"},
		{"What's the price of a 2-day pass?", "whats the price of a 2 day pass"},
		{"Você entrega em São Paulo?", "voce entrega em sao paulo"},
		{"Preço (com IVA): 9,99€", "preco com iva 9 99"},
	}
	for _, tt := range tests {
		if got := NormalizeQuestion(tt.in); got != tt.want {
			t.Errorf("NormalizeQuestion(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if NormalizeQuestion("Do you deliver to Pórto?") != NormalizeQuestion("do you deliver to porto") {
		t.Error("questions differing in case, accents and punctuation normalise differently")
	}
}
