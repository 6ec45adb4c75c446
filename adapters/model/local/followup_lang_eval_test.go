package local

import (
	"slices"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/language"
)

// TestEvalFollowUpsOtherLanguage guards the follow-ups written in another language than the
// customer's message before them ("what time do you open on saturday?" then "e no domingo?";
// testdata/eval/README.md, "Follow-up questions in another language"), on Brains of the visible
// splits: the question searched is the combined one, of two languages, which answers more of
// them than the message read alone, and the reply is in the follow-up's language
// (knowledge.FollowLanguage), not the agent's first one. Each pair names a passage of the right
// answer and the follow-up's language.
func TestEvalFollowUpsOtherLanguage(t *testing.T) {
	type pair struct{ before, message, right, lang string }
	cases := map[string][]pair{
		"Oak Street Dental": { // tune, en
			{"what time do you open on saturday?", "e no domingo?", "Sat 9am–2pm", "pt"},
			{"what time do you open on saturday?", "¿y el domingo?", "Sat 9am–2pm", "es"},
			{"how much is a root canal?", "e um implante?", "Dental implants", "pt"},
			{"how much is a check-up?", "e para crianças?", "Kids' check-ups are $60", "pt"},
			{"how much is a check-up?", "y para niños?", "Kids' check-ups are $60", "es"},
		},
		"Salão Bela Vista": { // tune, pt
			{"quanto custa um corte de senhora?", "and for men?", "Corte de homem: 15 €", "en"},
			{"quanto custa a manicure?", "and a pedicure?", "Pedicure: 20 €", "en"},
			{"estão abertos ao sábado?", "and on sunday?", "sáb 9h–18h", "en"},
			{"estão abertos ao sábado?", "¿y el domingo?", "fechados ao domingo", "es"},
		},
		"Luigi's Corner": { // held-out-2, en
			{"are you open on mondays?", "e aos domingos?", "Tue–Sun 12pm–10pm", "pt"},
			{"how much is a margherita?", "e a diavola?", "Diavola $16", "pt"},
			{"how much is the tiramisu?", "y el gelato?", "gelato $5", "es"},
			{"how much is a margherita?", "y sin gluten?", "gluten-free base", "es"},
		},
		"Ritmo Academia & Studio": { // tune-2, pt-BR
			{"how much is the monthly plan?", "e o anual?", "Plano Anual: R$ 139", "pt"},
			{"what time do you open on saturday?", "e no domingo?", "domingos e feriados, das 8h às 13h", "pt"},
			{"quanto custa o plano mensal?", "and the annual?", "Plano Anual: R$ 139", "en"},
			{"que horas abre no sábado?", "and on sunday?", "dom e feriados 8h–13h", "en"},
			{"que horas abre no sábado?", "what about sunday?", "dom e feriados 8h–13h", "en"},
		},
		"Casa Limpia Madrid": { // tune-5, es
			{"¿cuánto cuesta la limpieza por horas?", "and deep cleaning?", "Limpieza a fondo", "en"},
			{"¿hacéis plancha?", "and how much is it?", "Plancha: 15 €", "en"},
		},
	}
	visible := []string{"tune", "held-out", "tune-2", "held-out-2", "tune-5"}
	s := loadBusinesses(t, businessFile)
	var n, combined, alone, lang int
	for _, b := range s.Businesses {
		pairs, ok := cases[b.Name]
		if !ok {
			continue
		}
		if !slices.Contains(visible, b.Split) {
			t.Fatalf("%s is in split %s, not a visible one", b.Name, b.Split)
		}
		ix, p := b.index(t), b.profile()
		for _, c := range pairs {
			n++
			replies, query := followReplies(t, ix, p, []string{c.before}, c.message)
			if query == "" {
				t.Errorf("%s: %q then %q is no follow-up", b.Name, c.before, c.message)
				continue
			}
			right := func(r string) bool {
				return !isDontKnow(r) && strings.Contains(strings.ToLower(r), strings.ToLower(c.right))
			}
			if right(replies[followDirect]) {
				combined++
			}
			if right(replies[followAlone]) {
				alone++
			}
			if got := replyLang(replies[followDirect]); got == c.lang {
				lang++
			} else if got != "" {
				t.Errorf("%s: %q then %q: reply %q is in %s, want %s", b.Name, c.before, c.message, replies[followDirect], got, c.lang)
			}
			t.Logf("%s | %q then %q (query %q) → %.90q; alone %.60q", b.Name, c.before, c.message, query, replies[followDirect], replies[followAlone])
		}
	}
	t.Logf("%d follow-ups in another language: the combined question right %d, the message alone right %d; replies in the follow-up's language %d",
		n, combined, alone, lang)
	if n != 20 {
		t.Fatalf("%d follow-ups, want 20", n)
	}
	if combined < 14 || combined <= alone {
		t.Errorf("the combined question right %d (floor 14), alone %d", combined, alone)
	}
}

// replyLang is the language of the engine's own words in a reply (its "I don't know", its
// label of the opening hours, its "if you mean"), "" when it has none (a passage alone).
func replyLang(r string) string {
	for _, l := range []string{language.English, language.Portuguese, language.Spanish} {
		ph := phrasesFor(l, l)
		for _, f := range []string{ph.dontKnow, ph.hours, ph.related} {
			if head, _, _ := strings.Cut(f, "%"); head != "" && strings.HasPrefix(r, head) {
				return l
			}
		}
	}
	return ""
}
