package knowledge

import (
	"fmt"
	"testing"
)

func TestFollowUp(t *testing.T) {
	tests := []struct {
		previous, message string
		want              string // "": not a follow-up
	}{
		// A day in place of a day.
		{"what time do you open on saturday?", "and on sundays?", "what time do you open on sundays"},
		{"what time do you open on saturday?", "what about sunday?", "what time do you open on sunday"},
		{"what time do you open on saturday?", "sundays?", "what time do you open on sundays"},
		{"a que horas abrem ao sábado?", "e ao domingo?", "a que horas abrem ao domingo"},
		{"¿a qué hora abren el sábado?", "¿y el domingo?", "a qué hora abren el domingo"},
		{"are you open saturday and sunday?", "and on holidays?", "are you open holidays"},
		// A phrase of a preposition in place of the previous one's, or added.
		{"how much is a haircut?", "and for kids?", "how much is a haircut for kids"},
		{"how much is a haircut?", "what about for kids?", "how much is a haircut for kids"},
		{"how much is a haircut for adults?", "and for kids?", "how much is a haircut for kids"},
		{"how much is a haircut?", "and how much for kids?", "how much is a haircut for kids"},
		{"do you deliver to Porto?", "e para Lisboa?", "do you deliver to Lisboa"},
		{"vocês entregam no Porto?", "e em Braga?", "vocês entregam no Braga"},
		{"do you deliver to Porto?", "and Lisbon?", "do you deliver to Lisbon"},
		{"how much is delivery in Lisbon?", "and to Porto?", "how much is delivery in Porto"},
		{"vocês entregam em Lisboa?", "e para crianças?", "vocês entregam em Lisboa para crianças"},
		// A noun phrase in place of the previous last.
		{"cuánto cuesta la limpieza?", "¿y el blanqueamiento?", "cuánto cuesta el blanqueamiento"},
		{"quanto custa a escova?", "e o corte masculino?", "quanto custa o corte masculino"},
		{"quanto custa um corte de senhora?", "e de homem?", "quanto custa um corte de homem"},
		{"¿cuánto cuesta la habitación doble con baño compartido?", "¿y con baño privado?", "cuánto cuesta la habitación doble con baño privado"},
		{"how much is a haircut?", "and a beard trim?", "how much is a beard trim"},
		{"how much is a haircut?", "what about colouring?", "how much is a haircut colouring"},
		// A fact asked of what the previous message named: the thing in place of the anaphor,
		// else after the message's words.
		{"do you do baths?", "how much is it?", "how much is baths"},
		{"do you offer bike fitting?", "how long does it take?", "how long does bike fitting take"},
		{"do you have a trial day for new dogs?", "is it free?", "is trial day for new dogs free"},
		{"do you have group walks?", "do I need to book?", "do I need to book group walks"},
		{"do you do nail trimming?", "and how much does that cost?", "how much does nail trimming cost"},
		{"do you have a monthly plan?", "how does it work?", "how does monthly plan work"},
		{"vocês fazem pilates clínico?", "quanto custa?", "quanto custa pilates clínico"},
		{"vocês fazem atendimento domiciliar?", "e quanto tempo demora?", "quanto tempo demora atendimento domiciliar"},
		{"há curso intensivo em julho?", "quanto custa isso?", "quanto custa curso intensivo em julho"},
		{"fazem teste de nível?", "é grátis?", "é grátis teste de nível"},
		{"¿tenéis recogida a domicilio?", "y cuánto cuesta?", "cuánto cuesta recogida a domicilio"},
		{"¿hacéis limpieza de fin de obra?", "¿y cuánto cuesta eso?", "cuánto cuesta limpieza de fin de obra"},
		{"¿hacéis limpieza de oficinas?", "¿hace falta cita?", "hace falta cita limpieza de oficinas"},
		{"¿entregan el auto en el hotel?", "¿tiene costo?", "tiene costo auto en el hotel"},
		{"do you do dog baths?", "what's the price?", "what's the price dog baths"},
		{"do you do dog baths?", "can I book it?", "can I book dog baths"},
		{"do you do dog baths?", "do you take cards?", ""}, // a rule ("take" is no duration here)
		// Not a fact asked of a thing: a contact detail, a rule alone, a thing of its own, a
		// previous message naming nothing but a day or the business.
		{"how much is a full day of daycare?", "where are you?", ""},
		{"do you do baths?", "what are your hours?", ""},
		{"do you rent e-bikes?", "what's your phone number?", ""},
		{"¿hacéis plancha?", "¿dónde estáis?", ""},
		{"quanto custa a avaliação?", "qual o telefone de vocês?", ""},
		{"do you do baths?", "can I pay by card for it?", ""},
		{"do you do baths?", "how much is a full day?", ""},
		{"what time do you open on saturday?", "do I need to book?", ""},
		{"where are you?", "how much is it?", ""},
		{"há aulas online?", "e dão certificado?", ""},
		{"¿cuánto cuesta la limpieza a fondo?", "¿y usáis productos ecológicos?", ""},
		// Questions of their own: never merged.
		{"what time do you open on saturday?", "and do you have parking?", ""},
		{"what time do you open on saturday?", "and where are you located?", ""},
		{"how much is a haircut?", "e vocês aceitam cartão?", ""},
		{"cuánto cuesta la limpieza?", "¿y dónde están?", ""},
		{"what time do you open?", "do you have parking?", ""},
		{"what time do you open on saturday?", "how much is a haircut?", ""},
		{"quanto custa a escova?", "é possível pagar com cartão?", ""},
		{"what time do you open on saturday?", "and can I bring my dog on the bus with me?", ""},
		{"what time do you open on saturday?", "parking?", ""},                     // no opener, no day
		{"how much is a haircut?", "sunday?", ""},                                  // a day alone after a message naming none
		{"", "and on sundays?", ""},                                                // nothing before it
		{"how much is a haircut?", "and?", ""},                                     // nothing asked
		{"hi", "and what about the big red bike in the window with the bell?", ""}, // too long
	}
	for _, tt := range tests {
		got, ok := FollowUp(tt.previous, tt.message)
		wantFollowUp(t, fmt.Sprintf("FollowUp(%q, %q)", tt.previous, tt.message), got, ok, tt.want)
	}
}

// wantFollowUp checks a call's question against want ("": not a follow-up).
func wantFollowUp(t *testing.T, call, got string, ok bool, want string) {
	t.Helper()
	if ok != (want != "") || got != want {
		t.Errorf("%s = %q, %v; want %q", call, got, ok, want)
	}
}

// TestFollowUpIn reads a follow-up of a follow-up: the previous message as the question it asked.
func TestFollowUpIn(t *testing.T) {
	tests := []struct {
		previous []string
		message  string
		want     string // "": not a follow-up
	}{
		{[]string{"how much is a haircut?", "and for kids?"}, "and on saturdays?", "how much is a haircut for kids on saturdays"},
		{[]string{"how much is a solo walk?", "and a group walk?"}, "how long is it?", "how long is group walk"},
		{[]string{"quanto custa a avaliação?", "e a sessão avulsa?"}, "e o pacote de 10?", "quanto custa o pacote de 10"},
		{[]string{"¿cuánto sale el económico?", "¿y el compacto?"}, "¿y en temporada alta?", "cuánto sale el compacto en temporada alta"},
		{[]string{"¿trabajáis en Madrid capital?", "¿y en Getafe?"}, "¿y en Toledo?", "trabajáis en Toledo"},
		{[]string{"what time do you open on saturday?"}, "and on sundays?", "what time do you open on sundays"},
		// Three back at most: the oldest of four is not read.
		{[]string{"how much is a haircut?", "and for kids?", "and for adults?", "and for seniors?"}, "and on saturdays?", "and for seniors on saturdays"},
		// An unrelated question in between: the chain starts again from it.
		{[]string{"how much is a haircut?", "do you have parking?"}, "is it free?", "is parking free"},
		{[]string{"how much is a haircut?", "and for kids?"}, "where are you?", ""},
		{nil, "and on sundays?", ""},
	}
	for _, tt := range tests {
		got, ok := FollowUpIn(tt.previous, tt.message)
		wantFollowUp(t, fmt.Sprintf("FollowUpIn(%q, %q)", tt.previous, tt.message), got, ok, tt.want)
	}
}

// TestFollowLanguage tells the language of a follow-up too short for language.Detect: its
// opener's, its day's, else the previous message's.
func TestFollowLanguage(t *testing.T) {
	tests := []struct {
		previous []string
		message  string
		want     string
	}{
		// Another language than the previous message's: the message's, by its opener or day.
		{[]string{"what time do you open on saturday?"}, "e no domingo?", "pt"},
		{[]string{"what time do you open on saturday?"}, "¿y el domingo?", "es"},
		{[]string{"what time do you open on saturday?"}, "y el domingo?", "es"},
		{[]string{"how much is the monthly plan?"}, "e o anual?", "pt"},
		{[]string{"que horas abre no sábado?"}, "and on sunday?", "en"},
		{[]string{"quanto custa o plano mensal?"}, "and the annual?", "en"},
		{[]string{"estão abertos ao sábado?"}, "sundays?", "en"},
		{[]string{"¿hacéis plancha?"}, "and how much is it?", "en"},
		{[]string{"do you do baths?"}, "e quanto custa?", "pt"},
		// The same language: unchanged.
		{[]string{"what time do you open on saturday?"}, "and on sundays?", "en"},
		{[]string{"quanto custa o plano mensal?"}, "e o anual?", "pt"},
		{[]string{"¿a qué hora abren el sábado?"}, "¿y el domingo?", "es"},
		// A word of two languages: the previous message's when it is one of them.
		{[]string{"¿a qué hora abren el sábado?"}, "domingo?", "es"},
		{[]string{"a que horas abrem ao sábado?"}, "domingo?", "pt"},
		{[]string{"what time do you open on saturday?"}, "domingo?", ""},
		{[]string{"¿cuánto cuesta la limpieza?"}, "que tal el blanqueamiento?", "es"},
		// Nothing tells: the previous message's language, else none.
		{[]string{"fazem teste de nível?"}, "é grátis?", "pt"},
		{[]string{"what time do you open on saturday?", "e no domingo?"}, "é grátis?", "pt"},
		{nil, "é grátis?", ""},
		{[]string{"ok"}, "é grátis?", ""},
	}
	for _, tt := range tests {
		if got := FollowLanguage(tt.previous, tt.message); got != tt.want {
			t.Errorf("FollowLanguage(%q, %q) = %q, want %q", tt.previous, tt.message, got, tt.want)
		}
	}
}

// TestStatesFact tells a passage that states the kind of fact asked from one that does not.
func TestStatesFact(t *testing.T) {
	tests := []struct {
		text string
		f    Fact
		want bool
	}{
		{"Baths are available at the end of the day, $25 for small dogs.", FactPrice, true},
		{"Every new dog comes for a free assessment.", FactPrice, true},
		{"Sí, oficinas y locales pequeños, por la tarde.", FactPrice, false},
		{"Sí, oficinas y locales pequeños, por la tarde.", FactBooking, false},
		{"Reservad en la web o por WhatsApp.", FactBooking, true},
		{"Marque pela secretaria.", FactBooking, true},
		{"We keep a credit card on file.", FactRule, true},
		{"Anything at all.", FactWay, true},
	}
	for _, tt := range tests {
		if got := StatesFact(tt.text, tt.f); got != tt.want {
			t.Errorf("StatesFact(%q, %d) = %v, want %v", tt.text, tt.f, got, tt.want)
		}
	}
	if f, ok := FactAsked("e quanto tempo demora?"); !ok || f&FactDuration == 0 {
		t.Errorf("FactAsked(e quanto tempo demora?) = %d, %v; want a duration", f, ok)
	}
	for _, m := range []string{"what are your hours?", "can I pay by card?", "how much is a haircut?"} {
		if f, ok := FactAsked(m); ok {
			t.Errorf("FactAsked(%q) = %d, true; want none", m, f)
		}
	}
}

// BenchmarkFollowUp measures the rule on a follow-up, and on a new question after another.
func BenchmarkFollowUp(b *testing.B) {
	for _, c := range []struct{ name, previous, message string }{
		{"follow-up", "what time do you open on saturday?", "and on sundays?"},
		{"new question", "what time do you open on saturday?", "can I bring my dog to the appointment next week?"},
		{"fact asked", "¿tenéis recogida a domicilio?", "y cuánto cuesta?"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FollowUp(c.previous, c.message)
			}
		})
	}
}
