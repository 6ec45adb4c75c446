package local

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
)

// MinScore is the least knowledge.Hit Score of a chunk the engine answers from. A small Brain's
// chunks score mostly by their best sentence (knowledge.Index), and MinScore was swept on the
// tuning split of the small-Brain set (testdata/eval/README.md: most right answers at the fewest
// wrong ones, from 0.10 to 0.40) and checked on its held-out split. With it, on the bakery of
// TestMinScore, questions unrelated to the Brain score at most about 0.15 (sharing an ordinary
// word with a page: "Do you do weddings photography?") and questions a page answers at least
// about 0.19. A false match quotes a passage off the point, while a miss still gets an honest
// "I don't know" with the contact. TestMinScore checks both sides with real scores.
const MinScore = 0.17

// MinConfidence is the least knowledge.Hit Confidence of an FAQ item (not Strong) the engine
// answers with; below it the engine says it does not know rather than guess. Calibrated on the
// even half of an intent set's dev questions (testdata/eval/README.md) to make the most right
// answers less wrong ones, and checked on the odd half.
const MinConfidence = 0.15

// LooseMargin is how many times the score of the best chunk, even one under MinScore, an FAQ item
// matched only loosely (Overlap at most LooseOverlap) and not covering the question (Hit.Covers)
// must score to be answered: a page passage nearly as like the question is as likely what it
// asks ("can you keep my bouquet after the wedding" and the weddings page, not "How do I book
// you for my wedding?"). A loose item scoring that many times a chunk over MinScore is answered
// before it. Tuned on the small-Brain set's tuning splits (testdata/eval/README.md: 1.1 to 1.5
// the same there, 1.3 the middle of what keeps every right answer).
const LooseMargin = 1.3

// NearScore is how far under MinScore the chunk that a loose FAQ item yields to (LooseMargin)
// may score and still be answered; under it, the engine says it does not know. The question is
// on the Brain's topics (an FAQ item matched it), so a passage a little under MinScore is
// answered rather than the item that merely shares a word.
const NearScore = 0.04

// AgreeShare is the least share of terms (knowledge.Agree) an FAQ item's answer and a page's
// sentence share to say the same thing.
const AgreeShare = 0.5

// AgreeNear is how far under MinScore a page's sentence may score and still be taken, with an FAQ
// item sure enough (MinConfidence) but sharing no term with the question, as agreeing with it
// (AgreeShare): two of the Brain's sources saying the same thing in answer to the question.
const AgreeNear = 0.06

// TieShare is the least share of the best chunk's score another chunk of the same page must score
// to tie with it (denser): within 1 %, what the two share (the page's title, the overlap's
// sentences) decides, not what tells them apart.
const TieShare = 0.99

// PlainMargin is how many times a plain item's score (knowledge.Hit.Plain: it covers the question,
// which asks no kind of fact) a chunk holding as many of the question's words must score to answer
// before it: "tienen llantas de aleacion?" gets "…vendemos … llantas de aleación nuevas y usadas"
// (0.304), not "¿Reparan llantas dobladas?" (0.170), which holds the words with another verb. Tuned
// on the small-Brain set's visible splits (testdata/eval/README.md, round 51: 1.4 to 1.7 the
// same there but for a right answer each side, 1.5 the middle).
const PlainMargin = 1.5

// LooseOverlap is the most overlap of terms (knowledge.Hit.Overlap) with which an FAQ item that
// is not Strong still counts as loosely matched: its answer then comes with its question ("If you
// mean “What are your opening hours?”: …"), since sharing one term in two ("job openings",
// "opening hours") is as likely to be a different question as the same one in other words.
const LooseOverlap = 0.5

// limits are the least confidence of an FAQ answer and the least score of a chunk the engine
// answers with.
type limits struct{ confidence, score float64 }

// shipped are the engine's limits; the evaluations sweep others.
var shipped = limits{MinConfidence, MinScore}

// maxPassage is about the most characters of a page the engine quotes.
const maxPassage = 400

// Engine is the built-in Replier, used when no model upstream is configured. It is an honest
// retrieval agent, not a language model: it answers greetings, thanks and goodbyes, then answers
// from the Brain's hits with an FAQ item's answer or a passage quoted from a page, and otherwise
// says it does not know and gives the business's contact. It never invents text and never acts;
// its only cart token offers a product in stock that the store's plugin synced (knowledge.Page's
// Cart), and it never emits checkout tokens. Replies are deterministic and need no network.
type Engine struct{}

// NewEngine returns the built-in reply engine.
func NewEngine() *Engine { return &Engine{} }

// Reply writes the reply to one customer turn in turn.Lang (en, pt, pt-BR or es; others fall
// back to the profile's first language, then English). Usage is always zero.
func (e *Engine) Reply(ctx context.Context, turn conversation.Turn) (conversation.Draft, error) {
	if err := ctx.Err(); err != nil {
		return conversation.Draft{}, err
	}
	return conversation.Draft{Text: reply(turn, shipped)}, nil
}

// reply decides what to say, in the order: small talk (the FAQ's own answer to it first), a
// Strong FAQ item, the FAQ answer of confidence at least lim.confidence (matched only loosely:
// with its question), the chunk scoring at least lim.score, "I don't know".
func reply(turn conversation.Turn, lim limits) string {
	p := turn.Profile
	ph := phrasesFor(turn.Lang, p.Language())
	business := strings.TrimSpace(p.BusinessName)
	if business == "" {
		business = ph.business
	}

	talk := smallTalk(turn.Message, p)
	if talk != question {
		// The business's own answer to this greeting, thanks or goodbye, when its FAQ has one,
		// comes before the built-in phrase.
		if a, ok := faqSmallTalk(turn.Hits, lim.confidence); ok {
			return a
		}
	}
	switch talk {
	case hello:
		if g, ok := greeting(p, turn.Lang); ok {
			return g
		}
		return fmt.Sprintf(ph.greeting, business)
	case thanks:
		return ph.welcome
	case bye:
		return fmt.Sprintf(ph.goodbye, business)
	}

	turn.Hits = followedHits(turn)
	if len(turn.Hits) > 0 && turn.Hits[0].Bare {
		// The Brain's one answer to a question asking only a price or an age (knowledge.Hit.Bare).
		if a := answer(turn.Hits[0], turn.Message); a != "" {
			return a
		}
	}
	if addr, ok := placeAnswer(ph, p, business, turn); ok {
		return addr
	}
	for _, h := range turn.Hits {
		if h.Kind == knowledge.KindFAQ && h.Strong {
			if a := clean(h.FAQ.Answer, true); a != "" {
				return a
			}
			break
		}
	}
	// The question's words: the follow-up's question when the Brain was searched for it
	// (conversation.Turn.Query).
	query := turn.Question()
	var asked knowledge.Detail
	if !p.Contact.Empty() {
		asked = knowledge.AskedDetails(query)
	}
	detail, hasDetail := contactAnswer(ph, p.Contact, business, asked)
	h, ok := best(turn.Hits, query, lim)
	a := ""
	if ok {
		a = answer(h, query)
	}
	for ok && h.Kind == knowledge.KindChunk && answersNothing(turn, query, h, a) {
		// the next best, or none
		turn.Hits = slices.DeleteFunc(slices.Clone(turn.Hits), func(o knowledge.Hit) bool { return o.Kind == h.Kind && o.Chunk.ID == h.Chunk.ID })
		if h, ok = best(turn.Hits, query, lim); ok {
			a = answer(h, query)
		}
	}
	if ok {
		loose := h.Kind == knowledge.KindFAQ && h.Overlap <= LooseOverlap
		// Asked for a contact detail the profile holds, the Brain's answer stands when it is the
		// owner's own answer to the question or tells the detail, or when the question is long
		// enough to ask more than the detail; else it answers another question ("when are you
		// open" and a page's "Puncture repair: 10 euros…").
		// So does a sentence of another thing's hours when the question names a thing the
		// profile's hours name ("what time does the pro shop open" and "The range is open every
		// day from 8am to 9pm", the hours "…pro shop daily 7am–7pm"), and an FAQ item matched
		// only loosely, not itself asking the hours, when the question asks them on a day the
		// profile's hours name ("abre segunda?" and "Posso alugar o espaço para uma festa?":
		// "…fechado para eventos às segundas e terças", knowledge.HoursDay).
		told := actionToken.ReplaceAllString(a, "")
		if hasDetail && a != "" && (loose || h.Kind != knowledge.KindFAQ) &&
			(!knowledge.StatesDetail(told, asked) || asked&knowledge.DetailHours != 0 && h.Kind == knowledge.KindChunk &&
				(knowledge.HoursName(query, h.Sentence, p.Contact.Hours) || knowledge.OtherSchedule(query, h.Sentence) ||
					knowledge.OtherDay(query, h.Sentence, p.Contact.Hours)) ||
				asked&knowledge.DetailHours != 0 && loose && knowledge.AskedDetails(h.FAQ.Question)&knowledge.DetailHours == 0 &&
					knowledge.HoursDay(query, p.Contact.Hours)) &&
			len(strings.Fields(query)) <= detailWords {
			return detail
		}
		if a != "" {
			if loose {
				// Say which question this answers, so that the answer to one that merely
				// shares a word ("job openings", "opening hours") shows itself for what it is.
				return fmt.Sprintf(ph.related, clean(h.FAQ.Question, true), a)
			}
			return a
		}
	}
	if asked&knowledge.DetailHours != 0 {
		// Asked when a thing of the Brain opens ("what time do doors open"), the sentence of
		// the first passage stating its hours, near enough to answer from, answers it, not the
		// profile's hours of the business.
		for _, h := range turn.Hits {
			if h.Kind != knowledge.KindChunk {
				continue
			}
			if h.Score >= lim.score-NearScore && knowledge.NamesOpening(query, h.Sentence, p.Contact.Hours) {
				if a := answer(h, query); a != "" {
					return a
				}
			}
			break
		}
	}
	if hasDetail {
		return detail
	}
	return dontKnow(ph, p.Contact, business)
}

// answersNothing reports whether a, the reply of h (a page's passage), answers none of query: it
// shares only the business's name with it (knowledge.NamedOnly), states another fact of the thing
// than the duration or the age asked (knowledge.FactUnstated), or the price of another thing than
// the one asked (knowledge.PriceOther, read in the Brain's language only).
func answersNothing(turn conversation.Turn, query string, h knowledge.Hit, a string) bool {
	p := turn.Profile
	if knowledge.NamedOnly(query, a, p.BusinessName) {
		return true
	}
	plain, lang := actionToken.ReplaceAllString(a, ""), questionLang(turn)
	return knowledge.FactUnstated(query, plain, lang) ||
		lang == strings.ToLower(base(p.Language())) &&
			knowledge.PriceOther(query, h.Chunk.Title+"\n"+plain, lang, func() []string { return hitTexts(turn.Hits, h) })
}

// hitTexts returns the texts of the hits other than h: an FAQ item's question and answer, a
// chunk's title and text.
func hitTexts(hits []knowledge.Hit, h knowledge.Hit) []string {
	var out []string
	for _, o := range hits {
		switch {
		case o.Kind == knowledge.KindFAQ && (h.Kind != o.Kind || o.FAQ.ID != h.FAQ.ID):
			out = append(out, o.FAQ.Question+"\n"+o.FAQ.Answer)
		case o.Kind == knowledge.KindChunk && (h.Kind != o.Kind || o.Chunk.ID != h.Chunk.ID):
			out = append(out, o.Chunk.Title+"\n"+o.Chunk.Text)
		}
	}
	return out
}

// questionLang is the language a question is read in: the turn's, else the profile's first.
func questionLang(turn conversation.Turn) string {
	if turn.Lang != "" {
		return strings.ToLower(base(turn.Lang))
	}
	return strings.ToLower(base(turn.Profile.Language()))
}

// followedHits are the hits the engine may answer with: when the Brain was searched for the
// question a follow-up asks (conversation.Turn.Query), those whose text (an FAQ item's question
// and answer, a chunk's title and text) holds a word of the customer's message; one that holds
// none would answer the previous question again ("how much is a root canal?", then "and for a
// crown?": the root canal's price), not the follow-up. Else all of them.
//
// A message asking only a kind of fact of what the previous one named ("how much is it?" after
// "do you do baths?", knowledge.FactAsked) has no word of its own to hold: the hits are those
// stating a fact of the kind asked (knowledge.StatesFact: an amount, a word of booking or of
// paying), and, asked a price or a duration, holding a word of that thing (the question's words
// the message lacks).
func followedHits(turn conversation.Turn) []knowledge.Hit {
	if turn.Query == "" {
		return turn.Hits
	}
	words := knowledge.Tokens(turn.Message)
	fact, asked := knowledge.FactAsked(turn.Message)
	if asked {
		own := words
		words = slices.DeleteFunc(knowledge.Tokens(turn.Query), func(t string) bool { return slices.Contains(own, t) })
	}
	// A price or a duration is the thing's own; a rule or a booking is often the business's
	// for all its things ("Payment: we keep a credit card on file").
	thing := !asked || fact&(knowledge.FactPrice|knowledge.FactDuration) != 0
	var out []knowledge.Hit
	for _, h := range turn.Hits {
		text := h.FAQ.Question + " " + h.FAQ.Answer
		if h.Kind != knowledge.KindFAQ {
			text = h.Chunk.Title + " " + h.Chunk.Text
		}
		if (!thing || slices.ContainsFunc(knowledge.Tokens(text), func(t string) bool { return slices.Contains(words, t) })) &&
			(!asked || knowledge.StatesFact(text, fact)) {
			out = append(out, h)
		}
	}
	return out
}

// placeAnswer answers from the profile's address a question asking where the business is by a
// word of its name only ("¿dónde está el teatro?", knowledge.AsksPlace), which a Brain's item
// sharing that word ("¿Se puede alquilar el teatro?") answers only when it asks the place itself.
func placeAnswer(ph *phrases, p profile.Profile, business string, turn conversation.Turn) (string, bool) {
	if p.Contact.Empty() || !knowledge.AsksPlace(turn.Question(), business) {
		return "", false
	}
	if len(turn.Hits) > 0 && turn.Hits[0].Kind == knowledge.KindFAQ {
		q := turn.Hits[0].FAQ.Question
		if knowledge.AskedDetails(q)&knowledge.DetailAddress != 0 || knowledge.AsksPlace(q, business) {
			return "", false
		}
	}
	return contactAnswer(ph, p.Contact, business, knowledge.DetailAddress)
}

// detailWords is the most words of a question asking for a contact detail whose answer from the
// profile takes the place of the Brain's.
const detailWords = 8

// contactAnswer answers a question asking for contact details (asked) from the profile's: its
// phone number or e-mail address, its address, its opening hours; ok false when the profile
// holds none of those asked.
func contactAnswer(ph *phrases, c profile.Contact, business string, asked knowledge.Detail) (string, bool) {
	if asked == 0 {
		return "", false
	}
	var ways []string
	for _, w := range [...]struct {
		value string
		by    knowledge.Detail
	}{{c.Email, knowledge.DetailEmail}, {c.Phone, knowledge.DetailPhone}} {
		if v := strings.TrimSpace(w.value); v != "" && asked&(w.by|knowledge.DetailReach) != 0 {
			ways = append(ways, v)
		}
	}
	var parts []string
	if len(ways) > 0 {
		parts = append(parts, fmt.Sprintf(ph.reach, business, strings.Join(ways, ph.or)))
	}
	if addr := strings.TrimSpace(c.Address); addr != "" && (asked&knowledge.DetailAddress != 0 || asked&knowledge.DetailReach != 0 && len(ways) == 0) {
		parts = append(parts, fmt.Sprintf(ph.visit, business, addr))
	}
	if h := strings.TrimRight(strings.TrimSpace(c.Hours), "."); h != "" && asked&knowledge.DetailHours != 0 {
		parts = append(parts, fmt.Sprintf(ph.hours, h))
	}
	return strings.Join(parts, " "), len(parts) > 0
}

// faqSmallTalk returns the answer of an FAQ item that answers a small-talk message: a Strong hit,
// or one of confidence at least minConfidence matched by more than a loose overlap of terms or by
// meaning (an FAQ of greetings, thanks or goodbyes that the business wrote itself).
func faqSmallTalk(hits []knowledge.Hit, minConfidence float64) (string, bool) {
	for _, h := range hits {
		if h.Kind != knowledge.KindFAQ {
			continue
		}
		if h.Strong || h.Confidence >= minConfidence && (h.Overlap > LooseOverlap || h.Meant) {
			a := clean(h.FAQ.Answer, true)
			return a, a != ""
		}
	}
	return "", false
}

// phrasesFor returns the table of the base of lang, else of fallback, else English.
func phrasesFor(lang, fallback string) *phrases {
	for _, l := range [...]string{lang, fallback} {
		if ph, ok := phrasebook[strings.ToLower(base(l))]; ok {
			return ph
		}
	}
	return phrasebook["en"]
}

// base returns the language of a code without its region: "pt" for "pt-BR".
func base(lang string) string {
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		return lang[:i]
	}
	return lang
}

// greeting returns the appearance's greeting for lang: the exact code, else its base language,
// else another region of it, else the profile's first language.
func greeting(p profile.Profile, lang string) (string, bool) {
	g := p.Appearance.Greeting
	keys := make([]string, 0, len(g))
	for k, s := range g {
		if strings.TrimSpace(s) != "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // deterministic when several regions match
	for _, l := range [...]string{lang, p.Language()} {
		if l == "" {
			continue
		}
		for _, match := range [...]func(k string) bool{
			func(k string) bool { return strings.EqualFold(k, l) },
			func(k string) bool { return strings.EqualFold(k, base(l)) },
			func(k string) bool { return strings.EqualFold(base(k), base(l)) },
		} {
			for _, k := range keys {
				if match(k) {
					return strings.TrimSpace(g[k]), true
				}
			}
		}
	}
	return "", false
}

// best returns the hit to answer from: the FAQ item whose answer is surest, if sure enough
// (lim.confidence) and sharing a term with the question or matched by meaning too (Meant: a large
// English FAQ with word vectors), since the owner wrote it to answer questions; else the first
// chunk of the hits scoring at least lim.score (the hits are best first; of two chunks nearly
// tied, the one whose best sentence holds more of the question's words comes first). An
// FAQ item matched only loosely (Overlap at most LooseOverlap: "Is there parking near the shop?"
// for "When is the shop open on Sunday mornings?") yields to a page passage that answers the
// question in its own words, and one that shares only light words with the question
// (knowledge.SharesTopic: "do you sell skateboards" and "Do you sell electric bikes?") is not
// taken at all. The item whose question and answer alone hold every content word of the
// question (knowledge.Hit.Covers: "do you take aetna" and the insurance item's answer naming
// Aetna) is taken as matched loosely, when no FAQ answer is sure enough or the surest is matched
// loosely without holding them ("can i pay monthly for a bike": the payments' item, which offers
// financing, rather than the kids' bikes' on "bike"); and before a chunk when no chunk holds
// them either (knowledge.Hit.Sole: "hay clases por zoom", which only the online classes' item
// names). An item that covers a question of yes or no (knowledge.Hit.Plain: asking no price,
// time, place, duration, way or leave by its form), sure enough, answers before the best chunk
// when that holds no more of the question's words: "do i have to get the tap myself" gets "Do I
// need to buy the parts myself?", not "Replacing a tap £95 plus the tap."; a question asking a
// fact ("what time do you close on saturday") keeps the chunk stating it. Between a loose item
// and a chunk, the one scoring LooseMargin times the other wins
// ("are the clothes ethical": the materials' item, not "Our clothes run true to size"); a loose
// item that does not cover the question yields to the best chunk when that scores within
// LooseMargin of it and holds as many of the question's content words (knowledge.Hit.Held: "can
// i just walk in and get a tattoo today" keeps "Do you take walk-ins?" rather than the
// piercings' walk-ins, which hold fewer), though under lim.score: the chunk is answered if it
// scores at least lim.score less NearScore, else nothing is. When neither is taken, an FAQ item
// sure enough but sharing no term with the question is answered when the best chunk,
// from lim.score less AgreeNear, says the same thing (knowledge.Agree, AgreeShare); the chunk
// is, when it holds more of the question's content words (knowledge.Hit.Held). Before all
// this, an FAQ item that holds fewer of the question's content words (knowledge.Hit.Held) than
// the best chunk, when that chunk scores at least lim.score less NearScore, yields to the chunk
// however the two score: "do u mot motorbikes" gets "We do not test motorbikes.", not "How much
// is an MOT?"; "if i cancel my room reservation do i get my money back" the rooms' refunds, not
// "How do I cancel my membership?". A loose item that neither asks nor states the price or
// duration the question asks for (knowledge.Hit.Unstated: "necesito una 4x4 para ir a la nieve,
// que precio tiene?" and "¿Dan cadenas para la nieve?", answered "Sí, gratis…") is never
// answered: the best chunk is, from lim.score less NearScore, else nothing; one matched closely
// that does not state it yields to a chunk scoring as much and holding as many of the question's
// words ("how much to rent a kayak" and "Do I need experience to rent a kayak?"); nor is a thin one
// (knowledge.Hit.Thin: "tienen motos o scooters para alquilar?" and "¿Cuál es la edad mínima
// para alquilar?", holding a third of the question's words at confidence 0.15), nor one sharing
// only the verb of the service asked and naming another thing (knowledge.AsksOther: "do you
// install security cameras" and "Do you install smart locks?"), nor one naming another kind of
// the thing asked when no entry of the Brain knows the kind asked (knowledge.Hit.Other: "dais
// clases de tango?" and "¿Dais clases online?").
func best(hits []knowledge.Hit, message string, lim limits) (knowledge.Hit, bool) {
	var faq, chunk, near, sure knowledge.Hit
	for _, h := range hits {
		if h.Kind == knowledge.KindChunk && near.Kind == "" {
			near = h
		}
		if h.Kind == knowledge.KindChunk && h.Other {
			// Its sentence names the thing asked for sale only as included in a service or
			// rented (knowledge.Hit.Other): near still, so that an item answering less of the
			// question does not answer in its place, but no answer.
			continue
		}
		if h.Kind == knowledge.KindFAQ && h.Confidence >= lim.confidence && h.Confidence > sure.Confidence {
			sure = h
		}
		switch {
		case h.Kind == knowledge.KindFAQ && h.Confidence >= lim.confidence && (h.Overlap > 0 || h.Meant) && h.Confidence > faq.Confidence &&
			(h.Overlap > LooseOverlap || h.Meant || knowledge.SharesTopic(message, h.FAQ.Question)):
			faq = h
		case h.Kind == knowledge.KindFAQ && h.Covers && (faq.Kind == "" || faq.Overlap <= LooseOverlap && !faq.Covers):
			faq = h
		case h.Kind == knowledge.KindChunk && h.Score >= lim.score && chunk.Kind == "":
			chunk = h
		}
	}
	// An item holding fewer of the question's content words than the best chunk, which is near
	// enough to answer from, answers another question (an item that covers the question holds
	// them all).
	fewer := faq.Kind != "" && near.Kind != "" && near.Held > faq.Held && near.Score >= lim.score-NearScore
	// A loose item that neither asks nor states the price or duration the question asks for
	// answers another question: it only says the question is on the Brain's topics. So does a
	// thin one, holding under half of the question's content words at a low confidence
	// (knowledge.Hit.Thin), one sharing only the verb of the service asked
	// (knowledge.AsksOther), and one naming another kind of the thing asked, a kind the Brain does
	// not know (knowledge.Hit.Other).
	// An item matched closely that states no price or duration asked yields, too, to a chunk
	// scoring at least as much and holding as many of the question's words: "how much to rent a
	// kayak" gets "Rent a kayak or a paddleboard for $30 an hour…", not "Do I need experience to
	// rent a kayak?". (The wider rule below, on fewer, covers the rest of this; here it still keeps
	// a plain, confident item from answering by the case that ignores fewer.)
	off := faq.Unstated && (faq.Overlap <= LooseOverlap || chunk.Kind != "" && chunk.Score >= faq.Score && chunk.Held >= faq.Held) ||
		faq.Thin(LooseOverlap) || faq.Other ||
		faq.Measured && faq.Overlap <= LooseOverlap && !faq.Meant && !faq.Covers && knowledge.AsksOther(message, faq.FAQ)
	// An item that neither asks nor states the price or duration asked, however closely matched,
	// yields to a chunk sure enough that holds as many of the question's words ("how much does
	// it cost to adopt a dog": "The adoption fee is €180…", not "Can I adopt a dog if I have cats?").
	if faq.Unstated && chunk.Kind != "" && chunk.Held >= faq.Held {
		fewer = true
	}
	switch {
	case faq.Kind != "" && !off && (faq.Overlap > LooseOverlap || faq.Sole) && !fewer:
		return faq, true
	case faq.Kind != "" && !off && chunk.Kind != "" && faq.Score >= chunk.Score*LooseMargin && !fewer:
		return faq, true
	case faq.Kind != "" && !off && faq.Plain && faq.Confidence >= lim.confidence && chunk.Kind != "" && chunk.Held <= faq.Held &&
		chunk.Score < faq.Score*PlainMargin: // a chunk scoring PlainMargin times as much answers (below)
		return faq, true
	case chunk.Kind != "":
		return denser(hits, chunk, lim), true
	case faq.Kind != "" && near.Kind != "" && (off || !faq.Covers && (near.Score*LooseMargin >= faq.Score && near.Held >= faq.Held || fewer)):
		if near.Score >= lim.score-NearScore && !near.Other {
			return near, true
		}
		return knowledge.Hit{}, false
	case faq.Kind != "" && !off:
		return faq, true
	case sure.Kind != "" && near.Kind != "" && !near.Other && near.Score >= lim.score-AgreeNear && knowledge.Agree(sure.FAQ.Answer, near.Sentence) >= AgreeShare:
		if near.Held > sure.Held {
			// The passage says it too and holds more of the question's words: "tenho doença
			// celíaca, têm sem glúten?" gets "Temos sempre um prato vegetariano e opções sem
			// glúten", not the vegan item that agrees with it.
			return near, true
		}
		return sure, true
	}
	return knowledge.Hit{}, false
}

// denser returns, of chunk and the other chunks of its page scoring as much (at least TieShare of
// its score, and at least lim.score) and holding as many of the question's content words, the one
// whose best sentence is the shortest: the page says what both match in fewer words there ("how
// much to get my ears pierced": "Earlobe: $40 for one, $70 for a pair." rather than "We sell
// sterile saline aftercare spray for $12; clean your piercing with it twice a day and don't twist
// the jewelry."). Chunks of one page share its title and often a sentence (Split's overlap), so
// their scores tie on what they share; the sentence that says the rest is what tells them apart.
func denser(hits []knowledge.Hit, chunk knowledge.Hit, lim limits) knowledge.Hit {
	best, n := chunk, utf8.RuneCountInString(chunk.Sentence)
	for _, h := range hits {
		if h.Kind != knowledge.KindChunk || h.Other || h.Chunk.URL == "" || h.Chunk.URL != chunk.Chunk.URL || h.Sentence == "" ||
			h.Score < lim.score || h.Score < chunk.Score*TieShare || h.Held < chunk.Held {
			continue
		}
		if m := utf8.RuneCountInString(h.Sentence); m < n {
			best, n = h, m
		}
	}
	return best
}

// answer is the reply from one hit: an FAQ item's answer, or a chunk's best passage followed by
// an open token for its page.
func answer(h knowledge.Hit, question string) string {
	if h.Kind == knowledge.KindFAQ {
		return clean(h.FAQ.Answer, true)
	}
	text := passage(clean(h.Chunk.Text, false), question, h.Sentence, h.Second)
	if text == "" {
		return ""
	}
	if u := h.Chunk.URL; u != "" && !strings.ContainsAny(u, "[] \t\r\n") {
		text += "\n\n[OPEN:" + u + "]"
	}
	if id := h.Chunk.Cart; id != "" && !strings.ContainsAny(id, "[]: \t\r\n") {
		// A product in stock that the store's plugin synced: its cart id is the plugin's data,
		// never text of the Brain, so the offer to add it cannot be planted by a page.
		text += "\n[CART:" + id + ":1]"
	}
	return text
}

// dontKnow says plainly that the engine does not know, and how to reach the business: its
// e-mail and phone, else its address, and its hours (contactAnswer), or that the customer may
// leave a message when it has no way to be reached.
func dontKnow(ph *phrases, c profile.Contact, business string) string {
	parts := []string{ph.dontKnow}
	if strings.TrimSpace(c.Email+c.Phone+c.Address) == "" {
		parts = append(parts, fmt.Sprintf(ph.leave, business))
	}
	if ways, ok := contactAnswer(ph, c, business, knowledge.DetailReach|knowledge.DetailHours); ok {
		parts = append(parts, ways)
	}
	return strings.Join(parts, " ")
}

// actionToken matches what the app would read as an action token.
var actionToken = regexp.MustCompile(`(?i)\[\s*(?:(?:open|cart)\s*:[^\[\]\n]*|checkout\s*)\]`)

// clean trims knowledge text and removes action tokens from it, so that no text of the Brain
// can make the reply act; an FAQ answer the owner wrote may keep its open tokens (keepOpen).
func clean(s string, keepOpen bool) string {
	if strings.IndexByte(s, '[') >= 0 {
		s = actionToken.ReplaceAllStringFunc(s, func(tok string) string {
			name := strings.ToLower(strings.TrimLeft(tok[1:], " \t"))
			if keepOpen && strings.HasPrefix(name, "open") {
				return tok
			}
			return ""
		})
	}
	return strings.TrimSpace(s)
}

// Small talk.

// talk is what a message says when it says nothing to look up.
type talk uint8

const (
	question talk = iota // anything else
	hello
	thanks
	bye
	filler // courtesy words that only go with the others
)

// startCommand tells Telegram's start command, which its Start button sends to open every chat
// with a bot: "/start", or "/start@<bot>", with at most one word after it (a deep link's payload).
func startCommand(message string) bool {
	f := strings.Fields(message)
	if len(f) == 0 || len(f) > 2 {
		return false
	}
	cmd, _, _ := strings.Cut(strings.ToLower(f[0]), "@")
	return cmd == "/start"
}

// smallTalkWords bounds the words of a message read as small talk.
const smallTalkWords = 12

// smallTalk tells a message made only of greetings, thanks, goodbyes (in any of the engine's
// languages), courtesy words and the agent's or business's name. A goodbye wins over thanks,
// thanks over a greeting ("thanks, bye" is a goodbye); any other word makes it a question.
func smallTalk(message string, p profile.Profile) talk {
	if startCommand(message) {
		return hello
	}
	words := strings.Fields(knowledge.NormalizeQuestion(message))
	if len(words) == 0 || len(words) > smallTalkWords {
		return question
	}
	for i, w := range words {
		words[i] = squeeze(w)
	}
	names := strings.Fields(knowledge.NormalizeQuestion(p.BusinessName + " " + p.Appearance.Name))
	var said [filler + 1]bool
	for i := 0; i < len(words); {
		if n, t := matchTalk(words[i:]); n > 0 {
			said[t] = true
			i += n
			continue
		}
		if !slices.ContainsFunc(names, func(n string) bool { return squeeze(n) == words[i] }) {
			return question
		}
		i++
	}
	for _, t := range [...]talk{bye, thanks, hello} {
		if said[t] {
			return t
		}
	}
	return question // only courtesy words or names
}

// phrase is a small-talk phrase as squeezed words.
type phrase struct {
	words []string
	talk  talk
}

// talkIndex holds the small-talk phrases of every language by their first word, longest first.
var talkIndex = func() map[string][]phrase {
	idx := make(map[string][]phrase)
	for _, ph := range phrasebook {
		for t, list := range map[talk][]string{hello: ph.hello, thanks: ph.thanks, bye: ph.bye, filler: ph.filler} {
			for _, s := range list {
				words := strings.Fields(knowledge.NormalizeQuestion(s))
				for i, w := range words {
					words[i] = squeeze(w)
				}
				idx[words[0]] = append(idx[words[0]], phrase{words, t})
			}
		}
	}
	for _, list := range idx {
		// Longest first; among equals, the stronger talk, so the result never depends on map order.
		slices.SortStableFunc(list, func(a, b phrase) int {
			if d := len(b.words) - len(a.words); d != 0 {
				return d
			}
			return int(a.talk) - int(b.talk)
		})
	}
	return idx
}()

// matchTalk returns the words and kind of the longest small-talk phrase words begin with, or 0.
func matchTalk(words []string) (int, talk) {
	for _, p := range talkIndex[words[0]] {
		if len(p.words) <= len(words) && slices.Equal(p.words, words[:len(p.words)]) {
			return len(p.words), p.talk
		}
	}
	return 0, question
}

// squeeze collapses runs of a repeated ASCII letter, so that "hellooo" and "hello" (both "helo")
// meet.
func squeeze(w string) string {
	for i := 1; i < len(w); i++ {
		if w[i] == w[i-1] && w[i] < utf8.RuneSelf {
			b := []byte(w[:i])
			for j := i; j < len(w); j++ {
				if w[j] != b[len(b)-1] || w[j] >= utf8.RuneSelf {
					b = append(b, w[j])
				}
			}
			return string(b)
		}
	}
	return w
}

// Passages.

// sentence is a sentence or an unpunctuated line of a chunk (a heading, a list item), with the
// line it is on.
type sentence struct {
	text  string
	line  int
	terms []string // distinct knowledge.Tokens
}

// passage returns the one to three sentences of text that best match the question's terms, in
// their order in the text, at most about maxPassage characters; the sentence the Brain's search
// found most like the question (knowledge.Hit's Sentence, if any) comes first, and the one nearly
// as like it that states the fact asked too (Hit's Second, if any) next.
func passage(text, question, first, second string) string {
	ss := sentences(text)
	if len(ss) == 0 {
		return ""
	}
	find := func(t string) int {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			return slices.IndexFunc(ss, func(s sentence) bool { return s.text == t })
		}
		return -1
	}
	q := distinct(knowledge.Tokens(question))
	chosen := withContext(ss, choose(ss, q, find(first), find(second)))
	units := whole(ss, chosen, q)
	for len(units) > 1 && length(ss, slices.Concat(units...)) > maxPassage {
		units = units[:len(units)-1] // the last chosen matters least
	}
	// The first sentence's item, if too long, keeps its sentence and loses its item's last lines.
	for u := units[0]; u[len(u)-1] != chosen[0] && length(ss, u) > maxPassage; u = units[0] {
		units[0] = u[:len(u)-1]
	}
	return cut(join(ss, slices.Concat(units...)), maxPassage)
}

// whole returns each chosen sentence as a unit with what it needs to carry its fact, in the
// order chosen: a sentence that asks a question ("Need to drop it off before we open?") with the
// next one, its answer; a sentence that goes on with an item of a list whose line opens with a
// label ("Desistências: pode desistir com aviso de 30 dias…; as mensalidades já pagas não são
// reembolsadas. Se desistir na primeira semana…") after the line's first sentence, the item's
// head, when the two fit in a passage; and the first chosen sentence, when it is such a head,
// with the sentences of the rest of its item (up to the next label) that hold a word of the
// question q ("Inscrição: 40 € por ano… Antigos alunos não pagam inscrição."). A page's sentences
// are written to be read in order: a question alone, or the second half of an item, cuts off the
// fact the customer asked for.
func whole(ss []sentence, chosen []int, q []string) [][]int {
	var units [][]int
	taken := func(i int) bool {
		return slices.ContainsFunc(units, func(u []int) bool { return slices.Contains(u, i) })
	}
	for k, i := range chosen {
		if taken(i) {
			continue
		}
		var u []int
		h := head(ss, i)
		if h < 0 {
			h = listLead(ss, i)
		}
		if h < 0 && i > 0 && refersBack(ss[i].text) {
			h = i - 1
		}
		if h >= 0 && !taken(h) && (k > 0 || length(ss, []int{h, i}) <= maxPassage) {
			u = append(u, h)
		}
		u = append(u, i)
		if k == 0 && labelled(ss[i].text) {
			for j := i + 1; j < len(ss) && ss[j].line == ss[i].line && !labelled(ss[j].text); j++ {
				if !taken(j) && slices.ContainsFunc(ss[j].terms, func(t string) bool { return slices.Contains(q, t) }) {
					u = append(u, j)
				}
			}
		}
		if j := i + 1; asks(ss[i].text) && j < len(ss) && !slices.Contains(u, j) && !taken(j) {
			u = append(u, j)
		}
		units = append(units, u)
	}
	return units
}

// head returns the first sentence of the line of ss[i] when it opens with a label and ss[i],
// a later sentence of the line, does not (it goes on with the head's item); else -1.
func head(ss []sentence, i int) int {
	h := i
	for h > 0 && ss[h-1].line == ss[i].line {
		h--
	}
	if h == i || !labelled(ss[h].text) || labelled(ss[i].text) {
		return -1
	}
	return h
}

// listLead returns the line that leads in to a list whose row ss[i] is ("Tarifas por día, en
// temporada baja y en temporada alta:" over "SUV 4x4 (Renault Duster 4x4 o similar): $78.000 y
// $110.000."): the nearest line before it ending with a colon, when ss[i] and every line between
// them are lines of one sentence each, one after the other; else -1. A row alone does not say what
// its figures are.
func listLead(ss []sentence, i int) int {
	alone := func(j int) bool {
		return (j == 0 || ss[j-1].line != ss[j].line) && (j+1 == len(ss) || ss[j+1].line != ss[j].line)
	}
	if !alone(i) {
		return -1
	}
	return colonBefore(ss, i, func(j int) bool { return ss[j].line == ss[j+1].line-1 && alone(j) })
}

// refersBack reports whether a sentence opens with a pronoun standing for what the sentence
// before it named ("Our Test Day Package costs $250. It includes a warm-up lesson…"): the
// sentence alone does not say what it is about.
func refersBack(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	return slices.Contains(backReferences, strings.TrimRight(w, ",;:"))
}

// backReferences are the pronouns that open a sentence about what the one before it named, in the
// three languages.
var backReferences = []string{
	"It", "This", "That", "They", "These", "Those",
	"Isso", "Isto", "Ele", "Ela", "Eles", "Elas",
	"Esto", "Eso", "Ello", "Ellos", "Ellas",
}

// labelled reports whether a sentence opens with a label: at most four words, no figure and no
// punctuation, before a colon ("Desistências:", "Late pick-up:", "Horario de consulta:"; not "Open
// 9:30 to 5", "Para cirugías y tratamientos de más de 300 €, …: …").
func labelled(s string) bool {
	k := strings.IndexByte(s, ':')
	if k <= 0 {
		return false
	}
	label := s[:k]
	return len(strings.Fields(label)) <= 4 && !strings.ContainsAny(label, ".,;!?()0123456789")
}

// asks reports whether a sentence asks a question: it ends with a question mark, maybe inside
// closing quotes or brackets.
func asks(s string) bool {
	return strings.HasSuffix(strings.TrimRight(s, closers), "?")
}

// choose returns up to three sentences for the question's terms q, most telling first. Terms
// weigh more the fewer sentences hold them; the first sentence is ss[first] when first is not
// negative, else the one of most weight, the second ss[second] when first and second are not
// negative, each next the one that adds most weight of terms not yet covered; of equals, the one
// with fewer terms (it is more about them), then the first. When the first alone covers the
// question's terms, the second is one of another line that holds them all too (restated). With
// no sentence matching, the first one.
func choose(ss []sentence, q []string, first, second int) []int {
	df := make(map[string]int, len(q))
	for _, s := range ss {
		for _, t := range s.terms {
			if slices.Contains(q, t) {
				df[t]++
			}
		}
	}
	var chosen []int
	var covered []string
	gain := func(i int) float64 {
		w := 0.0
		for _, t := range ss[i].terms {
			if df[t] > 0 && !slices.Contains(covered, t) {
				w += 1 + math.Log(float64(len(ss))/float64(df[t]))
			}
		}
		return w
	}
	for len(chosen) < 3 {
		pick, most := -1, 0.0
		for i := range ss {
			if w := gain(i); w > 0 && (w > most || w == most && len(ss[i].terms) < len(ss[pick].terms)) {
				pick, most = i, w
			}
		}
		switch {
		case len(chosen) == 0 && first >= 0:
			pick = first
		case len(chosen) == 1 && first >= 0 && second >= 0 && second != first:
			pick = second
		}
		if pick < 0 {
			break
		}
		chosen = append(chosen, pick)
		for _, t := range ss[pick].terms {
			if df[t] > 0 && !slices.Contains(covered, t) {
				covered = append(covered, t)
			}
		}
	}
	if len(chosen) == 0 {
		return []int{0}
	}
	if len(chosen) == 1 {
		if i := restated(ss, chosen[0], df); i >= 0 {
			chosen = append(chosen, i)
		}
	}
	return chosen
}

// restated returns the sentence of another line than ss[first]'s that holds every term of the
// question that ss[first] holds (df counts the sentences holding each term of the question), the
// one of fewest terms, else -1: when one sentence covers the whole question, a page that names
// the same thing on another line states another fact about it ("abrís los domingos?": the fee of
// an emergency "domingos y festivos", and on the schedule's line "Los domingos y festivos la
// clínica está cerrada"), which the customer may be asking as well.
func restated(ss []sentence, first int, df map[string]int) int {
	var want []string
	for _, t := range ss[first].terms {
		if df[t] > 0 {
			want = append(want, t)
		}
	}
	if len(want) == 0 {
		return -1
	}
	pick := -1
	for i, s := range ss {
		if s.line == ss[first].line {
			continue
		}
		if !slices.ContainsFunc(want, func(t string) bool { return !slices.Contains(s.terms, t) }) && (pick < 0 || len(s.terms) < len(ss[pick].terms)) {
			pick = i
		}
	}
	return pick
}

// withContext gives chosen sentences that are only fragments (a heading, a list item) the line that
// leads in to them, else the lines after them, then before them, until one is a whole sentence or
// there are three.
func withContext(ss []sentence, chosen []int) []int {
	whole := func(i int) bool { return isSentence(ss[i].text) }
	if slices.ContainsFunc(chosen, whole) {
		return chosen
	}
	if i := leadIn(ss, slices.Min(chosen)); i >= 0 {
		return append(chosen, i)
	}
	for len(chosen) < 3 && !slices.ContainsFunc(chosen, whole) {
		switch first, last := slices.Min(chosen), slices.Max(chosen); {
		case last+1 < len(ss):
			chosen = append(chosen, last+1)
		case first > 0:
			chosen = append(chosen, first-1)
		default:
			return chosen
		}
	}
	return chosen
}

// leadIn returns the line that introduces a fragment at ss[i] (a list item): the nearest of the
// few before it that ends with a colon, unless a complete sentence comes between; else -1.
func leadIn(ss []sentence, i int) int {
	return colonBefore(ss, i, func(j int) bool {
		return j >= i-8 && (strings.HasSuffix(ss[j].text, ":") || !isSentence(ss[j].text))
	})
}

// colonBefore returns the nearest sentence before ss[i] that ends with a colon (a line leading in
// to what follows), looking back only over the sentences j for which through(j) holds; else -1.
func colonBefore(ss []sentence, i int, through func(j int) bool) int {
	for j := i - 1; j >= 0 && through(j); j-- {
		if strings.HasSuffix(ss[j].text, ":") {
			return j
		}
	}
	return -1
}

// join writes the chosen sentences in their order in the text: a space between sentences of a
// line, a line break between lines.
func join(ss []sentence, chosen []int) string {
	sorted := slices.Clone(chosen)
	slices.Sort(sorted)
	var b strings.Builder
	for k, i := range sorted {
		if k > 0 {
			if ss[i].line == ss[sorted[k-1]].line {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(ss[i].text)
	}
	return b.String()
}

// length is the characters of the chosen sentences joined.
func length(ss []sentence, chosen []int) int {
	n := len(chosen) - 1
	for _, i := range chosen {
		n += utf8.RuneCountInString(ss[i].text)
	}
	return n
}

// cut shortens s to at most max characters at the end of a word, and marks the cut with "…".
// A shorter s, or one with no space before max, is returned as it is.
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	end, n := 0, 0
	for i, r := range s {
		if n >= max {
			break
		}
		if unicode.IsSpace(r) {
			end = i
		}
		n++
	}
	if end == 0 {
		return s
	}
	return strings.TrimRightFunc(s[:end], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}

// isSentence reports whether s ends as a sentence does, with a full stop, question or
// exclamation mark or ellipsis, maybe inside closing quotes or brackets.
func isSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, closers))
	return strings.ContainsRune(enders, r)
}

// Marks that end a sentence, and that may close one after its end.
const (
	enders  = ".!?…"
	closers = `"')]}»”’`
)

// sentences splits text into its lines, and lines into sentences: a full stop, question or
// exclamation mark or ellipsis (and any closing quotes or brackets) followed by a space and a
// capital letter, a digit or an opening mark ends one.
func sentences(text string) []sentence {
	var out []sentence
	add := func(s string, line int) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, sentence{text: s, line: line, terms: distinct(knowledge.Tokens(s))})
		}
	}
	line := 0
	for l := range strings.Lines(text) {
		l = spaced(l)
		start := 0
		for i, r := range l {
			if r != '.' && r != '!' && r != '?' && r != '…' { // not one of enders
				continue
			}
			j := i + utf8.RuneLen(r)
			for j < len(l) {
				c, size := utf8.DecodeRuneInString(l[j:])
				if !strings.ContainsRune(closers, c) {
					break
				}
				j += size
			}
			if j+1 < len(l) && l[j] == ' ' {
				if next, _ := utf8.DecodeRuneInString(l[j+1:]); (unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune(`"'(«“¿¡`, next)) && !knowledge.Abbreviated(l[:j], next) {
					add(l[start:j], line)
					start = j + 1
				}
			}
		}
		add(l[start:], line)
		line++
	}
	return out
}

// spaced returns a line trimmed, its runs of white space single spaces (its strings.Fields
// joined by spaces): the line itself, trimmed, when they are already.
func spaced(l string) string {
	t := strings.TrimSpace(l)
	space := false
	for _, r := range t {
		if !unicode.IsSpace(r) {
			space = false
			continue
		}
		if r != ' ' || space {
			return strings.Join(strings.Fields(t), " ")
		}
		space = true
	}
	return t
}

// distinct returns the terms without repeats, in order of first appearance.
func distinct(terms []string) []string {
	out := terms[:0]
	for _, t := range terms {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
