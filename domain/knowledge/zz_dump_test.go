package knowledge

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

type enStem struct{}

func (enStem) Stem(w, lang string) string {
	env := snowballstem.NewEnv(w)
	english.Stem(env)
	return env.Current()
}

func TestZZDump(t *testing.T) {
	if os.Getenv("ZZDUMP") == "" {
		t.Skip()
	}
	raw, _ := os.ReadFile("../../testdata/eval/clinc150-10shot.json")
	var s struct {
		FAQ []struct{ Question, Intent string }
		Dev []struct{ Text, Intent string }
	}
	json.Unmarshal(raw, &s)
	var faqs []FAQ
	for _, f := range s.FAQ {
		faqs = append(faqs, FAQ{Question: f.Question, Answer: f.Intent})
	}
	m := newFAQMatcher(faqs, "", enStem{})
	out, _ := os.Create("/tmp/i19dump.jsonl")
	enc := json.NewEncoder(out)
	emit := func(split, text, intent string) {
		fs := map[string]float64{}
		for _, f := range m.features(text) {
			fs[f.key] = f.weight
		}
		var seq []string
		for _, w := range lowerWords(text) {
			folded := foldWord(w)
			if _, stop := stopwords[folded]; stop {
				seq = append(seq, folded)
			} else {
				seq = append(seq, foldWord(m.stemWord(w, "en")))
			}
		}
		enc.Encode(map[string]any{"split": split, "text": text, "intent": intent, "feats": fs, "seq": seq})
	}
	for _, f := range s.FAQ {
		emit("faq", f.Question, f.Intent)
	}
	for _, d := range s.Dev {
		emit("dev", d.Text, d.Intent)
	}
	out.Close()
}
