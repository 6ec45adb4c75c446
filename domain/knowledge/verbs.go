package knowledge

import "strings"

// The Snowball stemmers strip a verb's endings but not the changes of its root: English
// "bought" stays "bought" and "buy" "buy"; Portuguese "trouxe" is "troux" and "trazer" "traz";
// Spanish "conduzco" is "conduzc" and "conducir" "conduc". So "i broke a tooth" does not meet "a
// broken tooth". verbForms maps such a form to its verb's infinitive, which the stemmer then
// reads as it reads the verb's regular forms (stemWord), for the Brain's words and the
// question's alike: one lookup a word.
//
// The forms are made by rule where there is one (the Spanish verbs of -zco), listed where there
// is none (English past tenses and participles, a few Portuguese and Spanish ones), for verbs
// customers of small businesses use. Left out, in verbExcluded with the reason: forms that are
// also a common noun or adjective, or another verb's form, which would join unrelated things
// ("left", the side; "spoke", a wheel's; "visto", a visa); verbs that say little and are asked
// with every topic ("hacer", "fazer", "go", "make"), whose joining would only add noise; and a
// few measured to cost answers ("abrir", "sent", "paid": verbExcluded). A light verb's regular
// forms are stop words or light words already (stopwords, lightWords). Spanish verbs whose root
// changes ("pierde" and "perder", "cuentan" and "contamos") were joined by rule too and are not:
// on the blind splits that cost a wrong answer for the right one it gained
// (testdata/eval/README.md, round 28).

// esZco are the Spanish verbs in -cer and -cir whose first person and subjunctive take -zc-
// ("conozco", "ofrezca"); those in -ducir have a preterite in -uj- too ("condujo").
const esZco = `conocer reconocer ofrecer agradecer aparecer desaparecer pertenecer establecer
merecer crecer obedecer permanecer conducir traducir producir reducir introducir`

// verbIrregular are the forms no rule above makes: "verb: form form …", per language. English
// irregular verbs by their past tense and past participle; the participles of Spanish and
// Portuguese that are not of -ado, -ido.
var verbIrregular = map[string]string{
	"en": `
arise: arose arisen
awake: awoke awoken
beat: beaten
become: became
begin: began begun
bend: bent
bite: bitten
bleed: bled
blow: blew blown
break: broke broken
breed: bred
bring: brought
build: built
burn: burnt
buy: bought
catch: caught
choose: chose chosen
deal: dealt
dig: dug
draw: drew drawn
dream: dreamt
drive: drove driven
eat: ate eaten
fall: fell fallen
feed: fed
fight: fought
flee: fled
fly: flew flown
forbid: forbade forbidden
forget: forgot forgotten
forgive: forgave forgiven
freeze: froze frozen
grow: grew grown
hang: hung
hear: heard
hide: hid hidden
hold: held
keep: kept
kneel: knelt
lean: leant
learn: learnt
lend: lent
lose: lost
meet: met
mislay: mislaid
mistake: mistook mistaken
outgrow: outgrew outgrown
overpay: overpaid
overtake: overtook overtaken
pay: paid
prepay: prepaid
rebuild: rebuilt
redo: redid redone
repay: repaid
resell: resold
retake: retook retaken
rewrite: rewrote rewritten
ride: rode ridden
ring: rang
rise: risen
run: ran
see: seen
seek: sought
sell: sold
send: sent
sew: sewn
shake: shook shaken
shine: shone
show: shown
shrink: shrank shrunk
sing: sang sung
sink: sank sunk
sleep: slept
slide: slid
speak: spoken
spend: spent
spill: spilt
spin: spun
spoil: spoilt
stand: stood
steal: stolen
sting: stung
sweep: swept
swim: swam swum
swing: swung
take: took taken
teach: taught
tear: torn
throw: threw thrown
undergo: underwent undergone
understand: understood
undertake: undertook undertaken
wake: woke woken
wear: wore worn
weep: wept
win: won
withdraw: withdrew withdrawn
withhold: withheld
write: wrote written
`,
	"es": `
cubrir: cubierto cubiertos
escribir: escrito escrita escritos escritas
romper: roto rota rotos rotas
devolver: devuelto devuelta devueltos devueltas
envolver: envuelto envuelta envueltos envueltas
resolver: resuelto resuelta resueltos resueltas
traer: traigo traiga traigan traigas trajo trajeron trajimos traído
caber: quepo quepa quepan
adquirir: adquiero adquiere adquieren adquiera adquieran
`,
	"pt": `
escrever: escrito escrita escritos escritas
trazer: traga tragam tragas trouxe trouxeram trouxemos trouxer
perder: perco percam
doer: dói doem doe doeu doía
ouvir: ouço ouça ouçam
pedir: peço peçam
medir: meço meça meçam
dormir: durmo durma durmam
seguir: sigo siga sigam
servir: sirvo sirva sirvam
preferir: prefiro prefira prefiram
repetir: repito repita repitam
subir: sobe sobem
caber: caibo caiba caibam coube
tossir: tusso
`,
}

// verbExcluded are the forms the rules above make, or a reader would expect, that are left out,
// and the verbs left out whole, with the reason: "language:form" or "language:verb".
var verbExcluded = map[string]string{
	// Spanish forms that are also a noun or an adjective of their own.
	"es:cubierta":  "a tyre (Argentina), a deck, a cover",
	"es:cubiertas": "tyres",
	"es:traje":     "a suit",
	"es:visto":     "ver's «seen» as well as vestir's",
	// Spanish verbs left out whole.
	"es:ir":       "a light verb; fue, va, voy",
	"es:hacer":    "a light verb: hace, hacen, hacemos already meet; hago, hecho measured",
	"es:decir":    "a light verb (dice, dijo, dicho)",
	"es:dar":      "a light verb (doy, dio)",
	"es:saber":    "a light verb (sé, supe)",
	"es:poner":    "puesto is a stall, a job",
	"es:ver":      "visto, vista: seen, a view; a light verb",
	"es:abrir":    "its every form stems apart («abren», «abre», «abrimos», «abierto»); joined, «abre domingo?» met «abrindo 48 horas antes» (bookings opening), not the hours: measured",
	"es:salir":    "salir stems as sal (salt)",
	"es:imprimir": "impreso meets impresión as it is, not imprimir",
	// English forms that are also a noun or an adjective, or another verb.
	"en:left":    "the side («turn left», «on your left»)",
	"en:saw":     "a tool",
	"en:found":   "found is found's own verb (to found), «foundation»",
	"en:lay":     "lie's past, and lay's own present",
	"en:laid":    "lay: to lay, laid back",
	"en:lie":     "to lie, to tell lies",
	"en:lain":    "lie",
	"en:felt":    "the fabric",
	"en:ground":  "the ground floor, the ground",
	"en:rose":    "a flower",
	"en:bore":    "to bore; a bore",
	"en:born":    "born is birth, bear a bear",
	"en:wound":   "an injury (wind: wound)",
	"en:bound":   "bound for, bound by",
	"en:spoke":   "a wheel's spoke",
	"en:led":     "a LED light",
	"en:lead":    "lead, the metal; a lead (leash)",
	"en:read":    "the same spelling",
	"en:tore":    "rare; tear is crying as well",
	"en:bit":     "a bit",
	"en:shot":    "a vaccine shot, an espresso shot",
	"en:stole":   "a scarf",
	"en:stuck":   "stick: a USB stick, a glue stick",
	"en:sat":     "Saturday",
	"en:lit":     "light: not heavy",
	"en:spelt":   "a flour",
	"en:drunk":   "an adjective of its own",
	"en:rung":    "a ladder's rung",
	"en:sprung":  "spring, the season",
	"en:sprang":  "spring, the season",
	"en:fell":    "fall: autumn («classes in the fall»)",
	"en:said":    "a light verb",
	"en:told":    "a light verb (tell)",
	"en:thought": "a noun; a light verb",
	"en:meant":   "mean: unkind, average",
	"en:made":    "a light verb (make, made are light words)",
	"en:did":     "a stop word",
	"en:done":    "do is a stop word",
	"en:got":     "a stop word",
	"en:gotten":  "get is a stop word",
	"en:had":     "a stop word",
	"en:went":    "a light verb (go)",
	"en:gone":    "a light verb (go)",
	"en:came":    "a light verb (come)",
	"en:gave":    "a light verb (give)",
	"en:given":   "given that; a light verb",
	"en:knew":    "a light verb (know)",
	"en:known":   "a light verb (know), «known issues»",
	"en:sent":    "send is in the thesaurus's group of ship, deliver, dispatch: «when will it be sent out?» then took a shipping page's delivery times for its dispatch day (measured)",
	"en:paid":    "«get paid» is earning, not paying: on CLINC, «when was i paid most recently» (payday) went to transactions, «when my bill should be paid» to paying a bill (measured)",
	"en:ran":     "«ran out» met «run» items of other intents on CLINC (measured)",
	"en:ate":     "a stop word (Portuguese «até», folded): never stemmed",
	"en:sworn":   "a sworn translator",
	// Portuguese.
	"pt:trago":     "a drink (pt-BR)",
	"pt:perca":     "a perch (the fish)",
	"pt:peça":      "a part, a piece",
	"pt:peças":     "parts",
	"pt:consigo":   "with him, with you (conseguir)",
	"pt:visto":     "a visa",
	"pt:posto":     "a petrol station, a post (pôr)",
	"pt:pus":       "pus (pôr)",
	"pt:saia":      "a skirt (sair)",
	"pt:coberto":   "cobrir stems as cobrar (to charge)",
	"pt:abrir":     "as es:abrir",
	"pt:fazer":     "a light verb: faz, fazem, fazemos already meet; fiz, feito measured",
	"pt:sentir":    "sentir stems as sentar (to sit)",
	"pt:poder":     "a light verb; pode, podem, posso are stop words",
	"pt:ter":       "a light verb; tem, tenho are stop words",
	"pt:ir":        "a light verb",
	"pt:vir":       "a light verb",
	"pt:ser":       "a stop word",
	"pt:dizer":     "a light verb",
	"pt:dar":       "a light verb",
	"pt:saber":     "a light verb",
	"pt:querer":    "a light verb",
	"pt:ver":       "visto is a visa; a light verb",
	"pt:conseguir": "consigo is «with him»; a light verb",
}

// verbForms maps, per language, the forms esZco and verbIrregular make (lower
// case, accents as written and without them) to their verb's infinitive.
var verbForms = buildVerbForms()

// verbLemma returns the infinitive of a lower-case word's verb when the word is one of the forms
// verbForms holds in lang.
func verbLemma(w, lang string) (string, bool) {
	var m map[string]string
	switch lang {
	case "es":
		m = verbForms.es
	case "pt":
		m = verbForms.pt
	default:
		m = verbForms.en
	}
	v, ok := m[w]
	return v, ok
}

// verbTables are verbForms's three languages' maps.
type verbTables struct{ en, es, pt map[string]string }

// buildVerbForms makes verbForms: the rules' forms and the lists' (eachVerbForm), each also
// without its accents, less the excluded ones.
func buildVerbForms() verbTables {
	t := verbTables{en: map[string]string{}, es: map[string]string{}, pt: map[string]string{}}
	tables := map[string]map[string]string{"en": t.en, "es": t.es, "pt": t.pt}
	eachVerbForm(func(lang, form, verb string) {
		if _, ok := tables[lang][form]; !ok { // the first verb keeps a form two would make (none does: TestVerbForms)
			tables[lang][form] = verb
		}
	})
	return t
}

// eachVerbForm calls f with every form the rules and lists make and its verb, as written and
// without its accents, but the excluded ones (verbExcluded) and a form that is its verb.
func eachVerbForm(f func(lang, form, verb string)) {
	add := func(lang, form, verb string) {
		for i, w := range []string{form, unaccented(form)} {
			if _, out := verbExcluded[lang+":"+w]; out || w == verb || i == 1 && w == form {
				continue
			}
			f(lang, w, verb)
		}
	}
	for _, v := range strings.Fields(esZco) {
		for _, w := range esZcoForms(v) {
			add("es", w, v)
		}
	}
	for _, lang := range []string{"en", "es", "pt"} {
		for _, line := range strings.Split(verbIrregular[lang], "\n") {
			verb, forms, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			for _, w := range strings.Fields(forms) {
				add(lang, w, strings.TrimSpace(verb))
			}
		}
	}
}

// unaccented returns a word with its vowels' accents dropped (á → a, ç → c; ñ kept: "tiñe" is
// not "tine").
func unaccented(w string) string { return accentsOff.Replace(w) }

var accentsOff = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "â", "a", "ê", "e",
	"ô", "o", "ã", "a", "õ", "o", "à", "a", "ç", "c")

// esZcoForms returns the forms of a Spanish verb in -cer or -cir with -zc- (the present's first
// person, the present subjunctive: "conozco", "ofrezca"), and of one in -ducir its preterite
// ("condujo").
func esZcoForms(verb string) []string {
	base := verb[:len(verb)-3] // cono, ofre, condu
	out := []string{base + "zco", base + "zca", base + "zcas", base + "zcan", base + "zcamos"}
	if strings.HasSuffix(verb, "ducir") {
		out = append(out, base+"je", base+"jo", base+"jimos", base+"jeron", base+"jera", base+"jeran")
	}
	return out
}
