package assistant

import (
	"regexp"
	"strings"
	"time"
)

// The local command grammar: what the assistant understands without a model, in English,
// Portuguese and Spanish. Each command starts the message (case does not matter):
//
//	email ana@example.com subject Hello text See you at 5      (e-mail; "assunto"/"asunto", "texto")
//	email me: call the bank, send me an email saying …       (to the owner; "envie-me um e-mail", "envíame un correo")
//	add a note: call the bank                                 ("adicione uma nota", "añade una nota")
//	create a task: send the invoice tomorrow                  ("crie uma tarefa", "crea una tarea")
//	add a contact: Ana Lima ana@example.com +351 912 345 678  ("adicione o contato", "añade el contacto")
//	add a lead: …, add an event: …, add a booking: …          ("lead", "evento", "reserva")
//	send a message to Ana: see you tomorrow                   ("mande uma mensagem para", "envía un mensaje a")
//	post: We open on Sunday                                   ("publique:", "publica:")
//	change the tone to formal                                 ("mude o tom para", "cambia el tono a")
//	add FAQ: Do you deliver? Yes, within 5 km                 ("adicione FAQ:", "añade FAQ:")
//	search the web for …                                      ("pesquise na web", "busca en la web")
//	create a picture of …                                     ("crie uma imagem de", "crea una imagen de")
//	delete contact Ana                                        ("apague", "borra", "elimina"): refused
//	call Ana                                                  ("ligue para", "llama a"): refused
//	open …, unlock the car, attach this file                  refused: not available through the API
//
// and questions about the owner's records: "what are my tasks today?", "quais são minhas
// tarefas de hoje?", "¿cuáles son mis tareas de hoy?" (tasks, notes, contacts, leads, events,
// bookings, conversions, conversations).

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
	return len(in.Actions) > 0 || in.Query != nil || in.Missing != "" || in.Text != ""
}

type rule struct {
	re    *regexp.Regexp
	build func(m []string, now time.Time) Interpretation
}

func re(s string) *regexp.Regexp {
	return regexp.MustCompile(`(?is)^\s*(?:please\s+|por favor,?\s+)?` + s)
}

var (
	emailAddr   = regexp.MustCompile(`[^\s@<>,;:]+@[^\s@<>,;:]+\.[^\s@<>,;:]+`)
	phoneNumber = regexp.MustCompile(`\+?\d[\d ().-]{5,}\d`)
	subjectText = regexp.MustCompile(`(?is)^(?:(?:subject|assunto|asunto)\s*:?\s*(.*?))?\s*(?:\b(?:text|texto|body|corpo|cuerpo|message|mensagem|mensaje)\b\s*:?\s*(.*))?$`)
	todayWord   = regexp.MustCompile(`(?i)\b(?:today|hoje|hoy)\b`)
	tomorrow    = regexp.MustCompile(`(?i)\b(?:tomorrow|amanhã|amanha|mañana|manana)\b`)
	tailColon   = regexp.MustCompile(`^\s*:?\s*`)
)

// rules are tried in order; the first that matches the start of the message wins.
var rules = []rule{
	{re(`(?:send\s+me\s+(?:an?\s+)?e-?mail|(?:envi(?:e|ar)|mand(?:e|ar))-me\s+(?:um\s+)?e-?mail|me\s+(?:envi(?:e|a)|mand(?:e|a))\s+(?:um\s+)?e-?mail|(?:env[ií]a|m[aá]nda|escr[ií]be)(?:r)?me\s+(?:un\s+)?(?:correo|e-?mail))\b(.*)$`), emailOwner},
	{re(`(?:send\s+(?:an\s+)?e-?mail\s+to|e-?mail|envi(?:e|ar)\s+(?:um\s+)?e-?mail\s+(?:para|a)|mand(?:e|ar)\s+(?:um\s+)?e-?mail\s+(?:para|a)|env[ií]a(?:r)?\s+(?:un\s+)?(?:correo|e-?mail)\s+a|escrib(?:e|ir)\s+(?:un\s+)?correo\s+a)\b(.*)$`), email},
	{re(`(?:send\s+a\s+message\s+to|message|mand(?:e|ar)\s+(?:uma\s+)?mensagem\s+para|envi(?:e|ar)\s+(?:uma\s+)?mensagem\s+para|env[ií]a(?:r)?\s+(?:un\s+)?mensaje\s+a)\s+([^:]*)(?::\s*(.*))?$`), message},
	{re(`(?:add|take|write)\s+(?:a\s+)?note\b(.*)$|^\s*(?:note|nota)\s*:(.*)$|^\s*(?:adicion(?:e|ar)|cri(?:e|ar)|fa[cç]a)\s+(?:uma\s+)?nota\b(.*)$|^\s*anot(?:e|ar)\b(.*)$|^\s*(?:añad(?:e|ir)|agreg(?:a|ar)|crea(?:r)?|toma(?:r)?)\s+(?:una\s+)?nota\b(.*)$|^\s*apunta\b(.*)$`), recordOf(Note)},
	{re(`(?:create|add|new)\s+(?:a\s+)?task\b(.*)$|^\s*(?:task|tarefa|tarea)\s*:(.*)$|^\s*(?:cri(?:e|ar)|adicion(?:e|ar))\s+(?:uma\s+)?tarefa\b(.*)$|^\s*nova\s+tarefa\b(.*)$|^\s*(?:crea(?:r)?|añad(?:e|ir)|agreg(?:a|ar))\s+(?:una\s+)?tarea\b(.*)$|^\s*nueva\s+tarea\b(.*)$`), recordOf(Task)},
	{re(`(?:add|save|create|new)\s+(?:a\s+)?contact\b(.*)$|^\s*(?:adicion(?:e|ar)|salv(?:e|ar)|cri(?:e|ar))\s+(?:o\s+|um\s+)?contato\b(.*)$|^\s*novo\s+contato\b(.*)$|^\s*(?:añad(?:e|ir)|guard(?:a|ar)|agreg(?:a|ar)|crea(?:r)?)\s+(?:el\s+|un\s+)?contacto\b(.*)$|^\s*nuevo\s+contacto\b(.*)$`), person(Contact)},
	{re(`(?:add|save|create|new)\s+(?:a\s+)?lead\b(.*)$|^\s*(?:adicion(?:e|ar)|salv(?:e|ar)|cri(?:e|ar))\s+(?:o\s+|um\s+)?lead\b(.*)$|^\s*(?:añad(?:e|ir)|guard(?:a|ar)|agreg(?:a|ar)|crea(?:r)?)\s+(?:el\s+|un\s+)?lead\b(.*)$`), person(Lead)},
	{re(`(?:add|create|new|schedule)\s+(?:an?\s+)?event\b(.*)$|^\s*(?:adicion(?:e|ar)|cri(?:e|ar)|agend(?:e|ar))\s+(?:um\s+)?evento\b(.*)$|^\s*(?:añad(?:e|ir)|crea(?:r)?|agend(?:a|ar)|agreg(?:a|ar))\s+(?:un\s+)?evento\b(.*)$`), recordOf(Event)},
	{re(`(?:add|create|new|save)\s+(?:a\s+)?booking\b(.*)$|^\s*(?:adicion(?:e|ar)|cri(?:e|ar)|salv(?:e|ar))\s+(?:uma\s+)?reserva\b(.*)$|^\s*(?:añad(?:e|ir)|crea(?:r)?|agreg(?:a|ar)|guard(?:a|ar))\s+(?:una\s+)?reserva\b(.*)$`), recordOf(Booking)},
	{re(`(?:change|set)\s+(?:the\s+|my\s+)?(?:agent'?s?\s+)?tone\s+to\b(.*)$|^\s*(?:mud(?:e|ar)|alter(?:e|ar))\s+o\s+tom\s+para\b(.*)$|^\s*(?:cambi(?:a|ar))\s+el\s+tono\s+a\b(.*)$`), tone},
	{re(`(?:add|create|new)\s+(?:an?\s+)?faq\b(.*)$|^\s*(?:adicion(?:e|ar)|cri(?:e|ar))\s+(?:uma\s+)?faq\b(.*)$|^\s*(?:añad(?:e|ir)|agreg(?:a|ar)|crea(?:r)?)\s+(?:una\s+)?faq\b(.*)$`), faq},
	{re(`(?:post|publish|publi(?:que|car|ca))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return need(Action{Type: SocialPost, Text: rest(m)}, "text", rest(m))
	}},
	{re(`(?:search\s+the\s+web\s+for|search\s+for|look\s+up|pesquis(?:e|ar)(?:\s+na\s+(?:web|internet))?(?:\s+por)?|busc(?:a|ar)\s+en\s+(?:la\s+)?(?:web|internet))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return need(Action{Type: WebSearch, Query: rest(m)}, "what", rest(m))
	}},
	{re(`(?:create|make|draw|generate)\s+(?:an?\s+)?(?:picture|image|drawing|photo)\b(.*)$|^\s*(?:cri(?:e|ar)|ger(?:e|ar)|fa[cç]a)\s+uma\s+(?:imagem|foto|figura)\b(.*)$|^\s*desenh(?:e|ar)\b(.*)$|^\s*(?:crea(?:r)?|genera(?:r)?|haz)\s+una\s+(?:imagen|foto)\b(.*)$|^\s*dibuj(?:a|ar)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return need(Action{Type: Image, Text: strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest(m), "of "), "de "))}, "what", rest(m))
	}},
	{re(`(?:delete|remove|erase|apag(?:ue|ar)|exclu(?:a|ir)|remov(?:a|er)|borr(?:a|ar)|elimin(?:a|ar))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: Delete, Target: rest(m)}}}
	}},
	{re(`(?:call|phone|ring|lig(?:ue|ar)\s+para|telefon(?:e|ar)\s+para|llam(?:a|ar)\s+a)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: PhoneCall, To: rest(m)}}}
	}},
	{re(`(?:(?:un)?lock|start|open)\s+(?:the\s+|my\s+)?car\b(.*)$|^\s*(?:destrav(?:e|ar)|trav(?:e|ar)|lig(?:ue|ar)|abr(?:a|ir))\s+o\s+carro\b(.*)$|^\s*(?:abr(?:e|ir)|arranca(?:r)?|bloquea(?:r)?)\s+el\s+(?:coche|carro)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: CarCommand, Target: rest(m)}}}
	}},
	{re(`(?:attach|upload|send\s+(?:this|the)\s+file|anex(?:e|ar)|envi(?:e|ar)\s+(?:este|o)\s+arquivo|adjunt(?:a|ar)|sub(?:e|ir)\s+(?:este|el)\s+archivo)\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: FileTask, Target: rest(m)}}}
	}},
	{re(`(?:open|go\s+to|visit|browse|abr(?:a|ir|e)|acess(?:e|ar)|visit(?:e|a|ar))\b(.*)$`), func(m []string, _ time.Time) Interpretation {
		return Interpretation{Actions: []Action{{Type: ComputerTask, Target: rest(m)}}}
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
	{regexp.MustCompile(`(?i)\b(?:events?|eventos?|agenda)\b`), Topic(Event)},
	{regexp.MustCompile(`(?i)\b(?:bookings?|reservations?|reservas?|appointments?|agendamentos?|citas?)\b`), Topic(Booking)},
	{regexp.MustCompile(`(?i)\b(?:conversions?|sales?|convers(?:ões|oes|ão|ao)|vendas?|conversi(?:ones|ón|on)|ventas?)\b`), TopicConversions},
	{regexp.MustCompile(`(?i)\b(?:conversations?|chats?|conversas?|conversaci(?:ones|ón|on))\b`), TopicConversations},
}

var question = regexp.MustCompile(`(?i)^\s*(?:¿\s*)?(?:what|which|how\s+many|list|show|do\s+i\s+have|any|quais|qual|quantos|quantas|liste|mostre|tenho|o\s+que|cu[aá]les|cu[aá]l|cu[aá]ntos|cu[aá]ntas|lista|muestra|muéstrame|tengo|qu[eé])\b|\?\s*$`)

// Parse reads a message with the local command grammar; now dates "today" and "tomorrow".
// A message it does not understand gives an empty Interpretation.
func Parse(message string, now time.Time) Interpretation {
	for _, r := range rules {
		if m := r.re.FindStringSubmatch(message); m != nil {
			return r.build(m, now)
		}
	}
	if question.MatchString(message) {
		for _, t := range topics {
			if t.re.MatchString(message) {
				return Interpretation{Query: &Query{Topic: t.topic, Today: todayWord.MatchString(message)}}
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

func recordOf(t Type) func(m []string, now time.Time) Interpretation {
	return func(m []string, now time.Time) Interpretation {
		text := rest(m)
		a := Action{Type: t, Text: text}
		if t != Note {
			switch {
			case todayWord.MatchString(text):
				a.Date = now.Format(time.DateOnly)
			case tomorrow.MatchString(text):
				a.Date = now.AddDate(0, 0, 1).Format(time.DateOnly)
			}
		}
		return need(a, "text", text)
	}
}

func person(t Type) func(m []string, now time.Time) Interpretation {
	return func(m []string, _ time.Time) Interpretation {
		text := rest(m)
		a := Action{Type: t}
		if e := emailAddr.FindString(text); e != "" {
			a.Email = e
			text = strings.Replace(text, e, "", 1)
		}
		if p := phoneNumber.FindString(text); p != "" {
			a.Phone = strings.TrimSpace(p)
			text = strings.Replace(text, p, "", 1)
		}
		a.Name = strings.Trim(strings.Join(strings.Fields(text), " "), ",;:- ")
		if a.Name == "" && a.Email == "" && a.Phone == "" {
			return Interpretation{Actions: []Action{a}, Missing: "name"}
		}
		return Interpretation{Actions: []Action{a}}
	}
}

func tone(m []string, _ time.Time) Interpretation {
	v := strings.ToLower(strings.Trim(rest(m), ".!\"' "))
	return need(Action{Type: Settings, Setting: "tone", Value: v}, "value", v)
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
		a.Value = strings.ToLower(strings.Trim(answer, ".!\"' "))
	case "what":
		if a.Type == WebSearch {
			a.Query = answer
		} else {
			a.Text = answer
		}
	case "name":
		return person(a.Type)([]string{"", answer}, time.Time{})
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
		if blank(a.Question) || a.Question == "?" || blank(a.Answer) {
			return "answer"
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
