package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsoleBrowser drives the owner console in headless Chromium: sign in, see the day's
// interactions in the overview's chart, create a key and see it exactly once, see when it was
// last used after a call with it, turn on Send without approval through its warning, revoke the
// key (the API then answers 401), change the widget's colour and see a test page's widget follow
// it, add an FAQ item and see the test answer use it, remove it and see the answer no longer use
// it, crawl a site on loopback and see each page read as it is read and then the pages, and read
// a conversation. It keeps a screenshot of each page under tests/artifacts/console (or
// $SVC_TEST_ARTIFACTS/console).
func TestConsoleBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s, api, a := consoleBakery(t, "SVC_ALLOW_PRIVATE_TARGETS", "true") // the site crawled is on loopback
	ctx := browser(t, chromium)
	base := api.URL()

	// Signed out, the console sends to the sign-in page, which goes on to the page asked for.
	runJS(t, ctx, "open the keys page", chromedp.Navigate(base+"/app/keys"))
	waitJS(t, ctx, "the sign-in page", `location.pathname === "/app/login" && !!document.querySelector("#password")`)
	consoleShot(t, ctx, "login")
	runJS(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.CSS("#email"), "lu@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse battery"),
		chromedp.Click(chromedp.CSS(`form[action="/app/login"] button[type=submit]`)))
	waitJS(t, ctx, "the keys page after sign-in", `location.pathname === "/app/keys" && !!document.querySelector("#key-name")`)

	// The overview.
	runJS(t, ctx, "open the overview", chromedp.Navigate(base+"/app/"))
	waitJS(t, ctx, "the overview", `document.querySelector("h1").textContent.includes("Padaria Lu") && !!document.querySelector(".bar")`)
	// The per-day chart: today's bar holds the chat reply above (the built-in engine's, charged
	// like an upstream model's), and the table says the same.
	today := time.Now().UTC().Format("2006-01-02")
	spentToday := evaluate[int](t, ctx, "today's bar", `+document.querySelector('#days-chart rect[data-date="`+today+`"]').dataset.n`)
	if spentToday < 1 {
		t.Errorf("today's bar counts %d interactions, want at least the chat reply", spentToday)
	}
	wantJS(t, ctx, "a bar per day so far, today's drawn", `document.querySelectorAll("#days-chart rect").length === `+fmt.Sprint(time.Now().UTC().Day())+
		` && +document.querySelector('#days-chart rect[data-date="`+today+`"]').getAttribute("height") > 0`)
	wantJS(t, ctx, "the chart's text alternative", `document.querySelector("#days-chart desc").textContent.includes("`+fmt.Sprint(spentToday)+`")`+
		` && [...document.querySelectorAll("#days-table tbody tr")].some(r => r.textContent.includes("`+today+`") && r.querySelector("td").textContent === "`+fmt.Sprint(spentToday)+`")`)
	consoleShot(t, ctx, "overview")

	// A key, seen once.
	runJS(t, ctx, "open the keys page", chromedp.Navigate(base+"/app/keys"))
	runJS(t, ctx, "create a key",
		chromedp.SendKeys(chromedp.CSS("#key-name"), "website"),
		chromedp.Click(chromedp.CSS(`form[action="/app/keys"] button[type=submit]`)))
	waitJS(t, ctx, "the new key", `!!document.querySelector("#new-key")`)
	secret := evaluate[string](t, ctx, "read the new key", `document.querySelector("#new-key").textContent`)
	if !strings.HasPrefix(secret, "svc_live_") {
		t.Fatalf("the new key reads %q", secret)
	}
	consoleShot(t, ctx, "keys-created")
	// Copy, where the Clipboard API is missing (a console on plain http other than localhost):
	// the key is selected and copied the older way, never a button that does nothing.
	runJS(t, ctx, "copy the key without the Clipboard API",
		chromedp.Evaluate[chromedp.Void](`Object.defineProperty(navigator, "clipboard", {value: undefined, configurable: true})`),
		chromedp.Click(chromedp.CSS(`button[data-copy="new-key"]`)))
	waitJS(t, ctx, "the key selected", `window.getSelection().toString() === document.querySelector("#new-key").textContent`)
	if r := call(t, "GET", base+"/v1/account", bearer(secret)...); r.status != http.StatusOK {
		t.Fatalf("GET /v1/account with the new key: %s", r)
	}
	runJS(t, ctx, "open the keys page again", chromedp.Navigate(base+"/app/keys"))
	waitJS(t, ctx, "the keys page", `!!document.querySelector("#keys")`)
	wantJS(t, ctx, "the key is never shown again", `!document.documentElement.outerHTML.includes("`+secret+`") && !document.querySelector("#new-key")`)
	keyID := evaluate[string](t, ctx, "the new key's row", `[...document.querySelectorAll("#keys tbody tr")].find(r => r.textContent.includes("website")).id.replace("key-", "")`)
	// Last used: written off the request path, so it shows within moments of the call above.
	waitFor(t, 30*time.Second, "the new key's last use on the keys page", func() (bool, string) {
		runJS(t, ctx, "reload the keys page", chromedp.Navigate(base+"/app/keys"))
		used := evaluate[string](t, ctx, "the last use", `(document.querySelector("#key-`+keyID+` .last-used time") || {}).textContent || ""`)
		return strings.HasPrefix(used, today), used
	})
	consoleShot(t, ctx, "keys")

	// Send without approval: only through the warning.
	row := `#key-` + keyID
	runJS(t, ctx, "ask to turn Send without approval on", chromedp.Click(chromedp.CSS(row+` form[action$="/send-without-approval"] button`)))
	waitJS(t, ctx, "the warning", `!!document.querySelector("#swa-warning [role=alert]")`)
	// Focus on its confirmation, which reads the warning: a keyboard user is there, not at the
	// page's top, and a screen reader says what it is about.
	waitJS(t, ctx, "the confirmation focused, described by the warning", `document.activeElement === document.querySelector("#swa-warning input[name=confirm]") &&
		document.getElementById(document.activeElement.getAttribute("aria-describedby")).textContent.includes("without waiting for your approval")`)
	consoleShot(t, ctx, "keys-warning")
	if swaOf(t, s, a.id, keyID) {
		t.Fatal("Send without approval is on before the warning was confirmed")
	}
	runJS(t, ctx, "confirm the warning",
		chromedp.Click(chromedp.CSS(`#swa-warning input[name=confirm]`)),
		chromedp.Click(chromedp.CSS(`#swa-warning button[type=submit]`)))
	waitJS(t, ctx, "back on the keys page", `!!document.querySelector("#keys") && !document.querySelector("#swa-warning")`)
	if !swaOf(t, s, a.id, keyID) {
		t.Error("Send without approval is still off after the confirmed warning")
	}

	// Revoke: the API then answers 401.
	runJS(t, ctx, "accept confirmations", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	runJS(t, ctx, "revoke the key", chromedp.Click(chromedp.CSS(row+` form[action$="/revoke"] button`)))
	waitJS(t, ctx, "the key revoked", `!document.querySelector("`+row+` form[action$='/revoke']")`)
	if r := call(t, "GET", base+"/v1/account", bearer(secret)...); r.status != http.StatusUnauthorized {
		t.Errorf("GET /v1/account with the revoked key: %s, want 401", r)
	}

	// The widget's colour: a test page's widget follows it without a change of its code.
	r := call(t, "GET", base+"/v1/widget?framework=html", bearer(a.key)...)
	page := servePage(t, "127.0.0.1", base, r.body.str("code"))
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "open the console's widget page", chromedp.Navigate(base+"/app/widget"))
	waitJS(t, ctx, "the widget page with its preview", `!!document.querySelector("#accent") && !!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "choose a colour and save",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#accent").value = "#e11d48"`),
		chromedp.Click(chromedp.CSS(`#style-form button[type=submit]`)))
	waitJS(t, ctx, "saved, with the preview in the new colour", `document.querySelector("#accent").value === "#e11d48" && !!document.querySelector("#svc-chat-widget[data-ready]") && `+
		sr+`.querySelector(".w").style.getPropertyValue("--a") === "#e11d48"`)
	consoleShot(t, ctx, "widget")
	runJS(t, ctx, "open the test page", chromedp.Navigate(page))
	waitJS(t, ctx, "the test page's widget in the new colour", `!!document.querySelector("#svc-chat-widget[data-ready]") && `+sr+`.querySelector(".w").style.getPropertyValue("--a") === "#e11d48"`)

	// The Brain: an FAQ item, then a test question whose answer uses it.
	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain"))
	runJS(t, ctx, "add an FAQ item",
		chromedp.SendKeys(chromedp.CSS("#faq-q"), "Do you bake sourdough on Mondays?"),
		chromedp.SendKeys(chromedp.CSS("#faq-a"), "Yes, our rye sourdough comes out of the oven at 7am every Monday."),
		chromedp.Click(chromedp.CSS(`form[action="/app/brain/faq"] button[type=submit]`)))
	waitJS(t, ctx, "the FAQ item listed", `document.querySelector("#faq-list").textContent.includes("sourdough on Mondays")`)
	runJS(t, ctx, "ask a test question",
		chromedp.SendKeys(chromedp.CSS("#try-q"), "Do you bake sourdough on Mondays?"),
		chromedp.Click(chromedp.CSS(`form[action="/app/brain/try"] button[type=submit]`)))
	waitJS(t, ctx, "the test answer uses the FAQ item", `document.querySelector("#try-answer").textContent.includes("rye sourdough") && document.querySelector("#try-passages").textContent.includes("sourdough on Mondays")`)
	consoleShot(t, ctx, "brain")

	// Remove it: the test answer no longer uses it.
	faqID := evaluate[string](t, ctx, "the FAQ item's id", `[...document.querySelectorAll("#faq-list .faq-item")].find(li => li.textContent.includes("sourdough on Mondays")).id.replace("faq-", "")`)
	runJS(t, ctx, "accept confirmations", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	runJS(t, ctx, "remove the FAQ item", chromedp.Click(chromedp.CSS(`#faq-`+faqID+` form[action$="/remove"] button`)))
	waitJS(t, ctx, "the FAQ item gone", `location.pathname === "/app/brain" && !!document.querySelector("#faq-list") && !document.querySelector("#faq-`+faqID+`") && !document.querySelector("#faq-list").textContent.includes("sourdough on Mondays")`)
	runJS(t, ctx, "ask the test question again",
		chromedp.SendKeys(chromedp.CSS("#try-q"), "Do you bake sourdough on Mondays?"),
		chromedp.Click(chromedp.CSS(`form[action="/app/brain/try"] button[type=submit]`)))
	waitJS(t, ctx, "the test answer without the removed item", `!!document.querySelector("#try-passages") && (!!document.querySelector("#try-answer") || !!document.querySelector(".alert"))`)
	wantJS(t, ctx, "the removed item is neither answered nor matched", `!(document.querySelector("#try-answer") || {textContent: ""}).textContent.includes("rye sourdough") && !document.querySelector("#try-passages").textContent.includes("sourdough on Mondays")`)

	// An address refused (with script, the crawl's progress): the field marked and focused, the
	// reason in the crawl's status; the next crawl clears the mark.
	runJS(t, ctx, "crawl an ftp address",
		chromedp.Evaluate[chromedp.Void](`window.svcSamePage = true`),
		chromedp.SendKeys(chromedp.CSS("#crawl-url"), "ftp://shop.example/"),
		chromedp.Click(chromedp.CSS(`#crawl-form button[type=submit]`)))
	waitJS(t, ctx, "the ftp address refused next to the field", `(f => window.svcSamePage && f.getAttribute("aria-invalid") === "true" && document.activeElement === f &&
		document.getElementById(f.getAttribute("aria-describedby")).textContent.includes("http(s)"))(document.querySelector("#crawl-url"))`)

	// Crawl a site on loopback: each page read shows as it is read, then the pages.
	site := newSiteFixture(t)
	runJS(t, ctx, "crawl the site",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#crawl-url").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#crawl-url"), site.URL()+"/docs/"),
		chromedp.Click(chromedp.CSS(`#crawl-form button[type=submit]`)))
	waitFor(t, 60*time.Second, "the crawl done, with each page read listed and the pages shown", func() (bool, string) {
		state := evaluate[string](t, ctx, "the crawl's state", `JSON.stringify({done: document.querySelector("#crawl-form").dataset.done || "",
			status: document.querySelector("#crawl-status").textContent, read: document.querySelectorAll("#crawl-progress li").length,
			pages: document.querySelector("#brain-pages").textContent})`)
		var st struct {
			Done, Status, Pages string
			Read                int
		}
		if err := json.Unmarshal([]byte(state), &st); err != nil {
			return false, err.Error()
		}
		return st.Done == "yes" && st.Read == len(siteInScope) && strings.Contains(st.Pages, "Opening hours") &&
			strings.Contains(st.Pages, site.URL()+"/docs/menu"), state
	})
	wantJS(t, ctx, "the crawl's address no longer marked", `!document.querySelector("#crawl-url").hasAttribute("aria-invalid")`)
	wantJS(t, ctx, "the progress names the pages read", `[...document.querySelectorAll("#crawl-progress li")].some(li => li.textContent.includes("`+site.URL()+`/docs/hours"))`)
	wantJS(t, ctx, "still on the same page (the form was not posted away)", `location.pathname === "/app/brain/try"`)
	consoleShot(t, ctx, "brain-crawl")
	site.wantOnlyInScope(t)
	// Without script the form posts, and the answer is the Brain page when the crawl is done.
	plain := newOwnerBrowser(t, base)
	plain.signIn("lu@example.com", "correct horse battery")
	if p := plain.post("/app/brain", "/app/brain/crawl", url.Values{"url": {site.URL() + "/docs/"}}); p.status != http.StatusOK ||
		!strings.Contains(p.body, fmt.Sprintf("%d pages read", len(siteInScope))) || !strings.Contains(p.body, site.URL()+"/docs/contact") {
		t.Errorf("the crawl form without script: %d %.300q", p.status, p.body)
	}

	// Without script, a copy button would do nothing: it is hidden.
	if p := plain.post("/app/keys", "/app/keys", url.Values{"name": {"no script"}}); p.status != http.StatusCreated ||
		!regexp.MustCompile(`<button type="button" data-copy="new-key"[^>]* hidden>`).MatchString(p.body) {
		t.Errorf("a new key without script: %d, the copy button not hidden:\n%.2000s", p.status, p.body)
	}

	// A conversation.
	runJS(t, ctx, "open the conversations", chromedp.Navigate(base+"/app/conversations"))
	waitJS(t, ctx, "the list with its channel", `document.querySelector("#conversations").textContent.includes("Ana Lima") && document.querySelector("#conversations").textContent.includes("api")`)
	consoleShot(t, ctx, "conversations")
	runJS(t, ctx, "open one", chromedp.Click(chromedp.CSS(`a[href="/app/conversations/order-42"]`)))
	waitJS(t, ctx, "its messages", `location.pathname === "/app/conversations/order-42" && document.querySelector("#messages").textContent.includes("When do you open on Sunday?") && document.querySelectorAll("#messages .agent").length === 1`)
	consoleShot(t, ctx, "conversation")

	for _, p := range []string{"webhooks", "conversions", "notifications"} {
		runJS(t, ctx, "open "+p, chromedp.Navigate(base+"/app/"+p))
		waitJS(t, ctx, p, `!!document.querySelector("#`+p+`, #totals")`)
		consoleShot(t, ctx, p)
	}

	// Phone-sized, in Portuguese.
	runJS(t, ctx, "a phone", chromedp.EmulateViewport(390, 844))
	runJS(t, ctx, "the overview in Portuguese", chromedp.Navigate(base+"/app/?lang=pt"))
	waitJS(t, ctx, "Portuguese", `document.documentElement.lang === "pt" && document.querySelector("h1").textContent.includes("Visão geral")`)
	wantJS(t, ctx, "nothing wider than the phone", `document.documentElement.scrollWidth <= 390`)
	consoleShot(t, ctx, "overview-phone-pt")

	// Sign out: the console is closed again.
	runJS(t, ctx, "sign out", chromedp.Click(chromedp.CSS(`form[action="/app/logout"] button`)))
	waitJS(t, ctx, "the sign-in page", `location.pathname === "/app/login"`)
	runJS(t, ctx, "the overview again", chromedp.Navigate(base+"/app/"))
	waitJS(t, ctx, "sent to sign in", `location.pathname === "/app/login"`)
}

// consoleBakery starts an embedded svc-api with env whose account's owner signs in as
// lu@example.com, its agent set up, its Brain loaded and a conversation (order-42, Ana Lima's)
// answered; it returns the stack, the service and the account.
func consoleBakery(t *testing.T, env ...string) (stack, *proc, account) {
	t.Helper()
	s := newEmbedded(t)
	api := s.startAPI(t, env...)
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	configureAgent(t, api, a.key)
	loadBrain(t, api, a.key)
	if r := postChat(t, api, a.key, map[string]any{"message": "When do you open on Sunday?", "conversation_id": "order-42",
		"customer_name": "Ana Lima"}); r.status != http.StatusOK {
		t.Fatalf("POST /v1/chat: %s", r)
	}
	return s, api, a
}
