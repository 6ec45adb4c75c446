package assistant

import (
	"fmt"
	"strings"
)

// The assistant's own sentences, in English, Portuguese and Spanish.

type phrases struct {
	done, waits, blocked, failed, nothing, help string
	refused                                     string // an approval the owner refused
	missing                                     map[string]string
	records                                     string // "%d %s": count, topic
	none                                        string // "%s": topic
	today                                       string
	topic                                       map[Topic]string // plural
	one                                         map[Topic]string // singular
	reasons                                     map[Reason]string
	chat                                        map[string]string // small talk: ChatHello, …
}

var byLang = map[string]phrases{
	"en": {
		done: "Done: %s.", waits: "Waiting for your approval: %s.", blocked: "Not done: %s.",
		failed: "Not completed: %s.", nothing: "I answered without acting.", refused: "Refused: nothing was done.",
		help: `I did not understand. Try "add a note: …", "create a task: …", "email ana@example.com subject … text …", "change the tone to …", "add FAQ: question? answer" or "what are my tasks today?".`,
		missing: map[string]string{"to": "Who should receive it? Give an e-mail address.", "text": "What should it say?",
			"answer": "What is the answer? Write: add FAQ: question? answer", "value": "Which value?", "what": "About what?", "name": "What is the name?",
			"question": "The Brain keeps questions and answers: which question does this answer? (e.g. When do you open on Sundays?)"},
		records: "You have %d %s", none: "You have no %s", today: " today",
		topic: map[Topic]string{Topic(Task): "tasks", Topic(Note): "notes", Topic(Contact): "contacts", Topic(Lead): "leads",
			Topic(Event): "events", Topic(Booking): "bookings", TopicConversions: "conversions", TopicConversations: "conversations"},
		one: map[Topic]string{Topic(Task): "task", Topic(Note): "note", Topic(Contact): "contact", Topic(Lead): "lead",
			Topic(Event): "event", Topic(Booking): "booking", TopicConversions: "conversion", TopicConversations: "conversation"},
		chat: map[string]string{
			ChatHello:  `Hello! What can I do for you? For example "add a note: …", "remind me to … tomorrow" or "what are my tasks today?".`,
			ChatThanks: "You're welcome!",
			ChatHelp: `I save your contacts, leads, tasks, notes, events and bookings, e-mail you and answer about your records ("what are my bookings today?"). ` +
				`E-mails and messages to others, posts, settings and Brain changes wait for your approval; deleting, calls and files are not available here. ` +
				`Try "add a new lead: …", "schedule a meeting with … on Monday at 9", "book a table for 4 on Friday", "change the business hours to …" or "add FAQ: question? answer". In mode ask I only answer.`,
		},
		reasons: map[Reason]string{AnswerOnly: "ask mode only answers", DeleteNotAllowed: "deleting is not available",
			NotAvailable: "not available through the API", UnknownAction: "not something the API may do"},
	},
	"pt": {
		done: "Feito: %s.", waits: "Aguardando a sua aprovação: %s.", blocked: "Não feito: %s.",
		failed: "Não concluído: %s.", nothing: "Respondi sem agir.", refused: "Recusado: nada foi feito.",
		help: `Não entendi. Experimente "adicione uma nota: …", "crie uma tarefa: …", "envie um e-mail para ana@example.com assunto … texto …", "mude o tom para …", "adicione FAQ: pergunta? resposta" ou "quais são minhas tarefas de hoje?".`,
		missing: map[string]string{"to": "Para quem? Indique um endereço de e-mail.", "text": "O que deve dizer?",
			"answer": "Qual é a resposta? Escreva: adicione FAQ: pergunta? resposta", "value": "Qual valor?", "what": "Sobre o quê?", "name": "Qual é o nome?",
			"question": "O Brain guarda perguntas e respostas: a que pergunta isto responde? (ex.: Abrem ao domingo?)"},
		records: "Você tem %d %s", none: "Você não tem %s", today: " hoje",
		topic: map[Topic]string{Topic(Task): "tarefas", Topic(Note): "notas", Topic(Contact): "contatos", Topic(Lead): "leads",
			Topic(Event): "eventos", Topic(Booking): "reservas", TopicConversions: "conversões", TopicConversations: "conversas"},
		one: map[Topic]string{Topic(Task): "tarefa", Topic(Note): "nota", Topic(Contact): "contato", Topic(Lead): "lead",
			Topic(Event): "evento", Topic(Booking): "reserva", TopicConversions: "conversão", TopicConversations: "conversa"},
		chat: map[string]string{
			ChatHello:  `Olá! Em que posso ajudar? Por exemplo "adicione uma nota: …", "lembre-me de … amanhã" ou "quais são minhas tarefas de hoje?".`,
			ChatThanks: "De nada!",
			ChatHelp: `Guardo seus contatos, leads, tarefas, notas, eventos e reservas, envio e-mails para você e respondo sobre seus registros ("quais são minhas reservas de hoje?"). ` +
				`E-mails e mensagens para outras pessoas, publicações, configurações e mudanças no Brain aguardam sua aprovação; apagar, ligações e arquivos não estão disponíveis aqui. ` +
				`Experimente "salve um novo lead: …", "agende uma reunião com … na segunda às 9h", "reserve uma mesa para 4 na sexta", "mude o horário para …" ou "adicione FAQ: pergunta? resposta". No modo ask só respondo.`,
		},
		reasons: map[Reason]string{AnswerOnly: "o modo ask só responde", DeleteNotAllowed: "apagar não está disponível",
			NotAvailable: "não disponível pela API", UnknownAction: "não é algo que a API possa fazer"},
	},
	"es": {
		done: "Hecho: %s.", waits: "Esperando tu aprobación: %s.", blocked: "No hecho: %s.",
		failed: "No completado: %s.", nothing: "Respondí sin actuar.", refused: "Rechazado: no se hizo nada.",
		help: `No entendí. Prueba "añade una nota: …", "crea una tarea: …", "envía un correo a ana@example.com asunto … texto …", "cambia el tono a …", "añade FAQ: ¿pregunta? respuesta" o "¿cuáles son mis tareas de hoy?".`,
		missing: map[string]string{"to": "¿Para quién? Indica una dirección de correo.", "text": "¿Qué debe decir?",
			"answer": "¿Cuál es la respuesta? Escribe: añade FAQ: pregunta? respuesta", "value": "¿Qué valor?", "what": "¿Sobre qué?", "name": "¿Cuál es el nombre?",
			"question": "El Brain guarda preguntas y respuestas: ¿a qué pregunta responde esto? (p. ej. ¿Abren los domingos?)"},
		records: "Tienes %d %s", none: "No tienes %s", today: " hoy",
		topic: map[Topic]string{Topic(Task): "tareas", Topic(Note): "notas", Topic(Contact): "contactos", Topic(Lead): "leads",
			Topic(Event): "eventos", Topic(Booking): "reservas", TopicConversions: "conversiones", TopicConversations: "conversaciones"},
		one: map[Topic]string{Topic(Task): "tarea", Topic(Note): "nota", Topic(Contact): "contacto", Topic(Lead): "lead",
			Topic(Event): "evento", Topic(Booking): "reserva", TopicConversions: "conversión", TopicConversations: "conversación"},
		chat: map[string]string{
			ChatHello:  `¡Hola! ¿En qué puedo ayudarte? Por ejemplo "añade una nota: …", "recuérdame … mañana" o "¿cuáles son mis tareas de hoy?".`,
			ChatThanks: "¡De nada!",
			ChatHelp: `Guardo tus contactos, leads, tareas, notas, eventos y reservas, te envío correos y respondo sobre tus registros ("¿cuáles son mis reservas de hoy?"). ` +
				`Los correos y mensajes a otras personas, publicaciones, ajustes y cambios en el Brain esperan tu aprobación; borrar, llamadas y archivos no están disponibles aquí. ` +
				`Prueba "guarda un nuevo lead: …", "agenda una reunión con … el lunes a las 9", "reserva una mesa para 4 el viernes", "cambia el horario a …" o "añade FAQ: ¿pregunta? respuesta". En modo ask solo respondo.`,
		},
		reasons: map[Reason]string{AnswerOnly: "el modo ask solo responde", DeleteNotAllowed: "borrar no está disponible",
			NotAvailable: "no disponible por la API", UnknownAction: "no es algo que la API pueda hacer"},
	},
}

func phrasesOf(lang string) phrases {
	base, _, _ := strings.Cut(strings.ToLower(lang), "-")
	if p, ok := byLang[base]; ok {
		return p
	}
	return byLang["en"]
}

// RefusedText is the assistant's reply, in lang, to an approval the owner refused.
func RefusedText(lang string) string { return phrasesOf(lang).refused }

// Describe names an action briefly, for a reply.
func Describe(a Action) string {
	switch a.Type {
	case Email:
		return "e-mail to " + a.To
	case Message:
		return "message to " + a.To
	case Contact, Lead:
		return string(a.Type) + " " + firstOf(a.Name, a.Email, a.Phone)
	case Settings:
		return a.Setting + " → " + a.Value
	case SocialPost:
		if a.To != "" {
			return "social post on " + a.To + ": " + clip(a.Text, 60)
		}
	case FAQ:
		return "FAQ " + a.Question
	case WebSearch:
		return "web search " + a.Query
	case Delete, CarCommand, ComputerTask, FileTask:
		return strings.TrimSpace(strings.ReplaceAll(string(a.Type), "_", " ") + " " + a.Target)
	case PhoneCall:
		return "call " + a.To
	}
	return strings.TrimSpace(strings.ReplaceAll(string(a.Type), "_", " ") + " " + clip(a.Text, 60))
}

// Summary is the reply to an instruction that was understood as actions.
func Summary(lang string, ran []Outcome, waiting []Action, blocked []Blocked) string {
	p := phrasesOf(lang)
	var parts []string
	var done, failed []string
	for _, o := range ran {
		if o.OK {
			done = append(done, Describe(o.Action))
		} else {
			failed = append(failed, Describe(o.Action)+" ("+string(o.Error)+")")
		}
	}
	if len(done) > 0 {
		parts = append(parts, fmt.Sprintf(p.done, strings.Join(done, "; ")))
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf(p.failed, strings.Join(failed, "; ")))
	}
	if len(waiting) > 0 {
		ws := make([]string, len(waiting))
		for i, a := range waiting {
			ws[i] = Describe(a)
		}
		parts = append(parts, fmt.Sprintf(p.waits, strings.Join(ws, "; ")))
	}
	if len(blocked) > 0 {
		bs := make([]string, len(blocked))
		for i, b := range blocked {
			bs[i] = Describe(b.Action) + " (" + p.reasons[b.Reason] + ")"
		}
		parts = append(parts, fmt.Sprintf(p.blocked, strings.Join(bs, "; ")))
	}
	if len(parts) == 0 {
		return p.nothing
	}
	return strings.Join(parts, " ")
}

// Question is the question the assistant asks when a detail is missing.
func Question(lang, missing string) string {
	p := phrasesOf(lang)
	if s, ok := p.missing[missing]; ok {
		return s
	}
	return p.help
}

// Help is the reply to a message the grammar did not understand.
func Help(lang string) string { return phrasesOf(lang).help }

// Chat is the reply to small talk (ChatHello, ChatThanks, ChatHelp), or Help for another kind.
func Chat(lang, kind string) string {
	p := phrasesOf(lang)
	if s, ok := p.chat[kind]; ok {
		return s
	}
	return p.help
}

// Answer is the reply to a question about the owner's records: how many there are and the
// latest ones. count is the total; rs are the ones to list.
func Answer(lang string, q Query, count int, rs []Record) string {
	p := phrasesOf(lang)
	topic := p.topic[q.Topic]
	if count == 1 {
		topic = p.one[q.Topic]
	}
	when := ""
	if q.Today {
		when = p.today
	}
	if count == 0 {
		return fmt.Sprintf(p.none, topic) + when + "."
	}
	var b strings.Builder
	fmt.Fprintf(&b, p.records, count, topic)
	b.WriteString(when)
	if len(rs) == 0 {
		b.WriteString(".")
		return b.String()
	}
	b.WriteString(":")
	for _, r := range rs {
		b.WriteString("\n- ")
		b.WriteString(clip(r.Title, 200))
		if r.Email != "" && r.Email != r.Title {
			b.WriteString(" <" + r.Email + ">")
		}
		if r.Phone != "" {
			b.WriteString(" " + r.Phone)
		}
		if r.Date != "" {
			b.WriteString(" (" + r.Date + ")")
		}
	}
	return b.String()
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
