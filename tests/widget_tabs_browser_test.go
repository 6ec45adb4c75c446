package tests

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWidgetTabsBrowser opens the same site in two tabs of a browser (one visitor: the same
// svc_visitor cookie, so one conversation): what is asked and answered in one tab shows in the
// other without a reload, once, in order.
func TestWidgetTabsBrowser(t *testing.T) {
	page, one := widgetPage(t)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	two, cancel := chromedp.NewContext(one)
	t.Cleanup(cancel)
	for _, tab := range []context.Context{one, two} {
		runJS(t, tab, "open the page", chromedp.Navigate(page))
		waitJS(t, tab, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
		runJS(t, tab, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	}
	runJS(t, one, "ask in the first tab", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), gfQuestion+"\r"))
	thread := `[...` + sr + `.querySelectorAll(".m.customer, .m.agent")].map(m => m.classList.contains("customer") ? "Q:" + m.textContent : "A:" + m.textContent)`
	answered := `(() => { const m = ` + thread + `; return m.length === 2 && m[0] === "Q:` + gfQuestion + `" && m[1].startsWith("A:") && m[1].includes("` + gfAnswerBit + `") })()`
	waitJS(t, one, "answered in the first tab", answered)
	waitJS(t, two, "the question and its answer in the second tab, without a reload", answered)
}
