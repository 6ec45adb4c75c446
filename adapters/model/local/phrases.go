package local

// phrases is one language's table: what the engine says in it, and the small talk it recognises
// in it. Templates take the business name through %s; customer phrases are matched after
// knowledge.NormalizeQuestion, so they are written lower case, without accents or apostrophes.
type phrases struct {
	greeting string // %s: business
	welcome  string // the answer to thanks
	goodbye  string // %s: business
	dontKnow string // must say plainly that the engine does not know
	related  string // %s: an FAQ question, %s: its answer; for an item matched only loosely
	reach    string // %s: business, %s: email and phone joined with or
	visit    string // %s: business, %s: address
	hours    string // %s: opening hours
	leave    string // %s: business; when there is no contact
	or       string // joins contact details
	business string // stands for the business when it has no name

	hello  []string // greetings ("good morning")
	thanks []string
	bye    []string
	filler []string // courtesy words that may go with the phrases above ("thanks a lot")
}

// phrasebook holds a table per base language; pt serves pt-PT and pt-BR alike.
var phrasebook = map[string]*phrases{
	"en": {
		greeting: "Hi! I'm the assistant of %s. How can I help you?",
		welcome:  "You're welcome! Anything else I can help with?",
		goodbye:  "Goodbye, and thanks for contacting %s!",
		dontKnow: "I'm sorry, I don't know the answer to that.",
		related:  "If you mean “%s”: %s",
		reach:    "You can reach %s at %s.",
		visit:    "You can visit %s at %s.",
		hours:    "Opening hours: %s.",
		leave:    "Leave your message here with your email or phone number and %s will get back to you.",
		or:       " or ",
		business: "this business",

		hello: []string{"hi", "hello", "hey", "heya", "hiya", "howdy", "yo", "greetings",
			"good morning", "good afternoon", "good evening", "good day", "morning",
			"how are you", "how are you doing", "how is it going", "hows it going", "whats up"},
		thanks: []string{"thanks", "thank you", "thank u", "thx", "ty", "thnx", "cheers",
			"many thanks", "much appreciated", "appreciate it", "i appreciate it"},
		bye: []string{"bye", "goodbye", "good bye", "bye bye", "see you", "see ya", "see you later",
			"see you soon", "take care", "farewell", "good night", "have a nice day",
			"have a good day", "have a great day", "talk to you later"},
		filler: []string{"there", "all", "everyone", "everybody", "team", "folks", "guys", "dear",
			"so", "very", "much", "a", "lot", "again", "too", "ok", "okay", "great", "perfect",
			"cool", "nice", "awesome", "good", "fine", "and", "oh", "well", "for", "the", "your",
			"help", "info", "information", "that", "thats", "it", "now", "really", "you"},
	},
	"pt": {
		greeting: "Olá! Sou o assistente de %s. Em que posso ajudar?",
		welcome:  "De nada! Posso ajudar em mais alguma coisa?",
		goodbye:  "Até breve! Obrigado por falar com %s.",
		dontKnow: "Desculpe, não sei a resposta a essa pergunta.",
		related:  "Se a pergunta é “%s”: %s",
		reach:    "Pode falar com %s através de %s.",
		visit:    "Pode visitar %s em %s.",
		hours:    "Horário: %s.",
		leave:    "Deixe aqui a sua mensagem com o seu email ou telefone e %s responderá assim que possível.",
		or:       " ou ",
		business: "esta empresa",

		hello: []string{"ola", "oi", "oie", "alo", "bom dia", "boa tarde", "boa noite", "bons dias",
			"saudacoes", "tudo bem", "tudo bom", "como vai", "como esta", "como estao", "e ai"},
		thanks: []string{"obrigado", "obrigada", "obrigadao", "obg", "brigado", "brigada",
			"valeu", "agradeco", "muito obrigado", "muito obrigada"},
		bye: []string{"tchau", "xau", "adeus", "ate logo", "ate mais", "ate breve", "ate ja",
			"ate amanha", "ate a proxima", "bom resto de dia", "fique bem"},
		filler: []string{"pessoal", "gente", "todos", "amigo", "amiga", "muito", "muitissimo",
			"mesmo", "pela", "pelo", "ajuda", "informacao", "info", "tudo", "e", "entao", "ok",
			"certo", "perfeito", "otimo", "bem", "beleza", "legal", "fixe", "top", "ja", "por",
			"a", "o", "sua", "seu"},
	},
	"es": {
		greeting: "¡Hola! Soy el asistente de %s. ¿En qué puedo ayudarte?",
		welcome:  "¡De nada! ¿Te puedo ayudar en algo más?",
		goodbye:  "¡Hasta pronto! Gracias por escribir a %s.",
		dontKnow: "Lo siento, no lo sé; no tengo esa información.",
		related:  "Si te refieres a «%s»: %s",
		reach:    "Puedes contactar con %s a través de %s.",
		visit:    "Puedes visitar %s en %s.",
		hours:    "Horario: %s.",
		leave:    "Deja aquí tu mensaje con tu email o teléfono y %s te responderá lo antes posible.",
		or:       " o ",
		business: "esta empresa",

		hello: []string{"hola", "buenas", "buenos dias", "buen dia", "buenas tardes",
			"buenas noches", "saludos", "que tal", "como estas", "como esta", "que hay"},
		thanks: []string{"gracias", "muchas gracias", "mil gracias", "muchisimas gracias",
			"te lo agradezco", "se lo agradezco", "muy amable"},
		bye: []string{"adios", "chao", "chau", "hasta luego", "hasta pronto", "hasta manana",
			"hasta la proxima", "nos vemos", "que tengas un buen dia"},
		filler: []string{"a", "todos", "amigo", "amiga", "muchas", "muchisimas", "mil", "por",
			"la", "tu", "su", "ayuda", "informacion", "info", "todo", "vale", "ok", "perfecto",
			"genial", "estupendo", "bueno", "pues", "entonces", "de", "nuevo", "y", "bien"},
	},
}
