package tests

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWidgetMarkdownBrowser: an answer's bold, italic, inline code and lists (an upstream model
// writes markdown) are elements made from text; what is not that markdown (2 * 3 * 4,
// snake_case_words, an unclosed **, a price's footnote star) stays as written, and so does
// everything the visitor writes.
func TestWidgetMarkdownBrowser(t *testing.T) {
	const greeting = "**Hours** today:\n- *Mon* 9–5\n* _Tue_ closed\n\n1. Call `a_b_c` or **[us](https://lu.example/c)**\n2. Visit\n\n" +
		"2 * 3 * 4, snake_case_words, **unclosed, *€10* and €10* (*tax) <img src=x onerror=alert(1)>"
	ctx := greetedChat(t, greeting)
	const sr = widgetRoot
	const want = `<b>Hours</b> today:<ul><li><i>Mon</i> 9–5</li><li><i>Tue</i> closed</li></ul>` +
		`<ol start="1"><li>Call <code>a_b_c</code> or <b><a href="https://lu.example/c" target="_blank" rel="noopener noreferrer nofollow">us</a></b></li><li>Visit</li></ol>` +
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
