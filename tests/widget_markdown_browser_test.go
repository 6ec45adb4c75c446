package tests

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWidgetMarkdownBrowser: an answer's bold, italic, inline code and lists (an upstream model
// writes markdown) are elements made from text, a blank line between two lists kept; what is not
// that markdown (2 * 3 * 4, snake_case_words, an unclosed **, a price's footnote star) stays as
// written, and so does everything the visitor writes.
func TestWidgetMarkdownBrowser(t *testing.T) {
	const greeting = "**Hours** today:\n- *Mon* 9–5\n* _Tue_ closed\n\n1. Call `a_b_c` or **[us](https://lu.example/c)**\n2. Visit\n\n" +
		"2 * 3 * 4, snake_case_words, **unclosed, *€10* and €10* (*tax) <img src=x onerror=alert(1)>"
	ctx := greetedChat(t, greeting)
	const sr = widgetRoot
	const want = `<b>Hours</b> today:<ul><li><i>Mon</i> 9–5</li><li><i>Tue</i> closed</li></ul>` +
		"\n" + `<ol start="1"><li>Call <code>a_b_c</code> or <b><a href="https://lu.example/c" target="_blank" rel="noopener noreferrer nofollow">us</a></b></li><li>Visit</li></ol>` +
		"\n2 * 3 * 4, snake_case_words, **unclosed, <i>€10</i> and €10* (*tax) &lt;img src=x onerror=alert(1)&gt;"
	if got := evaluate[string](t, ctx, "the greeting's elements", sr+`.querySelector(".m.agent").innerHTML`); got != want {
		t.Errorf("the greeting is\n%s\nwant\n%s", got, want)
	}
	wantJS(t, ctx, "the list shows its bullets inside the bubble", `(() => { const l = `+sr+`.querySelector(".m.agent ul"), m = l.closest(".m"), li = l.querySelector("li");
		return getComputedStyle(li).display === "list-item" && l.getBoundingClientRect().left >= m.getBoundingClientRect().left && l.getBoundingClientRect().height < 60 })()`)

	const asked = "**hi** *there*\n- a"
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "**hi** *there*"))
	evaluate[string](t, ctx, "a new line", sr+`.querySelector("textarea").value += "\n- a"`)
	runJS(t, ctx, "send", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "\r"))
	waitJS(t, ctx, "the visitor's message as written", `[...`+sr+`.querySelectorAll(".m.customer")].some(m => m.textContent === `+jsString(asked)+` && !m.children.length)`)
}

// TestWidgetMarkdownBlocksBrowser: an answer's headings (## Title: a bold line, a heading under the
// chat's own) and tables (a row of cells over a rule row of as many: a table, its columns aligned
// as the rule row says, a short row filled) are elements made from text, and a blank line before a
// list stays; what only looks like them stays as written (a table whose rule row has another count
// of cells, #hashtag, C# code, a bar in a sentence, seven #). On a phone's screen a table with a
// long address stays inside its bubble, the address broken, not the short words of its header.
func TestWidgetMarkdownBlocksBrowser(t *testing.T) {
	const greeting = "Opening times:\n\n- Mon\n## Our *menu* ##\n| Day | Opens | Note |\n|:--|--:|:-:|\n| Mon | 9 | `a\\|b` https://lu.example/a/very/long/address/for/the/menu/of/the/day |\n| Tue |\n" +
		"Not a table:\n| a | b |\n|---|\n#hashtag, C# code, a | b in a sentence\n####### seven"
	ctx := greetedChat(t, greeting)
	const sr = widgetRoot
	const want = "Opening times:\n\n<ul><li>Mon</li></ul><h3>Our <i>menu</i></h3>" +
		`<table><thead><tr><th style="text-align: left;">Day</th><th style="text-align: right;">Opens</th><th style="text-align: center;">Note</th></tr></thead>` +
		`<tbody><tr><td style="text-align: left;">Mon</td><td style="text-align: right;">9</td><td style="text-align: center;"><code>a|b</code> ` +
		`<a href="https://lu.example/a/very/long/address/for/the/menu/of/the/day" target="_blank" rel="noopener noreferrer nofollow">https://lu.example/a/very/long/address/for/the/menu/of/the/day</a></td></tr>` +
		`<tr><td style="text-align: left;">Tue</td><td style="text-align: right;"></td><td style="text-align: center;"></td></tr></tbody></table>` +
		"Not a table:\n| a | b |\n|---|\n#hashtag, C# code, a | b in a sentence\n####### seven"
	if got := evaluate[string](t, ctx, "the greeting's elements", sr+`.querySelector(".m.agent").innerHTML`); got != want {
		t.Errorf("the greeting is\n%s\nwant\n%s", got, want)
	}
	wantJS(t, ctx, "the blank line before a list shows", `(() => { const l = `+sr+`.querySelector(".m.agent ul"), r = document.createRange();
		r.selectNodeContents([...l.parentNode.childNodes].find(n => n.data === "Opening times:"));
		return l.getBoundingClientRect().top - r.getBoundingClientRect().bottom >= parseFloat(getComputedStyle(l.parentNode).lineHeight) })()`)
	wantJS(t, ctx, "the heading is a bold line of the answer's size", `(() => { const h = getComputedStyle(`+sr+`.querySelector(".m.agent h3")), m = getComputedStyle(`+sr+`.querySelector(".m.agent"));
		return h.fontWeight >= 600 && h.fontSize === m.fontSize && h.marginTop === "0px" })()`)
	runJS(t, ctx, "a phone's screen", chromedp.EmulateViewport(375, 667))
	waitJS(t, ctx, "the table stays in its bubble, its cells ruled, its header cells one line each", `innerWidth === 375 && (() => { const b = `+sr+`.querySelector(".m.agent table"), m = b.closest(".m").getBoundingClientRect(), r = b.getBoundingClientRect();
		return r.left >= m.left && r.right <= m.right && m.right <= innerWidth && getComputedStyle(b.querySelector("td")).borderTopStyle === "solid" &&
		[...b.querySelectorAll("th")].every(c => c.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(c).lineHeight)) })()`)
	keepShot(t, ctx, "", "widget-markdown-phone.png", 100)
}
