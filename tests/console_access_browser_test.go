package tests

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestConsoleAccessBrowser checks every console page in headless Chromium as an accessibility
// reviewer would, on a desktop and on a phone (390 px): the page's language, one h1 and no
// heading level skipped, a label for every field, no id twice, a name for every button and link,
// text in 4.5:1 contrast with what is behind it (3:1 when large), the fields' borders and the
// focus ring in 3:1 (WCAG 1.4.11), nothing wider than the phone; then, with the keyboard only,
// that Tab reaches every control of the keys page once, each with a visible ring, and that the
// skip link takes focus to the page's content.
func TestConsoleAccessBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	_, api, a := consoleBakery(t)
	if r := callJSON(t, "POST", api.URL()+"/v1/webhooks", map[string]any{"url": "https://hooks.shop.example/x", "events": []string{"*"}},
		bearer(a.key)...); r.status != http.StatusCreated {
		t.Fatalf("POST /v1/webhooks: %s", r)
	}
	ctx := browser(t, chromium)
	base := api.URL()

	check := func(page string) {
		t.Helper()
		for _, width := range []int64{1280, 390} {
			runJS(t, ctx, "the window", chromedp.EmulateViewport(width, 900))
			runJS(t, ctx, "open "+page, chromedp.Navigate(base+page))
			waitJS(t, ctx, page+" loaded", `document.readyState === "complete" && !!document.querySelector("h1")`)
			if problems := evaluate[string](t, ctx, "check "+page, accessCheck); problems != "" {
				t.Errorf("%s at %d px:\n%s", page, width, problems)
			}
		}
		runJS(t, ctx, "the window", chromedp.EmulateViewport(1280, 900))
	}
	check("/app/login")
	consoleSignIn(t, ctx, base, "lu@example.com", "correct horse battery")
	for _, p := range []string{"/app/", "/app/agent", "/app/keys", "/app/webhooks", "/app/widget", "/app/brain", "/app/conversations",
		"/app/conversations/order-42", "/app/conversions", "/app/connections", "/app/notifications", "/app/nothing-here"} {
		check(p)
	}

	// The keyboard: from the top of the keys page, Tab goes through every control once, each
	// showing a ring that stands out from what is around it, and reaches the page's end.
	runJS(t, ctx, "open the keys page", chromedp.Navigate(base+"/app/keys"))
	waitJS(t, ctx, "the keys page", `!!document.querySelector("#keys")`)
	// Each row's buttons say which key they act on (the many "Revoke"s are not alike to a screen reader).
	wantJS(t, ctx, "every key's buttons described by its name", `[...document.querySelectorAll("#keys tbody button")].length > 0 &&
		[...document.querySelectorAll("#keys tbody button")].every(b => {
			const ds = (b.getAttribute("aria-describedby") || "").split(" ").map(id => document.getElementById(id));
			return ds.length > 0 && ds.every(d => d && b.closest("tr").contains(d)) && ds.map(d => d.textContent).join("").includes("svc_live_");
		})`)
	want := evaluate[int](t, ctx, "the controls", `document.querySelectorAll("a[href], button:not([hidden]), input:not([type=hidden]), select, textarea").length`)
	seen := map[string]bool{}
	for i := 0; i <= want; i++ {
		runJS(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
		got := evaluate[string](t, ctx, "the focused control", focusCheck)
		if got == "" {
			break // past the last control
		}
		name, problem, _ := strings.Cut(got, "|")
		if problem != "" {
			t.Errorf("Tab %d, %s: %s", i+1, name, problem)
		}
		if seen[name] {
			t.Errorf("Tab %d comes back to %s before the page's end", i+1, name)
			break
		}
		seen[name] = true
	}
	if len(seen) != want {
		t.Errorf("Tab reached %d of the keys page's %d controls", len(seen), want)
	}
	// The skip link, the first stop, takes focus past the menu to the page's content.
	runJS(t, ctx, "reload", chromedp.Navigate(base+"/app/keys"))
	waitJS(t, ctx, "the keys page", `!!document.querySelector("#keys")`)
	runJS(t, ctx, "Tab, Enter", chromedp.KeyEvent(kb.Tab))
	wantJS(t, ctx, "the skip link first, in sight", `document.activeElement.classList.contains("skip") && document.activeElement.getBoundingClientRect().left >= 0`)
	runJS(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the content focused", `document.activeElement === document.querySelector("main")`)
}

// TestConsoleExpiredFormBrowser: in headless Chromium, a form of a tab left open while the
// owner signed out and in again in another (its CSRF token no longer holds) is not lost: sending
// it shows the page that says it had expired, accessible on a desktop and on a phone, with what
// was typed; "Send it again" saves it.
func TestConsoleExpiredFormBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	_, api, _ := consoleBakery(t)
	ctx := browser(t, chromium)
	base := api.URL()
	typeFAQItem(t, ctx, base)
	// Another tab signs out and in again: this tab's token no longer holds.
	runJS(t, ctx, "sign out and in again elsewhere", chromedp.Evaluate[chromedp.Void](`(async () => {
		const token = html => new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrf_token]").value;
		const post = (path, form) => fetch(path, {method: "POST", body: new URLSearchParams(form), redirect: "manual"});
		const overview = await (await fetch("/app/")).text();
		await post("/app/logout", {csrf_token: token(overview)});
		const login = await (await fetch("/app/login")).text();
		await post("/app/login", {csrf_token: token(login), email: "lu@example.com", password: "correct horse battery"});
		window.svcElsewhere = true;
	})()`))
	waitJS(t, ctx, "signed out and in elsewhere", `window.svcElsewhere === true`)
	submit(t, ctx, "send the FAQ form", chromedp.Click(chromedp.CSS(`form[action="/app/brain/faq"] button[type=submit]`)))
	waitJS(t, ctx, "the expired page", `document.querySelector("h1").textContent.includes("This form had expired") && !!document.querySelector("#expired-form")`)
	wantJS(t, ctx, "what was typed, listed", `document.querySelector("#expired-typed").textContent.includes("spelt bread on Fridays")`)
	for _, width := range []int64{1280, 390} {
		runJS(t, ctx, "the window", chromedp.EmulateViewport(width, 900))
		if problems := evaluate[string](t, ctx, "check the expired page", accessCheck); problems != "" {
			t.Errorf("the expired page at %d px:\n%s", width, problems)
		}
	}
	runJS(t, ctx, "the window", chromedp.EmulateViewport(1280, 900))
	consoleShot(t, ctx, "expired")
	submit(t, ctx, "send it again", chromedp.Click(chromedp.CSS(`#expired-form button[type=submit]`)))
	waitJS(t, ctx, "the FAQ item saved", `location.pathname === "/app/brain" && document.querySelector("#faq-list").textContent.includes("spelt bread on Fridays")`)
}

// typeFAQItem signs the owner in, opens the Brain and types an FAQ item, not sent yet.
func typeFAQItem(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	consoleSignIn(t, ctx, base, "lu@example.com", "correct horse battery")
	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain"))
	waitJS(t, ctx, "the FAQ form", `!!document.querySelector("#faq-q")`)
	runJS(t, ctx, "type an FAQ item",
		chromedp.SendKeys(chromedp.CSS("#faq-q"), "Do you bake spelt bread on Fridays?"),
		chromedp.SendKeys(chromedp.CSS("#faq-a"), "Yes, spelt loaves come out of the oven at 8am on Fridays."))
}

// accessCheck lists (one a line) what the page in view gets wrong, or "".
const accessCheck = `(() => {
const out = [];
const rgb = c => { const m = (c || "").match(/[\d.]+/g); return m ? {v: m.slice(0, 3).map(Number), a: m.length > 3 ? +m[3] : 1} : null };
const lum = v => { const [r, g, b] = v.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4) }); return 0.2126 * r + 0.7152 * g + 0.0722 * b };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) };
const behind = e => { for (; e && e.nodeType === 1; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c.v } return [255, 255, 255] };
const say = (e, what) => out.push(what + ": <" + e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().replace(/\s+/g, ".") : "") + "> " + (e.textContent || "").trim().slice(0, 40));
if (!/^(en|pt|es)$/.test(document.documentElement.lang)) out.push("lang: " + JSON.stringify(document.documentElement.lang));
const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => +h.tagName[1]);
if (levels.filter(l => l === 1).length !== 1 || levels[0] !== 1) out.push("headings: " + levels.join(" "));
for (let i = 1; i < levels.length; i++) if (levels[i] > levels[i - 1] + 1) out.push("heading skipped: h" + levels[i - 1] + " then h" + levels[i]);
const ids = new Set();
document.querySelectorAll("[id]").forEach(e => { if (ids.has(e.id)) say(e, "id twice"); ids.add(e.id) });
document.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(e => {
  if (!(e.labels && e.labels.length) && !e.getAttribute("aria-label") && !e.getAttribute("aria-labelledby")) say(e, "no label");
  (e.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean).forEach(d => { if (!document.getElementById(d)) say(e, "described by no #" + d) });
});
document.querySelectorAll("button, a[href], th").forEach(e => { if (!e.textContent.trim() && !e.getAttribute("aria-label") && !e.closest("[aria-hidden=true]")) say(e, "no name") });
const shown = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== "hidden" };
const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const done = new Set();
while (texts.nextNode()) {
  const e = texts.currentNode.parentElement;
  if (!texts.currentNode.textContent.trim() || done.has(e) || e.closest("svg, #svc-chat-widget") || !shown(e)) continue;
  done.add(e);
  const s = getComputedStyle(e), fg = rgb(s.color);
  const size = parseFloat(s.fontSize), large = size >= 24 || (size >= 18.66 && +s.fontWeight >= 700);
  const r = ratio(fg.v, behind(e));
  if (r < (large ? 3 : 4.5)) say(e, "text contrast " + r.toFixed(2));
}
document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=color]), select, textarea").forEach(e => {
  if (!shown(e)) return;
  const s = getComputedStyle(e);
  const r = ratio(rgb(s.borderTopColor).v, behind(e.parentElement));
  if (r < 3) say(e, "field border contrast " + r.toFixed(2));
});
if (document.documentElement.scrollWidth > innerWidth) out.push("wider than the window: " + document.documentElement.scrollWidth + " > " + innerWidth + " px: " +
  [...document.querySelectorAll("main *, header *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest(".table-wrap")).slice(0, 3).map(e => e.tagName + (e.id ? "#" + e.id : "")).join(", "));
document.querySelectorAll("form").forEach(f => { if (f.method === "post" && !f.querySelector("input[name=csrf_token]")) say(f, "a form posted without CSRF token") });
return out.join("\n");
})()`

// focusCheck names the focused control and what is wrong with its focus ring ("name|problem"),
// or "" when nothing in the page has focus.
const focusCheck = `(() => {
const e = document.activeElement;
if (!e || e === document.body || e === document.documentElement) return "";
const rgb = c => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
const lum = v => { const [r, g, b] = v.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4) }); return 0.2126 * r + 0.7152 * g + 0.0722 * b };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) };
let bg = [255, 255, 255];
for (let p = e.parentElement; p; p = p.parentElement) { const c = getComputedStyle(p).backgroundColor.match(/[\d.]+/g); if (c && (c.length < 4 || +c[3] > 0.5)) { bg = c.slice(0, 3).map(Number); break } }
const s = getComputedStyle(e);
const name = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.name ? "[name=" + e.name + "]" : "") + (e.getAttribute("href") ? "[href=" + e.getAttribute("href") + "]" : "") +
  " " + (e.closest("tr, form") || e).id + " " + (e.textContent || "").trim().slice(0, 30);
let problem = "";
if (s.outlineStyle === "none" || parseFloat(s.outlineWidth) < 2) problem = "no focus ring";
else if (ratio(rgb(s.outlineColor), bg) < 3) problem = "focus ring contrast " + ratio(rgb(s.outlineColor), bg).toFixed(2);
const r = e.getBoundingClientRect();
if (r.width === 0 || r.height === 0) problem += " not in sight";
return name + "|" + problem.trim();
})()`
