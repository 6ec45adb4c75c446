package tests

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestConsoleApprovalsBrowser drives, in headless Chromium on the embedded stack, the owner's
// Brain and assistant from the console alone: a page written on the Brain page is stored (the
// API lists it), and a settings change the assistant left waiting is approved from the
// approvals page, which says what was done (the agent's tone changes). Screenshots (PNG) are
// kept under tests/artifacts/console.
func TestConsoleApprovalsBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s := stacks[0].stack(t)
	api := s.startAPI(t)
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	configureAgent(t, api, a.key)
	ctx := browser(t, chromium)
	base := api.URL()
	consoleSignIn(t, ctx, base, "lu@example.com", "correct horse battery")

	runJS(t, ctx, "open the Brain", chromedp.Navigate(base+"/app/brain?lang=pt"))
	waitJS(t, ctx, "the page form", `!!document.querySelector("#page-form")`)
	submit(t, ctx, "write a page",
		chromedp.SendKeys(chromedp.CSS("#page-title"), "Horário"),
		chromedp.SendKeys(chromedp.CSS("#page-url"), "https://padaria.example/horario"),
		chromedp.SendKeys(chromedp.CSS("#page-content"), "Abrimos todos os dias das 7h às 19h; nos feriados das 8h às 12h."),
		chromedp.Click(chromedp.CSS(`#page-form button[type=submit]`)))
	waitJS(t, ctx, "the page saved, said in Portuguese", `document.querySelector("#page-status").textContent.startsWith("Guardado: 1 página, 64 caracteres, 1 excerto.") &&
		document.querySelector("#brain-pages").textContent.includes("Horário")`)
	keepShot(t, ctx, "console", "brain-page-upload.png", 100)
	pages := listOf(call(t, "GET", base+"/v1/knowledge", bearer(a.key)...).body, "pages")
	if len(pages) != 1 || pages[0]["title"] != "Horário" {
		t.Fatalf("GET /v1/knowledge after the console's page: %v", pages)
	}
	// A second page is added (the first stays), then removed with its Remove button.
	submit(t, ctx, "write a second page",
		chromedp.SendKeys(chromedp.CSS("#page-title"), "Entregas"),
		chromedp.SendKeys(chromedp.CSS("#page-content"), "Entregamos pão no Porto antes das 9h."),
		chromedp.Click(chromedp.CSS(`#page-form button[type=submit]`)))
	waitJS(t, ctx, "both pages listed, each with a Remove button", `(l => l.textContent.includes("Horário") && l.textContent.includes("Entregas") &&
		l.querySelectorAll('form[action$="/remove"] button').length === 2)(document.querySelector("#brain-pages"))`)
	pages = listOf(call(t, "GET", base+"/v1/knowledge", bearer(a.key)...).body, "pages")
	if len(pages) != 2 {
		t.Fatalf("GET /v1/knowledge after the console's second page: %v", pages)
	}
	keepShot(t, ctx, "console", "brain-pages-two.png", 100)
	runJS(t, ctx, "accept confirmations", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	submit(t, ctx, "remove the second page", chromedp.Click(chromedp.CSS(`#page-`+fmt.Sprint(pages[1]["id"])+` form[action$="/remove"] button`)))
	waitJS(t, ctx, "the second page gone, the first kept", `(l => l.textContent.includes("Horário") && !l.textContent.includes("Entregas"))(document.querySelector("#brain-pages"))`)
	if pages := listOf(call(t, "GET", base+"/v1/knowledge", bearer(a.key)...).body, "pages"); len(pages) != 1 || pages[0]["title"] != "Horário" {
		t.Fatalf("GET /v1/knowledge after the removal: %v", pages)
	}

	r, _ := ask(t, api, a.key, map[string]any{"message": "change the tone to formal", "mode": "do"}, http.StatusOK)
	if r.Status != "needs_approval" || r.Approval == nil {
		t.Fatalf("do: %+v, want needs_approval", r)
	}
	runJS(t, ctx, "open the approvals", chromedp.Navigate(base+"/app/approvals?lang=en"))
	row := "#approval-" + r.Approval.ID
	waitJS(t, ctx, "the approval listed in full", `(r => !!r && r.querySelector(".action-type").textContent === "Change of a setting" &&
		r.textContent.includes("formal") && !!r.querySelector("time"))(document.querySelector("`+row+`"))`)
	keepShot(t, ctx, "console", "approvals-pending.png", 100)
	submit(t, ctx, "approve", chromedp.Click(chromedp.CSS(row+` form[action$="/approve"] button`)))
	waitJS(t, ctx, "what was done, and nothing left", `document.querySelector("#approval-outcome").textContent.includes("Approved: done.") &&
		!document.querySelector("`+row+`") && !!document.querySelector("#approvals-none")`)
	keepShot(t, ctx, "console", "approvals-approved.png", 100)
	if g := call(t, "GET", base+"/v1/agent", bearer(a.key)...); g.body.str("tone") != "formal" {
		t.Errorf("the tone after the console's approval: %s", g)
	}
}
