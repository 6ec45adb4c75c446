// Package language guesses the language a customer writes in (English, Portuguese or Spanish) and
// names the language codes the service answers in.
package language

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The languages Detect tells apart.
const (
	English    = "en"
	Portuguese = "pt"
	Spanish    = "es"
)

// Supported are the language codes the service answers in.
var Supported = []string{"en", "pt", "pt-BR", "es"}

// Base returns the primary language subtag of a code, lower case: "pt-BR" → "pt", "es_419" →
// "es", "EN" → "en".
func Base(code string) string {
	code = strings.TrimSpace(code)
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	return strings.ToLower(code)
}

// minScore is the evidence Detect needs before it trusts its guess: one distinctive word
// ("olá", "gracias", "thanks") or a few common ones.
const minScore = 3

// Detect returns "en", "pt" or "es" for the language text is most likely written in, from its
// function words, greetings and characteristic letters (ã, õ, ç, ñ, ¿, ¡, "ção", "ción" …). It
// returns fallback when the text gives too little evidence ("ok", "123", an emoji) or when two
// languages score the same.
//
// E-mail addresses, web addresses and host names ("ana@example.com", "https://loja.example/x",
// "shop.example.com") are not words of any language and give no evidence: "com" is also
// Portuguese for "with".
func Detect(text, fallback string) string {
	text = withoutAddresses(text)
	var s scores
	for _, r := range text {
		switch r {
		case 'ã', 'õ', 'Ã', 'Õ':
			s[pt] += 3
		case 'ç', 'Ç', 'ê', 'ô', 'â', 'Ê', 'Ô', 'Â':
			s[pt] += 2
		case 'à', 'À':
			s[pt]++
		case 'ñ', 'Ñ', '¿', '¡':
			s[es] += 3
		}
	}
	eachWord(text, func(w string) {
		if ws, ok := words[w]; ok {
			s.add(ws)
		}
		s.add(sequences(w))
	})
	best, second := s.top()
	if s[best] < minScore || s[best] == s[second] {
		return fallback
	}
	return codes[best]
}

// withoutAddresses returns text without its e-mail addresses, web addresses and host names: the
// runs of non-space characters that hold an "@", a "://" or a dot between two letters. Text
// without any of them is returned as it is, without a copy.
func withoutAddresses(text string) string {
	if !mayHoldAddress(text) {
		return text
	}
	fields := strings.Fields(text)
	kept := fields[:0]
	for _, f := range fields {
		if !isAddress(f) {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

// mayHoldAddress reports whether text has an "@", a "://" or a dot before a lower-case letter.
func mayHoldAddress(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '@':
			return true
		case '.', ':':
			if i+1 < len(text) && (text[i+1] >= 'a' && text[i+1] <= 'z' || text[i+1] == '/') {
				return true
			}
		}
	}
	return false
}

// isAddress reports whether a run of non-space characters is an e-mail address, a web address
// or a host name: one whose last label (before any path) is 2 to 24 lower-case ASCII letters
// after a dot ("shop.example.com/x", not "Obrigado.Até", a missing space after a full stop).
func isAddress(f string) bool {
	if strings.Contains(f, "@") || strings.Contains(f, "://") {
		return true
	}
	host, _, _ := strings.Cut(strings.TrimRight(f, ".,;:!?)]}\"'»”"), "/")
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 {
		return false
	}
	tld := host[dot+1:]
	if len(tld) < 2 || len(tld) > 24 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

// lang indexes the detected languages in scores.
type lang int

const (
	en lang = iota
	pt
	es
	langs
)

var codes = [langs]string{en: English, pt: Portuguese, es: Spanish}

// scores holds the evidence for each language.
type scores [langs]int

func (s *scores) add(o scores) {
	for i := range s {
		s[i] += o[i]
	}
}

// top returns the best and second-best languages.
func (s *scores) top() (best, second lang) {
	best, second = en, pt
	if s[second] > s[best] {
		best, second = second, best
	}
	for l := es; l < langs; l++ {
		switch {
		case s[l] > s[best]:
			best, second = l, best
		case s[l] > s[second]:
			second = l
		}
	}
	return best, second
}

// sequences scores letter sequences typical of one language: Portuguese -ção/-ções (folded "cao",
// "coes"), -nh- and -lh-; Spanish -ción and a leading ll-; English th- and -ing.
func sequences(w string) scores {
	var s scores
	switch {
	case strings.HasSuffix(w, "cao"), strings.HasSuffix(w, "coes"):
		s[pt] += 2
	case strings.HasSuffix(w, "cion"), strings.HasSuffix(w, "ciones"):
		s[es] += 2
	case len(w) > 4 && strings.HasSuffix(w, "ing"):
		s[en]++
	}
	switch {
	case strings.HasPrefix(w, "th"):
		s[en]++
	case strings.HasPrefix(w, "ll"):
		s[es]++
	case len(w) > 3 && (strings.Contains(w, "nh") || strings.Contains(w, "lh")):
		s[pt]++
	}
	return s
}

// words holds words (lower case, accents folded) with the evidence each gives: 3 for a word that
// marks one language, 1 for a weak hint ("o", "e") or for each of the two Iberian languages when
// they share the word ("que", "para", "dia").
var words = func() map[string]scores {
	m := make(map[string]scores, 400)
	add := func(list string, l lang, weight int) {
		for _, w := range strings.Fields(list) {
			s := m[w]
			s[l] += weight
			m[w] = s
		}
	}
	add(`the you your yours is are was were what how does do did can could would should have has
		this that with hello hi hey thanks thank please yes yeah good morning evening afternoon
		night bye goodbye want need where when which there their they from will about much many
		any dont doesnt cant im ive its whats be been it my we our us of to for at on an or not
		just like get got shop ship open price`, en, 3)
	add(`voce voces vc vcs nao sim obrigado obrigada obg valeu ola oi bom boa boas noite tudo bem
		tchau ate logo quanto custa quais onde fica entrega entregam fazem faz tem tenho temos
		posso pode podem podia gostaria queria preciso ajuda isso isto essa esse estou sao meu
		minha minhas meus seu sua seus suas nosso nossa ao aos pelo pela pelos pelas entao um uma
		umas uns da dos das na nas num numa nos pra com mais muito muita agora amanha hoje ontem
		encomenda morada loja qual`, pt, 3)
	add(`o os e`, pt, 1)
	// "do" (of the) is as common in Portuguese as the English verb: "podemos reunir antes do
	// casamento para falar do dia?" is no English.
	add(`do`, pt, 2)
	add(`usted ustedes gracias hola buenos buenas noches adios hasta cuanto cuesta cuales cual
		donde estan envio envios envian hacen tienen tiene tengo tenemos puedo puede pueden
		quisiera quiero necesito ayuda eso esto ese esa estoy son mi mis su sus nuestro nuestra
		al del el los las un una unos unas y pero muy mucho mucha ahora alli manana hoy ayer
		tienda chao hay ya tambien entonces con cuando`, es, 3)
	for _, l := range []lang{pt, es} {
		add(`que como para por dia dias tarde tardes pedido porque esta estamos mas aqui ha vale de a`, l, 1)
	}
	return m
}()

// eachWord calls emit with every word of s, lower case with accents folded. A word is a run of
// letters; apostrophes inside a word are dropped ("don't" is "dont").
func eachWord(s string, emit func(w string)) {
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			emit(b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case (r == '\'' || r == '’') && b.Len() > 0:
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r):
			r = unicode.ToLower(r)
			if f, ok := folds[r]; ok {
				r = f
			}
			b.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
}

// folds maps the accented lower-case letters of English, Portuguese and Spanish to plain ASCII.
var folds = func() map[rune]rune {
	m := make(map[rune]rune, 32)
	for base, letters := range map[rune]string{
		'a': "àáâãä", 'c': "ç", 'e': "èéêë", 'i': "ìíîï", 'n': "ñ", 'o': "òóôõö", 'u': "ùúûü",
	} {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()
