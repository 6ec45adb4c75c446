package knowledge

import (
	"strings"
	"testing"
)

// TestAbroad: a question in another language than the Brain's (English to Portuguese or Spanish,
// Spanish or Portuguese to English, Portuguese to Spanish) finds the sentence that names its
// things in the Brain's words (abroadWords, abroadRead).
func TestAbroad(t *testing.T) {
	for _, c := range []struct {
		text, query, want string
	}{
		{"Nuestras oficinas están en la terminal de llegadas del aeropuerto, junto a la salida. Para alquilar un auto hay que tener una edad mínima de 21 años y al menos dos años de registro.", "what is the minimum age to rent a car?", "21 años"},
		{"O nosso restaurante fica no centro da vila, junto à igreja. Há um menu para crianças a 7 euros, com sopa, prato e sobremesa.", "how much is it for children?", "7 euros"},
		{"La visita guiada dura dos horas y recorre la bodega y el viñedo. Aceptamos efectivo en pesos, dólares y reales, y tarjetas de débito y crédito.", "vcs aceitam real?", "reales"},
		{"The farm store is open every day from 9 to 6. Strawberries are $4.50 a pound, cherries $5 a pound. Parking is free for every visitor.", "cuanto cuesta la libra de fresas", "a pound"},
		{"A loja fica na rua principal, ao lado da farmácia. Falamos português, inglês e francês. Os arranjos ficam prontos numa semana.", "do you speak english?", "inglês"},
	} {
		ix := NewIndex([]Doc{{Chunk: Chunk{ID: "p", URL: "https://shop.example/p", Title: "Info", Text: c.text}}}, nil, lightStemmer{}, nil)
		hits := ix.Search(c.query, nil, 1)
		if len(hits) == 0 || !strings.Contains(hits[0].Sentence, c.want) {
			t.Errorf("%q: first hit %+v, want the sentence of %q", c.query, hits, c.want)
		}
	}
}

// TestAbroadRead: a question in another language is read by the Brain's words for the words it
// does not hold; a word the Brain holds, and a question in the Brain's language, are not.
func TestAbroadRead(t *testing.T) {
	ix := NewIndex([]Doc{{Chunk: Chunk{ID: "p", URL: "https://farm.example/p", Title: "Visit", Text: "Dogs are not allowed in the orchards. Parking is free. We open at 9 on Sundays."}}}, nil, lightStemmer{}, nil)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"se puede llevar perro?", []string{"", "", "", "dog"}},
		{"abren el domingo?", []string{"open", "", "sunday"}},
		{"can i bring my dog?", nil},
	} {
		q := ix.faq.parse(c.query)
		ix.abroadRead(q)
		if strings.Join(q.abroad, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: read as %q, want %q", c.query, q.abroad, c.want)
		}
	}
	// A word of two senses is the Brain's word but never read from a question: Portugal's
	// "pequeno-almoço" is breakfast, but a question's "pequeno" is "small".
	ix = NewIndex([]Doc{{Chunk: Chunk{ID: "p", URL: "https://hostel.example/p", Title: "Rooms", Text: "Breakfast is served from 7. Every room has a fan."}}}, nil, lightStemmer{}, nil)
	q := ix.faq.parse("vocês têm um quarto pequeno para duas pessoas?")
	ix.abroadRead(q)
	if got := strings.Join(q.abroad, ","); !strings.Contains(got, "room") || strings.Contains(got, "breakfast") {
		t.Errorf("%q: read as %q, want room and no breakfast", "vocês têm um quarto pequeno para duas pessoas?", q.abroad)
	}
}
