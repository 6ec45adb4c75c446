package knowledge

import "testing"

// TestWithBuying checks that a question whose selling verb has the customer as subject is
// searched with the business's buying verb too, and no other question is.
func TestWithBuying(t *testing.T) {
	ix := NewIndex(pageDocs([]Page{{URL: "https://x.example/a", Title: "A", Content: "We buy and sell used bikes."}}), nil, lightStemmer{}, nil)
	for _, tt := range []struct {
		query string
		want  bool
	}{
		{"can i sell my old bike?", true},
		{"I want to sell you my bike", true},
		{"como faço pra vender minhas roupas", true},
		{"posso vender meus livros?", true},
		{"quiero vender mis libros", true},
		{"vendo mi bici, os interesa?", true},
		{"do you sell bikes?", false},             // the business sells
		{"vocês vendem roupa infantil?", false},   // the business sells
		{"e se não vender minha roupa?", false},   // left unsold, no offer to sell
		{"what if my bike doesn't sell", false},   // the same
		{"¿vendéis equipo de buceo?", false},      // the business sells
		{"how much do you pay for a bike", false}, // no selling verb
	} {
		q := ix.faq.parse(tt.query)
		if _, got := withBuying(q); got != tt.want {
			t.Errorf("withBuying(%q, %s) = %v, want %v", tt.query, q.lang, got, tt.want)
		}
	}
}

// TestSellFindsBuying checks that the customer asking how to sell finds the sentence by which the
// business says it buys, not another sentence holding the thing.
func TestSellFindsBuying(t *testing.T) {
	ix := NewIndex(pageDocs([]Page{
		{URL: "https://brecho.example/vender", Title: "Como vender suas peças", Content: "Compramos e recebemos em consignação roupas femininas e infantis em bom estado. Não aceitamos roupas íntimas nem peças com manchas."},
		{URL: "https://brecho.example/loja", Title: "A loja", Content: "Vendemos também pelo Instagram: você reserva a peça por mensagem."},
	}), nil, lightStemmer{}, nil)
	hits := ix.Search("como faço pra vender minhas roupas", nil, 5)
	if len(hits) == 0 || hits[0].Sentence != "Compramos e recebemos em consignação roupas femininas e infantis em bom estado." {
		t.Fatalf("Search: %+v, want the buying sentence first", hits)
	}
}
