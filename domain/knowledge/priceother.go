package knowledge

import (
	"slices"
	"strings"
)

// PriceOther reports whether a question asks, by its form, the price of a thing it names
// (cueWords: "how much does a belt test cost", "cuanto cuesta alquilar la sala") and a reply, a
// passage quoted from a page with its title, states a price but holds none of the thing's words
// (the question's content words: contentWord; near one or a synonym of one), which another of
// the Brain's texts (others: the other hits' texts, read only then) holds: the price is another thing's ("An
// unlimited adult membership costs $149 a month…"), and the Brain knows the thing asked. A
// reply stating no price is not read here, nor a question naming no thing ("how much is it?"),
// nor one whose thing no other text holds (the reply may name it in other words: "sign up fee"
// and "a one-time registration fee"). lang is the question's language (en, pt or es; another
// asks nothing here).
func PriceOther(question, reply, lang string, others func() []string) bool {
	if !sharesWord(question, priceStems) {
		return false // most questions: no word that asks a price: nothing read further
	}
	norm := NormalizeQuestion(question)
	q := &query{text: question, lang: lang, norm: norm, padded: " " + norm + " "}
	if q.cues()&cuePrice == 0 {
		return false
	}
	var thing []string
	for _, w := range strings.Fields(norm) {
		if contentWord(w, lang) {
			thing = append(thing, Tokens(w)...)
		}
	}
	if len(thing) == 0 {
		return false
	}
	near := func(terms []string, u string) bool {
		return slices.ContainsFunc(terms, func(t string) bool { return nearTerm(t, u) || synonymous(t, u) })
	}
	held := Tokens(reply)
	for _, u := range thing {
		if near(held, u) {
			return false
		}
	}
	priced := false
	for _, s := range Sentences(reply) {
		if priced = statedCue(s)&cuePrice != 0; priced {
			break
		}
	}
	if !priced {
		return false
	}
	texts := others()
	terms := make([][]string, len(texts))
	for i, o := range texts {
		terms[i] = Tokens(o)
	}
	for _, u := range thing {
		n := 0
		for _, ts := range terms {
			if near(ts, u) {
				n++
			}
		}
		// A word most of the Brain's texts hold is the business's own ("roupas" at a thrift
		// store): its prices are all of that thing.
		if n > 0 && 2*n <= len(texts) {
			return true
		}
	}
	return false
}

// priceStems hold a part of every phrase of cueWords' prices (three bytes or more each, in any
// case, accented or not), read before the question is: a question holding none asks no price.
const priceStems = "much pric cost fee charg expensiv cheap rate quanto qto qnto qnt prec preç cust valor caro barat cuant cuánt cuest tarifa"
