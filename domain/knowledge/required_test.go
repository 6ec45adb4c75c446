package knowledge

import "testing"

// TestNamesRequired checks Hit.Other for an FAQ item naming the thing a question asks the
// business to offer only as required of the customer or forbidden: "do you sell bowling shirts"
// and the dress code's "shirts are required". An item offering it (selling, lending, a price),
// one whose question names it, or a question asking no thing offered, is not marked.
func TestNamesRequired(t *testing.T) {
	en := NewIndex(pageDocs([]Page{{URL: "https://bowl.example/lanes", Title: "Lanes",
		Content: "We have 24 lanes with automatic scoring. Bumpers are free on any lane."}}),
		[]FAQ{
			{ID: "dress", Question: "Is there a dress code?", Answer: "No dress code, but shirts are required and only bowling shoes are allowed on the lanes."},
			{ID: "socks", Question: "What do I need to bring?", Answer: "Socks are required, and we sell them at the front desk for $2."},
			{ID: "helmets", Question: "Is it safe for kids?", Answer: "Helmets are mandatory for kids, and we lend them free of charge."},
			{ID: "shirts", Question: "Can I wear shirts without sleeves?", Answer: "Shirts are required on the lanes."},
		}, lightStemmer{}, nil)
	pt := NewIndex(pageDocs([]Page{{URL: "https://piscina.example/aulas", Title: "Aulas",
		Content: "As aulas são na nossa piscina coberta, para bebés, crianças e adultos."}}),
		[]FAQ{{ID: "regras", Question: "Quais são as regras da piscina?", Answer: "A touca é obrigatória para todos os alunos."}}, lightStemmer{}, nil)
	es := NewIndex(pageDocs([]Page{{URL: "https://piscina.example/clases", Title: "Clases",
		Content: "Las clases son en nuestra piscina cubierta, para bebés, niños y adultos."}}),
		[]FAQ{{ID: "normas", Question: "¿Cuáles son las normas?", Answer: "El gorro es obligatorio en la piscina."}}, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix          *Index
		query, item string
		want        bool
	}{
		{en, "do you sell bowling shirts", "dress", true},
		{pt, "vendem touca?", "regras", true},
		{es, "vendéis gorros?", "normas", true},
		{en, "do you sell socks", "socks", false},                 // sold, with a price
		{en, "do you have helmets", "helmets", false},             // lent
		{en, "do you sell shirts", "shirts", false},               // the item's question names them
		{en, "are shirts required?", "dress", false},              // no thing asked to be offered
		{en, "is there a dress code for shirts?", "dress", false}, // the item's question names the thing asked
	} {
		if h, ok := itemHit(t, tt.ix, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}

// TestNamesIncluded checks Hit.Other of a chunk whose sentence names the thing a question asks
// the business to sell only as included in a service or rented ("vendéis equipo de buceo?" and
// "Cuesta 75 € con todo el equipo incluido."); a sentence selling it, a question asking to rent
// it or asking no thing for sale, is not marked.
func TestNamesIncluded(t *testing.T) {
	es := NewIndex(pageDocs([]Page{
		{URL: "https://buceo.example/bautismo", Title: "Bautismo", Content: "Un bautismo dura dos horas en el mar. Cuesta 75 € con todo el equipo incluido."},
		{URL: "https://buceo.example/tienda", Title: "Tienda", Content: "En la tienda vendemos máscaras y aletas."},
	}), nil, lightStemmer{}, nil)
	en := NewIndex(pageDocs([]Page{
		{URL: "https://surf.example/lessons", Title: "Lessons", Content: "A surf lesson costs $60 with the board and wetsuit included."},
		{URL: "https://surf.example/shop", Title: "Shop", Content: "Our shop sells wax and leashes."},
	}), nil, lightStemmer{}, nil)
	for _, tt := range []struct {
		ix       *Index
		query    string
		sentence string
		want     bool
	}{
		{es, "vendéis equipo de buceo?", "Cuesta 75 € con todo el equipo incluido.", true},
		{en, "do you sell wetsuits?", "A surf lesson costs $60 with the board and wetsuit included.", true},
		{es, "vendéis aletas?", "En la tienda vendemos máscaras y aletas.", false},                              // sold
		{es, "alquiláis equipo?", "Cuesta 75 € con todo el equipo incluido.", false},                            // not asked for sale
		{en, "is the wetsuit included?", "A surf lesson costs $60 with the board and wetsuit included.", false}, // no thing asked for sale
	} {
		found := false
		for _, h := range tt.ix.Search(tt.query, nil, 5) {
			if h.Kind == KindChunk && h.Sentence == tt.sentence {
				found = true
				if h.Other != tt.want {
					t.Errorf("Search(%q): %q Other %v, want %v", tt.query, tt.sentence, h.Other, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("Search(%q): %q not a hit's sentence", tt.query, tt.sentence)
		}
	}
}
