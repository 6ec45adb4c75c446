package knowledge_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svcagent/svc/domain/knowledge"
)

// FuzzFollowUpIn: any previous messages and message (emoji, right-to-left text, combining marks,
// control and invalid bytes) are read without a panic, and a question read is valid UTF-8.
func FuzzFollowUpIn(f *testing.F) {
	for _, s := range [][3]string{
		{"how much is a haircut?", "and for kids?", "and on saturdays?"},
		{"what time do you open on saturday? 🎂🎉", "x", "and on sundays? 🙂"},
		{"متى تفتحون يوم السبت؟", "", "and on sundays?"},
		{"what time do you ope\u0301n on satu\u0308rday?", "\u202e¿cuánto cuesta la limpieza?", "¿y el blanqueamiento?"},
		{"e\u200d\u200f\ufeff", "\xff\xfe", "e para \u0301\u0301?"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, msg string) {
		q, ok := knowledge.FollowUpIn([]string{a, b}, msg)
		if ok && !utf8.ValidString(q) && utf8.ValidString(a+b+msg) {
			t.Errorf("FollowUpIn(%q, %q, %q) = %q: not valid UTF-8", a, b, msg, q)
		}
	})
}

// TestFollowUpInBounded: however long the conversation, FollowUpIn reads only the last
// FollowChain messages: fifty customer messages, half of them of the longest length (conversation.MaxMessage,
// 8,000 characters) give the reply and the allocations of the last three alone. Counted, not
// timed (BenchmarkFollowUpIn times it).
func TestFollowUpInBounded(t *testing.T) {
	long := strings.Repeat("how much is a haircut for a man with long hair on saturday morning ", 8000/67)
	many := make([]string, 50)
	many[0] = long + "how much is a haircut?"
	for i := 1; i < len(many); i++ {
		many[i] = "and on saturdays?"
		if i%2 == 0 {
			many[i] = long + "and for kids?"
		}
	}
	last := many[len(many)-knowledge.FollowChain:]
	for _, msg := range []string{"and for kids?", "what time do you open?"} {
		q, ok := knowledge.FollowUpIn(many, msg)
		wq, wok := knowledge.FollowUpIn(last, msg)
		if q != wq || ok != wok {
			t.Errorf("FollowUpIn(50 messages, %q) = %.60q, %v; the last %d alone give %.60q, %v", msg, q, ok, knowledge.FollowChain, wq, wok)
		}
		all := testing.AllocsPerRun(5, func() { knowledge.FollowUpIn(many, msg) })
		three := testing.AllocsPerRun(5, func() { knowledge.FollowUpIn(last, msg) })
		if all != three {
			t.Errorf("FollowUpIn(50 messages, %q): %v allocations, the last %d alone %v", msg, all, knowledge.FollowChain, three)
		}
	}
}

// BenchmarkFollowUpIn: a follow-up after fifty messages of the longest length.
func BenchmarkFollowUpIn(b *testing.B) {
	long := strings.Repeat("how much is a haircut for a man with long hair on saturday morning ", 8000/67)
	many := make([]string, 50)
	for i := range many {
		many[i] = long
	}
	for b.Loop() {
		knowledge.FollowUpIn(many, "and for kids?")
	}
}
