package knowledge

import "testing"

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
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("FollowUp(%q, %q) = %q, %v; want %q", tt.previous, tt.message, got, ok, tt.want)
		}
	}
}

// BenchmarkFollowUp measures the rule on a follow-up, and on a new question after another.
func BenchmarkFollowUp(b *testing.B) {
	for _, c := range []struct{ name, previous, message string }{
		{"follow-up", "what time do you open on saturday?", "and on sundays?"},
		{"new question", "what time do you open on saturday?", "can I bring my dog to the appointment next week?"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FollowUp(c.previous, c.message)
			}
		})
	}
}
