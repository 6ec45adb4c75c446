package local

import (
	"strings"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/spanish"
)

// Stemmer is the Snowball stemmer of English, Portuguese and Spanish (the Snowball project's
// algorithms as generated for Go by blevesearch/snowballstem), which the Brain's index matches
// FAQ questions by.
type Stemmer struct{}

// NewStemmer returns the Snowball stemmer.
func NewStemmer() *Stemmer { return &Stemmer{} }

// Stem returns the stem of a lower-case word in lang ("pt", "es"; anything else is read as
// English). Accents are kept: the Portuguese and Spanish stemmers read them.
func (*Stemmer) Stem(word, lang string) string {
	if lang == "pt" {
		word = singularAo(word)
	}
	env := snowballstem.NewEnv(word)
	switch lang {
	case "pt":
		portuguese.Stem(env)
	case "es":
		spanish.Stem(env)
	default:
		english.Stem(env)
	}
	return env.Current()
}

// singularAo writes a Portuguese plural of -ão in -ões or -ães as its singular, which Snowball's
// stemmer does not meet otherwise: "opções" stems to "opçõ" and "opção" to "opçã", "limões" and
// "limão" alike (its -ãos plurals, "mãos", already meet).
func singularAo(word string) string {
	for _, plural := range []string{"ões", "ães"} {
		if stem, ok := strings.CutSuffix(word, plural); ok && stem != "" {
			return stem + "ão"
		}
	}
	return word
}
