package assistant

import (
	"reflect"
	"regexp"
	"testing"
	"time"
)

// parseCase is a message and what Parse should read in it, on Wednesday 2026-11-25.
type parseCase struct {
	msg  string
	want Interpretation
}

func one(a Action) Interpretation { return Interpretation{Actions: []Action{a}} }
func missing(a Action, m string) Interpretation {
	return Interpretation{Actions: []Action{a}, Missing: m}
}

// checkParse runs Parse on each case.
func checkParse(t *testing.T, tests []parseCase) {
	t.Helper()
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			got := Parse(tt.msg, now)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Parse(%q) =\n %+v (query %+v)\nwant\n %+v (query %+v)", tt.msg, got, got.Query, tt.want, tt.want.Query)
			}
		})
	}
}

func TestParse(t *testing.T) {
	q := func(topic Topic, today bool) Interpretation {
		return Interpretation{Query: &Query{Topic: topic, Today: today}}
	}
	checkParse(t, []parseCase{
		{"email ana@example.com subject Hello text See you at 5", one(Action{Type: Email, To: "ana@example.com", Subject: "Hello", Text: "See you at 5"})},
		{"Email ana@example.com subject Hi\ntext Line one\nline two", one(Action{Type: Email, To: "ana@example.com", Subject: "Hi", Text: "Line one\nline two"})},
		{"send an email to ana@example.com and bo@example.com: the menu is ready", one(Action{Type: Email, To: "ana@example.com", Cc: "bo@example.com", Text: "the menu is ready"})},
		{"envie um e-mail para ana@example.com assunto Olá texto Até amanhã", one(Action{Type: Email, To: "ana@example.com", Subject: "Olá", Text: "Até amanhã"})},
		{"envía un correo a ana@example.com asunto Hola texto Hasta mañana", one(Action{Type: Email, To: "ana@example.com", Subject: "Hola", Text: "Hasta mañana"})},
		{"email someone", missing(Action{Type: Email, Text: "someone"}, "to")},
		{"email ana@example.com", missing(Action{Type: Email, To: "ana@example.com"}, "text")},
		{"email ana@example.com subject Only", one(Action{Type: Email, To: "ana@example.com", Subject: "Only", Text: "Only"})},
		{"email me: call the bank", one(Action{Type: Email, ToOwner: true, Text: "call the bank"})},
		{"Email me the list of today's orders", one(Action{Type: Email, ToOwner: true, Text: "the list of today's orders"})},
		{"send me an email saying call Ana tomorrow", one(Action{Type: Email, ToOwner: true, Text: "call Ana tomorrow"})},
		{"send me an e-mail subject Rent text pay it", one(Action{Type: Email, ToOwner: true, Subject: "Rent", Text: "pay it"})},
		{"send me an email", missing(Action{Type: Email, ToOwner: true}, "text")},
		{"envie-me um e-mail: ligar ao banco", one(Action{Type: Email, ToOwner: true, Text: "ligar ao banco"})},
		{"me mande um email dizendo pagar a luz", one(Action{Type: Email, ToOwner: true, Text: "pagar a luz"})},
		{"envie um e-mail para mim: pagar a luz", one(Action{Type: Email, ToOwner: true, Text: "pagar a luz"})},
		{"envíame un correo: llamar al banco", one(Action{Type: Email, ToOwner: true, Text: "llamar al banco"})},
		{"envía un correo a mí diciendo pagar la luz", one(Action{Type: Email, ToOwner: true, Text: "pagar la luz"})},
		{"email me and ana@example.com: the menu", one(Action{Type: Email, ToOwner: true, Cc: "ana@example.com", Text: "the menu"})},
		{"email mercado@example.com: hello", one(Action{Type: Email, To: "mercado@example.com", Text: "hello"})},
		{"add a note: call the bank", one(Action{Type: Note, Text: "call the bank"})},
		{"Adicione uma nota: ligar ao banco", one(Action{Type: Note, Text: "ligar ao banco"})},
		{"añade una nota: llamar al banco", one(Action{Type: Note, Text: "llamar al banco"})},
		{"add a note", missing(Action{Type: Note}, "text")},
		{"create a task: send the invoice tomorrow", one(Action{Type: Task, Text: "send the invoice tomorrow", Date: "2026-11-26"})},
		{"crie uma tarefa: pagar a luz hoje", one(Action{Type: Task, Text: "pagar a luz hoje", Date: "2026-11-25"})},
		{"crea una tarea: pagar la luz", one(Action{Type: Task, Text: "pagar la luz"})},
		{"add a contact: Ana Lima ana@example.com +351 912 345 678", one(Action{Type: Contact, Name: "Ana Lima", Email: "ana@example.com", Phone: "+351 912 345 678"})},
		{"adicione o contato Bo", one(Action{Type: Contact, Name: "Bo"})},
		{"add a lead: Carla carla@example.com", one(Action{Type: Lead, Name: "Carla", Email: "carla@example.com"})},
		{"add an event: wine fair today", one(Action{Type: Event, Text: "wine fair today", Date: "2026-11-25"})},
		{"add a booking: table for 4 tomorrow", one(Action{Type: Booking, Text: "table for 4 tomorrow", Date: "2026-11-26"})},
		{"send a message to Ana: see you tomorrow", one(Action{Type: Message, To: "Ana", Text: "see you tomorrow"})},
		{"post: We open on Sunday", one(Action{Type: SocialPost, Text: "We open on Sunday"})},
		{"change the tone to Formal.", one(Action{Type: Settings, Setting: "tone", Value: "formal"})},
		{"mude o tom para casual", one(Action{Type: Settings, Setting: "tone", Value: "casual"})},
		{"cambia el tono a formal", one(Action{Type: Settings, Setting: "tone", Value: "formal"})},
		{"add FAQ: Do you deliver? Yes, within 5 km", one(Action{Type: FAQ, Question: "Do you deliver?", Answer: "Yes, within 5 km"})},
		{"adicione FAQ: Vocês entregam? Sim", one(Action{Type: FAQ, Question: "Vocês entregam?", Answer: "Sim"})},
		{"add FAQ: Do you deliver", missing(Action{Type: FAQ, Question: "Do you deliver"}, "answer")},
		{"search the web for flour prices", one(Action{Type: WebSearch, Query: "flour prices"})},
		{"create a picture of a croissant", one(Action{Type: Image, Text: "a croissant"})},
		{"delete contact Ana", one(Action{Type: Delete, Target: "contact Ana"})},
		{"apague o contato Ana", one(Action{Type: Delete, Target: "o contato Ana"})},
		{"call Ana", one(Action{Type: PhoneCall, To: "Ana"})},
		{"ligue para Ana", one(Action{Type: PhoneCall, To: "Ana"})},
		{"unlock the car", one(Action{Type: CarCommand})},
		{"open my bank's website", one(Action{Type: ComputerTask, Target: "my bank's website"})},
		{"run the backup script on my computer", one(Action{Type: ComputerTask, Target: "run the backup script on my computer"})},
		{"instale o programa no meu computador", one(Action{Type: ComputerTask, Target: "instale o programa no meu computador"})},
		{"copia las fotos en mi ordenador", one(Action{Type: ComputerTask, Target: "copia las fotos en mi ordenador"})},
		{"fill in the supplier's order form", one(Action{Type: ComputerTask, Target: "fill in the supplier's order form"})},
		{"log in to the bank and pay the invoice", one(Action{Type: ComputerTask, Target: "log in to the bank and pay the invoice"})},
		{"attach this file to the invoice", one(Action{Type: FileTask, Target: "this file to the invoice"})},
		{"what are my tasks today?", q(Topic(Task), true)},
		{"quais são minhas tarefas de hoje?", q(Topic(Task), true)},
		{"¿cuáles son mis tareas de hoy?", q(Topic(Task), true)},
		{"show my contacts", q(Topic(Contact), false)},
		{"how many conversions this month?", q(TopicConversions, false)},
		{"any bookings?", q(Topic(Booking), false)},
		{"nice weather", Interpretation{}},
		{"what is the meaning of life?", Interpretation{}},
	})
}

func TestComplete(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		first, answer string
		want          Interpretation
	}{
		{"email someone", "ana@example.com", Interpretation{Actions: []Action{{Type: Email, To: "ana@example.com", Text: "someone"}}}},
		{"email ana@example.com", "See you at 5", Interpretation{Actions: []Action{{Type: Email, To: "ana@example.com", Text: "See you at 5"}}}},
		{"email someone", "nobody", Interpretation{Actions: []Action{{Type: Email, Text: "someone"}}, Missing: "to"}},
		{"add a note", "buy flour", Interpretation{Actions: []Action{{Type: Note, Text: "buy flour"}}}},
		{"add FAQ: Do you deliver", "Yes", Interpretation{Actions: []Action{{Type: FAQ, Question: "Do you deliver?", Answer: "Yes"}}}},
		{"change the tone to", "Formal", Interpretation{Actions: []Action{{Type: Settings, Setting: "tone", Value: "formal"}}}},
		{"add a contact", "Ana ana@example.com", Interpretation{Actions: []Action{{Type: Contact, Name: "Ana", Email: "ana@example.com"}}}},
		{"Add to the Brain: we open on Sundays 9-13", "When do you open on Sundays", Interpretation{Actions: []Action{{Type: FAQ, Question: "When do you open on Sundays?", Answer: "we open on Sundays 9-13"}}}},
		{"change the business hours", "8am-6pm.", Interpretation{Actions: []Action{{Type: Settings, Setting: "contact.hours", Value: "8am-6pm"}}}},
		{"mude o nome para", "Padaria Lu", Interpretation{Actions: []Action{{Type: Settings, Setting: "business_name", Value: "Padaria Lu"}}}},
		{"post on Instagram", "new croissants", Interpretation{Actions: []Action{{Type: SocialPost, To: "Instagram", Text: "new croissants"}}}},
		{"add a note: done", "more", Interpretation{}},
	}
	for _, tt := range tests {
		t.Run(tt.first, func(t *testing.T) {
			got := Complete(Parse(tt.first, now), tt.answer)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Complete = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestChecked(t *testing.T) {
	tests := []struct {
		name    string
		in      Interpretation
		missing string
		text    string
	}{
		{"complete", Interpretation{Actions: []Action{{Type: Note, Text: "x"}}, Text: "ok"}, "", "ok"},
		{"note without text", Interpretation{Actions: []Action{{Type: Note, Text: " "}}, Text: "Saving it."}, "text", ""},
		{"e-mail without recipient", Interpretation{Actions: []Action{{Type: Email, Text: "hi"}}}, "to", ""},
		{"contact without anything", Interpretation{Actions: []Action{{Type: Contact}}}, "name", ""},
		{"contact by e-mail", Interpretation{Actions: []Action{{Type: Contact, Email: "a@b.co"}}}, "", ""},
		{"the second action", Interpretation{Actions: []Action{{Type: Note, Text: "x"}, {Type: FAQ, Question: "Q?"}}}, "answer", ""},
		{"already missing", Interpretation{Actions: []Action{{Type: Note}}, Missing: "detail", Text: "Which?"}, "detail", "Which?"},
		{"refused actions need nothing", Interpretation{Actions: []Action{{Type: Delete}, {Type: CarCommand}}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Checked()
			if got.Missing != tt.missing || got.Text != tt.text || len(got.Actions) != len(tt.in.Actions) {
				t.Errorf("Checked() = %+v, want missing %q, text %q", got, tt.missing, tt.text)
			}
		})
	}
}

// TestParseNatural: the phrasings owners use, in English, Portuguese (pt-BR and pt-PT) and
// Spanish. now is Wednesday 2026-11-25.
func TestParseNatural(t *testing.T) {
	chat := func(kind, lang string) Interpretation { return Interpretation{Chat: kind, Lang: lang} }
	set := func(setting, value string) Interpretation {
		return one(Action{Type: Settings, Setting: setting, Value: value})
	}
	checkParse(t, []parseCase{
		// contacts and leads: "new", details after the name, update / change
		{"Save a new lead: John Smith, john@acme.com, interested in wedding cakes", one(Action{Type: Lead, Name: "John Smith", Email: "john@acme.com", Text: "interested in wedding cakes"})},
		{"Salve um novo lead: João Silva, joao@acme.com, interessado em bolos de casamento", one(Action{Type: Lead, Name: "João Silva", Email: "joao@acme.com", Text: "interessado em bolos de casamento"})},
		{"Guarda un nuevo lead: Juan Pérez, juan@acme.com, interesado en tartas de boda", one(Action{Type: Lead, Name: "Juan Pérez", Email: "juan@acme.com", Text: "interesado en tartas de boda"})},
		{"add a new contact Ana Lima +351 912 345 678", one(Action{Type: Contact, Name: "Ana Lima", Phone: "+351 912 345 678"})},
		{"new contact: Bo bo@example.com", one(Action{Type: Contact, Name: "Bo", Email: "bo@example.com"})},
		{"novo contato: Bia bia@example.com", one(Action{Type: Contact, Name: "Bia", Email: "bia@example.com"})},
		{"adicione um novo contacto: Rui, rui@example.pt", one(Action{Type: Contact, Name: "Rui", Email: "rui@example.pt"})},
		{"añade un nuevo contacto: Eva eva@example.es", one(Action{Type: Contact, Name: "Eva", Email: "eva@example.es"})},
		{"update contact Ana: phone +351 912 345 678", one(Action{Type: Contact, Name: "Ana", Phone: "+351 912 345 678"})},
		{"change contact Ana's email to ana@new.example", one(Action{Type: Contact, Name: "Ana", Email: "ana@new.example"})},
		{"atualize o contato Ana com o novo e-mail ana@new.example", one(Action{Type: Contact, Name: "Ana", Email: "ana@new.example"})},
		{"change the contact Ana Lima, e-mail ana@lima.example", one(Action{Type: Contact, Name: "Ana Lima", Email: "ana@lima.example"})},
		{"atualize o contato Ana: telefone +55 11 91234-5678", one(Action{Type: Contact, Name: "Ana", Phone: "+55 11 91234-5678"})},
		{"actualiza el contacto Ana con teléfono +34 600 000 000", one(Action{Type: Contact, Name: "Ana", Phone: "+34 600 000 000"})},
		{"add a new customer: Carla, regular on Fridays", one(Action{Type: Contact, Name: "Carla", Text: "regular on Fridays"})},
		{"save a new lead", missing(Action{Type: Lead}, "name")},
		{"registe um novo contacto: Rui, telemóvel 912 345 678", one(Action{Type: Contact, Name: "Rui", Phone: "912 345 678"})},
		{"guarde uma nota: o forno está avariado", one(Action{Type: Note, Text: "o forno está avariado"})},
		{"marque uma reunião para amanhã às 10h", one(Action{Type: Event, Text: "reunião para amanhã às 10h", Date: "2026-11-26"})},
		{"add Ana Lima ana@example.com to my contacts", one(Action{Type: Contact, Name: "Ana Lima", Email: "ana@example.com"})},
		{"adicione a Ana aos contatos", one(Action{Type: Contact, Name: "Ana"})},
		{"añade a Eva a mis contactos", one(Action{Type: Contact, Name: "Eva"})},
		{"save John, john@acme.com, to the leads", one(Action{Type: Lead, Name: "John", Email: "john@acme.com"})},
		{"novo contato: De Souza, dds@example.com", one(Action{Type: Contact, Name: "De Souza", Email: "dds@example.com"})},
		{"create a task to send the invoice", one(Action{Type: Task, Text: "send the invoice"})},
		{"crie um lembrete para ligar ao banco", one(Action{Type: Task, Text: "ligar ao banco"})},
		// tasks: "remind me", "new", reminders, dates
		{"remind me to call the bank tomorrow", one(Action{Type: Task, Text: "call the bank tomorrow", Date: "2026-11-26"})},
		{"Remind me about the dentist on Friday", one(Action{Type: Task, Text: "the dentist on Friday", Date: "2026-11-27"})},
		{"set a reminder to order flour next Monday", one(Action{Type: Task, Text: "order flour next Monday", Date: "2026-11-30"})},
		{"add a new task: pay rent on 2026-12-01", one(Action{Type: Task, Text: "pay rent on 2026-12-01", Date: "2026-12-01"})},
		{"lembre-me de pagar a luz na sexta-feira", one(Action{Type: Task, Text: "pagar a luz na sexta-feira", Date: "2026-11-27"})},
		{"lembra-me de ligar ao contabilista amanhã", one(Action{Type: Task, Text: "ligar ao contabilista amanhã", Date: "2026-11-26"})},
		{"me lembre de renovar o seguro em 25/12", one(Action{Type: Task, Text: "renovar o seguro em 25/12", Date: "2026-12-25"})},
		{"nova tarefa: pagar o aluguel dia 5 de dezembro", one(Action{Type: Task, Text: "pagar o aluguel dia 5 de dezembro", Date: "2026-12-05"})},
		{"recuérdame pagar la luz el viernes por la mañana", one(Action{Type: Task, Text: "pagar la luz el viernes por la mañana", Date: "2026-11-27"})},
		{"recuérdame que llame al gestor mañana", one(Action{Type: Task, Text: "llame al gestor mañana", Date: "2026-11-26"})},
		{"nueva tarea: pagar el alquiler el 5 de diciembre", one(Action{Type: Task, Text: "pagar el alquiler el 5 de diciembre", Date: "2026-12-05"})},
		{"remind me", missing(Action{Type: Task}, "text")},
		// notes
		{"note that the oven needs fixing", one(Action{Type: Note, Text: "the oven needs fixing"})},
		{"take a new note: flour is low", one(Action{Type: Note, Text: "flour is low"})},
		{"anote que o forno está avariado", one(Action{Type: Note, Text: "o forno está avariado"})},
		{"nova nota: comprar farinha", one(Action{Type: Note, Text: "comprar farinha"})},
		{"apunta que el horno está roto", one(Action{Type: Note, Text: "el horno está roto"})},
		{"toma nota de que el horno está roto", one(Action{Type: Note, Text: "el horno está roto"})},
		// bookings: "book", "reserve"
		{"Book a table for 4 on Friday at 8pm for Carlos", one(Action{Type: Booking, Text: "table for 4 on Friday at 8pm for Carlos", Date: "2026-11-27"})},
		{"reserve a table for 2 tomorrow at 7pm", one(Action{Type: Booking, Text: "table for 2 tomorrow at 7pm", Date: "2026-11-26"})},
		{"add a new booking: Ana, 6 people, 12/24", one(Action{Type: Booking, Text: "Ana, 6 people, 12/24", Date: "2026-12-24"})},
		{"reserve uma mesa para 4 na sexta às 20h para o Carlos", one(Action{Type: Booking, Text: "mesa para 4 na sexta às 20h para o Carlos", Date: "2026-11-27"})},
		{"nova reserva: Ana, 6 pessoas, sábado", one(Action{Type: Booking, Text: "Ana, 6 pessoas, sábado", Date: "2026-11-28"})},
		{"reserva una mesa para 4 el viernes a las 20h para Carlos", one(Action{Type: Booking, Text: "mesa para 4 el viernes a las 20h para Carlos", Date: "2026-11-27"})},
		{"book", missing(Action{Type: Booking}, "text")},
		// events: schedule / set up a meeting, call, appointment
		{"Schedule a meeting with the supplier on Monday at 9", one(Action{Type: Event, Text: "meeting with the supplier on Monday at 9", Date: "2026-11-30"})},
		{"schedule a call with Ana on 25/12", one(Action{Type: Event, Text: "call with Ana on 25/12", Date: "2026-12-25"})},
		{"set up an appointment with the accountant next Tuesday", one(Action{Type: Event, Text: "appointment with the accountant next Tuesday", Date: "2026-12-01"})},
		{"book a meeting with Bo on December 3rd", one(Action{Type: Event, Text: "meeting with Bo on December 3rd", Date: "2026-12-03"})},
		{"add a new event: wine fair the day after tomorrow", one(Action{Type: Event, Text: "wine fair the day after tomorrow", Date: "2026-11-27"})},
		{"Agende uma reunião com o fornecedor na segunda às 9h", one(Action{Type: Event, Text: "reunião com o fornecedor na segunda às 9h", Date: "2026-11-30"})},
		{"marque uma chamada com a Ana amanhã às 15h", one(Action{Type: Event, Text: "chamada com a Ana amanhã às 15h", Date: "2026-11-26"})},
		{"agendar uma consulta para depois de amanhã", one(Action{Type: Event, Text: "consulta para depois de amanhã", Date: "2026-11-27"})},
		{"Agenda una reunión con el proveedor el lunes a las 9", one(Action{Type: Event, Text: "reunión con el proveedor el lunes a las 9", Date: "2026-11-30"})},
		{"programa una llamada con Ana pasado mañana", one(Action{Type: Event, Text: "llamada con Ana pasado mañana", Date: "2026-11-27"})},
		{"schedule a meeting", one(Action{Type: Event, Text: "meeting"})},
		{"make an appointment with the dentist on Thursday", one(Action{Type: Event, Text: "appointment with the dentist on Thursday", Date: "2026-11-26"})},
		{"faça uma reunião com a equipa na quarta-feira", one(Action{Type: Event, Text: "reunião com a equipa na quarta-feira", Date: "2026-11-25"})},
		{"crea una cita con el dentista el jueves", one(Action{Type: Event, Text: "cita con el dentista el jueves", Date: "2026-11-26"})},
		// settings: the contact details, name, description, instructions, tone
		{"Change the business hours to 8am-6pm", set("contact.hours", "8am-6pm")},
		{"set our phone number to +351 210 000 000", set("contact.phone", "+351 210 000 000")},
		{"update the contact email to hello@padaria.example", set("contact.email", "hello@padaria.example")},
		{"change the address to Rua Augusta 12, Lisboa.", set("contact.address", "Rua Augusta 12, Lisboa")},
		{"change the business name to Padaria Lu", set("business_name", "Padaria Lu")},
		{"update the description to Family bakery since 1990", set("description", "Family bakery since 1990")},
		{"change the instructions to Always offer the daily special", set("instructions", "Always offer the daily special")},
		{"set the tone to Friendly", set("tone", "friendly")},
		{"mude o horário de funcionamento para 8h às 18h", set("contact.hours", "8h às 18h")},
		{"altere o número de telefone para +351 210 000 000", set("contact.phone", "+351 210 000 000")},
		{"mude o e-mail de contato para ola@padaria.example", set("contact.email", "ola@padaria.example")},
		{"mude a morada para Rua Augusta 12", set("contact.address", "Rua Augusta 12")},
		{"mude o nome da empresa para Padaria Lu", set("business_name", "Padaria Lu")},
		{"altere a descrição para Padaria familiar", set("description", "Padaria familiar")},
		{"mude as instruções para Ofereça sempre o pão do dia", set("instructions", "Ofereça sempre o pão do dia")},
		{"cambia el horario a 8:00-18:00", set("contact.hours", "8:00-18:00")},
		{"cambia el teléfono a +34 600 000 000", set("contact.phone", "+34 600 000 000")},
		{"cambia la dirección a Calle Mayor 1", set("contact.address", "Calle Mayor 1")},
		{"cambia el nombre del negocio a Panadería Lu", set("business_name", "Panadería Lu")},
		{"cambia las instrucciones a Ofrece siempre el pan del día", set("instructions", "Ofrece siempre el pan del día")},
		{"change the business hours", missing(Action{Type: Settings, Setting: "contact.hours"}, "value")},
		// the Brain: an FAQ item; a fact alone asks for its question
		{"Add to the Brain: we open on Sundays 9-13", missing(Action{Type: FAQ, Answer: "we open on Sundays 9-13"}, "question")},
		{"add to the FAQ: Do you deliver? Yes, within 5 km", one(Action{Type: FAQ, Question: "Do you deliver?", Answer: "Yes, within 5 km"})},
		{"teach the agent that we deliver within 5 km", missing(Action{Type: FAQ, Answer: "we deliver within 5 km"}, "question")},
		{"add a new FAQ: Do you deliver? Yes", one(Action{Type: FAQ, Question: "Do you deliver?", Answer: "Yes"})},
		{"adicione ao Brain: abrimos aos domingos das 9 às 13", missing(Action{Type: FAQ, Answer: "abrimos aos domingos das 9 às 13"}, "question")},
		{"ensine ao agente que entregamos até 5 km", missing(Action{Type: FAQ, Answer: "entregamos até 5 km"}, "question")},
		{"añade al cerebro: abrimos los domingos de 9 a 13", missing(Action{Type: FAQ, Answer: "abrimos los domingos de 9 a 13"}, "question")},
		{"añade a la base de conocimiento: ¿Hacen envíos? Sí, hasta 5 km", one(Action{Type: FAQ, Question: "¿Hacen envíos?", Answer: "Sí, hasta 5 km"})},
		{"add to the Brain", missing(Action{Type: FAQ}, "answer")},
		// posts: the network is where it goes, not its text
		{"Post on Instagram: new croissants today!", one(Action{Type: SocialPost, To: "Instagram", Text: "new croissants today!"})},
		{"post to facebook: open on Sunday", one(Action{Type: SocialPost, To: "Facebook", Text: "open on Sunday"})},
		{"publique no Instagram: croissants fresquinhos!", one(Action{Type: SocialPost, To: "Instagram", Text: "croissants fresquinhos!"})},
		{"publica en Instagram: ¡croissants nuevos hoy!", one(Action{Type: SocialPost, To: "Instagram", Text: "¡croissants nuevos hoy!"})},
		{"post on Instagram", missing(Action{Type: SocialPost, To: "Instagram"}, "text")},
		{"post: on sale in the shop", one(Action{Type: SocialPost, Text: "on sale in the shop"})},
		// small talk
		{"hello", chat(ChatHello, "en")},
		{"Good morning!", chat(ChatHello, "en")},
		{"Olá!", chat(ChatHello, "pt")},
		{"bom dia, tudo bem?", chat(ChatHello, "pt")},
		{"¡Hola!", chat(ChatHello, "es")},
		{"buenas tardes", chat(ChatHello, "es")},
		{"thank you so much!", chat(ChatThanks, "en")},
		{"obrigada", chat(ChatThanks, "pt")},
		{"muchas gracias", chat(ChatThanks, "es")},
		{"What can you do?", chat(ChatHelp, "en")},
		{"help", chat(ChatHelp, "en")},
		{"o que você pode fazer?", chat(ChatHelp, "pt")},
		{"o que podes fazer?", chat(ChatHelp, "pt")},
		{"¿Qué puedes hacer?", chat(ChatHelp, "es")},
		{"hi, add a note: call the bank", one(Action{Type: Note, Text: "call the bank"})},
		{"hi add a task: call the bank", one(Action{Type: Task, Text: "call the bank"})},
		{"Good morning! What can you do?", chat(ChatHelp, "en")},
		{"hola, ¿qué puedes hacer?", chat(ChatHelp, "es")},
		{"bom dia, lembre-me de pagar a luz amanhã", one(Action{Type: Task, Text: "pagar a luz amanhã", Date: "2026-11-26"})},
		{"what's on my calendar today?", Interpretation{Query: &Query{Topic: Topic(Event), Today: true}}},
		{"quais são as minhas reuniões?", Interpretation{Query: &Query{Topic: Topic(Event)}}},
		{"olá! quais são minhas tarefas de hoje?", Interpretation{Query: &Query{Topic: Topic(Task), Today: true}}},
		{"hello there Ana, how are you", Interpretation{}},
		{"help me with the invoice", Interpretation{}},
		// images keep "new"
		{"create a new picture of a cake", one(Action{Type: Image, Text: "a cake"})},
	})
}

// TestParseKeepsRisk: the new phrasings do not turn what leaves to another person, changes a
// setting or is refused into a low-risk action.
func TestParseKeepsRisk(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		msg  string
		want Type
	}{
		{"send a message to Ana: see you tomorrow", Message},
		{"mande uma mensagem para a Ana: até amanhã", Message},
		{"envía un mensaje a Ana: hasta mañana", Message},
		{"email ana@example.com: the new booking is confirmed", Email},
		{"send an email to ana@example.com about the meeting tomorrow", Email},
		{"envie um e-mail para ana@example.com: nova reserva", Email},
		{"delete the booking", Delete},
		{"delete the new contact Ana", Delete},
		{"apague a reserva de amanhã", Delete},
		{"borra la nota", Delete},
		{"remove the meeting on Monday", Delete},
		{"call Ana tomorrow to book a table", PhoneCall},
		{"make a call to Ana", PhoneCall},
		{"make a call", PhoneCall},
		{"make a call with Ana tomorrow", PhoneCall},
		{"faça uma ligação", PhoneCall},
		{"haz una llamada con Ana", PhoneCall},
		{"ligue para a Ana amanhã", PhoneCall},
		{"faça uma ligação para a Ana", PhoneCall},
		{"llama a Ana mañana", PhoneCall},
		{"haz una llamada a Ana", PhoneCall},
		{"unlock the car", CarCommand},
		{"attach this file to the new booking", FileTask},
		{"open the booking page", ComputerTask},
		{"create a task: back up the photos on my computer", Task},
		{"add a note: log in to the bank on Monday", Note},
		{"create a picture of a new cake", Image},
		{"post on Instagram: book a table now", SocialPost},
		{"publish: new contact hours 9-18", SocialPost},
		{"change the tone to formal", Settings},
		{"set the hours to 9-18", Settings},
		{"update the contact email to hello@example.com", Settings},
		{"add to the Brain: book a table on our site", FAQ},
		{"add FAQ: Can I book? Yes", FAQ},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			got := Parse(tt.msg, now)
			if len(got.Actions) != 1 || got.Actions[0].Type != tt.want {
				t.Fatalf("Parse(%q) = %+v, want one %s", tt.msg, got, tt.want)
			}
			if a := got.Actions[0]; a.Type == Email && a.ToOwner {
				t.Errorf("Parse(%q): an e-mail to another person read as one to the owner", tt.msg)
			}
		})
	}
	// what is not understood stays so (help in ask, needs_input in do), never a record
	for _, msg := range []string{"schedule a post on Instagram", "schedule an email to Ana", "change Ana's phone to 123",
		"change the name of contact Ana to Bo", "a segunda vez", "send a new message to Ana: hi"} {
		if got := Parse(msg, now); got.Understood() {
			t.Errorf("Parse(%q) = %+v, want not understood", msg, got)
		}
	}
}

func TestDateIn(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) // a Wednesday
	tests := []struct{ text, want string }{
		{"pay rent today", "2026-11-25"},
		{"dinner tonight", "2026-11-25"},
		{"hoje à noite", "2026-11-25"},
		{"esta noche", "2026-11-25"},
		{"tomorrow", "2026-11-26"},
		{"amanhã às 9h", "2026-11-26"},
		{"mañana a las 9", "2026-11-26"},
		{"el viernes por la mañana", "2026-11-27"},
		{"por la mañana", ""},
		{"the day after tomorrow", "2026-11-27"},
		{"depois de amanhã", "2026-11-27"},
		{"pasado mañana", "2026-11-27"},
		{"on Friday", "2026-11-27"},
		{"Wednesday", "2026-11-25"},
		{"this Wednesday", "2026-11-25"},
		{"next Wednesday", "2026-12-02"},
		{"next Monday", "2026-11-30"},
		{"na segunda às 9h", "2026-11-30"},
		{"segunda-feira", "2026-11-30"},
		{"próxima quinta", "2026-11-26"},
		{"no domingo", "2026-11-29"},
		{"a segunda vez", ""},
		{"a sexta edição", ""},
		{"el lunes", "2026-11-30"},
		{"el próximo martes", "2026-12-01"},
		{"el miércoles", "2026-11-25"},
		{"on 2026-12-01", "2026-12-01"},
		{"25/12", "2026-12-25"},
		{"25/12/2027", "2027-12-25"},
		{"12/25", "2026-12-25"},
		{"01/02", "2027-02-01"},
		{"31/02", ""},
		{"25 December", "2026-12-25"},
		{"December 3rd", "2026-12-03"},
		{"5 de dezembro", "2026-12-05"},
		{"1 de março", "2027-03-01"},
		{"el 5 de diciembre", "2026-12-05"},
		{"at 8.30", ""},
		{"table for 4 people", ""},
		{"tomorrow or Friday", "2026-11-26"},
		{"Friday, not tomorrow", "2026-11-27"},
	}
	for _, tt := range tests {
		if got := DateIn(tt.text, now); got != tt.want {
			t.Errorf("DateIn(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestExpressionsCompile compiles every rule's expression and the dates' (each compiled on its
// first use, not at package initialization).
func TestExpressionsCompile(t *testing.T) {
	for _, r := range rules {
		if r.re() == nil {
			t.Fatal("a rule has no expression")
		}
	}
	for _, w := range []func() *regexp.Regexp{afterTomorrowWord, todayDate, tomorrowDate, isoDate, slashDate, weekdayDate, dayMonth, monthDay} {
		if w() == nil {
			t.Fatal("a date has no expression")
		}
	}
}
