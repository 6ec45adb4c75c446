package knowledge

import (
	"regexp"
	"strings"
)

// FactUnstated reports whether a question asks, by its form, how long something takes or from
// what age (cueWords, agePhrases: "how long", "quanto tempo demora", "¿cuánto tarda?", "com que
// idade") and a reply, a passage quoted from a page, states neither, nor any other fact of a
// definite form the question asks with it (a price, a time of day): the passage holds the
// question's thing but another fact of it ("quanto tempo demora cada nível" and "Certificados: no
// fim de cada nível…", "com que idade podem começar as aulas?" and "Não é preciso comprar botas
// para começar."), which answers none of it. A duration is stated in figures or in words, of
// minutes to years or nights (durationStated); an age by ageFact. A question asking a time of day
// ("when", "a que hora") is read as asking that, not a duration (query.factAsked). lang is the
// question's language (en, pt or es; another asks nothing here).
func FactUnstated(question, reply, lang string) bool {
	if !sharesWord(question, askingStems) {
		return false // most questions: no word that asks either: nothing read further
	}
	norm := NormalizeQuestion(question)
	q := &query{text: question, lang: lang, norm: norm, padded: " " + norm + " "}
	c := q.cues()
	if c&cueTime != 0 {
		c &^= cueDuration
	}
	asked := c & cueDuration
	if askedBy(q.padded, agePhrases[q.lang]) != 0 {
		asked |= cueAge
	}
	if asked == 0 {
		return false
	}
	asked |= c & (cuePrice | cueTime)
	stated := cue(0)
	for _, s := range Sentences(reply) {
		stated |= statedCue(s)
		if durationStated.MatchString(NormalizeQuestion(s)) {
			stated |= cueDuration
		}
	}
	return stated&asked == 0
}

// askingStems hold a part of every phrase of cueWords' durations and of agePhrases (three bytes
// or more each), read before the question is: a question holding none asks neither.
const askingStems = "long tempo tiempo tard dura demor soon fast quick early advance notice rapid rápid pronto depressa antel antic anteced antes age old idad edad anos años"

// agePhrases are the phrases (folded) by which a question asks an age: ageWords' and those of
// "age" asked ("what age", "a partir de que idade", "¿desde qué edad?"), not the word alone,
// which tells the customer's case as often ("mi hija es menor de edad").
var agePhrases = map[string]map[cue][]string{
	"en": {cueAge: {"how old", "what age", "which age", "what ages", "minimum age", "age limit", "age range", "ages do", "age do"}},
	"pt": {cueAge: {"quantos anos", "que idade", "que idades", "idade minima", "limite de idade"}},
	"es": {cueAge: {"cuantos anos", "que edad", "que edades", "edad minima", "limite de edad"}},
}

// durationStated is, beyond durationFact's and spelledDuration's, a duration a passage states in
// months, years or nights, in figures or words ("12 months", "dois anos", "tres noches"), of a
// sentence folded as NormalizeQuestion writes it.
var durationStated = regexp.MustCompile(`\b(?:\d+|` + strings.Join(durationNumbers, "|") + `)\s(?:[a-z]+\s)?(?:months?|years?|nights?|meses|mes|anos|ano|noites?|noches?|semanas?|weeks?|days?|dias?|hours?|horas?|minutes?|minutos?)\b`)

// durationNumbers are the numbers in words of en, pt and es a duration is told with.
var durationNumbers = strings.Fields(`one two three four five six seven eight nine ten twelve fifteen twenty thirty few several
um uma dois duas tres quatro cinco seis sete oito nove dez doze quinze vinte trinta alguns algumas
un uno una dos cuatro siete ocho nueve diez doce quince veinte treinta unos unas`)
