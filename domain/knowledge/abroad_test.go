package knowledge

import (
	"strings"
	"testing"
)

// TestAbroad: an English question to a Brain in Portuguese or Spanish finds the sentence that
// names its things in the Brain's words (abroadWords).
func TestAbroad(t *testing.T) {
	for _, c := range []struct {
		text, query, want string
	}{
		{"Nuestras oficinas están en la terminal de llegadas del aeropuerto, junto a la salida. Para alquilar un auto hay que tener una edad mínima de 21 años y al menos dos años de registro.", "what is the minimum age to rent a car?", "21 años"},
		{"O nosso restaurante fica no centro da vila, junto à igreja. Há um menu para crianças a 7 euros, com sopa, prato e sobremesa.", "how much is it for children?", "7 euros"},
	} {
		ix := NewIndex([]Doc{{Chunk: Chunk{ID: "p", URL: "https://shop.example/p", Title: "Info", Text: c.text}}}, nil, lightStemmer{}, nil)
		hits := ix.Search(c.query, nil, 1)
		if len(hits) == 0 || !strings.Contains(hits[0].Sentence, c.want) {
			t.Errorf("%q: first hit %+v, want the sentence of %q", c.query, hits, c.want)
		}
	}
}
