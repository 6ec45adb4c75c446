package knowledge

import (
	"regexp"
	"strings"
)

// wayWords are the phrases (folded, as NormalizeQuestion writes them) by which a question in
// each language asks how to do something with the business: book, order, reach it ("how do I
// get an appointment", "como faço marcação", "¿cómo puedo reservar?"). "How much", "how long"
// and "how many" ask for a price, a time or a number, not a way.
var wayWords = map[string][]string{
	"en": {"how do i", "how can i", "how do we", "how can we", "how do you", "how to", "how should i", "how would i", "what do i do", "what should i do", "what do i need to do"},
	"pt": {"como faco", "como posso", "como se", "como e que", "como devo", "como fazer", "o que faco", "o que devo fazer", "o que tenho de fazer", "o que tenho que fazer"},
	"es": {"como puedo", "como hago", "como se", "como podemos", "como debo", "como hacer", "que hago", "que tengo que hacer", "que debo hacer"},
}

// Ways a sentence tells to act: a phone number, an e-mail or web address, or a word of the
// channels of customer service (call, online, WhatsApp, the front desk…) in en, pt and es. The
// acts themselves (book, order) are left out: a question's own word would match them anyway.
var (
	wayNumber  = regexp.MustCompile(`\+?\(?\d{2,4}\)?[\s.-]?\d{3}[\s.-]?\d{3,4}\b`)
	wayAddress = regexp.MustCompile(`[\w.-]+@[\w-]+\.\w|\bwww\.|https?://|\.(?:com|net|org|pt|es)\b`)
	wayTerms   = func() map[string]struct{} {
		const words = `online phone call ring email mail website app form whatsapp text message
contact desk counter reception
ligar ligue telefone telemovel site aplicacao formulario balcao rececao contacte contactar
mensagem
llamar llame llamanos telefono correo web aplicacion formulario recepcion mostrador escribenos
contactar contacta mensaje`
		m := make(map[string]struct{})
		for _, w := range strings.Fields(words) {
			m[w] = struct{}{}
		}
		return m
	}()
)

// wayCue returns cueWay for a sentence that tells a way to act (wayNumber, wayAddress,
// wayTerms), else 0.
func wayCue(sentence string) cue {
	if wayNumber.MatchString(sentence) || wayAddress.MatchString(strings.ToLower(sentence)) {
		return cueWay
	}
	for _, w := range strings.Fields(NormalizeQuestion(sentence)) {
		if _, ok := wayTerms[w]; ok {
			return cueWay
		}
	}
	return 0
}

// passageSentences sets which[c] to the sentence of chunk c most like the query (sim), other
// than its title (title), or -1 when none is like it: a title scores its chunk ("Appointments
// and emergencies" for "how do I get an appointment") but is no passage, and the sentence that
// leads the passage should be the best of the chunk's text ("Book an appointment online…"), not
// whichever shares a word with the title. When the question asks a kind of fact (asked) and
// another sentence of the chunk states it too and comes within runnerRatio of the best, second[c]
// is that sentence (else -1): "when will i get my refund" is as like "…within 30 days of delivery
// for a full refund" as "Refunds are made … within 5 working days", and the passage shows both.
func passageSentences(sim []float64, chunk []int32, title []bool, cues []cue, asked cue, which, second []int32) {
	for i, v := range sim {
		if title[i] || v <= 0 {
			continue
		}
		if c := chunk[i]; which[c] < 0 || v > sim[which[c]] {
			which[c] = int32(i)
		}
	}
	if asked == 0 {
		return
	}
	for i, v := range sim {
		c := chunk[i]
		w := which[c]
		if title[i] || v <= 0 || w < 0 || int32(i) == w || cues[i]&asked == 0 || cues[w]&asked == 0 || v < runnerRatio*sim[w] {
			continue
		}
		if second[c] < 0 || v > sim[second[c]] {
			second[c] = int32(i)
		}
	}
}

// runnerRatio is how near the best sentence's similarity a second sentence stating the fact asked
// must come to be shown with it (passageSentences). 0.8 (0.9 before round 21): "how long does
// delivery take?" shows "UK standard delivery takes 2-3 working days…" with "EU delivery takes
// 4-7 working days…", and "quanto custa um fotógrafo para o jantar de natal da empresa" the
// events' price with the portraits' (testdata/eval/README.md).
const runnerRatio = 0.8

// spelledDuration is a duration with its number in words ("within five working days", "dois
// dias úteis", "quince minutos"), of sentences folded as NormalizeQuestion writes them.
var spelledDuration = regexp.MustCompile(`\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|few|several|um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|doze|quinze|vinte|trinta|alguns|algumas|un|uno|una|dos|cuatro|siete|ocho|nueve|diez|doce|quince|veinte|treinta|unos|unas)\s(?:[a-z]+\s)?(?:minutes?|minutos?|hours?|horas?|days?|dias|weeks?|semanas?|months?|meses|mes)\b`)

// spelledTime returns cueDuration for a sentence that states a duration in words, and cueSeason
// for one that tells a time of the year by its months (monthRange); else 0 (durationFact reads
// durations in digits).
func spelledTime(sentence string) cue {
	var c cue
	if spelledDuration.MatchString(NormalizeQuestion(sentence)) {
		c |= cueDuration
	}
	if monthRange.MatchString(sentence) {
		c |= cueSeason
	}
	return c
}

// monthRange is a time of the year a sentence tells by its months, from one to another or from
// one on ("from early June to early July", "from late September", "de março a novembro", "de
// junio a septiembre", "a partir de outubro"): it answers "when" (cueSeason), not "are you open
// on the 16th of September", which asks the hours of a day (cueTime). English months are read
// with their capital, and "May" not at all (the modal); Portuguese and Spanish ones as written,
// accents and all ("março", not the landmark "marco").
var monthRange = regexp.MustCompile(`\b(?:from|until|till|to|through|de|desde|a|até|hasta|partir de|entre)\s(?:(?:early|mid|late|the end of|the start of|the beginning of|início de|meados de|final de|fim de|principios de|mediados de|finales de|fines de)\s)?(?:January|February|March|April|June|July|August|September|October|November|December|[Jj]aneiro|[Ff]evereiro|[Mm]arço|[Aa]bril|[Mm]aio|[Jj]unho|[Jj]ulho|[Aa]gosto|[Ss]etembro|[Oo]utubro|[Nn]ovembro|[Dd]ezembro|[Ee]nero|[Ff]ebrero|[Mm]arzo|[Mm]ayo|[Jj]unio|[Jj]ulio|[Ss]eptiembre|[Ss]etiembre|[Oo]ctubre|[Nn]oviembre|[Dd]iciembre)\b`)
