package knowledge

import (
	"math"
	"slices"
	"strings"
)

// abroadWords are, for a Brain in Portuguese or Spanish, the words of customer service an English
// question (a tourist's: "can i pay by card?", "what is the minimum age to rent a car?") names a
// thing by, each with the Brain's words for it: a small bilingual lexicon of the trades' nouns and
// verbs, of one sense each. An English word the Brain holds itself ("menu", "tour") is not
// translated (abroad).
var abroadWords = func() map[string]map[string][]string {
	const list = `pay, paying, payment: pagar pagamento pago | pagar pago
card, cards: cartao cartoes | tarjeta tarjetas
cash: dinheiro numerario | efectivo
price, prices, cost, costs: preco precos custa custo | precio precios cuesta costo
age: idade | edad
minimum: minima minimo | minima minimo
rent, rental, hire: alugar aluguer | alquilar alquiler rentar renta
car, cars: carro carros | auto autos coche coches
kid, kids, child, children: crianca criancas | nino ninos
book, booking, reservation, reserve: reserva reservar marcar marcacao | reserva reservar
cancel, cancellation: cancelar cancelamento | cancelar cancelacion
refund: reembolso | reembolso
parking, park: estacionamento estacionar | aparcar aparcamiento estacionamiento
breakfast: pequeno almoco | desayuno
lunch: almoco | almuerzo
dinner: jantar | cena
dog, dogs: cao caes | perro perros
pet, pets: animais | mascotas
deposit: sinal caucao deposito | deposito fianza senal
student, students: estudante estudantes | estudiante estudiantes
discount, discounts: desconto descontos | descuento descuentos
delivery, deliver: entrega entregas | envio entrega
ticket, tickets: bilhete bilhetes | entrada entradas billete
bike, bikes, bicycle: bicicleta bicicletas | bici bicis bicicleta
room, rooms: quarto quartos | habitacion habitaciones
luggage, bags: bagagem malas | equipaje maleta mochila
towel, towels: toalha toalhas | toalla toallas
airport: aeroporto | aeropuerto
beach: praia | playa
insurance: seguro | seguro
license, licence: carta | licencia carnet`
	out := map[string]map[string][]string{"pt": {}, "es": {}}
	for _, line := range strings.Split(list, "\n") {
		en, rest, _ := strings.Cut(line, ":")
		pt, es, _ := strings.Cut(rest, "|")
		for _, w := range strings.Split(en, ",") {
			w = strings.TrimSpace(w)
			out["pt"][w] = strings.Fields(pt)
			out["es"][w] = strings.Fields(es)
		}
	}
	return out
}()

// abroad appends to out (the synonyms of the query's words) the Brain's words for the English
// words of the query the Brain does not hold (abroadWords; a Brain in Portuguese or Spanish),
// those of each word weighing thesaurusWeight in all, as a synonym of a word no sentence holds;
// raw are the query's own features.
func (m *faqMatcher) abroad(q *query, raw, out []feature) []feature {
	lex := abroadWords[m.lang]
	if lex == nil {
		return out
	}
	held := func(key string) bool {
		return slices.ContainsFunc(raw, func(f feature) bool { return !f.gram && f.key == key }) ||
			slices.ContainsFunc(out, func(f feature) bool { return f.key == key })
	}
	for i, w := range q.folded {
		targets := lex[w]
		if len(targets) == 0 {
			continue
		}
		if key, ok := q.stemKey(i); ok {
			if _, known := m.feats.get(key); known {
				continue
			}
		}
		start := len(out)
		for _, t := range targets {
			key, ok := m.stemKey(t, t, m.lang)
			if _, known := m.feats.get(key); !ok || !known || held(key) {
				continue
			}
			out = append(out, feature{key: key, weight: 1})
		}
		added := out[start:]
		for j := range added {
			added[j].weight = thesaurusWeight / math.Sqrt(float64(len(added)))
		}
	}
	return out
}
