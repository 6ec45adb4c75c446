package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestWidgetInputBrowser types in the chat's input in headless Chromium on a desktop window:
// Shift+Enter makes a new line and the input grows with its lines up to about 5, then scrolls;
// Enter sends the message with its line breaks, the input back to one line and still labelled.
// A drag of the chat that the browser cancels (pointercancel) ends there: the chat stays in the
// window where it was, remembered, and no longer follows the pointer. The page printed shows no
// chat, open as it is.
func TestWidgetInputBrowser(t *testing.T) {
	page, ctx := widgetPage(t)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	const ta = sr + `.querySelector("textarea")`
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	waitJS(t, ctx, "the input is focused", sr+`.activeElement === `+ta)
	height := func() float64 {
		return evaluate[float64](t, ctx, "the input's height", ta+`.getBoundingClientRect().height`)
	}
	one := height()
	newLine := chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierShift))
	runJS(t, ctx, "type two lines", chromedp.KeyEvent("Do you have"), newLine, chromedp.KeyEvent("gluten-free bread?"))
	two := height()
	if two-one < 12 {
		t.Errorf("the input is %.0f px tall with one line and %.0f px with two: it does not grow", one, two)
	}
	for i := 0; i < 6; i++ {
		runJS(t, ctx, "another line", newLine, chromedp.KeyEvent("and more"))
	}
	most := height()
	if most < one+4*(two-one)-2 || most > one+5*(two-one) {
		t.Errorf("the input with 8 lines is %.0f px tall (one line %.0f, two %.0f), want about 5 lines", most, one, two)
	}
	wantJS(t, ctx, "the input scrolls past 5 lines, still labelled", ta+`.scrollHeight > `+ta+`.clientHeight + 20 && `+ta+`.value.split("\n").length === 8 && `+
		ta+`.getAttribute("aria-label") === "Write a message"`)
	runJS(t, ctx, "send", pressEnter())
	want := "Do you have\ngluten-free bread?" + strings.Repeat("\nand more", 6)
	waitJS(t, ctx, "the message is sent with its line breaks", `[...`+sr+`.querySelectorAll(".m.customer")].some(m => m.textContent === `+jsString(want)+`)`)
	if h := height(); h != one {
		t.Errorf("the empty input after sending is %.0f px tall, want one line's %.0f", h, one)
	}

	const pn = sr + `.querySelector(".pn")`
	head := evaluate[struct{ X, Y float64 }](t, ctx, "find the top bar", `(() => { const r = `+sr+`.querySelector(".h").getBoundingClientRect();
		`+sr+`.querySelector(".h").addEventListener("pointerdown", e => window.dragged = e.pointerId); return {X: r.left + 60, Y: r.top + 20} })()`)
	runJS(t, ctx, "start a drag",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X, head.Y),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, head.X, head.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X-300, head.Y-100, chromedp.ButtonLeft))
	at := evaluate[rect](t, ctx, "where the chat went", `(() => { const r = `+pn+`.getBoundingClientRect(); return {Left: r.left, Top: r.top} })()`)
	evaluate[bool](t, ctx, "the browser cancels the drag", sr+`.querySelector(".h").dispatchEvent(new PointerEvent("pointercancel", {pointerId: window.dragged, bubbles: true}))`)
	wantJS(t, ctx, "where the chat was is remembered, in the window", `(() => { const p = JSON.parse((Object.entries(localStorage).find(([k]) => k.startsWith("svc_widget_pos:")) || [])[1] || "null"),
		r = `+pn+`.getBoundingClientRect(); return !!p && Math.abs(p.x - r.left) <= 1 && Math.abs(p.y - r.top) <= 1 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight })()`)
	runJS(t, ctx, "the pointer moves on, then is let go",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, head.X-500, head.Y-200, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, head.X-500, head.Y-200, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if after := evaluate[rect](t, ctx, "where the chat is", `(() => { const r = `+pn+`.getBoundingClientRect(); return {Left: r.left, Top: r.top} })()`); after != at || at.Left > head.X-250 {
		t.Errorf("the chat was dragged to (%v, %v) and the drag cancelled; after the pointer moved on it is at (%v, %v), want where the drag was cancelled", at.Left, at.Top, after.Left, after.Top)
	}

	runJS(t, ctx, "print the page", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	}))
	wantJS(t, ctx, "the printed page has no chat, the page's text is there", `!`+sr+`.querySelector(".pn").hidden && getComputedStyle(document.querySelector("#svc-chat-widget")).display === "none" && `+
		sr+`.querySelector(".pn").getBoundingClientRect().height === 0 && document.querySelector("h1").getBoundingClientRect().height > 0`)
}

// pressEnter presses Enter as a keyboard does, the key down and up with no character of its own
// (chromedp's KeyEvent sends the line break as a character apart, which a textarea takes even
// when the key's keydown was prevented).
func pressEnter() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter",
				WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}); err != nil {
				return err
			}
		}
		return nil
	})
}
