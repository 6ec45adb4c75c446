package knowledge

import (
	"slices"
	"strings"
	"testing"
)

// TestRegionalThesaurus checks that one country's word and another's for the same thing share a
// group of the thesaurus read (thesauri), one word or a phrase, and that the words of two
// meanings across the countries are left out of the regional groups.
func TestRegionalThesaurus(t *testing.T) {
	for _, c := range []struct {
		lang, text, member string // member: a member of one of text's groups
	}{
		{"en", "weans", "children"},
		{"en", "bairns", "kids"},
		{"pt", "guris", "crianças"},
		{"es", "cabros chicos", "niños"},
		{"es", "gurises", "niño"},
		{"pt", "duches", "chuveiro"},
		{"pt", "chuveiros", "duche"},
		{"pt", "banheiro", "casa de banho"},
		{"pt", "café da manhã", "pequeno almoço"},
		{"pt", "pequeno-almoço", "café da manhã"},
		{"pt", "celular", "telemóvel"},
		{"pt", "ônibus", "autocarro"},
		{"pt", "trem", "comboio"},
		{"pt", "geladeira", "frigorífico"},
		{"pt", "cadastro", "registo"},
		{"pt", "ingressos", "bilhete"},
		{"pt", "carteira de motorista", "carta de condução"},
		{"pt", "encanador", "canalizador"},
		{"pt", "carona", "boleia"},
		{"es", "computadora", "ordenador"},
		{"es", "carro", "coche"},
		{"es", "celular", "móvil"},
		{"es", "jugo", "zumo"},
		{"es", "anteojos", "gafas"},
		{"es", "manejar", "conducir"},
		{"es", "boletos", "billete"},
		{"es", "rentar", "alquilar"},
		{"es", "reservación", "reserva"},
		{"es", "alberca", "piscina"},
		{"es", "regadera", "ducha"},
		{"es", "ómnibus", "bus"},
		{"es", "plomero", "fontanero"},
		{"es", "maní", "cacahuete"},
		{"es", "mesero", "camarero"},
	} {
		s := thesauri[c.lang]
		folded := NormalizeQuestion(c.text)
		gs := s.words[stem(folded)]
		if strings.Contains(folded, " ") {
			gs = s.phrases[" "+folded+" "]
		}
		var members []string
		for _, g := range gs {
			members = append(members, s.groups[g]...)
		}
		if !slices.Contains(members, c.member) {
			t.Errorf("%s %q: groups %q, want %q among them", c.lang, c.text, members, c.member)
		}
	}
	ambiguous := map[string][]string{
		"pt": {"fato", "propina", "rato", "camisola", "bicha", "tenis", "apelido", "tela", "maio", "grama", "descarga"},
		"es": {"piso", "renta", "llave", "manteca", "coger", "vale", "servicio", "colectivo", "metro", "entrada", "guagua", "manejo"},
	}
	for lang, text := range regionalThesaurus {
		for line := range strings.Lines(text) {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			members := strings.Split(line, ",")
			if len(members) < 2 {
				t.Errorf("%s: group %q of one member", lang, line)
			}
			for _, m := range members {
				if w := NormalizeQuestion(m); slices.Contains(ambiguous[lang], w) {
					t.Errorf("%s: group %q holds %q, a word of another meaning in another country", lang, line, w)
				}
			}
		}
	}
}
