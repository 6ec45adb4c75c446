package knowledge

import "strings"

// The stemmers strip a noun's regular plural but not an irregular one: Snowball's English
// "children" stays "children" and "child" "child", "teeth" "teeth" and "tooth" "tooth"; its
// Spanish "lápices" is "lapic" and "lápiz" "lapiz", "exámenes" "examen" and "examen" "exam"; and
// Tokens' light rules strip a final -s only. So "how many persons fit" does not meet "seat 4
// people". nounForms maps such a plural to its singular, which the stemmers then read as they
// read the singular (stemWord, and stem for English plurals, which are no word of Portuguese or
// Spanish), for the Brain's words and the question's alike, as verbForms does a verb's irregular
// forms. Portuguese needs none: its stemmer meets "pães" and "pão", "limões" and "limão". An
// English plural's possessive is read too, its apostrophe dropped as the index drops it
// ("children's menu", "women's sizes"). English "kid" and "kids" are not read as "child" (the
// thesaurus pairs them, weakly): so read, held out 6 lost a right answer.
// Left out: plurals that are also another word's form ("leaves", "lives": a verb's; "data",
// "media": read as singulars) and Spanish "veces" and "voces" (stop words: "vocês" folded).
var nounIrregular = map[string]string{
	"en": `
child: children
person: people
man: men
woman: women
tooth: teeth
foot: feet
goose: geese
mouse: mice
knife: knives
wife: wives
shelf: shelves
half: halves
loaf: loaves
thief: thieves
wolf: wolves
calf: calves`,
	// Spanish plurals in -ces of a singular in -z, and those whose written accent moves.
	"es": `
lápiz: lápices
luz: luces
pez: peces
cruz: cruces
nariz: narices
raíz: raíces
disfraz: disfraces
actriz: actrices
nuez: nueces
tapiz: tapices
matiz: matices
barniz: barnices
examen: exámenes
imagen: imágenes
joven: jóvenes
orden: órdenes
origen: orígenes
volumen: volúmenes
resumen: resúmenes
margen: márgenes
régimen: regímenes
carácter: caracteres
espécimen: especímenes`,
}

// nounForms maps, per language, the plurals nounIrregular lists (lower case, accents as written
// and without them) to their singular.
var nounForms = func() map[string]map[string]string {
	out := map[string]map[string]string{}
	eachNounForm(func(lang, form, noun string) {
		if out[lang] == nil {
			out[lang] = map[string]string{}
		}
		out[lang][form] = noun
	})
	return out
}()

// eachNounForm calls f with every plural nounIrregular lists and its singular, as written and
// without its accents (unless that is its singular unaccented).
func eachNounForm(f func(lang, form, noun string)) {
	for lang, text := range nounIrregular {
		for _, line := range strings.Split(text, "\n") {
			noun, forms, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			noun = strings.TrimSpace(noun)
			for _, w := range strings.Fields(forms) {
				f(lang, w, noun)
				if lang == "en" {
					f(lang, w+"s", noun) // its possessive, the apostrophe dropped: "children's" is read "childrens"
				}
				if u := unaccented(w); u != w && u != unaccented(noun) {
					f(lang, u, noun)
				}
			}
		}
	}
}

// nounSingular returns the singular of a lower-case word when it is one of the plurals nounForms
// holds in lang (English for another language).
func nounSingular(w, lang string) (string, bool) {
	m, ok := nounForms[lang]
	if !ok {
		m = nounForms["en"]
	}
	n, ok := m[w]
	return n, ok
}
