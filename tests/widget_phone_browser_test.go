package tests

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestWidgetPhoneBrowser opens the chat on a phone's screen (375×667) in headless Chromium: the
// chat takes the whole screen (its height is the viewport's: 100dvh, the part the browser's bars
// leave) with its input and send button in sight, not under the launcher, which gives way to the
// chat's close button. The phone's screen is a touch screen (pointer: coarse): the chat opens with
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
	got := evaluate[string](t, ctx, "the chat's box", `(() => { const r = `+sr+`.querySelector(".pn").getBoundingClientRect();
		return [innerWidth, innerHeight, r.left, r.top, r.width, r.height, getComputedStyle(`+sr+`.querySelector(".pn")).height].join(" ") })()`)
	if want := "375 667 0 0 375 667 667px"; got != want {
		t.Errorf("viewport, then the chat's left, top, width, height and computed height: %q, want %q (the whole screen)", got, want)
	}
	wantJS(t, ctx, "the send button is in sight and nothing covers it", `(() => { const b = `+sr+`.querySelector("button[type=submit]"), r = b.getBoundingClientRect();
		return r.bottom <= innerHeight && `+sr+`.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b })()`)
	runJS(t, ctx, "close the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector(".x")`)))
	waitJS(t, ctx, "the launcher is back, focused", sr+`.querySelector(".pn").hidden && `+sr+`.activeElement === `+sr+`.querySelector("button.l") && `+
		sr+`.querySelector("button.l").getBoundingClientRect().width === 56`)
}
