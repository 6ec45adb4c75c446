package knowledge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens splits text into the terms retrieval compares: words of letters and digits, lower case,
// accents folded (á→a, ç→c, ñ→n, ß→ss), stopwords of English, Portuguese and Spanish dropped, and
// lightly stemmed so that plurals and common inflections meet their base form ("deliveries" and
// "delivery", "opções" and "opção", "ciudades" and "ciudad", "booked" and "booking" and "book").
// A stem is a matching key, not a word. Single letters are dropped; numbers are kept.
func Tokens(text string) []string {
	out := make([]string, 0, len(text)/8)
	eachWord(text, func(w []byte) {
		if len(w) == 1 && !isDigit(w[0]) {
			return
		}
		if _, ok := stopwords[string(w)]; ok { // no allocation: the compiler reads w in place
			return
		}
		out = append(out, stem(string(w)))
	})
	return out
}

// NormalizeQuestion returns the key FAQ items are matched on: lower case, accents folded,
// punctuation dropped and words separated by single spaces. Unlike Tokens it keeps every word.
func NormalizeQuestion(q string) string {
	var b strings.Builder
	eachWord(q, func(w []byte) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.Write(w)
	})
	return b.String()
}

// eachWord calls emit with every word of s, lower case and accent-folded. A word is a run of
// letters and digits; apostrophes inside a word are dropped ("don't" is "dont") and combining
// marks are ignored, so decomposed accents fold like composed ones. emit must not keep w.
func eachWord(s string, emit func(w []byte)) {
	s = countryWords(s) // "US" is no "us"
	var buf [64]byte
	w := buf[:0]
	flush := func() {
		if len(w) > 0 {
			emit(w)
			w = w[:0]
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf { // ASCII fast path
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				w = append(w, c)
			case 'A' <= c && c <= 'Z':
				w = append(w, c+'a'-'A')
			case c == '\'' && len(w) > 0 && i < len(s) && isWordStart(s[i:]):
				// an apostrophe inside a word: drop it and keep the word going
			default:
				flush()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '’' && len(w) > 0 && i < len(s) && isWordStart(s[i:]):
		case unicode.Is(unicode.Mn, r): // a combining mark: part of the letter before it
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			r = unicode.ToLower(r)
			if f, ok := folds[r]; ok {
				w = append(w, f...)
			} else {
				w = utf8.AppendRune(w, r)
			}
		default:
			flush()
		}
	}
	flush()
}

// isWordStart reports whether s begins with a letter or digit.
func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// hasDigit reports whether a word holds a digit.
func hasDigit(w string) bool {
	for i := 0; i < len(w); i++ {
		if isDigit(w[i]) {
			return true
		}
	}
	return false
}

// folds maps lower-case Latin letters with diacritics to plain ASCII.
var folds = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d", 'ð': "d", 'þ': "th", 'ł': "l", 'ı': "i"}
	for base, letters := range map[string]string{
		"a": "àáâãäåāăą",
		"c": "çćĉċč",
		"d": "ď",
		"e": "èéêëēĕėęě",
		"g": "ĝğġģ",
		"h": "ĥħ",
		"i": "ìíîïĩīĭįǐ",
		"j": "ĵ",
		"k": "ķ",
		"l": "ĺļľŀ",
		"n": "ñńņňŉ",
		"o": "òóôõöōŏőǒ",
		"r": "ŕŗř",
		"s": "śŝşšș",
		"t": "ţťŧț",
		"u": "ùúûüũūŭůűųǔ",
		"w": "ŵ",
		"y": "ýÿŷ",
		"z": "źżž",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()

// stem reduces a folded word to a matching key with a few conservative suffix rules that hold
// across English, Portuguese and Spanish. Short words and words with digits are kept as they are.
// The rules run in three steps, at most one rule each:
//
//  1. plurals: -ies → -i (policies), pt -ais/-eis/-ois → -al/-el/-ol (locais, hotéis, lençóis),
//     otherwise a final -s, but not -ss, -us or -is (class, bonus, analysis);
//  2. English -ing and -ed, undoubling a final consonant (shipping, shipped → ship), and
//     -ation → -at from eight letters, the one derivational rule, a noun with its verb
//     (decoration and decorate → decorat, location and located → locat; not station);
//  3. endings that singular and plural then share: a final -e (price and prices → pric, flor and
//     flores → flor, box and boxes → box), -y → -i (policy), pt -ão → -o (opção and opções →
//     opco) and pt -m → -n (viagem and viagens → viagen, item and itens → iten).
func stem(w string) string {
	if n, ok := nounForms["en"][w]; ok {
		w = n // "children" as "child", "people" as "person" (nounForms): no words of pt or es
	}
	if len(w) < 4 || hasDigit(w) {
		return w
	}
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-2]
	case n > 4 && (strings.HasSuffix(w, "ais") || strings.HasSuffix(w, "eis") || strings.HasSuffix(w, "ois")):
		w = w[:n-2] + "l"
	case w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	switch n := len(w); {
	case n >= 6 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n >= 6 && strings.HasSuffix(w, "ed") && w[n-3] != 'e':
		w = undouble(w[:n-2])
	case n >= 8 && strings.HasSuffix(w, "ation"):
		w = w[:n-3]
	}
	switch n := len(w); {
	case n < 4:
	case w[n-1] == 'e':
		w = w[:n-1]
	case w[n-1] == 'y':
		w = w[:n-1] + "i"
	case strings.HasSuffix(w, "ao"):
		w = w[:n-2] + "o"
	case w[n-1] == 'm':
		w = w[:n-1] + "n"
	}
	return w
}

// undouble drops the last letter of a word ending in a doubled consonant other than l, s or z
// ("shipp" → "ship"), as English doubles it before -ing and -ed.
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopwords are frequent English, Portuguese and Spanish words that say little about a topic,
// folded like the words they are compared with (apostrophes dropped). Brazilian chat forms of
// stop words are stop words too: "sou", "ta" (tá, está), "tb" and "tbm" (também), "pq" (porque);
// and so are the interjections customers open or close a question with in regional speech ("eh"
// in Canada, "bah" and "tchê" in the south of Brazil, "wena" and "cachai" in Chile, "lol"): no
// page is about them. So are
// "somewhere" and "anywhere", which stand for the place asked: "is there somewhere to eat" is
// about eating, not the "somewhere" of "Is there somewhere to stay nearby?".
var stopwords = func() map[string]struct{} {
	const words = `
a about above after again all also am an and any are as at be because been before being below
between both but by can cant could did didnt do does doesnt doing dont down during each few for
from further get got had hadnt has hasnt have havent having he her here hers herself him himself
his how i id if ill im in into is isnt it its itself ive just let lets me more most much many my
myself no nor not now of off on once only or other our ours ourselves out over own please same
she should so some such than that thats the their theirs them themselves then there theres these
they theyre this those through to too under until up us very was wasnt we were werent what whats
when where which while who whom why will with wont would you youd youll youre youve your yours
yourself yourselves hi hello hey thanks thank ok okay eh lol somewhere anywhere

ao aos as ate com como da das de dela dele deles do dos e ela elas ele eles em entre era essa
essas esse esses esta estas este estes eu foi for ha isso isto ja la lhe lhes mais mas me mesmo
meu meus minha minhas muito na nao nas nem no nos nossa nossas nosso nossos num numa o os ou
para pela pelas pelo pelos por qual quando que quem se sem ser seu seus so sua suas tambem te
tem tenho teu tua voce voces vos ola obrigado obrigada oi sao sim esta estao ser sera pode podem
posso queria gostaria sou ta tb tbm pq bah tche

al algo algunos alguna algunas alguno con cual cuando del desde donde el ella ellas ellos en es
esa esas ese eso esos esta estan estas este esto estos fue ha han hay la las le les lo los mi mis
mucho muy ni nos nosotros o os otra otro para pero poco por porque puede puedo pueden que quien
se ser si sin sobre su sus tambien te tengo ti tu tus un una unas uno unos usted ustedes y ya yo
hola gracias vosotros wena cachai
`
	m := make(map[string]struct{}, 400)
	for _, w := range strings.Fields(words) {
		m[w] = struct{}{}
	}
	return m
}()
