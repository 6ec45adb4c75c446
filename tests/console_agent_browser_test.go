package tests

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleAgentBrowser: a new owner, whose agent answers nothing yet, follows the overview's
// call to set it up, gives the business a name on the Agent page, and then sees the Brain's test
// question answered and the overview show the agent set up. It keeps screenshots of the Agent
// page on a desktop and on a phone (in Portuguese) under tests/artifacts/console.
func TestConsoleAgentBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	ctx := browser(t, chromium)
	base := api.URL()
	consoleSignIn(t, ctx, base, "lu@example.com", "correct horse battery")

	// Before: the test question is refused, and the overview asks to set the agent up.
	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain"))
	submit(t, ctx, "try a question", chromedp.SendKeys(chromedp.CSS("#try-q"), "When do you open?"),
		chromedp.Click(chromedp.CSS(`form[action="/app/brain/try"] button[type=submit]`)))
	wantJS(t, ctx, "no answer before the set-up", `!document.querySelector("#try-answer") && !!document.querySelector(".alert[role=alert]")`)
	runJS(t, ctx, "open the overview", chromedp.Navigate(base+"/app/"))
	waitJS(t, ctx, "the call to set the agent up", `!!document.querySelector("#agent-setup")`)
	consoleShot(t, ctx, "overview-not-configured")
	submit(t, ctx, "follow it", chromedp.Click(chromedp.CSS("#agent-setup")))
	wantJS(t, ctx, "the Agent page, marked in the menu", `location.pathname === "/app/agent" && document.querySelector('nav a[aria-current=page]').getAttribute("href") === "/app/agent"`)
	wantJS(t, ctx, "a label for every field", `[...document.querySelectorAll("main input:not([type=hidden]), main textarea")].every(e => document.querySelector('label[for="' + e.id + '"]'))`)

	// A refused value: the form again, the field marked and focused, what was typed kept. The
	// browser applies autofocus in a rendering step after the page has loaded, so the focus is
	// waited for, not read once.
	submit(t, ctx, "save a language that is not one",
		chromedp.SendKeys(chromedp.CSS("#business_name"), "Padaria Lu"),
		chromedp.SetValue(chromedp.CSS("#languages"), "en, english!"),
		chromedp.Click(chromedp.CSS(`#profile-form button[type=submit]`)))
	waitJS(t, ctx, "the language marked", `document.activeElement.id === "languages" && document.querySelector("#languages").getAttribute("aria-invalid") === "true"`+
		` && document.querySelector("#profile-languages-error").textContent.includes("english!") && document.querySelector("#business_name").value === "Padaria Lu"`)
	consoleShot(t, ctx, "agent-error")
	submit(t, ctx, "name the business and save",
		chromedp.SetValue(chromedp.CSS("#languages"), "en, pt-BR"),
		chromedp.SendKeys(chromedp.CSS("#tone"), "warm"),
		chromedp.SendKeys(chromedp.CSS("#description"), "A family bakery in Lisbon since 1962."),
		chromedp.SendKeys(chromedp.CSS("#contact-email"), "lu@padaria.example"),
		chromedp.Click(chromedp.CSS(`#profile-form button[type=submit]`)))
	wantJS(t, ctx, "saved, with a greeting for each language", `!!document.querySelector("#saved") && document.querySelector("#business_name").value === "Padaria Lu"`+
		` && !!document.querySelector('[name="greeting-en"]') && !!document.querySelector('[name="greeting-pt-br"]')`)
	submit(t, ctx, "greet and suggest",
		chromedp.SendKeys(chromedp.CSS(`#greeting-en`), "Hi! How can I help?"),
		chromedp.SendKeys(chromedp.CSS(`#suggestions-en`), "When do you open?\nDo you deliver?"),
		chromedp.Click(chromedp.CSS(`#appearance-form button[type=submit]`)))
	wantJS(t, ctx, "the appearance saved", `!!document.querySelector("#saved") && document.querySelector("#suggestions-en").value === "When do you open?\nDo you deliver?"`)
	consoleShot(t, ctx, "agent")

	// After: the test question has an answer, and the overview shows the agent set up.
	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain"))
	submit(t, ctx, "try the question again", chromedp.SendKeys(chromedp.CSS("#try-q"), "When do you open?"),
		chromedp.Click(chromedp.CSS(`form[action="/app/brain/try"] button[type=submit]`)))
	wantJS(t, ctx, "an answer", `!!document.querySelector("#try-answer") && document.querySelector("#try-answer").textContent.trim() !== ""`)
	runJS(t, ctx, "open the overview", chromedp.Navigate(base+"/app/"))
	waitJS(t, ctx, "the agent set up", `!document.querySelector("#agent-setup") && document.querySelector("#agent-status").textContent.includes("Padaria Lu")`)

	runJS(t, ctx, "a phone", chromedp.EmulateViewport(390, 844))
	runJS(t, ctx, "the Agent page in Portuguese", chromedp.Navigate(base+"/app/agent?lang=pt"))
	waitJS(t, ctx, "Portuguese", `document.documentElement.lang === "pt" && document.querySelector("h1").textContent.includes("agente")`)
	wantJS(t, ctx, "nothing wider than the phone", `document.documentElement.scrollWidth <= 390`)
	consoleShot(t, ctx, "agent-phone-pt")
}
