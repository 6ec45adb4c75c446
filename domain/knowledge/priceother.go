package knowledge

import (
	"slices"
	"strings"
)

// PriceOther reports whether a question asks, by its form, the price of a thing it names
// (cueWords: "how much does a belt test cost", "cuanto cuesta alquilar la sala") and a reply, a
// passage quoted from a page with its title, states a price but holds none of the thing's words
// (the question's content words: contentWord; near one or a synonym of one), but as what a
// discount or a free offer is on (pricedTerms: "…gives you €2 off every ticket"), which another
// of the Brain's texts (others: the other hits' texts, read only then) holds, though not most of
// them: the price is another thing's ("An unlimited adult membership costs $149 a month…"), and
// the Brain knows the thing asked. A reply stating no price is not read here, nor a question
// naming no thing ("how much is it?"), nor one whose thing no other text holds (the reply may
// name it in other words: "sign up fee" and "a one-time registration fee"), nor one whose thing
// most texts hold (the business's own: "roupas" at a thrift store). lang is the question's
// language (en, pt or es; another asks nothing here).
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
	held, given := Tokens(reply), false
	for i := 0; i < len(thing); i++ {
		if !near(held, thing[i]) {
			continue
		}
		if given || !sharesWord(reply, givenStems) {
			return false
		}
		// The thing named: perhaps only as what a discount or a free offer is on.
		held, given, i = pricedTerms(reply), true, -1
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

// givenWords are the words (folded) after which a passage names what a discount or a free offer
// is on, in en, pt and es ("€2 off every ticket", "free admission", "desconto nas aulas"): the
// thing named there is given, not priced.
var givenWords = map[string]bool{"off": true, "free": true, "discount": true, "discounts": true,
	"desconto": true, "descontos": true, "gratis": true, "gratuito": true, "gratuita": true,
	"descuento": true, "descuentos": true, "gratuitos": true, "gratuitas": true}

// givenStems hold a part of every word of givenWords, read before a passage is.
const givenStems = "off free discount desconto gratis gratuit descuento"

// pricedTerms returns the terms of a passage (Tokens) but those within two words after a word of
// givenWords.
func pricedTerms(text string) []string {
	var out []string
	after := 3
	for _, w := range strings.Fields(NormalizeQuestion(text)) {
		if givenWords[w] {
			after = 0
			continue
		}
		if after++; after <= 2 {
			continue
		}
		out = append(out, Tokens(w)...)
	}
	return out
}
