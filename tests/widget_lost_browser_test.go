package tests

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestWidgetLostAnswerBrowser loses the answer to a visitor's message on its way back (the
// service stored the message and replied; the connection was reset before the browser read
// it: a phone changing networks, a proxy restarting). The chat says it could not reach the
// service and puts the message back; the visitor sends it again, and the service answers what
// it had already answered (the widget's Idempotency-Key): the conversation holds the message
// once, one interaction is charged, and after a reload the chat shows it once with its reply.
func TestWidgetLostAnswerBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a, page := widgetSite(t, s, api, "--plan", "pro")
	ctx := browser(t, chromium)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	const ta = sr + `.querySelector("textarea")`

	// The first answer to a visitor's message is cut off once the service has sent it.
	var posts atomic.Int32
	interceptRequests(t, ctx, &fetch.RequestPattern{URLPattern: "*/widget/api/*/chat", RequestStage: fetch.RequestStageResponse},
		func(ctx context.Context, tg *chromedp.Target, ev *fetch.EventRequestPaused) error {
			if ev.Request.Method == http.MethodPost && ev.ResponseStatusCode != 0 && posts.Add(1) == 1 {
				_, err := cdp.Call(ctx, tg, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
				return err
			}
			_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			return err
		})

	openChat(t, ctx, page)
	// Enter as a keyboard's (CDP's key events would also type a line break after it).
	enter := `(() => { ` + ta + `.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true})); return true })()`
	runJS(t, ctx, "type a question", chromedp.SendKeys(chromedp.JSPath(ta), "Do you have gluten-free bread?"))
	evaluate[bool](t, ctx, "ask", enter)
	waitJS(t, ctx, "the chat says it could not reach the service, the message back in the input",
		`[...`+sr+`.querySelectorAll(".m.note")].some(n => n.textContent === "Could not reach the chat. Check your connection and try again.") && `+
			ta+`.value === "Do you have gluten-free bread?" && !`+sr+`.querySelector("button[type=submit]").disabled`)
	evaluate[bool](t, ctx, "send it again", enter)
	waitJS(t, ctx, "the reply is shown", `(() => { const m = [...`+sr+`.querySelectorAll(".m")];
		return m[m.length - 1].classList.contains("agent") && m[m.length - 1].textContent.includes("`+gfAnswerBit+`") && `+ta+`.value === "" })()`)
	if n := posts.Load(); n != 2 {
		t.Fatalf("the widget sent the message %d times, want 2 (the answer lost, then sent again)", n)
	}

	visitor := evaluate[string](t, ctx, "the visitor", `document.cookie.match(/svc_visitor=([0-9a-f-]{36})/)[1]`)
	conv := getConversation(t, api, a.key, visitor)
	asked := 0
	for _, m := range listOf(conv, "messages") {
		if m.str("role") == "customer" {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("the conversation holds the visitor's message %d times, want once: %s", asked, conv)
	}
	acct := call(t, "GET", api.URL()+"/v1/account", bearer(a.key)...)
	if spent, _ := acct.body.num("usage.interactions_spent"); spent != 1 {
		t.Errorf("interactions spent: %v, want 1 (the message answered once)", spent)
	}

	runJS(t, ctx, "reload the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready again, the chat open", `!!document.querySelector("#svc-chat-widget[data-ready]") && !`+sr+`.querySelector(".pn").hidden`)
	got := evaluate[string](t, ctx, "the messages after the reload", `[...`+sr+`.querySelectorAll(".m.customer, .m.agent:not(.greeting)")].map(m => m.className + ":" + m.textContent.slice(0, 30)).join(" | ")`)
	if strings.Count(got, "m customer:") != 1 || strings.Count(got, "m agent:") != 1 {
		t.Errorf("after a reload the chat shows %q, want the message once and its reply", got)
	}
}
