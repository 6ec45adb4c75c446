package tests

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/driver/sqliteshim"
)

// TestAgent patches the agent's profile and appearance and reads them back, checks the 400s that
// name the field at fault, and the 402 of a plan without web channels.
func TestAgent(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t)
			a := s.newAccount(t)
			free := s.newAccount(t, "--plan", "free")
			agentURL := api.URL() + "/v1/agent"

			t.Run("fresh agent", func(t *testing.T) {
				r := call(t, "GET", agentURL, bearer(a.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/agent: %s", r)
				}
				wantFieldsOf(t, "GET /v1/agent", r.body, map[string]any{
					"object":                 "agent",
					"configured":             false,
					"business_name":          "",
					"languages":              []any{},
					"channels.api":           true,
					"channels.web":           true,
					"channels.messaging":     true,
					"appearance.greeting":    map[string]any{},
					"appearance.suggestions": map[string]any{},
				})
			})

			t.Run("patch then read back", func(t *testing.T) {
				// Each step patches and checks the whole state so far: a field a patch leaves
				// out keeps its value.
				steps := []struct {
					name string
					path string
					body string
					want map[string]any
				}{
					{
						name: "profile",
						path: "/v1/agent",
						body: `{"business_name":"  Padaria Lu ","languages":["pt_br","EN","pt-BR"],"tone":" Warm and patient ",
							"description":"Family bakery in Lisbon since 1962.",
							"instructions":"Answer in the customer's language.\nNever promise delivery times.",
							"contact":{"email":"lu@padaria.test","phone":"+351 900 000 000"}}`,
						want: map[string]any{
							"object":          "agent",
							"configured":      true,
							"business_name":   "Padaria Lu",
							"languages":       []any{"pt-BR", "en"},
							"tone":            "Warm and patient",
							"description":     "Family bakery in Lisbon since 1962.",
							"instructions":    "Answer in the customer's language.\nNever promise delivery times.",
							"contact.email":   "lu@padaria.test",
							"contact.phone":   "+351 900 000 000",
							"contact.address": "",
							"contact.hours":   "",
							"channels.web":    true,
						},
					},
					{
						name: "partial profile keeps the rest",
						path: "/v1/agent",
						body: `{"tone":"professional","contact":{"hours":"Mon-Sat 7:00-19:00","address":"Rua Augusta 1, Lisboa"}}`,
						want: map[string]any{
							"business_name":   "Padaria Lu",
							"languages":       []any{"pt-BR", "en"},
							"tone":            "professional",
							"description":     "Family bakery in Lisbon since 1962.",
							"contact.email":   "lu@padaria.test",
							"contact.phone":   "+351 900 000 000",
							"contact.hours":   "Mon-Sat 7:00-19:00",
							"contact.address": "Rua Augusta 1, Lisboa",
						},
					},
					{
						name: "channels",
						path: "/v1/agent",
						body: `{"channels":{"web":false}}`,
						want: map[string]any{
							"channels.api":       true,
							"channels.web":       false,
							"channels.messaging": true,
							"tone":               "professional",
							"configured":         true,
						},
					},
					{
						name: "appearance",
						path: "/v1/agent/appearance",
						body: `{"name":"Lu","avatar_url":"https://cdn.padaria.test/lu.png",
							"greeting":{"en":"Hi! How can I help?","pt-br":"Olá! Como posso ajudar?"},
							"suggestions":{"en":["Opening hours?","Do you deliver?"]}}`,
						want: map[string]any{
							"appearance.name":           "Lu",
							"appearance.avatar_url":     "https://cdn.padaria.test/lu.png",
							"appearance.greeting":       map[string]any{"en": "Hi! How can I help?", "pt-BR": "Olá! Como posso ajudar?"},
							"appearance.suggestions.en": []any{"Opening hours?", "Do you deliver?"},
							"business_name":             "Padaria Lu",
							"tone":                      "professional",
							"channels.web":              false,
						},
					},
					{
						name: "appearance: null removes one language, the rest stays",
						path: "/v1/agent/appearance",
						body: `{"greeting":{"en":null},"suggestions":{"pt":["Têm pão sem glúten?"]}}`,
						want: map[string]any{
							"appearance.name":        "Lu",
							"appearance.avatar_url":  "https://cdn.padaria.test/lu.png",
							"appearance.greeting":    map[string]any{"pt-BR": "Olá! Como posso ajudar?"},
							"appearance.suggestions": map[string]any{"en": []any{"Opening hours?", "Do you deliver?"}, "pt": []any{"Têm pão sem glúten?"}},
							"business_name":          "Padaria Lu",
						},
					},
					{
						name: "appearance: an empty avatar_url clears it",
						path: "/v1/agent/appearance",
						body: `{"avatar_url":""}`,
						want: map[string]any{
							"appearance.name":       "Lu",
							"appearance.avatar_url": "",
						},
					},
				}
				for _, st := range steps {
					t.Run(st.name, func(t *testing.T) {
						r := callJSON(t, "PATCH", api.URL()+st.path, st.body, bearer(a.key)...)
						if r.status != http.StatusOK || r.body == nil {
							t.Fatalf("PATCH %s: %s", st.path, r)
						}
						wantFieldsOf(t, "PATCH "+st.path, r.body, st.want)
						if _, err := time.Parse(time.RFC3339, r.body.str("updated_at")); err != nil {
							t.Errorf("updated_at %q after a patch: %v", r.body.str("updated_at"), err)
						}
						got := call(t, "GET", agentURL, bearer(a.key)...)
						if got.status != http.StatusOK || got.body == nil {
							t.Fatalf("GET /v1/agent: %s", got)
						}
						wantFieldsOf(t, "GET /v1/agent", got.body, st.want)
						if !reflect.DeepEqual(got.body, r.body) {
							t.Errorf("GET /v1/agent differs from the PATCH answer:\nGET   %s\nPATCH %s", got.body, r.body)
						}
					})
				}

				r := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/account: %s", r)
				}
				wantFieldsOf(t, "GET /v1/account", r.body, map[string]any{
					"agent.configured":         true,
					"agent.status":             "configured",
					"agent.channels.api":       true,
					"agent.channels.web":       false,
					"agent.channels.messaging": true,
				})
			})

			t.Run("invalid", func(t *testing.T) {
				before := call(t, "GET", agentURL, bearer(a.key)...)
				if before.status != http.StatusOK || before.body == nil {
					t.Fatalf("GET /v1/agent: %s", before)
				}
				for _, tc := range []struct {
					name  string
					path  string
					body  string
					param string // "" wants no param
				}{
					{"tone on two lines", "/v1/agent", `{"tone":"warm\nrude"}`, "tone"},
					{"tone too long", "/v1/agent", `{"tone":"` + strings.Repeat("w", 201) + `"}`, "tone"},
					{"tone not a string", "/v1/agent", `{"tone":5}`, "tone"},
					{"not a language code", "/v1/agent", `{"languages":["english"]}`, "languages[0]"},
					{"one bad language among good ones", "/v1/agent", `{"languages":["en","pt-BR","e"]}`, "languages[2]"},
					{"no language", "/v1/agent", `{"languages":[]}`, "languages"},
					{"languages not a list", "/v1/agent", `{"languages":"en"}`, "languages"},
					{"blank business name", "/v1/agent", `{"business_name":"   "}`, "business_name"},
					{"invisible business name", "/v1/agent", `{"business_name":"\u200b\u2060"}`, "business_name"},
					{"contact e-mail", "/v1/agent", `{"contact":{"email":"lu at padaria"}}`, "contact.email"},
					{"unknown field", "/v1/agent", `{"colour":"red"}`, "colour"},
					{"a good field with a bad one changes nothing", "/v1/agent", `{"business_name":"Other name","tone":"rude\nand loud"}`, "tone"},
					{"empty body", "/v1/agent", ``, ""},
					{"malformed JSON", "/v1/agent", `{"tone":`, ""},
					{"avatar javascript: URL", "/v1/agent/appearance", `{"avatar_url":"javascript:alert(1)"}`, "avatar_url"},
					{"avatar relative URL", "/v1/agent/appearance", `{"avatar_url":"/lu.png"}`, "avatar_url"},
					{"avatar ftp URL", "/v1/agent/appearance", `{"avatar_url":"ftp://cdn.padaria.test/lu.png"}`, "avatar_url"},
					{"greeting language", "/v1/agent/appearance", `{"greeting":{"english!":"Hi"}}`, "greeting"},
					{"too many suggestions", "/v1/agent/appearance", `{"suggestions":{"en":["1","2","3","4","5","6","7"]}}`, "suggestions.en"},
					{"a good name with a bad avatar changes nothing", "/v1/agent/appearance", `{"name":"Other","avatar_url":"nope"}`, "avatar_url"},
				} {
					t.Run(tc.name, func(t *testing.T) {
						r := callJSON(t, "PATCH", api.URL()+tc.path, tc.body, bearer(a.key)...)
						wantError(t, r, http.StatusBadRequest, "invalid_request")
						if r.body != nil {
							if got := r.body.str("error.param"); got != tc.param {
								t.Errorf("error.param %q, want %q; body %s", got, tc.param, r.raw)
							}
						}
					})
				}
				after := call(t, "GET", agentURL, bearer(a.key)...)
				if !reflect.DeepEqual(after.body, before.body) {
					t.Errorf("the refused patches changed the agent:\nbefore %s\nafter  %s", before.body, after.body)
				}
			})

			t.Run("free plan", func(t *testing.T) {
				for _, tc := range []struct {
					method, path, body string
				}{
					{"GET", "/v1/agent", ""},
					{"PATCH", "/v1/agent", `{"business_name":"Free Bakery"}`},
					{"PATCH", "/v1/agent/appearance", `{"name":"Free"}`},
				} {
					t.Run(tc.method+" "+tc.path, func(t *testing.T) {
						var r response
						if tc.body == "" {
							r = call(t, tc.method, api.URL()+tc.path, bearer(free.key)...)
						} else {
							r = callJSON(t, tc.method, api.URL()+tc.path, tc.body, bearer(free.key)...)
						}
						wantPlanRequired(t, r)
					})
				}
				r := call(t, "GET", api.URL()+"/v1/account", bearer(free.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("GET /v1/account of the free account: %s", r)
				}
				if got := r.body.str("agent.status"); got != "not_configured" {
					t.Errorf("free account agent.status %q after refused patches, want not_configured", got)
				}
			})
		})
	}
}

// TestKnowledge drives the Brain's endpoints: pages replaced twice, FAQ upserts, crawls of a site
// the test serves on loopback (the API runs with SVC_ALLOW_PRIVATE_TARGETS=true), a site without
// readable text, the limits of one call, and the knowledge.updated events in the outbox.
func TestKnowledge(t *testing.T) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			site := newSiteFixture(t)
			api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
			a := s.newAccount(t)
			events := watchEvents(t, s, a.id)
			auth := bearer(a.key)
			version := float64(-1)

			// apiPages is what the last successful PUT /v1/knowledge/pages stored, by URL.
			var apiPages map[string]pageWant
			faqCount := 0

			t.Run("empty", func(t *testing.T) {
				kn := getKnowledge(t, api, a.key)
				wantFieldsOf(t, "GET /v1/knowledge", kn, map[string]any{
					"object":          "knowledge",
					"pages":           []any{},
					"faq":             []any{},
					"services":        []any{},
					"counts.pages":    0,
					"counts.faq":      0,
					"counts.services": 0,
					"counts.chars":    0,
				})
				version, _ = kn.num("version")
				events.want(t)
			})

			t.Run("replace pages twice", func(t *testing.T) {
				sets := []struct {
					name    string
					body    map[string]any
					pages   []pageIn
					summary string // business_summary afterwards
					siteURL string // site_url afterwards
				}{
					{
						name: "first set",
						body: map[string]any{"business_summary": "A family bakery in Lisbon.", "site_url": "https://padaria.test"},
						pages: []pageIn{
							{URL: "https://padaria.test/menu", Title: "Menu", Content: "Pão de Ló, pastéis de nata and sourdough loaves, baked every morning."},
							{URL: "https://padaria.test/hours", Title: "Hours", Content: "Open Monday to Saturday from 7:00 to 19:00. Closed on Sundays."},
							{URL: "https://padaria.test/old-offer", Title: "Old offer", Content: "Two croissants for the price of one, until the end of the summer."},
						},
						summary: "A family bakery in Lisbon.",
						siteURL: "https://padaria.test",
					},
					{
						name: "second set replaces the first; summary and site kept when left out",
						body: map[string]any{},
						pages: []pageIn{
							{URL: "https://padaria.test/menu", Title: "Menu 2026", Content: "  \n Bolo-rei at Christmas, folar at Easter, broa de milho all year.\n "},
							{URL: "https://padaria.test/delivery", Title: "Delivery", Content: "We deliver in Baixa and Chiado before 10:00 for orders above 15 €."},
						},
						summary: "A family bakery in Lisbon.",
						siteURL: "https://padaria.test",
					},
				}
				for _, set := range sets {
					t.Run(set.name, func(t *testing.T) {
						body := map[string]any{"pages": set.pages}
						for k, v := range set.body {
							body[k] = v
						}
						want := map[string]pageWant{}
						chars := 0
						for _, p := range set.pages {
							n := utf8.RuneCountInString(strings.TrimSpace(p.Content))
							want[p.URL] = pageWant{title: p.Title, chars: n}
							chars += n
						}
						r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", body, auth...)
						if r.status != http.StatusOK || r.body == nil {
							t.Fatalf("PUT /v1/knowledge/pages: %s", r)
						}
						wantFieldsOf(t, "PUT /v1/knowledge/pages", r.body, map[string]any{
							"object": "knowledge.update",
							"source": "pages",
							"pages":  len(set.pages),
							"chars":  chars,
						})
						if n, _ := r.body.num("chunks"); n < float64(len(set.pages)) {
							t.Errorf("chunks %v for %d pages, want at least one a page", n, len(set.pages))
						}
						v, _ := r.body.num("version")
						if v <= version {
							t.Errorf("version %v after a change, want above %v", v, version)
						}
						version = v

						kn := getKnowledge(t, api, a.key)
						wantFieldsOf(t, "GET /v1/knowledge", kn, map[string]any{
							"version":          version,
							"business_summary": set.summary,
							"site_url":         set.siteURL,
							"counts.pages":     len(set.pages),
						})
						wantPages(t, kn, "pages", want)
						wantCountsAddUp(t, kn)
						events.want(t, map[string]any{"source": "pages", "pages": len(set.pages), "chars": chars})
						apiPages = want
					})
				}
			})

			t.Run("pages refused", func(t *testing.T) {
				before := getKnowledge(t, api, a.key)
				for _, tc := range []struct {
					name, body, param string
				}{
					{"no pages", `{"business_summary":"x"}`, "pages"},
					{"pages not a list", `{"pages":"none"}`, "pages"},
					{"blank content", `{"pages":[{"url":"https://padaria.test/x","title":"X","content":"  "}]}`, "pages[0].content"},
					{"invisible content", `{"pages":[{"url":"https://padaria.test/x","title":"X","content":"\u200b\ufeff"}]}`, "pages[0].content"},
					{"ftp url", `{"pages":[{"url":"https://padaria.test/ok","title":"OK","content":"ok"},{"url":"ftp://padaria.test/x","title":"X","content":"x"}]}`, "pages[1].url"},
					{"same url twice", `{"pages":[{"url":"https://padaria.test/ok","title":"OK","content":"ok"},{"url":"https://padaria.test/ok","title":"Again","content":"x"}]}`, "pages[1].url"},
					{"bad site_url", `{"pages":[],"site_url":"padaria"}`, "site_url"},
					{"unknown field", `{"pages":[],"page":[]}`, "page"},
				} {
					t.Run(tc.name, func(t *testing.T) {
						r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", tc.body, auth...)
						wantError(t, r, http.StatusBadRequest, "invalid_request")
						if r.body != nil && r.body.str("error.param") != tc.param {
							t.Errorf("error.param %q, want %q; body %s", r.body.str("error.param"), tc.param, r.raw)
						}
					})
				}
				wantUnchanged(t, before, getKnowledge(t, api, a.key))
				events.want(t)
			})

			t.Run("faq upsert", func(t *testing.T) {
				items := func(n int, question, answer string) []map[string]string {
					out := make([]map[string]string, n)
					for i := range out {
						out[i] = map[string]string{"question": fmt.Sprintf(question, i+1), "answer": fmt.Sprintf(answer, i+1)}
					}
					return out
				}
				charsOf := func(items []map[string]string) int {
					n := 0
					for _, it := range items {
						n += utf8.RuneCountInString(it["question"]) + utf8.RuneCountInString(it["answer"])
					}
					return n
				}
				steps := []struct {
					name                    string
					items                   []map[string]string
					created, updated, total int
				}{
					{"100 new items", items(100, "What does cake number %03d cost?", "Cake %03d costs 12 euros."), 100, 0, 100},
					{"the same 100 again update", items(100, "What does cake number %03d cost?", "Cake %03d costs 12 euros."), 0, 100, 100},
					// The same questions once normalised (case and punctuation aside) update too.
					{"the same 100 written otherwise, with new answers", items(100, "WHAT does cake number %03d cost ??", "Cake %03d now costs 14 euros."), 0, 100, 100},
					{"one new and one known", []map[string]string{
						{"question": "Do you bake without gluten?", "answer": "Yes, on Fridays."},
						{"question": "what does cake number 007 cost", "answer": "Cake 007 costs 9 euros."},
					}, 1, 1, 101},
				}
				answers := map[string]string{} // normalised question → answer
				for _, st := range steps {
					t.Run(st.name, func(t *testing.T) {
						r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": st.items}, auth...)
						if r.status != http.StatusOK || r.body == nil {
							t.Fatalf("POST /v1/knowledge/faq: %s", r)
						}
						wantFieldsOf(t, "POST /v1/knowledge/faq", r.body, map[string]any{
							"object":  "knowledge.update",
							"source":  "faq",
							"created": st.created,
							"updated": st.updated,
							"total":   st.total,
						})
						v, _ := r.body.num("version")
						if v <= version {
							t.Errorf("version %v after a change, want above %v", v, version)
						}
						version = v
						events.want(t, map[string]any{"source": "faq", "pages": len(st.items), "chars": charsOf(st.items)})
						for _, it := range st.items {
							answers[normQuestion(it["question"])] = it["answer"]
						}
						kn := getKnowledge(t, api, a.key)
						wantFieldsOf(t, "GET /v1/knowledge", kn, map[string]any{"counts.faq": st.total, "version": version})
						got := map[string]string{}
						for _, f := range listOf(kn, "faq") {
							k := normQuestion(f.str("question"))
							if _, dup := got[k]; dup {
								t.Errorf("two FAQ items with the question %q", k)
							}
							got[k] = f.str("answer")
							if !strings.HasPrefix(f.str("id"), "faq_") {
								t.Errorf("FAQ item id %q, want faq_…", f.str("id"))
							}
						}
						if !reflect.DeepEqual(got, answers) {
							t.Errorf("FAQ after the upsert: %d items, want %d; first differences: %s", len(got), len(answers), mapDiff(got, answers))
						}
						wantPages(t, kn, "pages", apiPages)
						wantCountsAddUp(t, kn)
						faqCount = st.total
					})
				}
			})

			t.Run("faq refused", func(t *testing.T) {
				before := getKnowledge(t, api, a.key)
				many := make([]map[string]string, 101)
				for i := range many {
					many[i] = map[string]string{"question": fmt.Sprintf("Is bread number %d vegan?", i), "answer": "Yes."}
				}
				for _, tc := range []struct {
					name  string
					body  any
					param string
				}{
					{"101 items", map[string]any{"items": many}, "items"},
					{"no items", `{}`, "items"},
					{"empty list", `{"items":[]}`, "items"},
					{"blank answer", `{"items":[{"question":"Open on Sunday?","answer":"No."},{"question":"Parking?","answer":" "}]}`, "items[1].answer"},
					{"blank question", `{"items":[{"question":"","answer":"No."}]}`, "items[0].question"},
					// Items are matched on a question's words: "???" and "!!!" would replace each other.
					{"a question without a word", `{"items":[{"question":"Parking?","answer":"Yes."},{"question":"???","answer":"No."}]}`, "items[1].question"},
					{"a question of an emoji", `{"items":[{"question":"\ud83c\udf55","answer":"No."}]}`, "items[0].question"},
					{"an invisible answer", `{"items":[{"question":"Parking?","answer":"\u200b\u200b"}]}`, "items[0].answer"},
				} {
					t.Run(tc.name, func(t *testing.T) {
						r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", tc.body, auth...)
						wantError(t, r, http.StatusBadRequest, "invalid_request")
						if r.body != nil && r.body.str("error.param") != tc.param {
							t.Errorf("error.param %q, want %q; body %s", r.body.str("error.param"), tc.param, r.raw)
						}
					})
				}
				after := getKnowledge(t, api, a.key)
				wantUnchanged(t, before, after)
				if n, _ := after.num("counts.faq"); int(n) != faqCount {
					t.Errorf("counts.faq %v after refused upserts, want %d", n, faqCount)
				}
				events.want(t)
			})

			t.Run("crawl", func(t *testing.T) {
				crawled := map[string]bool{} // the pages of the last crawl, by address
				for _, tc := range []struct {
					name      string
					maxPages  any // nil: not sent
					wantPages int
				}{
					{"max_pages 3", 3, 3},
					// A second crawl of the same site replaces the first one's pages.
					{"default max_pages reads the whole start path", nil, len(siteInScope)},
				} {
					t.Run(tc.name, func(t *testing.T) {
						body := map[string]any{"url": site.URL() + "/docs/"}
						if tc.maxPages != nil {
							body["max_pages"] = tc.maxPages
						}
						r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", body, auth...)
						if r.status != http.StatusOK || r.body == nil {
							t.Fatalf("POST /v1/knowledge/crawl: %s", r)
						}
						read := listOf(r.body, "pages_read")
						wantFieldsOf(t, "POST /v1/knowledge/crawl", r.body, map[string]any{
							"object": "knowledge.crawl",
							"pages":  tc.wantPages,
						})
						if len(read) != tc.wantPages {
							t.Errorf("%d pages_read, want %d: %s", len(read), tc.wantPages, r.raw)
						}
						want := map[string]pageWant{}
						chars := 0
						for _, p := range read {
							u, err := url.Parse(p.str("url"))
							if err != nil || u.Host != site.Host() {
								t.Errorf("pages_read url %q is not on the test site %s", p.str("url"), site.Host())
								continue
							}
							sp, ok := siteInScope[u.Path]
							if !ok {
								t.Errorf("pages_read holds %s, which is not a readable page under /docs/", u.Path)
								continue
							}
							if p.str("title") != sp.title {
								t.Errorf("pages_read %s: title %q, want %q", u.Path, p.str("title"), sp.title)
							}
							n, _ := p.num("chars")
							if n < 200 {
								t.Errorf("pages_read %s: %v chars, want the page's text (over 200)", u.Path, n)
							}
							if _, dup := want[p.str("url")]; dup {
								t.Errorf("pages_read lists %s twice", p.str("url"))
							}
							want[p.str("url")] = pageWant{title: sp.title, chars: int(n)}
							chars += int(n)
						}
						if got, _ := r.body.num("chars"); int(got) != chars {
							t.Errorf("chars %v, want %d, the sum of pages_read", got, chars)
						}
						// How the Brain's pages changed: the pages read again replaced their copies,
						// the others were added; the uploaded pages were kept.
						added, replaced := 0, 0
						for u := range want {
							if crawled[u] {
								replaced++
							} else {
								added++
							}
						}
						removed := 0
						for u := range crawled {
							if _, ok := want[u]; !ok {
								removed++
							}
						}
						wantFieldsOf(t, "POST /v1/knowledge/crawl", r.body, map[string]any{
							"added": added, "replaced": replaced, "removed": removed, "kept": len(apiPages)})
						if tc.maxPages == nil && (replaced != 3 || added != len(siteInScope)-3) {
							t.Errorf("a second crawl: %d replaced and %d added, want 3 and %d", replaced, added, len(siteInScope)-3)
						}
						crawled = map[string]bool{}
						for u := range want {
							crawled[u] = true
						}
						if tc.maxPages == nil {
							wantSkipped(t, r.body, map[string]string{
								"/blog/news":    "outside",
								"/about":        "outside",
								"/docs-archive": "outside",
								"/docs/private": "robots",
							})
						}
						v, _ := r.body.num("version")
						if v <= version {
							t.Errorf("version %v after a change, want above %v", v, version)
						}
						version = v

						kn := getKnowledge(t, api, a.key)
						wantPages(t, kn, "crawl", want)
						wantPages(t, kn, "pages", apiPages)
						wantFieldsOf(t, "GET /v1/knowledge", kn, map[string]any{
							"version":      version,
							"counts.pages": len(apiPages) + tc.wantPages,
							"counts.faq":   faqCount,
						})
						wantCountsAddUp(t, kn)
						events.want(t, map[string]any{"source": "crawl", "pages": tc.wantPages, "chars": chars})
						site.wantOnlyInScope(t)
					})
				}
			})

			t.Run("crawl of a page without readable text", func(t *testing.T) {
				before := getKnowledge(t, api, a.key)
				r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", map[string]any{"url": site.URL() + "/spa/"}, auth...)
				wantError(t, r, http.StatusUnprocessableEntity, "crawl_failed")
				t.Logf("crawl of the JS-only page: %s", r)
				if n := site.count("/spa/"); n == 0 {
					t.Errorf("the crawler never requested /spa/: the 422 is not about the page's text")
				}
				wantUnchanged(t, before, getKnowledge(t, api, a.key))
				events.want(t)
			})

			t.Run("crawl refused", func(t *testing.T) {
				// A fresh account: every crawl request counts against 10 an hour.
				b := s.newAccount(t)
				bEvents := watchEvents(t, s, b.id)
				requests := site.total()
				for _, tc := range []struct {
					name  string
					body  any
					param string
				}{
					{"max_pages 31", map[string]any{"url": site.URL() + "/docs/", "max_pages": 31}, "max_pages"},
					{"max_pages 0", map[string]any{"url": site.URL() + "/docs/", "max_pages": 0}, "max_pages"},
					{"max_pages -1", map[string]any{"url": site.URL() + "/docs/", "max_pages": -1}, "max_pages"},
					{"max_pages a string", `{"url":"` + site.URL() + `/docs/","max_pages":"5"}`, "max_pages"},
					{"no url", `{"max_pages":5}`, "url"},
					{"ftp url", map[string]any{"url": "ftp://" + site.Host() + "/docs/"}, "url"},
					{"not a url", map[string]any{"url": "padaria dot test"}, "url"},
				} {
					t.Run(tc.name, func(t *testing.T) {
						r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", tc.body, bearer(b.key)...)
						wantError(t, r, http.StatusBadRequest, "invalid_request")
						if r.body != nil && r.body.str("error.param") != tc.param {
							t.Errorf("error.param %q, want %q; body %s", r.body.str("error.param"), tc.param, r.raw)
						}
					})
				}
				if n := site.total() - requests; n != 0 {
					t.Errorf("the test site got %d requests from refused crawls, want 0", n)
				}
				kn := getKnowledge(t, api, b.key)
				wantFieldsOf(t, "GET /v1/knowledge of the other account", kn, map[string]any{"pages": []any{}, "faq": []any{}})
				bEvents.want(t)
				events.want(t)
			})

			t.Run("free plan", func(t *testing.T) {
				free := s.newAccount(t, "--plan", "free")
				requests := site.total()
				for _, tc := range []struct {
					method, path string
					body         any
				}{
					{"GET", "/v1/knowledge", nil},
					{"PUT", "/v1/knowledge/pages", map[string]any{"pages": []pageIn{{URL: "https://free.test/", Title: "Free", Content: "Free text."}}}},
					{"POST", "/v1/knowledge/faq", map[string]any{"items": []map[string]string{{"question": "Free?", "answer": "Yes."}}}},
					{"POST", "/v1/knowledge/crawl", map[string]any{"url": site.URL() + "/docs/", "max_pages": 1}},
				} {
					t.Run(tc.method+" "+tc.path, func(t *testing.T) {
						var r response
						if tc.body == nil {
							r = call(t, tc.method, api.URL()+tc.path, bearer(free.key)...)
						} else {
							r = callJSON(t, tc.method, api.URL()+tc.path, tc.body, bearer(free.key)...)
						}
						wantPlanRequired(t, r)
					})
				}
				if n := site.total() - requests; n != 0 {
					t.Errorf("the test site got %d requests from a free account's crawl, want 0", n)
				}
				watchEvents(t, s, free.id).want(t)
			})

			t.Run("outbox", func(t *testing.T) {
				// Every knowledge.updated row the account has was matched to one change above.
				if got, want := events.total(t), events.matched; got != want {
					t.Errorf("%d knowledge.updated rows in the outbox, want %d (one per change)", got, want)
				}
			})
		})
	}
}

// TestKnowledgePrivateTargets checks that, without SVC_ALLOW_PRIVATE_TARGETS=true, a crawl of a
// site on loopback is refused with 422 crawl_failed and the site receives no request at all.
func TestKnowledgePrivateTargets(t *testing.T) {
	for _, env := range stacks {
		for _, setting := range []struct {
			name  string
			extra []string
		}{
			{"unset", nil},
			{"false", []string{"SVC_ALLOW_PRIVATE_TARGETS", "false"}},
		} {
			t.Run(env.name+"/"+setting.name, func(t *testing.T) {
				s := env.stack(t)
				site := newSiteFixture(t)
				api := s.startAPI(t, setting.extra...)
				a := s.newAccount(t)
				events := watchEvents(t, s, a.id)
				_, port, _ := strings.Cut(site.Host(), ":")
				for _, u := range []string{
					site.URL() + "/docs/",
					"http://localhost:" + port + "/docs/",
					"http://127.1:" + port + "/docs/",
					"http://2130706433:" + port + "/docs/",
				} {
					t.Run(u, func(t *testing.T) {
						r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", map[string]any{"url": u, "max_pages": 2}, bearer(a.key)...)
						wantError(t, r, http.StatusUnprocessableEntity, "crawl_failed")
						if r.body != nil && !strings.Contains(strings.ToLower(r.body.str("error.message")), "refused") {
							t.Errorf("error.message %q does not say the address was refused", r.body.str("error.message"))
						}
					})
				}
				if got := site.requested(); len(got) != 0 {
					t.Errorf("the loopback site received %d requests, want none: %v", len(got), got)
				}
				kn := getKnowledge(t, api, a.key)
				wantFieldsOf(t, "GET /v1/knowledge", kn, map[string]any{"pages": []any{}, "counts.pages": 0})
				events.want(t)
			})
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Knowledge helpers

// pageIn is a page of PUT /v1/knowledge/pages.
type pageIn struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Content string `json:"content"`
}

// pageWant is what GET /v1/knowledge must list of one page.
type pageWant struct {
	title string
	chars int
}

// getKnowledge returns GET /v1/knowledge, failing the test unless it answers 200 with an object.
func getKnowledge(t testing.TB, api *proc, key string) obj {
	t.Helper()
	r := call(t, "GET", api.URL()+"/v1/knowledge", bearer(key)...)
	if r.status != http.StatusOK || r.body == nil {
		t.Fatalf("GET /v1/knowledge: %s", r)
	}
	return r.body
}

// listOf returns the objects of the list at path.
func listOf(o obj, path string) []obj {
	v, _ := o.get(path)
	l, _ := v.([]any)
	out := make([]obj, 0, len(l))
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, obj(m))
		}
	}
	return out
}

// wantPages checks that the pages of source listed by GET /v1/knowledge are exactly want, by URL.
func wantPages(t testing.TB, kn obj, source string, want map[string]pageWant) {
	t.Helper()
	got := map[string]pageWant{}
	for _, p := range listOf(kn, "pages") {
		if p.str("source") != source {
			continue
		}
		if _, dup := got[p.str("url")]; dup {
			t.Errorf("GET /v1/knowledge lists %s (source %s) twice", p.str("url"), source)
		}
		n, _ := p.num("chars")
		got[p.str("url")] = pageWant{title: p.str("title"), chars: int(n)}
		if p.str("id") == "" {
			t.Errorf("page %s has no id", p.str("url"))
		}
		if _, err := time.Parse(time.RFC3339, p.str("created_at")); err != nil {
			t.Errorf("page %s: created_at %q: %v", p.str("url"), p.str("created_at"), err)
		}
	}
	if want == nil {
		want = map[string]pageWant{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pages of source %q:\n got  %v\n want %v", source, got, want)
	}
}

// wantCountsAddUp checks the counts of GET /v1/knowledge against its lists.
func wantCountsAddUp(t testing.TB, kn obj) {
	t.Helper()
	chars := 0
	for _, p := range append(listOf(kn, "pages"), listOf(kn, "services")...) {
		n, _ := p.num("chars")
		chars += int(n)
	}
	for _, f := range listOf(kn, "faq") {
		chars += utf8.RuneCountInString(f.str("question")) + utf8.RuneCountInString(f.str("answer"))
	}
	wantFieldsOf(t, "GET /v1/knowledge counts", kn, map[string]any{
		"counts.pages":    len(listOf(kn, "pages")),
		"counts.faq":      len(listOf(kn, "faq")),
		"counts.services": len(listOf(kn, "services")),
		"counts.chars":    chars,
	})
}

// wantUnchanged checks that a refused request left the knowledge as it was.
func wantUnchanged(t testing.TB, before, after obj) {
	t.Helper()
	for _, path := range []string{"version", "pages", "faq", "services", "counts", "business_summary", "site_url"} {
		b, _ := before.get(path)
		a, _ := after.get(path)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s changed:\nbefore %v\nafter  %v", path, b, a)
		}
	}
}

// wantSkipped checks that the crawl's skipped list holds each path of want (on the test site)
// with a reason that contains want's text.
func wantSkipped(t testing.TB, crawl obj, want map[string]string) {
	t.Helper()
	reasons := map[string]string{}
	for _, sk := range listOf(crawl, "skipped") {
		u, err := url.Parse(sk.str("url"))
		if err != nil {
			t.Errorf("skipped url %q: %v", sk.str("url"), err)
			continue
		}
		reasons[strings.TrimSuffix(u.Path, "/")] = sk.str("reason")
	}
	for path, text := range want {
		reason, ok := reasons[path]
		if !ok {
			t.Errorf("skipped does not list %s; skipped: %v", path, reasons)
			continue
		}
		if !strings.Contains(reason, text) {
			t.Errorf("skipped %s with reason %q, want one that says %q", path, reason, text)
		}
	}
}

// wantPlanRequired checks a 402 plan_required with an upgrade_url.
func wantPlanRequired(t testing.TB, r response) {
	t.Helper()
	wantError(t, r, http.StatusPaymentRequired, "plan_required")
	if r.body != nil && r.body.str("error.upgrade_url") == "" {
		t.Errorf("402 plan_required without error.upgrade_url: %s", r.raw)
	}
}

// wantFieldsOf checks that every dotted path of want holds that value, compared as decoded JSON
// (so 3 matches 3.0, and []string matches []any).
func wantFieldsOf(t testing.TB, what string, got obj, want map[string]any) {
	t.Helper()
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	bad := false
	for _, path := range paths {
		raw, err := json.Marshal(want[path])
		if err != nil {
			t.Fatalf("%s: want %s: %v", what, path, err)
		}
		var w any
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatalf("%s: want %s: %v", what, path, err)
		}
		g, ok := got.get(path)
		switch {
		case !ok:
			t.Errorf("%s: %s missing, want %s", what, path, raw)
			bad = true
		case !reflect.DeepEqual(g, w):
			gr, _ := json.Marshal(g)
			t.Errorf("%s: %s is %s, want %s", what, path, gr, raw)
			bad = true
		}
	}
	if bad {
		t.Logf("%s: %s", what, shorten(got.String(), 2000))
	}
}

// shorten cuts s to at most n bytes, saying how much it left out.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:n], len(s)-n)
}

// normQuestion folds a question as far as the tests need: lower case, words only.
func normQuestion(q string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	}), " ")
}

// mapDiff describes up to three keys where got and want differ.
func mapDiff(got, want map[string]string) string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			out = append(out, fmt.Sprintf("%q: got %q want %q", k, got[k], w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%q: got %q, not wanted", k, g))
		}
	}
	sort.Strings(out)
	if len(out) > 3 {
		out = out[:3]
	}
	return strings.Join(out, "; ")
}

// ---------------------------------------------------------------------------------------------
// knowledge.updated in the outbox

// eventWatch reads an account's knowledge.updated events straight from the outbox table of the
// stack's database.
type eventWatch struct {
	db      *sql.DB
	query   string
	account string
	seen    map[string]bool
	matched int // events want has matched
}

// watchEvents opens the stack's database and returns a watch over the account's events; the
// events already there count as seen.
func watchEvents(t testing.TB, s stack, accountID string) *eventWatch {
	t.Helper()
	dbURL := s.env["SVC_DATABASE_URL"]
	w := &eventWatch{account: accountID, seen: map[string]bool{}}
	if path, ok := strings.CutPrefix(dbURL, "sqlite://"); ok {
		db, err := sql.Open(sqliteshim.ShimName, path+"?_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatalf("opening the SQLite file: %v", err)
		}
		w.db = db
		w.query = "SELECT id, topic, payload FROM outbox WHERE account_id = ?"
	} else {
		w.db = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dbURL)))
		w.query = "SELECT id, topic, payload FROM outbox WHERE account_id = $1"
	}
	w.db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = w.db.Close() })
	for _, e := range w.read(t) {
		w.seen[e.str("id")] = true
	}
	return w
}

// read returns the envelopes of every knowledge.updated row of the account, checking each row.
func (w *eventWatch) read(t testing.TB) []obj {
	t.Helper()
	rows, err := w.db.Query(w.query, w.account)
	if err != nil {
		t.Fatalf("reading the outbox: %v", err)
	}
	defer rows.Close()
	var out []obj
	for rows.Next() {
		var id, topic string
		var payload []byte
		if err := rows.Scan(&id, &topic, &payload); err != nil {
			t.Fatalf("reading the outbox: %v", err)
		}
		env := parseObj(string(payload))
		if env == nil {
			t.Errorf("outbox row %s: payload is not a JSON object: %q", id, payload)
			continue
		}
		if env.str("type") != "knowledge.updated" {
			continue
		}
		if topic != "event" {
			t.Errorf("outbox row %s: topic %q, want event", id, topic)
		}
		if env.str("id") != id || !strings.HasPrefix(id, "evt_") {
			t.Errorf("outbox row %s: envelope id %q, want the row id, evt_…", id, env.str("id"))
		}
		if _, err := time.Parse(time.RFC3339, env.str("created_at")); err != nil {
			t.Errorf("outbox row %s: created_at %q: %v", id, env.str("created_at"), err)
		}
		out = append(out, env)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("reading the outbox: %v", err)
	}
	return out
}

// want checks that the events written since the last call are exactly one per element of data,
// in any order, each with that data.
func (w *eventWatch) want(t testing.TB, data ...map[string]any) {
	t.Helper()
	var fresh []obj
	for _, e := range w.read(t) {
		if !w.seen[e.str("id")] {
			w.seen[e.str("id")] = true
			fresh = append(fresh, e)
		}
	}
	remaining := append([]obj(nil), fresh...)
	for _, d := range data {
		raw, _ := json.Marshal(d)
		var wd any
		_ = json.Unmarshal(raw, &wd)
		found := -1
		for i, e := range remaining {
			got, _ := e.get("data")
			if reflect.DeepEqual(got, wd) {
				found = i
				break
			}
		}
		if found < 0 {
			t.Errorf("no new knowledge.updated event in the outbox with data %s; new events: %s", raw, shorten(fmt.Sprint(fresh), 2000))
			continue
		}
		remaining = append(remaining[:found], remaining[found+1:]...)
		w.matched++
	}
	for _, e := range remaining {
		t.Errorf("unexpected knowledge.updated event in the outbox: %s", e)
	}
}

// total returns how many knowledge.updated rows the account has.
func (w *eventWatch) total(t testing.TB) int {
	t.Helper()
	return len(w.read(t))
}

// ---------------------------------------------------------------------------------------------
// The site the crawler reads

// sitePage is one HTML page of the test site.
type sitePage struct {
	title string
	text  []string // paragraphs
}

// siteInScope are the readable pages under /docs/, the crawl's start path.
var siteInScope = map[string]sitePage{
	"/docs/": {"Padaria Lu", []string{
		"Padaria Lu is a family bakery in the Baixa of Lisbon, baking since 1962. Every morning before dawn we bake bread, pastries and cakes with flour from small Portuguese mills and butter from the Azores.",
		"This guide tells you what we bake, when we are open, how we deliver and how to reach us. Start with the hours if you want to visit today.",
	}},
	"/docs/menu": {"Our menu", []string{
		"Our menu changes with the seasons. All year we bake sourdough loaves, broa de milho, pastéis de nata and queijadas from Sintra. Bolo-rei appears in December and folar at Easter.",
		"Every cake can be ordered whole with two days' notice. Ask us about cakes without gluten: we bake them on Fridays in a separate oven.",
	}},
	"/docs/hours": {"Opening hours", []string{
		"The shop is open Monday to Saturday from seven in the morning to seven in the evening, and on Sunday mornings until one. On public holidays we open at eight and close at two in the afternoon.",
		"The first loaves come out of the oven at half past six; the pastéis de nata are warm until about ten.",
	}},
	"/docs/delivery": {"Delivery", []string{
		"We deliver by bicycle in Baixa, Chiado and Alfama before ten in the morning for orders placed the evening before. Orders above fifteen euros travel free; smaller ones cost two euros.",
		"Whole cakes for parties can be delivered anywhere in Lisbon at an agreed hour, with a fee that depends on the distance.",
	}},
	"/docs/contact": {"Contact us", []string{
		"Call the shop on +351 900 000 000 during opening hours, or write to lu@padaria.test at any time: we answer within one working day. Large orders for events are best discussed by phone.",
		"You can also find us at Rua Augusta 1 in Lisbon, two minutes from the Comércio square.",
	}},
}

// siteOutside are readable pages of the same site that the crawl must not read: outside the start
// path, or disallowed by robots.txt.
var siteOutside = map[string]sitePage{
	"/blog/news": {"News", []string{
		"Our blog tells the story of the bakery: the new oven we bought this spring, the apprentices who joined us, and the recipe for the orange cake that our grandmother brought from the Algarve long ago.",
	}},
	"/about": {"About", []string{
		"About the family: three generations of bakers, a shop that survived the great fire of Chiado, and a stubborn belief that bread should take its time. This page lies outside the guide and must not be read.",
	}},
	"/docs-archive/": {"Archive", []string{
		"The archive keeps the guide of earlier years, with prices and hours that are no longer valid. Its path starts like the guide's but lies in another directory, so a careful crawler leaves it alone entirely.",
	}},
	"/jobs": {"Jobs", []string{
		"We are hiring an early-morning baker and a shop assistant for the weekend. Only the sitemap names this page; it lies outside the guide, so a crawl of the guide must drop it without fetching it at all.",
	}},
	"/docs/private": {"Staff only", []string{
		"Staff rota and supplier prices for the bakery team, not for customers. Robots.txt keeps crawlers away from this page, and a polite crawler honours that and never fetches it, whatever links point here.",
	}},
}

// siteFixture is the test's own web site on loopback; it records every path requested.
type siteFixture struct {
	srv   *httptest.Server
	mu    sync.Mutex
	paths []string
}

func newSiteFixture(t testing.TB) *siteFixture {
	t.Helper()
	f := &siteFixture{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// URL is the site's base URL, http://127.0.0.1:port.
func (f *siteFixture) URL() string { return f.srv.URL }

// Host is the site's host:port.
func (f *siteFixture) Host() string { return strings.TrimPrefix(f.srv.URL, "http://") }

// requested returns the paths requested so far, in order.
func (f *siteFixture) requested() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.paths...)
}

func (f *siteFixture) total() int { return len(f.requested()) }

// count returns how often path was requested.
func (f *siteFixture) count(path string) int {
	n := 0
	for _, p := range f.requested() {
		if p == path {
			n++
		}
	}
	return n
}

// wantOnlyInScope checks that nothing but robots.txt, the sitemap, the pages under /docs/ and the
// JS-only page was requested.
func (f *siteFixture) wantOnlyInScope(t testing.TB) {
	t.Helper()
	for _, p := range f.requested() {
		if _, ok := siteInScope[p]; ok || p == "/robots.txt" || p == "/sitemap.xml" || p == "/spa/" {
			continue
		}
		t.Errorf("the crawler requested %s, which it must not read", p)
	}
}

const siteNav = `<nav>
<a href="/docs/">Guide</a> <a href="/docs/menu">Menu</a> <a href="hours">Hours</a>
<a href="/docs/delivery#zones">Delivery</a> <a href="/docs/contact?from=nav">Contact</a>
<a href="/docs/private">Staff</a> <a href="/docs-archive/">Archive</a> <a href="/blog/news">Blog</a>
<a href="/about">About</a> <a href="http://elsewhere.invalid/">Partners</a> <a href="mailto:lu@padaria.test">Mail</a>
</nav>`

func (f *siteFixture) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()

	p := r.URL.Path
	switch p {
	case "/robots.txt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "User-agent: *\nDisallow: /docs/private\n")
		return
	case "/sitemap.xml":
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/docs/hours</loc></url>
<url><loc>%[1]s/jobs</loc></url>
</urlset>`, f.srv.URL)
		return
	case "/spa/":
		// Renders only in a browser: no text but a script tag.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><title>Padaria Lu</title>
<script src="/spa/bundle.js" defer></script></head>
<body><div id="root"></div><noscript>Please enable JavaScript.</noscript></body></html>`)
		return
	}
	page, ok := siteInScope[p]
	if !ok {
		page, ok = siteOutside[p]
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n%s\n<main><article><h1>%s</h1>\n", page.title, siteNav, page.title)
	for _, para := range page.text {
		fmt.Fprintf(&b, "<p>%s</p>\n", para)
	}
	b.WriteString("</article></main><footer>© Padaria Lu</footer></body></html>\n")
	fmt.Fprint(w, b.String())
}
