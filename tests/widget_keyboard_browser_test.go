package tests

import (
	"context"
	"net/http"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestWidgetKeyboardBrowser walks the chat with the keyboard only on a phone-sized window
// (375×667) in headless Chromium: Tab reaches the labelled launcher, Enter opens the chat with the
// input focused; Shift+Tab goes back through the suggested questions to the conversation's log,
// which a screen reader names (it is a live region: new messages are read); a suggested question
// asked from the keyboard leaves the focus in the chat (the input), not on the page, while the
// answer comes; the answer lands in the log; Esc closes the chat and the focus is back on the
// launcher.
func TestWidgetKeyboardBrowser(t *testing.T) {
	api, _, key := styledWidget(t, map[string]any{"position": "right"})
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent/appearance", map[string]any{"greeting": map[string]string{"en": "Hi! How can I help?"},
		"suggestions": map[string]any{"en": []string{"When are you open on Sunday?", "Do you deliver?"}}}, key...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent/appearance: %s", r)
	}
	page := servePage(t, "127.0.0.1", api.URL(), call(t, "GET", api.URL()+"/v1/widget?framework=html", key...).body.str("code"))
	ctx := browser(t, chromiumPath(t))
	const sr = widgetRoot
	const focused = `(() => { const a = ` + sr + `.activeElement; return document.activeElement.id === "svc-chat-widget" && a ? a.tagName + (a.className ? "." + a.className : "") : document.activeElement.tagName })()`
	focus := func(what, want string) {
		t.Helper()
		if got := evaluate[string](t, ctx, "the focused element", focused); got != want {
			t.Errorf("%s: the focus is on %s, want %s", what, got, want)
		}
	}
	runJS(t, ctx, "a phone-sized window", chromedp.EmulateViewport(375, 667))
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "press Tab", chromedp.KeyEvent("\t"))
	focus("Tab on the page", "BUTTON.l")
	runJS(t, ctx, "press Enter", chromedp.KeyEvent("\r"))
	waitJS(t, ctx, "the chat is open", `!`+sr+`.querySelector(".pn").hidden`)
	focus("Enter on the launcher", "TEXTAREA")
	shiftTab := chromedp.KeyEvent("\t", chromedp.KeyModifiers(chromedp.ModifierShift))
	for _, want := range []string{"BUTTON", "BUTTON", "DIV.g", "BUTTON.x"} {
		runJS(t, ctx, "press Shift+Tab", shiftTab)
		focus("Shift+Tab", want)
	}
	names := map[string]string{}
	runJS(t, ctx, "read the accessibility tree", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		for _, n := range r.Nodes {
			if n.Role != nil && n.Name != nil && !n.Ignored {
				names[string(n.Role.Value)] = string(n.Name.Value)
			}
		}
		return err
	}))
	if names[`"log"`] != `"Chat"` || names[`"dialog"`] != `"Padaria Lu"` || names[`"textbox"`] != `"Write a message"` {
		t.Errorf("a screen reader names the log %s, the dialog %s and the input %s; want \"Chat\", \"Padaria Lu\", \"Write a message\"", names[`"log"`], names[`"dialog"`], names[`"textbox"`])
	}
	wantJS(t, ctx, "the log is a polite live region of additions", sr+`.querySelector("[role=log]").getAttribute("aria-live") === "polite" && `+sr+`.querySelector("[role=log]").getAttribute("aria-relevant") === "additions"`)

	// Enter on a focused button clicks it; the question goes, its button with it: the focus
	// stays in the chat at once, not only once the answer has come.
	if got := evaluate[string](t, ctx, "ask a suggested question from the keyboard", `(() => { const b = `+sr+`.querySelector(".s button"); b.focus(); b.click(); return `+focused+` })()`); got != "TEXTAREA" {
		t.Errorf("a suggested question asked: the focus is on %s, want the input (TEXTAREA)", got)
	}
	waitJS(t, ctx, "the answer is in the log", sr+`.querySelectorAll("[role=log] .m.agent").length === 2`)
	focus("the answer came", "TEXTAREA")
	runJS(t, ctx, "press Esc", chromedp.KeyEvent(kb.Escape))
	waitJS(t, ctx, "Esc closed the chat", sr+`.querySelector(".pn").hidden`)
	focus("Esc", "BUTTON.l")
}
