package knowledge

import "strings"

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
// pay" and "Do you take trade-ins?") answers another question.
func SharesTopic(query, question string) bool {
	terms := make(map[string]struct{})
	for _, t := range Tokens(question) {
		if _, light := lightWords[t]; !light {
			terms[t] = struct{}{}
		}
	}
	for _, t := range Tokens(query) {
		if _, ok := terms[t]; ok {
			return true
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
