package local

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
)

// evalFile is the intent set the engine is measured on (testdata/eval/README.md): CLINC150, ten
// phrasings of each of 150 intents as FAQ items whose answer names the intent, and its dev split.
const evalFile = "../../../testdata/eval/clinc150-10shot.json"

// evalSet is a file of the shape of evalFile: FAQ items by intent and questions with the intent
// that answers them ("oos": none does, the right reply is "I don't know").
type evalSet struct {
	FAQ []struct {
		Question string `json:"question"`
		Intent   string `json:"intent"`
	} `json:"faq"`
	Dev []evalQuestion `json:"dev"`
}

type evalQuestion struct {
	Text   string `json:"text"`
	Intent string `json:"intent"`
}

// outOfScope is the intent of a question no FAQ item answers.
const outOfScope = "oos"

func loadEvalSet(t testing.TB, path string) evalSet {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read the eval set: %v", err)
	}
	var s evalSet
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return s
}

// pick returns the questions at positions keep(i) among those of their intent, i counting from
// 0 in file order per intent; out-of-scope questions are all kept.
func pick(dev []evalQuestion, keep func(i int) bool) []evalQuestion {
	seen := map[string]int{}
	var out []evalQuestion
	for _, q := range dev {
		i := seen[q.Intent]
		seen[q.Intent]++
		if q.Intent == outOfScope || keep(i) {
			out = append(out, q)
		}
	}
	return out
}

// evalFigures are the answer-quality figures of one run.
type evalFigures struct {
	inScope, oos                  int
	right, wrong, abstained       int // of in-scope questions
	refused                       int // of out-of-scope questions
	recall1, recall5              int // of in-scope questions: the right intent among the top hits
	recallContext                 int // of in-scope questions: the right intent among the passages a model upstream is given
	elapsed                       time.Duration
	perReply                      time.Duration
	wrongExamples, missedExamples []string
}

func (f evalFigures) pct(n, of int) float64 { return 100 * float64(n) / float64(max(of, 1)) }

func (f evalFigures) String() string {
	var b strings.Builder
	b.WriteString(strings.Join([]string{
		"in-scope " + itoa(f.inScope) + ", out-of-scope " + itoa(f.oos),
		"top-1 " + pct(f.pct(f.right, f.inScope)) + ", wrong " + pct(f.pct(f.wrong, f.inScope)) +
			", abstained " + pct(f.pct(f.abstained, f.inScope)),
		"oos refused " + pct(f.pct(f.refused, f.oos)),
		"recall@1 " + pct(f.pct(f.recall1, f.inScope)) + ", recall@5 " + pct(f.pct(f.recall5, f.inScope)) +
			", in the context " + pct(f.pct(f.recallContext, f.inScope)),
		"search+reply " + f.perReply.String() + " per question",
	}, "; "))
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

func pct(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + " %" }

// answered reads the intent an engine reply gives: the last "[intent]" in it, or "" for a reply
// that gives no FAQ answer.
var answered = regexp.MustCompile(`\[([a-z0-9_]+)\]`)

func intentOf(text string) string {
	m := answered.FindAllStringSubmatch(text, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// evalIndex loads the set's FAQ items the way the Brain does (evalFAQ).
func evalIndex(t testing.TB, s evalSet) *knowledge.Index {
	t.Helper()
	return knowledge.NewIndex(nil, evalFAQ(t, s), NewStemmer(), evalWords(t))
}

// evalFAQ returns the set's FAQ items as the Brain holds them: each question embedded by the
// built-in embedder, the answer "[intent]".
func evalFAQ(t testing.TB, s evalSet) []knowledge.FAQ {
	t.Helper()
	qs := make([]string, len(s.FAQ))
	for i, f := range s.FAQ {
		qs[i] = f.Question
	}
	vecs, err := NewEmbedder().Embed(context.Background(), qs, 0)
	if err != nil {
		t.Fatal(err)
	}
	faqs := make([]knowledge.FAQ, len(s.FAQ))
	for i, f := range s.FAQ {
		faqs[i] = knowledge.FAQ{ID: "faq" + strconv.Itoa(i), Question: f.Question, Answer: "[" + f.Intent + "]", Vector: vecs[i]}
	}
	return faqs
}

// evalProfile is the business the eval questions are asked of.
var evalProfile = profile.Profile{BusinessName: "Eval", Languages: []string{"en"}, Contact: profile.Contact{Email: "help@eval.example"}}

// runEval asks every question of qs as the agent does (search 5 hits, then the engine's reply).
func runEval(t testing.TB, ix *knowledge.Index, qs []evalQuestion, minConfidence float64) evalFigures {
	t.Helper()
	start := time.Now()
	hits := searchEval(t, ix, qs)
	f := scoreEval(qs, hits, minConfidence)
	f.elapsed = time.Since(start)
	f.perReply = f.elapsed / time.Duration(max(len(qs), 1))
	return f
}

// searchEval returns, for each question, the passages of the Brain a model upstream is given as the
// agent asks (knowledge.Index.SearchContext): its 5 hits (engineHits), then more up to
// knowledge.ContextChars.
func searchEval(t testing.TB, ix *knowledge.Index, qs []evalQuestion) [][]knowledge.Hit {
	t.Helper()
	emb := NewEmbedder()
	out := make([][]knowledge.Hit, len(qs))
	for i, q := range qs {
		vecs, err := emb.Embed(context.Background(), []string{q.Text}, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, out[i] = ix.SearchContext(q.Text, vecs[0], 5, knowledge.ContextChars)
	}
	return out
}

// engineHits are the hits of passages searchEval returned: the first 5, Search's.
func engineHits(passages []knowledge.Hit) []knowledge.Hit { return passages[:min(5, len(passages))] }

// scoreEval returns the figures of the engine's replies to the questions given their hits.
func scoreEval(qs []evalQuestion, hits [][]knowledge.Hit, minConfidence float64) evalFigures {
	var f evalFigures
	for n, q := range qs {
		got := intentOf(reply(conversation.Turn{Profile: evalProfile, Message: q.Text, Hits: engineHits(hits[n]), Lang: "en"}, limits{minConfidence, MinScore}))
		if q.Intent == outOfScope {
			f.oos++
			if got == "" {
				f.refused++
			}
			continue
		}
		f.inScope++
		switch got {
		case q.Intent:
			f.right++
		case "":
			f.abstained++
			f.missedExamples = append(f.missedExamples, q.Text+" → "+q.Intent)
		default:
			f.wrong++
			f.wrongExamples = append(f.wrongExamples, q.Text+" → "+got+" (want "+q.Intent+")")
		}
		for i, h := range hits[n] {
			if h.Kind == knowledge.KindFAQ && intentOf(h.FAQ.Answer) == q.Intent {
				if i == 0 {
					f.recall1++
				}
				if i < 5 {
					f.recall5++
				}
				f.recallContext++
				break
			}
		}
	}
	return f
}

// TestEvalFigures prints the figures of the built-in engine on the eval set: the regression
// sample, and the two halves of dev (even and odd positions per intent: tune on one, check the
// other). It runs with SVC_EVAL=1 (make eval); SVC_EVAL_FILE names another file of the same
// shape, SVC_EVAL_SWEEP=1 sweeps MinConfidence instead, SVC_EVAL_VERBOSE=1 lists wrong answers,
// SVC_EVAL_PHRASINGS=k keeps the first k FAQ items of each intent, SVC_EVAL_WORDS=n the n most
// frequent words of the word vectors (0: none), SVC_EVAL_TABLE=file another table of them.
func TestEvalFigures(t *testing.T) {
	if os.Getenv("SVC_EVAL") == "" {
		t.Skip("prints figures and checks nothing: make eval runs it (SVC_EVAL=1)")
	}
	path := cmp.Or(os.Getenv("SVC_EVAL_FILE"), evalFile)
	s := loadEvalSet(t, path)
	if v := os.Getenv("SVC_EVAL_PHRASINGS"); v != "" {
		// Only the first k FAQ items of each intent: an FAQ of fewer phrasings per answer.
		k, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		faq := s.FAQ[:0:0]
		for _, f := range s.FAQ {
			if seen[f.Intent]++; seen[f.Intent] <= k {
				faq = append(faq, f)
			}
		}
		s.FAQ = faq
	}
	ix := evalIndex(t, s)
	if v := os.Getenv("SVC_EVAL_SWEEP"); v != "" {
		// Every threshold on dev-even; the one of most right answers with at most 12 % wrong
		// and at least 60 % of out-of-scope questions refused is then checked on dev-odd.
		even := pick(s.Dev, func(i int) bool { return i%2 == 0 })
		odd := pick(s.Dev, func(i int) bool { return i%2 == 1 })
		evenHits := searchEval(t, ix, even)
		bestTau, bestRight := -1.0, -1
		for k := 4; k <= 60; k++ {
			tau := float64(k) / 100
			f := scoreEval(even, evenHits, tau)
			t.Logf("tau %.2f dev-even: %s", tau, f)
			if f.pct(f.wrong, f.inScope) <= 12 && f.pct(f.refused, f.oos) >= 60 && f.right > bestRight {
				bestTau, bestRight = tau, f.right
			}
		}
		if bestTau >= 0 {
			t.Logf("best tau %.2f: dev-even %s", bestTau, scoreEval(even, evenHits, bestTau))
			t.Logf("best tau %.2f: dev-odd %s", bestTau, runEval(t, ix, odd, bestTau))
		}
		return
	}
	for _, run := range []struct {
		name string
		keep func(int) bool
	}{
		{"sample", func(i int) bool { return i < 2 }},
		{"dev-even", func(i int) bool { return i%2 == 0 }},
		{"dev-odd", func(i int) bool { return i%2 == 1 }},
		{"dev", func(int) bool { return true }},
	} {
		f := runEval(t, ix, pick(s.Dev, run.keep), MinConfidence)
		t.Logf("%s (%s): %s", run.name, filepath.Base(path), f)
		if os.Getenv("SVC_EVAL_VERBOSE") != "" && run.name == "dev-even" {
			for _, e := range f.wrongExamples {
				t.Logf("wrong: %s", e)
			}
		}
	}
}

// TestEvalRegression guards the engine's answer quality on a fixed sample of the eval set (the
// first 2 dev questions of each of the 150 intents and the 100 out-of-scope ones): floors a
// little under the figures reached (testdata/eval/README.md), so that a change that makes
// answers worse fails.
func TestEvalRegression(t *testing.T) {
	s := loadEvalSet(t, evalFile)
	f := runEval(t, evalIndex(t, s), pick(s.Dev, func(i int) bool { return i < 2 }), MinConfidence)
	t.Logf("sample: %s", f)
	if f.inScope != 300 || f.oos != 100 {
		t.Fatalf("the sample has %d in-scope and %d out-of-scope questions; want 300 and 100", f.inScope, f.oos)
	}
	for _, c := range []struct {
		what       string
		got, floor float64
		atMost     bool
	}{
		{"in-scope top-1 %", f.pct(f.right, f.inScope), 74, false},
		{"wrong answers %", f.pct(f.wrong, f.inScope), 12, true},
		{"out-of-scope refused %", f.pct(f.refused, f.oos), 78, false},
		{"retrieval recall@5 %", f.pct(f.recall5, f.inScope), 94, false},
	} {
		if c.atMost && c.got > c.floor || !c.atMost && c.got < c.floor {
			t.Errorf("%s: %.1f, past its bound %.0f", c.what, c.got, c.floor)
		}
	}
}

// TestEvalCloseIntents checks two rules of a large English FAQ (a classifier and word vectors) on
// the eval set's FAQ, with questions of its own: an answer matched by the meaning of the words
// is given though the question shares no word with its items ("who built you" for "who made
// you"), and an item that has all the terms of the question but not the answer of the best score
// is no Strong hit ("whats my name" has the terms of "what is your name", stop words left out,
// and is asked for the user's name).
func TestEvalCloseIntents(t *testing.T) {
	s := loadEvalSet(t, evalFile)
	ix := evalIndex(t, s)
	for _, c := range []struct{ question, want string }{
		{"who built you", "who_made_you"},
		{"who manufactured you", "who_made_you"},
		{"whats my name", "user_name"},
		{"my name", "user_name"},
	} {
		hits := engineHits(searchEval(t, ix, []evalQuestion{{Text: c.question}})[0])
		got := intentOf(reply(conversation.Turn{Profile: evalProfile, Message: c.question, Hits: hits, Lang: "en"}, shipped))
		if got != c.want {
			t.Errorf("%q: answered %q, want %q", c.question, got, c.want)
		}
		for _, h := range hits {
			if h.Strong && intentOf(h.FAQ.Answer) != c.want {
				t.Errorf("%q: %s is a Strong hit", c.question, h.FAQ.Answer)
			}
		}
	}
}

// BenchmarkEvalReply measures one customer question against the eval set's 1,500 FAQ items: the
// Brain's search (with the query's vector made beforehand) and the engine's reply.
func BenchmarkEvalReply(b *testing.B) {
	s := loadEvalSet(b, evalFile)
	ix := evalIndex(b, s)
	qs := pick(s.Dev, func(i int) bool { return i < 2 })
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Text
	}
	vecs, err := NewEmbedder().Embed(context.Background(), texts, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := qs[i%len(qs)]
		hits := ix.Search(q.Text, vecs[i%len(qs)], 5)
		_ = reply(conversation.Turn{Profile: evalProfile, Message: q.Text, Hits: hits, Lang: "en"}, shipped)
	}
}

// BenchmarkEvalIndex measures building the Brain's index of the eval set's 1,500 FAQ items (150
// answers, so with the classifier trained), their vectors made beforehand.
func BenchmarkEvalIndex(b *testing.B) {
	faqs := evalFAQ(b, loadEvalSet(b, evalFile))
	b.ReportAllocs()
	for b.Loop() {
		knowledge.NewIndex(nil, faqs, NewStemmer(), evalWords(b))
	}
}

// sharedWords is the table of word vectors of the package's tests, read once.
var sharedWords = NewWordVectors()

// evalWords returns the table of word vectors the eval runs with: the built-in one, or its
// SVC_EVAL_WORDS most frequent words, or none with SVC_EVAL_WORDS=0; SVC_EVAL_TABLE names
// another table (of the same format) to read instead.
func evalWords(t testing.TB) knowledge.WordVectors {
	t.Helper()
	s, file := os.Getenv("SVC_EVAL_WORDS"), os.Getenv("SVC_EVAL_TABLE")
	if s == "" && file == "" {
		return sharedWords
	}
	n := 0
	if s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return nil
		}
	}
	data := wordTable
	if file != "" {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	table, err := readWordVectors(bytes.NewReader(data), n)
	if err != nil {
		t.Fatal(err)
	}
	return &WordVectors{t: table}
}
