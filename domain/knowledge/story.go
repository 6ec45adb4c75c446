package knowledge

import (
	"strings"
	"unicode"
)

// clauseBreaks end a clause of a customer's message: a sentence's end, a comma, a colon or a
// semicolon, a line break.
const clauseBreaks = ",.;:!?\n"

// storyWords returns, of each of the n words of text (as lowerWords splits it), whether it lies
// outside the clause that asks: the message's last clause ended by a question mark, else its
// last clause. A customer often tells their case before asking ("my mom lives in charlotte, can
// you get flowers to her??", "mi sobrino tiene 10 años, puede ir al tour?"); nil when the message
// is one clause, or its clauses' words are not its words (lowerWords reads the whole text).
func storyWords(text string, n int) []bool {
	type clause struct {
		words int
		asks  bool
	}
	if i := strings.IndexAny(text, clauseBreaks); i < 0 || countWords(text[i:]) == 0 {
		return nil // one clause: most questions
	}
	var clauses []clause
	for rest := text; rest != ""; {
		end := strings.IndexAny(rest, clauseBreaks)
		part, brk := rest, byte(0)
		if end >= 0 {
			part, brk = rest[:end], rest[end]
			rest = rest[end+1:]
		} else {
			rest = ""
		}
		if w := countWords(part); w > 0 {
			clauses = append(clauses, clause{words: w, asks: brk == '?'})
		} else if brk == '?' && len(clauses) > 0 {
			clauses[len(clauses)-1].asks = true // "??"
		}
	}
	if len(clauses) < 2 {
		return nil
	}
	ask, total := len(clauses)-1, 0
	for i, c := range clauses {
		total += c.words
		if c.asks {
			ask = i
		}
	}
	if total != n {
		return nil
	}
	story := make([]bool, n)
	w := 0
	for i, c := range clauses {
		for range c.words {
			story[w] = i != ask
			w++
		}
	}
	return story
}

// withoutStory returns feats without the features that only the words of the story the customer
// tells before asking (storyWords) give and that no text of the matcher holds: such a word ("mom",
// "charlotte", "sobrino") is the customer's case, not what they ask, and would weigh the question
// down against every sentence as a word the Brain lacks. A word of the clause that asks keeps its
// weight however unknown ("do you repair cars": cars is what is asked). feats itself when
// nothing is left out.
func (m *faqMatcher) withoutStory(q *query, feats []feature) []feature {
	story := q.storyWords()
	if story == nil {
		return feats
	}
	asked := map[string]struct{}{}
	for i, s := range story {
		if s || q.stems[i] == "" {
			continue
		}
		for _, k := range featureKeys(q.stems[i], q.folded[i]) {
			asked[k] = struct{}{}
		}
	}
	var out []feature
	for j, f := range feats {
		_, ask := asked[f.key]
		_, held := m.feats.get(f.key)
		if ask || held {
			if out != nil {
				out = append(out, f)
			}
			continue
		}
		if out == nil {
			out = append(make([]feature, 0, len(feats)), feats[:j]...)
		}
	}
	if out == nil {
		return feats
	}
	return out
}

// countWords counts the words of text as lowerWords splits it, without making them (an
// apostrophe joins the letters either side of it, as lowerWords drops it).
func countWords(text string) int {
	n, in := 0, false
	for _, r := range text {
		switch {
		case r == '\'' || r == '’':
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if !in {
				n++
			}
			in = true
		default:
			in = false
		}
	}
	return n
}
