package knowledge_test

import (
	"strings"
	"testing"
	"time"
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

// TestFollowUpInBounded: three customer messages of the longest length (conversation.MaxMessage,
// 8,000 characters) are read in well under a millisecond or so each: the cost of a follow-up is
// bounded by the chain (FollowChain) and the message's length, however long the conversation.
func TestFollowUpInBounded(t *testing.T) {
	long := strings.Repeat("how much is a haircut for a man with long hair on saturday morning ", 8000/67)
	many := make([]string, 50)
	for i := range many {
		many[i] = long
	}
	start := time.Now()
	const n = 20
	for range n {
		knowledge.FollowUpIn(many, "and for kids?")
	}
	if per := time.Since(start) / n; per > 50*time.Millisecond {
		t.Errorf("FollowUpIn of 50 messages of %d characters took %v", len(long), per)
	}
}
