package crawl

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/svcagent/svc/domain/knowledge"
)

// document is what the crawler takes from one HTML page.
type document struct {
	title    string // readability's title, else the <title> (or <h1>)
	docTitle string // the <title> (or <h1>) as written, the site's name still on it
	text     string
	links    []*url.URL
}

// extract reads a parsed page: its links (resolved against the page URL or its <base>), its
// title, and its main readable text. The text comes from readability; when that finds less than
// minChars, the page's visible text without the site's chrome (fallbackText) is used if it is
// longer.
func extract(doc *html.Node, pageURL *url.URL, minChars int) document {
	var d document
	d.links = links(doc, pageURL)
	fallback := fallbackText(doc)
	d.docTitle = collapse(textOf(find(doc, atom.Title)))
	if d.docTitle == "" {
		d.docTitle = collapse(textOf(find(doc, atom.H1)))
	}

	// readability changes the tree, so it runs last.
	d.title, d.text = readable(doc, pageURL)
	if d.title == "" {
		d.title = d.docTitle
	}
	if utf8.RuneCountInString(d.text) < minChars && utf8.RuneCountInString(fallback) > utf8.RuneCountInString(d.text) {
		d.text = fallback
	}
	return d
}

// readable returns the title and main text readability finds, or empty strings. A panic in the
// extractor on hostile HTML costs only this page's main text, not the process.
func readable(doc *html.Node, pageURL *url.URL) (title, text string) {
	defer func() {
		if recover() != nil {
			title, text = "", ""
		}
	}()
	article, err := readability.FromDocument(doc, pageURL)
	if err != nil {
		return "", ""
	}
	if article.Node != nil {
		var b strings.Builder
		if article.RenderText(&b) == nil {
			text = withoutLinkLines(collapse(b.String()), article.Node)
		}
	}
	return collapse(article.Title()), text
}

// withoutLinkLines drops the lines of text that are the whole text of one of n's links: a list of
// links readability kept (a home page's menu of the site's pages, "related pages"), whose lines
// would be passages of their own, a page's title without its text.
func withoutLinkLines(text string, n *html.Node) string {
	linked := map[string]bool{}
	walk(n, func(c *html.Node) bool {
		if c.Type == html.ElementNode && c.DataAtom == atom.A {
			if t := collapse(textOf(c)); t != "" && !strings.Contains(t, "\n") {
				linked[t] = true
			}
			return false
		}
		return true
	})
	if len(linked) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !linked[l] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// links returns the absolute http(s) targets of the page's <a> and <area> elements, fragments
// dropped; mailto:, javascript:, tel: and other schemes are left out.
func links(doc *html.Node, pageURL *url.URL) []*url.URL {
	base := pageURL
	if b := find(doc, atom.Base); b != nil {
		if href, ok := attr(b, "href"); ok {
			if u, err := pageURL.Parse(strings.TrimSpace(href)); err == nil {
				base = u
			}
		}
	}
	var out []*url.URL
	walk(doc, func(n *html.Node) bool {
		if n.Type != html.ElementNode || (n.DataAtom != atom.A && n.DataAtom != atom.Area) {
			return true
		}
		href, ok := attr(n, "href")
		href = strings.TrimSpace(href)
		if !ok || href == "" || strings.HasPrefix(href, "#") {
			return true
		}
		u, err := base.Parse(href)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return true
		}
		out = append(out, normalize(u))
		return true
	})
	return out
}

// fallbackText is the visible text of a page readability finds too little in (a home page of a
// short introduction and links, a page laid out in tables): that of its <main> (or role=main)
// when it has one with text, else of the body; without what a site repeats around every page —
// menus (<nav>, role=navigation), the site's header and footer (<header> and <footer> outside an
// <article>, role=banner and contentinfo, and outside <main> and <article> the <div>s whose id or
// class names one: "site-footer", "navbar"), <aside>, cookie and consent banners (an id or class
// naming them) — and without lines that are only the text of links (a menu written without
// <nav>). Readability leaves these out of the pages it reads; kept on the pages it does not, they
// made passages of their own ("Home / Shipping / Returns" for "is shipping free", "© 2026 … All
// rights reserved" for "cómo reservo una clase") and answered questions the site's own pages
// answer.
func fallbackText(doc *html.Node) string {
	whole := body(doc)
	root := whole
	walk(whole, func(n *html.Node) bool {
		if root != whole {
			return false
		}
		if n.Type == html.ElementNode && (n.DataAtom == atom.Main || roleIs(n, "main")) && strings.TrimSpace(textOf(n)) != "" {
			root = n
			return false
		}
		return true
	})
	var b strings.Builder
	pageText(&b, root, root != whole) // what <main> holds is the page's own
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		if linkOnly(l) {
			continue
		}
		out = append(out, strings.ReplaceAll(l, linkMark, ""))
	}
	return collapse(strings.Join(out, "\n"))
}

// linkMark brackets a link's text in fallbackText's lines (the parser turns NUL in the page into
// U+FFFD, so the page's own text never holds it).
const linkMark = "\x00"

// linkOnly reports whether a line holds links and no letter or digit outside them.
func linkOnly(line string) bool {
	if !strings.Contains(line, linkMark) {
		return false
	}
	parts := strings.Split(line, linkMark)
	for i := 0; i < len(parts); i += 2 { // the even parts lie outside links
		if strings.IndexFunc(parts[i], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return false
		}
	}
	return true
}

// chrome reports whether n is part of the site's layout around the page rather than its content
// (fallbackText); inArticle: n is within an <article> or the <main> read, where a header, a footer
// or a class naming one belong to the content.
func chrome(n *html.Node, inArticle bool) bool {
	switch {
	case n.DataAtom == atom.Nav || n.DataAtom == atom.Aside:
		return true
	case (n.DataAtom == atom.Header || n.DataAtom == atom.Footer) && !inArticle:
		return true
	case roleIs(n, "navigation") || roleIs(n, "banner") || roleIs(n, "contentinfo"):
		return true
	}
	for _, name := range [...]string{"id", "class"} {
		v, _ := attr(n, name)
		v = strings.ToLower(v)
		if strings.Contains(v, "cookie") || strings.Contains(v, "consent") || strings.Contains(v, "gdpr") {
			return true
		}
		if !inArticle && layoutName.MatchString(v) && !contentName.MatchString(v) {
			return true
		}
	}
	return false
}

// layoutName and contentName are words of the ids and classes that name a site's layout around
// the page and the page's content, for sites built of <div>s only ("site-footer", "navbar";
// "content"). Not "menu": a restaurant's menu of dishes and prices is often a <div
// class="menu">, and a menu of the site's pages is left out as lines of links only (linkOnly).
var (
	layoutName  = regexp.MustCompile(`(^|[\s_-])(header|footer|nav|navbar|navigation|sidebar|masthead|colophon|topbar|breadcrumbs?)($|[\s_-])`)
	contentName = regexp.MustCompile(`(^|[\s_-])(content|main|article|post|entry)($|[\s_-])`)
)

func roleIs(n *html.Node, role string) bool {
	v, _ := attr(n, "role")
	return strings.EqualFold(strings.TrimSpace(v), role)
}

// skipText are elements whose content is not visible text.
var skipText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true,
	atom.Head: true, atom.Select: true, atom.Button: true,
}

// blocks are elements that break lines.
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true, atom.Br: true,
	atom.Dd: true, atom.Details: true, atom.Div: true, atom.Dl: true, atom.Dt: true,
	atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true, atom.Footer: true,
	atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
	atom.H6: true, atom.Header: true, atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true,
	atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Summary: true,
	atom.Table: true, atom.Td: true, atom.Th: true, atom.Tr: true, atom.Ul: true,
}

// pageText writes the visible text under n to b (without scripts, styles and other invisible
// content, with line breaks at block elements) without the site's layout around the page
// (chrome), each link's text between linkMarks; inArticle: n is within an <article> or the
// <main> read.
func pageText(b *strings.Builder, n *html.Node, inArticle bool) {
	if n == nil {
		return
	}
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
		return
	case html.ElementNode:
		if skipText[n.DataAtom] {
			return
		}
		if _, hidden := attr(n, "hidden"); hidden {
			return
		}
		if chrome(n, inArticle) {
			return
		}
		inArticle = inArticle || n.DataAtom == atom.Article
	case html.CommentNode:
		return
	}
	block := n.Type == html.ElementNode && blocks[n.DataAtom]
	link := n.Type == html.ElementNode && n.DataAtom == atom.A
	if block {
		b.WriteByte('\n')
	}
	if link {
		b.WriteString(linkMark)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		pageText(b, c, inArticle)
	}
	if link {
		b.WriteString(linkMark)
	}
	if block {
		b.WriteByte('\n')
	}
}

// textOf returns all the text under n.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		return true
	})
	return b.String()
}

// collapse squeezes each line's white space to single spaces and drops empty lines.
func collapse(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// body returns the <body> element, or the whole document when there is none.
func body(doc *html.Node) *html.Node {
	if b := find(doc, atom.Body); b != nil {
		return b
	}
	return doc
}

// find returns the first element of kind a under n, in document order.
func find(n *html.Node, a atom.Atom) *html.Node {
	var found *html.Node
	walk(n, func(c *html.Node) bool {
		if found != nil {
			return false
		}
		if c.Type == html.ElementNode && c.DataAtom == a {
			found = c
			return false
		}
		return true
	})
	return found
}

// walk calls fn on n and its descendants in document order; fn returns false to skip a node's
// children.
func walk(n *html.Node, fn func(*html.Node) bool) {
	if !fn(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, name) {
			return a.Val, true
		}
	}
	return "", false
}

// titleSeparators part a page's own title from the site's name in a <title>.
var titleSeparators = [...]string{" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " / "}

// trimSiteName takes the site's name off the pages' titles ("Shipping | Northwind Apparel"): the
// part before the first or after the last separator that at least two of the pages' <title>s as
// written (docTitles, one per page), and half of them, share. Readability leaves it on many
// titles, and takes it off others, so the name is counted on the <title>s, not on what
// readability left. On every chunk's title it adds the same words to every passage of the site,
// which then match questions naming the business or its trade as much as the page that answers
// them. A title that is nothing but the name keeps it.
func trimSiteName(pages []knowledge.Page, docTitles []string) {
	if len(pages) < 2 {
		return
	}
	for _, suffix := range [...]bool{true, false} {
		count := map[string]int{}
		for _, t := range docTitles {
			if name, _, ok := splitTitle(t, suffix); ok {
				count[strings.ToLower(name)]++
			}
		}
		for i, p := range pages {
			if name, rest, ok := splitTitle(p.Title, suffix); ok && rest != "" {
				if n := count[strings.ToLower(name)]; n >= 2 && 2*n >= len(pages) {
					pages[i].Title = rest
				}
			}
		}
	}
}

// splitTitle splits a title at its last separator (suffix) or its first one: the site's name
// that may be there, and the rest.
func splitTitle(title string, suffix bool) (name, rest string, ok bool) {
	at, sep := -1, ""
	for _, s := range titleSeparators {
		i := strings.Index(title, s)
		if suffix {
			i = strings.LastIndex(title, s)
		}
		if i >= 0 && (at < 0 || suffix && i > at || !suffix && i < at) {
			at, sep = i, s
		}
	}
	if at < 0 {
		return "", "", false
	}
	if suffix {
		return strings.TrimSpace(title[at+len(sep):]), strings.TrimSpace(title[:at]), true
	}
	return strings.TrimSpace(title[:at]), strings.TrimSpace(title[at+len(sep):]), true
}
