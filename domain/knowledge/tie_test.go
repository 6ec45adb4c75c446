package knowledge

import (
	"slices"
	"testing"
)

// chunkIndex indexes chunks alone (no FAQ, no vectors), as a small Brain's pages.
func chunkIndex(chunks ...Chunk) *Index {
	docs := make([]Doc, len(chunks))
	for i, c := range chunks {
		docs[i] = Doc{Chunk: c}
	}
	return NewIndex(docs, nil, lightStemmer{}, nil)
}

// wantFirst fails unless the first hit of query is chunk want.
func wantFirst(t *testing.T, ix *Index, query, want string) {
	t.Helper()
	hits := ix.Search(query, nil, 3)
	if len(hits) == 0 || hits[0].Chunk.ID != want {
		for _, h := range hits {
			t.Logf("%s %.3f held %.2f %q", h.Chunk.ID, h.Score, h.Held, h.Sentence)
		}
		t.Errorf("Search(%q): want %s first", query, want)
	}
}

// TestNearTie: of two chunks of a small Brain within tieMargin of each other, the one whose best
// sentence holds more of the question's content words comes first (nearTie); chunks further
// apart, or holding as much, keep the order of their scores.
func TestNearTie(t *testing.T) {
	ix := chunkIndex(
		Chunk{ID: "hotel", URL: "https://pets.example/hotel", Title: "Hotel e creche", Text: "Hotelzinho: hospedagem para cães com passeios duas vezes por dia. A diária custa R$ 90 para cães pequenos e R$ 120 para cães grandes."},
		Chunk{ID: "banho", URL: "https://pets.example/banho", Title: "Banho e tosa", Text: "O banho é feito com shampoo hipoalergênico e secagem morna. Banho para cães de porte pequeno: R$ 55 de pelo curto e R$ 65 de pelo longo. Tosa completa a partir de R$ 90. Avisamos por WhatsApp quando o pet estiver pronto para ir para casa."},
	)
	for _, tt := range []struct {
		query string
		want  string // the first hit's chunk
	}{
		// 0.340 against the hotel's 0.346: the bath's sentence holds "banho" too.
		{"qto custa o banho para cães pequenos", "banho"},
		{"qto custa banho cães pequenos", "banho"},
		// "pra" is "para" (functionWords), no word the Brain lacks: tied, as the first.
		{"qto custa o banho pra cães pequenos", "banho"},
		// 0.252 against 0.280 ("hoje" is a word the Brain lacks): not tied, the better score first.
		{"qto custa o banho hoje para cães pequenos", "hotel"},
		// The hotel's sentence holds what the question asks as much as the bath's.
		{"qto custa a diária para cães pequenos", "hotel"},
	} {
		wantFirst(t, ix, tt.query, tt.want)
	}
	// An FAQ item between the two chunks does not part them; the FAQ item keeps its place.
	top := topK{{entry: 0, score: 0.30, sentHeld: 0.5}, {entry: 2, score: 0.299}, {entry: 1, score: 0.295, sentHeld: 1}}
	nearTie(top, 2)
	if top[0].entry != 1 || top[1].entry != 2 || top[2].entry != 0 {
		t.Errorf("nearTie: %v; want entries 1, 2, 0", top)
	}
}

// TestNearTieChatWord: a customer's chat spelling of a word ("ppl" for "people", the
// thesaurus) is held by the chunk that writes the word in full, as the word itself is, so that of
// two chunks nearly tied the one stating it comes first.
func TestNearTieChatWord(t *testing.T) {
	ix := chunkIndex(
		Chunk{ID: "visit", URL: "https://space.example/visit", Title: "Visit us", Text: "We are two blocks from the station. Parking: Dedicated Desk and Private Office members can rent a reserved spot for $60 a month."},
		Chunk{ID: "memberships", URL: "https://space.example/memberships", Title: "Memberships", Text: "Hot Desk: $250 a month for any open desk. Private Office: from $950 a month for a furnished, lockable office for 2 to 6 people."},
	)
	held := func(query string) map[string]float64 {
		out := map[string]float64{}
		for _, h := range ix.Search(query, nil, 3) {
			out[h.Chunk.ID] = h.Held
		}
		return out
	}
	chat, full := held("price for a private office for 3 ppl"), held("price for a private office for 3 people")
	if chat["memberships"] != full["memberships"] || chat["memberships"] <= chat["visit"] {
		t.Errorf("held with ppl %v, with people %v; want the same, memberships holding more", chat, full)
	}
	wantFirst(t, ix, "price for a private office for 3 ppl", "memberships")
}

// TestTitleHeadsFact: a sentence stating the fact a question asks by its form (a duration for
// "how long") holds too the question's words its chunk's title holds, so that "The test takes
// about 45 minutes" under "MOT and servicing" answers how long the MOT takes, not the booking
// page's "For an MOT we usually have a slot within two days".
func TestTitleHeadsFact(t *testing.T) {
	ix := chunkIndex(
		Chunk{ID: "mot", URL: "https://garage.example/mot", Title: "MOT and servicing", Text: "Our workshop tests cars and small vans. The test takes about 45 minutes and you can wait in the lounge."},
		Chunk{ID: "visit", URL: "https://garage.example/visit", Title: "Visit and booking", Text: "Book online or by phone. For an MOT we usually have a slot within two days; repairs are best booked a week ahead."},
	)
	for _, query := range []string{"how long does the mot take", "how long does an mot take"} {
		wantFirst(t, ix, query, "mot")
	}
}

// TestHeldTie: of the two best chunks of a small Brain within heldMargin of each other, the one
// whose title and text hold more of the question's content words comes first (heldTie), when its
// best sentence holds as many as the other's; chunks further apart, holding as many, or whose
// best sentence holds fewer keep the order of their scores, and FAQ items keep their places.
func TestHeldTie(t *testing.T) {
	ix := NewIndex(pageDocs([]Page{
		{URL: "https://hotel.example/rooms", Title: "Rooms", Content: "Garden rooms cost $90 a night."},
		{URL: "https://hotel.example/pets", Title: "Pets", Content: "Dogs are welcome in the garden rooms for $15 a night."},
	}), []FAQ{{ID: "parking", Question: "Is there parking?", Answer: "Yes."}}, lightStemmer{}, nil)
	words, unknown := ix.contentTerms(ix.faq.parse("can my dog stay in a garden room"))
	if a, b := ix.held(0, words, unknown), ix.held(1, words, unknown); a >= b {
		t.Fatalf("held: rooms %.2f, pets %.2f; want the pets' more", a, b)
	}
	for _, tt := range []struct {
		name string
		top  topK
		want []int32 // the entries in order
	}{
		{"within the margin", topK{{entry: 0, score: 0.170, sentHeld: 0.5}, {entry: 1, score: 0.164, sentHeld: 0.5}}, []int32{1, 0}},
		{"an FAQ item between", topK{{entry: 0, score: 0.170}, {entry: 2, score: 0.168}, {entry: 1, score: 0.160}}, []int32{1, 2, 0}},
		{"further apart", topK{{entry: 0, score: 0.170}, {entry: 1, score: 0.150}}, []int32{0, 1}},
		{"its best sentence holding fewer", topK{{entry: 0, score: 0.170, sentHeld: 1}, {entry: 1, score: 0.164, sentHeld: 0.5}}, []int32{0, 1}},
		{"the first holding more already", topK{{entry: 1, score: 0.170}, {entry: 0, score: 0.169}}, []int32{1, 0}},
	} {
		ix.heldTie(tt.top, words, unknown)
		got := make([]int32, len(tt.top))
		for i, c := range tt.top {
			got[i] = c.entry
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: heldTie order %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestChunkFirst: the best chunk comes before an FAQ item ranked first that is neither Strong
// nor covering and holds fewer of the question's content words; otherwise the order stays.
func TestChunkFirst(t *testing.T) {
	faq := func(id string, held float64) Hit { return Hit{Kind: KindFAQ, FAQ: FAQ{ID: id}, Held: held} }
	chunk := func(id string, held float64) Hit { return Hit{Kind: KindChunk, Chunk: Chunk{ID: id}, Held: held} }
	strong, covers := faq("strong", 0.3), faq("covers", 0.3)
	strong.Strong, covers.Covers = true, true
	for _, tt := range []struct {
		name string
		hits []Hit
		want []string
	}{
		{"the chunk holding more", []Hit{faq("a", 0.33), faq("b", 0.2), chunk("c", 0.67), chunk("d", 1)}, []string{"c", "a", "b", "d"}},
		{"holding as much", []Hit{faq("a", 0.5), chunk("c", 0.5)}, []string{"a", "c"}},
		{"a Strong item", []Hit{strong, chunk("c", 1)}, []string{"strong", "c"}},
		{"an item that covers", []Hit{covers, chunk("c", 1)}, []string{"covers", "c"}},
		{"a chunk first", []Hit{chunk("c", 0.2), faq("a", 0.1), chunk("d", 1)}, []string{"c", "a", "d"}},
		{"no chunk", []Hit{faq("a", 0.1), faq("b", 1)}, []string{"a", "b"}},
	} {
		chunkFirst(tt.hits)
		got := make([]string, len(tt.hits))
		for i, h := range tt.hits {
			got[i] = h.FAQ.ID + h.Chunk.ID
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: chunkFirst order %v, want %v", tt.name, got, tt.want)
		}
	}
}
