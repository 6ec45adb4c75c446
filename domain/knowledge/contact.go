package knowledge

import (
	"regexp"
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
		"horario", "horarios", "hora de abertura", "hora de fecho", "hora de fechar",
		"hora de apertura", "hora de cierre",
	},
	DetailPhone: {
		"phone number", "telephone number", "your phone", "your number", "contact number", "number to call",
		"call you", "phone you", "ring you", "give you a call", "give you a ring",
		"numero de telefone", "vosso telefone", "seu telefone", "teu telefone", "telefone de voces", "telefone da loja",
		"telefone para contacto", "telefone para contato", "ligar para voces", "ligar vos", "ligar para a loja",
		"numero de telefono", "su telefono", "vuestro telefono", "tu telefono", "telefono de contacto",
		"llamarles", "llamaros", "llamarlos", "llamar a la tienda",
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
		"your address", "the address", "what is the address", "whats the address", "address of the", "located",
		"your location", "the location", "where are you", "where is your", "where is the shop", "where is the store",
		"where is the office", "where can i find you", "find you", "directions to", "how do i get there",
		"how to get there", "how do i get to you", "how can i get there", "get to your",
		"morada", "vossa morada", "endereco da loja", "vosso endereco", "seu endereco", "onde ficam", "onde fica a loja",
		"onde estao", "onde e a loja", "onde se encontram", "localizacao", "como chego", "como chegar",
		"direccion", "su direccion", "vuestra direccion", "ubicacion", "donde estan", "donde estais",
		"donde se encuentran", "donde queda", "donde esta la tienda", "como llego", "como llegar",
	},
	DetailReach: {
		"contact you", "reach you", "get in touch", "contact details", "contact info", "contact information",
		"how can i contact", "how do i contact", "how to contact",
		"contactar vos", "contactar convosco", "contactar a loja", "contatar voces", "entrar em contacto",
		"entrar em contato", "falar convosco", "falar com voces", "vossos contactos", "vossos contatos",
		"contactarles", "contactaros", "contactar con ustedes", "ponerme en contacto", "datos de contacto",
		"comunicarme con ustedes",
	},
}

// openWords are the words by which a question asks whether or when the business is open or
// closed, and whenWords those that make that a question of its hours: "when are you open",
// "are you open on Sunday", "a que horas fecham", "¿abren los domingos?". Together they ask for
// the hours; alone they do not ("can I open an account"). Portuguese "fecha" is read in its
// phrases only, being Spanish for a date.
var (
	openWords = []string{"open", "opens", "opened", "close", "closes", "closed",
		"abre", "abrem", "aberto", "aberta", "abertos", "abertas", "fecham", "fechado", "fechada", "fechados", "funcionam",
		"abren", "abierto", "abierta", "abiertos", "cierra", "cierran", "cerrado", "cerrada", "cerrados"}
	whenWords = []string{"when", "what time", "today", "tonight", "tomorrow", "weekend", "weekends", "holiday", "holidays",
		"monday", "mondays", "tuesday", "tuesdays", "wednesday", "wednesdays", "thursday", "thursdays", "friday", "fridays",
		"saturday", "saturdays", "sunday", "sundays", "are you", "is the shop", "is the store",
		"quando", "que horas", "hoje", "amanha", "fim de semana", "fins de semana", "feriado", "feriados",
		"segunda", "segundas", "terca", "tercas", "quarta", "quartas", "quinta", "quintas", "sexta", "sextas",
		"sabado", "sabados", "domingo", "domingos", "estao",
		"cuando", "que hora", "hoy", "manana", "fin de semana", "fines de semana", "festivo", "festivos",
		"lunes", "martes", "miercoles", "jueves", "viernes", "estan"}
)

// hoursWords is the most words a question asking for the hours by an open word and a when word
// has: a longer one tells a story in which the business is closed ("lo devuelvo a las 2 de la
// mañana y va a estar cerrado, qué hago con la llave").
const hoursWords = 8

// AskedDetails returns the contact details a question asks for (detailPhrases, or an open word
// with a when word in a question of at most hoursWords words, for the hours); 0 when it asks for
// none.
func AskedDetails(question string) Detail {
	padded := " " + NormalizeQuestion(question) + " "
	var d Detail
	for detail, phrases := range detailPhrases {
		for _, p := range phrases {
			if strings.Contains(padded, " "+p+" ") {
				d |= detail
				break
			}
		}
	}
	if d&DetailHours == 0 && strings.Count(padded, " ") <= hoursWords+1 && anyWord(padded, openWords) && anyWord(padded, whenWords) {
		d |= DetailHours
	}
	return d
}

func anyWord(padded string, words []string) bool {
	for _, w := range words {
		if strings.Contains(padded, " "+w+" ") {
			return true
		}
	}
	return false
}

// Facts that tell a detail, in text folded to lower case.
var (
	phoneFact   = regexp.MustCompile(`\+?\d[\d ().-]{5,}\d`)
	weekdayFact = regexp.MustCompile(`\b(?:mon|tue|wed|thu|fri|sat|sun)(?:day)?s?\b|\b(?:segunda|terca|quarta|quinta|sexta|sabado|domingo|lunes|martes|miercoles|jueves|viernes|domingo)s?\b|\b(?:daily|weekdays?|weekends?|holidays?|feriados?|festivos?)\b`)
)

// StatesDetail reports whether text (an FAQ answer or a page's passage) tells one of the details
// asked: a time, a day or whether it is open or closed for the hours, a phone number, an e-mail address, a street for the
// address, any of these for how to reach the business. A Brain's answer that tells the detail
// is the business's own word on it; one that does not answers another question.
func StatesDetail(text string, asked Detail) bool {
	folded := strings.ToLower(text)
	norm := NormalizeQuestion(text)
	phone := phoneFact.MatchString(folded)
	email := strings.Contains(folded, "@")
	place := placeFact.MatchString(norm)
	switch {
	case asked&DetailHours != 0 && (timeFact.MatchString(folded) || weekdayFact.MatchString(norm) || anyWord(" "+norm+" ", openWords)):
		return true
	case asked&DetailPhone != 0 && phone, asked&DetailEmail != 0 && email, asked&DetailAddress != 0 && place:
		return true
	case asked&DetailReach != 0 && (phone || email || place):
		return true
	}
	return false
}
