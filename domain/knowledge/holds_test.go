package knowledge

import "testing"

func TestHolds(t *testing.T) {
	for _, c := range []struct {
		text, query string
		want        bool
	}{
		{"Well-behaved dogs are welcome in ground-floor rooms for £15 a night.", "can i bring my dog", true},
		{"Well-behaved dogs are welcome in ground-floor rooms for £15 a night.", "can i bring my cat", false},
		{"Well-behaved dogs are welcome in ground-floor rooms.", "do you have a pool or a gym for dogs", false},
		{"We are open every day.", "can i bring it", false}, // only light words: no topic to hold
		{"Os armários são de uso diário.", "tem armário", true},
	} {
		if got := Holds(c.text, c.query); got != c.want {
			t.Errorf("Holds(%q, %q) = %v, want %v", c.text, c.query, got, c.want)
		}
	}
}

func TestAgree(t *testing.T) {
	item := "Sim, você pode treinar um dia grátis, na musculação ou em uma aula coletiva."
	page := "Aula experimental: você pode treinar um dia grátis, na musculação ou em uma aula coletiva, antes de se matricular."
	if got := Agree(item, page); got < 0.9 {
		t.Errorf("Agree(the trial day's item, its page) = %.2f, want at least 0.9", got)
	}
	if got := Agree(item, "A taxa de matrícula é de R$ 99 e é isenta no Plano Anual."); got >= 0.5 {
		t.Errorf("Agree(the trial day's item, the fee) = %.2f, want under 0.5", got)
	}
	if got := Agree("", page); got != 0 {
		t.Errorf("Agree of an empty text = %.2f, want 0", got)
	}
}
