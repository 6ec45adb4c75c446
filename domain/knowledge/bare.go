package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// A question that asks only a kind of fact and names nothing it is of ("how much is it?",
// "quanto é?", "a partir de que idade?"), sent alone, asks it of the business as a whole: its
// price list, its least age. The Brain answers it when it holds one such answer (Hit.Bare), and
// otherwise no entry is the answer more than another.

// bareAgeWords are the phrases (folded, as NormalizeQuestion writes them) by which a question
// asks the least age of the business's customers: "from what age", "a partir de que idade",
// "desde qué edad". Their words ("partir", "minimum") are no asking words elsewhere.
var bareAgeWords = map[string][]string{
	"en": {"from what age", "from which age", "from how old", "what age", "which age", "minimum age", "min age", "age limit", "how old"},
	"pt": {"a partir de que idade", "a partir de quantos anos", "com que idade", "desde que idade", "idade minima", "que idade", "quantos anos"},
	"es": {"a partir de que edad", "a partir de cuantos anos", "desde que edad", "desde cuantos anos", "con que edad", "edad minima", "que edad", "cuantos anos"},
}

// bareAsked returns the kind of fact a query asks and nothing else: cuePrice or cueAge when every
// word of it is a word of a phrase asking that kind (cueWords, bareAgeWords) or no content word
// (contentWord: a stop, light or asking word, an anaphor), and it asks no other kind of fact by
// its form (query.cues: "how much notice" asks a duration); else 0.
func bareAsked(q *query) cue {
	var asked cue
	var by [4]string // the phrases found (at most a few: the first four are read)
	n := 0
	for _, k := range [...]struct {
		kind    cue
		phrases []string
	}{{cueAge, bareAgeWords[q.lang]}, {cuePrice, cueWords[q.lang][cuePrice]}} {
		for _, p := range k.phrases {
			if strings.Contains(q.padded, " "+p+" ") { // the phrase, whole (askedBy's test)
				asked |= k.kind
				if n < len(by) {
					by[n], n = p, n+1
				}
			}
		}
	}
	if asked == cuePrice {
		// The words of a phrase asking the price of getting in ("how much to get in", "quanto é
		// pra entrar") are the price's: the entry is what it is of (entryAsked).
		for _, p := range entryPhrases[q.lang] {
			if n < len(by) && strings.Contains(q.padded, " "+p+" ") {
				by[n], n = p, n+1
			}
		}
	}
	if asked != cuePrice && asked != cueAge || q.cues()&^(asked|cueLeave) != 0 {
		return 0 // none, both, or another kind besides ("how much notice": a duration)
	}
	for _, w := range q.folded {
		if contentWord(w, q.lang) && !slices.ContainsFunc(by[:n], func(p string) bool { return wordOf(p, w) }) {
			return 0
		}
	}
	return asked
}

// wordOf reports whether w is one of the words of phrase p.
func wordOf(p, w string) bool {
	for f := range strings.FieldsSeq(p) {
		if f == w {
			return true
		}
	}
	return false
}

// leastAge matches, in a sentence folded as NormalizeQuestion writes it, a least age stated with
// words that say it is one ("aged 5 and over", "ages 5 and up", "must be 18", "maiores de 12",
// "idade mínima de 10 anos", "mayores de 12"): group 1 or 2 is the age.
var leastAge = regexp.MustCompile(`\b(?:aged|ages?|minimum age(?: is)?(?: of)?|must be(?: at least)?|maiores de|idade minima(?: e)?(?: de)?|mayores de|edad minima(?: es)?(?: de)?)\s(\d{1,2})\b|\b(\d{1,2})\s(?:years?\s|yrs?\s|anos\s)?(?:and|or|e|ou|y|o)\s(?:up|over|older|above|mais|mas)\b`)

// leastAgeFrom matches a number after a word that starts a range ("from 6", "a partir dos 8",
// "desde los 4", "at least 16", "over 18"): an age only in a sentence of ages (ageContext), since
// "from 25" is as often a price.
var leastAgeFrom = regexp.MustCompile(`\b(?:from|over|at least|a partir de|a partir dos|a partir das|acima de|desde|desde los|a partir de los)\s(\d{1,2})\b`)

// ageContext matches a word of ages in a folded sentence.
var ageContext = regexp.MustCompile(`\b(?:age|ages|aged|old|years?|yrs?|idade|idades|anos|edad|edades)\b`)

// statesLeastAge returns the least age a sentence states (leastAge, leastAgeFrom), or "".
func statesLeastAge(sentence string) string {
	norm := NormalizeQuestion(sentence)
	if m := leastAge.FindStringSubmatch(norm); m != nil {
		return m[1] + m[2]
	}
	if m := leastAgeFrom.FindStringSubmatch(norm); m != nil && ageContext.MatchString(norm) {
		return m[1]
	}
	return ""
}

// entryPhrases are the phrases (folded) by which a question asking only a price asks the price
// of getting in ("how much to get in", "quanto custa pra entrar", "cuánto cuesta entrar"): the
// Brain's entry fee, not its price list.
var entryPhrases = map[string][]string{
	"en": {"get in", "go in", "come in", "to enter", "entry", "admission", "entrance"},
	"pt": {"entrar", "entrada", "ingresso"},
	"es": {"entrar", "entrada", "ingreso"},
}

// entryAsked reports whether a query holds a phrase asking to get in (entryPhrases).
func entryAsked(q *query) bool {
	return slices.ContainsFunc(entryPhrases[q.lang], func(p string) bool { return strings.Contains(q.padded, " "+p+" ") })
}

// entryFee matches, in a sentence folded as NormalizeQuestion writes it, one whose subject is the
// entry (its first or second word: "Entry to the farm is free", "Admission is $12", "A entrada é
// gratuita", "La entrada cuesta 5 €") and that says it is free or, with statedCue, priced.
var entryFee = regexp.MustCompile(`^(?:\pL+\s)?(?:entry|admission|entrance|entrada|ingresso|ingreso)\b`)

// freeWord matches a word saying a thing costs nothing, in a folded sentence.
var freeWord = regexp.MustCompile(`\b(?:free|gratis|gratuito|gratuita|libre|sem custo|sin costo|sin cargo)\b`)

// priceTitles are the words of a page's title (folded) that make it the Brain's price list.
var priceTitles = []string{"price", "prices", "pricing", "rates", "fees", "tariffs", "preco", "precos", "valores", "tarifas", "tarifa", "precios", "precio", "tarifario"}

// bare returns the hit answering a query that asks only a price or a least age (bareAsked): for
// an age, the one entry (a chunk's sentence, an FAQ item's answer) stating a least age, or the
// first of several stating the same one; for a price, the first sentence stating a price of the
// one page, or FAQ item, of the Brain that states prices, else of the one page whose title says
// it lists them (priceTitles). ok false when the query asks something else or the Brain has no
// such one answer.
func (ix *Index) bare(q *query) (Hit, bool) {
	asked := bareAsked(q)
	if asked == 0 || ix.sents == nil {
		return Hit{}, false
	}
	if asked == cuePrice && entryAsked(q) {
		// The price of getting in: the one sentence or FAQ answer whose subject is the entry and
		// that states it free or priced; else none (the price list is of other things).
		var found []Hit
		fee := func(s string) bool {
			norm := NormalizeQuestion(s)
			return entryFee.MatchString(norm) && (freeWord.MatchString(norm) || statedCue(s)&cuePrice != 0)
		}
		for i, text := range ix.sents.text {
			if !ix.sents.title[i] && fee(text) && !slices.ContainsFunc(found, func(h Hit) bool { return h.Sentence == text }) {
				found = append(found, Hit{Kind: KindChunk, Chunk: ix.chunks[ix.sents.chunk[i]], Sentence: text})
			}
		}
		for _, f := range ix.faqs {
			if slices.ContainsFunc(Sentences(f.Answer), fee) {
				found = append(found, Hit{Kind: KindFAQ, FAQ: f})
			}
		}
		if len(found) != 1 {
			return Hit{}, false
		}
		found[0].Bare = true
		return found[0], true
	}
	var found []Hit
	var ages []string
	var pages []string
	for i, text := range ix.sents.text {
		if ix.sents.title[i] {
			continue
		}
		c := ix.chunks[ix.sents.chunk[i]]
		switch asked {
		case cueAge:
			if a := statesLeastAge(text); a != "" && !slices.Contains(ages, a) {
				ages = append(ages, a)
				found = append(found, Hit{Kind: KindChunk, Chunk: c, Sentence: text})
			}
		case cuePrice:
			if ix.sents.cues[i]&cuePrice != 0 && !slices.Contains(pages, c.URL) {
				pages = append(pages, c.URL)
				found = append(found, Hit{Kind: KindChunk, Chunk: c, Sentence: text})
			}
		}
	}
	for _, f := range ix.faqs {
		switch asked {
		case cueAge:
			if a := statesLeastAge(f.Answer); a != "" && !slices.Contains(ages, a) {
				ages = append(ages, a)
				found = append(found, Hit{Kind: KindFAQ, FAQ: f})
			}
		case cuePrice:
			if slices.ContainsFunc(Sentences(f.Answer), func(s string) bool { return statedCue(s)&cuePrice != 0 }) {
				found = append(found, Hit{Kind: KindFAQ, FAQ: f})
			}
		}
	}
	if len(found) == 1 {
		found[0].Bare = true
		return found[0], true
	}
	if asked != cuePrice {
		return Hit{}, false
	}
	var list []Hit
	for _, h := range found {
		if h.Kind == KindChunk && slices.ContainsFunc(foldWords(h.Chunk.Title), func(w string) bool { return slices.Contains(priceTitles, w) }) {
			list = append(list, h)
		}
	}
	if len(list) != 1 {
		return Hit{}, false
	}
	list[0].Bare = true
	return list[0], true
}

// barest returns the hits with h first (Hit.Bare): in place of its own entry among them, else of
// the last.
func barest(hits []Hit, h Hit) []Hit {
	same := func(o Hit) bool {
		return o.Kind == h.Kind && (h.Kind == KindFAQ && o.FAQ.ID == h.FAQ.ID || h.Kind == KindChunk && o.Chunk.ID == h.Chunk.ID)
	}
	j := slices.IndexFunc(hits, same)
	if j < 0 {
		j = len(hits) - 1
	}
	if j < 0 {
		return hits
	}
	if same(hits[j]) {
		h.Score, h.Confidence = hits[j].Score, hits[j].Confidence
	}
	copy(hits[1:j+1], hits[:j])
	hits[0] = h
	return hits
}
