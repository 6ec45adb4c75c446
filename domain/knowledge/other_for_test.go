package knowledge

import "testing"

// TestOtherFor checks Hit.Other when an English item's question says whom its noun is for, with
// no kind before the noun ("Do you do taxes for Americans who live abroad?"): a kind of the noun
// the Brain does not know ("crypto taxes") is another thing; the question saying the same "for",
// or a kind before the item's noun, is not.
func TestOtherFor(t *testing.T) {
	en := NewIndex(pageDocs([]Page{{URL: "https://tax.example/services", Title: "Services",
		Content: "We prepare personal and business tax returns and do bookkeeping for freelancers."}}),
		[]FAQ{
			{ID: "abroad", Question: "Do you do taxes for Americans who live abroad?", Answer: "Yes, we prepare returns for expats."},
			{ID: "late", Question: "Can you file late business taxes?", Answer: "Yes, for any past year."},
		}, lightStemmer{}, nil)
	for _, tt := range []struct {
		query, item string
		want        bool
	}{
		{"do you do crypto taxes", "abroad", true},
		{"do you do crypto taxes for americans", "abroad", false}, // the question says whom for
		{"do you do taxes for americans", "abroad", false},
		{"can you file crypto taxes", "late", true}, // "business taxes": the kind before the noun, as before
	} {
		if h, ok := itemHit(t, en, tt.query, tt.item); ok && h.Other != tt.want {
			t.Errorf("Search(%q): %s Other %v, want %v", tt.query, tt.item, h.Other, tt.want)
		}
	}
}
