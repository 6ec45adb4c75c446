package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// Detail is a contact detail of the business that a customer asks for: its opening hours, its
// phone number, its e-mail address, its address, or how to reach it at all (a set of them).
// The agent's profile holds them (profile.Contact), so a question asking for one has an answer
// even when no page or FAQ item of the Brain states it.
type Detail uint8

// The details a question can ask for.
const (
	DetailHours Detail = 1 << iota
	DetailPhone
	DetailEmail
	DetailAddress
	DetailReach // how to contact the business, by any way it gives
)

// detailPhrases are the phrases (folded, as NormalizeQuestion writes them) by which a question in
// English, Portuguese or Spanish asks for a detail. They are the questions' own words, written
// from the three languages' usual ways of asking, and chosen to be specific: "phone" alone is
// not asked for the business's number ("do you fix phone screens"), nor "address" alone for its
// address ("can I change my delivery address"), so those are read in their phrases only.
var detailPhrases = map[Detail][]string{
	DetailHours: {
		"opening hours", "opening times", "opening time", "closing time", "closing times", "business hours",
		"open hours", "working hours", "office hours", "store hours", "shop hours", "your hours",
		"what are the hours", "what hours", "hours of operation", "que horas fecha", "quando fecha", "horas fecha",
		"fecha que horas", "fecha a que horas", "fecham que horas", "fecham a que horas",
		"horario de funcionamento", "horario de atendimento", "horario de abertura", "horario da loja", "vosso horario",
		"seu horario", "horas de abertura", "hora de abertura", "hora de fecho",
		"horario de atencion", "horario de apertura", "horario de la tienda", "su horario", "vuestro horario",
		"que horario tienen", "hora de apertura", "hora de cierre",
	},
	DetailPhone: {
		"phone number", "telephone number", "your phone", "your number", "contact number", "number to call",
		"call you", "phone you", "ring you", "give you a call", "give you a ring",
		"numero de telefone", "vosso telefone", "seu telefone", "teu telefone", "telefone de voces", "telefone da loja",
		"telefone para contacto", "telefone para contato", "ligar para voces", "ligar vos", "ligar para a loja",
		"numero de telefono", "su telefono", "vuestro telefono", "tu telefono", "telefono de contacto",
		"llamarles", "llamaros", "llamarlos", "llamar a la tienda",
		// WhatsApp, "whats" and "zap" in Brazil, asked as a number ("qual o whats de vcs"); not
		// "pelo whatsapp", "por whatsapp", which ask a way of doing something.
		"your whatsapp", "whatsapp number", "qual o whatsapp", "qual e o whatsapp", "qual o whats", "qual o zap",
		"seu whatsapp", "seu whats", "seu zap", "vosso whatsapp", "whatsapp de voces", "whats de voces", "zap de voces",
		"numero do whatsapp", "numero de whatsapp", "numero do whats", "numero do zap",
		"su whatsapp", "vuestro whatsapp", "tu whatsapp", "cual es el whatsapp",
	},
	DetailEmail: {
		"your email", "your e mail", "email address", "e mail address", "contact email", "email you", "e mail you",
		"mail you", "send you an email", "send you an e mail", "write to you",
		"vosso email", "seu email", "teu email", "vosso e mail", "seu e mail", "endereco de email",
		"endereco de e mail", "enviar um email", "enviar vos um email", "mandar um email", "escrever vos", "escrever para voces",
		"su correo", "vuestro correo", "tu correo", "su email", "su e mail", "correo electronico",
		"enviar un correo", "enviarles un correo", "mandar un correo", "escribirles", "escribiros",
	},
	DetailAddress: {
		"your address", "what is the address", "whats the address", "you located", "is your shop located",
		"is the shop located", "is the store located", "is the office located", "your location",
		"where are you", "where is your", "wheres your", "where s your", "where is the shop", "where is the store", "where is the office",
		"where can i find you", "find you", "directions to", "how do i get there", "how to get there",
		"how do i get to you", "how can i get there", "get to your",
		"vossa morada", "a morada da loja", "qual e a morada", "qual a morada", "endereco da loja", "vosso endereco",
		"seu endereco", "qual o endereco", "qual e o endereco", "onde ficam", "onde fica a loja", "onde estao",
		"onde e a loja", "onde se encontram", "vossa localizacao", "como chego", "como chegar",
		"su direccion", "vuestra direccion", "cual es la direccion", "la direccion de la tienda", "su ubicacion",
		"donde estan", "donde estais", "donde se encuentran", "donde queda", "donde esta la tienda", "como llego", "como llegar",
		// What to give the sat nav, or a maps app, is the address: "whats the postcode for the
		// satnav", "o endereço pro waze", "¿qué pongo en el gps?".
		"for the satnav", "for my satnav", "for the sat nav", "for my sat nav", "in the satnav", "into the satnav",
		"for the gps", "for my gps", "into the gps", "put in the gps",
		"pro gps", "para o gps", "pro waze", "no waze", "para o waze", "coloco no gps",
		"para el gps", "en el gps", "para el waze", "en el waze", "pongo en el gps",
	},
	DetailReach: {
		"contact you", "reach you", "get in touch", "contact details", "contact info", "contact information",
		"how can i contact", "how do i contact", "how to contact",
		"contactar vos", "contactar convosco", "contactar a loja", "contatar voces", "entrar em contacto",
		"entrar em contato", "falar convosco", "falar com voces", "vossos contactos", "vossos contatos",
		"contactarles", "contactaros", "contactar con ustedes", "ponerme en contacto", "datos de contacto",
		"comunicarme con ustedes",
		// Asking for a person rather than the agent: the ways to reach one are the answer. Not
		// "real person" alone: "am I speaking with a real person?" asks whether the agent is one.
		"talk to a human", "speak to a human", "speak with a human", "talk with a human", "chat with a human",
		"chat to a human", "talk to a person", "speak to a person", "speak with a person", "talk to someone",
		"speak to someone", "speak with someone", "talk with someone", "talk to a real person",
		"speak to a real person", "speak with a real person", "talk to a live person", "speak to a live person",
		"human agent", "live agent", "talk to an agent", "speak to an agent", "speak with an agent",
		"talk to a representative", "speak to a representative", "talk to staff", "speak to staff",
		"falar com uma pessoa", "falar com alguem", "falar com um humano", "falar com um operador",
		"falar com um funcionario", "falar com um assistente", "atendimento humano",
		"hablar con una persona", "hablar con alguien", "hablar con un humano", "hablar con un agente",
		"hablar con un operador", "atencion humana",
	},
}

// detailQuestions are whole questions (folded) that ask for a detail in a word or two: "hours?",
// "horário?", "are you open?". Their words alone ask for other things in a longer question
// ("horário de entrega", "are you open in August").
var detailQuestions = map[string]Detail{
	"hours": DetailHours, "your hours": DetailHours, "horario": DetailHours, "horarios": DetailHours,
	"qual o horario": DetailHours, "qual e o horario": DetailHours, "cual es el horario": DetailHours,
	"are you open": DetailHours, "are you open now": DetailHours, "are you open today": DetailHours,
	"is it open": DetailHours, "is the shop open": DetailHours, "is the store open": DetailHours,
	"estao abertos": DetailHours, "estao abertas": DetailHours, "esta aberto": DetailHours, "esta aberta": DetailHours,
	"estan abiertos": DetailHours, "esta abierto": DetailHours, "estais abiertos": DetailHours,
	"address": DetailAddress, "location": DetailAddress, "morada": DetailAddress, "endereco": DetailAddress,
	"localizacao": DetailAddress, "direccion": DetailAddress, "ubicacion": DetailAddress,
	// The address's postcode asked alone ("whats the eircode", "qual o cep", "código postal?"):
	// in a longer question it may name the customer's own ("do you deliver to my postcode").
	"postcode": DetailAddress, "post code": DetailAddress, "postal code": DetailAddress, "zip code": DetailAddress,
	"zipcode": DetailAddress, "zip": DetailAddress, "eircode": DetailAddress, "your postcode": DetailAddress,
	"your zip code": DetailAddress, "your eircode": DetailAddress, "cep": DetailAddress, "codigo postal": DetailAddress,
	"o codigo postal": DetailAddress, "el codigo postal": DetailAddress,
	"phone": DetailPhone, "phone number": DetailPhone, "telefone": DetailPhone, "telefono": DetailPhone,
	"email": DetailEmail, "e mail": DetailEmail, "correo": DetailEmail,
	"contact": DetailReach, "contacts": DetailReach, "contacto": DetailReach, "contactos": DetailReach, "contato": DetailReach,
	"human": DetailReach, "a human": DetailReach, "agent": DetailReach, "operator": DetailReach, "representative": DetailReach,
	"humano": DetailReach, "um humano": DetailReach, "un humano": DetailReach, "operador": DetailReach, "agente": DetailReach,
}

// openWords are the words by which a question asks whether or when the business is open or
// closed, and whenWords those that make that a question of its hours: "when are you open",
// "are you open on Sunday", "a que horas fecham", "¿abren los domingos?", "vocês atendem sábado?",
// "¿trabajáis los sábados?" (not English "work": "when can you start the work"). Together they ask for
// the hours; alone they do not ("can I open an account"), nor with a holiday or a month, which
// the hours do not answer ("are you open on Christmas Day"). Portuguese "fecha" is read in its
// phrases only, being Spanish for a date.
var (
	openWords = []string{"open", "opens", "opened", "close", "closes", "closed",
		"abre", "abrem", "aberto", "aberta", "abertos", "abertas", "fecham", "fechado", "fechada", "fechados", "funcionam",
		"trabalham", "atendem",
		"abren", "abris", "abres", "abierto", "abierta", "abiertos", "cierra", "cierran", "cerrais", "cierras", "cerrado", "cerrada", "cerrados",
		"trabajan", "trabajais", "atienden", "atendeis", "funcionan"}
	whenWords = []string{"when", "what time", "today", "tonight", "tomorrow", "weekend", "weekends",
		"monday", "mondays", "tuesday", "tuesdays", "wednesday", "wednesdays", "thursday", "thursdays", "friday", "fridays",
		"saturday", "saturdays", "sunday", "sundays",
		"quando", "que horas", "hoje", "amanha", "fim de semana", "fins de semana",
		"segunda", "segundas", "terca", "tercas", "quarta", "quartas", "quinta", "quintas", "sexta", "sextas",
		"sabado", "sabados", "domingo", "domingos",
		"cuando", "que hora", "hoy", "manana", "fin de semana", "fines de semana",
		"lunes", "martes", "miercoles", "jueves", "viernes"}
)

// hoursWords is the most words a question asking for the hours by an open word and a when word
// has: a longer one tells a story in which the business is closed ("lo devuelvo a las 2 de la
// mañana y va a estar cerrado, qué hago con la llave").
const hoursWords = 8

// AskedDetails returns the contact details a question asks for (detailQuestions, detailPhrases, or
// an open word with a when word in a question of at most hoursWords words, for the hours); 0 when
// it asks for none.
func AskedDetails(question string) Detail {
	norm := NormalizeQuestion(question)
	if d, ok := detailQuestions[norm]; ok {
		return d
	}
	if d, ok := detailQuestions[withoutPlease(norm)]; ok {
		return d
	}
	if d, ok := detailQuestions[withoutAsking(withoutPlease(norm))]; ok {
		return d
	}
	words := strings.Fields(norm)
	for i, w := range words {
		if full, ok := chatSpellings[w]; ok {
			words[i] = full
		}
	}
	d := detailIndex.find(words)
	if d&DetailHours == 0 && len(words) <= hoursWords && openIndex.find(words) != 0 && whenIndex.find(words) != 0 {
		d |= DetailHours
	}
	return d
}

// pleaseWords are the words of politeness around a question of a word or two ("address pls",
// "telefone por favor", "por favor, horário?"), in en, pt and es, folded.
var pleaseWords = []string{"please", "pls", "plz", "plse", "por favor", "pf", "pfv", "pfvr", "porfa", "porfavor", "thanks", "thx", "obrigado", "obrigada", "gracias"}

// withoutPlease returns a folded question without the words of politeness it begins or ends with.
func withoutPlease(norm string) string {
	for again := true; again; {
		again = false
		for _, p := range pleaseWords {
			if t, ok := strings.CutSuffix(norm, " "+p); ok {
				norm, again = t, true
			}
			if t, ok := strings.CutPrefix(norm, p+" "); ok {
				norm, again = t, true
			}
		}
	}
	return norm
}

// askingLeads are the words that ask "which is" before a detail named in a word ("qual o
// telefone", "cual es el correo", "whats the address"), in en, pt and es, folded; the word
// alone asks it (detailQuestions).
// The longer leads come first.
var askingLeads = []string{"what is the", "whats the", "what is your", "whats your", "what s the", "what s your",
	"qual o seu", "qual e o seu", "qual a sua", "qual e a sua", "qual o", "qual e o", "qual a", "qual e a",
	"cual es el", "cual es la", "cual es su", "cual es tu", "cual es vuestro", "cual es vuestra"}

// withoutAsking returns a folded question without the words of askingLeads it begins with.
func withoutAsking(norm string) string {
	for _, l := range askingLeads {
		if t, ok := strings.CutPrefix(norm, l+" "); ok {
			return t
		}
	}
	return norm
}

// chatSpellings are the short forms customers type for the words of the phrases above ("where r
// u", "whats ur number", "wat time do u close").
var chatSpellings = map[string]string{"u": "you", "ya": "you", "ur": "your", "yr": "your", "r": "are",
	"wat": "what", "wot": "what", "vc": "voce", "vcs": "voces", "q": "que"}

// phraseIndex finds phrases among a text's words: by their first word, each phrase as its words
// and what it tells.
type phraseIndex map[string][]indexed

type indexed struct {
	rest []string // the phrase's words after the first
	tell Detail
}

func newPhraseIndex(lists map[Detail][]string) phraseIndex {
	ix := phraseIndex{}
	for d, phrases := range lists {
		for _, p := range phrases {
			w := strings.Fields(p)
			ix[w[0]] = append(ix[w[0]], indexed{rest: w[1:], tell: d})
		}
	}
	return ix
}

// find returns what the phrases found among words tell.
func (ix phraseIndex) find(words []string) Detail {
	var d Detail
	for i, w := range words {
		for _, p := range ix[w] {
			if len(words)-i-1 >= len(p.rest) && slices.Equal(words[i+1:i+1+len(p.rest)], p.rest) {
				d |= p.tell
			}
		}
	}
	return d
}

// The indexes of detailPhrases, openWords and whenWords (the last two tell DetailHours).
var (
	detailIndex = newPhraseIndex(detailPhrases)
	openIndex   = newPhraseIndex(map[Detail][]string{DetailHours: openWords})
	whenIndex   = newPhraseIndex(map[Detail][]string{DetailHours: whenWords})
)

// Facts that tell a detail, in text folded to lower case.
var (
	phoneFact   = regexp.MustCompile(`\+?\d[\d ().-]{5,}\d`)
	weekdayFact = regexp.MustCompile(`\b(?:mon|tue|wed|thu|fri|sat|sun)(?:day)?s?\b|\b(?:segunda|terca|quarta|quinta|sexta|sabado|domingo|lunes|martes|miercoles|jueves|viernes|domingo)s?\b|\b(?:daily|weekdays?|weekends?|holidays?|feriados?|festivos?)\b`)
)

// A street named in a passage: its word written with a capital ("Kinnickinnic Ave", "Rua
// Augusta", "Paseo de la Barra"), or with a number at most two words from it ("42 oak street",
// "rua augusta 120"); not a lower-case "lane" of a bowling alley or a pool, a "road" of a driving
// test, a "square" of a tile. placeFact's words, in the text as written (streetName) and folded
// (streetNumber). streetWords are those words as written, in en, pt and es; streetFolded the
// same folded (NormalizeQuestion), as an alternation of a regular expression.
var (
	streetWords  = []string{"Street", "St", "Avenue", "Ave", "Road", "Rd", "Lane", "Parade", "Square", "Boulevard", "Blvd", "Rua", "Avenida", "Av", "Praça", "Praca", "Largo", "Travessa", "Estrada", "Calle", "Plaza", "Paseo", "Carrer", "Camino", "Route", "Highway", "Hwy", "Rodovia", "Ruta", "Carretera", "Autovía"}
	streetFolded = foldedAlternation(streetWords)
	streetName   = regexp.MustCompile(`\b(?:` + strings.Join(streetWords, "|") + `)\b`)
	streetNumber = regexp.MustCompile(`\d\w*\s(?:\w+\s){0,2}(?:` + streetFolded + `)\b|\b(?:` + streetFolded + `)\s(?:\w+\s){0,2}\d`)
)

// measureWords are the units a number may be of (folded, in en, pt and es): a number of them near
// a street's word is a distance or a time, not the street's number ("en la ruta salimos hasta 30
// km de la ciudad", "20 minutes from the highway").
var measureWords = map[string]struct{}{
	"km": {}, "kms": {}, "kilometro": {}, "kilometros": {}, "kilometre": {}, "kilometres": {}, "kilometer": {},
	"kilometers": {}, "mile": {}, "miles": {}, "mi": {}, "m": {}, "metro": {}, "metros": {}, "metre": {},
	"metres": {}, "meter": {}, "meters": {}, "min": {}, "mins": {}, "minute": {}, "minutes": {}, "minuto": {},
	"minutos": {}, "h": {}, "hr": {}, "hrs": {}, "hour": {}, "hours": {}, "hora": {}, "horas": {},
}

// streetNumbered reports whether folded text holds a street's word with a number near it
// (streetNumber) that is no measure: the number's own letters ("30km") or the word after it
// are not of measureWords.
func streetNumbered(norm string) bool {
	for _, m := range streetNumber.FindAllStringIndex(norm, -1) {
		// The number begins the match, or ends it (its first digit).
		at := m[0]
		if !isDigit(norm[at]) {
			at = m[1] - 1
		}
		end := at
		for end < len(norm) && norm[end] != ' ' {
			end++
		}
		unit := strings.TrimLeft(norm[at:end], "0123456789")
		if unit == "" {
			if rest := strings.Fields(norm[end:]); len(rest) > 0 {
				unit = rest[0]
			}
		}
		if _, measure := measureWords[unit]; !measure {
			return true
		}
	}
	return false
}

// foldedAlternation returns words folded as NormalizeQuestion writes them, each once, joined by
// "|".
func foldedAlternation(words []string) string {
	var folded []string
	for _, w := range words {
		if f := NormalizeQuestion(w); !slices.Contains(folded, f) {
			folded = append(folded, f)
		}
	}
	return strings.Join(folded, "|")
}

// StatesDetail reports whether text (an FAQ answer or a page's passage) tells one of the details
// asked: a day or whether it is open or closed for the hours (a time of day alone is no
// opening hour: "Los pedidos hechos antes de las 13:00 se entregan el mismo día" tells when an
// order must be in, not when the shop opens), a phone number, an e-mail address, a street named
// for the address (streetName, streetNumber: "You can rent a lane by the hour" names none), any
// of these for how to reach the business. A Brain's answer that tells the detail is the
// business's own word on it; one that does not answers another question.
func StatesDetail(text string, asked Detail) bool {
	folded := strings.ToLower(text)
	norm := NormalizeQuestion(text)
	phone := phoneFact.MatchString(folded)
	email := strings.Contains(folded, "@")
	place := placeFact.MatchString(norm) && (streetName.MatchString(text) || streetNumbered(norm))
	switch {
	case asked&DetailHours != 0 && (weekdayFact.MatchString(norm) || openIndex.find(strings.Fields(norm)) != 0):
		return true
	case asked&DetailPhone != 0 && phone, asked&DetailEmail != 0 && email, asked&DetailAddress != 0 && place:
		return true
	case asked&DetailReach != 0 && (phone || email || place):
		return true
	}
	return false
}

// NamesOpening reports whether a question asking the hours (by an open word and a when word)
// names a thing of its own other than the business, which a sentence of the Brain states the
// hours of and the profile's hours do not name: "what time do doors open" and "Doors open 20
// minutes before each film", not the box office's hours the profile gives. The thing is a content
// word of the question (Tokens) other than its open and when words, held by the sentence and not
// by hours; the sentence tells the hours (StatesDetail).
func NamesOpening(question, sentence, hours string) bool {
	if !StatesDetail(sentence, DetailHours) {
		return false
	}
	norm := NormalizeQuestion(question)
	var own []string
	for _, w := range strings.Fields(norm) {
		if full, ok := chatSpellings[w]; ok {
			w = full
		}
		if openIndex.find([]string{w}) != 0 || whenIndex.find([]string{w}) != 0 {
			continue
		}
		own = append(own, Tokens(w)...)
	}
	held, profile := Tokens(sentence), Tokens(hours)
	for _, t := range own {
		if _, light := lightWords[t]; light || hasDigit(t) {
			continue
		}
		if slices.Contains(held, t) && !slices.Contains(profile, t) {
			return true
		}
	}
	return false
}

// hourWords are the words of a time asked ("what time", "que horas") that name no thing.
var hourWords = []string{"time", "times", "hour", "hours", "hora", "horas", "horario", "horarios"}

// HoursName reports whether a question asking the hours names a thing of its own that the
// profile's hours name and a sentence of the Brain does not: "what time does the pro shop open"
// with the hours "Course open dawn to dusk; pro shop daily 7am–7pm" and the range's "The range is
// open every day from 8am to 9pm". The thing is a content word of the question (Tokens) other
// than its open and when words; every such word is held by hours, at least one of them not by
// the sentence. The profile's hours answer it (the mirror of NamesOpening).
func HoursName(question, sentence, hours string) bool {
	held, profile := Tokens(sentence), Tokens(hours)
	var other bool
	own := namedTokens(question)
	for _, t := range own {
		if !slices.Contains(profile, t) {
			return false
		}
		if !slices.Contains(held, t) {
			other = true
		}
	}
	return len(own) > 0 && other
}

// namedTokens returns the content words (Tokens, neither light nor figures) of a question asking
// the hours other than its open, when and hour words: the things it names.
func namedTokens(question string) []string {
	var own []string
	for _, w := range strings.Fields(NormalizeQuestion(question)) {
		if full, ok := chatSpellings[w]; ok {
			w = full
		}
		if openIndex.find([]string{w}) != 0 || whenIndex.find([]string{w}) != 0 || slices.Contains(hourWords, w) {
			continue
		}
		for _, t := range Tokens(w) {
			if _, light := lightWords[t]; !light && !hasDigit(t) {
				own = append(own, t)
			}
		}
	}
	return own
}

// OtherSchedule reports whether a question asking the business's hours and naming nothing of
// its own ("are you open sunday": only open, when and hour words, light words, figures) meets a
// sentence that tells a schedule by its days but not an opening: no open or close word, no hours
// noun, no word of the business speaking of itself (weSpeak: "Abrimos de lunes a sábado…", "No
// trabajamos domingos"), as "Kids' birthday parties are on Saturdays and Sundays from 10am to
// 6pm". It tells when something of the business happens, not when the business is open: the
// profile's hours answer.
func OtherSchedule(question, sentence string) bool {
	if len(namedTokens(question)) > 0 {
		return false
	}
	words := strings.Fields(NormalizeQuestion(sentence))
	if words = opensThing(untilClose(words)); openIndex.find(words) != 0 || slices.ContainsFunc(words, func(w string) bool { return slices.Contains(hourWords, w) || weSpeak(w) }) {
		return false
	}
	return weekdayFact.MatchString(strings.Join(words, " "))
}

// closeEnds are the phrases (folded) by which a thing runs until the business closes, in en, pt
// and es: "from 9pm to close", "até o fechamento", "hasta el cierre". Their close word tells the
// end of that thing, not the business's hours.
var closeEnds = []string{"to close", "til close", "till close", "until close", "ate o fechamento",
	"ate fechar", "ate o fecho", "hasta el cierre", "hasta cerrar"}

// untilClose returns words without the phrases of closeEnds.
func untilClose(words []string) []string {
	text := " " + strings.Join(words, " ") + " "
	cut := text
	for _, p := range closeEnds {
		cut = strings.ReplaceAll(cut, " "+p+" ", " ")
	}
	if cut == text {
		return words
	}
	return strings.Fields(cut)
}

// thingOpens are the words by which a business opens a thing it names next with an indefinite
// article ("we open a flashlight maze from 6pm to 9pm", "abrimos una terraza los viernes", "abrimos
// um bar aos sábados"), in en, pt and es, folded, and thingArticles those articles: the sentence
// tells that thing's schedule, not the business's opening ("we open the doors at 9" is read as
// the business's).
var (
	thingOpens    = []string{"open", "opens", "abrimos", "abre", "abrem", "abren"}
	thingArticles = []string{"a", "an", "um", "uma", "un", "una"}
)

// opensThing returns words without each run of an open word of thingOpens followed by an article
// of thingArticles, with the word of weWords before it ("we open a"); words itself when there is
// none.
func opensThing(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		if i+1 < len(words) && slices.Contains(thingOpens, words[i]) && slices.Contains(thingArticles, words[i+1]) {
			if out == nil {
				out = slices.Clone(words[:i])
			}
			if n := len(out); n > 0 && slices.Contains(weWords, out[n-1]) {
				out = out[:n-1]
			}
			i++
			continue
		}
		if out != nil {
			out = append(out, words[i])
		}
	}
	if out == nil {
		return words
	}
	return out
}

// weWords are the words by which a business speaks of itself in en, pt and es, folded ("we're"
// is "were").
var weWords = []string{"we", "were", "our", "ours", "us", "nos", "nosso", "nossa", "nossos", "nossas",
	"nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras"}

// weSpeak reports whether a folded word is the business speaking of itself: a word of weWords,
// or a Portuguese or Spanish verb of the first person plural ("abrimos", "trabajamos",
// "atendemos", "fechamos").
func weSpeak(w string) bool {
	if slices.Contains(weWords, w) {
		return true
	}
	return len(w) > 5 && (strings.HasSuffix(w, "amos") || strings.HasSuffix(w, "emos") || strings.HasSuffix(w, "imos"))
}

// dayWords are the names of the days of the week in en, pt and es, folded, with their short
// forms (dayShort: "Sun", "sáb", "mié"), numbered from Sunday (0). A question is read by the full
// names only; a sentence and the profile's hours by both.
var (
	dayWords = map[string]uint8{
		"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6,
		"domingo": 0, "segunda": 1, "terca": 2, "quarta": 3, "quinta": 4, "sexta": 5, "sabado": 6,
		"lunes": 1, "martes": 2, "miercoles": 3, "jueves": 4, "viernes": 5,
	}
	dayShort = map[string]uint8{
		"sun": 0, "mon": 1, "tue": 2, "tues": 2, "wed": 3, "thu": 4, "thur": 4, "thurs": 4, "fri": 5, "sat": 6,
		"dom": 0, "seg": 1, "ter": 2, "qua": 3, "qui": 4, "sex": 5, "sab": 6,
		"lun": 1, "mar": 2, "mie": 3, "jue": 4, "vie": 5,
	}
	// dayRange are the words between two days that make a run of them ("Mon–Fri", "Monday to
	// Saturday", "de segunda a sexta", "de lunes a viernes"); dayEvery those that name every day.
	dayRange = []string{"to", "through", "thru", "till", "until", "a", "ate", "al", "hasta"}
	dashes   = strings.NewReplacer("–", " to ", "—", " to ", "-", " to ")
	dayEvery = []string{"daily", "everyday", "weekday", "weekdays", "weekend", "weekends", "diariamente", "diario"}
)

// dayOf returns the day a folded word names (a full name, plural too, or, with short, a short form).
func dayOf(w string, short bool) (uint8, bool) {
	if d, ok := dayWords[w]; ok {
		return d, true
	}
	if d, ok := dayWords[strings.TrimSuffix(w, "s")]; ok && strings.HasSuffix(w, "s") {
		return d, true
	}
	if short {
		d, ok := dayShort[w]
		return d, ok
	}
	return 0, false
}

// namedDays returns the days of the week a text names (a bit each, Sunday first), a run of days
// counting every day in it ("Mon–Fri", "de segunda a sexta"); every true when it names every day
// or a part of the week by a word ("daily", "weekends", "todos os dias", "fin de semana").
func namedDays(text string, short bool) (days uint8, every bool) {
	text = dashes.Replace(text)
	words := strings.Fields(NormalizeQuestion(text))
	last, from := -1, -1 // the last day's word and its day
	for i, w := range words {
		if w == "feira" || w == "feiras" {
			if last == i-1 {
				last = i
			}
			continue
		}
		if slices.Contains(dayEvery, w) ||
			i > 0 && (w == "dias" || w == "days" || w == "day") && (words[i-1] == "todos" || words[i-1] == "every" || words[i-1] == "all") ||
			i > 1 && w == "semana" && words[i-1] == "de" && (words[i-2] == "fim" || words[i-2] == "fin" || words[i-2] == "fines" || words[i-2] == "fins") {
			every = true
			continue
		}
		d, ok := dayOf(w, short)
		if !ok {
			continue
		}
		if last >= 0 && i-last == 2 && slices.Contains(dayRange, words[i-1]) {
			for x := (uint8(from) + 1) % 7; x != d; x = (x + 1) % 7 {
				days |= 1 << x
			}
		}
		days |= 1 << d
		last, from = i, int(d)
	}
	return days, every
}

// OtherDay reports whether a question asking the business's hours on a day of the week and naming
// nothing of its own ("are you open on sunday") meets a sentence that names other days only (no
// word of every day, no run of days holding it), while the profile's hours name that day:
// "BJJ … no-gi on Friday at 8pm, with open mat on Saturday from 11am to 1pm" tells nothing of
// Sunday, and the hours "Mon–Fri 4pm–9pm, Sat 9am–1pm, Sun closed" do. The profile's hours answer.
func OtherDay(question, sentence, hours string) bool {
	if !HoursDay(question, hours) {
		return false
	}
	asked, _ := namedDays(question, false)
	told, every := namedDays(sentence, true)
	return told != 0 && !every && told&asked == 0
}

// HoursDay reports whether a question asking the business's hours on a day of the week names
// nothing of its own ("abre segunda?", "are you open on sunday") and the profile's hours name that
// day, or every day: the hours answer it, not an FAQ item matched only loosely that names the
// day for another thing ("o taproom pode ser fechado para eventos às segundas e terças").
func HoursDay(question, hours string) bool {
	if len(namedTokens(question)) > 0 {
		return false
	}
	asked, every := namedDays(question, false)
	if asked == 0 || every {
		return false
	}
	profile, every := namedDays(hours, true)
	return every || profile&asked == asked
}

// whereLeads are the words that ask where a place is ("where is the", "onde fica a", "¿dónde
// está el…?"), in en, pt and es, folded, and placeArticles the articles that may follow them.
var (
	whereLeads    = []string{"where is", "wheres", "where s", "where are", "onde fica", "onde e", "onde esta", "donde esta", "donde queda", "donde se encuentra", "donde se ubica"}
	placeArticles = []string{"the", "o", "a", "el", "la"}
	whereFirst    = map[string]struct{}{"where": {}, "wheres": {}, "onde": {}, "donde": {}}
)

// AsksPlace reports whether a question asks where the business is by a word of its name ("¿dónde
// está el teatro?" to Teatro La Encina, "onde fica a oficina" to Oficina Motos do Lis, "where is
// the library" to a library of that name): a lead of whereLeads, an article or none, then only
// words of the name. It asks the address the profile holds.
func AsksPlace(question, name string) bool {
	// Most questions begin with no lead: the first word tells, before any text is built.
	first, n := false, 0
	eachWord(question, func(w []byte) {
		if n == 0 {
			_, first = whereFirst[string(w)]
		}
		n++
	})
	if !first {
		return false
	}
	norm := withoutPlease(NormalizeQuestion(question))
	var rest string
	for _, l := range whereLeads {
		if t, ok := strings.CutPrefix(norm, l+" "); ok {
			rest = t
			break
		}
	}
	words := strings.Fields(rest)
	if len(words) > 0 && slices.Contains(placeArticles, words[0]) {
		words = words[1:]
	}
	if len(words) == 0 {
		return false
	}
	names := strings.Fields(NormalizeQuestion(name))
	for _, w := range words {
		if !slices.Contains(names, w) {
			return false
		}
	}
	return true
}
