//go:build eval

package tests

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestEval measures the agent's answer quality through the public API (`make eval`; not part of
// `make test`): it loads an intent set (SVC_EVAL_FILE, default testdata/eval/clinc150-10shot.json:
// {"faq":[{question,intent}],"dev":[{text,intent}]}) into a fresh embedded service as FAQ items
// whose answer is "[intent]", asks the dev questions through POST /v1/chat (SVC_EVAL_DEV=sample:
// the first 2 of each intent and every out-of-scope one, the default; all: every one) and prints
//
//   - with the built-in engine: in-scope top-1 accuracy, wrong answers, abstentions ("I don't
//     know" with the contact) and out-of-scope ("oos") questions refused;
//   - with an upstream model (a recording stand-in on loopback): retrieval recall@1 and @5, whether
//     the right intent's answer is among the first 5 passages the agent gives the upstream (its
//     hits), and among all of them (the hits, then more up to knowledge.ContextChars).
//
// The chat limit is 30 messages a minute per account, so the questions are shared among as many
// accounts as keep each within it, every one loaded with the whole FAQ set (100 items a call).
func TestEval(t *testing.T) {
	path := cmp.Or(os.Getenv("SVC_EVAL_FILE"), filepath.Join(repoRoot(t), "testdata", "eval", "clinc150-10shot.json"))
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		FAQ []struct {
			Question string `json:"question"`
			Intent   string `json:"intent"`
		} `json:"faq"`
		Dev []struct {
			Text   string `json:"text"`
			Intent string `json:"intent"`
		} `json:"dev"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	items := make([]map[string]string, len(set.FAQ))
	for i, f := range set.FAQ {
		items[i] = map[string]string{"question": f.Question, "answer": "[" + f.Intent + "]"}
	}
	type question struct{ text, intent string }
	var qs []question
	seen := map[string]int{}
	all := os.Getenv("SVC_EVAL_DEV") == "all"
	for _, d := range set.Dev {
		seen[d.Intent]++
		if all || d.Intent == "oos" || seen[d.Intent] <= 2 {
			qs = append(qs, question{d.Text, d.Intent})
		}
	}
	const perAccount = 30 // chat messages a minute per account
	accounts := (len(qs) + perAccount - 1) / perAccount

	// ask loads the FAQ into accounts of a fresh service and returns the reply to each question.
	ask := func(t *testing.T, extra ...string) []string {
		s := newEmbedded(t)
		api := s.startAPI(t, extra...)
		keys := make([]string, accounts)
		for i := range keys {
			keys[i] = s.newAccount(t, "--plan", "pro", "--name", "Eval "+strconv.Itoa(i)).key
			if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": "Eval",
				"languages": []string{"en"}, "contact": map[string]any{"email": "help@eval.example"}}, bearer(keys[i])...); r.status != http.StatusOK {
				t.Fatalf("PATCH /v1/agent: %s", r)
			}
			for start := 0; start < len(items); start += 100 {
				batch := items[start:min(start+100, len(items))]
				if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": batch}, bearer(keys[i])...); r.status != http.StatusOK {
					t.Fatalf("POST /v1/knowledge/faq: %s", r)
				}
			}
		}
		replies := make([]string, len(qs))
		var wg sync.WaitGroup
		for w := range accounts {
			wg.Go(func() {
				for i := w; i < len(qs); i += accounts {
					for {
						r := callJSON(t, "POST", api.URL()+"/v1/chat", map[string]any{"message": qs[i].text,
							"conversation_id": "eval-" + strconv.Itoa(i)}, bearer(keys[w])...)
						if r.status == http.StatusTooManyRequests {
							time.Sleep(time.Second) // a client waiting out the limit, not a test of timing
							continue
						}
						if r.status != http.StatusOK || r.body == nil {
							t.Errorf("chat %q: %s", qs[i].text, r)
						} else {
							replies[i] = r.body.str("reply")
						}
						break
					}
				}
			})
		}
		wg.Wait()
		return replies
	}
	intent := regexp.MustCompile(`\[([a-z0-9_]+)\]`)
	last := func(s string) string {
		m := intent.FindAllStringSubmatch(s, -1)
		if len(m) == 0 {
			return ""
		}
		return m[len(m)-1][1]
	}
	pct := func(n, of int) string { return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(max(of, 1))) }

	t.Logf("%s: %d FAQ items, %d questions (%d accounts)", filepath.Base(path), len(items), len(qs), accounts)
	begin := time.Now()
	replies := ask(t)
	var in, right, wrong, abstained, oos, refused int
	for i, q := range qs {
		got := last(replies[i])
		if q.intent == "oos" {
			oos++
			if got == "" {
				refused++
			}
			continue
		}
		in++
		switch got {
		case q.intent:
			right++
		case "":
			abstained++
		default:
			wrong++
		}
	}
	t.Logf("built-in engine (%s): in-scope top-1 %s, wrong %s, abstained %s; out-of-scope refused %s (%d of %d)",
		time.Since(begin).Round(time.Second), pct(right, in), pct(wrong, in), pct(abstained, in), pct(refused, oos), refused, oos)

	begin = time.Now()
	fake := newFakeModel(t)
	ask(t, "SVC_MODEL_BASE_URL", fake.URL()+"/v1", "SVC_MODEL_API_KEY", "sk-eval", "SVC_MODEL_NAME", "eval")
	passages := map[string][]string{} // the intents of the passages given for each question, in order
	passage := regexp.MustCompile(`(?m)^\[\d+\] FAQ\. Q: .*\nA: \[([a-z0-9_]+)\]`)
	for _, c := range fake.calls() {
		if len(c.req.Messages) == 0 {
			continue
		}
		system, user := c.req.Messages[0].text(), c.req.Messages[len(c.req.Messages)-1].text()
		var got []string
		for _, m := range passage.FindAllStringSubmatch(system, -1) {
			got = append(got, m[1])
		}
		passages[user] = got
	}
	var r1, r5, rAll int // rAll: among all the passages given (the hits, then more up to knowledge.ContextChars)
	for _, q := range qs {
		if q.intent == "oos" {
			continue
		}
		var got []string
		for user, p := range passages {
			if strings.Contains(user, q.text) {
				got = p
				break
			}
		}
		for k, g := range got {
			if g == q.intent {
				if k == 0 {
					r1++
				}
				if k < 5 {
					r5++
				}
				rAll++
				break
			}
		}
	}
	t.Logf("retrieval for the upstream (%s): recall@1 %s, recall@5 %s, in all the passages given %s", time.Since(begin).Round(time.Second), pct(r1, in), pct(r5, in), pct(rAll, in))
}
