package knowledge

import (
	"reflect"
	"testing"
)

// TestSearchContext checks what a model upstream is given: Search's hits unchanged, whatever the
// budget, then the entries ranked after them that fit in the budget, each once, at most
// ContextMax; and a Brain that fits whole, those that score nothing last.
func TestSearchContext(t *testing.T) {
	docs, faqs := clinicWithReturns()
	ix := NewIndex(docs, faqs, lightStemmer{}, nil)
	key := func(h Hit) string { return string(h.Kind) + h.FAQ.ID + h.Chunk.ID }
	all := len(docs) + len(faqs)
	for _, query := range []string{"do you take aetna", "how much is a kit", "laughing gas", "can i return something", "when are you open on saturday", "whitening"} {
		for _, k := range []int{1, 2, 3, 5} {
			search := ix.Search(query, nil, k)
			if hits, context := ix.SearchContext(query, nil, k, -1); !reflect.DeepEqual(hits, search) || context != nil {
				t.Fatalf("SearchContext(%q, k %d, budget -1): hits %v, context %v; want Search's hits and no context", query, k, hits, context)
			}
			whole := ix.Search(query, nil, all)
			for _, budget := range []int{1, 200, 1000, 1 << 20} {
				hits, context := ix.SearchContext(query, nil, k, budget)
				if !reflect.DeepEqual(hits, search) {
					t.Fatalf("SearchContext(%q, k %d, budget %d): hits %v, Search's %v", query, k, budget, hits, search)
				}
				if len(context) < len(hits) || !reflect.DeepEqual(context[:len(hits)], hits) {
					t.Fatalf("SearchContext(%q, k %d, budget %d): the context does not begin with the hits", query, k, budget)
				}
				seen, chars := map[string]bool{}, 0
				for i, h := range context {
					if seen[key(h)] {
						t.Fatalf("SearchContext(%q, k %d, budget %d): %s twice", query, k, budget, key(h))
					}
					seen[key(h)] = true
					if i >= len(hits) {
						chars += h.chars()
					}
				}
				if chars > budget || len(context) > ContextMax {
					t.Errorf("SearchContext(%q, k %d, budget %d): %d passages, %d characters after the hits", query, k, budget, len(context), chars)
				}
				scored := map[string]bool{}
				for _, h := range whole {
					scored[key(h)] = true
				}
				for i, h := range context {
					// An entry that scores nothing only in a Brain given whole, after those that score.
					if !scored[key(h)] && (budget < ix.chars || i < len(whole)) {
						t.Errorf("SearchContext(%q, k %d, budget %d): %s, which scores nothing, passage %d", query, k, budget, key(h), i+1)
					}
				}
				if budget == 1<<20 && len(context) != all {
					t.Errorf("SearchContext(%q, k %d, no budget): %d passages, want the whole Brain (%d)", query, k, len(context), all)
				}
				if budget == 1 && len(context) != len(hits) {
					t.Errorf("SearchContext(%q, k %d, budget 1): %d passages, want the %d hits", query, k, len(context), len(hits))
				}
			}
		}
	}
}
