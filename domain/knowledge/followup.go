package knowledge

import (
	"maps"
	"strings"
	"unicode"

	"github.com/svcagent/svc/domain/language"
)

// A customer's next message often completes the one before it: "what time do you open on
// saturday?" then "and on sundays?"; "how much is a haircut?" then "and for kids?"; "vocês
// entregam no Porto?" then "e para Lisboa?"; "¿cuánto cuesta la limpieza?" then "¿y el
// blanqueamiento?". Read alone, such a message asks nothing the Brain can answer. FollowUp tells
// it from a new question (customers ask many unrelated ones in a row, some beginning with "and"),
// and writes the question it completes.

// followOpeners begin an elliptical follow-up, as lower-case accent-folded words (NormalizeQuestion),
// longest first: FollowUp tries them in this order.
var followOpeners = [][]string{
	{"and", "what", "about"}, {"and", "how", "about"}, {"what", "about"}, {"how", "about"},
	{"and", "also"}, {"same", "for"}, {"and"},
	{"e", "quanto", "a"}, {"e", "quanto", "ao"}, {"e", "quanto", "aos"}, {"e", "quanto", "as"},
	{"e", "no", "caso", "de"}, {"e", "que", "tal"}, {"e", "se", "for"}, {"e"},
	{"y", "que", "tal"}, {"y", "que", "hay", "de"}, {"y", "en", "cuanto", "a"}, {"y", "si", "es"}, {"y"},
	{"que", "tal"},
}

// followOpenerFirst are the first words of followOpeners.
var followOpenerFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, o := range followOpeners {
		m[o[0]] = true
	}
	return m
}()

// followMaxWords is the most words a follow-up holds after its opener, and followMaxContent the
// most of them that are content words (not stopwords): "and on sundays?", "e para Lisboa?",
// "what about for kids under 5?". A longer message is a question of its own.
const (
	followMaxChars   = 80 // bytes of a message read at all
	followMaxWords   = 6
	followMaxContent = 3
)

// followAsks are words that make the rest of a message a question of its own (a verb, a person
// asking or asked, a question word): "and do you have parking?", "e vocês aceitam cartão?",
// "¿y dónde están?". A question word the previous message holds too ("how much … ?" then "and
// how much for kids?") does not.
var followAsks = func() map[string]bool {
	const words = `
do does did can could is are was were will would should have has had am be i you we they it its
there my your our need want open close closes opens accept take takes offer offers deliver sell
get make book pay cost costs park bring come go how what when where which who why whats
voce voces tem ha sao posso pode podem consigo fazem faz aceitam vou quero queria gostaria esta
estao fica ficam abre abrem fecha fecham eu nos tenho preciso como quando onde qual quais quem
porque custa custam entregam vendem
tienen tiene teneis hay es son puedo puede pueden aceptan hacen quiero quisiera estan abren
cierran cierra usted ustedes yo tengo necesito cuando donde cual cuales quien cuesta cuestan
venden entregan
dao dais dan usam usa usan usais haceis llevais lleva llevan trabajais trabajan trabalham atendem
atienden atendeis ofrecen ofreceis oferecem cobram cobran cobrais aceptais podeis sois estais
vendeis entregais abris cerrais
`
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}()

// followQuestionWords are the question words a follow-up may repeat from the previous message.
var followQuestionWords = map[string]bool{
	"how": true, "much": true, "many": true, "what": true, "time": true, "when": true,
	"quanto": true, "quanta": true, "quantos": true, "quantas": true, "custa": true, "cuanto": true, "cuanta": true, "cuesta": true,
}

// followDays are the days and kinds of day a follow-up puts in place of the previous message's:
// a day replaces a day ("on saturday" → "on sundays"): the days of the week (weekdayNames) and
// the other words naming a day.
var followDays = func() map[string]bool {
	m := maps.Clone(weekdayNames)
	for _, w := range strings.Fields(`weekday weekdays weekend weekends holiday holidays today tomorrow
tonight feriado feriados hoje amanha fim festivo festivos finde hoy manana`) {
		m[w] = true
	}
	return m
}()

// followPreps are prepositions by the part they play: a follow-up's phrase of a group replaces
// the previous message's phrase of the same group ("to Porto" → "para Lisboa", "for adults" →
// "for kids"; "deliver in Lisbon" → "to Porto"); "para" is both a destination and a
// beneficiary, but no place where ("para crianças" after "em Lisboa" is no place).
var followPreps = map[string][]string{
	"to": {"dest", "at"}, "into": {"dest", "at"}, "ate": {"dest", "at"}, "hasta": {"dest", "at"}, "para": {"dest", "for"}, "pra": {"dest", "for"},
	"in": {"at"}, "at": {"at"}, "em": {"at"}, "en": {"at"}, "no": {"at"}, "na": {"at"}, "nos": {"at"}, "nas": {"at"}, "near": {"at"}, "perto": {"at"}, "cerca": {"at"},
	"for": {"for"}, "por": {"for"},
	"with": {"with"}, "com": {"with"}, "con": {"with"},
	"on": {"day"}, "ao": {"day"}, "aos": {"day"},
	"of": {"of"}, "de": {"of"}, "del": {"of"},
}

// followArticles begin a noun phrase: a follow-up's one replaces the previous message's last
// ("la limpieza" → "el blanqueamiento").
var followArticles = map[string]bool{
	"a": true, "an": true, "the": true, "o": true, "os": true, "as": true, "um": true, "uma": true,
	"el": true, "la": true, "los": true, "las": true, "un": true, "una": true,
}

// fword is one word of a message: as written (punctuation around it dropped) and as compared
// (NormalizeQuestion).
type fword struct {
	text, key string
	capital   bool // written with a capital letter
}

func followWords(s string) []fword {
	var out []fword
	for _, f := range strings.Fields(s) {
		t := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		k := NormalizeQuestion(t)
		if k == "" {
			continue
		}
		r := []rune(t)
		out = append(out, fword{text: t, key: k, capital: unicode.IsUpper(r[0])})
	}
	return out
}

// asks reports whether a word makes a message a question of its own (followAsks; "é", is).
func asks(w fword) bool {
	return followAsks[w.key] || strings.ToLower(w.text) == "é"
}

func (w fword) content() bool {
	_, stop := stopwords[w.key]
	return !stop && len(w.key) > 1 && !followArticles[w.key] && followPreps[w.key] == nil
}

// FollowUp reports whether message is an elliptical follow-up of previous, the customer's
// message before it, and the question it asks then: previous with the follow-up's words in
// place of those of the same kind (a day for a day, a place for a place, a phrase of a
// preposition for the previous one's of the same part, a noun phrase for the previous last),
// or previous with them added ("how much is a haircut" and "for kids"). A follow-up begins with
// an opener ("and", "what about", "e", "e para", "y", "¿y …"), or is a day alone after a message
// naming one ("sundays?"), and holds a few words after it, none of them a verb or a new
// question word ("and do you have parking?" asks a question of its own). Conservative: when in
// doubt, it is not a follow-up.
func FollowUp(previous, message string) (string, bool) {
	if previous == "" || len(message) > followMaxChars {
		return "", false
	}
	n := strings.Count(strings.TrimSpace(message), " ") + 1
	// A fact asked of what the previous message named ("how much is it?"); never a question of
	// the business's own contact details ("what are your hours?").
	var words []fword
	if n <= factMaxWords {
		words = followWords(message)
		if _, msg, anaphor, ok := factAsked(words); ok {
			if AskedDetails(message) != 0 {
				return "", false
			}
			return askedOf(previous, followWords(previous), msg, anaphor)
		}
	}
	// Most messages are new questions: those of more words than a follow-up's, or of more than a
	// day alone without an opener's first word, are told at once.
	if n > followMaxWords+4 ||
		n > followMaxContent && !followOpenerFirst[NormalizeQuestion(strings.SplitN(strings.TrimSpace(message), " ", 2)[0])] {
		return "", false
	}
	if words == nil {
		words = followWords(message)
	}
	rest, opened := cutOpener(words)
	if len(rest) == 0 || len(rest) > followMaxWords || !opened && len(rest) > followMaxContent {
		return "", false
	}
	prev := followWords(previous)
	if len(prev) == 0 {
		return "", false
	}
	content, days := 0, 0
	for _, w := range rest {
		if asks(w) && !(followQuestionWords[w.key] && holdsKey(prev, w.key)) {
			return "", false
		}
		if w.content() && !followQuestionWords[w.key] {
			content++
			if followDays[w.key] {
				days++
			}
		}
	}
	if content == 0 || content > followMaxContent {
		return "", false
	}
	if !opened && (days != content || !hasDay(prev)) {
		return "", false // without an opener, only a day in place of the previous one's
	}
	// The follow-up's words without the question words the previous message holds.
	rest = dropRepeated(rest, prev)
	return strings.Join(texts(complete(prev, rest)), " "), true
}

// cutOpener returns msg without its opener, and whether it had one.
func cutOpener(msg []fword) ([]fword, bool) {
	for _, o := range followOpeners {
		if len(msg) <= len(o) {
			continue
		}
		ok := true
		for i, k := range o {
			// "é" (is) is no "e" (and): the opener is compared as written, accents aside
			// only where it has none to lose.
			if msg[i].key != k || k == "e" && strings.ToLower(msg[i].text) != "e" {
				ok = false
				break
			}
		}
		// "e"/"y" are "and" in Portuguese and Spanish; "a"/"o" after "e" are the articles the
		// rest begins with, read by complete.
		if ok {
			return msg[len(o):], true
		}
	}
	return msg, false
}

// complete puts the follow-up's words (rest, opener cut) into the previous message's.
func complete(prev, rest []fword) []fword {
	i := 0
	prep, art := "", ""
	if i < len(rest) && followPreps[rest[i].key] != nil {
		prep = rest[i].key
		i++
	}
	if i < len(rest) && followArticles[rest[i].key] {
		art = rest[i].key
		i++
	}
	noun := rest[i:]
	if len(noun) == 0 {
		return appendWords(prev, rest)
	}
	// A day in place of the previous message's days.
	if isDays(noun) {
		if s, e, ok := span(prev, func(w fword) bool { return followDays[w.key] }); ok {
			return splice(prev, s, e, noun)
		}
		return appendWords(prev, rest)
	}
	// A phrase of a preposition in place of the previous message's of the same part.
	if prep != "" {
		for j := len(prev) - 1; j >= 0; j-- {
			if sharesPart(followPreps[prev[j].key], followPreps[prep]) {
				s := j + 1
				if s < len(prev) && followArticles[prev[s].key] {
					s++
				}
				e := phraseEnd(prev, s)
				if e > s {
					return splice(prev, s, e, noun)
				}
			}
		}
		return appendWords(prev, rest)
	}
	// A place by name in place of the previous one named ("and Lisbon?" after "… to Porto?").
	if len(noun) == 1 && noun[0].capital && art == "" {
		for j := len(prev) - 1; j > 0; j-- {
			if prev[j].capital && prev[j].content() {
				return splice(prev, j, j+1, noun)
			}
		}
	}
	// A noun phrase in place of the previous message's last ("la limpieza" → "el blanqueamiento").
	if art != "" {
		for j := len(prev) - 1; j >= 0; j-- {
			if followArticles[prev[j].key] {
				if e := phraseEnd(prev, j+1); e > j+1 {
					return splice(prev, j, e, rest[i-1:])
				}
			}
		}
	}
	return appendWords(prev, rest)
}

// phraseEnd is the end of the phrase of prev beginning at s: the next preposition or day.
func phraseEnd(prev []fword, s int) int {
	e := s
	for e < len(prev) && followPreps[prev[e].key] == nil && !followDays[prev[e].key] {
		e++
	}
	return e
}

// span is the first run of words of prev for which in holds (joined by "and", "or", "e", "y",
// "ou", "o").
func span(prev []fword, in func(fword) bool) (int, int, bool) {
	for s := range prev {
		if !in(prev[s]) {
			continue
		}
		e := s + 1
		for e+1 < len(prev) && joiners[prev[e].key] && in(prev[e+1]) {
			e += 2
		}
		for e < len(prev) && in(prev[e]) {
			e++
		}
		return s, e, true
	}
	return 0, 0, false
}

var joiners = map[string]bool{"and": true, "or": true, "e": true, "y": true, "ou": true, "o": true}

func splice(prev []fword, s, e int, with []fword) []fword {
	out := make([]fword, 0, len(prev)+len(with))
	out = append(out, prev[:s]...)
	out = append(out, with...)
	return append(out, prev[e:]...)
}

func appendWords(prev, rest []fword) []fword {
	return append(append(make([]fword, 0, len(prev)+len(rest)), prev...), rest...)
}

func isDays(ws []fword) bool {
	n := 0
	for _, w := range ws {
		switch {
		case followDays[w.key]:
			n++
		case joiners[w.key], w.key == "de", w.key == "semana": // "fim de semana"
		default:
			return false
		}
	}
	return n > 0
}

func hasDay(ws []fword) bool {
	for _, w := range ws {
		if followDays[w.key] {
			return true
		}
	}
	return false
}

func holdsKey(ws []fword, key string) bool {
	for _, w := range ws {
		if w.key == key {
			return true
		}
	}
	return false
}

func dropRepeated(rest, prev []fword) []fword {
	out := rest[:0:0]
	for _, w := range rest {
		if followQuestionWords[w.key] && holdsKey(prev, w.key) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func sharesPart(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func texts(ws []fword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// A message whose only words ask a kind of fact — a price, a duration, a way, a rule, whether it
// needs booking — and name nothing asks it of what the previous message named: "¿tenéis recogida
// a domicilio?" then "y cuánto cuesta?"; "do you offer bike fitting?" then "how long does it
// take?"; "fazem teste de nível?" then "é grátis?". The anaphor ("it", "that", "isso", "eso") is
// the previous message's thing, or nothing.

// Fact is the kind of fact a message asks of a thing it does not name (FactAsked).
type Fact uint8

const (
	FactPrice    Fact = 1 << iota // "how much is it?", "¿cuánto cuesta?", "é grátis?"
	FactDuration                  // "how long does it take?", "quanto tempo demora?"
	FactWay                       // "how does it work?", "como funciona?"
	FactRule                      // "can I book it?" with a booking; alone ("can I pay by card for it?") none
	FactBooking                   // "do I need to book?", "¿hace falta cita?"
)

// factWords are the words that ask a kind of fact, as NormalizeQuestion writes them.
var factWords = func() map[string]Fact {
	m := map[string]Fact{}
	for f, words := range map[Fact]string{
		FactPrice: `much cost costs price prices priced charge charged fee fees free expensive cheap
			quanto quanta custa custam custar preco valor gratis gratuito gratuita cobram cobra caro
			cuanto cuanta cuesta cuestan costar precio vale valen sale salen cobran cobrais costo coste`,
		FactDuration: `long take takes last lasts time minutes
			demora demoram leva levam dura duram tempo
			tarda tardan tardais lleva llevan tiempo`,
		FactWay: `work works funciona funcionam funcionan`,
		FactRule: `can may allowed pay card cards cash credit debit
			posso pode podemos pagar cartao dinheiro pix credito debito
			puedo puede podemos tarjeta efectivo bizum`,
		FactBooking: `book booking appointment reservation reserve need advance ahead
			marcar marcacao agendar agendamento reservar reserva preciso precisa antecedencia
			cita necesito necesita hace falta antelacion previa`,
	} {
		for _, w := range strings.Fields(words) {
			m[w] |= f
		}
	}
	return m
}()

// factFillers are the other words such a message may hold: question words, auxiliaries,
// pronouns asking, articles and prepositions ("how long does it take", "is there a fee for
// that", "e quanto tempo demora", "¿hace falta cita para eso?").
var factFillers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
how what is are does do did will would i we you to for by a an the there be with of me my so
then also just still please ok
e o a os as de em por com para tem ha ser eu se que como qual isso
y el la los las en con hay es son lo le me mi yo que cual eso
tiene tienen tem tenho
`) {
		m[w] = true
	}
	for _, w := range []string{"what s", "how s", "it s", "whats", "hows", "its"} { // "what's", "how's", "it's"
		m[w] = true
	}
	return m
}()

// factAnaphors stand for the previous message's thing.
var factAnaphors = map[string]bool{
	"it": true, "that": true, "this": true, "them": true, "those": true,
	"isso": true, "isto": true, "eso": true, "esto": true, "ello": true,
}

// factMaxWords is the most words of a message asking a fact of the previous message's thing.
const factMaxWords = 8

// FactAsked reports whether message's only words ask a kind of fact and name nothing ("how
// much is it?", "e quanto tempo demora?", "¿hace falta cita?"), and which kinds; a question of
// contact details ("what are your hours?") is none, and so is a rule alone ("can I pay by card
// for it?": the business's for all its things, asked as it is).
func FactAsked(message string) (Fact, bool) {
	f, _, _, ok := factAsked(followWords(message))
	return f, ok && AskedDetails(message) == 0
}

// factAsked is FactAsked of a message's words: the kinds, the words after its opener, and the
// index among them of its anaphor (-1: none).
func factAsked(ws []fword) (Fact, []fword, int, bool) {
	if len(ws) == 0 || len(ws) > factMaxWords {
		return 0, nil, -1, false
	}
	if rest, opened := cutOpener(ws); opened {
		ws = rest
	}
	var f Fact
	anaphor := -1
	for i, w := range ws {
		switch {
		case factWords[w.key] != 0:
			f |= factWords[w.key]
		case factAnaphors[w.key]:
			anaphor = i
		case factFillers[w.key], strings.ToLower(w.text) == "é":
		default:
			return 0, nil, -1, false
		}
	}
	// A rule alone ("can I pay by card?", "… for it?") is the business's for all its things
	// ("Payment: we keep a credit card on file"): asked of the previous message's thing, the
	// Brain's answer scores under the engine's threshold where the message alone finds it.
	// "do you take cards?" is a rule too ("take" asks a duration elsewhere); "can I book it?" is
	// a booking.
	if f == 0 || f&FactRule != 0 && f&FactBooking == 0 {
		return 0, nil, -1, false
	}
	return f, ws, anaphor, true
}

// named is the thing a message names: its words without those asking (verbs, question words,
// words of a fact), from its first content word to its last ("¿tenéis recogida a domicilio?":
// "recogida a domicilio"; "do you do nail trimming?": "nail trimming"); nil when it names
// nothing but days.
func named(ws []fword) []fword {
	var out []fword
	for _, w := range ws {
		if asks(w) || factWords[w.key] != 0 || followQuestionWords[w.key] || factAnaphors[w.key] {
			continue
		}
		out = append(out, w)
	}
	s, e := 0, len(out)
	for s < e && !out[s].content() {
		s++
	}
	for e > s && !out[e-1].content() {
		e--
	}
	out = out[s:e]
	for _, w := range out {
		if w.content() && !followDays[w.key] {
			return out
		}
	}
	return nil
}

// askedOf is the question a message asking a fact (its words after the opener, anaphor its
// anaphor's index or -1) asks of prev's thing: the thing in place of the anaphor, else after
// the message's words ("how much is it" → "how much is nail trimming"; "cuánto cuesta" →
// "cuánto cuesta recogida a domicilio").
func askedOf(previous string, prev, msg []fword, anaphor int) (string, bool) {
	if AskedDetails(previous) != 0 {
		return "", false // "where are you?" names no thing
	}
	thing := named(prev)
	if len(thing) == 0 {
		return "", false
	}
	if anaphor >= 0 {
		return strings.Join(texts(splice(msg, anaphor, anaphor+1, thing)), " "), true
	}
	return strings.Join(texts(appendWords(msg, thing)), " "), true
}

// FollowChain is how many of a customer's earlier messages FollowUpIn reads: a follow-up of a
// follow-up of a question ("how much is a haircut?", "and for kids?", "and on saturdays?").
const FollowChain = 3

// FollowUpIn is FollowUp after a customer's earlier messages (oldest first; the last is the
// previous one): the previous message, when it is itself a follow-up of the one before it, is
// read as the question it asked, and so on up to FollowChain messages back.
func FollowUpIn(previous []string, message string) (string, bool) {
	if len(previous) == 0 {
		return "", false
	}
	if len(previous) > FollowChain {
		previous = previous[len(previous)-FollowChain:]
	}
	prev := previous[0]
	for _, p := range previous[1:] {
		if q, ok := FollowUp(prev, p); ok {
			prev = q
		} else {
			prev = p
		}
	}
	return FollowUp(prev, message)
}

// A follow-up is answered in its own language, as a good agent answers a customer who changes
// language ("what time do you open on saturday?" then "e no domingo?"): the reply's language is
// the message's, and a follow-up is too short for language.Detect to tell it ("e no domingo?"
// holds one weak hint), where the reply fell back to the agent's first language whatever the
// customer wrote. Its opener tells it ("and", "what about" English, "e" Portuguese, "y"
// Spanish), or, a day alone, the day's name ("sundays?", "domingo?"); a word of two languages
// ("que tal", "domingo") is the previous message's language when that is one of them.
//
// The question searched stays the combined one, even when its words are of two languages
// ("what time do you open on domingo"): the days of the three languages are one another's
// (weekdayNames), a day's question asks the opening hours (AskedDetails), and the thing a
// follow-up names is often the Brain's own word ("e o anual?" after "how much is the monthly
// plan?" on a Brazilian gym's Brain: the annual plan's price). Read alone, such follow-ups lose
// their answers: of 20 follow-ups written in another language than the message before them on
// five Brains of the visible eval splits, the combined question answers 14 right and the message
// read alone 6 (adapters/model/local's TestEvalFollowUpsOtherLanguage; testdata/eval/README.md,
// "Follow-up questions in another language").

// langSet is a set of the languages language.Detect tells apart.
type langSet uint8

const (
	langEN langSet = 1 << iota
	langPT
	langES
)

var langBits = map[string]langSet{language.English: langEN, language.Portuguese: langPT, language.Spanish: langES}

// openerLangs are the languages of an opener, by its first word (followOpeners): "and", "what
// about", "how about", "same for" English, "e" Portuguese, "y" Spanish, "que tal" either
// Iberian one.
var openerLangs = map[string]langSet{"and": langEN, "what": langEN, "how": langEN, "same": langEN,
	"e": langPT, "y": langES, "que": langPT | langES}

// dayLangs are the languages of the words naming a day (the days of the week, weekdays, and the
// other words followDays holds), folded, singular and plural.
var dayLangs = func() map[string]langSet {
	m := map[string]langSet{}
	for l, words := range map[langSet]string{
		langEN: weekdays["en"] + " weekday weekend holiday today tomorrow tonight",
		langPT: weekdays["pt"] + " feriado hoje amanha",
		langES: weekdays["es"] + " festivo finde hoy manana",
	} {
		for _, w := range strings.Fields(words) {
			m[w] |= l
			m[w+"s"] |= l
		}
	}
	return m
}()

// messageLangs are the languages message may be written in: language.Detect's when its words
// tell, else its opener's, else those of its days' names (all of them: "domingo" is
// Portuguese or Spanish); 0 when nothing tells.
func messageLangs(message string) langSet {
	if l := langBits[language.Detect(message, "")]; l != 0 {
		return l
	}
	words := followWords(message)
	if _, opened := cutOpener(words); opened {
		return openerLangs[words[0].key]
	}
	var l langSet
	for _, w := range words {
		if d := dayLangs[w.key]; d != 0 {
			if l == 0 {
				l = d
			} else if l&d != 0 {
				l &= d
			}
		}
	}
	return l
}

// FollowLanguage is the language ("en", "pt" or "es") a follow-up of previous (the customer's
// earlier messages, oldest first, as FollowUpIn reads them) is written in and answered in:
// language.Detect's when the message's words tell it, else its opener's or its day's; when
// that is two languages, or nothing tells, the previous message's when it is one of them. ""
// when nothing tells: the caller's own rule (the agent's first language) stands.
func FollowLanguage(previous []string, message string) string {
	msg := messageLangs(message)
	var prev langSet
	if len(previous) > 0 {
		prev = messageLangs(previous[len(previous)-1])
	}
	l := msg
	switch {
	case msg == 0:
		l = prev
	case msg&prev != 0 && prev&(prev-1) == 0:
		l = msg & prev
	}
	if l&(l-1) != 0 { // more than one
		return ""
	}
	for code, b := range langBits {
		if l == b {
			return code
		}
	}
	return ""
}

// StatesFact reports whether a text (an FAQ item, a passage) states a fact of the kinds f asks:
// an amount for a price or a duration (a number, or that it is free or included), a word of
// booking for a booking ("Reservad en la web"), of paying or allowing for a rule; any text for
// a way.
func StatesFact(text string, f Fact) bool {
	if f&FactWay != 0 {
		return true
	}
	if f&(FactPrice|FactDuration) != 0 && strings.ContainsAny(text, "0123456789") {
		return true
	}
	for _, w := range strings.Fields(NormalizeQuestion(text)) {
		for kind, stems := range factStems {
			if f&kind == 0 {
				continue
			}
			for _, st := range stems {
				if strings.HasPrefix(w, st) {
					return true
				}
			}
		}
	}
	return false
}

// factStems begin the words that state a fact of each kind (StatesFact).
var factStems = map[Fact][]string{
	FactPrice:    {"free", "included", "gratis", "gratuit", "incluid", "sin cargo", "no charge"},
	FactDuration: {"free", "gratis", "gratuit"},
	FactBooking:  {"book", "reserv", "appointment", "cita", "marca", "marque", "agend", "walk-in", "walk"},
	FactRule:     {"pay", "pag", "card", "cart", "tarjet", "cash", "efectiv", "dinheir", "credit", "debit", "bizum", "pix", "allow", "permit"},
}
