package knowledge

import (
	"slices"
	"strings"
)

// lightWords are verbs (and a few nouns) of English, Portuguese and Spanish that customers'
// questions share with FAQ questions of every topic: "do you sell …", "do you take …", "do you
// offer …", "¿tenéis …?", "fazem …?", "posso levar …?". They are not stop words (a page's sentence may be about
// selling or taking), nor are the words that ask for a price ("how much does whitening cost" is
// not "How much does a root canal cost?"), but a question that shares only them with an FAQ question is not thereby
// asking it: "do you sell skateboards" is not "Do you sell electric bikes?". Written from the
// language of customer service, folded and stemmed as Tokens reads them.
var lightWords = func() map[string]struct{} {
	const words = `
have has had having take takes took taking sell sells sold selling offer offers offered
offering provide provides provided do does did make makes made get gets give gives need needs
want wants use uses used go goes come comes allow allows carry carries stock
stocks supply supplies keep keeps bring brings find know tell ask like work works
available possible thing things way ways kind kinds type types prefer prefers rather wish hope
price prices cost costs fee fees charge charges expensive cheap

ter tem temos tens teem tinha fazer faz fazem fazemos fizeram vender vende vendem vendemos
oferecer oferece oferecem oferecemos dar da dao usar usa usam
precisar preciso precisa quero querer trazer traz levar leva levam levo ir vou vai vir venho saber haver
disponivel possivel coisa coisas tipo tipos prefiro preferia gostava
preco precos custa custam custo valor caro barato

tener tiene tienen teneis tenemos tienes hacer hace hacen haceis hacemos hecho vender vende
venden vendeis vendemos ofrecer ofrece ofrecen ofreceis ofrecemos dar da dan usar usa usan necesitar necesito necesita quiero querer traer
trae llevar lleva llevan llevo ir voy va venir vengo saber haber disponible posible cosa cosas tipo tipos prefiero preferiria gustaria
precio precios cuesta cuestan coste costo caro barato
`
	m := make(map[string]struct{}, 256)
	for _, w := range strings.Fields(words) {
		for _, t := range Tokens(w) {
			m[t] = struct{}{}
		}
	}
	return m
}()

// SharesTopic reports whether a question and an FAQ question share a term (Tokens) that is not
// a light word (lightWords): a term that says what they are about. An FAQ item matched only
// loosely by a question with which it shares only light words ("take" in "do you take apple
// pay" and "Do you take trade-ins?") answers another question. A one-word synonym of such a
// term (a member of one of its thesaurus groups, in any of the thesaurus's languages) is the
// same topic in the customer's words: "what paperwork do i need" and "What documents do I need
// to bring?".
func SharesTopic(query, question string) bool {
	terms := make(map[string]struct{})
	for _, t := range Tokens(question) {
		if _, light := lightWords[t]; !light {
			terms[t] = struct{}{}
		}
	}
	asked := Tokens(query)
	for _, t := range asked {
		if _, ok := terms[t]; ok {
			return true
		}
	}
	for _, t := range asked {
		if _, light := lightWords[t]; light {
			continue
		}
		for _, s := range thesauri {
			gs := s.words[t]
			if len(gs) == 0 {
				continue
			}
			for u := range terms {
				if slices.ContainsFunc(s.words[u], func(g int32) bool { return slices.Contains(gs, g) }) {
					return true
				}
			}
		}
	}
	return false
}

// Agree returns the share of the terms (Tokens, light words left out) of the shorter of two
// texts that the other holds too: how far an FAQ item's answer and a page's sentence say the
// same thing ("Sim, você pode treinar um dia grátis" and "Aula experimental: você pode treinar
// um dia grátis, …").
func Agree(a, b string) float64 {
	terms := func(s string) map[string]struct{} {
		m := make(map[string]struct{})
		for _, t := range Tokens(s) {
			if _, light := lightWords[t]; !light {
				m[t] = struct{}{}
			}
		}
		return m
	}
	x, y := terms(a), terms(b)
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(x) == 0 {
		return 0
	}
	n := 0
	for t := range x {
		if _, ok := y[t]; ok {
			n++
		}
	}
	return float64(n) / float64(len(x))
}

// AsksOther reports whether a question shares with an FAQ item only the verb by which both
// ask for a service: the first term of each (Tokens, light words left out) is the same and
// stands where a verb does (verbFirst: "do you install …", "aceitam …", "tengo que pagar …"),
// and none of the question's other terms is held by the item's question or answer, nor a word
// near one (nearTerm: a prefix, a misspelling), while the item's question names a thing of its
// own. "do you install security cameras" is not "Do you install smart locks?", nor "aceitam
// mbway" "Aceitam receitas em papel?"; but "alugam canadianas?" is "Alugam equipamentos?",
// answered "Alugamos cadeiras de rodas, canadianas…"; "do you accept credit cards" "Which
// payment methods do you accept?", whose first term is another; and "are the clothes ethical"
// "Are your clothes sustainable?", whose shared term is a thing ("the clothes").
func AsksOther(query string, item FAQ) bool {
	asked, question := contentTerms(query), contentTerms(item.Question)
	if len(asked) < 2 || len(question) < 2 || !nearTerm(asked[0], question[0]) || !verbFirst(query) || !verbFirst(item.Question) {
		return false
	}
	held := append(question, contentTerms(item.Answer)...)
	for _, t := range asked[1:] {
		if slices.ContainsFunc(held, func(h string) bool { return nearTerm(t, h) }) {
			return false
		}
	}
	return true
}

// contentTerms returns the terms of a text (Tokens) that are not light words, each once, in order.
func contentTerms(s string) []string {
	var out []string
	for _, t := range Tokens(s) {
		if _, light := lightWords[t]; !light && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// verbSubjects are the words after which the first content word of a question stands as its verb:
// a subject ("do you install", "vocês aceitam", "how do i add"), "que" of an obligation ("tengo
// que pagar", "hay que pagar") and "to" of an infinitive; after an article, a possessive or a light
// verb it is a thing ("are the clothes", "where is my data", "do you have packages").
var verbSubjects = map[string]struct{}{"you": {}, "u": {}, "ya": {}, "i": {}, "we": {}, "que": {}, "to": {}, "voces": {}, "vcs": {}, "ustedes": {}}

// verbFirst reports whether the first content word of a text (one with a term that is not a
// light word) opens it or follows a subject (verbSubjects).
func verbFirst(text string) bool {
	prev := ""
	for _, w := range strings.Fields(NormalizeQuestion(text)) {
		for _, t := range Tokens(w) {
			if _, light := lightWords[t]; !light {
				_, ok := verbSubjects[prev]
				return prev == "" || ok
			}
		}
		prev = w
	}
	return false
}

// nearTerm reports whether two terms are one word: the same, one the other's prefix of three
// letters at least ("sun", "sunday"), or a misspelling of it (a Dice coefficient of their letter
// pairs of at least 0.7: "brekfast", "breakfast").
func nearTerm(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) >= 3 && strings.HasPrefix(b, a) {
		return true
	}
	if len(a) < 3 {
		return false
	}
	pairs := map[string]int{}
	for i := 0; i+2 <= len(a); i++ {
		pairs[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if pairs[b[i:i+2]] > 0 {
			pairs[b[i:i+2]]--
			common++
		}
	}
	return float64(2*common) >= 0.7*float64(len(a)-1+len(b)-1)
}

// synonymous reports whether two terms share a thesaurus group in any of its languages.
func synonymous(a, b string) bool {
	for _, s := range thesauri {
		gs := s.words[a]
		if len(gs) > 0 && slices.ContainsFunc(s.words[b], func(g int32) bool { return slices.Contains(gs, g) }) {
			return true
		}
	}
	return false
}
