package tests

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestWidgetTroubleBrowser runs the widget in headless Chromium on a phone-sized screen (375×667)
// through what goes wrong for a visitor, and checks that the chat always says why in the
// visitor's words, never hangs, and keeps a message the visitor may send again in the input: a
// message over 8,000 characters (refused before it is sent, nothing cut), a NUL in the text
// (left out, the rest sent), the service stopped and started again on the same address, the
// account out of interactions (402), and a service that takes the connection but never answers. The chat fits the screen and its input's text is at least
// 16 px (a phone zooms the page into a smaller one); the title has its own weight and size.
func TestWidgetTroubleBrowser(t *testing.T) {
	env, api, a, page := restartableWidgetSite(t, "--plan", "pro", "--interaction-limit", "2")
	ctx := browser(t, chromiumPath(t))
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	const ta = sr + `.querySelector("textarea")`
	runJS(t, ctx, "a phone's screen", chromedp.EmulateViewport(375, 667))
	openChat(t, ctx, page)
	wantJS(t, ctx, "the chat fits the 375×667 screen", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect();
		return r.left >= 0 && r.top >= 0 && r.right <= 375 && r.bottom <= 667 && r.width >= 300 })()`)
	wantJS(t, ctx, "the input's text is at least 16px on a phone", `parseFloat(getComputedStyle(`+ta+`).fontSize) >= 16`)
	wantJS(t, ctx, "the title is 600 and 16px", `(() => { const h = getComputedStyle(`+sr+`.querySelector("h2")); return h.fontWeight === "600" && h.fontSize === "16px" })()`)

	// sendJS puts text in the input (as a paste would) and presses Enter.
	sendJS := func(what, text string) {
		t.Helper()
		evaluate[bool](t, ctx, what, `(() => { const ta = `+ta+`; ta.value = `+text+`;
			ta.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); return true })()`)
	}
	lastNote := `(() => { const n = [...` + sr + `.querySelectorAll(".m.note")]; return n.length ? n[n.length - 1].textContent : "" })()`
	settled := `!` + sr + `.querySelector("button[type=submit]").disabled && !` + sr + `.querySelector(".ty:not([hidden])")`
	notes := func() int { return evaluate[int](t, ctx, "count the notes", sr+`.querySelectorAll(".m.note").length`) }

	sendJS("a message of 8,001 characters", `"x".repeat(8001)`)
	waitJS(t, ctx, "the chat says the message is too long", lastNote+` === "Your message is too long: at most 8,000 characters."`)
	wantJS(t, ctx, "the long message stays in the input, whole, and was not sent",
		ta+`.value.length === 8001 && !`+sr+`.querySelector(".m.customer") && `+settled)

	sendJS("a message with a NUL", `"Do you have gluten-free\u0000 bread?"`)
	waitJS(t, ctx, "the message without its NUL is answered", `(() => { const m = [...`+sr+`.querySelectorAll(".m")]; const c = m.filter(x => x.classList.contains("customer"));
		return c.length === 1 && c[0].textContent === "Do you have gluten-free bread?" && !c[0].classList.contains("failed") &&
		m[m.length - 1].classList.contains("agent") && m[m.length - 1].textContent.includes("`+gfAnswerBit+`") })()`)

	api.stop(t)
	before := notes()
	sendJS("a message while the service is down", `"Do you deliver?"`)
	waitJS(t, ctx, "the chat says it cannot reach the service", `document.querySelector("#svc-chat-widget").shadowRoot.querySelectorAll(".m.note").length > `+strconv.Itoa(before)+
		` && `+lastNote+` === "Could not reach the chat. Check your connection and try again."`)
	wantJS(t, ctx, "the message is back in the input, the chat usable", ta+`.value === "Do you deliver?" && `+settled)

	api = start(t, "svc-api", env, waitHealthz)
	evaluate[bool](t, ctx, "send it again", `(() => { `+ta+`.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); return true })()`)
	waitJS(t, ctx, "the service back, the message is answered", `(() => { const m = [...`+sr+`.querySelectorAll(".m")];
		return m[m.length - 1].classList.contains("agent") && m[m.length - 2].textContent === "Do you deliver?" && `+ta+`.value === "" })()`)

	before = notes()
	sendJS("a message with no interaction left", `"Are you open on Sunday?"`)
	waitJS(t, ctx, "the chat says the assistant is unavailable", sr+`.querySelectorAll(".m.note").length > `+strconv.Itoa(before)+
		` && `+lastNote+` === "The assistant is unavailable right now."`)
	wantJS(t, ctx, "the chat is usable", settled)

	// A service that takes the connection and never answers (stopped with SIGSTOP): the chat
	// gives up after its 40 seconds and a margin, says so, and can be used again.
	if err := api.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.cmd.Process.Signal(syscall.SIGCONT) })
	before = notes()
	sendJS("a message to a service that does not answer", `"Is anyone there?"`)
	waitFor(t, 90*time.Second, "the chat gives up on a service that does not answer", func() (bool, string) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](sr+`.querySelectorAll(".m.note").length > `+strconv.Itoa(before)+
			` && `+lastNote+` === "Could not reach the chat. Check your connection and try again." && `+ta+`.value === "Is anyone there?" && `+settled))
		dbg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](lastNote+` + " | " + `+ta+`.value + " | " + `+sr+`.querySelector("button[type=submit]").disabled`))
		return ok && err == nil, fmt.Sprint(err, dbg)
	})
	_ = api.cmd.Process.Signal(syscall.SIGCONT)
	if strings.Contains(evaluate[string](t, ctx, "the page", `document.documentElement.outerHTML`), a.key) {
		t.Error("the page holds the API key")
	}
}

// TestWidgetLateServiceBrowser opens the page of a site while the service cannot be reached
// (the widget's script still in the browser's cache from an earlier visit): the chat appears by
// itself once the service is back, without the visitor reloading the page.
func TestWidgetLateServiceBrowser(t *testing.T) {
	env, api, _, page := restartableWidgetSite(t)
	ctx := browser(t, chromiumPath(t))
	const ready = `!!document.querySelector("#svc-chat-widget[data-ready]")`
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", ready)

	api.stop(t)
	runJS(t, ctx, "open the page again, the service down", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget's script ran (from the cache) and asked in vain",
		`performance.getEntriesByType("resource").some(e => e.name.includes("/info"))`)
	time.Sleep(500 * time.Millisecond)
	wantJS(t, ctx, "no chat while the service is down", `!document.querySelector("#svc-chat-widget")`)

	start(t, "svc-api", env, waitHealthz)
	waitJS(t, ctx, "the chat appears once the service is back", ready)
}

// TestWidgetLongOutageBrowser leaves a page open through an outage far longer than the widget's
// first tries (two minutes: the service's time is sped up a hundredfold in the page, so that its
// waits pass in a second or so): the widget keeps asking, at most about once a minute once its
// waits have grown, asks nothing while the tab is hidden, and when the tab is shown again with the
// service back, it asks at once and the chat appears.
func TestWidgetLongOutageBrowser(t *testing.T) {
	env, api, _, site := restartableWidgetSite(t)
	ctx := browser(t, chromiumPath(t))
	const ready = `!!document.querySelector("#svc-chat-widget[data-ready]")`
	runJS(t, ctx, "open the page", chromedp.Navigate(site))
	waitJS(t, ctx, "the widget is ready", ready)
	// In the page: its timers a hundred times quicker, its calls to /info counted, and a hidden
	// tab played by the test (window.hide).
	const fast = `(() => {
  const st = window.setTimeout.bind(window);
  window.setTimeout = (f, ms, ...a) => st(f, (ms || 0) / 100, ...a);
  const f = window.fetch.bind(window);
  window.infoCalls = 0;
  window.fetch = (u, o) => { if (String(u).includes("/info")) window.infoCalls++; return f(u, o); };
  let hidden = false;
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  window.hide = h => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
})();`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fast}); err != nil {
		t.Fatal(err)
	}

	api.stop(t)
	runJS(t, ctx, "open the page again, the service down", chromedp.Navigate(site))
	waitJS(t, ctx, "the widget asked in vain", `window.infoCalls > 0`)
	// 3 s here are 300 s in the page: past the two minutes after which the widget used to stop.
	time.Sleep(3 * time.Second)
	n := evaluate[int](t, ctx, "count the calls", `window.infoCalls`)
	// Waits of 1–2, 2–4, 4–8, 8–16, 16–32, 32–64 s, then 30–60 s: about 10 calls in 300 s.
	if n < 8 || n > 16 {
		t.Errorf("%d calls to /info in 300 s of outage, want 8 to 16 (more than the 7 of a widget that stops, at most one a minute once the waits have grown)", n)
	}
	wantJS(t, ctx, "no chat while the service is down", `!document.querySelector("#svc-chat-widget")`)

	runJS(t, ctx, "hide the tab", chromedp.Evaluate[chromedp.Void](`window.hide(true)`))
	time.Sleep(300 * time.Millisecond) // a call under way ends
	hidden := evaluate[int](t, ctx, "count the calls", `window.infoCalls`)
	start(t, "svc-api", env, waitHealthz)
	time.Sleep(1500 * time.Millisecond) // 150 s in the page: two waits or more
	if m := evaluate[int](t, ctx, "count the calls", `window.infoCalls`); m != hidden {
		t.Errorf("a hidden tab asked %d times", m-hidden)
	}
	runJS(t, ctx, "show the tab", chromedp.Evaluate[chromedp.Void](`window.hide(false)`))
	waitJS(t, ctx, "the chat appears once the tab is shown, the service back", ready)
	wantJS(t, ctx, "one call more", `window.infoCalls === `+strconv.Itoa(hidden+1))
}

// restartableWidgetSite starts an embedded svc-api on a fixed address, so that a test can stop
// it and start it again with env, and a site embedding the widget of a new account made with
// args (widgetSite).
func restartableWidgetSite(t *testing.T, args ...string) (env map[string]string, api *proc, a account, page string) {
	t.Helper()
	binaries(t) // -short skips here
	s := newEmbedded(t)
	addr := freeAddr(t)
	env = s.with("SVC_HTTP_ADDR", addr, "SVC_PUBLIC_URL", "http://"+addr, "SVC_METRICS_ADDR", freeAddr(t))
	api = start(t, "svc-api", env, waitHealthz)
	a, page = widgetSite(t, s, api, args...)
	return env, api, a, page
}
