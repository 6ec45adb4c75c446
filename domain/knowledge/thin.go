package knowledge

// ThinHeld is the share of the query's content words (Hit.Held) under which an FAQ item matched
// only loosely holds too little of the question to answer it: most of what is asked is in
// neither its question nor its answer.
const ThinHeld = 0.5

// ThinConfidence is the confidence (Hit.Confidence) under which such an item is not sure enough
// to answer with its question shown ("If you mean …") either: the one term it shares with the
// question is all that ranked it ("can you book me a table at a restaurant in london" and "Is
// there a restaurant?"; "tienen motos o scooters para alquilar?" and "¿Cuál es la edad mínima
// para alquilar?").
const ThinConfidence = 0.25

// Thin reports whether an FAQ hit matched only loosely (Overlap at most looseOverlap) and not
// covering the question (Covers) holds under ThinHeld of the query's content words at a
// confidence under ThinConfidence: it shares a term with the question, not what the question
// asks. A chunk, an item matched more than loosely, or one whose Held was not read (not
// Measured: a large Brain) is never thin.
func (h Hit) Thin(looseOverlap float64) bool {
	return h.Kind == KindFAQ && h.Measured && h.Overlap <= looseOverlap && !h.Covers && h.Held < ThinHeld && h.Confidence < ThinConfidence
}
