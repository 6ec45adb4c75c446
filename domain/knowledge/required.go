package knowledge

import (
	"regexp"
	"slices"
)

// A question asking whether the business offers a thing ("do you sell bowling shirts", "vendéis
// equipo de buceo?") is not answered by an FAQ item that names the thing only as something the
// customer must bring, wear or not bring ("Is there a dress code?": "No dress code, but shirts are
// required…"): the item tells a rule about the thing, not that the business has it.

// requiredRule matches, in a sentence folded as NormalizeQuestion writes it, the words by which it
// states a thing as required of the customer or forbidden to them, in en, pt and es.
var requiredRule = regexp.MustCompile(`\b(?:required|requires|require|mandatory|compulsory|must|not allowed|forbidden|prohibited|banned|obrigatorio|obrigatoria|obrigatorios|obrigatorias|exigido|exigida|exigidos|exigidas|proibido|proibida|proibidos|proibidas|obligatorio|obligatoria|obligatorios|obligatorias|prohibido|prohibida|prohibidos|prohibidas|imprescindible|imprescindibles)\b`)

// offerWords matches the words by which a sentence offers a thing: selling, renting, lending,
// giving or stocking it.
var offerWords = regexp.MustCompile(`\b(?:sell|sells|sold|stock|stocks|rent|rents|rental|hire|lend|lends|loan|loans|offer|offers|provide|provides|supply|supplies|vendemos|vende|vendem|alugamos|aluguel|aluga|alugam|emprestamos|oferecemos|fornecemos|damos|alquilamos|alquiler|alquila|alquilan|prestamos|ofrecemos|venden)\b`)

// askedThing returns the place in the query's words (folded) of the thing it asks the business to
// have or offer (asksThing: "do you sell bowling shirts", "vendéis equipo de buceo?"), and its
// head noun: in English the last content word of the question, in Portuguese and Spanish the
// first of the thing; -1 and "" when it asks no such thing.
func askedThing(words []string, lang string) (int, string) {
	tries := 0 // the thing follows the asking phrase or the verb: the first or second content word
	for i := 1; i < len(words) && tries < 2; i++ {
		if !contentWord(words[i], lang) {
			continue
		}
		tries++
		if !asksThing(words, i, lang) {
			continue
		}
		if lang != "en" {
			return i, words[i]
		}
		head := ""
		for _, w := range words[i:] {
			if contentWord(w, lang) {
				head = w
			}
		}
		return i, head
	}
	return -1, ""
}

// namesRequired sets Hit.Other of the FAQ items among hits (top's candidates, in its order) whose
// question holds no word of the thing the query asks the business to offer (askedThing) and whose
// answer names its head noun only in sentences stating it as required or forbidden (requiredRule)
// that offer nothing (offerWords, an amount of money).
func (ix *Index) namesRequired(hits []Hit, top topK, q *query) {
	ruled := func(i int) bool {
		e := int(top[i].entry) - len(ix.chunks)
		return hits[i].Kind == KindFAQ && e >= 0 && e < len(ix.ruled) && ix.ruled[e]
	}
	some := false
	for i := range hits {
		some = some || ruled(i)
	}
	if !some {
		return // no item states a rule: most often
	}
	at, head := askedThing(q.folded, q.lang)
	if at < 0 || head == "" {
		return
	}
	noun := stem(head)
	var thing []string // the stems of the thing's content words
	for _, w := range q.folded[at:] {
		if contentWord(w, q.lang) {
			thing = append(thing, stem(w))
		}
	}
	for i, h := range hits {
		if !ruled(i) || h.Other || slices.ContainsFunc(foldWords(h.FAQ.Question), func(w string) bool { return slices.Contains(thing, stem(w)) }) {
			continue
		}
		named, rule := false, true
		for _, s := range Sentences(h.FAQ.Answer) {
			if !slices.ContainsFunc(foldWords(s), func(w string) bool { return stem(w) == noun }) {
				continue
			}
			named = true
			norm := NormalizeQuestion(s)
			if !requiredRule.MatchString(norm) || offerWords.MatchString(norm) || statedCue(s)&cuePrice != 0 {
				rule = false
			}
		}
		hits[i].Other = named && rule
	}
}

// sellAsked are the verbs (folded) by which a question asks the business to sell a thing ("do
// you sell", "vendem", "vendéis"), before it.
var sellAsked = map[string][]string{
	"en": {"sell"},
	"pt": {"vendem", "vende"},
	"es": {"venden", "vendeis", "vende", "vendes"},
}

// notSold matches, in a sentence folded as NormalizeQuestion writes it, the words by which it
// names a thing as included in something else or lent for a fee ("con todo el equipo incluido",
// "equipment included", "65 € con el equipo de alquiler", "board hire"), and sold the words by
// which it sells one.
var (
	notSold = regexp.MustCompile(`\b(?:included|includes|including|incluido|incluida|incluidos|incluidas|incluye|incluso|inclusa|inclui|incluem|rent|rents|rental|hire|alquiler|alquila|alquilan|alquilamos|aluguel|aluga|alugam|alugamos)\b`)
	sold    = regexp.MustCompile(`\b(?:sell|sells|sold|for sale|shop|store|vendemos|vende|vendem|venden|venda|loja|venta|tienda)\b`)
)

// namesIncluded sets Hit.Other of the chunks among hits whose sentence names the thing the query
// asks the business to sell (askedThing after a verb of sellAsked: "vendéis equipo de buceo?")
// only as included in a service or rented ("Cuesta 75 € con todo el equipo incluido."), selling
// nothing (sold): the page tells a service that comes with the thing, not that the business
// sells it.
func namesIncluded(hits []Hit, q *query) {
	if !slices.ContainsFunc(q.folded, func(w string) bool { return slices.Contains(sellAsked[q.lang], w) }) {
		return
	}
	at, head := askedThing(q.folded, q.lang)
	if at < 0 || head == "" || !slices.Contains(sellAsked[q.lang], q.folded[at-1]) {
		return
	}
	noun := stem(head)
	for i, h := range hits {
		if h.Kind != KindChunk || h.Sentence == "" || !slices.ContainsFunc(foldWords(h.Sentence), func(w string) bool { return stem(w) == noun }) {
			continue
		}
		norm := NormalizeQuestion(h.Sentence)
		hits[i].Other = notSold.MatchString(norm) && !sold.MatchString(norm)
	}
}
