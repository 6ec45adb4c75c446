package tests

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestConsolePagesBrowser drives, in headless Chromium and on both stacks (svc-api over SQLite;
// svc-api and svc-worker over Postgres and Redis), the console pages TestConsoleBrowser only
// opens: webhooks (add one and see its secret once, the last status and failures in a row after
// a receiver on loopback fails, the delivery log, a redelivery once the receiver answers, the
// re-activation of a turned-off webhook, a test sent; every request the receiver gets carries a
// signature that verifies), the allowed domains on the widget page (a page of another host gets
// no widget and 403 origin_not_allowed), the channel switches on the overview (web off: the
// widget's chat answers 503 agent_unavailable; api off: so does POST /v1/chat), conversations
// with their channel and tags, one read, conversions and notifications. Screenshots are kept
// under tests/artifacts/console.
func TestConsolePagesBrowser(t *testing.T) {
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) {
			s := env.stack(t)
			api := s.startAPI(t, privateTargets...)
			if s.production {
				s.startWorker(t, privateTargets...)
			}
			a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
			configureAgent(t, api, a.key)
			loadBrain(t, api, a.key)
			ctx := browser(t, chromium)
			consoleSignIn(t, ctx, api.URL(), "lu@example.com", "correct horse battery")
			shot := func(name string) {
				if env.name == "embedded" { // the same pages on the other stack
					consoleShot(t, ctx, name)
				}
			}

			t.Run("webhooks", func(t *testing.T) { consoleWebhooks(t, ctx, api, a, shot) })
			allowed := consoleDomains(t, ctx, api, a)
			t.Run("channels", func(t *testing.T) { consoleChannels(t, ctx, api, a, allowed) })
			t.Run("conversations, conversions, notifications", func(t *testing.T) {
				consoleReports(t, ctx, api, a, shot)
			})
		})
	}
}

// consoleSignIn signs in through the sign-in page.
func consoleSignIn(t *testing.T, ctx context.Context, base, email, password string) {
	t.Helper()
	runJS(t, ctx, "open the sign-in page", chromedp.Navigate(base+"/app/login"))
	submit(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS(`form[action="/app/login"] button[type=submit]`)))
	waitJS(t, ctx, "the overview after sign-in", `location.pathname === "/app/" && !!document.querySelector("form[action='/app/channels']")`)
}

// consoleWebhooks: add a webhook in the console, then follow its deliveries to a receiver on
// loopback that fails, then succeeds.
func consoleWebhooks(t *testing.T, ctx context.Context, api *proc, a account, shot func(string)) {
	base := api.URL()
	rcv := newHookReceiver(t, http.StatusInternalServerError)
	// A receiver URL the service refuses: the form again, saying why next to the field.
	runJS(t, ctx, "open the webhooks", chromedp.Navigate(base+"/app/webhooks"))
	waitJS(t, ctx, "the webhooks page", `!!document.querySelector("#webhook-form") && !!document.querySelector("#webhooks")`)
	submit(t, ctx, "add a webhook to a refused URL",
		chromedp.SendKeys(chromedp.CSS("#webhook-url"), "ftp://hooks.example.com/x"),
		chromedp.Click(chromedp.CSS(`#webhook-form input[value="*"]`)),
		chromedp.Click(chromedp.CSS(`#webhook-form button[type=submit]`)))
	waitJS(t, ctx, "the refusal next to the field, the values kept", `(f => f.getAttribute("aria-invalid") === "true" && f.value === "ftp://hooks.example.com/x" &&
		document.querySelector("#webhook-url-error").textContent.includes("url must") && document.querySelector('#webhook-form input[value="*"]').checked)(document.querySelector("#webhook-url"))`)
	shot("webhooks-error")
	if n := len(listHooks(t, api, a.key)); n != 0 {
		t.Fatalf("%d webhooks after a refused URL, want 0", n)
	}
	runJS(t, ctx, "open the webhooks", chromedp.Navigate(base+"/app/webhooks"))
	waitJS(t, ctx, "the webhooks page", `!!document.querySelector("#webhook-form") && !!document.querySelector("#webhooks")`)
	submit(t, ctx, "add a webhook",
		chromedp.SendKeys(chromedp.CSS("#webhook-url"), rcv.URL("/hook")),
		chromedp.Click(chromedp.CSS(`#webhook-form input[value="knowledge.updated"]`)),
		chromedp.Click(chromedp.CSS(`#webhook-form button[type=submit]`)))
	waitJS(t, ctx, "the new webhook's secret", `!!document.querySelector("#new-secret")`)
	secret := evaluate[string](t, ctx, "read the secret", `document.querySelector("#new-secret").textContent`)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("the new webhook's secret reads %q", secret)
	}
	hooks := listHooks(t, api, a.key)
	if len(hooks) != 1 || hooks[0].str("url") != rcv.URL("/hook") {
		t.Fatalf("GET /v1/webhooks after the console added one: %v", hooks)
	}
	id := hooks[0].str("id")
	row := "#webhook-" + id
	runJS(t, ctx, "open the webhooks again", chromedp.Navigate(base+"/app/webhooks"))
	waitJS(t, ctx, "the webhook listed", `!!document.querySelector("`+row+`")`)
	wantJS(t, ctx, "the secret is never shown again", `!document.documentElement.outerHTML.includes("`+secret+`") && !document.querySelector("#new-secret")`)

	// An event the receiver refuses three times: last status 500, one failure in a row.
	upsertFAQ(t, api, a.key, "Do you open on holidays?")
	waitHook(t, api, a.key, id, 60*time.Second, "failures 1 after the 3rd failed attempt", func(h obj) bool {
		n, _ := h.num("failures")
		return n == 1
	})
	cells := `[...document.querySelectorAll("` + row + ` td")].map(c => c.textContent.trim())`
	runJS(t, ctx, "reload", chromedp.Reload())
	waitJS(t, ctx, "last status 500, 1 failure in a row", `(c => c[3] === "500" && c[4] === "1" && c[2] === "Active")(`+cells+`)`)
	shot("webhooks-failing")
	hits := rcv.on("/hook")
	if len(hits) != 3 {
		t.Fatalf("the receiver got %d attempts, want 3", len(hits))
	}
	for _, h := range hits {
		wantHookRequest(t, h, secret, "knowledge.updated")
	}
	eventID := hits[0].delivery()

	// The delivery log, then a redelivery the receiver takes.
	runJS(t, ctx, "open the delivery log", chromedp.Click(chromedp.CSS(row+` a[href="/app/webhooks/`+id+`"]`)))
	waitJS(t, ctx, "three attempts answered 500", `location.pathname === "/app/webhooks/`+id+`" && document.querySelectorAll("#deliveries tbody tr").length === 3 &&
		[...document.querySelectorAll("#deliveries tbody tr")].every(r => r.children[3].textContent === "500" && r.children[1].textContent === "knowledge.updated")`)
	rcv.setStatus(http.StatusOK)
	submit(t, ctx, "deliver again", chromedp.Click(chromedp.CSS(`#deliveries form[action="/app/webhooks/`+id+`/deliveries/`+eventID+`/redeliver"] button`)))
	rcv.waitFor(t, 30*time.Second, "the redelivery", func() bool { return len(rcv.on("/hook")) >= 4 })
	again := rcv.on("/hook")[3]
	wantHookRequest(t, again, secret, "knowledge.updated")
	if again.delivery() != eventID {
		t.Errorf("the redelivery's SVC-Delivery %q, want the event's %q", again.delivery(), eventID)
	}
	waitFor(t, 30*time.Second, "the log shows the redelivery", func() (bool, string) {
		if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
			return false, err.Error()
		}
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelectorAll("#deliveries tbody tr").length === 4 && [...document.querySelectorAll("#deliveries tbody tr")].some(r => r.children[3].textContent === "200")`))
		if err != nil {
			return false, err.Error()
		}
		return ok, "not yet"
	})
	shot("webhook-log")
	// The attempt's row is written before the webhook's summary (two writes of the worker), so
	// the list is read again until the summary shows it.
	runJS(t, ctx, "back to the webhooks", chromedp.Navigate(base+"/app/webhooks"))
	waitFor(t, 30*time.Second, "last status 200, no failure in a row", func() (bool, string) {
		if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
			return false, err.Error()
		}
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(c => c[3] === "200" && c[4] === "0")(`+cells+`)`))
		if err != nil {
			return false, err.Error()
		}
		return ok, "not yet"
	})

	// Turned off (as after 20 failed deliveries, or by the API): the console turns it on again.
	if r := callJSON(t, "PATCH", base+"/v1/webhooks/"+id, map[string]any{"active": false}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/webhooks/%s active=false: %s", id, r)
	}
	runJS(t, ctx, "reload", chromedp.Reload())
	waitJS(t, ctx, "inactive, with a re-activate button", `(c => c[2] === "Inactive")(`+cells+`) && !!document.querySelector("`+row+` form[action$='/reactivate']")`)
	submit(t, ctx, "re-activate", chromedp.Click(chromedp.CSS(row+` form[action$="/reactivate"] button`)))
	waitJS(t, ctx, "active again", `(c => c[2] === "Active")(`+cells+`) && !document.querySelector("`+row+` form[action$='/reactivate']")`)
	if h := getHook(t, api, a.key, id); h["active"] != true {
		t.Errorf("GET /v1/webhooks/%s after the re-activation: %v", id, h)
	}

	// A test: the receiver's answer shows, and the receiver got a signed webhook.test.
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusOK} {
		rcv.setStatus(status)
		before := len(rcv.on("/hook"))
		submit(t, ctx, "send a test", chromedp.Click(chromedp.CSS(row+` form[action$="/test"] button`)))
		want := fmt.Sprintf("the receiver answered %d", status)
		waitJS(t, ctx, "the test's outcome", `!!document.querySelector("[role=status]") && document.querySelector("[role=status]").textContent.includes("`+want+`")`)
		hits := rcv.on("/hook")
		if len(hits) != before+1 {
			t.Fatalf("the receiver got %d requests for one test, want 1", len(hits)-before)
		}
		wantHookRequest(t, hits[before], secret, "webhook.test")
		runJS(t, ctx, "back to the webhooks", chromedp.Navigate(base+"/app/webhooks"))
		waitJS(t, ctx, "the last status is the test's", fmt.Sprintf(`(c => c[3] === "%d")(`+cells+`)`, status))
	}
}

// consoleDomains sets the widget's allowed domains on the widget page; it returns a page of the
// allowed host. A host name refused first shows the form again with the reason next to the field.
func consoleDomains(t *testing.T, ctx context.Context, api *proc, a account) string {
	t.Helper()
	base := api.URL()
	snippet := call(t, "GET", base+"/v1/widget?framework=html", bearer(a.key)...).body.str("code")
	allowed := servePage(t, "127.0.0.1", base, snippet)
	other := servePage(t, "localhost", base, snippet)
	warned := watchConsole(t, ctx, "svc widget: not available")

	runJS(t, ctx, "open the widget page", chromedp.Navigate(base+"/app/widget"))
	waitJS(t, ctx, "the domains form", `!!document.querySelector("#domains")`)
	// A host name refused: the same form again, the reason next to the field, what was typed kept.
	submit(t, ctx, "a domain that is no host name",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#domains").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#domains"), "127.0.0.1\nbad_host!"),
		chromedp.Click(chromedp.CSS(`form[action="/app/widget/domains"] button[type=submit]`)))
	wantJS(t, ctx, "the refused domain shown in place", `(() => {
		const f = document.querySelector("#domains"), e = document.getElementById(f.getAttribute("aria-describedby") || "-");
		return f.getAttribute("aria-invalid") === "true" && f.value === "127.0.0.1\nbad_host!" && document.activeElement === f &&
			!!e && e.getAttribute("role") === "alert" && e.textContent.includes("not a host name") && e.getBoundingClientRect().height > 0 &&
			f.closest("form").contains(e) && !!f.closest("form").querySelector("input[name=csrf_token]");
	})()`)
	submit(t, ctx, "allow 127.0.0.1 only",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#domains").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#domains"), "127.0.0.1"),
		chromedp.Click(chromedp.CSS(`form[action="/app/widget/domains"] button[type=submit]`)))
	waitJS(t, ctx, "the domain saved", `location.pathname === "/app/widget" && document.querySelector("#domains").value.trim() === "127.0.0.1"`)
	r := call(t, "GET", base+"/v1/widget", bearer(a.key)...)
	if r.status != http.StatusOK || fmt.Sprint(r.body["allowed_domains"]) != "[127.0.0.1]" {
		t.Errorf("GET /v1/widget after the console saved the domains: %s", r)
	}

	runJS(t, ctx, "open the allowed page", chromedp.Navigate(allowed))
	waitJS(t, ctx, "the widget on the allowed page", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the other host's page", chromedp.Navigate(other))
	waitFor(t, 30*time.Second, "the widget's warning on the other host's page", func() (bool, string) { return warned.Load(), "no warning yet" })
	wantJS(t, ctx, "no widget on the other host's page", `!document.querySelector("#svc-chat-widget")`)
	otherOrigin := strings.TrimSuffix(other, "/")
	wantError(t, call(t, "GET", widgetAPI(api, a.widgetToken, "/info"), "Origin", otherOrigin), http.StatusForbidden, "origin_not_allowed")
	wantError(t, callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": "Hi", "visitor_id": "7f0c1a8e-3b9d-4c2e-8f6a-1d2e3f4a5b6c"},
		"Origin", otherOrigin), http.StatusForbidden, "origin_not_allowed")
	return allowed
}

// consoleChannels turns the web and api channels off and on again on the overview.
func consoleChannels(t *testing.T, ctx context.Context, api *proc, a account, allowed string) {
	base := api.URL()
	origin := strings.TrimSuffix(allowed, "/")
	const visitor = "0b6e2f7a-9c1d-4e3f-a2b5-c6d7e8f9a0b1"
	webChat := func() response {
		return callJSON(t, "POST", widgetAPI(api, a.widgetToken, "/chat"), map[string]any{"message": gfQuestion, "visitor_id": visitor}, "Origin", origin)
	}
	apiChat := func() response {
		return postChat(t, api, a.key, map[string]any{"message": "Hello, are you open?", "conversation_id": "switch-1"})
	}
	set := func(web, apiOn bool) {
		t.Helper()
		runJS(t, ctx, "open the overview", chromedp.Navigate(base+"/app/"))
		waitJS(t, ctx, "the channel switches", `!!document.querySelector("form[action='/app/channels'] input[name=web]")`)
		submit(t, ctx, "switch the channels", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const f = document.querySelector("form[action='/app/channels']");
			f.querySelector("input[name=web]").checked = %v; f.querySelector("input[name=api]").checked = %v })()`, web, apiOn)),
			chromedp.Click(chromedp.CSS(`form[action="/app/channels"] button[type=submit]`)))
		waitJS(t, ctx, "the switches saved", fmt.Sprintf(`location.pathname === "/app/" && document.readyState === "complete" &&
			document.querySelector("form[action='/app/channels'] input[name=web]").checked === %v &&
			document.querySelector("form[action='/app/channels'] input[name=api]").checked === %v`, web, apiOn))
		ch := call(t, "GET", base+"/v1/agent", bearer(a.key)...).body
		if got, _ := ch.get("channels.web"); got != web {
			t.Errorf("channels.web %v after the console's switch, want %v", got, web)
		}
		if got, _ := ch.get("channels.api"); got != apiOn {
			t.Errorf("channels.api %v after the console's switch, want %v", got, apiOn)
		}
	}

	set(false, true)
	wantError(t, webChat(), http.StatusServiceUnavailable, "agent_unavailable")
	if r := apiChat(); r.status != http.StatusOK {
		t.Errorf("POST /v1/chat with the web channel off: %s, want 200", r)
	}
	set(true, false)
	wantError(t, apiChat(), http.StatusServiceUnavailable, "agent_unavailable")
	if r := webChat(); r.status != http.StatusOK {
		t.Errorf("the widget's chat with the api channel off: %s, want 200", r)
	}
	set(true, true)
	if r := apiChat(); r.status != http.StatusOK {
		t.Errorf("POST /v1/chat with the channels on again: %s, want 200", r)
	}
}

// consoleReports: a sale in a conversation, seen on the conversations (channel and tag), the
// conversation, the conversions and the notifications.
func consoleReports(t *testing.T, ctx context.Context, api *proc, a account, shot func(string)) {
	base := api.URL()
	if r := postChat(t, api, a.key, map[string]any{"message": "I would like to buy the rye loaf", "conversation_id": "order-7", "customer_name": "Rita Sousa"}); r.status != http.StatusOK {
		t.Fatalf("POST /v1/chat: %s", r)
	}
	if r := callJSON(t, "POST", base+"/v1/conversions", map[string]any{"kind": "sale", "amount": 42.5, "currency": "EUR", "conversation_id": "order-7"},
		bearer(a.key)...); r.status != http.StatusCreated && r.status != http.StatusOK {
		t.Fatalf("POST /v1/conversions: %s", r)
	}
	if r := callJSON(t, "POST", base+"/v1/conversions", map[string]any{"kind": "lead"}, bearer(a.key)...); r.status != http.StatusCreated && r.status != http.StatusOK {
		t.Fatalf("POST /v1/conversions: %s", r)
	}

	runJS(t, ctx, "open the conversations", chromedp.Navigate(base+"/app/conversations"))
	rowOf := func(name string) string {
		return `[...document.querySelectorAll("#conversations tbody tr")].find(r => r.children[0].textContent.includes("` + name + `"))`
	}
	waitJS(t, ctx, "Rita's conversation on the api channel, tagged sale", `(r => r.children[1].textContent === "api" && r.children[2].textContent.includes("sale"))(`+rowOf("Rita Sousa")+`)`)
	wantJS(t, ctx, "the widget visitor's conversation on the web channel", `[...document.querySelectorAll("#conversations tbody tr")].some(r => r.children[1].textContent === "web")`)
	shot("conversations-tags")
	runJS(t, ctx, "open Rita's", chromedp.Click(chromedp.CSS(`a[href="/app/conversations/order-7"]`)))
	waitJS(t, ctx, "its messages", `location.pathname === "/app/conversations/order-7" && document.querySelector("#messages").textContent.includes("buy the rye loaf") &&
		document.querySelectorAll("#messages .agent").length === 1`)

	runJS(t, ctx, "open the conversions", chromedp.Navigate(base+"/app/conversions"))
	const totals = `[...document.querySelectorAll("#totals tbody tr")].map(r => [...r.children].map(c => c.textContent.trim()))`
	waitJS(t, ctx, "a sale of 42.50 EUR and a lead without an amount", `(rows => rows.length === 2 && rows.some(r => r[0] === "sale" && r[1] === "EUR" && r[2] === "1" && r[3] === "42.50") &&
		rows.some(r => r[0] === "lead" && r[1] === "" && r[2] === "1" && r[3] === "—"))(`+totals+`)`)
	wantJS(t, ctx, "the bars are drawn", `[...document.querySelectorAll("#totals .bar")].every(b => b.getBoundingClientRect().width > 40)`)
	shot("conversions-totals")
	submit(t, ctx, "another period",
		chromedp.SetValue(chromedp.CSS("#from"), "2020-01-01"),
		chromedp.SetValue(chromedp.CSS("#to"), "2020-02-01"),
		chromedp.Click(chromedp.CSS(`#period button[type=submit]`)))
	waitJS(t, ctx, "nothing in January 2020", `location.search === "?from=2020-01-01&to=2020-02-01" && document.querySelector("#from").value === "2020-01-01" &&
		(rows => rows.length === 1 && rows[0].length === 1)(`+totals+`)`)
	runJS(t, ctx, "a period that ends before it starts", chromedp.Navigate(base+"/app/conversions?from=2026-03-01&to=2026-02-01"))
	waitJS(t, ctx, "refused next to the field, the dates kept", `(f => f.getAttribute("aria-invalid") === "true" && f.value === "2026-02-01" &&
		document.getElementById(f.getAttribute("aria-describedby")).textContent.includes("to"))(document.querySelector("#to"))`)

	runJS(t, ctx, "open the notifications", chromedp.Navigate(base+"/app/notifications"))
	waitJS(t, ctx, "the sale's notification", `document.querySelector("#notifications").textContent.includes("New sale: 42.50 EUR") && document.querySelector("#notifications").textContent.includes("order-7")`)
	wantJS(t, ctx, "no list bullets", `getComputedStyle(document.querySelector("#notifications")).listStyleType === "none"`)
	shot("notifications-sale")
}

// submit runs actions that send a form and waits until the page they lead to has loaded (the
// page before it is gone).
func submit(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	runJS(t, ctx, what, append([]chromedp.Action[chromedp.Void]{chromedp.Evaluate[chromedp.Void](`window.svcStale = true`)}, actions...)...)
	waitJS(t, ctx, what+": the next page", `!window.svcStale && document.readyState === "complete"`)
}
