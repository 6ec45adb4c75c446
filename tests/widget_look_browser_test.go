package tests

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// hostileCSS is a site's stylesheet of the kind that leaks into embedded widgets: rules on every
// div (a transform makes a fixed element's box its own) and on every element of the body.
const hostileCSS = `div { display: block; transform: translateZ(0); padding: 20px; border: 3px dashed green; }
body * { letter-spacing: 3px; text-transform: uppercase; text-align: right; word-spacing: 10px; text-shadow: 1px 1px red; }
button { background: yellow !important; color: black !important; }`

// serveStyledPage serves on 127.0.0.1 a long page (it scrolls) with the snippet and its own
// stylesheet css, under a strict Content-Security-Policy that allows the page's own stylesheet.
func serveStyledPage(t *testing.T, apiURL, snippet, css string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Padaria Lu</title><link rel="stylesheet" href="/site.css"></head>
<body><a href="#menu">Menu</a><h1>Padaria Lu</h1>` + strings.Repeat("<p>Bread since 1962, baked every morning in Lisbon.</p>", 80) + snippet + `</body></html>`
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src "+apiURL+"; connect-src "+apiURL+
				"; img-src "+apiURL+"; style-src 'self'; base-uri 'none'; form-action 'none'")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(page))
		case "/site.css":
			w.Header().Set("Content-Type", "text/css")
			_, _ = w.Write([]byte(css))
		default:
			http.NotFound(w, r)
		}
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String() + "/"
}

// contrastJS defines contrast(textElement, backgroundElement): the WCAG contrast ratio of the
// first's computed colour on the second's computed background colour.
const contrastJS = `const lum = c => c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => v / 255)
	  .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
	const contrast = (fg, bg) => { const a = lum(getComputedStyle(fg).color), b = lum(getComputedStyle(bg).backgroundColor);
	  return Math.round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 100) / 100 };`

// TestWidgetLookBrowser checks how the widget looks and behaves on pages that are not kind to it,
// in headless Chromium: a site whose stylesheet styles every div and every element of the body
// (nothing of it reaches the chat, which stays in the window's corner); a light main colour saved
// with the dark theme (the text on it is dark, every text reads at 4.5:1 at least); a page's own
// data-ink and data-paper over the saved dark theme (the bubbles follow the page's colours) with
// data-lang="es" on an English page (the chat's words are marked Spanish); the
// keyboard (Tab reaches the launcher, Enter opens with the input focused, Esc in the chat or on
// the launcher closes it and focus returns to the launcher); who speaks is in the texts a screen
// reader reads ("You:", the agent's name), not on the screen; an answer made of HTML and script
// shows as text; and a window made smaller after the chat was dragged (the chat stays
// in sight). Screenshots of the states are kept as test artifacts.
func TestWidgetLookBrowser(t *testing.T) {
	api, _, key := styledWidget(t, map[string]any{"theme": "dark", "accent": "#ffd600"})
	const markup = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script><b>bold</b>`
	if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": []map[string]string{{"question": "Is your website safe?", "answer": markup}}}, key...); r.status != http.StatusOK {
		t.Fatalf("POST /v1/knowledge/faq: %s", r)
	}
	snippet := call(t, "GET", api.URL()+"/v1/widget?framework=html", key...).body.str("code")
	styled := serveStyledPage(t, api.URL(), snippet, hostileCSS)
	ctx := browser(t, chromiumPath(t))
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`

	runJS(t, ctx, "open the page with its own styles", chromedp.Navigate(styled))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	wantJS(t, ctx, "the page's own styles still apply to the page", `getComputedStyle(document.querySelector("h1")).textTransform === "uppercase"`)
	wantJS(t, ctx, "the launcher is in the window's bottom right corner, whatever the page's div rules",
		`(() => { const r = `+sr+`.querySelector("button.l").getBoundingClientRect(); return Math.abs(innerWidth - 20 - r.right) <= 1 && Math.abs(innerHeight - 20 - r.bottom) <= 1 })()`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "When are you open on Sunday?\r"))
	waitJS(t, ctx, "the answer with its page link", sr+`.querySelector(".m.agent .act")`)
	leaks := evaluate[string](t, ctx, "the page's styles in the chat", `(() => { const m = getComputedStyle(`+sr+`.querySelector(".m.agent"));
		const b = getComputedStyle(`+sr+`.querySelector(".f button"));
		return [m.letterSpacing, m.textTransform, m.textAlign, m.wordSpacing, m.textShadow, b.backgroundColor === "rgb(255, 255, 0)" ? "yellow" : "own"].join(" ") })()`)
	if leaks != "normal none start 0px none own" {
		t.Errorf("the chat's letter-spacing, text-transform, text-align, word-spacing, text-shadow, send button: %q, want %q (the page's rules leak)", leaks, "normal none start 0px none own")
	}
	keepShot(t, ctx, "", "widget-dark-yellow.png", 100)
	var texts []string
	runJS(t, ctx, "read the accessibility tree", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		for _, n := range r.Nodes {
			if n.Role != nil && n.Name != nil && !n.Ignored && strings.Contains(string(n.Role.Value), "StaticText") {
				texts = append(texts, strings.Trim(string(n.Name.Value), `"`))
			}
		}
		return err
	}))
	if !slices.Contains(texts, "You:") || !slices.Contains(texts, "Padaria Lu:") {
		t.Errorf("the texts a screen reader reads: %q, want the speakers too (You:, Padaria Lu:)", texts)
	}
	wantJS(t, ctx, "the speakers are not on the screen", `(() => { const r = getComputedStyle(`+sr+`.querySelector(".m.customer"), "::before"); return r.width === "1px" && r.position === "absolute" })()`)
	runJS(t, ctx, "ask what the answer of HTML answers", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "Is your website safe?\r"))
	waitJS(t, ctx, "the answer of HTML, as text", `[...`+sr+`.querySelectorAll(".m.agent")].some(m => m.textContent.includes("<b>bold</b>"))`)
	wantJS(t, ctx, "no element and no script from the answer", `!`+sr+`.querySelector(".m img, .m script, .m b") && document.title === "Padaria Lu"`)

	// Every text on the main colour (#ffd600, light) and the page link on the dark paper read at
	// 4.5:1 at least.
	ratios := evaluate[map[string]float64](t, ctx, "the contrast of the texts", `(() => { `+contrastJS+` const r = `+sr+`;
		return {launcher: contrast(r.querySelector("button.l"), r.querySelector("button.l")), title: contrast(r.querySelector(".h h2"), r.querySelector(".h")),
		  close: contrast(r.querySelector(".x"), r.querySelector(".h")), send: contrast(r.querySelector(".f button"), r.querySelector(".f button")),
		  question: contrast(r.querySelector(".m.customer"), r.querySelector(".m.customer")), link: contrast(r.querySelector(".act"), r.querySelector(".act")),
		  answer: contrast(r.querySelector(".m.agent"), r.querySelector(".m.agent"))} })()`)
	for what, ratio := range ratios {
		if ratio < 4.5 {
			t.Errorf("the %s's text on the saved main colour #ffd600 (dark theme): contrast %.2f, want at least 4.5", what, ratio)
		}
	}

	// A page's own ink and paper over the saved dark theme: the bubbles follow them.
	plain := servePage(t, "127.0.0.1", api.URL(), strings.Replace(snippet, "<script ", `<script data-ink="#003300" data-paper="#fffff0" data-lang="es" `, 1))
	runJS(t, ctx, "open a page with its own ink and paper", chromedp.Navigate(plain))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]") && `+sr+`.querySelector(".m.agent")`)
	answer := evaluate[float64](t, ctx, "the answer's contrast", `(() => { `+contrastJS+` return contrast(`+sr+`.querySelector(".m.agent"), `+sr+`.querySelector(".m.agent")) })()`)
	if answer < 4.5 {
		t.Errorf("an answer's text with data-ink #003300 and data-paper #fffff0 over the saved dark theme: contrast %.2f, want at least 4.5", answer)
	}

	// The keyboard, on the page just loaded: Tab reaches the launcher, Enter opens the chat with
	// the input focused, Esc closes it and focus returns to the launcher.
	runJS(t, ctx, "press Tab", chromedp.KeyEvent("\t"))
	wantJS(t, ctx, "Tab reached the labelled launcher", sr+`.activeElement === `+sr+`.querySelector("button.l") && `+sr+`.activeElement.getAttribute("aria-label") === "Abrir chat"`)
	wantJS(t, ctx, "the chat's words are in Spanish for a screen reader on the English page", `document.documentElement.lang === "en" && `+sr+`.querySelector(".w").lang === "es"`)
	runJS(t, ctx, "press Enter", chromedp.KeyEvent("\r"))
	waitJS(t, ctx, "Enter opened the chat, the input focused", `!`+sr+`.querySelector(".pn").hidden && `+sr+`.activeElement === `+sr+`.querySelector("textarea")`)
	runJS(t, ctx, "press Esc", chromedp.KeyEvent(kb.Escape))
	waitJS(t, ctx, "Esc closed the chat, focus on the launcher", sr+`.querySelector(".pn").hidden && `+sr+`.activeElement === `+sr+`.querySelector("button.l")`)
	runJS(t, ctx, "press Enter", chromedp.KeyEvent("\r"))
	waitJS(t, ctx, "the chat is open again", `!`+sr+`.querySelector(".pn").hidden`)
	runJS(t, ctx, "back to the launcher", chromedp.Focus(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	runJS(t, ctx, "press Esc on the launcher", chromedp.KeyEvent(kb.Escape))
	waitJS(t, ctx, "Esc on the launcher closed the chat", sr+`.querySelector(".pn").hidden && `+sr+`.querySelector("button.l").getAttribute("aria-expanded") === "false"`)
	runJS(t, ctx, "press Enter", chromedp.KeyEvent("\r"))
	waitJS(t, ctx, "the chat is open again", `!`+sr+`.querySelector(".pn").hidden`)
	keepShot(t, ctx, "", "widget-ink-paper.png", 100)

	// A message the network drops looks apart from the ones sent.
	runJS(t, ctx, "the network drops the chat", blockURLs("*://*:*/widget/api/*/chat"))
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "Do you deliver?\r"))
	waitJS(t, ctx, "the message failed", sr+`.querySelector(".m.customer.failed")`)
	wantJS(t, ctx, "the failed message is faded, the one sent before is not", `getComputedStyle(`+sr+`.querySelector(".m.customer.failed")).opacity < 1 && getComputedStyle(`+sr+`.querySelector(".m.customer:not(.failed)")).opacity === "1"`)
	runJS(t, ctx, "the network is back", blockURLs())

	// Drag the chat to the right edge of the 1280 px window, then make the window 1000 px wide.
	head := evaluate[struct{ X, Y float64 }](t, ctx, "find the top bar", `(() => { const r = `+sr+`.querySelector(".h").getBoundingClientRect(); return {X: r.left + 60, Y: r.top + 20} })()`)
	runJS(t, ctx, "drag the chat to the right edge",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X, head.Y),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, head.X, head.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X+300, head.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X+900, head.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, head.X+900, head.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	wantJS(t, ctx, "the chat is at the right edge", `Math.abs(`+sr+`.querySelector(".pn").getBoundingClientRect().right - innerWidth) <= 1`)
	runJS(t, ctx, "a narrower window", chromedp.EmulateViewport(1000, 800))
	waitJS(t, ctx, "the window is narrower", `innerWidth === 1000`)
	waitJS(t, ctx, "the chat is still in the window", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth })()`)
}

// TestWidgetPendingBrowser sends a message whose reply takes longer than the service waits (202
// pending): while the widget looks for the reply the network drops its looks for a few seconds;
// the chat keeps waiting (the message was taken: nothing to send again) and shows the reply when
// it comes, with no note and the input empty.
func TestWidgetPendingBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	fake := newFakeModel(t)
	fake.slowDelay = 6 * time.Second
	api := s.startAPI(t, "SVC_MODEL_BASE_URL", fake.URL()+"/v1", "SVC_MODEL_API_KEY", "sk-fake-api", "SVC_MODEL_NAME", "fake-model",
		"SVC_CHAT_WAIT", "1s", "SVC_REPLY_TIMEOUT", "20s")
	_, page := widgetSite(t, s, api, "--plan", "pro")
	ctx := browser(t, chromium)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))

	runJS(t, ctx, "the network drops the looks at the conversation", blockURLs("*://*:*/widget/api/*/messages?*"))
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "Do you bake on Sundays? #slow tag=wpend\r"))
	time.Sleep(4500 * time.Millisecond) // the 202 after 1 s, a first look 2 s later: dropped
	runJS(t, ctx, "the network is back", blockURLs())
	waitJS(t, ctx, "the reply came", `[...`+sr+`.querySelectorAll(".m.agent")].some(m => m.textContent === "`+fakeSlowReply("wpend")+`")`)
	state := evaluate[string](t, ctx, "the chat", `(() => { const r = `+sr+`; return [r.querySelectorAll(".m.note").length, r.querySelectorAll(".m.failed").length,
		r.querySelector("textarea").value.trim(), r.querySelector("button[type=submit]").disabled].join("|") })()`)
	if want := fmt.Sprint("0|0||false"); state != want {
		t.Errorf("notes|failed messages|input|send disabled: %q, want %q", state, want)
	}
}

// blockURLs makes the tab's network drop the requests matching the URL patterns (URLPattern
// syntax); none lets everything through again.
func blockURLs(patterns ...string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		p := make([]*network.BlockPattern, 0, len(patterns))
		for _, u := range patterns {
			p = append(p, &network.BlockPattern{URLPattern: u, Block: true})
		}
		_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: p})
		return err
	})
}

// TestWidgetBusyServiceBrowser opens a page whose first call for the widget's look answers 429
// (the widget token's limit, spent by a busy site): the chat appears by itself when the next
// call is answered, as after a service that could not be reached.
func TestWidgetBusyServiceBrowser(t *testing.T) {
	page, ctx := widgetPage(t)
	origin := strings.TrimSuffix(page, "/")
	var refused atomic.Int32
	// The widget's look is answered 429 once.
	interceptRequests(t, ctx, &fetch.RequestPattern{URLPattern: "*/widget/api/*/info*"}, func(ctx context.Context, tg *chromedp.Target, ev *fetch.EventRequestPaused) error {
		if refused.Add(1) > 1 {
			_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			return err
		}
		_, err := cdp.Call(ctx, tg, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusTooManyRequests,
			ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}, {Name: "Access-Control-Allow-Origin", Value: origin}, {Name: "Retry-After", Value: "1"}},
			Body:            []byte(`{"error":{"code":"rate_limited","message":"too many requests"}}`)})
		return err
	})
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitFor(t, 20*time.Second, "the first call for the look refused", func() (bool, string) { return refused.Load() >= 1, "not yet" })
	waitJS(t, ctx, "the chat appears once the service answers", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	if n := refused.Load(); n < 2 {
		t.Errorf("the widget asked for its look %d times, want again after the 429", n)
	}
}
