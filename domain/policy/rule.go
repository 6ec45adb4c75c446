package policy

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A rule recognises one phrasing in a normalized message. Rules are written in a small pattern
// language over whole words, compiled by compile:
//
//	change|update      one of these words
//	price_list         several words in a row ("price list")
//	instruction*       a word starting with "instruction"
//	the?               an optional word
//	~3                 up to three words of anything
//	$                  the end of the message (also as an alternative: "above|$")
//	^                  the start of the message (first token only)
type rule struct {
	re *lazyRegexp
	// needs lists, for each word the pattern requires, the first words of its alternatives (a
	// final '*' matches any ending) by their numbers in vocab: a message lacking all of one list
	// cannot match, so the regular expression is run only on messages that hold one word of each.
	needs [][]int
	// mine makes a match that names the sender's own things ("my order", "minhas reservas") no
	// hit: "cancel all my bookings" is a customer's request, "cancel all bookings" is not.
	mine bool
	// unless, when set, makes a match followed by it no hit ("I'm the owner" of a shop).
	unless *lazyRegexp
}

// lazyRegexp is a rule's regular expression, compiled when a message first gets past the rule's
// needs: compiled, the rules of all languages hold about 3.8 MB of heap (a word's every letter is
// an instruction), and most are never run, as the few words they need rarely all meet in one
// message. The expression's text is made, and the pattern checked, at package initialization.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// get returns the compiled expression, compiling it on the first call.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// strict compiles rules that fire on any match.
func strict(patterns ...string) []rule {
	rs := make([]rule, len(patterns))
	for i, p := range patterns {
		rs[i] = rule{re: compile(p), needs: vocab.number(needs(p))}
	}
	return rs
}

// own compiles rules whose matches are excused when they name the sender's own things.
func own(patterns ...string) []rule {
	rs := strict(patterns...)
	for i := range rs {
		rs[i].mine = true
	}
	return rs
}

// except makes matches of rules followed by aside no hits.
func except(aside string, rules []rule) []rule {
	unless := compile(aside)
	for i := range rules {
		rules[i].unless = unless
	}
	return rules
}

// vocabulary numbers the words (and the prefixes, ending in '*') that rules need, so that a
// message's words are looked up once per message rather than once per rule.
type vocabulary struct {
	words    map[string]int // a word's number
	prefixes []string       // the prefixes, without their '*'
	ids      []int          // the number of each of prefixes
	n        int
}

// vocab is the vocabulary of every rule compiled (rules are compiled at package initialization).
var vocab = &vocabulary{words: map[string]int{}}

// number returns the numbers of the words of lists, numbering the new ones.
func (v *vocabulary) number(lists [][]string) [][]int {
	out := make([][]int, len(lists))
	for i, words := range lists {
		out[i] = make([]int, len(words))
		for j, w := range words {
			id, ok := v.words[w]
			if !ok {
				id = v.n
				v.n++
				v.words[w] = id
				if prefix, ok := strings.CutSuffix(w, "*"); ok {
					v.prefixes = append(v.prefixes, prefix)
					v.ids = append(v.ids, id)
				}
			}
			out[i][j] = id
		}
	}
	return out
}

// input is a normalized message and which words of the vocabulary it holds (a word of the
// message starting with a prefix holds the prefix).
type input struct {
	text string
	has  []bool // by number in vocab
}

func newInput(s string) input {
	text := normalize(s)
	fields := strings.Fields(text)
	has := make([]bool, vocab.n)
	for _, w := range fields {
		if id, ok := vocab.words[w]; ok {
			has[id] = true
		}
	}
	slices.Sort(fields)
	for k, prefix := range vocab.prefixes {
		// The first word not before prefix is the smallest that may start with it.
		i, _ := slices.BinarySearch(fields, prefix)
		if i < len(fields) && strings.HasPrefix(fields[i], prefix) {
			has[vocab.ids[k]] = true
		}
	}
	return input{text: text, has: has}
}

// hit reports whether the rule fires on a message.
func (r rule) hit(m input) bool {
	for _, alts := range r.needs {
		if !slices.ContainsFunc(alts, func(id int) bool { return m.has[id] }) {
			return false
		}
	}
	for _, loc := range r.re.get().FindAllStringIndex(m.text, -1) {
		if r.mine && namesOwn(m.text[loc[0]:loc[1]]) {
			continue
		}
		if r.unless != nil && r.unless.get().MatchString(m.text[loc[1]-1:]) {
			continue
		}
		return true
	}
	return false
}

// fires reports whether one of rules fires on a message.
func fires(rules []rule, m input) bool {
	for _, r := range rules {
		if r.hit(m) {
			return true
		}
	}
	return false
}

// namesOwn reports whether a matched span holds a first-person possessive.
func namesOwn(span string) bool {
	for _, w := range strings.Fields(span) {
		if _, ok := possessives[w]; ok {
			return true
		}
	}
	return false
}

var possessives = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields("my mine myself meu minha meus minhas mi mis mio mia mios mias") {
		m[w] = struct{}{}
	}
	return m
}()

// needs returns, for each word a pattern requires, the first words of its alternatives.
func needs(pattern string) [][]string {
	var out [][]string
	for _, tok := range strings.Fields(pattern) {
		if tok == "^" || strings.HasPrefix(tok, "~") || strings.HasSuffix(tok, "?") {
			continue
		}
		var firsts []string
		for _, alt := range strings.Split(tok, "|") {
			if alt == "$" {
				firsts = nil
				break
			}
			first, _, _ := strings.Cut(alt, "_")
			if i := strings.IndexByte(first, '*'); i >= 0 {
				first = first[:i+1]
			}
			firsts = append(firsts, first)
		}
		if firsts != nil {
			out = append(out, firsts)
		}
	}
	return out
}

// compile turns a pattern (see rule) into a regular expression over a normalized message, whose
// words are each followed by one space and which starts with a space; the expression is compiled
// when first used (lazyRegexp).
func compile(pattern string) *lazyRegexp {
	var b strings.Builder
	tokens := strings.Fields(pattern)
	if len(tokens) > 0 && tokens[0] == "^" {
		b.WriteString("^")
		tokens = tokens[1:]
	}
	b.WriteString(" ")
	for _, tok := range tokens {
		if n, ok := strings.CutPrefix(tok, "~"); ok {
			if _, err := strconv.Atoi(n); err != nil {
				panic("policy: bad gap " + tok + " in " + pattern)
			}
			b.WriteString(`(?:[^ ]+ ){0,` + n + `}`)
			continue
		}
		opt := strings.HasSuffix(tok, "?")
		tok = strings.TrimSuffix(tok, "?")
		var words []string
		end := false
		for _, alt := range strings.Split(tok, "|") {
			if alt == "$" {
				end = true
				continue
			}
			if alt == "" || strings.ContainsAny(alt, " ()[]{}\\^+.") {
				panic("policy: bad word " + alt + " in " + pattern)
			}
			alt = strings.ReplaceAll(regexp.QuoteMeta(alt), `\*`, `[^ ]*`)
			words = append(words, strings.ReplaceAll(alt, "_", " "))
		}
		group := "(?:" + strings.Join(words, "|") + ") "
		switch {
		case end && len(words) == 0:
			group = "$"
		case end:
			group = "(?:" + group + "|$)"
		}
		if opt {
			group = "(?:" + group + ")?"
		}
		b.WriteString(group)
	}
	return &lazyRegexp{expr: b.String()}
}
