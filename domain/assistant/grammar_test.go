package assistant

import (
	"reflect"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	one := func(a Action) Interpretation { return Interpretation{Actions: []Action{a}} }
	missing := func(a Action, m string) Interpretation { return Interpretation{Actions: []Action{a}, Missing: m} }
	q := func(topic Topic, today bool) Interpretation {
		return Interpretation{Query: &Query{Topic: topic, Today: today}}
	}
	tests := []struct {
		msg  string
		want Interpretation
	}{
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
		{"attach this file to the invoice", one(Action{Type: FileTask, Target: "this file to the invoice"})},
		{"what are my tasks today?", q(Topic(Task), true)},
		{"quais são minhas tarefas de hoje?", q(Topic(Task), true)},
		{"¿cuáles son mis tareas de hoy?", q(Topic(Task), true)},
		{"show my contacts", q(Topic(Contact), false)},
		{"how many conversions this month?", q(TopicConversions, false)},
		{"any bookings?", q(Topic(Booking), false)},
		{"nice weather", Interpretation{}},
		{"what is the meaning of life?", Interpretation{}},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			got := Parse(tt.msg, now)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Parse(%q) =\n %+v (query %+v)\nwant\n %+v (query %+v)", tt.msg, got, got.Query, tt.want, tt.want.Query)
			}
		})
	}
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
