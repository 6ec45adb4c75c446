package tests

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
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
	wantJS(t, ctx, "a link to sign in and come back to the Brain", `(() => { const l = document.querySelector('a[href^="/app/login?next="]'); return !!l && new URL(l.href).searchParams.get("next") === "/app/brain" })()`)
	keptTyped(t, ctx, "session-ended", "spelt bread on Fridays", "8am on Fridays")
}

// TestConsoleFormLimitedBrowser: in headless Chromium, a console form sent over a limit (the
// account's 10 crawls an hour, spent through the API) is not answered with a bare error page that
// loses what was typed (the console's pages are no-store: Back may not bring it back): the owner
// gets the Brain page again with the crawl form refilled with the address typed, and at the top
// of that form, focused, that nothing was sent and to try again in so many seconds (Retry-After).
func TestConsoleFormLimitedBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	_, api, a := consoleBakery(t, "SVC_ALLOW_PRIVATE_TARGETS", "true") // the site crawled is on loopback
	site := newSiteFixture(t)
	base := api.URL()
	valid := map[string]any{"url": site.URL() + "/docs/", "max_pages": 1}
	for n := 1; n <= 10; n++ {
		if r := callJSON(t, "POST", base+"/v1/knowledge/crawl", valid, bearer(a.key)...); r.status != http.StatusOK {
			t.Fatalf("crawl %d: %s, want 200", n, r)
		}
	}
	ctx := browser(t, chromium)
	consoleSignIn(t, ctx, base, "lu@example.com", "correct horse battery")
	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain"))
	waitJS(t, ctx, "the crawl form", `!!document.querySelector("#crawl-url")`)
	// The form as a browser without script sends it (with script, the crawl's progress says why
	// in its status and the page stays).
	runJS(t, ctx, "type an address", chromedp.Evaluate[chromedp.Void](`document.querySelector("#crawl-form").removeAttribute("data-progress")`),
		chromedp.SendKeys(chromedp.CSS("#crawl-url"), "https://padaria-lu.example/menu/"))
	submit(t, ctx, "send the crawl form", chromedp.Click(chromedp.CSS(`#crawl-form button[type=submit]`)))
	waitJS(t, ctx, "the crawl form says to wait", `!!document.querySelector("#crawl-error") && /try again in [0-9]+ seconds/.test(document.querySelector("#crawl-error").textContent)`)
	keptInForm(t, ctx, "form-limited", "crawl", map[string]string{"#crawl-url": "https://padaria-lu.example/menu/"})
}

// keptInForm checks a form not sent shown again on its own page: the reason at the top of form
// (its alert, inside the form's section, focused), each input of kept holding its value, the
// other forms untouched, nothing wrong with the page (accessCheck), and its screenshot kept as shot.
func keptInForm(t *testing.T, ctx context.Context, shot, form string, kept map[string]string) {
	t.Helper()
	wantJS(t, ctx, "the reason focused", `document.activeElement && document.activeElement.id === `+strconv.Quote(form+"-error")+
		` && document.activeElement.getAttribute("role") === "alert"`)
	wantJS(t, ctx, "no shared page", `!document.querySelector("#expired-form") && document.querySelectorAll("form").length > 2`)
	wantJS(t, ctx, "one reason on the page", `document.querySelectorAll("p.alert, p.field-error").length === 1`)
	for sel, v := range kept {
		wantJS(t, ctx, "the value typed in "+sel, `document.querySelector(`+strconv.Quote(sel)+`).value === `+strconv.Quote(v))
	}
	if problems := evaluate[string](t, ctx, "check the page", accessCheck); problems != "" {
		t.Errorf("the %s page:\n%s", shot, problems)
	}
	consoleShot(t, ctx, shot)
}

// TestConsoleFormFailedBrowser: in headless Chromium, a console form that meets a real failure
// (the embedded SQLite file held by another connection's BEGIN EXCLUSIVE past the service's busy
// timeout: a temporary unavailability, 503, not an internal error) is not answered with a bare
// error page that loses what was typed: the FAQ form's own page says at its top that the service
// is briefly unavailable (not that something failed on our side) and holds what was typed, and
// once the database is free again the form's own button sends it and the FAQ item is saved.
func TestConsoleFormFailedBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	cli, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("no sqlite3 command to hold the database")
	}
	s, api, _ := consoleBakery(t)
	ctx := browser(t, chromium)
	base := api.URL()
	typeFAQItem(t, ctx, base)

	// Another connection holds the database: writes wait the busy timeout, then fail.
	lock := exec.Command(cli, strings.TrimPrefix(s.env["SVC_DATABASE_URL"], "sqlite://"))
	in, err := lock.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := lock.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.Start(); err != nil {
		t.Fatal(err)
	}
	held := true
	release := func() {
		if held {
			held = false
			_, _ = io.WriteString(in, "ROLLBACK;\n.quit\n")
			_ = in.Close()
			_ = lock.Wait()
		}
	}
	t.Cleanup(release)
	if _, err := io.WriteString(in, ".timeout 20000\nBEGIN EXCLUSIVE;\nSELECT 'held';\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || strings.TrimSpace(line) != "held" {
		t.Fatalf("sqlite3 BEGIN EXCLUSIVE: %q %v", line, err)
	}

	submit(t, ctx, "send the FAQ form", chromedp.Click(chromedp.CSS(`form[action="/app/brain/faq"] button[type=submit]`)))
	waitJS(t, ctx, "the FAQ form says it is briefly unavailable", `!!document.querySelector("#faq-error") && /Not sent.*briefly unavailable/.test(document.querySelector("#faq-error").textContent)`)
	keptInForm(t, ctx, "form-failed", "faq", map[string]string{"#faq-q": "Do you bake spelt bread on Fridays?", "#faq-a": "Yes, spelt loaves come out of the oven at 8am on Fridays."})

	release()
	submit(t, ctx, "send it again", chromedp.Click(chromedp.CSS(`form[action="/app/brain/faq"] button[type=submit]`)))
	waitJS(t, ctx, "the FAQ item saved", `location.pathname === "/app/brain" && document.body.textContent.includes("Do you bake spelt bread on Fridays?")`)
}

// keptTyped checks the page that keeps a form's values: what was typed listed (open), each of
// typed in it, nothing wrong with the page (accessCheck), and its screenshot kept as shot.
func keptTyped(t *testing.T, ctx context.Context, shot string, typed ...string) {
	t.Helper()
	js := `document.querySelector("#expired-typed").open`
	for _, s := range typed {
		js += ` && document.querySelector("#expired-typed").textContent.includes(` + strconv.Quote(s) + `)`
	}
	wantJS(t, ctx, "what was typed, listed", js)
	if problems := evaluate[string](t, ctx, "check the page", accessCheck); problems != "" {
		t.Errorf("the %s page:\n%s", shot, problems)
	}
	consoleShot(t, ctx, shot)
}
