package tests

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestWidgetPhoneBrowser opens the chat on a phone's screen (375×667) in headless Chromium: the
// chat stays in its corner (spec 4.5), as wide as the screen less its margins, above the launcher,
// which stays in sight, with its input and send button in sight. The phone's screen is a touch screen (pointer: coarse): the chat opens with
// the focus on its dialog, not on the input (the phone's keyboard would cover the answers).
func TestWidgetPhoneBrowser(t *testing.T) {
	page, ctx := widgetPage(t)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "a phone's touch screen", chromedp.EmulateViewport(375, 667), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5})
		return err
	}))
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	waitJS(t, ctx, "the panel is open", `!`+sr+`.querySelector(".pn").hidden`)
	if !evaluate[bool](t, ctx, "a touch screen", `matchMedia("(pointer: coarse)").matches`) {
		t.Fatal("Chromium's touch emulation does not make the pointer coarse")
	}
	wantJS(t, ctx, "the focus is on the chat's dialog, not the input", sr+`.activeElement === `+sr+`.querySelector(".pn[role=dialog]")`)
	// The chat stays in its corner (spec 4.5), above the launcher, which stays in sight to close it:
	// the screen's width less 12 px each side, its bottom 84 px from the screen's, its top inside it.
	got := evaluate[string](t, ctx, "the chat's box", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect();
		return [innerWidth, innerHeight, r.left, r.width, innerHeight - r.bottom, r.top >= 0].join(" ") })()`)
	if want := "375 667 12 351 84 true"; got != want {
		t.Errorf("viewport, then the chat's left, width, distance from the bottom and top in sight: %q, want %q", got, want)
	}
	wantJS(t, ctx, "the send button is in sight and nothing covers it", `(() => { const b = `+sr+`.querySelector("button[type=submit]"), r = b.getBoundingClientRect();
		return r.bottom <= innerHeight && `+sr+`.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b })()`)
	wantJS(t, ctx, "the launcher is in sight while the chat is open", `(() => { const l = `+sr+`.querySelector("button.l"), r = l.getBoundingClientRect();
		return r.width === 56 && r.bottom <= innerHeight && l.contains(`+sr+`.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)) })()`)
	runJS(t, ctx, "close the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector(".x")`)))
	waitJS(t, ctx, "the launcher is back, focused", sr+`.querySelector(".pn").hidden && `+sr+`.activeElement === `+sr+`.querySelector("button.l") && `+
		sr+`.querySelector("button.l").getBoundingClientRect().width === 56`)
}
