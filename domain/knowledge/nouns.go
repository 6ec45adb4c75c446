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
var nounForms = formTables(nounIrregular)

// formTables maps, per language, the forms a table of "word: form form …" lines lists (eachForm)
// to their word.
func formTables(table map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	eachForm(table, func(lang, form, word string) {
		if out[lang] == nil {
			out[lang] = map[string]string{}
		}
		out[lang][form] = word
	})
	return out
}

// formIn returns the word of a lower-case form when tables (formTables) hold it in lang
// (English for another language).
func formIn(tables map[string]map[string]string, w, lang string) (string, bool) {
	m, ok := tables[lang]
	if !ok {
		m = tables["en"]
	}
	n, ok := m[w]
	return n, ok
}

// eachForm calls f with every form a table of "word: form form …" lines per language lists and
// its word, as written and without its accents (unless that is its word unaccented); an English
// form's possessive too.
func eachForm(table map[string]string, f func(lang, form, word string)) {
	for lang, text := range table {
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
	return formIn(nounForms, w, lang)
}

// The stemmers do not join a verb and the noun of its action when the noun's root differs:
// Spanish "imprimimos" is "imprim" and "impresión" "impresion", Portuguese "inscrevo" "inscrev"
// and "inscrição" "inscriçã". So "hacéis impresión en A3?" does not meet "Imprimimos en A3". actionNouns lists, for verbs customers of
// small businesses use, such nouns (singular and plural), which stemWord reads as the verb, for
// the Brain's words and the question's alike. Only nouns of the one meaning of their verb's
// action: left out "escritura" (a deed too), "apertura", "abertura", "cierre" (the hours: the
// verbs "abrir" and "cerrar" are measured apart, verbExcluded), and pairs the stemmers join
// already ("reserva", "entrega", "envío", "pago", "recogida", "cancelación", "matrícula").
// English none: "delivery", "subscription", "registration" read as their verbs changed no
// answer on the visible splits and cost a passage's rank (testdata/eval/README.md, round 31).
var actionNouns = map[string]string{
	"es": `
imprimir: impresión impresiones
inscribir: inscripción inscripciones
suscribir: suscripción suscripciones
devolver: devolución devoluciones
traducir: traducción traducciones`,
	"pt": `
imprimir: impressão impressões
inscrever: inscrição inscrições
subscrever: subscrição subscrições
devolver: devolução devoluções
traduzir: tradução traduções`,
}

// actionVerbs maps, per language, the nouns actionNouns lists (lower case, accents as written
// and without them) to their verb.
var actionVerbs = formTables(actionNouns)

// actionVerb returns the verb of a lower-case word when it is one of the nouns of its action
// actionVerbs holds in lang (English for another language).
func actionVerb(w, lang string) (string, bool) {
	return formIn(actionVerbs, w, lang)
}
