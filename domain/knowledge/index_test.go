package knowledge

import (
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"testing"
)

// shopPages and shopFAQ are the knowledge of a bakery with a shop, in English, Portuguese and
// Spanish.
var shopPages = []Page{
	{URL: "https://bakery.example/hours", Title: "Opening hours", Content: "Our shop in Porto is open Monday to Friday from 8:00 to 19:00 and on Saturday from 8:00 to 13:00. We are closed on Sundays and public holidays.\n\nDuring August we close for two weeks of holidays."},
	{URL: "https://bakery.example/delivery", Title: "Delivery", Content: "We deliver cakes and bread in Porto, Gaia and Matosinhos. Delivery is free for orders above 30 euros; below that it costs 3 euros. Orders placed before 11:00 are delivered the same day.\n\nWe do not ship outside the Porto area."},
	{URL: "https://bakery.example/returns", Title: "Returns and refunds", Content: "Fresh products cannot be returned once delivered. If a cake arrives damaged, send us a photo within 24 hours and we refund the full price or bake a new one. Refunds reach your card within 5 working days."},
	{URL: "https://bakery.example/cakes", Title: "Custom cakes", Content: "We bake custom cakes for birthdays, weddings and christenings. Order at least 3 days in advance. Gluten-free and vegan sponges are available on request. Prices start at 25 euros for a cake for 8 people."},
	{URL: "https://bakery.example/pt/entregas", Title: "Entregas", Content: "Entregamos bolos e pão no Porto, em Gaia e em Matosinhos. A entrega é gratuita para encomendas acima de 30 euros. Encomendas feitas antes das 11:00 são entregues no próprio dia."},
	{URL: "https://bakery.example/pt/pagamentos", Title: "Pagamentos", Content: "Aceitamos cartões de débito e crédito, MB WAY e dinheiro. As faturas com número de contribuinte são enviadas por email."},
	{URL: "https://bakery.example/es/alergias", Title: "Alergias", Content: "Todos nuestros productos pueden contener trazas de frutos secos. Tenemos panes sin gluten elaborados en un horno separado. Consulte los ingredientes en la tienda."},
}

var shopFAQ = []FAQ{
	{ID: "faq-hours", Question: "What are your opening hours?", Answer: "Monday to Friday 8:00–19:00, Saturday 8:00–13:00."},
	{ID: "faq-parking", Question: "Is there parking near the shop?", Answer: "Yes, there is a public car park 50 m away."},
	{ID: "faq-pay", Question: "Which payment methods do you accept?", Answer: "Cards, MB WAY and cash."},
	{ID: "faq-pt-horario", Question: "Qual é o horário de funcionamento?", Answer: "De segunda a sexta das 8:00 às 19:00, sábado das 8:00 às 13:00."},
	{ID: "faq-es-envios", Question: "¿Hacéis envíos a Madrid?", Answer: "No, solo entregamos en la zona de Oporto."},
	{ID: "faq-wifi", Question: "Do you have wifi?", Answer: "Yes, ask at the counter for the password."},
	{ID: "faq-where", Question: "Where are you?", Answer: "Rua das Flores 12, Porto."},
}

// testVector is a small embedder for the tests: hashed terms and character trigrams of terms.
func testVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	add := func(s string, w float32) {
		h := fnv.New32a()
		h.Write([]byte(s))
		v[h.Sum32()%uint32(dims)] += w
	}
	for _, t := range Tokens(text) {
		add("w:"+t, 1)
		r := []rune("^" + t + "$")
		for i := 0; i+3 <= len(r); i++ {
			add("c:"+string(r[i:i+3]), 0.4)
		}
	}
	return v
}

// shopIndex indexes the shop's knowledge, with vectors of dims dimensions unless dims is 0.
func shopIndex(dims int) *Index {
	var docs []Doc
	for i, p := range shopPages {
		for _, c := range Split(p, 200, 40) {
			c.ID = fmt.Sprintf("page%d-%d", i, c.Ordinal)
			var v []float32
			if dims > 0 {
				v = testVector(c.Title+"\n"+c.Text, dims)
			}
			docs = append(docs, Doc{Chunk: c, Vector: v})
		}
	}
	faqs := slices.Clone(shopFAQ)
	for i := range faqs {
		if dims > 0 {
			faqs[i].Vector = testVector(faqs[i].Question, dims)
		}
	}
	return NewIndex(docs, faqs, lightStemmer{}, nil)
}

func TestSearchRanking(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		wantFirst  string // an FAQ item's ID or a page's URL
		wantStrong bool
	}{
		{"exact FAQ question", "What are your opening hours?", "faq-hours", true},
		{"FAQ question in other words", "opening hours please", "faq-hours", true},
		// FAQ items score their answer's match (faqMatcher), not on the pages' scale: the page
		// that answers it ranks first here, the engine still answers with the FAQ item.
		{"paraphrased FAQ question", "When is the shop open?", "https://bakery.example/hours", false},
		{"paraphrased FAQ question 2", "Do you accept card payments?", "faq-pay", false},
		{"exact pt FAQ question", "qual e o horario de funcionamento", "faq-pt-horario", true},
		{"pt paraphrase", "Qual o vosso horário?", "faq-pt-horario", false},
		{"es FAQ question", "hacéis envíos a madrid", "faq-es-envios", true},
		{"es paraphrase", "¿Hacen envíos a Madrid?", "faq-es-envios", false},
		{"page question", "Can I return a damaged cake and get a refund?", "https://bakery.example/returns", false},
		{"page question 2", "Do you make vegan birthday cakes?", "https://bakery.example/cakes", false},
		{"pt page question", "Quanto custa a entrega de encomendas?", "https://bakery.example/pt/entregas", false},
		{"es page question", "¿Tienen pan sin gluten?", "https://bakery.example/es/alergias", false},
		{"plural and singular", "deliveries to Matosinhos", "https://bakery.example/delivery", false},
		{"FAQ question of stopwords only", "Where are you?!", "faq-where", true},
	}
	for _, dims := range []int{0, 256} {
		ix := shopIndex(dims)
		for _, tt := range tests {
			hits := ix.Search(tt.query, vectorOf(tt.query, dims), 5)
			if len(hits) == 0 {
				t.Errorf("dims %d, %s: Search(%q) found nothing", dims, tt.name, tt.query)
				continue
			}
			if got := where(hits[0]); got != tt.wantFirst || hits[0].Strong != tt.wantStrong {
				t.Errorf("dims %d, %s: Search(%q) first = %s (strong %v), want %s (strong %v)\n%s",
					dims, tt.name, tt.query, got, hits[0].Strong, tt.wantFirst, tt.wantStrong, describe(hits))
			}
			for _, h := range hits[1:] {
				if h.Strong && !hits[0].Strong {
					t.Errorf("dims %d, %s: a Strong hit after one that is not", dims, tt.name)
				}
			}
		}
	}
}

func TestSearchUnrelated(t *testing.T) {
	for _, dims := range []int{0, 256} {
		ix := shopIndex(dims)
		for _, q := range []string{"quantum physics lecture notes", "who won the football match yesterday", "do you", "?!"} {
			for _, h := range ix.Search(q, vectorOf(q, dims), 5) {
				if h.Strong || h.Score > 0.2 {
					t.Errorf("dims %d: Search(%q) has %s with score %.3f, strong %v", dims, q, where(h), h.Score, h.Strong)
				}
			}
		}
	}
}

func TestSearchNearMissIsNotStrong(t *testing.T) {
	for _, dims := range []int{0, 256} {
		ix := shopIndex(dims)
		for _, q := range []string{"Is there a playground near the shop?", "What are your delivery hours?", "Do you have a toilet?", "Where are you going?"} {
			for _, h := range ix.Search(q, vectorOf(q, dims), 5) {
				if h.Strong {
					t.Errorf("dims %d: Search(%q) has %s Strong", dims, q, where(h))
				}
			}
		}
	}
}

func TestSearchScores(t *testing.T) {
	ix := shopIndex(256)
	q := "Do you deliver cakes to Gaia?"
	hits := ix.Search(q, vectorOf(q, 256), 0)
	if len(hits) != DefaultHits {
		t.Fatalf("Search with k 0 gave %d hits, want %d", len(hits), DefaultHits)
	}
	for i, h := range hits {
		if h.Score <= 0 || h.Score > 1 || h.Cosine < -1 || h.Cosine > 1+1e-6 || h.BM25 < 0 {
			t.Errorf("hit %d has score %v, BM25 %v, cosine %v", i, h.Score, h.BM25, h.Cosine)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("hit %d scores more than hit %d", i, i-1)
		}
		if (h.Kind == KindChunk) != (h.Chunk.ID != "") || (h.Kind == KindFAQ) != (h.FAQ.ID != "") {
			t.Errorf("hit %d of kind %s holds chunk %q and FAQ %q", i, h.Kind, h.Chunk.ID, h.FAQ.ID)
		}
	}
	if where(hits[0]) != "https://bakery.example/delivery" {
		t.Errorf("first hit %s, want the delivery page\n%s", where(hits[0]), describe(hits))
	}
	if got := ix.Search(q, nil, 2); len(got) != 2 || got[0].Cosine != 0 {
		t.Errorf("Search without a vector, k 2 = %s", describe(got))
	}
	// A vector of other dimensions is ignored.
	if got, want := ix.Search(q, vectorOf(q, 64), 3), ix.Search(q, nil, 3); !slices.EqualFunc(got, want, sameHit) {
		t.Errorf("a vector of other dimensions changed the ranking:\n%s\n%s", describe(got), describe(want))
	}
}

func TestSearchDeterministic(t *testing.T) {
	// Twins score the same and are ordered by ID, whatever the order they were indexed in.
	twins := []Doc{
		{Chunk: Chunk{ID: "c", Text: "Gift vouchers are sold in the shop."}},
		{Chunk: Chunk{ID: "a", Text: "Gift vouchers are sold in the shop."}},
		{Chunk: Chunk{ID: "b", Text: "Gift vouchers are sold in the shop."}},
		{Chunk: Chunk{ID: "d", Text: "Cakes are baked daily."}},
	}
	faq := []FAQ{{ID: "a", Question: "Gift vouchers?", Answer: "In the shop."}}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}} {
		var docs []Doc
		for _, i := range order {
			docs = append(docs, twins[i])
		}
		hits := NewIndex(docs, faq, lightStemmer{}, nil).Search("shop vouchers", nil, 10)
		var got []string
		for _, h := range hits {
			got = append(got, string(h.Kind)+":"+h.Chunk.ID+h.FAQ.ID)
		}
		if want := []string{"chunk:a", "chunk:b", "chunk:c", "faq:a"}; !slices.Equal(got, want) {
			t.Errorf("indexed in order %v: hits %v, want %v", order, got, want)
		}
	}

	ix := shopIndex(256)
	q := "cakes for a wedding"
	first := ix.Search(q, vectorOf(q, 256), 10)
	for range 5 {
		if again := ix.Search(q, vectorOf(q, 256), 10); !slices.EqualFunc(first, again, sameHit) {
			t.Fatal("the same search gave different hits")
		}
	}
}

func TestSearchEmpty(t *testing.T) {
	if got := NewIndex(nil, nil, nil, nil).Search("opening hours", nil, 5); got != nil {
		t.Errorf("empty index: %v", got)
	}
	ix := shopIndex(0)
	if got := ix.Search("", nil, 5); got != nil {
		t.Errorf("empty query: %v", got)
	}
}

func TestSearchConcurrent(t *testing.T) {
	ix := shopIndex(256)
	q := "free delivery in Porto"
	want := ix.Search(q, vectorOf(q, 256), 5)
	done := make(chan []Hit)
	for range 8 {
		go func() { done <- ix.Search(q, vectorOf(q, 256), 5) }()
	}
	for range 8 {
		if got := <-done; !slices.EqualFunc(got, want, sameHit) {
			t.Error("concurrent searches disagree")
		}
	}
}

// TestSearchReuse checks that a search gives the same hits whatever searches ran before it on
// the index, one after another or at once: a search works in buffers kept for the next.
func TestSearchReuse(t *testing.T) {
	qs := []string{"free delivery in Porto", "how much is a wedding cake", "where are you located",
		"can I pay by card", "opening hours on sunday", "cakes", "do you deliver cakes for a wedding in Porto?"}
	want := make([][]Hit, len(qs))
	for i, q := range qs {
		want[i] = shopIndex(256).Search(q, vectorOf(q, 256), 5) // on an index that searched nothing before
	}
	ix := shopIndex(256)
	for _, i := range []int{0, 1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 0, 3, 0, 6, 1} {
		if got := ix.Search(qs[i], vectorOf(qs[i], 256), 5); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%q after other searches:\n%s\nwant\n%s", qs[i], describe(got), describe(want[i]))
		}
	}
	done := make(chan bool)
	for g := range 8 {
		go func() {
			ok := true
			for k := range 20 {
				i := (g + k) % len(qs)
				ok = ok && reflect.DeepEqual(ix.Search(qs[i], vectorOf(qs[i], 256), 5), want[i])
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("concurrent searches of different queries disagree with one at a time")
		}
	}
}

func TestDice(t *testing.T) {
	tests := []struct {
		query    []int32
		unknown  int
		question []int32
		want     float64
	}{
		{nil, 0, nil, 0},
		{[]int32{1, 2}, 0, []int32{1, 2}, 1},
		{[]int32{1, 2}, 1, []int32{1, 2}, 4.0 / 5},
		{[]int32{1}, 0, []int32{1, 2, 3}, 2.0 / 4},
		{[]int32{4}, 0, []int32{1, 2, 3}, 0},
	}
	for _, tt := range tests {
		if got := dice(tt.query, tt.unknown, tt.question); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("dice(%v, %d, %v) = %v, want %v", tt.query, tt.unknown, tt.question, got, tt.want)
		}
	}
}

func vectorOf(text string, dims int) []float32 {
	if dims == 0 {
		return nil
	}
	return testVector(text, dims)
}

// where names a hit: its FAQ item's ID or its chunk's page.
func where(h Hit) string {
	if h.Kind == KindFAQ {
		return h.FAQ.ID
	}
	return h.Chunk.URL
}

func sameHit(a, b Hit) bool {
	return a.Kind == b.Kind && a.Chunk.ID == b.Chunk.ID && a.FAQ.ID == b.FAQ.ID && a.Score == b.Score && a.Strong == b.Strong
}

func describe(hits []Hit) string {
	s := ""
	for _, h := range hits {
		s += fmt.Sprintf("  %-40s score %.3f bm25 %.2f cos %.3f strong %v\n", where(h), h.Score, h.BM25, h.Cosine, h.Strong)
	}
	return s
}

// TestSearchOverlap checks the overlap an FAQ hit reports: the Dice coefficient of its question's
// terms and the query's, 1 for the same question, and 0 for a chunk.
func TestSearchOverlap(t *testing.T) {
	tests := []struct {
		query string
		want  float64
	}{
		{"What are your opening hours?", 1},
		{"WHAT are your opening hours", 1},
		{"opening hours please", 1}, // "please" is a stopword: the same terms
		{"When is the shop open?", 2 * 1 / 4.0},
		{"Do you have any job openings?", 2 * 1 / 4.0},
	}
	ix := shopIndex(0)
	for _, tt := range tests {
		var got *Hit
		hits := ix.Search(tt.query, nil, 20)
		for i := range hits {
			if hits[i].Kind == KindFAQ && hits[i].FAQ.ID == "faq-hours" {
				got = &hits[i]
			}
			if hits[i].Kind == KindChunk && hits[i].Overlap != 0 {
				t.Errorf("Search(%q): chunk %s has overlap %.2f; want 0", tt.query, where(hits[i]), hits[i].Overlap)
			}
		}
		if got == nil {
			t.Errorf("Search(%q) did not find faq-hours\n%s", tt.query, describe(hits))
			continue
		}
		if math.Abs(got.Overlap-tt.want) > 1e-9 {
			t.Errorf("Search(%q): faq-hours overlap %.3f; want %.3f", tt.query, got.Overlap, tt.want)
		}
	}
}

// lightStemmer stands for the Snowball stemmer the adapters give (the domain cannot import it):
// Tokens' light rules, which meet the same inflections in these tests.
type lightStemmer struct{}

func (lightStemmer) Stem(word, _ string) string { return stem(word) }
