package local

import (
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
