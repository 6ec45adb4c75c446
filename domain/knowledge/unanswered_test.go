package knowledge

import "testing"

func TestFactUnstated(t *testing.T) {
	for _, c := range []struct {
		name                   string
		question, reply, brain string
		want                   bool
	}{
		// A duration asked, a passage stating another fact of the thing.
		{"pt: a duration asked, the certificate stated", "quanto tempo demora cada nível", "Certificados: no fim de cada nível, com 80 % de presenças e aprovação no teste final, recebe um certificado.", "pt", true},
		{"en: a duration asked, the prices stated", "how long does a screen repair take?", "Common repairs: laptop screens from $149, keyboards from $99.", "en", true},
		{"es: a duration asked, a rule stated", "cuanto tarda el envio", "Los muebles se entregan montados en casa.", "es", true},
		{"es: a duration asked by cuanto tiempo", "cuanto tiempo es el curso", "El curso se hace en la escuela.", "es", true},
		// An age asked, a passage stating none.
		{"pt: an age asked, the booking stated", "com que idade podem começar as aulas?", "As aulas marcam-se por telefone ou WhatsApp, com pelo menos dois dias de antecedência. Não é preciso comprar botas para começar.", "pt", true},
		{"en: the ages asked", "what ages do you take", "Each room goes outside twice a day, rain or shine.", "en", true},
		// The fact asked stated: in figures, in words, in months or years.
		{"en: the duration in figures", "how long does a screen repair take?", "Most screens are replaced in 1 hour while you wait.", "en", false},
		{"pt: the duration in words", "quanto tempo demora a entrega", "Entregamos em dois dias úteis.", "pt", false},
		{"en: months", "how long is a voucher valid", "Gift vouchers are valid for 12 months.", "en", false},
		{"es: years in words", "cuanto dura el contrato de alquiler", "Los contratos son de dos o tres años.", "es", false},
		{"pt: an age stated", "a partir de que idade?", "Atendemos a partir de 6 anos, com um responsável presente.", "pt", false},
		{"es: another fact asked with it, stated", "cuanto cuesta y cuanto tarda el envio", "El envío cuesta 120 euros.", "es", false},
		// Not asked by its form.
		{"no fact asked", "do you fix e-bikes?", "We fix bikes of every make.", "en", false},
		{"es: the customer's case, not an age asked", "mi hija es menor de edad, que papel necesita", "Para viajes internacionales, pasaporte vigente.", "es", false},
		{"en: a time of day asked by when", "when do you roast?", "You can pause or cancel at any time.", "en", false},
	} {
		if got := FactUnstated(c.question, c.reply, c.brain); got != c.want {
			t.Errorf("%s: FactUnstated(%q, %q) = %v, want %v", c.name, c.question, c.reply, got, c.want)
		}
	}
}
