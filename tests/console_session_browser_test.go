package tests

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleSessionEndedFormBrowser: in headless Chromium, a form sent after the owner's
// session ended (a new password set elsewhere signs out everywhere; a session past its 7 days)
// is not lost in a redirect to the sign-in page: the page says nothing was saved because the
// session had ended, lists what was typed (never a password) to copy, and links to sign in again
// and come back to the form.
func TestConsoleSessionEndedFormBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s, api, a := consoleBakery(t)
	ctx := browser(t, chromium)
	base := api.URL()
	typeFAQItem(t, ctx, base)
	ctl(t, s.env, "owner", "set-password", "--account", a.id, "--email", "lu@example.com", "--password", "a new good password")
	submit(t, ctx, "send the FAQ form", chromedp.Click(chromedp.CSS(`form[action="/app/brain/faq"] button[type=submit]`)))
	waitJS(t, ctx, "the page says the session had ended", `!!document.querySelector("#expired-message") && document.querySelector("#expired-message").textContent.includes("signed out")`)
	wantJS(t, ctx, "what was typed, listed", `document.querySelector("#expired-typed").open &&
		document.querySelector("#expired-typed").textContent.includes("spelt bread on Fridays") && document.querySelector("#expired-typed").textContent.includes("8am on Fridays")`)
	wantJS(t, ctx, "a link to sign in and come back to the Brain", `(() => { const l = document.querySelector('a[href^="/app/login?next="]'); return !!l && new URL(l.href).searchParams.get("next") === "/app/brain" })()`)
	if problems := evaluate[string](t, ctx, "check the page", accessCheck); problems != "" {
		t.Errorf("the session-ended page:\n%s", problems)
	}
	consoleShot(t, ctx, "session-ended")
}
