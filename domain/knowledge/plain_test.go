package knowledge

import "testing"

// TestPlain checks Hit.Plain: an FAQ item that covers a question asking no kind of fact by its
// form (a question of yes or no), not one that covers a question asking a price, a time, a
// place or whether the customer may, nor an item that does not cover it.
func TestPlain(t *testing.T) {
	docs := pageDocs([]Page{{URL: "https://plumber.example/prices", Title: "Prices", Content: "Replacing a tap costs £95 plus the tap. We open at 8am."}})
	faqs := []FAQ{
		{ID: "parts", Question: "Do I need to buy the parts myself?", Answer: "No, our vans carry taps and most common parts."},
		{ID: "weekend", Question: "Do you work weekends?", Answer: "Yes, on Saturday mornings."},
	}
	ix := NewIndex(docs, faqs, lightStemmer{}, nil)
	for _, tt := range []struct {
		query, item string
		want        bool
	}{
		{"do i have to get the tap myself", "parts", true},
		{"how much is the tap myself", "parts", false}, // a price asked
		{"can i get the tap myself", "parts", false},   // whether the customer may
		{"when do you work on saturday", "weekend", false},
		{"do you work saturday", "weekend", true},
		{"do you work on a tap", "weekend", false}, // the item does not cover "tap"
	} {
		if h, ok := itemHit(t, ix, tt.query, tt.item); ok && h.Plain != tt.want {
			t.Errorf("Search(%q): %s Plain %v (Covers %v), want %v", tt.query, tt.item, h.Plain, h.Covers, tt.want)
		}
	}
}
