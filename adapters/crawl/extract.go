package crawl

import (
	"net/url"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// document is what the crawler takes from one HTML page.
type document struct {
	title string
	text  string
	links []*url.URL
}

// extract reads a parsed page: its links (resolved against the page URL or its <base>), its
// title, and its main readable text. The text comes from readability; when that finds less than
// minChars, the whole body's visible text is used if it is longer.
func extract(doc *html.Node, pageURL *url.URL, minChars int) document {
	var d document
	d.links = links(doc, pageURL)
	fallback := collapse(visibleText(body(doc)))
	docTitle := collapse(textOf(find(doc, atom.Title)))
	if docTitle == "" {
		docTitle = collapse(textOf(find(doc, atom.H1)))
	}

	// readability changes the tree, so it runs last.
	d.title, d.text = readable(doc, pageURL)
	if d.title == "" {
		d.title = docTitle
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
			text = collapse(b.String())
		}
	}
	return collapse(article.Title()), text
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

// visibleText returns the text under n, without scripts, styles and other invisible content,
// with line breaks at block elements.
func visibleText(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var visit func(*html.Node)
	visit = func(n *html.Node) {
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
		case html.CommentNode:
			return
		}
		block := n.Type == html.ElementNode && blocks[n.DataAtom]
		if block {
			b.WriteByte('\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
		if block {
			b.WriteByte('\n')
		}
	}
	visit(n)
	return b.String()
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
