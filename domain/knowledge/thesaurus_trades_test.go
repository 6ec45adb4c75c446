package knowledge

import (
	"slices"
	"strings"
	"testing"
)

// TestTradeThesaurus checks that the trades' groups are read with the thesaurus's: a customer's
// word (of a trade, or of any business: "oaps", "parcela", "papeles") and the business's word for
// it share a group, by language, and a word that is no member has none.
func TestTradeThesaurus(t *testing.T) {
	for _, c := range []struct {
		lang, word, member string // member: a member of one of word's groups ("" when word has none)
	}{
		{"en", "buttonholes", "boutonnieres"},
		{"en", "arvo", "afternoon"},
		{"en", "hols", "holidays"},
		{"en", "football", "sports"},
		{"en", "huge", "oversized"},
		{"en", "crook", "sick"},
		{"en", "wilting", "droop"},
		{"pt", "trancar", "congelamento"},
		{"pt", "chuveiro", "vestiário"},
		{"es", "ponchó", "pinchaduras"},
		{"es", "lloviendo", "lluvia"},
		{"es", "banqueta", "acera"},
		{"pt", "cachorro", "cão"},
		{"pt", "cão", "pet"},
		{"en", "oaps", "pensioner"},
		{"en", "cert", "certificate"},
		{"en", "upfront", "deposit"},
		{"pt", "parcela", "prestações"},
		{"pt", "socorro", "emergência"},
		{"pt", "remédio", "receita"},
		{"es", "medicación", "receta"},
		{"es", "papeles", "documentos"},
		{"es", "chicas", "femenino"},
		{"es", "regresar", "devolver"},
		{"en", "individual", "private"},
		{"pt", "individuais", "particulares"},
		{"es", "individuales", "particulares"},
		{"en", "2fa", "authenticator"},
		{"en", "booze", "wine"},
		{"en", "accommodation", "cottages"},
		{"en", "viewing", "open days"},
		{"pt", "gestantes", "gravida"},
		{"pt", "liberar", "autorização"},
		{"pt", "operei", "reabilitação"},
		{"es", "hueco", "disponibilidad"},
		{"es", "sofá", "tapicerías"},
		{"en", "businesses", "commercial"},
		{"en", "lockout", "locked out"},
		{"en", "rekeying", "change the locks"},
		{"en", "brekky", "breakfast"},
		{"en", "rellies", "relatives"},
		{"en", "waiters", "wait staff"},
		{"en", "grog", "booze"},
		{"en", "wake", "funeral"},
		{"pt", "injeções", "injetáveis"},
		{"pt", "canadianas", "muletas"},
		{"pt", "caducados", "fora do prazo"},
		{"pt", "vence", "validade"},
		{"pt", "vencimento", "validade"},
		{"es", "caduca", "validez"},
		{"es", "vencen", "válido"},
		{"es", "profe", "monitor"},
		{"es", "monitores", "instructor"},
		{"es", "snow", "snowboard"},
		{"en", "intro", "beginner"},
		{"en", "introductory", "beginners"},
		{"pt", "introdução", "iniciante"},
		{"es", "introducción", "principiante"},
		{"en", "expire", "valid"},
		{"en", "expiry", "validity"},
		{"en", "disabled", "blue badge"},
		{"es", "tasás", "tasación"},
		{"es", "cochera", "garaje"},
		{"es", "escribano", "notario"},
		{"es", "depto", "departamento"},
		{"en", "mileage", "miles i drive"},
		{"en", "lads", "movers"},
		{"en", "cpas", "enrolled agent"},
		{"en", "doordash", "gig workers"},
		{"pt", "rulote", "caravana"},
		{"pt", "electricidade", "eletricidade"},
		{"pt", "grelhados", "churrasco"},
		{"pt", "net", "wifi"},
		{"pt", "melgas", "mosquitos"},
		{"pt", "botijas", "garrafa de gás"},
		{"es", "encargar", "hacer el pedido"},
		{"es", "aparte", "costo extra"},
		{"es", "degustar", "degustación"},
		{"es", "velitas", "velas"},
		{"es", "celiaco", "sin gluten"},
		{"pt", "alvejante", "cloro"},
		{"pt", "velho", "antigo"},
		{"pt", "espessura", "mm"},
		{"es", "menores", "niños"},
		{"en", "hayride", "hay ride"},
		{"en", "wife", "companion"},
		{"en", "refer", "referral"},
		{"es", "suscripcion", "club de vinos"},
		{"es", "mandan", "envíos"},
		{"pt", "rede", ""},
		{"en", "corp", "s corporation"},
		{"en", "dismantle", "take apart"},
		{"en", "reassemble", "put back together"},
		{"en", "stored", "storage"},
		{"en", "mice", "mouse"},
		{"en", "roaches", "cockroaches"},
		{"en", "racoon", "raccoon"},
		{"en", "techs", "technicians"},
		{"en", "couches", "sofas"},
		{"en", "carer", "companion"},
		{"en", "showings", "screenings"},
		{"en", "veterans", "military"},
		{"pt", "balneários", "duche"},
		{"pt", "contribuinte", "nif"},
		{"es", "carnet", "carné"},
		{"es", "errata", "error"},
		{"es", "estampáis", "personalizamos"},
		{"es", "tenerife", "canarias"},
		{"es", "formentera", "baleares"},
		{"en", "backyard", "yard"},
		{"en", "garden", "back yard"},
		{"en", "pints", "drinks"},
		{"en", "sweets", "snacks"},
		{"en", "locksmiths", "technicians"},
		{"en", "petrol", "fuel"},
		{"es", "plata", "dinero"},
		{"pt", "grana", "dinheiro"},
		{"en", "free", "complimentary"},
		{"pt", "grátis", "gratuito"},
		{"es", "gratis", "gratuito"},
		{"es", "perrito", "mascota"},
		{"pt", "cachorrinho", "pet"},
		{"pt", "estaciono", "estacionamento"},
		{"es", "aparco", "aparcamiento"},
		{"en", "buggy", "pushchair"},
		{"en", "stuck", "sticking"},
		{"en", "second hand", "reconditioned"},
		{"en", "preloved", "refurbished"},
		{"pt", "brinco", "bijuterias"},
		{"pt", "pulseira", "bijuteria"},
		{"es", "ponen", "colocamos"},
		{"es", "ponés", "colocar"},
		{"en", "remotely", "video call"},
		{"en", "zoom", "remote"},
		{"es", "cochecito", "carriola"},
		{"pt", "hoje", "mesmo dia"},
		{"en", "zeppelin", ""},
	} {
		s := thesauri[c.lang]
		var members []string
		for _, g := range s.words[stem(foldWord(c.word))] {
			members = append(members, s.groups[g]...)
		}
		switch {
		case c.member == "" && len(members) > 0:
			t.Errorf("%s %q: groups %q, want none", c.lang, c.word, members)
		case c.member != "" && !slices.Contains(members, c.member):
			t.Errorf("%s %q: groups %q, want %q among them", c.lang, c.word, members, c.member)
		}
	}
	for lang, text := range tradeThesaurus {
		for line := range strings.Lines(text) {
			if line = strings.TrimSpace(line); line != "" && len(strings.Split(line, ",")) < 2 {
				t.Errorf("%s: group %q of one member", lang, line)
			}
		}
	}
}
