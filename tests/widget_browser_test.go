package tests

import (
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestWidgetBrowser runs the widget in headless Chromium (the system's package, driven with
// chromedp): a page on loopback carries the snippet from GET /v1/widget under a strict
// Content-Security-Policy; the visitor opens the chat, asks a question the Brain answers, drags
// the chat, reloads and still sees the conversation and the chat where it was left;
// data-position="left" wins over the saved style (right). A screenshot is kept under
// tests/artifacts (or $SVC_TEST_ARTIFACTS). A page on another origin gets no widget and cannot
// call the chat (no CORS grant). Without Chromium the test skips, unless CI=true.
func TestWidgetBrowser(t *testing.T) {
	api, a, key := styledWidget(t, map[string]any{"position": "right", "theme": "dark"})
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent/appearance", map[string]any{"greeting": map[string]string{"en": "Hello! Ask us anything."},
		"suggestions": map[string][]string{"en": {"Do you deliver?"}}}, key...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent/appearance: %s", r)
	}
	if r := callJSON(t, "PUT", api.URL()+"/v1/widget/domains", map[string]any{"domains": []string{"127.0.0.1"}}, key...); r.status != http.StatusOK {
		t.Fatalf("PUT /v1/widget/domains: %s", r)
	}
	r := call(t, "GET", api.URL()+"/v1/widget?framework=html&position=left", key...)
	snippet := r.body.str("code")
	if r.status != http.StatusOK || !strings.Contains(snippet, `data-position="left"`) {
		t.Fatalf("GET /v1/widget: %s", r)
	}

	allowed := servePage(t, "127.0.0.1", api.URL(), snippet) // the allowed domain
	other := servePage(t, "localhost", api.URL(), snippet)   // loopback too, but another host name

	ctx := browser(t, chromiumPath(t))
	warned := watchConsole(t, ctx, "svc widget: not available")

	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "open the page", chromedp.Navigate(allowed))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	wantJS(t, ctx, "data-position=left wins over the saved right; the saved dark theme applies",
		`(() => { const w = `+sr+`.querySelector(".w"); const b = `+sr+`.querySelector("button.l").getBoundingClientRect();
		  return w.classList.contains("left") && !w.classList.contains("right") && w.classList.contains("dark") && b.left < 100 && b.right < innerWidth / 2 &&
		  getComputedStyle(w).position === "fixed" && getComputedStyle(w).left === "20px" })()`)
	wantJS(t, ctx, "the launcher is labelled and collapsed", sr+`.querySelector("button.l").getAttribute("aria-expanded") === "false" && !!`+sr+`.querySelector("button.l").getAttribute("aria-label")`)

	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	waitJS(t, ctx, "the panel is open with the input focused", `!`+sr+`.querySelector(".pn").hidden && `+sr+`.activeElement && `+sr+`.activeElement.tagName === "TEXTAREA"`)
	wantJS(t, ctx, "the greeting and the suggestions from the agent, the input labelled",
		sr+`.querySelector(".m.agent").textContent === "Hello! Ask us anything." && `+sr+`.querySelector(".s button").textContent === "Do you deliver?" && `+
			sr+`.querySelector("textarea").getAttribute("aria-label") === "Write a message" && `+sr+`.querySelector("[role=log]") !== null`)
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), gfQuestion+"\r"))
	const answered = `[...` + sr + `.querySelectorAll(".m.agent")].some(m => m.textContent.includes("` + gfAnswerBit + `")) && [...` + sr + `.querySelectorAll(".m.customer")].some(m => m.textContent === "` + gfQuestion + `")`
	waitJS(t, ctx, "the agent's answer from the Brain", answered)

	// Drag the chat by its top bar (the window is 1280 px wide), then reload.
	head := evaluate[struct{ X, Y, Left, Top float64 }](t, ctx, "find the top bar", `(() => { const r = `+sr+`.querySelector(".h").getBoundingClientRect();
		return {X: r.left + 60, Y: r.top + 20, Left: r.left, Top: r.top} })()`)
	runJS(t, ctx, "drag the chat",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X, head.Y),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, head.X, head.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X+200, head.Y-100, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X+400, head.Y-150, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, head.X+400, head.Y-150, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	moved := evaluate[rect](t, ctx, "where the chat went", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect(); return {Left: r.left, Top: r.top} })()`)
	if moved.Left-head.Left < 300 || head.Top-moved.Top < 100 {
		t.Errorf("the drag moved the chat from (%v, %v) to (%v, %v)", head.Left, head.Top, moved.Left, moved.Top)
	}

	shot := screenshot(t, ctx)
	t.Logf("screenshot of the widget: %s", shot)

	cookie := evaluate[string](t, ctx, "the visitor cookie", `document.cookie`)
	visitor := strings.TrimPrefix(cookie, "svc_visitor=")
	if len(visitor) != 36 || !strings.HasPrefix(cookie, "svc_visitor=") {
		t.Fatalf("document.cookie %q, want svc_visitor=<uuid>", cookie)
	}

	runJS(t, ctx, "reload", chromedp.Reload())
	waitJS(t, ctx, "the widget is ready again", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	waitJS(t, ctx, "the conversation is still there, the chat open", answered+` && !`+sr+`.querySelector(".pn").hidden`)
	after := evaluate[rect](t, ctx, "where the chat is", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect(); return {Left: r.left, Top: r.top} })()`)
	if d := after.Left - moved.Left + after.Top - moved.Top; d > 2 || d < -2 {
		t.Errorf("after a reload the chat is at (%v, %v), not where it was dragged (%v, %v)", after.Left, after.Top, moved.Left, moved.Top)
	}
	conv := getConversation(t, api, a.key, visitor)
	if conv.str("channel") != "web" || conv.str("contact_id") != "web:"+visitor || len(listOf(conv, "messages")) != 2 {
		t.Errorf("the visitor's conversation as the owner sees it: %s", conv)
	}

	// Another origin: the widget does not start, and the page cannot chat.
	runJS(t, ctx, "open the page on another origin", chromedp.Navigate(other))
	waitFor(t, 30*time.Second, "the widget's warning on a page the domains leave out", func() (bool, string) { return warned.Load(), "no warning yet" })
	wantJS(t, ctx, "no widget on the page", `!document.querySelector("#svc-chat-widget")`)
	js := fmt.Sprintf(`fetch(%q, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({message: "Hi", visitor_id: %q})})
		.then(r => "answered " + r.status, e => "refused " + e.name)`, api.URL()+"/widget/api/"+a.widgetToken+"/chat", visitor)
	outcome := evaluate[string](t, ctx, "chat from the other origin", js, chromedp.EvalAwaitPromise)
	if outcome != "refused TypeError" {
		t.Errorf("a chat call from a page the domains leave out: %s, want refused by the browser", outcome)
	}
	if n := len(listOf(getConversation(t, api, a.key, visitor), "messages")); n != 2 {
		t.Errorf("the conversation has %d messages after the other origin's call, want 2", n)
	}
}

// TestWidgetCrossOriginScriptBrowser loads the widget as many sites load a third-party script:
// with crossorigin="anonymous" and a Subresource Integrity hash (a page's CSP or its security
// review asks for them; a tag manager or a script loader that fetches the script does the same).
// The browser then fetches widget.js in CORS mode and runs it only when the answer grants the
// page's origin, so the script must carry Access-Control-Allow-Origin; the widget starts and
// answers.
func TestWidgetCrossOriginScriptBrowser(t *testing.T) {
	api, a, _ := styledWidget(t, map[string]any{"position": "right"})
	r := call(t, "GET", api.URL()+"/widget.js")
	if r.status != http.StatusOK {
		t.Fatalf("GET /widget.js: %s", r)
	}
	sum := sha512.Sum384(r.raw)
	snippet := fmt.Sprintf(`<script src="%s/widget.js" data-token="%s" integrity="sha384-%s" crossorigin="anonymous" async></script>`,
		api.URL(), a.widgetToken, base64.StdEncoding.EncodeToString(sum[:]))
	page := servePage(t, "127.0.0.1", api.URL(), snippet)

	ctx := browser(t, chromiumPath(t))
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget loaded with crossorigin and integrity is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	runJS(t, ctx, "ask", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), gfQuestion+"\r"))
	waitJS(t, ctx, "the agent's answer from the Brain",
		`[...`+sr+`.querySelectorAll(".m.agent")].some(m => m.textContent.includes("`+gfAnswerBit+`"))`)
}

// TestWidgetHexAttributesBrowser: the colour attributes are "colours in hex" (spec 4.5), as a
// site owner writes them: with or without the "#", in either case, with stray spaces. Each wins
// over the saved style; a value that is no hex colour leaves the saved one.
func TestWidgetHexAttributesBrowser(t *testing.T) {
	api, a, _ := styledWidget(t, map[string]any{"accent": "#2563eb"})
	ctx := browser(t, chromiumPath(t))
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	for _, c := range []struct{ attrs, accent, ink, paper string }{
		{`data-accent="#0a8f3c" data-ink="#003300" data-paper="#fffff0"`, "#0a8f3c", "#003300", "#fffff0"},
		{`data-accent="0A8F3C" data-ink="030" data-paper=" fffff0 "`, "#0A8F3C", "#030", "#fffff0"},
		{`data-accent="green" data-ink="#12345" data-paper="#ggg"`, "#2563eb", "", ""},
	} {
		snippet := fmt.Sprintf(`<script src="%s/widget.js" data-token="%s" %s async></script>`, api.URL(), a.widgetToken, c.attrs)
		runJS(t, ctx, "open the page", chromedp.Navigate(servePage(t, "127.0.0.1", api.URL(), snippet)))
		waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
		got := evaluate[[]string](t, ctx, "the colours the widget uses", `(() => { const s = `+sr+`.querySelector(".w").style;
			return ["--a", "--i", "--p"].map(k => s.getPropertyValue(k)) })()`)
		if want := []string{c.accent, c.ink, c.paper}; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: accent, ink and paper %q, want %q", c.attrs, got, want)
		}
	}
}

// TestClientSessionBrowser: an app on another origin chats with a client session token from the
// browser (spec 4.4: cross-origin calls from apps are enabled): the preflight of Authorization,
// Content-Type and Idempotency-Key passes, the reply, the conversation and the agent's look are
// read, with the request id exposed; a wrong token's 401 is readable. The secret-key routes stay
// server side only: the browser refuses the page a POST /v1/sessions.
func TestClientSessionBrowser(t *testing.T) {
	api, _, key := styledWidget(t, map[string]any{"position": "right"})
	r := callJSON(t, "POST", api.URL()+"/v1/sessions", map[string]any{"customer_name": "Ana"}, key...)
	token := r.body.str("token")
	if r.status != http.StatusCreated || !strings.HasPrefix(token, "svc_cs_") {
		t.Fatalf("POST /v1/sessions: %s", r)
	}
	ctx := browser(t, chromiumPath(t))
	runJS(t, ctx, "open the app's page", chromedp.Navigate(servePage(t, "localhost", api.URL(), "")))
	js := fmt.Sprintf(`(async () => {
		const base = %q, auth = {Authorization: "Bearer " + %q};
		const out = [];
		let r = await fetch(base + "/v1/client/chat", {method: "POST", headers: {...auth, "Content-Type": "application/json", "Idempotency-Key": "app-1"},
			body: JSON.stringify({message: %q})});
		let j = await r.json();
		out.push(r.status + " " + j.status + " " + (j.reply || "").includes(%q) + " " + /^req_/.test(r.headers.get("X-Request-Id") || ""));
		r = await fetch(base + "/v1/client/messages", {headers: auth});
		j = await r.json();
		out.push(r.status + " " + j.messages.length);
		r = await fetch(base + "/v1/client/agent", {headers: auth});
		out.push(r.status + " " + (await r.json()).object);
		r = await fetch(base + "/v1/client/agent", {headers: {Authorization: "Bearer svc_cs_wrong"}});
		out.push(r.status + " " + (await r.json()).error.code);
		out.push(await fetch(base + "/v1/sessions", {method: "POST", headers: {Authorization: %q, "Content-Type": "application/json"}, body: "{}"})
			.then(r => "answered " + r.status, e => "refused " + e.name));
		return out.join("|");
	})()`, api.URL(), token, gfQuestion, gfAnswerBit, key[1])
	got := evaluate[string](t, ctx, "the app's calls", js, chromedp.EvalAwaitPromise)
	if want := "200 completed true true|200 2|200 client_agent|401 unauthorized|refused TypeError"; got != want {
		t.Errorf("the app's calls from another origin:\n got %s\nwant %s", got, want)
	}
}
