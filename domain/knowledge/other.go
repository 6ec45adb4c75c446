package knowledge

import (
	"slices"
	"strings"
)

// namesOther sets Hit.Other of the FAQ items among hits (top's candidates, in its order) for the
// query q, whose content words are words and strange the runs of those no entry holds
// (contentWords).
func (ix *Index) namesOther(hits []Hit, top topK, q *query, words [][]int32, strange [][2]int) {
	if len(strange) != 1 || len(words) == 0 {
		return
	}
	first, last := strange[0][0], strange[0][1]
	noun := kindOf(q.folded, first, last, q.lang)
	// The thing asked for, right after the asking phrase or the service's verb: the unknown run
	// itself ("is there a cafe"), or in Portuguese and Spanish the noun the run after "de" says a
	// kind of ("vcs fazem box de acrílico?": an acrylic box, which no entry knows; "Fazem
	// manutenção de box?" is about the Brain's glass ones).
	thing := noun == "" && asksThing(q.folded, first, q.lang) ||
		noun != "" && q.lang != "en" && asksThing(q.folded, first-2, q.lang)
	if noun == "" && !thing {
		return
	}
	for _, w := range q.folded[first : last+1] {
		if ix.nearKnown(stem(w)) {
			return
		}
	}
	said := make([]string, len(q.folded))
	for i, f := range q.folded {
		said[i] = stem(f)
	}
	for i, c := range top {
		if hits[i].Kind == KindFAQ && ix.holdsAll(c.entry, words) {
			// The thing asked for is one no entry knows: the item holding the rest of the
			// question ("is there a cafe at the pool?" and "Is the pool heated?") is about
			// something else there.
			hits[i].Other = thing || ownKind(foldWords(hits[i].FAQ.Question), stem(noun), said, q.lang)
		}
	}
}

// kindOf returns the content word of words that the run words[first:last+1] says a kind of: in
// English the word after it ("tango lessons"), in Portuguese and Spanish the word before "de"
// before it ("clases de tango"); "" when there is none.
func kindOf(words []string, first, last int, lang string) string {
	switch {
	case lang == "en" && last+1 < len(words) && contentWord(words[last+1], lang):
		return words[last+1]
	case lang != "en" && first >= 2 && words[first-1] == "de" && contentWord(words[first-2], lang):
		return words[first-2]
	}
	return ""
}

// thingAsked holds, per language, the phrases (folded) by which a question asks whether a thing
// is there or offered ("is there", "do you have", "tem", "hay"), the articles or quantifiers
// that may stand between such a phrase and the thing, and the subjects after which a verb asks
// for a service on the thing ("do you", "voces", "ustedes").
var thingAsked = map[string]struct{ asks, between, subjects []string }{
	"en": {
		asks:     []string{"is there", "are there", "do you have", "do you guys have", "have you got", "do you sell", "you got"},
		between:  []string{"a", "an", "any", "some"},
		subjects: []string{"do you", "can you", "could you", "do u", "can u", "do you guys", "can you guys"},
	},
	"pt": {
		asks:     []string{"tem", "tens", "ha", "existe", "existem", "voces tem", "vcs tem", "vendem", "vende", "fazem", "voces fazem", "vcs fazem", "vc faz", "voce faz"},
		between:  []string{"um", "uma", "uns", "umas", "algum", "alguma", "alguns", "algumas"},
		subjects: []string{"voces", "vcs", "vc", "voce"},
	},
	"es": {
		asks:     []string{"hay", "tienen", "teneis", "tienes", "tiene", "venden", "vendeis", "hacen", "haceis", "ustedes hacen"},
		between:  []string{"un", "una", "unos", "unas", "algun", "alguna", "algunos", "algunas"},
		subjects: []string{"ustedes", "vosotros"},
	},
}

// asksThing reports whether the word at first of words (folded) is the thing a question asks to
// be there or offered: it follows, at the question's start, one of thingAsked's phrases and at
// most one of its articles ("is there a cafe at the pool?", "tem cafetaria?", "hay cafetería en
// la piscina?"), or the verb of a service, after a subject asked (thingAsked's subjects: "do you
// install solar panels") or, in Portuguese and Spanish, opening the question ("consertam
// impressoras?").
func asksThing(words []string, first int, lang string) bool {
	t, ok := thingAsked[lang]
	if !ok {
		return false
	}
	end := first
	if end > 0 && slices.Contains(t.between, words[end-1]) {
		end--
	}
	before := strings.Join(words[:end], " ")
	if slices.Contains(t.asks, before) {
		return true
	}
	// The thing a service is asked on: its verb after the one asked ("do you fix", "vocês
	// consertam", "ustedes arreglan") or opening the question ("consertam", "arreglan").
	if end == 0 || !contentWord(words[end-1], lang) {
		return false
	}
	return end == 1 && lang != "en" || slices.Contains(t.subjects, strings.Join(words[:end-1], " "))
}

// ownKind reports whether an FAQ question (its words, foldWords) says a kind of the noun (a stem)
// that the query's words (said, stems) do not: the content word that says it, as kindOf reads
// them, an adjective after the noun in Portuguese and Spanish ("¿Dais clases online?") or, in
// English, whom the noun is for when no word before it says a kind ("Do you do taxes for
// Americans who live abroad?"), is near none of them.
func ownKind(question []string, noun string, said []string, lang string) bool {
	for j, w := range question {
		if !nearTerm(stem(w), noun) {
			continue
		}
		var kind string
		switch {
		case lang == "en" && j+2 < len(question) && question[j+1] == "for" && contentWord(question[j+2], lang) &&
			(j == 0 || !contentWord(question[j-1], lang)):
			kind = question[j+2] // "taxes for Americans": whom the thing is for, with no kind before it
		case lang == "en" && j > 0:
			kind = question[j-1]
		case lang != "en" && j+2 < len(question) && question[j+1] == "de":
			kind = question[j+2]
		case lang != "en" && j+1 < len(question):
			kind = question[j+1]
		}
		if kind != "" && contentWord(kind, lang) && !slices.ContainsFunc(said, func(s string) bool { return nearTerm(stem(kind), s) }) {
			return true
		}
	}
	return false
}

// nearKnown reports whether a term is near (nearTerm: a prefix, a misspelling) one of the index's
// terms: a word the customer misspelt or cut short, not a thing the Brain does not know.
func (ix *Index) nearKnown(t string) bool {
	for id := range int32(ix.terms.len()) {
		if nearTerm(t, ix.terms.key(id)) {
			return true
		}
	}
	return false
}

// holdsAll reports whether entry e holds each of the query's content words (contentWords).
func (ix *Index) holdsAll(e int32, words [][]int32) bool {
	for _, ids := range words {
		if !ix.holds(e, ids) {
			return false
		}
	}
	return true
}
