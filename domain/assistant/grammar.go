package assistant

import (
	"regexp"
	"strings"
	"sync"
	"time"
)

// The local command grammar: what the assistant understands without a model, in English,
// Portuguese (pt-BR and pt-PT forms) and Spanish. Each command starts the message (case does
// not matter; "please", "por favor" and a greeting before it are skipped). A record's verb takes
// an optional article and "new" ("add a new lead", "salve um novo lead", "guarda un nuevo
// lead"), or "new" alone starts it ("nova tarefa: …"), or its noun and a colon ("lead: …"):
//
//	email ana@example.com subject Hello text See you at 5      (e-mail; "assunto"/"asunto", "texto")
//	email me: call the bank, send me an email saying …       (to the owner; "envie-me um e-mail", "envíame un correo")
//	add a note: …, note that …, take a note: …                ("anote que", "nova nota:"; "apunta que", "toma nota de que")
//	create a task: …, remind me to …, set a reminder to …     ("crie uma tarefa", "lembre-me de", "lembra-me de"; "crea una tarea", "recuérdame")
//	save a new lead: John Smith, john@acme.com, wants cakes   (name first; e-mail, phone found anywhere; the rest kept as details)
//	add / update / change contact Ana: phone +351 912 345 678 ("adicione o contato", "atualize o contacto"; "añade", "actualiza el contacto")
//	add Ana Lima to my contacts                               ("adicione a Ana aos contatos", "añade a Eva a mis contactos"; "… to the leads")
//	schedule a meeting with … on Monday at 9                  (event: schedule, set up, book, add + meeting, call, appointment,
//	                                                           event; "agende/marque uma reunião", "agenda/programa una reunión, llamada, cita")
//	book a table for 4 on Friday, add a booking: …            (booking: "reserve uma mesa", "faça uma reserva"; "reserva una mesa")
//	send a message to Ana: see you tomorrow                   ("mande uma mensagem para", "envía un mensaje a")
//	post on Instagram: We open on Sunday                      ("publique no Instagram:", "publica en Instagram:"; the network is To)
//	change the business hours to 8am-6pm                      (settings, "to"/"para"/"a": hours, phone, e-mail, address, name,
//	                                                           description, instructions, tone: "mude o horário para", "cambia el teléfono a")
//	add FAQ: Do you deliver? Yes, within 5 km                 ("adicione FAQ:", "añade FAQ:")
//	add to the Brain: we open on Sundays 9-13                 (an FAQ item: "question? answer", or the fact as its answer and
//	                                                           needs_input for its question; "adicione ao Brain", "añade al cerebro", "teach the agent that")
//	search the web for …                                      ("pesquise na web", "busca en la web")
//	create a picture of …                                     ("crie uma imagem de", "crea una imagen de")
//	delete contact Ana                                        ("apague", "borra", "elimina"): refused
//	call Ana, make a call to Ana                              ("ligue para", "faça uma ligação para", "llama a", "haz una llamada a"): refused
//	open …, unlock the car, attach this file                  refused: not available through the API
//	hello, thanks, what can you do?                           ("olá", "obrigado", "o que você pode fazer?"; "hola", "gracias", "¿qué puedes hacer?")
//
// and questions about the owner's records: "what are my tasks today?", "quais são minhas
// tarefas de hoje?", "¿cuáles son mis tareas de hoy?" (tasks, notes, contacts, leads, events,
// bookings, conversions, conversations). A task, event or booking is dated by the first date its
// text names (DateIn: "today", "tomorrow", "on Friday", "na segunda", "el lunes", "2026-12-25",
// "25/12", "25 de dezembro"). What leaves to another person and what is refused is read before
// the records, so that a new phrasing never turns it into a low-risk action: "remind me to call
// Ana" is a task, "call Ana" stays a refused call, "schedule a call with Ana" is an event.

// Topic is what a question about the owner's records asks about.
type Topic string

// The topics: the record types, and the conversions and conversations of the account.
const (
	TopicConversions   Topic = "conversions"
	TopicConversations Topic = "conversations"
)

// Query is a question about the owner's records.
type Query struct {
	Topic Topic // a record Type's name, or TopicConversions, TopicConversations
	Today bool  // only what is dated today
}

// Interpretation is what the assistant read in a message.
type Interpretation struct {
	Actions []Action
	Query   *Query
	// Missing names the detail the assistant needs to go on (needs_input): "to", "text",
	// "answer", "value", "what".
	Missing string
	// Text is an answer a model wrote, when there is one.
	Text string
	// Chat is small talk the grammar read (ChatHello, ChatThanks, ChatHelp), and Lang the
	// language of its words.
	Chat string
	Lang string
}

// Checked returns the interpretation asking for the first detail its actions lack, when it asks
// for none: an upstream model's tool call is held to the catalogue's required details as the
// command grammar is (a note without text is not saved empty; an e-mail without a recipient is
// not left waiting for an approval that cannot send it). The model's words are dropped then, so
// that the question is asked.
func (in Interpretation) Checked() Interpretation {
	if in.Missing != "" {
		return in
	}
	for _, a := range in.Actions {
		if m := missingOf(a); m != "" {
			in.Missing, in.Text = m, ""
			return in
		}
	}
	return in
}

// Understood reports whether the message was a command or a question.
func (in Interpretation) Understood() bool {
	return len(in.Actions) > 0 || in.Query != nil || in.Missing != "" || in.Text != "" || in.Chat != ""
}

type rule struct {
	re    func() *regexp.Regexp
	build func(m []string, now time.Time) Interpretation
}

// re returns a rule's expression, compiled on its first use rather than at package
// initialization: the rules hold about 0.6 MB compiled, which a process that never reads an
// owner's command (the one with the built-in engine serving customers) need not keep.
func re(s string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)^\s*(?:please\s+|por favor,?\s+)?` + s)
	})
}

var (
	emailAddr   = regexp.MustCompile(`[^\s@<>,;:]+@[^\s@<>,;:]+\.[^\s@<>,;:]+`)
	phoneNumber = regexp.MustCompile(`\+?\d[\d ().-]{5,}\d`)
	subjectText = regexp.MustCompile(`(?is)^(?:(?:subject|assunto|asunto)\s*:?\s*(.*?))?\s*(?:\b(?:text|texto|body|corpo|cuerpo|message|mensagem|mensaje)\b\s*:?\s*(.*))?$`)
	tailColon   = regexp.MustCompile(`^\s*:?\s*`)
)

// The words the rules share. They mix the three languages: an owner may write "add uma nota".
const (
	// det is an optional article or possessive: "a", "the", "my", "um", "uma", "o", "el", "una", …
	det = `(?:(?:an?|the|my|our|this|one|o|os|um|uma|meu|minha|nosso|nossa|este|esta|el|la|un|una|mi|nuestro|nuestra)\s+)?`
	// fresh is an optional "new": "add a new lead", "novo contato", "nueva tarea".
	fresh = `(?:(?:new|novo|nova|nuevo|nueva)\s+)?`
	// freshNoun starts a command with "new" alone: "new lead: …", "nova tarefa …".
	freshNoun = `(?:new|novo|nova|nuevo|nueva)\s+`
	// addVerb saves a record: "add", "save", "create", "log"; "adicione", "salve", "crie",
	// "registe", "guarde"; "añade", "agrega", "guarda", "crea", "registra".
	addVerb = `(?:add|save|create|log|record|register|store|put\s+down|adicion(?:e|ar|a)|acrescent(?:e|ar|a)|salv(?:e|ar|a)|` +
		`cri(?:e|ar|a)|regist(?:r)?(?:e|ar|a)|guard(?:e|ar|a)|grav(?:e|ar|a)|insir(?:a)|añad(?:e|ir|a)|agreg(?:a|ar|ue)|crea(?:r)?)`
	// makeVerb also saves a note, a task or a booking ("make a reservation", "faça uma nota",
	// "haz una reserva", "take a note", "toma nota"), never an event: "make a call" is a call.
	makeVerb = `(?:make|take|write(?:\s+down)?|fa[cç]a|fazer|haz|hacer|toma(?:r)?|tome)`
	// changeVerb changes a contact or a lead, or a setting.
	changeVerb = `(?:update|change|edit|modify|correct|fix|set|atualiz(?:e|ar|a)|actualiz(?:e|ar|a)|alter(?:e|ar|a)|` +
		`mud(?:e|ar|a)|edit(?:e|ar|a)|corrij(?:a)|corrig(?:e|ir)|defin(?:a|ir|e)|troqu(?:e)|troc(?:ar|a)|` +
		`modific(?:a|ar)|modifique|cambi(?:a|ar|e)|establec(?:e|er)|fij(?:a|ar)|pon|ponha|coloque)`
	// eventVerb schedules an event: "schedule", "set up", "book"; "agende", "marque";
	// "agenda", "programa", "organiza".
	eventVerb = `(?:schedule|set\s+up|arrange|plan|book|organi[sz]e|agend(?:e|ar|a)|marc(?:a|ar)|marque|` +
		`program(?:e|ar|a)|organiz(?:e|ar|a)|fij(?:a|ar))`
	// bookVerb books: "book a table for 4", "reserve uma mesa", "reserva una mesa".
	bookVerb = `(?:book|reserve|reserv(?:ar|a))`
)

// recordRule reads a command that saves a record of type t: a verb, an optional article and
// "new", and one of nouns ("add a new lead: …"); "new" and a noun ("nova tarefa …"); or a noun
// and a colon ("lead: …"). The rest of the message is the record's text; a noun that is more
// than the record's type ("meeting", "reunião", "table") stays at its start.
func recordRule(t Type, verbs, nouns string, build func(t Type, text string, now time.Time) Interpretation) rule {
	return rule{
		re: re(`` + verbs + `\s+` + det + fresh + `(` + nouns + `)\b(.*)$|^\s*` + freshNoun + `(` + nouns + `)\b(.*)$|^\s*(` + nouns + `)\s*:(.*)$`),
		build: func(m []string, now time.Time) Interpretation {
			for i := 1; i+1 < len(m); i += 2 {
				if m[i] != "" {
					return build(t, withNoun(t, m[i], m[i+1]), now)
				}
			}
			return build(t, "", now)
		},
	}
}

// typeNoun are the event and booking nouns that only name the record's type: they are not kept
// in its text ("add an event: wine fair"), while "meeting", "reunião", "cita" are.
var typeNoun = regexp.MustCompile(`(?i)^(?:event|evento|booking|reservation|reserva)$`)

// linkWord joins a task's or a note's noun to its text: "a task to call Ana", "um lembrete de
// pagar".
var linkWord = regexp.MustCompile(`(?i)^(?:to|that|about|para|pra|de|que)\s+`)

// withNoun is a record's text: the rest, after noun when noun says more than the type (an
// event's or a booking's).
func withNoun(t Type, noun, rest string) string {
	rest = strings.TrimSpace(rest)
	switch {
	case t == Task || t == Note:
		return strings.TrimSpace(linkWord.ReplaceAllString(tailColon.ReplaceAllString(rest, ""), ""))
	case t != Event && t != Booking || typeNoun.MatchString(noun):
		return strings.TrimSpace(tailColon.ReplaceAllString(rest, ""))
	}
	if rest == "" || strings.HasPrefix(rest, ":") {
		return strings.TrimSpace(noun + rest)
	}
	return noun + " " + rest
}

// The record nouns, in English, Portuguese and Spanish.
const (
	noteNoun    = `note|nota`
	taskNoun    = `task|to-?do|reminder|tarefa|lembrete|tarea|recordatorio|pendiente`
	contactNoun = `contact|contato|contacto|customer|client|cliente`
	leadNoun    = `lead|prospect|prospecto|potential\s+(?:client|customer)|cliente\s+potencial|poss[íi]vel\s+cliente|posible\s+cliente`
	// callNoun are the events that are calls: "schedule a call" is an event, "make a call" is not
	callNoun    = `call|chamada|videochamada|liga[çc][ãa]o|llamada|videollamada`
	eventNoun   = `event|meeting|appointment|evento|reuni[ãa]o|compromisso|encontro|consulta|reuni[óo]n|cita`
	bookingNoun = `booking|reservation|reserva`
)

// rules are tried in order; the first that matches the start of the message wins. What leaves
// to another person (e-mail, message, post) and what is refused is read before the records, so
// that no new phrasing turns them into a low-risk action.
var rules = []rule{
	{re(`(?:send\s+me\s+(?:an?\s+)?e-?mail|(?:envi(?:e|ar)|mand(?:e|ar))-me\s+(?:um\s+)?e-?mail|me\s+(?:envi(?:e|a)|mand(?:e|a))\s+(?:um\s+)?e-?mail|(?:env[ií]a|m[aá]nda|escr[ií]be)(?:r)?me\s+(?:un\s+)?(?:correo|e-?mail))\b(.*)$`), emailOwner},
	{re(`(?:send\s+(?:an\s+)?e-?mail\s+to|e-?mail|envi(?:e|ar)\s+(?:um\s+)?e-?mail\s+(?:para|a)|mand(?:e|ar)\s+(?:um\s+)?e-?mail\s+(?:para|a)|env[ií]a(?:r)?\s+(?:un\s+)?(?:correo|e-?mail)\s+a|escrib(?:e|ir)\s+(?:un\s+)?correo\s+a)\b(.*)$`), email},
	{re(`(?:send\s+a\s+message\s+to|message|mand(?:e|ar)\s+(?:uma\s+)?mensagem\s+para|envi(?:e|ar)\s+(?:uma\s+)?mensagem\s+para|env[ií]a(?:r)?\s+(?:un\s+)?mensaje\s+a)\s+([^:]*)(?::\s*(.*))?$`), message},
	{re(`(?:post|publish|publi(?:que|car|ca))\b(.*)$`), post},
	{re(`(?:delete|remove|erase|apag(?:ue|ar)|exclu(?:a|ir)|remov(?:a|er)|borr(?:a|ar)|elimin(?:a|ar))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: Delete, Target: rest(m)}}}
	}},
	{re(`(?:call|phone|ring|lig(?:ue|ar)\s+para|telefon(?:e|ar)\s+para|llam(?:a|ar)\s+a)\b(.*)$|^\s*(?:make|place)\s+(?:a\s+)?(?:phone\s+)?call(?:\s+(?:to|with)\b(.*))?$|^\s*fa[cç]a\s+uma\s+(?:liga[çc][ãa]o|chamada)(?:\s+(?:para|a|com)\b(.*))?$|^\s*haz\s+una\s+llamada(?:\s+(?:a|con)\b(.*))?$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: PhoneCall, To: rest(m)}}}
	}},
	{re(`(?:(?:un)?lock|start|open)\s+(?:the\s+|my\s+)?car\b(.*)$|^\s*(?:destrav(?:e|ar)|trav(?:e|ar)|lig(?:ue|ar)|abr(?:a|ir))\s+o\s+carro\b(.*)$|^\s*(?:abr(?:e|ir)|arranca(?:r)?|bloquea(?:r)?)\s+el\s+(?:coche|carro)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: CarCommand, Target: rest(m)}}}
	}},
	{re(`(?:attach|upload|send\s+(?:this|the)\s+file|anex(?:e|ar)|envi(?:e|ar)\s+(?:este|o)\s+arquivo|adjunt(?:a|ar)|sub(?:e|ir)\s+(?:este|el)\s+archivo)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: FileTask, Target: rest(m)}}}
	}},
	{re(`(?:create|make|draw|generate)\s+` + det + fresh + `(?:picture|image|drawing|photo)\b(.*)$|^\s*(?:cri(?:e|ar)|ger(?:e|ar)|fa[cç]a)\s+` + det + fresh + `(?:imagem|foto|figura)\b(.*)$|^\s*desenh(?:e|ar)\b(.*)$|^\s*(?:crea(?:r)?|genera(?:r)?|haz)\s+` + det + fresh + `(?:imagen|foto)\b(.*)$|^\s*dibuj(?:a|ar)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return need(Action{Type: Image, Text: strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest(m), "of "), "de "))}, "what", rest(m))
	}},
	settingRule(),
	{re(`(?:(?:add|save|put|include)\s+(?:(?:this|that)\s+)?(?:to|in|into|on)|(?:adicion|acrescent|coloqu|ponh|salv|guard|inclu)\p{L}*\s+(?:(?:isto|isso)\s+)?(?:no|ao|na|à|em)|(?:añad|agreg|pon|guard|inclu)\p{L}*\s+(?:esto\s+)?(?:al|en\s+el|a\s+la|en\s+la|en))\s+` +
		`(?:(?:the|my|our|meu|minha|nosso|nossa|mi|nuestro|nuestra|o|a|el|la)\s+)?(?:brain|c[ée]rebro|cerebro|faq|knowledge(?:\s+base)?|base\s+de\s+conhecimentos?|base\s+de\s+conocimientos?)\b(.*)$|` +
		`^\s*(?:teach|tell)\s+(?:the\s+|my\s+|our\s+)?(?:agent|assistant|bot|chatbot)(?:\s+that)?\b(.*)$|^\s*ensin(?:e|a|ar)\s+(?:ao|o|à|a)\s+(?:agente|assistente|bot|chatbot)(?:\s+que)?\b(.*)$|^\s*ense[ñn](?:a|e|ar)\s+al\s+(?:agente|asistente|bot|chatbot)(?:\s+que)?\b(.*)$`), brain},
	{re(`(?:add|create|new|save)\s+` + det + fresh + `faq\b(.*)$|^\s*(?:adicion(?:e|ar|a)|cri(?:e|ar|a)|salv(?:e|ar|a))\s+` + det + fresh + `faq\b(.*)$|^\s*(?:añad(?:e|ir)|agreg(?:a|ar)|crea(?:r)?|guard(?:a|ar))\s+` + det + fresh + `faq\b(.*)$`), faq},
	{re(`(?:remind\s+me|lembr(?:e|a)-me|me\s+lembr(?:e|a)|lembrar-me|recu[ée]rdame|recordarme|record[áa]me)(?:\s+(?:to|that|about|of|de\s+que|de|que|da|do|del))?\b(.*)$`), func(m []string, now time.Time) Interpretation {
		return dated(Task, rest(m), now)
	}},
	{re(`(?:note\s+(?:that|down)|jot\s+down|anot(?:e|a|ar)(?:\s+a[ií])?(?:\s+que)?|apunt(?:a|e|ar)(?:\s+que)?|tom(?:a|e)\s+nota\s+(?:de\s+)?(?:que)?)\b(.*)$`), func(m []string, now time.Time) Interpretation {
		return dated(Note, rest(m), now)
	}},
	recordRule(Note, `(?:`+addVerb+`|`+makeVerb+`)`, noteNoun, dated),
	recordRule(Task, `(?:`+addVerb+`|`+makeVerb+`|set)`, taskNoun, dated),
	{re(addVerb + `\s+(?:(?:the|a|o)\s+)?(.+?)\s+(?:to|in|into|aos?|nos?|às?|a|en)\s+(?:(?:my|our|the|meus|minhas|nossos|os|mis|los|nuestros)\s+)?` +
		`(contacts|contatos|contactos|leads)\s*[.!]?\s*$`), func(m []string, now time.Time) Interpretation {
		if strings.EqualFold(m[2], "leads") {
			return person(Lead, m[1], now)
		}
		return person(Contact, m[1], now)
	}},
	recordRule(Lead, `(?:`+addVerb+`|`+changeVerb+`)`, leadNoun, person),
	recordRule(Contact, `(?:`+addVerb+`|`+changeVerb+`)`, contactNoun, person),
	recordRule(Event, `(?:`+addVerb+`|`+eventVerb+`)`, eventNoun+`|`+callNoun, dated),
	recordRule(Event, makeVerb, eventNoun, dated), // "make an appointment", never "make a call"
	recordRule(Booking, `(?:`+addVerb+`|`+makeVerb+`)`, bookingNoun, dated),
	{re(bookVerb + `(?:\s+` + det + `(.*))?$`), func(m []string, now time.Time) Interpretation {
		return dated(Booking, strings.TrimSpace(m[1]), now)
	}},
	{re(`(?:search\s+the\s+web\s+for|search\s+for|look\s+up|pesquis(?:e|ar)(?:\s+na\s+(?:web|internet))?(?:\s+por)?|busc(?:a|ar)\s+en\s+(?:la\s+)?(?:web|internet))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return need(Action{Type: WebSearch, Query: rest(m)}, "what", rest(m))
	}},
	{re(`(?:open|go\s+to|visit|browse|abr(?:a|ir|e)|acess(?:e|ar)|visit(?:e|a|ar))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: ComputerTask, Target: rest(m)}}}
	}},
	// What needs the user's computer or a website (spec 3.1 unavailable), as a command no rule
	// above took: anything done on "my computer" (laptop, PC, Mac; computador, ordenador), a form to
	// fill in, a site to sign in to.
	{re(`(.*\b(?:on|in|from)\s+(?:my|the)\s+(?:computer|laptop|desktop|pc|mac)\b.*|` +
		`.*\b(?:no|do|n[oa]|en|de)\s+(?:meu|minha|mi|el)\s+(?:computador|port[áa]til|ordenador|computadora|pc)\b.*|` +
		`(?:fill\s+(?:in|out)|preench(?:a|er)|rellen(?:a|ar))\b.*|` +
		`(?:log\s*in|sign\s+in|entr(?:e|ar)\s+n[oa]|inicia\s+sesi[óo]n)\b.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: ComputerTask, Target: strings.TrimSpace(m[1])}}}
	}},
}

// topics are the words of a question about the owner's records.
var topics = []struct {
	re    *regexp.Regexp
	topic Topic
}{
	{regexp.MustCompile(`(?i)\b(?:tasks?|tarefas?|tareas?|to-?dos?)\b`), Topic(Task)},
	{regexp.MustCompile(`(?i)\b(?:notes?|notas?)\b`), Topic(Note)},
	{regexp.MustCompile(`(?i)\b(?:contacts?|contatos?|contactos?)\b`), Topic(Contact)},
	{regexp.MustCompile(`(?i)\b(?:leads?)\b`), Topic(Lead)},
	{regexp.MustCompile(`(?i)\b(?:events?|eventos?|agenda|calendar|calend[áa]rio|meetings|reuni(?:ões|oes|ones))\b`), Topic(Event)},
	{regexp.MustCompile(`(?i)\b(?:bookings?|reservations?|reservas?|appointments?|agendamentos?|citas?)\b`), Topic(Booking)},
	{regexp.MustCompile(`(?i)\b(?:conversions?|sales?|convers(?:ões|oes|ão|ao)|vendas?|conversi(?:ones|ón|on)|ventas?)\b`), TopicConversions},
	{regexp.MustCompile(`(?i)\b(?:conversations?|chats?|conversas?|conversaci(?:ones|ón|on))\b`), TopicConversations},
}

var question = regexp.MustCompile(`(?i)^\s*(?:¿\s*)?(?:what|which|how\s+many|list|show|do\s+i\s+have|any|quais|qual|quantos|quantas|liste|mostre|tenho|o\s+que|cu[aá]les|cu[aá]l|cu[aá]ntos|cu[aá]ntas|lista|muestra|muéstrame|tengo|qu[eé])\b|\?\s*$`)

// The small talk the grammar answers: a greeting, thanks, or a question about what the
// assistant can do, in each language (the reply is in that language).
const (
	ChatHello  = "hello"
	ChatThanks = "thanks"
	ChatHelp   = "help"
)

var chats = []struct {
	kind, lang string
	re         *regexp.Regexp
}{
	{ChatHello, "en", regexp.MustCompile(`(?i)^(?:hi|hello|hey|hiya|good\s+(?:morning|afternoon|evening))(?:\s+there)?`)},
	{ChatHello, "pt", regexp.MustCompile(`(?i)^(?:ol[áa]|oi|bom\s+dia|boa\s+tarde|boa\s+noite)(?:[\s,!]+(?:tudo\s+bem|td\s+bem))?`)},
	{ChatHello, "es", regexp.MustCompile(`(?i)^(?:hola|buen(?:os)?\s+d[íi]as|buenas(?:\s+(?:tardes|noches))?)(?:[\s,!]+(?:qu[ée]\s+tal))?`)},
	{ChatThanks, "en", regexp.MustCompile(`(?i)^(?:thanks|thank\s+you|thx|cheers)(?:\s+(?:so|very)\s+much|\s+a\s+lot)?`)},
	{ChatThanks, "pt", regexp.MustCompile(`(?i)^(?:(?:muito\s+)?obrigad[oa]|valeu|brigad[oa])`)},
	{ChatThanks, "es", regexp.MustCompile(`(?i)^(?:(?:muchas\s+|mil\s+)?gracias)`)},
	{ChatHelp, "en", regexp.MustCompile(`(?i)^(?:help|what\s+(?:can|do)\s+you\s+do|how\s+(?:does\s+this|do\s+you)\s+work|what\s+are\s+you\s+able\s+to\s+do)`)},
	{ChatHelp, "pt", regexp.MustCompile(`(?i)^(?:ajuda|o\s+que\s+(?:(?:voc[êe]|vc|tu)\s+)?(?:pode|podes|sabe|sabes|consegue|consegues)\s+fazer|como\s+(?:isto|isso\s+)?funcionas?)`)},
	{ChatHelp, "es", regexp.MustCompile(`(?i)^(?:ayuda|qu[ée]\s+(?:puedes|sabes)\s+hacer|c[óo]mo\s+funcionas?)`)},
}

// chatEnd is what may follow small talk: punctuation, and a name for the assistant.
var chatEnd = regexp.MustCompile(`(?i)^[\s,.!?]*(?:(?:assistant|assistente|asistente)[\s,.!?]*)?$`)

// chat reads a message that is small talk only.
func chat(message string) (Interpretation, bool) {
	s := strings.TrimLeft(strings.TrimSpace(message), "¿¡")
	for _, c := range chats {
		if loc := c.re.FindStringIndex(s); loc != nil && chatEnd.MatchString(s[loc[1]:]) {
			return Interpretation{Chat: c.kind, Lang: c.lang}, true
		}
	}
	return Interpretation{}, false
}

// greeting is a greeting before a command or a question: "hi, add a note: …", "olá! quais
// são …", "good morning! what can you do?".
var greeting = regexp.MustCompile(`(?i)^\s*(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|ol[áa]|oi|bom\s+dia|boa\s+tarde|boa\s+noite|hola|buen(?:os)?\s+d[íi]as|buenas(?:\s+(?:tardes|noches))?)(?:\s*[,!.]+\s*|\s+)`)

// Parse reads a message with the local command grammar; now dates what it names ("tomorrow",
// "on Friday", "25/12": DateIn). A message it does not understand gives an empty
// Interpretation.
func Parse(message string, now time.Time) Interpretation {
	if in, ok := chat(message); ok {
		return in
	}
	if loc := greeting.FindStringIndex(message); loc != nil {
		if in, ok := chat(message[loc[1]:]); ok {
			return in
		}
		if in := parse(message[loc[1]:], now); in.Understood() {
			return in
		}
	}
	return parse(message, now)
}

func parse(message string, now time.Time) Interpretation {
	for _, r := range rules {
		if m := r.re().FindStringSubmatch(message); m != nil {
			return r.build(m, now)
		}
	}
	if question.MatchString(message) {
		for _, t := range topics {
			if t.re.MatchString(message) {
				return Interpretation{Query: &Query{Topic: t.topic, Today: todayDate().MatchString(message)}}
			}
		}
	}
	return Interpretation{}
}

// rest returns the first non-empty captured group of m, trimmed of a leading colon.
func rest(m []string) string {
	for _, g := range m[1:] {
		if strings.TrimSpace(g) != "" {
			return strings.TrimSpace(tailColon.ReplaceAllString(g, ""))
		}
	}
	return ""
}

// need returns the action, or the detail missing when its main text is empty.
func need(a Action, missing, text string) Interpretation {
	if strings.TrimSpace(text) == "" {
		return Interpretation{Actions: []Action{a}, Missing: missing}
	}
	return Interpretation{Actions: []Action{a}}
}

// saying introduces an e-mail's text: "… saying we open at 9", "… dizendo …", "… diciendo …".
var saying = regexp.MustCompile(`(?i)^(?:saying|that\s+says|dizendo|diciendo)\b\s*:?\s*`)

// toMe is the owner named as an e-mail's recipient: "email me …", "… para mim", "… a mí".
var toMe = regexp.MustCompile(`(?i)^(?:me|myself|mim|mí|(?:para|pra)\s+mim|a\s+(?:mim|m[ií]))(?:[\s:,]+|$)`)

func email(m []string, _ time.Time) Interpretation {
	body := strings.TrimSpace(m[1])
	if loc := toMe.FindStringIndex(body); loc != nil {
		return emailTo(Action{Type: Email, ToOwner: true}, body[loc[1]:])
	}
	return emailTo(Action{Type: Email}, body)
}

// emailOwner is an e-mail to the owner ("send me an e-mail …"), whose address Address gives.
func emailOwner(m []string, _ time.Time) Interpretation {
	return emailTo(Action{Type: Email, ToOwner: true}, rest(m))
}

// emailTo reads the recipients at the start of body, then its subject and text, into a.
func emailTo(a Action, body string) Interpretation {
	body = strings.TrimSpace(body)
	// the recipients: addresses at the start, separated by commas, "and", "e", "y"; after "me"
	// (the owner, To until Address) they are copied
	for {
		loc := emailAddr.FindStringIndex(body)
		if loc == nil || strings.TrimSpace(strings.Trim(body[:loc[0]], ",; ")) != "" &&
			!isJoin(body[:loc[0]]) {
			break
		}
		addr := body[loc[0]:loc[1]]
		if a.To == "" && !a.ToOwner {
			a.To = addr
		} else if a.Cc == "" {
			a.Cc = addr
		} else {
			a.Cc += ", " + addr
		}
		body = strings.TrimSpace(body[loc[1]:])
	}
	body = strings.TrimSpace(saying.ReplaceAllString(tailColon.ReplaceAllString(body, ""), ""))
	if st := subjectText.FindStringSubmatch(body); st != nil && (st[1] != "" || st[2] != "") {
		a.Subject, a.Text = strings.TrimSpace(st[1]), strings.TrimSpace(st[2])
	} else {
		a.Text = body
	}
	switch {
	case a.To == "" && !a.ToOwner:
		return Interpretation{Actions: []Action{a}, Missing: "to"}
	case a.Text == "" && a.Subject == "":
		return Interpretation{Actions: []Action{a}, Missing: "text"}
	case a.Text == "":
		a.Text = a.Subject
	}
	return Interpretation{Actions: []Action{a}}
}

func isJoin(s string) bool {
	switch strings.ToLower(strings.Trim(s, ",; ")) {
	case "and", "e", "y", "cc", "cc:":
		return true
	}
	return false
}

func message(m []string, _ time.Time) Interpretation {
	a := Action{Type: Message, To: strings.TrimSpace(m[1]), Text: strings.TrimSpace(m[2])}
	switch {
	case a.To == "":
		return Interpretation{Actions: []Action{a}, Missing: "to"}
	case a.Text == "":
		return Interpretation{Actions: []Action{a}, Missing: "text"}
	}
	return Interpretation{Actions: []Action{a}}
}

// dated is a note, task, event or booking with its text; a task, event or booking is dated by
// the first date its text names (DateIn).
func dated(t Type, text string, now time.Time) Interpretation {
	a := Action{Type: t, Text: text}
	if t != Note {
		a.Date = DateIn(text, now)
	}
	return need(a, "text", text)
}

var (
	// personLabel is a detail's label left in a contact's text once its value is taken out:
	// "phone", "e-mail:", "tel", "with phone", "com telefone", "con correo", "'s email to".
	personLabel = regexp.MustCompile(`(?i)(?:'s)?(?:^|\s)(?:(?:with|and|com|e|con|y)\s+)?(?:(?:the|o|a|el|su|her|his|their|new|novo|nuevo)\s+)*` +
		`(?:e-?mail(?:\s+address)?|phone(?:\s+number)?|mobile|cell|tel|telefone|telem[oó]vel|celular|tel[eé]fono|m[oó]vil|correo|` +
		`name|nome|nombre|number|n[uú]mero)\s*(?::|is|é|es|to|para|a)?\s*$`)
	personName = regexp.MustCompile(`(?i)^(?:name|nome|nombre)\s*:\s*`)
	// detailSep separates a contact's details: "John Smith, john@acme.com, wants cakes".
	detailSep = regexp.MustCompile(`\s*(?:[,;\n]|:\s|\s-\s|\s—\s)\s*`)
)

// person reads a contact or a lead: its e-mail address and phone number wherever they are, its
// name first, and the other details ("interested in wedding cakes") as its text.
func person(t Type, text string, _ time.Time) Interpretation {
	a := Action{Type: t}
	if e := emailAddr.FindString(text); e != "" {
		a.Email = e
		text = strings.Replace(text, e, "", 1)
	}
	if p := phoneNumber.FindString(text); p != "" {
		a.Phone = strings.TrimSpace(p)
		text = strings.Replace(text, p, "", 1)
	}
	var details []string
	for _, part := range detailSep.Split(text, -1) {
		part = strings.Join(strings.Fields(personName.ReplaceAllString(part, "")), " ")
		for {
			loc := personLabel.FindStringIndex(part)
			if loc == nil {
				break
			}
			part = strings.TrimSpace(part[:loc[0]])
		}
		if part = strings.Trim(part, ",;:-. "); part == "" {
			continue
		}
		if a.Name == "" {
			a.Name = part
		} else {
			details = append(details, part)
		}
	}
	a.Text = strings.Join(details, ", ")
	if a.Name == "" && a.Email == "" && a.Phone == "" {
		return Interpretation{Actions: []Action{a}, Missing: "name"}
	}
	return Interpretation{Actions: []Action{a}}
}

// settings are the agent settings the grammar changes, with the words that name them (after an
// optional article): the contact details the agent gives customers, the business's name and
// description, the agent's instructions and tone.
var settings = []struct{ key, words string }{
	{"contact.hours", `(?:(?:business|opening|working)\s+)?hours|opening\s+times|hor[áa]rios?(?:\s+de\s+(?:funcionamento|abertura|atendimento|apertura|atenci[óo]n))?`},
	{"contact.phone", `(?:(?:contact|business)\s+)?(?:tele)?phone(?:\s+number)?|(?:n[úu]mero\s+de\s+)?(?:telefone|tel[ée]fono)(?:\s+de\s+(?:contato|contacto))?`},
	{"contact.email", `(?:(?:contact|business)\s+)?e-?mail(?:\s+address)?|(?:endere[çc]o\s+de\s+)?e-?mail(?:\s+de\s+(?:contato|contacto))?|correo(?:\s+electr[óo]nico)?(?:\s+de\s+contacto)?`},
	{"contact.address", `(?:business\s+)?address|endere[çc]o|morada|direcci[óo]n`},
	{"business_name", `(?:business\s+|company\s+|shop\s+|store\s+)?name|nome(?:\s+d[ao]\s+(?:empresa|neg[óo]cio|loja))?|nombre(?:\s+del\s+(?:negocio|local)|\s+de\s+la\s+(?:empresa|tienda))?`},
	{"description", `(?:business\s+)?description|descri[çc][ãa]o|descripci[óo]n`},
	{"instructions", `(?:agent'?s?\s+)?instructions|instru[çc][õo]es|instrucciones`},
	{"tone", `(?:agent'?s?\s+)?tone(?:\s+of\s+voice)?|tom(?:\s+de\s+voz)?|tono(?:\s+de\s+voz)?`},
}

// settingRule reads a change of one of settings: "change the business hours to 8am-6pm",
// "mude o horário para 8h-18h", "cambia el teléfono a …"; without a value it asks for one.
func settingRule() rule {
	names := make([]string, len(settings))
	for i, st := range settings {
		names[i] = `(` + st.words + `)`
	}
	return rule{
		re: re(changeVerb + `\s+` + `(?:(?:the|my|our|your|o|a|os|as|meu|minha|nosso|nossa|el|la|los|las|mi|nuestro|nuestra)\s+)?` +
			`(?:` + strings.Join(names, `|`) + `)(?:(?:\s+(?:to|para|pra|a|por)\b|\s*[:=])\s*(.*?)|\s*)$`),
		build: func(m []string, _ time.Time) Interpretation {
			key := ""
			for i := range settings {
				if m[i+1] != "" {
					key = settings[i].key
				}
			}
			v := SettingValue(key, m[len(m)-1])
			return need(Action{Type: Settings, Setting: key, Value: v}, "value", v)
		},
	}
}

// SettingValue is a setting's new value as the owner wrote it: trimmed of quotes and a final
// full stop; a tone in lower case.
func SettingValue(setting, v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimSpace(strings.TrimRight(strings.Trim(v, "\"'“”«»"), ".!"))
	v = strings.Trim(v, "\"'“”«» ")
	if setting == "tone" {
		v = strings.ToLower(v)
	}
	return v
}

// networks are the social networks a post may name: "post on Instagram: …".
var networks = regexp.MustCompile(`(?i)^(?:(?:an?|the|um|uma|un|una)\s+)?(?:(?:new\s+|novo\s+|nueva\s+)?(?:post|publica[çc][ãa]o|publicaci[óo]n)\s+)?` +
	`(?:on|to|in|no|na|em|en|para)\s+(?:(?:the|my|our|o|meu|nosso|el|mi|nuestro)\s+)?` +
	`(instagram|facebook|twitter|x|linkedin|tiktok|threads|pinterest|youtube|bluesky|mastodon|google(?:\s+business(?:\s+profile)?)?)\b\s*:?\s*`)

// post is a social-network post; a network named at its start ("on Instagram") is where it
// goes (To), not part of its text.
func post(m []string, _ time.Time) Interpretation {
	text := rest(m)
	a := Action{Type: SocialPost}
	if loc := networks.FindStringSubmatchIndex(text); loc != nil {
		n := text[loc[2]:loc[3]]
		a.To = strings.ToUpper(n[:1]) + n[1:]
		text = strings.TrimSpace(text[loc[1]:])
	}
	a.Text = text
	return need(a, "text", text)
}

// brain is what the owner asks to add to the Brain ("add to the Brain: …", "teach the agent
// that …"). The Brain takes FAQ items: "question? answer" is one; a fact alone is the answer of
// an item whose question the assistant asks for.
func brain(m []string, now time.Time) Interpretation {
	text := rest(m)
	if q, _, ok := strings.Cut(text, "?"); ok && strings.TrimSpace(q) != "" {
		return faq(m, now)
	}
	if text == "" {
		return Interpretation{Actions: []Action{{Type: FAQ}}, Missing: "answer"}
	}
	return Interpretation{Actions: []Action{{Type: FAQ, Answer: text}}, Missing: "question"}
}

func faq(m []string, _ time.Time) Interpretation {
	text := rest(m)
	q, a, ok := strings.Cut(text, "?")
	a = strings.TrimSpace(a)
	if !ok || strings.TrimSpace(q) == "" || a == "" {
		return Interpretation{Actions: []Action{{Type: FAQ, Question: strings.TrimSpace(q)}}, Missing: "answer"}
	}
	return Interpretation{Actions: []Action{{Type: FAQ, Question: strings.TrimSpace(q) + "?", Answer: a}}}
}

// Complete fills the detail prev was missing with the owner's answer to the question asked
// (a needs_input reply), and says what is still missing, if anything.
func Complete(prev Interpretation, answer string) Interpretation {
	if prev.Missing == "" || len(prev.Actions) != 1 {
		return Interpretation{}
	}
	a := prev.Actions[0]
	answer = strings.TrimSpace(answer)
	switch prev.Missing {
	case "to":
		if a.Type == Email {
			a.To = emailAddr.FindString(answer)
		} else {
			a.To = answer
		}
	case "text":
		a.Text = answer
	case "answer":
		if a.Question == "" {
			q, ans, _ := strings.Cut(answer, "?")
			a.Question, a.Answer = strings.TrimSpace(q)+"?", strings.TrimSpace(ans)
		} else {
			a.Answer = answer
			if !strings.HasSuffix(a.Question, "?") {
				a.Question += "?"
			}
		}
	case "value":
		a.Value = SettingValue(a.Setting, answer)
	case "question":
		a.Question = strings.TrimSpace(answer)
		if !strings.HasSuffix(a.Question, "?") {
			a.Question += "?"
		}
	case "what":
		if a.Type == WebSearch {
			a.Query = answer
		} else {
			a.Text = answer
		}
	case "name":
		return person(a.Type, answer, time.Time{})
	}
	return Interpretation{Actions: []Action{a}, Missing: missingOf(a)}
}

// missingOf returns the detail an action still lacks, or "".
func missingOf(a Action) string {
	blank := func(s string) bool { return strings.TrimSpace(s) == "" }
	switch a.Type {
	case Contact, Lead:
		if blank(a.Name) && blank(a.Email) && blank(a.Phone) {
			return "name"
		}
	case Email:
		if blank(a.To) {
			return "to"
		}
		if blank(a.Text) && blank(a.Subject) {
			return "text"
		}
	case Message:
		if blank(a.To) {
			return "to"
		}
		if blank(a.Text) {
			return "text"
		}
	case FAQ:
		if blank(a.Answer) {
			return "answer"
		}
		if blank(a.Question) || a.Question == "?" {
			return "question"
		}
	case Settings:
		if blank(a.Value) {
			return "value"
		}
	case WebSearch:
		if blank(a.Query) {
			return "what"
		}
	case Image:
		if blank(a.Text) {
			return "what"
		}
	case Note, Task, Event, Booking, SocialPost:
		if blank(a.Text) {
			return "text"
		}
	}
	return ""
}
