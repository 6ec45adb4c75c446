package knowledge

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/knowledge"
)

// TestIndexCache: the cache keeps indexes up to its bytes, dropping the least recently used
// first; a stale version is a miss, an older build never replaces a newer one, and an index
// larger than the whole cache is not kept.
func TestIndexCache(t *testing.T) {
	ix := map[string]*knowledge.Index{}
	for _, id := range []string{"a", "b", "c", "d"} {
		ix[id] = knowledge.NewIndex(nil, nil, nil, nil)
	}
	c := newIndexCache(100)
	c.put("a", 1, ix["a"], 40)
	c.put("b", 1, ix["b"], 40)
	if got, ok := c.get("a", 1); !ok || got != ix["a"] { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.put("c", 1, ix["c"], 40) // 120 > 100: b, the least recently used, goes
	if _, ok := c.get("b", 1); ok {
		t.Error("b kept past the cache's bytes")
	}
	if _, ok := c.get("a", 1); !ok {
		t.Error("a dropped although used more recently than b")
	}
	if _, ok := c.get("a", 2); ok {
		t.Error("a stale version answered")
	}
	c.put("a", 2, ix["d"], 50) // a's newer version replaces its older one: 50 + 40
	if got, ok := c.get("a", 2); !ok || got != ix["d"] {
		t.Error("a's new version missing")
	}
	c.put("a", 1, ix["a"], 10) // an older build finishing late
	if got, _ := c.get("a", 2); got != ix["d"] {
		t.Error("an older version replaced a newer one")
	}
	if c.size != 90 || len(c.entries) != 2 || c.order.Len() != 2 {
		t.Errorf("size %d with %d entries (%d in order), want 90 with 2", c.size, len(c.entries), c.order.Len())
	}
	c.put("b", 1, ix["b"], 101)
	if _, ok := c.get("b", 1); ok || c.size != 90 {
		t.Errorf("an index larger than the cache kept (size %d)", c.size)
	}
}

// TestIndexSize: the estimate the cache counts is at least the heap an index really holds, for a
// small Brain (matched sentence by sentence) and a large one, so that indexCacheBytes bounds the
// memory it means to; and not many times more, so that the cache keeps what fits.
func TestIndexSize(t *testing.T) {
	page := func(i int) knowledge.Page {
		return knowledge.Page{URL: fmt.Sprintf("https://shop.example/%d", i), Title: fmt.Sprintf("Opening hours, prices and location %d", i),
			Content: strings.Repeat(fmt.Sprintf("We are open Monday to Friday from 8am to 6pm and on Saturdays from 9am to 2pm (%d). "+
				"Our clinic is at 42 Oak Street, next to the central library; free parking is behind the building. "+
				"A check-up costs $90, whitening $350 and a filling from $120, and payment plans cover treatments over $500. ", i), 6)}
	}
	repeated := func(pages int) []knowledge.Page {
		out := make([]knowledge.Page, pages)
		for i := range out {
			out[i] = page(i)
		}
		return out
	}
	// The chat tests' bakery (tests/chat_test.go): a few short pages and questions, most of
	// whose n-grams occur once.
	bakery := []knowledge.Page{
		{URL: "https://padaria.test/delivery", Title: "Delivery", Content: "We deliver by bicycle in Baixa, Chiado and Alfama before ten in the morning for orders placed the evening before. Orders above fifteen euros travel free; smaller ones cost two euros."},
		{URL: "https://padaria.test/hours", Title: "Opening hours", Content: "The shop is open Monday to Saturday from seven in the morning to seven in the evening. On Sunday mornings we open until one in the afternoon."},
		{URL: "https://padaria.test/menu", Title: "Menu", Content: "All year we bake sourdough loaves, broa de milho and pastéis de nata. Bolo-rei appears in December and folar at Easter."},
	}
	few := []knowledge.FAQ{{ID: "f1", Question: "Do you have wifi?", Answer: "Yes."}, {ID: "f2", Question: "Is there parking?", Answer: "Behind the building."}}
	bakeryFAQ := []knowledge.FAQ{
		{ID: "f1", Question: "Do you have gluten-free bread?", Answer: "Yes! Our gluten-free loaves are baked every Friday in a separate oven.", Vector: make([]float32, 256)},
		{ID: "f2", Question: "Can I pay by card?", Answer: "We take all major cards and MB Way.", Vector: make([]float32, 256)},
		{ID: "f3", Question: "Is there parking near the shop?", Answer: "There is a public car park on Rua da Prata, two minutes away.", Vector: make([]float32, 256)},
	}
	for _, tt := range []struct {
		name  string
		pages []knowledge.Page
		dims  int
		faqs  []knowledge.FAQ
		small bool
	}{
		{"small Brain", repeated(3), 64, few, true},
		{"large Brain", repeated(60), 64, few, false},
		{"bakery", bakery, 256, bakeryFAQ, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var docs []knowledge.Doc
			for _, p := range tt.pages {
				for _, c := range knowledge.Split(p, 0, 0) {
					docs = append(docs, knowledge.Doc{Chunk: c, Vector: make([]float32, tt.dims)})
				}
			}
			faqs := tt.faqs
			if small := len(docs) <= knowledge.SentenceMaxChunks; small != tt.small {
				t.Fatalf("%d chunks: small %v", len(docs), small)
			}
			const copies = 20
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			before := ms.HeapAlloc
			kept := make([]*knowledge.Index, copies)
			for i := range kept {
				kept[i] = knowledge.NewIndex(docs, faqs, nil, nil)
			}
			runtime.GC()
			runtime.ReadMemStats(&ms)
			held := int64(ms.HeapAlloc-before) / copies
			runtime.KeepAlive(kept)
			est := indexSize(docs, faqs)
			t.Logf("%d chunks: estimate %d KB, held %d KB", len(docs), est>>10, held>>10)
			if est < held || est > 6*held {
				t.Errorf("estimate %d bytes for an index that holds %d", est, held)
			}
		})
	}
}
