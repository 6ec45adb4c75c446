package knowledge

import (
	"math"
	"slices"
	"strings"
	"sync"
)

// thesaurusWeight is the weight, in all, of the synonyms a question's word is expanded with
// (thesaurus) when no sentence holds the word: they stand in for it, and weigh as it would (a
// customer's "buttonholes" for a page's "boutonnieres", "sillita" for "silla para niño").
const thesaurusWeight = 1.0

// thesaurusKnown scales the synonyms of a word the sentences hold themselves: a customer's "fix"
// finds a page's "repair", but a sentence that uses the customer's own word still comes first.
const thesaurusKnown = 0.25

// thesaurusPhrase is the most words of a phrase of the thesaurus.
const thesaurusPhrase = 4

// thesaurus holds, for English, Portuguese and Spanish, groups of words and phrases that
// customers and businesses use for the same thing in customer service: prices, bookings,
// payments, deliveries, returns, places and times, people and needs. It is a general
// vocabulary of the domain, not the words of any one Brain; a question is expanded with the
// other members of the groups of its words (expand). Members are written as customers do, one
// group a line, members separated by commas; stop words are left out (they are no topic).
var thesaurus = map[string]string{
	"en": `
price, prices, pricing, cost, costs, fee, fees, charge, charges, rate, rates, tariff
cheap, affordable, inexpensive, budget, low cost
expensive, pricey, costly
book, booking, appointment, appointments, appt, appts, reservation, reserve, schedule, slot
cancel, cancellation, call off
reschedule, move, postpone, change the date, change
open, opening, opening hours, hours, hrs, times
close, closed, closing, shut
weekday, weekdays, monday to friday, working days
weekend, weekends, saturday and sunday
holiday, holidays, public holiday, bank holiday, hols
sport, sports, football, soccer, basketball, baseball, hockey, rugby
big, large, huge, oversized, oversize, giant, massive, extra large
address, location, located, directions, find you, street
take apart, takes apart, dismantle, dismantling, disassemble, disassembling
put back together, reassemble, reassembling, assemble, assembly
corp, corporation, corporations, s corp, s corporation
stored, storing, storage, in storage
near, nearby, close by, next to, around the corner
usa, united states, united states of america, america
uk, united kingdom, britain, great britain, england, scotland, wales
france, eu, europe, european union
germany, eu, europe, european union
ireland, eu, europe, european union
spain, eu, europe, european union
portugal, eu, europe, european union
italy, eu, europe, european union
netherlands, holland, eu, europe, european union
belgium, eu, europe, european union
austria, eu, europe, european union
denmark, eu, europe, european union
sweden, eu, europe, european union
finland, eu, europe, european union
poland, eu, europe, european union
greece, eu, europe, european union
luxembourg, eu, europe, european union
czechia, czech republic, eu, europe, european union
parking, park, car park, parking lot, garage
bus, train, metro, subway, tube, tram, public transport, transit
accessible, accessibility, wheelchair, disabled, disability, step free, lift, elevator, ramp, blue badge
valid, validity, expire, expires, expired, expiry, expiration, expiry date
pay, payment, payments, paying
card, cards, credit card, debit card, contactless
cash, notes, coins
installment, installments, instalment, instalments, payment plan, pay monthly, monthly payments, finance, financing, pay later
order, orders, purchase, buy
parcel, package, delivery, shipment
ship, shipping, deliver, delivery, send, dispatch, postage, post
track, tracking, status, where is my order
refund, refunds, money back, reimburse, reimbursement
return, returns, send back, bring back
exchange, swap, replace, replacement
damaged, broken, faulty, defective, not working, scratched, dented, cracked
fix, repair, repairs, mend, service, servicing
yard, yards, backyard, backyards, back yard, garden, gardens
discount, discounts, promo, promotion, coupon, voucher code, code, deal, sale
gift card, gift voucher, gift certificate, voucher, present
warranty, guarantee
size, sizes, sizing, fit
rent, rental, rentals, hire, lease
trial, try, test, try out, sample
membership, subscription, plan, pass, monthly fee
pause, freeze, suspend, put on hold, hold
child, children, kid, kids, son, daughter, toddler, baby, year old, years old
teen, teenager, teenagers, young people
adult, adults, grown up
people, ppl
senior, seniors, pensioner, pensioners, elderly, oap, oaps, retired, retiree, retirees, older people
student, students
beginner, beginners, first time, new to, never done, no experience, intro, introduction, introductory
pregnant, pregnancy, expecting, prenatal
allergy, allergies, allergic, intolerance
vegan, vegetarian, plant based, meat free, no meat, without meat, veggie
gluten free, gluten, coeliac, celiac, gf
pet, pets, dog, dogs, cat
wifi, wi fi, internet
phone, telephone, call, number, ring
email, e mail, mail
contact, reach, get in touch, talk to, speak to
complaint, complain, problem, issue
scared, afraid, anxious, nervous, fear, phobia, worried
pain, ache, hurt, hurts, sore, painful
emergency, urgent, asap, straight away, right away
staff, team, employee, employees
job, jobs, vacancy, vacancies, hiring, career, careers, work for you
late, last minute, short notice, delay, delayed
wait, waiting, queue, walk in, without appointment, no appointment
luggage, bags, baggage, suitcase, suitcases, backpack, backpacks, rucksack
check in, arrival, arrive
check out, checkout, departure, leave
breakfast, brunch
invoice, receipt, bill
account, login, log in, sign in, password
newsletter, subscribe, mailing list
insurance, insurer, insured, coverage
documents, document, paperwork, papers, id, identification, passport
medication, medicine, medicines, meds, prescription, prescriptions, pills
certificate, certificates, cert, certs, certification
information, info
tomorrow, tmrw, tmr
deposit, down payment, upfront, up front, in advance, advance payment, prepay, prepayment
available, availability, in stock, stock
online, website, web, internet, virtual, live stream
tour, guided, excursion, outing
petrol, fuel, diesel
pushchair, pushchairs, buggy, buggies, pram, prams, stroller, strollers
free, free of charge, no charge, complimentary
`,
	"pt": `
frança, europa, união europeia
alemanha, europa, união europeia
irlanda, europa, união europeia
espanha, europa, união europeia
itália, europa, união europeia
holanda, países baixos, europa, união europeia
bélgica, europa, união europeia
áustria, europa, união europeia
dinamarca, europa, união europeia
suécia, europa, união europeia
finlândia, europa, união europeia
polónia, polônia, europa, união europeia
grécia, europa, união europeia
luxemburgo, europa, união europeia
preco, precos, custo, custos, custa, custam, valor, tarifa, taxa, quanto custa, quanto fica, quanto sai
barato, barata, economico, acessivel
caro, cara
marcação, marcações, marcar, reserva, reservar, agendar, agendamento, consulta, vaga
desmarcar, cancelar, cancelamento, anular, faltar, sair do plano, desistir
remarcar, alterar, mudar a data, adiar
aberto, abertos, aberta, abrir, abrem, abre, horario, funcionamento
fechado, fechados, fechar, fecham, fecha, encerrado, encerrar, encerram, encerramos
dias uteis, dias de semana, segunda a sexta
fim de semana, fins de semana, sabado e domingo
feriado, feriados
morada, endereco, localização, localizados, fica, ficam, rua
perto, proximo, ao lado, junto
estados unidos, eua, usa
estacionamento, estacionar, estaciono, estacionamos, estaciona, parque, parquear, garagem, lugar
autocarro, metro, comboio, eletrico, transportes
acessivel, acessibilidade, cadeira de rodas, mobilidade reduzida, elevador, rampa
pagar, pagamento, pagamentos, pago
cartao, cartoes, multibanco, credito, debito, mb way, mbway
dinheiro, numerario, grana
carrinho de bebé, carrinho de bebê, carrinhos de bebé, carrinhos de bebê, carrinho de passeio
grátis, gratuito, gratuita, gratuitos, gratuitas, de graça, sem custo
prestações, prestação, pagamento faseado, mensalidades, financiamento, parcelar, parcela, parcelas, parcelado, parcelamento, sem juros, vezes sem juros
encomenda, encomendas, pedido, comprar, compra
entrega, entregas, envio, envios, enviar, entregar, portes, pacote
devolução, devoluções, devolver, reembolso, reembolsar, dinheiro de volta
troca, trocas, trocar, substituir
estragado, partido, avariado, defeito, danificado, riscado, amolgado, rachado
arranjar, reparar, reparação, consertar, conserto, revisao
desconto, descontos, promoção, promoções, cupao, codigo
vale, vales, vale oferta, cartao oferta, presente, oferecer
garantia
tamanho, tamanhos, medida
alugar, aluguer, aluguel
experimentar, experiencia, aula experimental, teste
mensalidade, quota, assinatura, subscrição, plano
pausar, suspender, congelar, interromper
crianca, criancas, filho, filha, filhos, miudo, miudos, infantil, bebe, anos
adolescente, adolescentes, jovens
adulto, adultos
idoso, idosos, senior, reformado, reformados, aposentado, aposentados, aposentada, terceira idade
estudante, estudantes
principiante, iniciante, primeira vez, nunca, sem experiencia, introdução, introdutório, introdutória
gravida, gravidez, pre natal, gestante, gestantes, gestação
alergia, alergias, alergico, alergica, intolerancia
vegano, vegana, vegetariano, vegetariana, sem carne
sem gluten, gluten, celiaco
animal, animais, pet, pets, cão, cães, cachorro, cachorros, cachorra, gato, gatos, cachorrinho, cachorrinhos, cachorrinha, gatinho, gatinhos, gatinha
wifi, internet
telefone, telemovel, ligar, numero, chamada
email, correio eletronico, mail
contacto, contactar, falar com
reclamação, reclamar, problema
medo, assustado, ansioso, ansiosa, nervoso, nervosa
dor, doi, dores, dorido
urgência, urgencia, urgente, emergência, emergencia, socorro
emprego, vaga de emprego, candidatura, trabalhar convosco
atraso, atrasado, atrasada, ultima hora, em cima da hora
sem marcação, sem reserva, ir direto
bagagem, bagagens, malas, mala, mochila, mochilas
documento, documentos, papéis, papeis, identidade, rg, passaporte
remédio, remédios, medicamento, medicamentos, medicação, receita, receitas
mulher, mulheres, feminino, feminina, meninas, moças
seguro, seguros, seguradora, convênio, convênios, plano de saúde
sinal, depósito, caução, adiantamento, pagar adiantado, adiantado, antecipadamente
pequeno almoco
fatura, recibo
conta, login, entrar, palavra passe
online, site, internet, virtual, direto
`,
	"es": `
francia, europa, unión europea
alemania, europa, unión europea
irlanda, europa, unión europea
portugal, europa, unión europea
italia, europa, unión europea
holanda, países bajos, europa, unión europea
bélgica, europa, unión europea
austria, europa, unión europea
dinamarca, europa, unión europea
suecia, europa, unión europea
finlandia, europa, unión europea
polonia, europa, unión europea
grecia, europa, unión europea
luxemburgo, europa, unión europea
precio, precios, coste, costo, cuesta, cuestan, tarifa, tarifas, importe, cuanto cuesta, cuanto vale, cuanto sale, cuanto me sale
barato, barata, economico, asequible
caro, cara
reserva, reservas, reservar, cita, turno, agendar, plaza
cancelar, cancelación, anular, faltar, dar de baja, darme de baja, darse de baja, me doy de baja, darte de baja, te das de baja, se da de baja
cambiar la fecha, aplazar, mover
abierto, abiertos, abrir, abren, abre, horario, horarios
cerrado, cerrados, cerrar, cierran, cierra
entre semana, dias laborables, lunes a viernes
fin de semana, fines de semana, sabado y domingo
festivo, festivos, feriado
dirección, ubicación, ubicados, estan, calle
cerca, cercano, al lado, junto
estados unidos, eeuu, usa
aparcamiento, aparcar, aparco, aparcamos, parking, estacionamiento, estacionar, estaciono, estacionamos, garaje
autobus, metro, tren, tranvia, transporte publico
accesible, accesibilidad, silla de ruedas, movilidad reducida, ascensor, rampa
pagar, pago, pagos
tarjeta, tarjetas, credito, debito, bizum
efectivo, metalico
plazos, a plazos, pago fraccionado, mensualidades, financiación, en cuotas, a cuotas, de a poco, poco a poco, de a poquito
pedido, pedidos, compra, comprar
entrega, entregas, envio, envios, enviar, paquete
devolución, devoluciones, devolver, regresar, reembolso, reembolsar, dinero de vuelta
cambio, cambios, cambiar, sustituir
roto, rota, estropeado, defectuoso, dañado, no funciona, rayado, arañado, golpeado
arreglar, reparar, reparación, arreglo
descuento, descuentos, promoción, promociones, cupon, codigo, oferta
bono regalo, tarjeta regalo, vale, regalo, regalar
garantia
talla, tallas, medida
alquilar, alquiler
probar, prueba, clase de prueba, clase gratis
cuota, mensualidad, suscripción, membresia, abono, bono, plan
pausar, congelar, suspender, interrumpir
nino, ninos, nina, ninas, hijo, hija, hijos, peque, peques, infantil, bebe, anos
adolescente, adolescentes, jovenes
adulto, adultos
mayor, mayores, jubilado, jubilados, pensionista, pensionistas, tercera edad
estudiante, estudiantes
principiante, principiantes, primera vez, nunca, sin experiencia, iniciación, introducción, introductorio, introductoria
embarazada, embarazo, prenatal
alergia, alergias, alergico, alergica, intolerancia
vegano, vegana, vegetariano, vegetariana, sin carne
sin gluten, gluten, celiaco
mascota, mascotas, perro, perros, gato, perrito, perritos, perrita, perritas, gatito, gatitos
wifi, internet
telefono, movil, llamar, numero, llamada
email, correo, correo electronico
contacto, contactar, hablar con
queja, quejarse, reclamación, problema
miedo, asustado, ansioso, ansiosa, nervioso, nerviosa
dolor, duele, dolores, lesión
urgencia, urgente, emergencia
empleo, trabajo, vacante, trabajar con vosotros
retraso, tarde, ultima hora
sin cita, sin reserva
equipaje, maletas, maleta, mochila, mochilas
medicamento, medicamentos, medicación, medicina, medicinas, pastillas, receta, recetas
mujer, mujeres, femenino, femenina, chicas, señoras
seguro, seguros, aseguradora, aseguradoras, mutua, póliza
depósito, señal, seña, anticipo, adelanto, fianza, pago por adelantado, por adelantado, adelantado
desayuno
factura, recibo
cuenta, login, iniciar sesión, contrasena
online, en linea, web, virtual, en directo
dinero, plata
cochecito, cochecitos, carriola, carriolas, carrito de bebé, carro de bebé
gratis, gratuito, gratuita, gratuitos, gratuitas, sin costo, sin coste
`,
}

// synonyms is the thesaurus read: for each language, each member's groups by the member's
// Tokens (one word) or its words folded (a phrase of several, in phrases).
type synonyms struct {
	groups  [][]string         // members of each group, lower case with their accents (the stemmers read them)
	words   map[string][]int32 // a one-word member's token → its groups
	phrases map[string][]int32 // " a phrase " → its groups
}

var thesauri = func() map[string]*synonyms {
	out := make(map[string]*synonyms, len(thesaurus))
	for lang, text := range thesaurus {
		s := &synonyms{words: map[string][]int32{}, phrases: map[string][]int32{}}
		for line := range strings.Lines(text + tradeThesaurus[lang] + regionalThesaurus[lang]) {
			var members, folded []string
			for _, m := range strings.Split(line, ",") {
				if f := NormalizeQuestion(m); f != "" {
					members = append(members, strings.Join(lowerWords(m), " "))
					folded = append(folded, f)
				}
			}
			if len(members) < 2 {
				continue
			}
			g := int32(len(s.groups))
			s.groups = append(s.groups, members)
			for _, m := range folded {
				if strings.Contains(m, " ") {
					s.phrases[" "+m+" "] = append(s.phrases[" "+m+" "], g)
				} else if t := Tokens(m); len(t) == 1 {
					s.words[t[0]] = append(s.words[t[0]], g)
				}
			}
		}
		out[lang] = s
	}
	return out
}()

// expand returns the features (of the word stems only, as this matcher keys them) of the
// synonyms of a query's words and phrases (thesaurus, in the query's language) that the query
// does not hold itself (raw: its features) and some item does: a synonym no item holds would
// only weigh the query down. Each group's synonyms weigh thesaurusWeight in all, times
// thesaurusKnown when only words the items hold themselves led to the group; nil when none.
func (m *faqMatcher) expand(q *query, raw []feature) []feature {
	s := thesauri[q.lang]
	if s == nil || len(raw) == 0 {
		return nil
	}
	var groups []int32
	var scale []float64
	add := func(gs []int32, f float64) {
		for _, g := range gs {
			if i := slices.Index(groups, g); i >= 0 {
				scale[i] = max(scale[i], f)
				continue
			}
			groups = append(groups, g)
			scale = append(scale, f)
		}
	}
	folded := q.folded
	s.eachPhrase(folded, func(_ []int, _ []byte, gs []int32) { add(gs, 1) })
	for i := range q.words {
		key, ok := q.stemKey(i)
		if !ok {
			continue
		}
		f := 1.0
		if _, known := m.feats.get(key); known {
			f = thesaurusKnown
		}
		add(s.words[stem(folded[i])], f)
	}
	if len(groups) == 0 {
		return m.abroad(q, raw, nil)
	}
	// A group's keys are stems' (never an n-gram's), so only the query's stems and the synonyms
	// added before can hold one: a few keys, looked up one by one rather than hashed.
	var buf [16]string
	have := buf[:0]
	for _, f := range raw {
		if !f.gram {
			have = append(have, f.key)
		}
	}
	var out []feature
	held := func(key string) bool {
		return slices.Contains(have, key) || slices.ContainsFunc(out, func(f feature) bool { return f.key == key })
	}
	for k, g := range groups {
		start := len(out)
		for _, key := range m.groupKeys(s, q.lang, g) {
			if !held(key) {
				out = append(out, feature{key: key, weight: 1})
			}
		}
		added := out[start:]
		for i := range added {
			added[i].weight *= scale[k] * thesaurusWeight / math.Sqrt(float64(len(added)))
		}
	}
	return m.abroad(q, raw, out)
}

// groupKeys returns the keys of the stems of the members of group g of the thesaurus s of lang
// that some item holds, made once for each group.
func (m *faqMatcher) groupKeys(s *synonyms, lang string, g int32) []string {
	type groupKey struct {
		lang  string
		group int32
	}
	return cached(&m.synonyms, groupKey{lang, g}, func() []string {
		var keys []string
		for _, member := range s.groups[g] {
			for _, w := range strings.Fields(member) {
				key, ok := m.stemKey(w, foldWord(w), lang)
				if _, known := m.feats.get(key); ok && known && !slices.Contains(keys, key) {
					keys = append(keys, key)
				}
			}
		}
		return keys
	})
}

// cached returns the value of key in c, made by build and stored the first time.
func cached[T any](c *sync.Map, key any, build func() T) T {
	if v, ok := c.Load(key); ok {
		return v.(T)
	}
	v := build()
	c.Store(key, v)
	return v
}

// stemKey returns the key of the stem feature of a lower-case word (folded: the same folded) in
// lang, as wordKeys makes it; false for a stop word or a single letter.
func (m *faqMatcher) stemKey(w, folded, lang string) (string, bool) {
	if _, stop := stopwords[folded]; stop {
		return "", false
	}
	key := m.stemFeature(w, folded, lang)
	return key, key != ""
}

// titlesUnexpanded sets the similarity of the titles (sim, of every sentence) to that of the
// query's own features q, without its synonyms: a title names its page's topics in a few words,
// often two of the same group ("Repairs and servicing"), so a question's synonyms would raise it
// above every sentence that answers.
func (s *sentenceMatcher) titlesUnexpanded(q []feature, sim []float64) {
	own := make([]float64, len(sim))
	s.m.similarity(q, own)
	for i, t := range s.title {
		if t {
			sim[i] = own[i]
		}
	}
}

// eachPhrase calls f with each phrase of the thesaurus in a query's words (folded): the runs of 2
// to thesaurusPhrase words, shortest first, then the phrasal verbs split by their object ("pick
// it up": splitObject); with the positions of its words, its key (as phraseKey writes it; f must
// not keep it) and its groups.
func (s *synonyms) eachPhrase(folded []string, f func(at []int, key []byte, gs []int32)) {
	buf := make([]byte, 0, 64) // most keys fit: grown once at most
	at := make([]int, 0, thesaurusPhrase)
	for n := 2; n <= thesaurusPhrase; n++ {
		for i := 0; i+n <= len(folded); i++ {
			buf = phraseKey(buf, folded[i:i+n]...)
			if gs, ok := s.phrases[string(buf)]; ok {
				at = at[:0]
				for k := i; k < i+n; k++ {
					at = append(at, k)
				}
				f(at, buf, gs)
			}
		}
	}
	for i := 0; i+3 <= len(folded); i++ {
		if splitObject[folded[i+1]] {
			buf = phraseKey(buf, folded[i], folded[i+2])
			if gs, ok := s.phrases[string(buf)]; ok {
				f(append(at[:0], i, i+2), buf, gs)
			}
		}
	}
}

// splitObject are the pronouns that split an English phrasal verb of the thesaurus ("pick it
// up", "drop them off", "call me back"): the phrase is read without them.
var splitObject = map[string]bool{"it": true, "them": true, "him": true, "her": true, "me": true, "us": true, "you": true, "this": true, "that": true}
