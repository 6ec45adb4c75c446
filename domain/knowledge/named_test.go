package knowledge

import "testing"

func TestNamedOnly(t *testing.T) {
	for _, c := range []struct {
		name                     string
		question, sentence, firm string
		want                     bool
	}{
		{"pt: the name's last words, the address", "o bela vista faz barba?", "O Salão Bela Vista fica na Avenida de Roma, 85, em Lisboa.", "Salão Bela Vista", true},
		{"pt: the whole name", "a farmácia santa clara tem testes de gravidez?", "A Farmácia Santa Clara fica na Avenida Fernão de Magalhães, 212, em Coimbra.", "Farmácia Santa Clara", true},
		{"es: two words in a row", "casa limpia trabaja en getafe?", "Casa Limpia Madrid es una empresa de limpieza de hogares.", "Casa Limpia Madrid", true},
		{"en: the name's first word", "can tally chase them for me", "Tally has three plans.", "Tally Invoicing", true},
		{"sharing another word", "casa limpia trabaja en getafe?", "Trabajamos en Madrid capital y en Getafe.", "Casa Limpia Madrid", false},
		{"sharing another word, en", "does spoke and chain fix e-bikes?", "We fix e-bikes of every make.", "Spoke & Chain", false},
		// One word of the name, not its first: the kind of business, which the question asks.
		{"the kind of business", "how much is a round of golf", "Braehead Golf Club is an 18-hole course.", "Braehead Golf Club", false},
		{"not naming the business", "do you do barba?", "O Salão Bela Vista fica na Avenida de Roma.", "Salão Bela Vista", false},
		{"only the name", "bela vista?", "O Salão Bela Vista fica na Avenida de Roma.", "Salão Bela Vista", false},
		{"no name", "o bela vista faz barba?", "O Salão Bela Vista fica na Avenida de Roma.", "", false},
	} {
		if got := NamedOnly(c.question, c.sentence, c.firm); got != c.want {
			t.Errorf("%s: NamedOnly(%q, %q, %q) = %v, want %v", c.name, c.question, c.sentence, c.firm, got, c.want)
		}
	}
}
