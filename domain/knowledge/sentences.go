package knowledge

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parameters of the sentence matcher of small Brains (see sentenceMatcher), tuned on the
// small-Brain set (testdata/eval/README.md).
const (
	// SentenceMaxChunks is the most chunks of a Brain whose sentences are matched one by one:
	// about 80,000 characters, a small business's site. Larger Brains keep the chunks' own score
	// only, so that their index builds as fast as before (the sentences' n-grams cost about as
	// much as an FAQ of as many items).
	SentenceMaxChunks = 100
	// sentenceWeight is the share of the best sentence's similarity in a chunk's score; the
	// chunk's BM25 and cosine have the rest.
	sentenceWeight = 0.7
	// sentenceStopWeight scales the features of stop words in the sentences' similarity: a
	// sentence is long beside a question, and "how", "do", "you" match some sentence of every
	// page.
	sentenceStopWeight = 0.3
	// cueBoost is added to the similarity of a sentence that states the kind of fact the
	// question asks for by its form (a price for "how much", a place for "where", a time for
	// "when"; query.cues).
	cueBoost = 0.1
	// titleOnly is the least share of its similarity a sentence holding only its title's words
	// of the question keeps when lowered (best): above nothing, so that it is still the chunk's
	// sentence when no other holds a word of the question.
	titleOnly = 0.01
)

// sentenceMatcher compares a query with each sentence of the chunks of a small Brain, the way
// the FAQ matcher compares it with FAQ questions (Snowball stems and character n-grams, TF-IDF
// over the sentences): a sentence that answers a question is short and says it in a few words,
// while BM25 over the whole chunk dilutes them among the chunk's other terms and meets neither
// inflections it does not know ("located", "location") nor misspellings.
type sentenceMatcher struct {
	m     *faqMatcher
	chunk []int32   // of each sentence
	text  []string  // of each sentence
	cues  []cue     // of each sentence
	parts []dayPart // of each sentence: the parts of the day of the times it states
	title []bool    // of each sentence: whether it is its chunk's title
	// heading is, of each sentence, its chunk's title's index among the sentences; -1 for a
	// title, or a sentence of a chunk without one.
	heading []int32
	// phrasal are the phrasal verbs the Brain writes, in its sentences and FAQ items
	// (phrasalVerbs; set by NewIndex).
	phrasal map[string]struct{}
}

// newSentenceMatcher indexes the sentences of the chunks, each chunk's title as one of its
// sentences; nil for a Brain of more than SentenceMaxChunks chunks or of none.
func newSentenceMatcher(chunks []Chunk, corpus string, stem Stemmer) *sentenceMatcher {
	if len(chunks) == 0 || len(chunks) > SentenceMaxChunks {
		return nil
	}
	s := &sentenceMatcher{}
	var items []FAQ
	for c, ch := range chunks {
		heading := int32(-1)
		for k, text := range append([]string{ch.Title}, Sentences(ch.Text)...) {
			if strings.TrimSpace(text) == "" {
				continue
			}
			if k == 0 {
				s.heading = append(s.heading, -1)
				heading = int32(len(items))
			} else {
				s.heading = append(s.heading, heading)
			}
			// Each sentence its own answer: the matcher's answers are only used for their items.
			items = append(items, FAQ{Question: text, Answer: strconv.Itoa(len(items))})
			s.chunk = append(s.chunk, int32(c))
			s.text = append(s.text, text)
			s.cues = append(s.cues, statedCue(text))
			s.parts = append(s.parts, statedDayPart(text))
			s.title = append(s.title, k == 0)
		}
	}
	s.m = newMatcher(items, corpus, stem, nil, sentenceStopWeight)
	return s
}

// best returns the similarity in [0, 1] of the query (of features raw: queryFeatures, the same
// for the FAQ's matcher and this one, both of the Brain's language) with the best sentence of
// each chunk and that sentence's index (one of each per chunk, n chunks; -1 where none
// matches), or nil when the query has nothing to look up.
func (s *sentenceMatcher) best(q *query, raw []feature, n int) ([]float64, []int32, []int32, []float64) {
	b := featureBufs.Get().(*featureBuf)
	defer featureBufs.Put(b)
	// The words of the customer's story before the clause that asks ("my mom lives in charlotte,
	// can you get flowers to her??") that no sentence holds are not weighed against the sentences.
	raw = s.m.withoutStory(q, raw)
	raw = withoutPhrasal(q, raw, s.phrasal)
	own := s.m.weigh(b.own, raw)
	b.own = own
	if len(own) == 0 {
		out, which, second := s.bareForm(q, n)
		return out, which, second, nil
	}
	b.sim = slices.Grow(b.sim[:0], len(s.chunk))[:len(s.chunk)]
	sim := b.sim
	clear(sim)
	// all: the query's features, then its synonyms, then the compounds of its words and the
	// parts of its words written as one found with them all.
	all := append(append(b.all[:0], raw...), s.m.expand(q, raw)...)
	all = append(all, s.m.compounds(q, all)...)
	all = append(all, s.m.splits(q, all)...)
	b.all = all
	if len(all) > len(raw) {
		b.all = s.m.weigh(b.all, all) // in place: weigh reads each feature before writing it
		s.m.similarity(b.all, sim)
		s.titlesUnexpanded(own, sim)
	} else {
		s.m.similarity(own, sim)
	}
	asked := q.cues()
	cues := s.cues
	if asked&cuePrice != 0 {
		// A percentage of the thing the question names states its price: "how much deposit do
		// we need to pay" and "A 25% deposit secures your date", not the "$150 admin fee" of
		// the deposit's refund.
		var terms []string
		for i, v := range sim {
			if v <= 0 || cues[i]&cuePrice != 0 || !strings.Contains(s.text[i], "%") {
				continue
			}
			if terms == nil {
				terms = Tokens(q.norm)
			}
			if percentOf(s.text[i], terms) {
				if &cues[0] == &s.cues[0] {
					cues = slices.Clone(s.cues)
				}
				cues[i] |= cuePrice
			}
		}
	}
	// A sentence holding the question's content words gains by their share (coverage); when the
	// question asks a kind of fact by its form, only a sentence stating one ("como faço marcação"
	// asks a way to book, not the sentence of walk-ins that holds "marcação").
	// Whether the customer may do something (cueLeave) lifts the sentences stating a rule, but
	// gates neither the coverage nor a question of its form only: a rule is most sentences.
	gate := asked &^ cueLeave
	formOnly := gate != 0 && formOnly(q)
	if formOnly {
		// A question of its form only ("whats your address") has no content word: a sentence
		// stating the fact it asks holds all it asks, and is covered whole.
		for i, v := range sim {
			if v > 0 && cues[i]&asked != 0 {
				sim[i] = min(v+coverBoost, 1)
			}
		}
	}
	var cov []float64
	if !formOnly {
		var under func(int) int
		if gate != 0 {
			// A sentence stating the fact asked holds too the question's words that its chunk's
			// title holds: "The test takes about 45 minutes", under "MOT and servicing", says how
			// long the MOT takes; a sentence stating no such fact is not lifted by its title.
			under = func(i int) int {
				if cues[i]&gate == 0 {
					return -1
				}
				return int(s.heading[i])
			}
		}
		cov = s.m.coverageUnder(q, under)
	}
	if cov != nil {
		for i, v := range sim {
			if v > 0 && (gate == 0 || cues[i]&gate != 0) {
				sim[i] = min(v+coverBoost*cov[i]*cov[i], 1)
			}
		}
	}
	if asked != 0 {
		for i, v := range sim {
			if v > 0 && states(cues[i], asked, cov, i) {
				sim[i] = min(v+cueBoost, 1)
			}
		}
	}
	if asked := counts(q.norm); len(asked) > 0 {
		// A count the question states ("my son is 8", "cheguei atrasado 15 min", "a group of
		// 10") lifts the sentences stating a range of counts of its unit that it falls within
		// ("Kids' classes for ages 6 to 12", "Depois de 10 minutos…", "for groups of 8 or
		// more"): the page's rule for the customer's case.
		for i, v := range sim {
			if v > 0 && !s.title[i] && strings.ContainsAny(s.text[i], "0123456789") && fits(NormalizeQuestion(s.text[i]), asked) {
				sim[i] = min(v+cueBoost, 1)
			}
		}
	}
	if kinds := phraseKinds(q, s.text, sim); kinds != nil {
		// A sentence naming a kind of the question's phrase that it does not say ("Advanced Open
		// Water" for "curso open water") yields to one naming the phrase plain.
		for i, k := range kinds {
			if k && !s.title[i] {
				sim[i] = max(sim[i]-cueBoost, 0)
			}
		}
	}
	if part := q.dayParts(); part != 0 {
		// A question about a part of the day ("classes in the morning") is answered by the
		// sentence stating times in it, not by one of the same words at other hours only.
		for i, v := range sim {
			switch {
			case v <= 0 || s.parts[i] == 0:
			case s.parts[i]&part != 0:
				sim[i] = min(v+cueBoost, 1)
			default:
				sim[i] = max(v-cueBoost, 0)
			}
		}
	}
	out := make([]float64, n)
	which := make([]int32, n)
	second := make([]int32, n)
	for i := range which {
		which[i], second[i] = -1, -1
	}
	for i, v := range sim {
		if c := s.chunk[i]; v > out[c] {
			out[c] = v
		}
	}
	if cov != nil {
		// A sentence holding no more of the question's content words than its chunk's title does
		// ("We fit hearing aids from Phonak…" under "Hearing aids") holds only the page's topic,
		// which every sentence of the page is about: it yields, as the chunk's sentence, to one
		// holding the question's other words ("can i try hearing aids before buying" and "Every
		// new pair comes with a 30-day trial…"). The chunk's score is unchanged. A sentence
		// stating the fact asked holds the title's words already (coverageUnder).
		for i, v := range sim {
			if h := s.heading[i]; v > 0 && h >= 0 && cov[h] > 0 && cov[i] <= cov[h] && cues[i]&gate == 0 {
				sim[i] = max(v-cueBoost, v*titleOnly)
			}
		}
	}
	passageSentences(sim, s.chunk, s.title, cues, asked, which, second)
	if formOnly {
		// A question of its form only ("where are you located") has no word for the chunk's
		// BM25 and vector to find: when the chunk's best sentence states the fact it asks, the
		// chunk's sentences (its title too) score it alone.
		for c, w := range which {
			if w >= 0 && cues[w]&asked != 0 {
				out[c] /= sentenceWeight
			}
		}
	}
	var held []float64
	if cov != nil {
		held = make([]float64, n)
		for c, w := range which {
			if w >= 0 {
				held[c] = cov[w]
			}
		}
	}
	return out, which, second, held
}

// bareForm scores, for a question of stop words only that asks a place or a time ("where r u",
// "where are you guys": no feature for the matchers to look up), the sentences stating the fact
// it asks as a question of its form only ("whats your address") scores those it holds nothing
// against: covered whole, with the cue's boost, the chunk by its sentences alone. The first such
// sentence of a chunk stands for it. Nil when it asks neither.
func (s *sentenceMatcher) bareForm(q *query, n int) ([]float64, []int32, []int32) {
	asked := q.cues() & (cuePlace | cueTime)
	if asked == 0 {
		return nil, nil, nil
	}
	out := make([]float64, n)
	which := make([]int32, n)
	second := make([]int32, n)
	for i := range which {
		which[i], second[i] = -1, -1
	}
	for i, c := range s.chunk {
		if s.title[i] || s.cues[i]&asked == 0 || which[c] >= 0 {
			continue
		}
		which[c] = int32(i)
		out[c] = min(coverBoost+cueBoost, 1) / sentenceWeight
	}
	return out, which, second
}

// Sentences splits text into its lines, and lines into sentences: a full stop, question or
// exclamation mark or ellipsis followed by a space and a capital letter, a digit or an opening
// mark ends one. Empty ones are left out.
func Sentences(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		start := 0
		for i, r := range l {
			if !strings.ContainsRune(".!?…", r) {
				continue
			}
			j := i + utf8.RuneLen(r)
			if j+1 < len(l) && l[j] == ' ' {
				if next, _ := utf8.DecodeRuneInString(l[j+1:]); (unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune(`"'(«“¿¡`, next)) && !Abbreviated(l[:j], next) {
					if s := strings.TrimSpace(l[start:j]); s != "" {
						out = append(out, s)
					}
					start = j + 1
				}
			}
		}
		if s := strings.TrimSpace(l[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// abbreviations are the abbreviations of English, Portuguese and Spanish that stand before a
// name or a number and so never end a sentence (lower case, without their full stop):
// titles ("Dr.", "Sra."), streets ("Av.", "Avda.") and "number" ("No. 3", "Nº. 12", "núm. 5"),
// with what may follow them: any word, or a number only ("No." before a capital is an answer:
// "Can I park there? No. The car park…").
var abbreviations = map[string]bool{"dr": false, "dra": false, "mr": false, "mrs": false, "ms": false,
	"sr": false, "sra": false, "srta": false, "prof": false, "av": false, "avda": false,
	"no": true, "nos": true, "nº": true, "n°": true, "nr": true, "num": true, "núm": true, "tel": true, "ext": true}

// Abbreviated reports whether text ends with an abbreviation and its full stop (abbreviations)
// that does not end the sentence before next, the first letter of what follows: "…from the cask
// in our No." before "3 warehouse".
func Abbreviated(text string, next rune) bool {
	text = strings.TrimSuffix(text, ".")
	w := text[strings.LastIndexAny(text, " (")+1:]
	if w == "" || len(w) > 5 { // no abbreviation is longer: "avda", "núm"
		return false
	}
	for a, numeric := range abbreviations {
		if strings.EqualFold(w, a) {
			return !numeric || unicode.IsDigit(next)
		}
	}
	return false
}

// cue is what kind of fact a question asks for, by its form: a price, a place, a time.
type cue uint8

const (
	cuePrice cue = 1 << iota
	cuePlace
	cueTime     // a time of day: when the business opens, closes, serves
	cueDuration // how long something takes
	cueWay      // how to do something: book, order, reach the business (wayCue)
	cueLeave    // whether the customer may or can do something: a rule (leaveCue)
	cueAge      // from or up to what age: a person's age in years (ageFact)
	cueSeason   // when in the year: months (monthRange)
)

// cueWords are the words and phrases (folded, as NormalizeQuestion writes them) by which a
// question in each language asks for a price, a place, a time of day, a duration, a way to do
// something (wayWords) or whether the customer may do something ("can i", "posso", "se puede").
var cueWords = map[string]map[cue][]string{
	"en": {
		cuePrice:    {"how much", "price", "prices", "pricing", "cost", "costs", "fee", "fees", "charge", "expensive", "cheap", "rate", "rates"},
		cuePlace:    {"where", "wheres", "address", "located", "location", "directions", "how far", "get there", "near", "nearest", "nearby"},
		cueTime:     {"when", "whens", "what time", "hours", "open", "opening", "close", "closing"},
		cueDuration: {"when", "whens", "how long", "how soon", "how fast", "how quickly", "how far in advance", "how far ahead", "how much notice", "how early", "how long before"},
		cueWay:      wayWords["en"],
		cueLeave:    {"can i", "can we", "could i", "may i", "am i allowed", "are we allowed", "is it ok", "is it okay", "can u", "can my", "can someone", "can he", "can she", "can they", "could we"},
		cueAge:      {"what age", "which age", "age", "ages"},
		cueSeason:   {"when", "whens"},
	},
	"pt": {
		cuePrice:    {"quanto custa", "quanto e", "quanto fica", "quanto cobram", "quanto sai", "qto", "qnto", "qnt", "preco", "precos", "custa", "custo", "valor", "caro", "barato"},
		cuePlace:    {"onde", "morada", "endereco", "localizacao", "localizados", "perto", "longe", "como chegar", "como chego"},
		cueTime:     {"quando", "que horas", "horario", "abrem", "abre", "fecham", "fecha"},
		cueDuration: {"quando", "quanto tempo", "quanto demora", "demora", "demoram", "quao rapido", "quao depressa", "quanta antecedencia", "que antecedencia", "quanto antes"},
		cueWay:      wayWords["pt"],
		cueLeave:    {"posso", "podemos", "da para", "da pra", "e possivel", "e permitido", "pode se", "tem como", "pode", "podem"},
		cueAge:      {"idade", "idades"},
		cueSeason:   {"quando"},
	},
	"es": {
		cuePrice:    {"cuanto cuesta", "cuanto vale", "cuanto es", "cuanto cobrais", "cuanto cobran", "cuanto sale", "cuanto me sale", "precio", "precios", "cuesta", "coste", "costo", "caro", "barato", "tarifa"},
		cuePlace:    {"donde", "direccion", "ubicacion", "ubicados", "cerca", "lejos", "como llegar", "como llego"},
		cueTime:     {"cuando", "que hora", "horario", "abren", "abris", "cierran", "cerrais"},
		cueDuration: {"cuando", "cuanto tiempo", "cuanto dura", "cuanto tarda", "tarda", "tardan", "tardais", "cuanto demora", "demora", "demoran", "que tan rapido", "que tan pronto", "cuanta antelacion", "cuanta anticipacion", "que antelacion", "cuanto antes"},
		cueWay:      wayWords["es"],
		cueLeave:    {"puedo", "podemos", "se puede", "es posible", "esta permitido", "podes", "puede", "pueden"},
		cueAge:      {"edad", "edades"},
		cueSeason:   {"cuando"},
	},
}

// ageWords are the phrases (folded) by which a question asks an age with words that tell one too:
// "how old", "quantos anos" ask it, but "old" and "anos" of "my 6 year old" or "o meu filho de 8
// anos" state the customer's case, so they are kept out of cueWords, whose words are no content
// words (askingWords).
var ageWords = map[string]map[cue][]string{
	"en": {cueAge: {"how old"}},
	"pt": {cueAge: {"quantos anos", "que idade"}},
	"es": {cueAge: {"cuantos anos", "que edad"}},
}

// cues returns the kinds of fact the query asks (cueWords, ageWords).
func (q *query) cues() cue {
	return askedBy(q.padded, cueWords[q.lang]) | askedBy(q.padded, ageWords[q.lang])
}

// factAsked returns the kinds of fact of a definite form the query asks, of those an answer
// states by its form: a price, a duration (Hit.Unstated). Not a time of day, which a question
// asks by "open" or "abrem" of the days a business opens as well ("abrem ao domingo?"); nor a
// duration asked by "when", which asks a time of day as well; nor a place, which "get there" or
// "near" ask of things other than an address.
func (q *query) factAsked() cue {
	c := q.cues()
	if c&cueTime != 0 {
		c &^= cueDuration
	}
	return c & (cuePrice | cueDuration)
}

// askedBy returns the union of the keys of lists (flags: cues, parts of the day) whose list holds
// a phrase of words (a question as padded writes it).
func askedBy[K ~uint8](words string, lists map[K][]string) K {
	var c K
	for k, list := range lists {
		for _, w := range list {
			if strings.Contains(words, " "+w+" ") {
				c |= k
				break
			}
		}
	}
	return c
}

// Facts a sentence states, by their form.
var (
	priceFact    = regexp.MustCompile(`[$€£]\s?\d|\d\s?[$€£]|\d\s?(?:euros?|eur|usd|dollars|reais|pounds|libras)\b`)
	timeFact     = regexp.MustCompile(`\b\d{1,2}(?::\d{2})?\s?(?:am|pm|h)\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}h\d{2}\b|\b\d{1,2}(?:[:.]\d{2})?\s?[ap]\.m\.`)
	durationFact = regexp.MustCompile(`\b\d+\s?(?:[a-z]+\s)?(?:minutes?|minutos?|hours?|horas?|days?|dias|weeks?|semanas?)\b`)
	placeFact    = regexp.MustCompile(`\b(?:` + streetFolded + `)\b`) // a street's word (contact.go)
	// ageFact is a person's age, in a sentence folded as NormalizeQuestion writes it: a number
	// of years ("16 years old", "14 anos", "12 años"), or a number after the words that set an
	// age ("age 3", "aged 25", "from 18", "under 12", "maiores de 60", "menores de 16", "a partir
	// dos 4", "mayores de 65"); in en, pt and es.
	ageFact = regexp.MustCompile(`\b\d{1,2}\s(?:years?|yrs?|anos)\b|\b(?:age|ages|aged|from|under|over|idade|maiores de|menores de|a partir dos|edad|mayores de|a partir de los)\s\d{1,2}\b`)
)

// statedCue returns the cues a sentence answers: a price (an amount of money), a time of day, a
// duration (in figures or in words, spelledTime), a place (a street's name with a number), an
// age (ageFact), a way
// to do something (wayCue: a channel such as a phone number or "online"), a rule (leaveCue: a
// modal, a negation, a permission).
func statedCue(sentence string) cue {
	norm := NormalizeQuestion(sentence)
	c := wayCue(sentence) | spelledTime(sentence) | leaveCue(norm)
	if !strings.ContainsAny(sentence, "0123456789") {
		return c // the others each have a number
	}
	folded := strings.ToLower(sentence)
	if priceFact.MatchString(folded) {
		c |= cuePrice
	}
	if timeFact.MatchString(folded) {
		c |= cueTime
	}
	if durationFact.MatchString(folded) {
		c |= cueDuration
	}
	if placeFact.MatchString(norm) {
		c |= cuePlace
	}
	if ageFact.MatchString(norm) {
		c |= cueAge
	}
	return c
}

// leaveRule matches, in a sentence folded as NormalizeQuestion writes it, the words by which it
// states what a customer may, can or must do or not, in en, pt and es: a modal, a negation, a
// permission ("welcome", "não é possível", "no se admiten"). Written from the three languages'
// grammar.
var leaveRule = regexp.MustCompile(`\b(?:can|cannot|cant|may|must|not|dont|doesnt|welcome|allowed|only|pode|podem|podes|nao|apenas|possivel|permitido|permitida|proibido|puede|pueden|puedes|no|solo|permite|permiten|admite|admiten|prohibido)\b`)

// states reports whether a sentence stating the facts stated (of index i among those whose
// coverage of the question is cov, nil for none) states a fact the question asks (asked), and so
// gains cueBoost: a price, a place, a time, a duration, a way to act; or a rule (cueLeave), when
// the question asks whether the customer may do something and the sentence holds at least
// leaveHeld of its content words ("can i bring my dog" and "Well-behaved dogs are welcome…", not
// "Guests must check out by 11am").
func states(stated, asked cue, cov []float64, i int) bool {
	if stated&asked&^cueLeave != 0 {
		return true
	}
	return stated&asked&cueLeave != 0 && cov != nil && cov[i] >= leaveHeld
}

// leaveHeld is the least share of the question's content words (coverage) a sentence stating a
// rule must hold to be lifted as answering whether the customer may do something.
const leaveHeld = 0.5

// leaveCue returns cueLeave for a sentence (folded as NormalizeQuestion writes it) stating a rule
// (leaveRule), else 0.
func leaveCue(folded string) cue {
	if leaveRule.MatchString(folded) {
		return cueLeave
	}
	return 0
}

// percentOfThing matches a percentage and the word after it ("25% deposit", "10 % de sinal").
var percentOfThing = regexp.MustCompile(`\d\s?%\s?(?:(?:de|do|da|del)\s)?(\pL+)`)

// percentOf reports whether a sentence states a percentage of a thing the question names (one of
// its terms, Tokens).
func percentOf(sentence string, terms []string) bool {
	for _, m := range percentOfThing.FindAllStringSubmatch(strings.ToLower(sentence), -1) {
		for _, t := range Tokens(m[1]) {
			if _, light := lightWords[t]; !light && slices.Contains(terms, t) {
				return true
			}
		}
	}
	return false
}
