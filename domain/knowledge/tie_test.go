package knowledge

import (
	"slices"
	"testing"
)

// TestNearTie: of two chunks of a small Brain within tieMargin of each other, the one whose best
// sentence holds more of the question's content words, or as many and is more like the
// question, comes first (nearTie); chunks further apart keep the order of their scores.
func TestNearTie(t *testing.T) {
	var docs []Doc
	for _, c := range []Chunk{
		{ID: "hotel", URL: "https://pets.example/hotel", Title: "Hotel e creche", Text: "Hotelzinho: hospedagem para cães com passeios duas vezes por dia. A diária custa R$ 90 para cães pequenos e R$ 120 para cães grandes."},
		{ID: "banho", URL: "https://pets.example/banho", Title: "Banho e tosa", Text: "O banho é feito com shampoo hipoalergênico e secagem morna. Banho para cães de porte pequeno: R$ 55 de pelo curto e R$ 65 de pelo longo. Tosa completa a partir de R$ 90. Avisamos por WhatsApp quando o pet estiver pronto para ir para casa."},
	} {
		docs = append(docs, Doc{Chunk: c})
	}
	ix := NewIndex(docs, nil, lightStemmer{}, nil)
	for _, tt := range []struct {
		query string
		want  string // the first hit's chunk
	}{
		// 0.340 against the hotel's 0.346: the bath's sentence holds "banho" too.
		{"qto custa o banho para cães pequenos", "banho"},
		{"qto custa banho cães pequenos", "banho"},
		// 0.254 against 0.283: not tied, the better score first.
		{"qto custa o banho pra cães pequenos", "hotel"},
		// The hotel's sentence holds what the question asks as much as the bath's.
		{"qto custa a diária para cães pequenos", "hotel"},
	} {
		hits := ix.Search(tt.query, nil, 3)
		if len(hits) == 0 || hits[0].Chunk.ID != tt.want {
			t.Errorf("Search(%q): %v; want %s first", tt.query, hits, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		top  topK
		want []int32 // the entries in order
	}{
		// An FAQ item (entry 2 of 2 chunks) between the two chunks does not part them, and keeps its place.
		{"holding more, an FAQ item between", topK{{entry: 0, score: 0.30, sentHeld: 0.5}, {entry: 2, score: 0.299}, {entry: 1, score: 0.295, sentHeld: 1}}, []int32{1, 2, 0}},
		{"holding as much, its sentence more like the query", topK{{entry: 0, score: 0.259, sentHeld: 1, sentSim: 0.30}, {entry: 1, score: 0.258, sentHeld: 1, sentSim: 0.34}}, []int32{1, 0}},
		{"holding as much, its sentence less like the query", topK{{entry: 0, score: 0.259, sentHeld: 1, sentSim: 0.34}, {entry: 1, score: 0.258, sentHeld: 1, sentSim: 0.30}}, []int32{0, 1}},
		{"holding less, its sentence more like the query", topK{{entry: 0, score: 0.259, sentHeld: 1, sentSim: 0.30}, {entry: 1, score: 0.258, sentHeld: 0.5, sentSim: 0.34}}, []int32{0, 1}},
		{"not tied", topK{{entry: 0, score: 0.30, sentHeld: 0.5}, {entry: 1, score: 0.28, sentHeld: 1}}, []int32{0, 1}},
	} {
		nearTie(tt.top, 2)
		var got []int32
		for _, c := range tt.top {
			got = append(got, c.entry)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("nearTie, %s: entries %v; want %v", tt.name, got, tt.want)
		}
	}
}
