package knowledge

import "strings"

// Customers of Spanish and Portuguese often type without accents ("habitacion", "teneis",
// "informacao"), while the Snowball stemmers read the accents of the suffixes they strip:
// "habitación" is "habit" but "habitacion" stays "habitacion", "informação" is "inform" but
// "informacao" is "informaca". spellAccents writes back the accent of the endings whose accent
// is certain, so that a word meets its own stem however it is typed.

// accentEndings are, by language, the unaccented endings (of a word with no accent at all)
// whose accented form is certain, with that form: every Spanish word of more than one syllable
// ending in "ion" is written "ión", every vosotros form in "ais"/"eis" is "áis"/"éis"; every
// Portuguese word in "cao" is "ção", in "avel" "ável"…
var accentEndings = map[string][][2]string{
	"es": {{"ion", "ión"}, {"ais", "áis"}, {"eis", "éis"}},
	"pt": {
		{"coes", "ções"}, {"cao", "ção"}, {"encia", "ência"}, {"encias", "ências"},
		{"ancia", "ância"}, {"ancias", "âncias"}, {"avel", "ável"}, {"aveis", "áveis"},
		{"ivel", "ível"}, {"iveis", "íveis"},
	},
}

// accentMinLen is the fewest letters of a word whose ending spellAccents writes back: "cao"
// (cão, a dog) or "ion" alone are other words.
const accentMinLen = 6

// spellAccents returns a lower-case word of lang with the accent of its ending written back
// when the word has no accent and its ending's accent is certain (accentEndings); else the
// word. In Spanish, a final "ás" or "és" is read without its accent instead ("tenés", "podés",
// the voseo, and "después", "inglés"): the stemmer strips "as" and "es" but not "ás" and "és",
// so both spellings meet at the unaccented one's stem.
func spellAccents(w, lang string) string {
	if len(w) < accentMinLen {
		return w
	}
	if lang == "es" {
		if s, ok := strings.CutSuffix(w, "ás"); ok {
			return s + "as"
		}
		if s, ok := strings.CutSuffix(w, "és"); ok {
			return s + "es"
		}
	}
	endings := accentEndings[lang]
	if endings == nil {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return w // accented, or not a plain word: as written
		}
	}
	for _, e := range endings {
		if s, ok := strings.CutSuffix(w, e[0]); ok {
			return s + e[1]
		}
	}
	return w
}
