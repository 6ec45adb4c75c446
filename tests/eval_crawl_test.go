//go:build eval

package tests

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/internal/testenv/evalset"
)

// crawlEvalSplits are the splits of testdata/eval/businesses.json TestEvalCrawl measures: those
// tuned on. The others ("held-out-5", "held-out-6", "held-out-7", "held-out-8", "held-out-9") are blind validation sets: never run, printed
// or read here.
var crawlEvalSplits = []string{"tune", "held-out", "tune-2", "held-out-2", "held-out-3", "held-out-4"}

// evalDontKnows are the beginnings of the built-in engine's "I don't know" (adapters/model/local's
// phrasebook).
var evalDontKnows = []string{
	"I'm sorry, I don't know the answer to that.",
	"Desculpe, não sei a resposta a essa pergunta.",
	"Lo siento, no lo sé; no tengo esa información.",
}

// openTokens writes the pages a reply opens as the built-in engine's open tokens, which the API
// turns into actions, for evalset's judge.
func openTokens(opened []string) string {
	var b strings.Builder
	for _, u := range opened {
		b.WriteString("\n\n[OPEN:" + u + "]")
	}
	return b.String()
}

// crawlFigures count the replies to one split's questions.
type crawlFigures struct {
	right, wrong, idk int // of answerable questions; wrong also counts answers to "none" questions
	refused           int // "none" questions answered "I don't know" (right)
}

// String gives the figures as the README's tables do: right / wrong overall / I don't know.
func (f crawlFigures) String() string {
	return fmt.Sprintf("%d questions: right %d / wrong %d / I don't know %d (and %d \"none\" questions refused)",
		f.right+f.wrong+f.idk+f.refused, f.right, f.wrong, f.idk, f.refused)
}

// TestEvalCrawl measures what crawling a business's site costs the built-in engine's answers
// (build tag eval; not part of make test): for each business of the splits crawlEvalSplits, its
// pages are served as a small web site on loopback (renderSite: a header with the logo and a menu,
// a cookie banner, the page in <main> with price lists as tables or lists, a footer with the
// contact, address and hours, a home page), one fresh account crawls it (POST /v1/knowledge/crawl)
// and another gets the same pages uploaded (PUT /v1/knowledge/pages); both get the business's FAQ
// (POST /v1/knowledge/faq) and profile (PATCH /v1/agent), and every labelled question is asked
// through POST /v1/chat and judged as the in-process eval judges it. It prints right / wrong /
// "I don't know" per split for both. SVC_EVAL_VERBOSE=1 lists the questions whose verdict
// differs; SVC_EVAL_CRAWL_HTML=dir writes the rendered pages there; SVC_EVAL_CRAWL_LAYOUT=divs
// renders the layout's parts as <div>s named by their class only (no <header>, <nav>, <main>,
// <footer>).
func TestEvalCrawl(t *testing.T) {
	set, err := evalset.Load(filepath.Join(repoRoot(t), "testdata", "eval", "businesses.json"))
	if err != nil {
		t.Fatal(err)
	}
	var bs []evalset.Business
	for _, b := range set.Businesses {
		for _, s := range crawlEvalSplits {
			if b.Split == s {
				bs = append(bs, b)
			}
		}
	}
	s := newEmbedded(t)
	api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
	htmlDir := os.Getenv("SVC_EVAL_CRAWL_HTML")

	type verdict struct{ crawl, upload string } // "ok", "wrong", "idk"
	verdicts := make([][]verdict, len(bs))
	var mu sync.Mutex
	var lines []string
	var wg sync.WaitGroup
	for i, b := range bs {
		verdicts[i] = make([]verdict, len(b.Questions))
		site := renderSite(b, os.Getenv("SVC_EVAL_CRAWL_LAYOUT") == "divs")
		if htmlDir != "" {
			dir := filepath.Join(htmlDir, strconv.Itoa(i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for p, body := range site {
				name := strings.Trim(p, "/")
				if name == "" {
					name = "index"
				}
				if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, ok := site[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)

		origin := b.Pages[0].URL
		if u, err := url.Parse(origin); err == nil {
			origin = u.Scheme + "://" + u.Host
		}
		setup := func(name string) []string {
			a := s.newAccount(t, "--plan", "pro", "--name", b.Name+" "+name)
			c := b.Profile.Contact
			if r := callJSON(t, "PATCH", api.URL()+"/v1/agent", map[string]any{"business_name": b.Profile.BusinessName,
				"languages": b.Profile.Languages, "description": b.Profile.Description,
				"contact": map[string]any{"email": c.Email, "phone": c.Phone, "address": c.Address, "hours": c.Hours}}, bearer(a.key)...); r.status != http.StatusOK {
				t.Fatalf("PATCH /v1/agent: %s", r)
			}
			items := make([]map[string]string, len(b.FAQ))
			for k, f := range b.FAQ {
				items[k] = map[string]string{"question": f.Question, "answer": f.Answer}
			}
			if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": items}, bearer(a.key)...); r.status != http.StatusOK {
				t.Fatalf("POST /v1/knowledge/faq: %s", r)
			}
			return bearer(a.key)
		}
		crawlAuth, uploadAuth := setup("crawl"), setup("upload")
		r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", map[string]any{"url": srv.URL + "/", "max_pages": 30}, crawlAuth...)
		if r.status != http.StatusOK || r.body == nil {
			t.Fatalf("%s: POST /v1/knowledge/crawl: %s", b.Name, r)
		}
		var read []string
		for _, p := range listOf(r.body, "pages_read") {
			n, _ := p.num("chars")
			read = append(read, fmt.Sprintf("%s %q %v", strings.TrimPrefix(p.str("url"), srv.URL), p.str("title"), n))
		}
		t.Logf("%s (%s): crawled %s", b.Name, b.Split, strings.Join(read, "; "))
		pages := make([]map[string]string, len(b.Pages))
		for k, p := range b.Pages {
			pages[k] = map[string]string{"url": p.URL, "title": p.Title, "content": p.Content}
		}
		if r := callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{"pages": pages}, uploadAuth...); r.status != http.StatusOK {
			t.Fatalf("PUT /v1/knowledge/pages: %s", r)
		}

		// ask returns the reply and the pages it opens, named as the data names them.
		ask := func(auth []string, conv, q string) (string, []string) {
			for {
				r := callJSON(t, "POST", api.URL()+"/v1/chat", map[string]any{"message": q, "conversation_id": conv}, auth...)
				if r.status == http.StatusTooManyRequests {
					time.Sleep(2 * time.Second) // a client waiting out the limit of 30 a minute
					continue
				}
				if r.status != http.StatusOK || r.body == nil {
					t.Errorf("chat %q: %s", q, r)
					return "", nil
				}
				var opened []string
				for _, a := range listOf(r.body, "actions") {
					if a.str("type") == "open" {
						u := a.str("url")
						if rest, ok := strings.CutPrefix(u, srv.URL); ok {
							u = origin + rest
						}
						opened = append(opened, u)
					}
				}
				return r.body.str("reply"), opened
			}
		}
		for _, v := range []struct {
			auth []string
			name string
		}{{crawlAuth, "crawl"}, {uploadAuth, "upload"}} {
			wg.Go(func() {
				for q, qq := range b.Questions {
					if len(qq.After) > 0 {
						continue // follow-up questions are measured in process (TestEvalFollowUps)
					}
					reply, opened := ask(v.auth, "eval-"+strconv.Itoa(q), qq.Text)
					idk := false
					for _, d := range evalDontKnows {
						idk = idk || strings.HasPrefix(reply, d)
					}
					var mark string
					switch {
					case len(qq.Answers) == 0 && idk:
						mark = "ok"
					case len(qq.Answers) == 0:
						mark = "wrong"
					case b.Judge(reply+openTokens(opened), qq.Answers):
						mark = "ok"
					case idk:
						mark = "idk"
					default:
						mark = "wrong"
					}
					mu.Lock()
					if v.name == "crawl" {
						verdicts[i][q].crawl = mark
					} else {
						verdicts[i][q].upload = mark
					}
					lines = append(lines, fmt.Sprintf("%s|%d|%s|%s|%q → %q %v", b.Name, q, v.name, mark, qq.Text, reply, opened))
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()

	for _, split := range crawlEvalSplits {
		var crawl, upload crawlFigures
		lost, gained := 0, 0
		for i, b := range bs {
			if b.Split != split {
				continue
			}
			for q := range b.Questions {
				v := verdicts[i][q]
				if len(b.Questions[q].After) > 0 {
					continue
				}
				for _, c := range []struct {
					f    *crawlFigures
					mark string
				}{{&crawl, v.crawl}, {&upload, v.upload}} {
					switch {
					case c.mark == "ok" && len(b.Questions[q].Answers) == 0:
						c.f.refused++
					case c.mark == "ok":
						c.f.right++
					case c.mark == "idk":
						c.f.idk++
					default:
						c.f.wrong++
					}
				}
				if v.crawl != v.upload {
					if v.upload == "ok" {
						lost++
					} else if v.crawl == "ok" {
						gained++
					}
				}
			}
		}
		t.Logf("%s: crawl  %s", split, crawl)
		t.Logf("%s: upload %s", split, upload)
		t.Logf("%s: the crawl loses %d questions the upload answers right, gains %d", split, lost, gained)
	}
	if os.Getenv("SVC_EVAL_VERBOSE") != "" {
		byKey := map[string][]string{}
		for _, l := range lines {
			parts := strings.SplitN(l, "|", 4)
			byKey[parts[0]+"|"+parts[1]] = append(byKey[parts[0]+"|"+parts[1]], parts[2]+" "+parts[3])
		}
		for i, b := range bs {
			for q := range b.Questions {
				if v := verdicts[i][q]; v.crawl != v.upload {
					t.Logf("%s (%s) #%d: crawl %s, upload %s\n  %s", b.Name, b.Split, q, v.crawl, v.upload,
						strings.Join(byKey[b.Name+"|"+strconv.Itoa(q)], "\n  "))
				}
			}
		}
	}
}

// siteWords are the words of a rendered site's layout in each of the data's languages.
var siteWords = map[string]struct{ home, cookies, accept, contact, hours, address, phone, rights, privacy, item, price, details string }{
	"en": {"Home", "We use cookies to improve your experience on our website. By continuing to browse, you agree to our use of cookies.",
		"Accept", "Contact us", "Opening hours", "Address", "Phone", "All rights reserved.", "Privacy policy", "Item", "Price", "Details"},
	"pt": {"Início", "Utilizamos cookies para melhorar a sua experiência no nosso site. Ao continuar a navegar, aceita a nossa política de cookies.",
		"Aceitar", "Contactos", "Horário", "Morada", "Telefone", "Todos os direitos reservados.", "Política de privacidade", "Serviço", "Preço", "Detalhes"},
	"es": {"Inicio", "Usamos cookies para mejorar tu experiencia en nuestro sitio web. Si sigues navegando, aceptas nuestra política de cookies.",
		"Aceptar", "Contacto", "Horario", "Dirección", "Teléfono", "Todos los derechos reservados.", "Política de privacidad", "Servicio", "Precio", "Detalles"},
}

// renderSite returns a business's pages as a small web site, by path: a shared layout (a header
// with the logo and a menu linking every page, a cookie banner, the page in <main>, a footer with
// the profile's description, contact, address and hours) around each page, and a home page that
// introduces the business and links to them all. With divs, the layout's parts are <div>s named
// by their class only.
func renderSite(b evalset.Business, divs bool) map[string]string {
	lang := "en"
	if len(b.Profile.Languages) > 0 {
		lang = strings.ToLower(b.Profile.Languages[0][:2])
	}
	w, ok := siteWords[lang]
	if !ok {
		w = siteWords["en"]
	}
	e := html.EscapeString
	name := e(b.Profile.BusinessName)
	pathOf := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil || u.Path == "" {
			return "/"
		}
		return u.Path
	}
	var nav strings.Builder
	nav.WriteString(`<nav class="menu"><ul><li><a href="/">` + w.home + `</a></li>`)
	for _, p := range b.Pages {
		nav.WriteString(`<li><a href="` + e(pathOf(p.URL)) + `">` + e(p.Title) + `</a></li>`)
	}
	nav.WriteString(`</ul></nav>`)
	c := b.Profile.Contact
	footer := `<footer class="site-footer"><div class="footer-about"><p class="footer-logo">` + name + `</p><p>` + e(b.Profile.Description) + `</p></div>` +
		`<div class="footer-contact"><h4>` + w.contact + `</h4><ul>` +
		`<li>` + w.phone + `: <a href="tel:` + e(c.Phone) + `">` + e(c.Phone) + `</a></li>` +
		`<li>Email: <a href="mailto:` + e(c.Email) + `">` + e(c.Email) + `</a></li>` +
		`<li>` + w.address + `: ` + e(c.Address) + `</li></ul></div>` +
		`<div class="footer-hours"><h4>` + w.hours + `</h4><p>` + e(c.Hours) + `</p></div>` +
		`<div class="footer-legal"><p>© 2026 ` + name + `. ` + w.rights + ` <a href="/">` + w.privacy + `</a></p></div></footer>`
	layout := func(title, main string) string {
		return `<!doctype html><html lang="` + lang + `"><head><meta charset="utf-8"><title>` + e(title) + ` | ` + name + `</title>` +
			`<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/style.css"></head><body>` +
			`<div id="cookie-banner" class="cookie-consent"><p>` + w.cookies + `</p><button type="button">` + w.accept + `</button></div>` +
			`<header class="site-header"><a class="logo" href="/">` + name + `</a>` + nav.String() + `</header>` +
			`<main id="content">` + main + `</main>` + footer + `<script>document.querySelector("#cookie-banner button").onclick=function(){this.parentNode.remove()}</script></body></html>`
	}
	if divs {
		// The layout of a site builder that names its parts only by class: no <header>, <nav>,
		// <main> or <footer>.
		plain := strings.NewReplacer(`<header class="site-header">`, `<div class="site-header">`, `</header>`, `</div>`,
			`<nav class="menu">`, `<div class="menu">`, `</nav>`, `</div>`, `<main id="content">`, `<div id="content">`,
			`</main>`, `</div>`, `<footer class="site-footer">`, `<div class="site-footer">`, `</footer>`, `</div>`)
		inner := layout
		layout = func(title, main string) string { return plain.Replace(inner(title, main)) }
	}
	site := map[string]string{}
	var home strings.Builder
	home.WriteString(`<section class="hero"><h1>` + name + `</h1><p>` + e(b.Profile.Description) + `</p></section><section class="links"><ul>`)
	for _, p := range b.Pages {
		home.WriteString(`<li><a href="` + e(pathOf(p.URL)) + `">` + e(p.Title) + `</a></li>`)
	}
	home.WriteString(`</ul></section>`)
	site["/"] = layout(b.Profile.BusinessName, home.String())
	for _, p := range b.Pages {
		site[pathOf(p.URL)] = layout(p.Title, `<article><h1>`+e(p.Title)+`</h1>`+renderContent(p.Content, w.item, w.price, w.details)+`</article>`)
	}
	return site
}

// price finds an amount of money, with "from" before it in the data's languages.
var price = regexp.MustCompile(`(?i)(?:(?:from|desde|a partir de)\s+)?(?:R\$\s?\d[\d.,]*|[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|euros?|pesos))`)

// renderContent renders a page's plain text as HTML: each paragraph (blank-line separated) a
// <p>; a paragraph of several lines a <ul>; a run of two or more sentences that each name an item
// and its price ("Fillings from $120.", "Corte de homem: 15 €.") a price list, a <table> (item,
// price, details) when some row has details after the price, else a <ul>.
func renderContent(content, item, priceCol, details string) string {
	e := html.EscapeString
	var b strings.Builder
	for _, para := range strings.Split(strings.TrimSpace(content), "\n\n") {
		lines := strings.Split(strings.TrimSpace(para), "\n")
		var sentences []string
		for _, l := range lines {
			sentences = append(sentences, splitSentences(l)...)
		}
		type row struct{ orig, name, price, details string }
		var run []row
		var prose []string
		flushProse := func() {
			if len(prose) == 0 {
				return
			}
			if len(lines) > 1 && len(prose) > 1 {
				b.WriteString("<ul>")
				for _, s := range prose {
					b.WriteString("<li>" + e(s) + "</li>")
				}
				b.WriteString("</ul>")
			} else {
				b.WriteString("<p>" + e(strings.Join(prose, " ")) + "</p>")
			}
			prose = prose[:0]
		}
		// flush writes a run of two or more priced items as a list; a lone one stays prose.
		flush := func() {
			if len(run) < 2 {
				for _, r := range run {
					prose = append(prose, r.orig)
				}
				run = run[:0]
				return
			}
			flushProse()
			table := false
			for _, r := range run {
				table = table || r.details != ""
			}
			if table {
				b.WriteString(`<table class="prices"><thead><tr><th>` + item + `</th><th>` + priceCol + `</th><th>` + details + `</th></tr></thead><tbody>`)
				for _, r := range run {
					b.WriteString("<tr><td>" + e(r.name) + "</td><td>" + e(r.price) + "</td><td>" + e(r.details) + "</td></tr>")
				}
				b.WriteString("</tbody></table>")
			} else {
				b.WriteString(`<ul class="prices">`)
				for _, r := range run {
					b.WriteString("<li><strong>" + e(r.name) + "</strong> " + e(r.price) + "</li>")
				}
				b.WriteString("</ul>")
			}
			run = run[:0]
		}
		for _, s := range sentences {
			m := price.FindStringIndex(s)
			if m != nil {
				name := strings.TrimRight(s[:m[0]], " (:–-,")
				if n := len(strings.Fields(name)); n >= 1 && n <= 6 {
					run = append(run, row{s, name, s[m[0]:m[1]], strings.Trim(s[m[1]:], " ):.,;")})
					continue
				}
			}
			flush()
			prose = append(prose, s)
		}
		flush()
		flushProse()
	}
	return b.String()
}

// splitSentences splits a line after ".", "!" or "?" followed by a space and a capital letter.
func splitSentences(line string) []string {
	var out []string
	start := 0
	rs := []rune(line)
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?') && rs[i+1] == ' ' && (strings.ToUpper(string(rs[i+2])) == string(rs[i+2]) && strings.ToLower(string(rs[i+2])) != string(rs[i+2])) {
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 2
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}
