package tests

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// shop is a store's site on loopback, as the plugin runs it: its admin page receives the
// connect code, its pages carry the widget, and its add-to-cart ajax endpoint records what the
// widget added.
type shop struct {
	url     string
	mu      sync.Mutex
	codes   []url.Values // queries the admin page got
	cart    []string     // product_id=…&quantity=… the add-to-cart endpoint got
	snippet string
}

func (s *shop) setSnippet(v string) { s.mu.Lock(); s.snippet = v; s.mu.Unlock() }

func (s *shop) got() ([]url.Values, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.codes...), append([]string(nil), s.cart...)
}

func serveShop(t *testing.T) *shop {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &shop{url: "http://" + l.Addr().String()}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/wp-admin/admin.php":
			s.mu.Lock()
			s.codes = append(s.codes, r.URL.Query())
			s.mu.Unlock()
			fmt.Fprint(w, `<!doctype html><title>Plugin settings</title><h1 id="connected">Plugin settings</h1>`)
		case r.URL.Path == "/" && r.URL.Query().Get("wc-ajax") == "add_to_cart" && r.Method == http.MethodPost:
			_ = r.ParseForm()
			s.mu.Lock()
			s.cart = append(s.cart, "product_id="+r.PostForm.Get("product_id")+"&quantity="+r.PostForm.Get("quantity"))
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"fragments":{},"cart_hash":"x"}`)
		case r.URL.Path == "/checkout/":
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body><h1 id="checkout">Checkout</h1></body></html>`)
		case r.URL.Path == "/":
			s.mu.Lock()
			snippet := s.snippet
			s.mu.Unlock()
			w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+apiOrigin(snippet)+"; connect-src 'self' "+apiOrigin(snippet)+"; style-src 'self'; img-src 'self'")
			fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bike shop</title></head><body><h1>Bike shop</h1>`+snippet+`</body></html>`)
		default:
			http.NotFound(w, r)
		}
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

var srcRE = regexp.MustCompile(`src="(https?://[^/"]+)`)

func apiOrigin(snippet string) string {
	if m := srcRE.FindStringSubmatch(snippet); m != nil {
		return m[1]
	}
	return ""
}

// products are n products of the shop; product 7 is the one the visitor asks about.
func products(site string, n int) []map[string]any {
	out := make([]map[string]any, 0, n)
	for i := range n {
		p := map[string]any{"type": "product", "url": fmt.Sprintf("%s/product/model-%d/", site, i), "title": fmt.Sprintf("City bike model %d", i),
			"content": fmt.Sprintf("A city bike, model %d, with %d gears and a steel frame.", i, 3+i%5), "price": fmt.Sprintf("%d.00", 300+i),
			"currency": "EUR", "stock": i % 4, "cart_id": fmt.Sprintf("%d", 1000+i)}
		if i == 7 {
			p["title"] = "Trailblazer mountain bike"
			p["content"] = "The Trailblazer is a full-suspension mountain bike with hydraulic disc brakes, built for rocky trails."
			p["price"], p["stock"], p["cart_id"] = "1299.00", 5, "777"
		}
		out = append(out, p)
	}
	return out
}

// ownerLogin gives the account's owner a password (svcctl) and returns the e-mail and password.
func ownerLogin(t *testing.T, s stack, accountID string) (string, string) {
	t.Helper()
	email, password := "owner-"+accountID+"@example.com", "correct horse battery"
	ctl(t, s.with(), "owner", "set-password", "--account", accountID, "--email", email, "--password", password)
	return email, password
}

// TestPluginConnectBrowser runs the plugin protocol end to end in headless Chromium: the site's
// plugin sends the owner to /cms/connect, the owner signs in and approves the named site, the
// browser returns to the plugin's admin page with svc_code and the same state; the plugin
// exchanges the code, syncs 300 products; a visitor on the shop's page asks the widget about a
// product and its answer's cart action calls the shop's add-to-cart endpoint; the paid order is
// reported with the visitor's cookie, and the sale conversion, the conversation's sale tag and
// the owner's notification show through the API and in the console.
func TestPluginConnectBrowser(t *testing.T) {
	binaries(t)
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := s.newAccount(t, "--plan", "pro")
	configureAgent(t, api, a.key)
	email, password := ownerLogin(t, s, a.id)
	shop := serveShop(t)

	ctx := browser(t, chromium)
	connect := api.URL() + "/cms/connect?" + url.Values{"site": {shop.url}, "return": {shop.url + "/wp-admin/admin.php?page=svc"},
		"state": {"st-42"}, "lang": {"en"}, "woo": {"1"}}.Encode()
	runJS(t, ctx, "the plugin sends the owner to connect", chromedp.Navigate(connect))
	waitJS(t, ctx, "the sign-in page", `location.pathname === "/app/login" && !!document.querySelector("#email")`)
	runJS(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.JSPath(`document.querySelector("#email")`), email),
		chromedp.SendKeys(chromedp.JSPath(`document.querySelector("#password")`), password),
		chromedp.Click(chromedp.JSPath(`document.querySelector("form[action='/app/login'] button[type=submit]")`)))
	waitJS(t, ctx, "signed in", `location.pathname !== "/app/login"`)
	host := strings.TrimPrefix(shop.url, "http://")
	waitJS(t, ctx, "the approval page names the site", `location.pathname.startsWith("/app/connect/") && document.querySelector("#connect-site").textContent.includes("`+host+`")`)
	runJS(t, ctx, "approve", chromedp.Click(chromedp.JSPath(`document.querySelector("#connect-approve")`)))
	waitJS(t, ctx, "back on the plugin's admin page", `location.pathname === "/wp-admin/admin.php" && !!document.querySelector("#connected")`)
	codes, _ := shop.got()
	if len(codes) != 1 || codes[0].Get("state") != "st-42" || codes[0].Get("page") != "svc" || !strings.HasPrefix(codes[0].Get("svc_code"), "svc_code_") {
		t.Fatalf("the admin page got %v, want one svc_code with state st-42", codes)
	}

	ex := callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": codes[0].Get("svc_code"), "site": shop.url})
	token := ex.body.str("token")
	if ex.status != http.StatusOK || !strings.HasPrefix(token, "svc_plg_") || ex.body.str("widget_token") != a.widgetToken || ex.body.str("name") != chatBusiness {
		t.Fatalf("POST /cms/exchange: %s", ex)
	}
	sync := callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": token, "site_url": shop.url, "platform": "woocommerce",
		"pages": products(shop.url, 300)})
	if sync.status != http.StatusOK || sync.body.str("object") != "plugin_sync" {
		t.Fatalf("POST /cms/sync: %s", sync)
	}
	if n, _ := sync.body.num("products"); n != 300 {
		t.Errorf("sync counted %v products, want 300", n)
	}

	shop.setSnippet(`<script src="` + api.URL() + `/widget.js" data-token="` + ex.body.str("widget_token") + `" data-platform="woocommerce" data-checkout="/checkout/" data-lang="en" async></script>`)
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "a visitor opens the shop", chromedp.Navigate(shop.url+"/"))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	runJS(t, ctx, "ask about a product", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "Do you have the Trailblazer mountain bike with disc brakes?\r"))
	waitJS(t, ctx, "the answer offers the product and adds it to the cart", `[...`+sr+`.querySelectorAll(".m.agent")].some(m => m.textContent.includes("Trailblazer")) && [...`+sr+`.querySelectorAll("button.act")].some(b => b.textContent === "Added to your cart")`)
	if _, cart := shop.got(); len(cart) != 1 || cart[0] != "product_id=777&quantity=1" {
		t.Errorf("the shop's add-to-cart endpoint got %v, want product 777 once", cart)
	}
	t.Logf("screenshot: %s", screenshot(t, ctx))
	visitor := strings.TrimPrefix(evaluate[string](t, ctx, "the visitor cookie", `document.cookie`), "svc_visitor=")

	sale := map[string]any{"token": token, "visitor_id": visitor, "order_id": 1001, "order_name": "#1001", "total": "1299.00",
		"currency": "EUR", "items": []map[string]any{{"name": "Trailblazer mountain bike", "qty": 1}}}
	r := callJSON(t, "POST", api.URL()+"/cms/sale", sale)
	if r.status != http.StatusCreated || r.body.str("conversation_id") != visitor {
		t.Fatalf("POST /cms/sale: %s", r)
	}
	conv := getConversation(t, api, a.key, visitor)
	if tags := fmt.Sprint(conv["tags"]); !strings.Contains(tags, "sale") {
		t.Errorf("the visitor's conversation has tags %s, want sale", tags)
	}
	cs := call(t, "GET", api.URL()+"/v1/conversions", bearer(a.key)...)
	if l := listOf(cs.body, "data"); len(l) != 1 || l[0].str("kind") != "sale" || l[0].str("conversation_id") != visitor {
		t.Errorf("GET /v1/conversions: %s", cs)
	}
	ns := call(t, "GET", api.URL()+"/v1/notifications", bearer(a.key)...)
	if !strings.Contains(ns.String(), "New sale: 1299.00 EUR") {
		t.Errorf("GET /v1/notifications lacks the sale: %s", ns)
	}

	runJS(t, ctx, "the owner opens the connections", chromedp.Navigate(api.URL()+"/app/connections"))
	waitJS(t, ctx, "the connected site with its last sync", `document.body.textContent.includes("`+host+`") && document.querySelector("[data-products]") && document.querySelector("[data-products]").textContent.trim() === "300"`)
	runJS(t, ctx, "the owner opens the notifications", chromedp.Navigate(api.URL()+"/app/notifications"))
	waitJS(t, ctx, "the sale is in the console", `document.body.textContent.includes("New sale: 1299.00 EUR")`)
	runJS(t, ctx, "disconnect", chromedp.Navigate(api.URL()+"/app/connections"), chromedp.Click(chromedp.JSPath(`document.querySelector("[data-disconnect]")`)))
	waitJS(t, ctx, "no site connected", `!document.body.textContent.includes("`+host+`")`)
	wantError(t, callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": token, "pages": []any{}}), http.StatusUnauthorized, "unauthorized")
}

// noRedirect is a client that shows redirects instead of following them.
func noRedirect(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var csrfRE = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// approveHTTP signs the owner in and approves the connection request connect starts, as a
// browser's forms do, and returns where the approval sends the browser.
func approveHTTP(t *testing.T, api *proc, email, password, connect string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := noRedirect(jar)
	get := func(u string) (*http.Response, string) {
		t.Helper()
		res, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		return res, string(b)
	}
	post := func(u string, form url.Values) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", api.URL())
		req.Header.Set("Referer", u)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		return res
	}
	res, _ := get(connect)
	approval := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(approval, "/app/connect/") {
		t.Fatalf("GET /cms/connect: %d %s", res.StatusCode, approval)
	}
	res, _ = get(api.URL() + approval)
	login := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(login, "/app/login?next=") {
		t.Fatalf("the approval page signed out: %d %s", res.StatusCode, login)
	}
	_, page := get(api.URL() + login)
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the sign-in page: %s", page)
	}
	res = post(api.URL()+"/app/login", url.Values{"csrf_token": {m[1]}, "email": {email}, "password": {password}, "next": {approval}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != approval {
		t.Fatalf("sign in: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, page = get(api.URL() + approval)
	if m = csrfRE.FindStringSubmatch(page); res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("the approval page: %d %s", res.StatusCode, page)
	}
	res = post(api.URL()+approval, url.Values{"csrf_token": {m[1]}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", res.StatusCode)
	}
	return res.Header.Get("Location")
}

// TestPluginSecurity: a return address on another host or outside the admin path gets an error
// page and no redirect; a code works once and only for its site; an API key or a widget token is
// no plugin token (401); a sync of 301 items or of a 4,001-character item is 400 naming the field
// and stores nothing; payment fields are refused; the same order reported twice is one conversion.
func TestPluginSecurity(t *testing.T) {
	binaries(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := s.newAccount(t, "--plan", "pro")
	configureAgent(t, api, a.key)
	email, password := ownerLogin(t, s, a.id)
	const site = "https://shop.example"
	plain := noRedirect(nil)
	connectURL := func(ret string) string {
		return api.URL() + "/cms/connect?" + url.Values{"site": {site}, "return": {ret}, "state": {"s1"}, "woo": {"1"}}.Encode()
	}
	for _, ret := range []string{"https://evil.example/wp-admin/admin.php", "https://shop.example.evil.example/wp-admin/",
		"https://shop.example/checkout/", "https://shop.example/wp-admin/../../evil", "//evil.example/wp-admin/", "javascript:alert(1)"} {
		res, err := plain.Get(connectURL(ret))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			strings.Contains(string(b), "evil.example") {
			t.Errorf("return %q: %d, Location %q, %s", ret, res.StatusCode, res.Header.Get("Location"), b)
		}
	}

	back := approveHTTP(t, api, email, password, connectURL(site+"/wp-admin/admin.php?page=svc"))
	u, err := url.Parse(back)
	if err != nil || u.Host != "shop.example" || u.Query().Get("state") != "s1" {
		t.Fatalf("the approval sends the browser to %q", back)
	}
	code := u.Query().Get("svc_code")
	wantError(t, callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": code, "site": "https://other.example"}), http.StatusBadRequest, "invalid_request")
	ex := callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": code, "site": site})
	if ex.status != http.StatusOK {
		t.Fatalf("exchange: %s", ex)
	}
	wantError(t, callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": code, "site": site}), http.StatusBadRequest, "invalid_request")
	token := ex.body.str("token")

	for name, wrong := range map[string]string{"API key": a.key, "widget token": a.widgetToken, "nothing": ""} {
		wantError(t, callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": wrong, "pages": []any{}}, anotherClient()...), http.StatusUnauthorized, "unauthorized")
		wantError(t, callJSON(t, "POST", api.URL()+"/cms/sale", map[string]any{"token": wrong, "order_id": 1, "total": "1.00", "currency": "EUR"}, anotherClient()...),
			http.StatusUnauthorized, "unauthorized")
		_ = name
	}

	r := callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": token, "pages": products(site, 301)})
	wantError(t, r, http.StatusBadRequest, "invalid_request")
	if p := r.body.str("error.param"); p != "pages" {
		t.Errorf("301 items: param %q, want pages", p)
	}
	long := products(site, 2)
	long[1]["content"] = strings.Repeat("a", 4001)
	r = callJSON(t, "POST", api.URL()+"/cms/sync", map[string]any{"token": token, "pages": long})
	wantError(t, r, http.StatusBadRequest, "invalid_request")
	if p := r.body.str("error.param"); p != "pages[1].content" {
		t.Errorf("a 4,001-character item: param %q, want pages[1].content", p)
	}
	kn := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
	if strings.Contains(kn.String(), "shop.example/product") {
		t.Errorf("a refused sync stored pages: %s", kn)
	}

	sale := map[string]any{"token": token, "order_id": 77, "total": "10.50", "currency": "EUR"}
	withCard := map[string]any{"card_number": "4242424242424242"}
	for k, v := range sale {
		withCard[k] = v
	}
	wantError(t, callJSON(t, "POST", api.URL()+"/cms/sale", withCard), http.StatusBadRequest, "invalid_request")
	first := callJSON(t, "POST", api.URL()+"/cms/sale", sale)
	again := callJSON(t, "POST", api.URL()+"/cms/sale", sale)
	if first.status != http.StatusCreated || again.status != http.StatusOK || again.body.str("conversion_id") != first.body.str("conversion_id") {
		t.Errorf("the same order twice: %s then %s", first, again)
	}
	cs := call(t, "GET", api.URL()+"/v1/conversions", bearer(a.key)...)
	if l := listOf(cs.body, "data"); len(l) != 1 {
		t.Errorf("GET /v1/conversions after the same order twice: %s", cs)
	}
}

// TestWidgetCheckoutBrowser: a live reply whose model asks for a product in the cart and the
// checkout ([CART:777:1] [CHECKOUT]) makes the widget on a shop page call the shop's add-to-cart
// endpoint and then open its checkout (spec 4.9 rule 5), whether the reply comes at once or after
// the service's wait (202 pending: the widget finds it in the conversation).
func TestWidgetCheckoutBrowser(t *testing.T) {
	binaries(t)
	chromium := chromiumPath(t)
	for _, tc := range []struct{ name, wait, tags string }{{"at once", "40s", "#checkout"}, {"pending", "1s", "#checkout #slow"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newEmbedded(t)
			fake := newFakeModel(t)
			fake.slowDelay = 2 * time.Second
			api := s.startAPI(t, "SVC_MODEL_BASE_URL", fake.URL()+"/v1", "SVC_MODEL_API_KEY", "sk-fake-api", "SVC_MODEL_NAME", "fake-model", "SVC_CHAT_WAIT", tc.wait)
			a := s.newAccount(t, "--plan", "pro")
			configureAgent(t, api, a.key)
			shop := serveShop(t)
			r := call(t, "GET", api.URL()+"/v1/widget?framework=html", bearer(a.key)...)
			token := r.body.str("widget_token")
			if r.status != http.StatusOK || token == "" {
				t.Fatalf("GET /v1/widget: %s", r)
			}
			shop.setSnippet(`<script src="` + api.URL() + `/widget.js" data-token="` + token + `" data-platform="woocommerce" data-checkout="/checkout/" data-lang="en" async></script>`)

			ctx := browser(t, chromium)
			const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
			runJS(t, ctx, "a visitor opens the shop", chromedp.Navigate(shop.url+"/"))
			waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
			runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
			runJS(t, ctx, "ask to buy", chromedp.SendKeys(chromedp.JSPath(sr+`.querySelector("textarea")`), "I'll take the bike, let me pay "+tc.tags+"\r"))
			waitJS(t, ctx, "the reply adds to the cart, then opens the checkout", `location.pathname === "/checkout/" && !!document.querySelector("#checkout")`)
			if _, cart := shop.got(); len(cart) != 1 || cart[0] != "product_id=777&quantity=1" {
				t.Errorf("the shop's add-to-cart endpoint got %v, want product 777 once, before the checkout", cart)
			}
		})
	}
}

// TestPluginConnectLanguage: the owner the plugin sends to connect (with lang) signs in and
// approves in the plugin's language, not the browser's.
func TestPluginConnectLanguage(t *testing.T) {
	binaries(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	for _, tc := range []struct{ lang, want, heading string }{{"pt", "pt", "Entrar"}, {"pt-BR", "pt", "Entrar"}, {"es", "es", "Iniciar sesión"}} {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
		connect := api.URL() + "/cms/connect?" + url.Values{"site": {"https://shop.example"}, "return": {"https://shop.example/wp-admin/admin.php?page=svc"},
			"state": {"s1"}, "lang": {tc.lang}}.Encode()
		req, _ := http.NewRequest(http.MethodGet, connect, nil)
		req.Header.Set("Accept-Language", "en-US,en;q=0.9")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		page := string(b)
		if res.Request.URL.Path != "/app/login" || !strings.Contains(page, `<html lang="`+tc.want+`">`) || !strings.Contains(page, tc.heading) {
			t.Errorf("lang=%s: the connection's sign-in page %s is not in %s:\n%.600s", tc.lang, res.Request.URL, tc.want, page)
		}
	}
}

// TestPluginConnectRefusedLanguage: a connection request GET /cms/connect refuses gets its page
// (400, HTML, no redirect) in the plugin's language (lang), else the browser's (Accept-Language),
// naming the field of the spec at fault; nothing the request gave is linked.
func TestPluginConnectRefusedLanguage(t *testing.T) {
	binaries(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	plain := noRedirect(nil)
	for _, tc := range []struct {
		name, ret, lang, accept string
		want, field, says       string
	}{
		{"the plugin's pt-BR", "https://evil.example/wp-admin/", "pt-BR", "en-US,en;q=0.9", "pt", "return", "página de administração"},
		{"the plugin's es", "https://shop.example/checkout/", "es", "pt-PT", "es", "return", "página de administración"},
		{"the browser's Spanish", "https://shop.example/checkout/", "", "es-ES,es;q=0.9", "es", "return", "página de administración"},
		{"the browser's Portuguese, a language the widget lacks", "https://shop.example/wp-admin/", "fr", "pt-PT,pt;q=0.9", "pt", "lang", "língua"},
		{"English", "https://shop.example/checkout/", "", "de-DE", "en", "return", "admin page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{"site": {"https://shop.example"}, "return": {tc.ret}, "state": {"s1"}}
			if tc.lang != "" {
				q.Set("lang", tc.lang)
			}
			req, _ := http.NewRequest(http.MethodGet, api.URL()+"/cms/connect?"+q.Encode(), nil)
			req.Header.Set("Accept-Language", tc.accept)
			res, err := plain.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			page := string(b)
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
				!strings.Contains(page, `<html lang="`+tc.want+`">`) || !strings.Contains(page, tc.says) || !strings.Contains(page, "<code>"+tc.field+"</code>") ||
				strings.Contains(page, "evil.example") || strings.Contains(page, "?lang=") {
				t.Errorf("%d, Location %q: want 400 in %s naming %s:\n%s", res.StatusCode, res.Header.Get("Location"), tc.want, tc.field, page)
			}
			if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
		})
	}
}
