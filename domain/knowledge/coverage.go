package knowledge

import (
	"slices"
	"strings"
)

// coverBoost, times the square of its coverage (coverage), is added to the similarity of a
// sentence that holds the question's content words: a short question ("onde ficam", "hacéis
// pilates") has one or two words that say what it asks, and a cosine over a sentence of fifteen
// words leaves them under the threshold even when the sentence holds every one of them. Squared,
// so that a sentence holding half of them ("do you repair cars" and "Flat tyre repair $15") gets
// a quarter of it. 0.13 since a customer's words the Brain does not hold count in the whole
// (0.1 before, when they cancelled it).
const coverBoost = 0.13

// coverage returns, for each item, the share of the query's content words (its words in the
// matcher's language that are neither stop words nor light words, lightWords, by their stems'
// keys as wordKeys makes them, each weighed by its idf) that the item holds. A word no item
// holds is held by an item that holds a content word of one of its synonyms (the thesaurus:
// "weekdays" by "Monday to Friday", "mbway" by "MB WAY"), weighed by the highest idf of those.
// A word that neither it nor its synonyms are in any item counts in the whole at the highest idf,
// held by no item: a customer says more than the Brain does ("need to cancel tomorrow's order",
// "el guia habla ingles? vienen unos amigos"); adjacent such words name one thing and count as
// one ("shih tzu", "blood thinners"). Nil when the query has no content word, or when
// at least half of its content words are in no item: the Brain may then not know what it is
// about ("do you have any job openings" is not asking the opening hours).
func (m *faqMatcher) coverage(q *query) []float64 { return m.coverageUnder(q, nil) }

// coverageUnder is coverage, each item holding too the query's words that the item it stands
// under holds (heading(i), -1 for none; nil: no item stands under another): a page's title names
// what its sentences are about.
func (m *faqMatcher) coverageUnder(q *query, heading func(i int) int) []float64 {
	lang := q.lang
	syn := thesauri[lang]
	var words [][]int32 // of each content word: its stem's id, else those of its synonyms the items hold
	var weights []float64
	total := 0.0
	unknown := 0
	lastUnknown := -2 // the last word in no entry: none yet
	phrases := phraseGroups(syn, q.folded)
	for i, folded := range q.folded {
		if !contentWord(folded, lang) {
			continue
		}
		var ids []int32
		if id, ok := m.feats.get(q.stems[i]); ok {
			ids = []int32{id}
		} else if syn != nil {
			// A word no item holds is covered by its synonyms ("weekdays", "Monday to Friday").
			// Their own content words only: "work" of "work for you" is a light word, and a
			// sentence holding it does not cover "job".
			for _, g := range syn.words[stem(folded)] {
				ids = m.groupIDs(syn, g, lang, "", ids)
			}
		}
		// A word of a phrase of the thesaurus is covered by the phrase's synonyms too ("bike
		// indoor", "spinning").
		if phrases != nil {
			for _, p := range phrases[i] {
				ids = m.groupIDs(syn, p.group, lang, p.phrase, ids)
			}
		}
		if len(ids) == 0 && weekdayNames[folded] {
			// A day of the week no entry names is a value the question gives, not a thing the
			// Brain does not know: "entregam ao sábado?" is answered by "Entregamos … às terças
			// e sextas", "can you deliver on monday" by "We deliver Tuesday to Saturday".
			continue
		}
		if len(ids) == 0 {
			if lastUnknown != i-1 {
				unknown++ // a run of such words names one thing ("shih tzu")
			}
			lastUnknown = i
			continue
		}
		if slices.ContainsFunc(words, func(x []int32) bool { return slices.Equal(x, ids) }) {
			continue
		}
		idf := 0.0
		for _, id := range ids {
			idf = max(idf, m.idf(id))
		}
		words = append(words, ids)
		weights = append(weights, idf)
		total += idf
	}
	if len(words) == 0 || 2*unknown >= len(words)+unknown {
		return nil
	}
	total += float64(unknown) * m.idfs[0] // a word no item holds weighs as much as any can
	out := make([]float64, len(m.answer))
	held := make([]bool, len(m.answer))
	for k, ids := range words {
		share := weights[k] / total
		clear(held)
		for _, id := range ids {
			for _, p := range m.postings(id) {
				if !held[p.item] {
					held[p.item] = true
					out[p.item] += share
				}
			}
		}
		if heading == nil {
			continue
		}
		for i, h := range held {
			if !h {
				if up := heading(i); up >= 0 && held[up] {
					out[i] += share
				}
			}
		}
	}
	return out
}

// formOnly reports whether a query is made only of its form: stop words, light words and the
// words that ask a kind of fact ("where are you located", "when are you open"), no word that
// says what it is about.
func formOnly(q *query) bool {
	for _, w := range q.folded {
		if contentWord(w, q.lang) {
			return false
		}
	}
	return true
}

// contentWord reports whether a word (folded) of a question in lang says what it is about: not
// a stop word, a light word (lightWords) or a word that asks a kind of fact (askingWord), nor a
// single letter or a number (allDigits).
func contentWord(folded, lang string) bool {
	if !runWord(folded, lang) {
		return false
	}
	_, light := lightWords[stem(folded)]
	return !light && !askingWord(folded, lang)
}

// chatStopwords are words customers type for stop words, which the stop words (of every
// matcher) leave out: chat spellings ("ur", "pls", "vc", "tb"), contractions with "is" ("hows",
// "whos"), forms of "estar" ("estáis", "estamos") and words that stand for any thing
// ("something", "stuff", "coisa"). They say no more of what a question is about than the words
// they stand for, so they are no content words: "whats ur address" asks only for a place, as
// "what is your address" does, and "how do i return something" is about returns.
var chatStopwords = func() map[string]struct{} {
	const words = `ur pls plz thx hows whos whys heres something anything stuff thing things
coisa coisas cosa cosas
vc vcs tb tbm pq estou estamos
estais estoy xq`
	m := make(map[string]struct{})
	for _, w := range strings.Fields(words) {
		m[w] = struct{}{}
	}
	return m
}()

// functionWords are, by language, the words of grammar that neither the stop words nor the
// chat spellings hold: articles and quantifiers ("um", "algum", "cada", "ningún"), pronouns
// ("someone", "alguém", "nadie"), adverbs of place, time and degree ("anywhere", "aí", "ahí",
// "still", "depois", "todavía"), forms of "be", "can" and "there be" ("sou", "somos", "podéis",
// "habrá", "might") and the spoken and chat forms of prepositions ("pra", "pro", "pa", "til").
// They say no more of what a question is about than the stop words do, so they are no content
// words: "dá para estacionar aí?" is about parking, and a Brain that never writes "aí" does not
// thereby hold half of it. Written from the grammar of the three languages, folded (accents
// off); the matchers still read them as words.
var functionWords = func() map[string]map[string]struct{} {
	lists := map[string]string{
		"en": `anyone anybody someone somebody everyone everybody everything
everywhere nobody nothing nowhere always never ever still even yet already soon maybe perhaps
really quite just also else another every either neither til till lot lots bit ones yall ya`,
		"pt": `um uma uns umas algum alguma alguns algumas nenhum nenhuma cada todo toda todos
todas tudo outro outra outros outras alguem ninguem nada qualquer quaisquer ai aqui ali ca
ainda sempre nunca apenas depois antes agora entao logo disso nisso daquilo desse dessa deste
desta nesse nessa neste nesta daqui dai pra pro pras pros mim comigo contigo conosco`,
		"es": `algun alguna algunos algunas ningun ninguna cada todo toda todos todas otro otra
otros otras alguien nadie nada cualquier cualquiera ahi aqui alli aca alla siempre nunca
todavia aun solo solamente despues antes ahora entonces luego pa pal conmigo contigo`,
	}
	out := make(map[string]map[string]struct{}, len(lists))
	for lang, words := range lists {
		out[lang] = make(map[string]struct{})
		for _, w := range strings.Fields(words) {
			out[lang][w] = struct{}{}
		}
	}
	return out
}()

// askingWords are the words of the phrases by which a question asks for a price, a place, a
// time, a duration or a way to act (cueWords: "onde", "custa", "fecham", "que horas", "como
// faço"), by language: they say what kind of fact the question asks, which the cues weigh, not
// what it is about.
var askingWords = func() map[string]map[string]bool {
	out := make(map[string]map[string]bool)
	for lang, cues := range cueWords {
		out[lang] = make(map[string]bool)
		for _, phrases := range cues {
			for _, p := range phrases {
				for _, w := range strings.Fields(p) {
					if !slices.Contains(askingKept[lang], w) {
						out[lang][w] = true
					}
				}
			}
		}
	}
	return out
}()

// askingKept are words of the phrases of cueWords that stay content words alone: es "sale" of
// "cuánto sale" (a price) is a flight that leaves in "mi vuelo sale a las 20h", pt "sai" of
// "quanto sai" the same.
var askingKept = map[string][]string{"es": {"sale"}, "pt": {"sai"}}

func askingWord(folded, lang string) bool { return askingWords[lang][folded] }

// groupIDs appends to ids the ids of the stems of the content words of the members of group g of
// the thesaurus syn that the items hold, each once; not those of the member except (folded), the
// phrase of the query that led to the group: "bike" of "indoor bike" does not cover "indoor".
func (m *faqMatcher) groupIDs(syn *synonyms, g int32, lang, except string, ids []int32) []int32 {
	for _, mem := range m.memberIDs(syn, g, lang) {
		if except != "" && mem.folded == except {
			continue
		}
		for _, id := range mem.ids {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// memberIDs are the members of a group of the thesaurus (folded) with the ids of the stems of
// their content words that the items hold.
type memberIDs struct {
	folded string
	ids    []int32
}

// memberIDs returns the members of group g of the thesaurus syn of lang with their ids, made once
// for each group (cached with expand's keys, m.synonyms).
func (m *faqMatcher) memberIDs(syn *synonyms, g int32, lang string) []memberIDs {
	type key struct { // not groupKeys' key
		lang  string
		group int32
	}
	return cached(&m.synonyms, key{lang, g}, func() []memberIDs {
		var out []memberIDs
		for _, member := range syn.groups[g] {
			mem := memberIDs{folded: NormalizeQuestion(member)}
			for _, sw := range strings.Fields(member) {
				if !contentWord(foldWord(sw), lang) {
					continue
				}
				if id, ok := m.feats.get("w" + foldWord(m.stemWord(sw, lang))); ok && !slices.Contains(mem.ids, id) {
					mem.ids = append(mem.ids, id)
				}
			}
			out = append(out, mem)
		}
		return out
	})
}

// phraseGroups returns, for each of the words (folded) of a query, the groups of the thesaurus
// syn of the phrases of several words it is in (eachPhrase), with those phrases (folded); nil
// when none.
func phraseGroups(syn *synonyms, folded []string) [][]inPhrase {
	if syn == nil || len(folded) < 2 {
		return nil
	}
	var out [][]inPhrase
	syn.eachPhrase(folded, func(at []int, key []byte, gs []int32) {
		if out == nil {
			out = make([][]inPhrase, len(folded))
		}
		phrase := string(key[1 : len(key)-1])
		for _, k := range at {
			for _, g := range gs {
				out[k] = append(out[k], inPhrase{g, phrase})
			}
		}
	})
	return out
}

// inPhrase is a group of the thesaurus a word of a query is in by a phrase of the query.
type inPhrase struct {
	group  int32
	phrase string
}

// allDigits reports whether a word is a number: a customer's age, group size or date ("im 74",
// "a group of 10", "mi hijo tiene 16") is a quantity the Brain states in its own terms ("over 70",
// "8 or more"), not a word for a sentence to hold.
func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return true
}

// weekdays are the names of the days of the week by language (folded; "sabado" and "domingo"
// are Portuguese and Spanish alike).
var weekdays = map[string]string{
	"en": "monday tuesday wednesday thursday friday saturday sunday",
	"pt": "segunda terca quarta quinta sexta sabado domingo",
	"es": "lunes martes miercoles jueves viernes sabado domingo",
}

// weekdayNames are the names of the days of the week (weekdays, any language), singular and
// plural.
var weekdayNames = func() map[string]bool {
	m := map[string]bool{}
	for _, days := range weekdays {
		for _, w := range strings.Fields(days) {
			m[w], m[w+"s"] = true, true
		}
	}
	return m
}()
