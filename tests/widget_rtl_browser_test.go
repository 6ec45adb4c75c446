package tests

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWidgetRTLBrowser writes to the chat of an English page in Arabic, with an emoji and a word
// longer than the chat is wide: the input and the visitor's message run right to left (each
// takes the direction of its own text, dir="auto"), an English answer stays left to right, and
// nothing is wider than the chat.
func TestWidgetRTLBrowser(t *testing.T) {
	page, ctx := widgetPage(t)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	const ta = sr + `.querySelector("textarea")`
	runJS(t, ctx, "a phone's screen", chromedp.EmulateViewport(375, 667))
	openChat(t, ctx, page)
	const arabic = "هل لديكم خبز خالٍ من الغلوتين؟ 🍞"
	runJS(t, ctx, "type in Arabic", chromedp.SendKeys(chromedp.JSPath(ta), arabic))
	wantJS(t, ctx, "the input runs right to left", `getComputedStyle(`+ta+`).direction === "rtl"`)
	evaluate[bool](t, ctx, "send", `(() => { `+ta+`.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); return true })()`)
	waitJS(t, ctx, "the message is answered", `(() => { const m = [...`+sr+`.querySelectorAll(".m")]; return m.length >= 2 && m[m.length - 1].classList.contains("agent") && m[m.length - 2].classList.contains("customer") })()`)
	wantJS(t, ctx, "the visitor's Arabic runs right to left, the English answer left to right", `(() => {
		const c = `+sr+`.querySelector(".m.customer"), a = [...`+sr+`.querySelectorAll(".m.agent")].pop();
		return c.textContent === "`+arabic+`" && getComputedStyle(c).direction === "rtl" && getComputedStyle(a).direction === "ltr" })()`)
	wantJS(t, ctx, "an empty input is left to right again", `(() => { `+ta+`.value = ""; return getComputedStyle(`+ta+`).direction === "ltr" })()`)

	evaluate[bool](t, ctx, "send a word longer than the chat", `(() => { const ta = `+ta+`; ta.value = "https://lu.example/" + "pão".repeat(80);
		ta.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); return true })()`)
	waitJS(t, ctx, "the long word is answered", `[...`+sr+`.querySelectorAll(".m.customer")].length === 2 && !`+sr+`.querySelector("button[type=submit]").disabled`)
	wantJS(t, ctx, "nothing is wider than the chat", `(() => { const g = `+sr+`.querySelector(".g");
		return g.scrollWidth <= g.clientWidth && [...`+sr+`.querySelectorAll(".m")].every(m => m.getBoundingClientRect().right <= g.getBoundingClientRect().right) })()`)
	keepShot(t, ctx, "", "widget-rtl.png", 100)
}
