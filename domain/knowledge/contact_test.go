package knowledge

import "testing"

func TestAskedDetails(t *testing.T) {
	tests := []struct {
		question string
		want     Detail
	}{
		{"What are your opening hours?", DetailHours},
		{"when are you open?", DetailHours},
		{"what time do you close on saturday", DetailHours},
		{"are you open?", DetailHours},
		{"Abrem ao domingo?", DetailHours},
		{"A que horas fecha a loja?", DetailHours},
		{"sabado fecha que horas", DetailHours},
		{"a loja fecha a que horas?", DetailHours},
		{"vcs fecham que horas hj", DetailHours},
		{"¿Abren los sábados?", DetailHours},
		{"a qué hora abrís los sábados?", DetailHours},
		{"horário?", DetailHours},
		// A postcode asked alone asks the address; in a longer question it may be the customer's.
		{"whats the eircode", DetailAddress},
		{"postcode?", DetailAddress},
		{"qual o cep", DetailAddress},
		{"cual es el codigo postal?", DetailAddress},
		{"do you deliver to my postcode", 0},
		// What to give the sat nav or a maps app.
		{"whats the postcode for the satnav", DetailAddress},
		{"o que eu coloco no gps?", DetailAddress},
		{"que pongo en el gps para llegar", DetailAddress},
		{"do your hire cars have a satnav", 0},
		{"trabajais los sabados?", DetailHours},
		{"¿atienden los domingos?", DetailHours},
		{"vocês atendem sábado?", DetailHours},
		{"trabalham ao domingo?", DetailHours},
		{"What's your phone number?", DetailPhone},
		{"Can I call you?", DetailPhone},
		{"Qual é o vosso telefone?", DetailPhone},
		{"¿Cuál es su teléfono?", DetailPhone},
		{"what's your email", DetailEmail},
		{"¿Cuál es su correo electrónico?", DetailEmail},
		{"Where are you located?", DetailAddress},
		{"where's your office", DetailAddress},
		{"wheres your shop?", DetailAddress},
		{"where are you guys", DetailAddress},
		{"Onde ficam?", DetailAddress},
		{"¿Dónde están?", DetailAddress},
		{"How can I contact you?", DetailReach},
		{"whats ur number", DetailPhone},
		{"I want to talk to a human", DetailReach},
		{"can i speak to someone please", DetailReach},
		{"human?", DetailReach},
		{"Quero falar com uma pessoa", DetailReach},
		{"¿Puedo hablar con alguien?", DetailReach},
		{"where r u", DetailAddress},
		{"wat time do u close", DetailHours},
		{"What is your address and phone number?", DetailAddress | DetailPhone},
		{"address pls", DetailAddress},
		{"telefone, por favor", DetailPhone},
		{"por favor, horário?", DetailHours},
		{"qual o whats de vcs", DetailPhone},
		// A detail named in a word after the words asking which it is.
		{"qual o telefone", DetailPhone},
		{"qual é o telefone?", DetailPhone},
		{"cual es el correo", DetailEmail},
		{"whats the address", DetailAddress},
		{"qual o preço", 0},
		{"qual o telefone do veterinário de plantão", 0},
		{"¿cuál es su WhatsApp?", DetailPhone},
		// Words that ask for something else.
		{"Can I open an account?", 0},
		{"Do you fix phone screens?", 0},
		{"is it made with real leather", 0},
		{"do you sell human hair wigs", 0},
		{"am i speaking with a real person", 0},
		{"can I talk to a real person", DetailReach},
		{"Can I change my delivery address?", 0},
		{"¿Puedo cambiar la dirección de entrega?", 0},
		{"Qual é o horário de entrega?", 0},
		{"Are you open on Christmas Day?", 0},
		{"¿Cuál es la fecha de entrega?", 0},
		{"lo devuelvo a las 2 de la mañana y va a estar cerrado, qué hago con la llave", 0},
		{"How many hours does a repair take?", 0},
		{"when can you start the work?", 0},
		{"¿trabajan con seguros?", 0},
		{"atendem convênio?", 0},
		{"posso reservar pelo whatsapp?", 0},
		{"please", 0},
	}
	for _, tt := range tests {
		if got := AskedDetails(tt.question); got != tt.want {
			t.Errorf("AskedDetails(%q) = %b, want %b", tt.question, got, tt.want)
		}
	}
}

func TestStatesDetail(t *testing.T) {
	tests := []struct {
		text  string
		asked Detail
		want  bool
	}{
		{"We are open Monday to Friday from 8:00 to 19:00.", DetailHours, true},
		{"Em agosto a escola está fechada.", DetailHours, true},
		{"Sunday delivery is available on Mother's Day.", DetailHours, true},
		{"Puncture repair: 10 euros per wheel, done in about 20 minutes.", DetailHours, false},
		{"Los pedidos hechos antes de las 13:00 se entregan el mismo día.", DetailHours, false},
		{"Orders placed before 1pm ship the same day.", DetailHours, false},
		{"Call us on +351 22 123 4567.", DetailPhone, true},
		{"Book by phone or email.", DetailPhone, false},
		{"Write to hello@example.com.", DetailEmail, true},
		{"Our clinic is at 42 Oak Street.", DetailAddress, true},
		{"We are in the centre of town.", DetailAddress, false},
		{"You can also rent a lane by the hour: $42 per hour for up to 6 bowlers.", DetailAddress, false},
		{"Book a road test two weeks ahead.", DetailAddress, false},
		{"We're on Kinnickinnic Ave, next to the library.", DetailAddress, true},
		// A road named: a route, a highway, "ruta", "rodovia", "carretera".
		{"Estamos a 40 minutos de Montevideo por la Ruta 5.", DetailAddress, true},
		{"We are 2 miles off Highway 35, past the fruit stand.", DetailAddress, true},
		{"Ficamos no km 12 da rodovia 060, sentido Brasília.", DetailAddress, true},
		{"Plan your route before you come.", DetailAddress, false},
		{"Fica na rua augusta 120, no centro.", DetailAddress, true},
		{"Estamos en el Paseo de la Barra, junto al puerto.", DetailAddress, true},
		// A distance or a time near a road's word is no street's number.
		{"En la ruta salimos hasta 30 km de la ciudad; más lejos, cotizamos el viaje.", DetailAddress, false},
		{"en la ruta vamos hasta 30km", DetailAddress, false},
		{"From the highway it takes 20 minutes.", DetailAddress, false},
		{"estamos na estrada velha 45, em sintra", DetailAddress, true},
		{"Write to hello@example.com.", DetailReach, true},
		{"Walk-ins are welcome.", DetailReach, false},
	}
	for _, tt := range tests {
		if got := StatesDetail(tt.text, tt.asked); got != tt.want {
			t.Errorf("StatesDetail(%q, %b) = %v, want %v", tt.text, tt.asked, got, tt.want)
		}
	}
}

// TestNamesOpening checks that a question asking when a thing other than the business opens is
// told by the sentence stating that thing's hours, when the profile's hours do not name it.
func TestNamesOpening(t *testing.T) {
	const hours = "box office daily from 30 minutes before the first screening; café-bar from 12 noon"
	for _, c := range []struct {
		question, sentence, hours string
		want                      bool
	}{
		{"what time do doors open", "Doors open 20 minutes before each film, and there are about 15 minutes of trailers.", hours, true},
		{"when does the pool open?", "The pool opens at 7am and closes at 9pm.", "Mon–Sun 9am–6pm", true},
		{"a que horas abre a cozinha?", "A cozinha abre às 12h e fecha às 15h.", "Seg–Sáb 10h–23h", true},
		// The profile's hours name it: they answer.
		{"what time does the cafe open", "Our café-bar is open from noon until the last film starts.", hours, false},
		// Nothing named but the business, a day, a time.
		{"what time do you open on saturday", "On Saturday we open at 9am.", "Mon–Sat 9am–5pm", false},
		{"when are you open", "We are open Monday to Friday from 8am to 6pm.", "Mon–Fri 8am–6pm", false},
		// The sentence holds the thing but tells no hours.
		{"what time do doors open", "Bicycle racks are outside the front door.", hours, false},
	} {
		if got := NamesOpening(c.question, c.sentence, c.hours); got != c.want {
			t.Errorf("NamesOpening(%q, %q) = %v, want %v", c.question, c.sentence, got, c.want)
		}
	}
}

// TestHoursName checks that a question asking when a thing opens that the profile's hours name,
// and the Brain's sentence does not, is told by the profile's hours.
func TestHoursName(t *testing.T) {
	const hours = "Course open dawn to dusk; pro shop daily 7am–7pm"
	const rangeHours = "The range is open every day from 8am to 9pm, and until 6pm from November to February."
	for _, c := range []struct {
		question, sentence, hours string
		want                      bool
	}{
		{"what time does the pro shop open", rangeHours, hours, true},
		{"when does the pro shop close?", rangeHours, hours, true},
		{"a que horas abre a farmácia?", "A clínica abre às 9h.", "Farmácia: seg–sáb 8h–20h", true},
		// The sentence names it too, or the question names nothing, or a thing the hours do not.
		{"what time does the pro shop open", "The pro shop opens at 7am every day.", hours, false},
		{"what time do you open", rangeHours, hours, false},
		{"what time does the range open", rangeHours, hours, false},
		{"when does the bar open", rangeHours, hours, false},
	} {
		if got := HoursName(c.question, c.sentence, c.hours); got != c.want {
			t.Errorf("HoursName(%q, %q) = %v, want %v", c.question, c.sentence, got, c.want)
		}
	}
}

// TestOtherSchedule checks that a sentence telling when something of the business happens by its
// days, not an opening, yields to the profile's hours when the question names nothing but them.
func TestOtherSchedule(t *testing.T) {
	for _, c := range []struct {
		question, sentence string
		want               bool
	}{
		{"are you open sunday", "Kids' birthday parties are on Saturdays and Sundays from 10am to 6pm.", true},
		{"abren los sabados?", "Las clases de grupo son de lunes a sábado por la mañana.", true},
		// A thing running until the business closes tells its own schedule, not the closing.
		{"what time do you close on saturday", "Cosmic Bowling runs Friday and Saturday from 9pm to close, with music.", true},
		{"que horas fecham no sabado", "O karaokê é às sextas e sábados, das 22h até o fechamento.", true},
		{"a que hora cierran el viernes", "La música en vivo es los viernes desde las 21:00 hasta el cierre.", true},
		// The business opens a thing named with an indefinite article: that thing's schedule.
		{"what time do you close", "On the last Friday of October we open a flashlight maze from 6pm to 9pm, for ages 8 and up.", true},
		{"a que hora cierran el sabado", "Los sábados abrimos una terraza de 20:00 a 23:00.", true},
		{"what time do you open on saturday", "On Saturdays we open the doors at 9am.", false},
		// The sentence tells an opening, the hours, or the business speaks of itself.
		{"what time do you close on saturday", "On Saturdays the doors close at 1am.", false},
		{"what time do you close on saturday", "The bar is open Friday and Saturday from 9pm to close.", false},
		{"are you open sunday", "The shop is open Sundays from 10am to 4pm.", false},
		{"a que hora abris el domingo?", "Abrimos de lunes a sábado de 10:00 a 21:00 y los domingos de 11:00 a 14:00.", false},
		{"trabajáis los domingos?", "No trabajamos domingos ni festivos.", false},
		{"are you open sunday", "Our team works Monday to Saturday.", false},
		{"are you open sunday", "Sunday hours are shorter in winter.", false},
		// The question names a thing of its own.
		{"is the kitchen open sunday", "Kids' birthday parties are on Saturdays and Sundays from 10am to 6pm.", false},
		// No day: no schedule.
		{"are you open sunday", "Parties must be booked at least 7 days ahead.", false},
	} {
		if got := OtherSchedule(c.question, c.sentence); got != c.want {
			t.Errorf("OtherSchedule(%q, %q) = %v, want %v", c.question, c.sentence, got, c.want)
		}
	}
}

// TestOtherDay checks that a sentence naming other days only than the one a question of the
// hours asks yields to the profile's hours when they name it.
func TestOtherDay(t *testing.T) {
	const hours = "Mon–Fri 4pm–9pm, Sat 9am–1pm, Sun closed"
	for _, c := range []struct {
		question, sentence, hours string
		want                      bool
	}{
		{"are you open on sunday", "BJJ classes are in the gi on Tuesday and Thursday at 7pm and no-gi on Friday at 8pm, with open mat on Saturday from 11am to 1pm for members.", hours, true},
		{"abren el miercoles?", "Las funciones son los sábados y domingos a las 12:00.", "Lunes a viernes de 10 a 20 h", true},
		{"abrem à quarta?", "As visitas guiadas são ao sábado às 11h.", "Seg–Sex 9h–18h", true},
		// The sentence names the day asked, in full, short or in a run of days.
		{"are you open on sunday", "Open mat runs on Sundays from 10am.", hours, false},
		{"are you open on wednesday", "Classes run Monday to Friday at 7pm.", hours, false},
		{"abrem à quarta?", "A loja abre de segunda a sexta-feira, das 9h às 19h.", "Seg–Sex 9h–18h", false},
		// Every day, or no day at all.
		{"are you open on sunday", "Classes run daily at 7pm.", hours, false},
		{"are you open on sunday", "Book at least a day ahead.", hours, false},
		// The profile's hours do not name the day asked.
		{"are you open on sunday", "Open mat is on Saturday from 11am.", "Mon–Sat 9am–6pm", false},
		// The question names a thing of its own, or no day.
		{"is the kitchen open on sunday", "Open mat is on Saturday from 11am.", hours, false},
		{"are you open today", "Open mat is on Saturday from 11am.", hours, false},
	} {
		if got := OtherDay(c.question, c.sentence, c.hours); got != c.want {
			t.Errorf("OtherDay(%q, %q, %q) = %v, want %v", c.question, c.sentence, c.hours, got, c.want)
		}
	}
}

// TestHoursDay checks that a question of the hours on a day, naming nothing of its own, is one the
// profile's hours answer when they name that day (or every day).
func TestHoursDay(t *testing.T) {
	const hours = "Qua a sex 16h às 23h, sáb e dom 12h às 23h; seg e ter fechado"
	for _, c := range []struct {
		question, hours string
		want            bool
	}{
		{"abre segunda?", hours, true},
		{"are you open on sunday", "Mon–Fri 9am–8pm, Sat 9am–5pm, Sun 10am–4pm", true},
		{"are you open on a saturday", "Daily 10am–5pm", true},
		// The hours do not name the day asked.
		{"abre segunda?", "Qua a sex 16h às 23h", false},
		// A thing of its own named, or no day.
		{"a cozinha abre segunda?", hours, false},
		{"abre hoje?", hours, false},
	} {
		if got := HoursDay(c.question, c.hours); got != c.want {
			t.Errorf("HoursDay(%q, %q) = %v, want %v", c.question, c.hours, got, c.want)
		}
	}
}

// TestAsksPlace checks that a question asking where a place is by words of the business's name
// only asks its address.
func TestAsksPlace(t *testing.T) {
	for _, c := range []struct {
		question, name string
		want           bool
	}{
		{"donde esta el teatro?", "Teatro La Encina", true},
		{"¿Dónde está el Teatro La Encina?", "Teatro La Encina", true},
		{"onde fica a oficina", "Oficina Motos do Lis", true},
		{"where is the library", "Maitai Community Library", true},
		{"where's hazel hill please", "Hazel Hill Dog Rescue", true},
		// Another word than the name's: another place or thing.
		{"donde esta el bar del teatro?", "Teatro La Encina", false},
		{"where is the car park", "Maitai Community Library", false},
		{"donde esta el teatro mas cerca", "Teatro La Encina", false},
		// No lead asking where.
		{"el teatro tiene bar?", "Teatro La Encina", false},
		{"donde esta", "Teatro La Encina", false},
	} {
		if got := AsksPlace(c.question, c.name); got != c.want {
			t.Errorf("AsksPlace(%q, %q) = %v, want %v", c.question, c.name, got, c.want)
		}
	}
}
