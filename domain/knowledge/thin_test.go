package knowledge

import "testing"

func TestHitThin(t *testing.T) {
	const loose = 0.5
	for _, c := range []struct {
		name string
		hit  Hit
		want bool
	}{
		// "can you book me a table at a restaurant in london" and "Is there a restaurant?".
		{"loose, holding a quarter, unsure", Hit{Kind: KindFAQ, Measured: true, Overlap: 0.4, Held: 0.25, Confidence: 0.23}, true},
		{"sharing no term", Hit{Kind: KindFAQ, Measured: true, Overlap: 0, Held: 0, Confidence: 0.2}, true},
		// "do you have potted plants or just cut flowers" and "Do you sell plants?": half held.
		{"holding half", Hit{Kind: KindFAQ, Measured: true, Overlap: 0.33, Held: 0.5, Confidence: 0.2}, false},
		// "puedo llevar a mi perrito en la bici?" and "¿Puedo llevar a mi perro?": sure enough.
		{"sure enough", Hit{Kind: KindFAQ, Measured: true, Overlap: 0.4, Held: 0.33, Confidence: 0.26}, false},
		{"matched more than loosely", Hit{Kind: KindFAQ, Measured: true, Overlap: 0.6, Held: 0.25, Confidence: 0.2}, false},
		// "do you take aetna": the insurance item's answer names Aetna.
		{"covering the question", Hit{Kind: KindFAQ, Measured: true, Overlap: 0.2, Held: 0.25, Confidence: 0.2, Covers: true}, false},
		{"a chunk", Hit{Kind: KindChunk, Measured: true, Held: 0.25}, false},
		// A large Brain's hits go without Held.
		{"not measured", Hit{Kind: KindFAQ, Overlap: 0.4, Confidence: 0.2}, false},
	} {
		if got := c.hit.Thin(loose); got != c.want {
			t.Errorf("%s: Thin = %v, want %v", c.name, got, c.want)
		}
	}
}
