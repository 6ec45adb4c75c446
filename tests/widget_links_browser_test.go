package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWidgetLinksBrowser: an answer's addresses (bare, or markdown's [words](address)) are links
// a visitor can click, each opened in a new tab that gets no hold on the page (rel noopener,
// noreferrer); an address of another scheme (javascript:, data:) stays text, and the message's
// text is there as written (a markdown link as its words).
func TestWidgetLinksBrowser(t *testing.T) {
	const greeting = "Hours: https://lu.example/hours. Our [menu](https://lu.example/menu?d=1), not [this](javascript:alert(1)) nor javascript:alert(2) nor [that](data:text/html,x)."
	ctx := greetedChat(t, greeting)
	const sr = widgetRoot
	if text := evaluate[string](t, ctx, "the greeting's text", sr+`.querySelector(".m.agent").textContent`); text != strings.Replace(greeting, "[menu](https://lu.example/menu?d=1)", "menu", 1) {
		t.Errorf("the greeting reads %q (its markdown link as its words, the rest as written)", text)
	}
	got := evaluate[[][]string](t, ctx, "the greeting's links", `[...`+sr+`.querySelectorAll(".m.agent a")].map(a => [a.getAttribute("href"), a.textContent, a.rel, a.target])`)
	want := [][]string{{"https://lu.example/hours", "https://lu.example/hours", "noopener noreferrer nofollow", "_blank"},
		{"https://lu.example/menu?d=1", "menu", "noopener noreferrer nofollow", "_blank"}}
	if g, w := asJSON(got), asJSON(want); g != w {
		t.Errorf("links %s, want %s", g, w)
	}
	wantJS(t, ctx, "the links underlined in the message's colour", `(() => { const a = `+sr+`.querySelector(".m.agent a"), m = a.closest(".m");
		return getComputedStyle(a).color === getComputedStyle(m).color && getComputedStyle(a).textDecorationLine === "underline" })()`)
}

const widgetRoot = `document.querySelector("#svc-chat-widget").shadowRoot`

// greetedChat opens, in a browser, a page with the widget of an agent whose greeting is greeting,
// and the chat, once the greeting shows.
func greetedChat(t *testing.T, greeting string) context.Context {
	api, _, key := styledWidget(t, map[string]any{"position": "right"})
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent/appearance", map[string]any{"greeting": map[string]string{"en": greeting}}, key...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent/appearance: %s", r)
	}
	page := servePage(t, "127.0.0.1", api.URL(), call(t, "GET", api.URL()+"/v1/widget?framework=html", key...).body.str("code"))
	ctx := browser(t, chromiumPath(t))
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(widgetRoot+`.querySelector("button.l")`)))
	waitJS(t, ctx, "the greeting", `!!`+widgetRoot+`.querySelector(".m.agent")`)
	return ctx
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
