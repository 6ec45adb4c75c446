package knowledge

import (
	"math"
	"slices"
	"strings"
)

// abroadLines are the words of customer service a question in another language than the Brain's
// names a thing by (a tourist's "can i pay by card?" to a Spanish hostel, a neighbour's "se puede
// llevar perro?" to an Oregon farm, a Brazilian's "vcs aceitam real?" to a Uruguayan winery): a
// small lexicon of English, Portuguese and Spanish, one sense a line, its words in each language
// (accents folded) separated by "|". Prices, payment, hours and days, booking, languages spoken,
// children, pets, parking and transport, delivery, lessons, stays and food: words of every trade,
// not one business's nouns. A word marked "~" is one the Brain may write but a question is not
// read by, its other sense being as common ("sinal" of a phone's signal, "seguro" for safe, "vale"
// for "ok", "fecha" for a date in Spanish, "pequeno" of Portugal's "pequeno-almoço" for small,
// "park" for a garden).
const abroadLines = `pay, paying, paid, payment, payments | pagar, pagamento, pagamentos, pago, paga, pagam, pagamos | pagar, pago, pagos, paga, pagan, pagamos
card, cards | cartao, cartoes | tarjeta, tarjetas
credit | credito | credito
debit | debito | debito
cash | dinheiro, numerario, especie | efectivo, contado
accept, accepts, accepted | aceitar, aceitam, aceita, aceitamos, aceitais | aceptar, aceptan, acepta, aceptamos, aceptais
dollar, dollars, usd | dolar, dolares | dolar, dolares
reais | real, reais | real, reales
price, prices, cost, costs, fee, fees, rate, rates | preco, precos, custa, custam, custo, custos, valor, valores, tarifa, tarifas | precio, precios, cuesta, cuestan, costo, coste, tarifa, tarifas
free | gratis, gratuito, gratuita, gratuitos, gratuitas | gratis, gratuito, gratuita, gratuitos, gratuitas
discount, discounts | desconto, descontos | descuento, descuentos
deposit | ~sinal, caucao, deposito | deposito, fianza, ~senal
refund, refunds | reembolso, reembolsos | reembolso, reembolsos
open, opens, opening | aberto, aberta, abertos, abre, abrem, abrimos, abertura | abierto, abierta, abiertos, abre, abren, abrimos, apertura
close, closes, closed, closing | fechado, fechada, fecham, fechamos, ~fecha | cerrado, cerrada, cierra, cierran, cerramos
hours, schedule, timetable | horario, horarios | horario, horarios
hour, hours | hora, horas | hora, horas
today | hoje | hoy
night, nights | noite, noites | noche, noches
week, weekly | semana, semanas, semanal | semana, semanas, semanal
month, months, monthly | mes, meses, mensal, mensalidade | mes, meses, mensual, mensualidad
monday | segunda | lunes
tuesday | terca | martes
wednesday | quarta | miercoles
thursday | quinta | jueves
friday | sexta | viernes
saturday | sabado, sabados | sabado, sabados
sunday | domingo, domingos | domingo, domingos
holiday, holidays | feriado, feriados | feriado, feriados, festivo, festivos
book, booking, bookings, reservation, reservations, reserve, appointment, appointments | reserva, reservas, reservar, marcar, marcacao, agendar, agendamento | reserva, reservas, reservar, cita, citas
cancel, cancellation | cancelar, cancelamento | cancelar, cancelacion
english | ingles | ingles
spanish | espanhol, castelhano | espanol, castellano
portuguese | portugues | portugues
french | frances | frances
german | alemao | aleman
language, languages | lingua, linguas, idioma, idiomas | idioma, idiomas, lengua, lenguas
speak, speaks, spoken, speaking | falar, falam, fala, falamos | hablar, hablan, habla, hablamos
kid, kids, child, children | crianca, criancas, infantil, miudo, miudos | nino, ninos, nina, ninas, infantil
baby, babies | bebe, bebes | bebe, bebes
adult, adults | adulto, adultos | adulto, adultos
senior, seniors, elderly, pensioner, pensioners | idoso, idosos, aposentado, aposentados | jubilado, jubilados
student, students | estudante, estudantes | estudiante, estudiantes
age | idade | edad
minimum | minima, minimo | minima, minimo
dog, dogs | cao, caes, cachorro, cachorros | perro, perros
cat, cats | gato, gatos | gato, gatos
pet, pets | animais, animal | mascota, mascotas, animales
allowed, allow, permitted | permitido, permitida, permitidos, permitidas, permitem, permite | permitido, permitida, permitidos, permitidas, permiten, permite, admiten, admite
parking, ~park | estacionamento, estacionar | aparcar, aparcamiento, estacionamiento, parking
car, cars | carro, carros | auto, autos, coche, coches
rent, rental, hire | alugar, aluguer, aluguel | alquilar, alquiler, rentar, renta
bike, bikes, bicycle | bicicleta, bicicletas | bici, bicis, bicicleta
bus | autocarro, onibus | autobus, bus
train | comboio, trem | tren
station | estacao | estacion
airport | aeroporto | aeropuerto
address | morada, endereco | direccion
near, nearby | perto, proximo | cerca
wheelchair, accessible, accessibility | acessivel, acessibilidade, cadeirante | accesible, accesibilidad
toilet, toilets, bathroom, bathrooms, restroom, restrooms | banheiro, banheiros, sanitarios, wc | bano, banos, aseo, aseos, sanitarios
delivery, deliver, deliveries, ship, shipping | entrega, entregas, envio, envios | envio, envios, entrega, entregas
home | domicilio, casa | domicilio, casa
shop, store | loja, lojas | tienda, tiendas
buy | comprar, compra | comprar, compra
sell | vender, vendem, venda | vender, venden, venta
included, include, includes | incluido, incluida, incluidos, inclui, incluem | incluido, incluida, incluidos, incluye, incluyen
class, classes, lesson, lessons | aula, aulas | clase, clases
course, courses | curso, cursos | curso, cursos
teacher, teachers, instructor, instructors | professor, professores, professora, instrutor, instrutores | profesor, profesores, profesora, instructor, instructores
teach, teaches, teaching | ensinar, ensinam, ensina, ensinamos | ensenar, ensenan, ensena, ensenamos
guide, guides, guided | guia, guias, guiada, guiadas | guia, guias, guiado, guiada, guiadas
visit, visits, tour, tours | visita, visitas, passeio, passeios | visita, visitas, recorrido, recorridos
therapist, therapists | terapeuta, terapeutas | terapeuta, terapeutas
doctor, doctors | medico, medica, medicos | medico, medica, medicos
room, rooms | quarto, quartos | habitacion, habitaciones
pool | piscina | piscina
shower, showers | chuveiro, duche | ducha, duchas
kitchen | cozinha | cocina
locker, lockers | cacifo, cacifos | taquilla, taquillas, casillero, casilleros
breakfast | ~pequeno, ~almoco | desayuno
lunch | almoco | almuerzo
dinner | jantar | cena
vegetarian, veggie | vegetariano, vegetariana, vegetarianos | vegetariano, vegetariana, vegetarianos
vegan | vegano, vegana, veganos | vegano, vegana, veganos
food | comida | comida
drink, drinks | bebida, bebidas | bebida, bebidas
wine | vinho, vinhos | vino, vinos
beer | cerveja | cerveza
coffee | cafe | cafe
gift, gifts | presente, presentes, ~oferta | regalo, regalos
voucher, vouchers | ~vale, ~vales | ~vale, ~vales
wedding, weddings | casamento, casamentos | boda, bodas, casamiento
birthday, birthdays | aniversario | cumpleanos
party, parties | festa, festas | fiesta, fiestas
group, groups | grupo, grupos | grupo, grupos
people, person, persons | pessoa, pessoas | persona, personas
private | privado, privada, privados, particular, particulares | privado, privada, privados, particular
phone, telephone | telefone, telemovel, celular | telefono, celular, movil
warranty, guarantee | garantia | garantia
repair, fix | conserto, consertar, reparar, arranjar | reparar, reparacion, arreglar, arreglo
return, returns | devolver, devolucao, devolucoes | devolver, devolucion, devoluciones
exchange | troca, trocar | cambio, cambiar
smoke, smoking | fumar, fumadores | fumar, fumadores
pound, pounds, lb, lbs | libra, libras | libra, libras
luggage, bags | bagagem, malas | equipaje, maleta, mochila
towel, towels | toalha, toalhas | toalla, toallas
beach | praia | playa
insurance | ~seguro | ~seguro
license, licence | ~carta | licencia, carnet
ticket, tickets, entry, admission | bilhete, bilhetes, ingresso, entrada | entrada, entradas, billete, boleto, ingreso`

// The languages of abroadLines' columns.
var abroadLangs = [3]string{"en", "pt", "es"}

// abroadLex is abroadLines read: of each sense its words in each language (the "~" taken off),
// and of each language the senses of the light stem (stem) of each word a question is read by.
var abroadLex = func() (lex struct {
	senses [][3][]string
	words  [3]map[string][]int32
}) {
	for l := range abroadLangs {
		lex.words[l] = map[string][]int32{}
	}
	for _, line := range strings.Split(abroadLines, "\n") {
		cols := strings.Split(line, "|")
		var sense [3][]string
		g := int32(len(lex.senses))
		for l, col := range cols {
			for _, w := range strings.FieldsFunc(col, func(r rune) bool { return r == ',' || r == ' ' }) {
				target, ok := strings.CutPrefix(w, "~")
				sense[l] = append(sense[l], target)
				if ok {
					continue
				}
				if st := stem(w); !slices.Contains(lex.words[l][st], g) {
					lex.words[l][st] = append(lex.words[l][st], g)
				}
			}
		}
		lex.senses = append(lex.senses, sense)
	}
	return lex
}()

// abroadLang returns the column of a language in abroadLines, -1 for another.
func abroadLang(lang string) int {
	return slices.Index(abroadLangs[:], lang)
}

// abroadWords returns the Brain's words (of language brain) for the folded word f of a question
// in language qlang, through the senses f has in the languages the question may be written in
// other than the Brain's: the question's own, and English always (a tourist's short question,
// "parking?", is too short for its language to tell and reads as the Brain's); nil when f has
// none. The words are abroadLex's, of the senses in their order.
func abroadWords(f, qlang, brain string) [][]string {
	b := abroadLang(brain)
	if b < 0 {
		return nil
	}
	var out [][]string
	st := ""
	for l, lang := range abroadLangs {
		if l == b || lang != qlang && lang != "en" {
			continue
		}
		if st == "" {
			st = stem(f)
		}
		for _, g := range abroadLex.words[l][st] {
			if words := abroadLex.senses[g][b]; len(words) > 0 {
				out = append(out, words)
			}
		}
	}
	return out
}

// abroadFrom reports whether a question in qlang to a Brain in brain may be read through
// abroadWords: it is in another language, or the Brain's is not English (an English word in it).
func abroadFrom(qlang, brain string) bool {
	return abroadLang(brain) >= 0 && (qlang != brain || brain != "en")
}

// abroad appends to out (the synonyms of the query's words) the Brain's words (abroadWords) for
// the words of the query the Brain does not hold, those of each word weighing thesaurusWeight in
// all, as a synonym of a word no sentence holds; raw are the query's own features.
func (m *faqMatcher) abroad(q *query, raw, out []feature) []feature {
	if !abroadFrom(q.lang, m.lang) {
		return out
	}
	held := func(key string) bool {
		return slices.ContainsFunc(raw, func(f feature) bool { return !f.gram && f.key == key }) ||
			slices.ContainsFunc(out, func(f feature) bool { return f.key == key })
	}
	for i, w := range q.folded {
		if _, stop := stopwords[w]; stop || len(w) < 2 {
			continue
		}
		if key, ok := q.stemKey(i); ok {
			if _, known := m.feats.get(key); known {
				continue
			}
		}
		start := len(out)
		for _, targets := range abroadWords(w, q.lang, m.lang) {
			for _, t := range targets {
				key, ok := m.stemKey(t, t, m.lang)
				if _, known := m.feats.get(key); !ok || !known || held(key) {
					continue
				}
				out = append(out, feature{key: key, weight: 1})
			}
		}
		added := out[start:]
		for j := range added {
			added[j].weight = thesaurusWeight / math.Sqrt(float64(len(added)))
		}
	}
	return out
}

// abroadTerm returns the index's term of the Brain's word t (folded): by its term, else by its
// stem as the matchers read it (stemTerms); false when the Brain does not hold it.
func (ix *Index) abroadTerm(t string) (int32, bool) {
	if id, ok := ix.terms.get(stem(t)); ok {
		return id, true
	}
	if ix.stemTerms != nil {
		if id, ok := ix.stemTerms[ix.faq.stemWord(t, ix.faq.lang)]; ok && id >= 0 {
			return id, true
		}
	}
	return 0, false
}

// abroadRead sets q.abroad, for a question in another language than the Brain's (as Detect
// reads it; an English word in a Portuguese question is only abroad's synonym): of each word of
// the question that no term holds, the first of the Brain's words for its senses in the
// languages the question may be in (abroadWords) that the Brain holds (abroadTerm), which the
// question is then read by in the word's place, in BM25 (abroadKnown) and in the matchers'
// features (queryFeatures): "can i pay by card?" to a Spanish Brain is read as "pagar" and
// "tarjeta", not as two words no entry holds that weigh its features down. It reports whether a
// word is read so.
func (ix *Index) abroadRead(q *query) bool {
	if q.lang == ix.faq.lang || abroadLang(ix.faq.lang) < 0 {
		return false
	}
	read := false
	for i, f := range q.folded {
		if len(f) < 2 {
			continue
		}
		if _, stop := stopwords[f]; stop {
			continue
		}
		if _, ok := ix.terms.get(stem(f)); ok {
			continue
		}
	senses:
		for _, targets := range abroadWords(f, q.lang, ix.faq.lang) {
			for _, t := range targets {
				if _, ok := ix.abroadTerm(t); ok {
					if q.abroad == nil {
						q.abroad = make([]string, len(q.folded))
					}
					q.abroad[i], read = t, true
					break senses
				}
			}
		}
	}
	return read
}

// abroadKnown returns known and unknown (lookup's) with the terms of the Brain's words the
// question's words are read as (abroadRead) among the known, each in the place of a word no
// entry holds.
func (ix *Index) abroadKnown(q *query, known []int32, unknown int) ([]int32, int) {
	for _, t := range q.abroad {
		if unknown == 0 {
			break
		}
		if t == "" {
			continue
		}
		id, _ := ix.abroadTerm(t)
		if at, found := slices.BinarySearch(known, id); !found {
			known = slices.Insert(known, at, id)
			unknown--
		}
	}
	return known, unknown
}
