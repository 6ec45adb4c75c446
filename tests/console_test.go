package tests

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// ownerBrowser is an HTTP client with a cookie jar that does not follow redirects: a console visitor.
type ownerBrowser struct {
	t    testing.TB
	base string
	c    *http.Client
}

func newOwnerBrowser(t testing.TB, base string) *ownerBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &ownerBrowser{t: t, base: base, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type consolePage struct {
	status   int
	header   http.Header
	body     string
	location string
}

func (b *ownerBrowser) do(method, path string, form url.Values, headers ...string) consolePage {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return consolePage{status: res.StatusCode, header: res.Header, body: string(raw), location: res.Header.Get("Location")}
}

func (b *ownerBrowser) get(path string) consolePage { return b.do(http.MethodGet, path, nil) }

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// token reads the CSRF token of the form on path.
func (b *ownerBrowser) token(path string) string {
	b.t.Helper()
	p := b.get(path)
	m := csrfInput.FindStringSubmatch(p.body)
	if m == nil {
		b.t.Fatalf("GET %s: %d, no csrf_token field in\n%s", path, p.status, p.body)
	}
	return m[1]
}

// post submits form to path with the CSRF token of the form on from, which it names as a
// browser does (Referer).
func (b *ownerBrowser) post(from, path string, form url.Values) consolePage {
	b.t.Helper()
	form.Set("csrf_token", b.token(from))
	return b.do(http.MethodPost, path, form, "Referer", b.base+from)
}

// signIn signs in and fails the test unless it lands on the console.
func (b *ownerBrowser) signIn(email, password string) {
	b.t.Helper()
	p := b.post("/app/login", "/app/login", url.Values{"email": {email}, "password": {password}})
	if p.status != http.StatusSeeOther || p.location != "/app/" {
		b.t.Fatalf("sign in: %d %q\n%s", p.status, p.location, p.body)
	}
}

func (b *ownerBrowser) sessionCookie() *http.Cookie {
	u, _ := url.Parse(b.base)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "svc_owner" {
			return c
		}
	}
	return nil
}

// onStacks runs test in each of the stacks (the production one skips when Postgres or Redis does
// not answer, unless CI=true).
func onStacks(t *testing.T, test func(*testing.T, stack)) {
	for _, env := range stacks {
		t.Run(env.name, func(t *testing.T) { test(t, env.stack(t)) })
	}
}

// consoleOwner makes an account whose owner signs in with email and password.
func consoleOwner(t testing.TB, s stack, name, email, password string) account {
	t.Helper()
	a := s.newAccount(t, "--name", name, "--plan", "pro")
	out := ctl(t, s.env, "owner", "set-password", "--account", a.id, "--email", email, "--password", password)
	if out.str("account_id") != a.id {
		t.Fatalf("owner set-password: %s", out)
	}
	return a
}

// signedInOwner starts svc-api on s with an account whose owner is signed in to the console.
func signedInOwner(t *testing.T, s stack) (*proc, account, *ownerBrowser) {
	t.Helper()
	api := s.startAPI(t)
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	b := newOwnerBrowser(t, api.URL())
	b.signIn("lu@example.com", "correct horse battery")
	return api, a, b
}

func TestConsoleSignIn(t *testing.T) { onStacks(t, testConsoleSignIn) }

func testConsoleSignIn(t *testing.T, s stack) {
	api := s.startAPI(t)
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	b := newOwnerBrowser(t, api.URL())

	// Signed out: the console sends to the sign-in consolePage, keeping where it was going.
	p := b.get("/app/keys?x=1")
	if p.status != http.StatusSeeOther || p.location != "/app/login?next=%2Fapp%2Fkeys%3Fx%3D1" {
		t.Fatalf("signed out GET /app/keys: %d %q", p.status, p.location)
	}
	p = b.get("/app/login")
	if p.status != http.StatusOK || !strings.Contains(p.body, `name="password"`) {
		t.Fatalf("GET /app/login: %d\n%s", p.status, p.body)
	}
	// Every consolePage carries a CSP without inline scripts.
	for _, path := range []string{"/app/login", "/app/nothing"} {
		csp := b.get(path).header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("GET %s: Content-Security-Policy %q", path, csp)
		}
	}

	// The assets: the files of static/ only, never a listing or the templates beside them.
	if p := b.get("/app/static/console.css"); p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /app/static/console.css: %d %q", p.status, p.header.Get("Content-Type"))
	}
	for _, path := range []string{"/app/static/", "/app/static/../templates/layout.html", "/app/static/%2e%2e/templates/login.html"} {
		if p := b.get(path); p.status != http.StatusNotFound || strings.Contains(p.body, "{{") || strings.Contains(p.body, "console.js</a>") {
			t.Errorf("GET %s: %d, want 404 and no listing or template:\n%.300s", path, p.status, p.body)
		}
	}

	// A wrong password shows the form again.
	p = b.post("/app/login", "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"wrong password!"}})
	if p.status != http.StatusUnauthorized || !strings.Contains(p.body, `role="alert"`) || b.sessionCookie() != nil {
		t.Fatalf("wrong password: %d cookie %v", p.status, b.sessionCookie())
	}

	// The right one: a session cookie, HttpOnly, SameSite=Lax (not Secure in dev), and next is kept.
	p = b.post("/app/login", "/app/login", url.Values{"email": {"LU@example.com"}, "password": {"correct horse battery"}, "next": {"/app/keys?x=1"}})
	if p.status != http.StatusSeeOther || p.location != "/app/keys?x=1" {
		t.Fatalf("sign in: %d %q", p.status, p.location)
	}
	set := p.header.Values("Set-Cookie")
	var cookie string
	for _, c := range set {
		if strings.HasPrefix(c, "svc_owner=") {
			cookie = c
		}
	}
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || strings.Contains(cookie, "Secure") {
		t.Errorf("session cookie %q: want HttpOnly, SameSite=Lax, not Secure in dev", cookie)
	}
	first := b.sessionCookie().Value
	p = b.get("/app/")
	if p.status != http.StatusOK || !strings.Contains(p.body, "Padaria Lu") {
		t.Fatalf("GET /app/ signed in: %d\n%s", p.status, p.body)
	}
	if csp := p.header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "script-src") {
		t.Errorf("GET /app/: CSP %q", csp)
	}

	// An open redirect is refused: next must be a path of this site.
	b.signIn("lu@example.com", "correct horse battery")
	p = b.post("/app/login", "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}, "next": {"//evil.example/"}})
	if p.location != "/app/" {
		t.Errorf("next=//evil.example/: redirected to %q", p.location)
	}

	// The session rotates at sign-in: the first cookie no longer opens the console.
	old := newOwnerBrowser(t, api.URL())
	u, _ := url.Parse(api.URL())
	old.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_owner", Value: first, Path: "/"}})
	if p := old.get("/app/"); p.status != http.StatusSeeOther {
		t.Errorf("the cookie from before the new sign-in: %d, want a redirect to sign in", p.status)
	}

	// Sign-out ends the session on the server: the same cookie replayed is refused.
	current := b.sessionCookie().Value
	p = b.post("/app/", "/app/logout", url.Values{})
	if p.status != http.StatusSeeOther || p.location != "/app/login" {
		t.Fatalf("sign out: %d %q", p.status, p.location)
	}
	replay := newOwnerBrowser(t, api.URL())
	replay.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_owner", Value: current, Path: "/"}})
	if p := replay.get("/app/"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/app/login") {
		t.Errorf("the signed-out cookie replayed: %d %q", p.status, p.location)
	}

	// A password change ends every session.
	b.signIn("lu@example.com", "correct horse battery")
	ctl(t, s.env, "owner", "set-password", "--account", a.id, "--email", "lu@example.com", "--password", "a new good password")
	if p := b.get("/app/"); p.status != http.StatusSeeOther {
		t.Errorf("after the password change: %d, want a redirect to sign in", p.status)
	}
}

func TestConsoleCSRF(t *testing.T) { onStacks(t, testConsoleCSRF) }

func testConsoleCSRF(t *testing.T, s stack) {
	api := s.startAPI(t)
	consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	b := newOwnerBrowser(t, api.URL())
	b.token("/app/login") // the CSRF cookie

	// Without the token, with a wrong one, or from another origin: 403, and nothing signs in.
	for _, tt := range []struct {
		name    string
		form    url.Values
		headers []string
	}{
		{"no token", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}}, nil},
		{"wrong token", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}, "csrf_token": {"AAAA" + strings.Repeat("B", 84)}}, nil},
		{"other origin", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}, "csrf_token": {b.token("/app/login")}},
			[]string{"Origin", "https://evil.example"}},
	} {
		p := b.do(http.MethodPost, "/app/login", tt.form, tt.headers...)
		if p.status != http.StatusForbidden || b.sessionCookie() != nil {
			t.Errorf("%s: %d, cookie %v; want 403 and no session", tt.name, p.status, b.sessionCookie())
		}
	}
	// Signed in, sign-out without the token is refused and the session lives on.
	b.signIn("lu@example.com", "correct horse battery")
	if p := b.do(http.MethodPost, "/app/logout", url.Values{}); p.status != http.StatusForbidden {
		t.Errorf("sign-out without a token: %d, want 403", p.status)
	}
	if p := b.get("/app/"); p.status != http.StatusOK {
		t.Errorf("after the refused sign-out: %d, want the console", p.status)
	}
}

func TestConsoleThrottle(t *testing.T) { onStacks(t, testConsoleThrottle) }

func testConsoleThrottle(t *testing.T, s stack) {
	api := s.startAPI(t)
	consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	consoleOwner(t, s, "Beta Shoes", "bea@example.com", "another horse battery")
	b := newOwnerBrowser(t, api.URL())
	for i := range 10 {
		p := b.post("/app/login", "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"wrong password!"}})
		if p.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d", i+1, p.status)
		}
	}
	// The eleventh attempt is throttled, even with the right password.
	p := b.post("/app/login", "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}})
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") == "" || b.sessionCookie() != nil {
		t.Fatalf("after 10 wrong passwords: %d Retry-After %q cookie %v", p.status, p.header.Get("Retry-After"), b.sessionCookie())
	}
	// Per address: another account from this address is throttled too (the per-account limit,
	// from other addresses, is app/owners' TestSignInThrottled).
	p = b.post("/app/login", "/app/login", url.Values{"email": {"bea@example.com"}, "password": {"another horse battery"}})
	if p.status != http.StatusTooManyRequests {
		t.Errorf("another account from the throttled address: %d, want 429", p.status)
	}
}

// consoleRoutes are the console's owner routes (every one needs a signed-in owner), with the
// ids of another account's things filled in by TestConsoleIsolation.
var consoleRoutes = []struct{ method, path string }{
	{"GET", "/app/"},
	{"POST", "/app/channels"},
	{"GET", "/app/agent"},
	{"POST", "/app/agent/profile"},
	{"POST", "/app/agent/appearance"},
	{"GET", "/app/keys"},
	{"POST", "/app/keys"},
	{"POST", "/app/keys/{key}/revoke"},
	{"POST", "/app/keys/{key}/send-without-approval"},
	{"GET", "/app/widget"},
	{"POST", "/app/widget/style"},
	{"POST", "/app/widget/domains"},
	{"GET", "/app/brain"},
	{"POST", "/app/brain/faq"},
	{"POST", "/app/brain/faq/{faq}/remove"},
	{"POST", "/app/brain/try"},
	{"POST", "/app/brain/pages"},
	{"POST", "/app/brain/pages/{page}/remove"},
	{"POST", "/app/brain/crawl"},
	{"POST", "/app/brain/crawl/progress"},
	{"GET", "/app/approvals"},
	{"POST", "/app/approvals/{approval}/approve"},
	{"POST", "/app/approvals/{approval}/refuse"},
	{"GET", "/app/conversations"},
	{"GET", "/app/conversations/{conversation}"},
	{"GET", "/app/webhooks"},
	{"POST", "/app/webhooks"},
	{"GET", "/app/webhooks/{webhook}"},
	{"POST", "/app/webhooks/{webhook}/test"},
	{"POST", "/app/webhooks/{webhook}/reactivate"},
	{"POST", "/app/webhooks/{webhook}/deliveries/{event}/redeliver"},
	{"GET", "/app/conversions"},
	{"GET", "/app/notifications"},
	{"POST", "/app/notifications/push"},
	{"POST", "/app/notifications/push/{push}/remove"},
	{"GET", "/app/connections"},
	{"POST", "/app/connections/{connection}/disconnect"},
}

// TestConsoleIsolation: signed out, every owner route sends to sign in; signed in as account A,
// nothing of account B can be read or changed through the console.
func TestConsoleIsolation(t *testing.T) { onStacks(t, testConsoleIsolation) }

func testConsoleIsolation(t *testing.T, s stack) {
	api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
	consoleOwner(t, s, "Alpha Bakery", "alpha@example.com", "correct horse battery")
	b := consoleOwner(t, s, "Beta Shoes", "beta@example.com", "another horse battery")
	configureAgent(t, api, b.key)
	mustOK := func(r response, what string) obj {
		t.Helper()
		if r.status != http.StatusOK && r.status != http.StatusCreated {
			t.Fatalf("%s: %s", what, r)
		}
		return r.body
	}
	mustOK(callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": []map[string]string{
		{"question": "beta-secret-question?", "answer": "beta-secret-answer"}}}, bearer(b.key)...), "POST /v1/knowledge/faq")
	mustOK(callJSON(t, "PUT", api.URL()+"/v1/knowledge/pages", map[string]any{"pages": []map[string]string{
		{"title": "beta-secret-page", "content": "beta-secret-page-text"}}}, bearer(b.key)...), "PUT /v1/knowledge/pages")
	if r := postChat(t, api, b.key, map[string]any{"message": "beta-secret-message", "conversation_id": "beta-conv", "customer_name": "Beta Customer"}); r.status != http.StatusOK {
		t.Fatalf("POST /v1/chat: %s", r)
	}
	hook := mustOK(callJSON(t, "POST", api.URL()+"/v1/webhooks", map[string]any{"url": "https://hooks.beta.example/x", "events": []string{"*"}}, bearer(b.key)...), "POST /v1/webhooks")
	betaFAQ := listOf(mustOK(call(t, "GET", api.URL()+"/v1/knowledge", bearer(b.key)...), "GET /v1/knowledge"), "faq")
	if len(betaFAQ) != 1 {
		t.Fatalf("B's FAQ: %v", betaFAQ)
	}
	betaPages := listOf(mustOK(call(t, "GET", api.URL()+"/v1/knowledge", bearer(b.key)...), "GET /v1/knowledge"), "pages")
	if len(betaPages) != 1 {
		t.Fatalf("B's pages: %v", betaPages)
	}
	// B's owner has a browser alerted by Web Push.
	beta := newOwnerBrowser(t, api.URL())
	beta.signIn("beta@example.com", "another horse battery")
	if p := beta.post("/app/notifications", "/app/notifications/push", newPushBrowser(t).form("http://127.0.0.1:9/beta-push")); p.status != http.StatusSeeOther {
		t.Fatalf("B subscribes a browser: %d\n%s", p.status, p.body)
	}
	betaPush := pushRowID.FindStringSubmatch(beta.get("/app/notifications").body)
	if betaPush == nil {
		t.Fatal("B's notifications page lists no device")
	}
	// B's shop is connected through the site plugin.
	const betaShop = "https://beta-shop.example"
	back, err := url.Parse(approveHTTP(t, api, "beta@example.com", "another horse battery", api.URL()+"/cms/connect?"+
		url.Values{"site": {betaShop}, "return": {betaShop + "/wp-admin/admin.php?page=svc"}, "state": {"s1"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	mustOK(callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": back.Query().Get("svc_code"), "site": betaShop}), "POST /cms/exchange")
	betaSite := regexp.MustCompile(`action="/app/connections/([^/"]+)/disconnect"`).FindStringSubmatch(beta.get("/app/connections").body)
	if betaSite == nil {
		t.Fatal("B's connected sites page lists no site")
	}
	// B's assistant left a change waiting for approval.
	betaApproval, _ := ask(t, api, b.key, map[string]any{"message": "change the tone to formal", "mode": "do"}, http.StatusOK)
	if betaApproval.Approval == nil {
		t.Fatalf("B's do: %+v, want an approval", betaApproval)
	}
	ids := strings.NewReplacer("{approval}", betaApproval.Approval.ID, "{connection}", betaSite[1], "{key}", b.keyID, "{conversation}", "beta-conv", "{webhook}", hook.str("id"), "{event}", "evt_none",
		"{faq}", fmt.Sprint(betaFAQ[0]["id"]), "{push}", betaPush[1], "{page}", fmt.Sprint(betaPages[0]["id"]))

	// Signed out: every owner route sends to the sign-in page (a POST with a valid CSRF token).
	anon := newOwnerBrowser(t, api.URL())
	tok := anon.token("/app/login")
	for _, r := range consoleRoutes {
		var form url.Values
		if r.method == "POST" {
			form = url.Values{"csrf_token": {tok}}
		}
		p := anon.do(r.method, ids.Replace(r.path), form)
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/app/login") {
			t.Errorf("signed out %s %s: %d %q, want a redirect to sign in", r.method, r.path, p.status, p.location)
		}
	}

	// Signed in as A: B's things are not found, and nothing of B changes.
	a := newOwnerBrowser(t, api.URL())
	a.signIn("alpha@example.com", "correct horse battery")
	for _, r := range consoleRoutes {
		if !strings.Contains(r.path, "{") {
			continue
		}
		path := ids.Replace(r.path)
		var p consolePage
		if r.method == "POST" {
			p = a.post("/app/", path, url.Values{"on": {"true"}, "confirm": {"yes"}})
		} else {
			p = a.get(path)
		}
		if p.status != http.StatusNotFound {
			t.Errorf("A: %s %s: %d, want 404", r.method, path, p.status)
		}
	}
	if p := a.get("/app/approvals"); strings.Contains(p.body, betaApproval.Approval.ID) {
		t.Errorf("A: GET /app/approvals shows B's approval")
	}
	if r := callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"approve": betaApproval.Approval.ID}, bearer(b.key)...); r.status != http.StatusOK {
		t.Errorf("B's approval after A's tries: %s", r)
	}
	for _, path := range []string{"/app/keys", "/app/brain", "/app/conversations", "/app/webhooks", "/app/", "/app/agent", "/app/notifications", "/app/connections"} {
		p := a.get(path)
		for _, secret := range []string{b.keyID, "beta-secret", "Beta Customer", "hooks.beta.example", "Beta Shoes", chatBusiness, chatEmail, "beta-push", betaPush[1],
			"beta-shop", betaSite[1]} {
			if strings.Contains(p.body, secret) {
				t.Errorf("A: GET %s shows B's %q", path, secret)
			}
		}
	}
	// A's agent forms change A's agent only.
	betaAgent := mustOK(call(t, "GET", api.URL()+"/v1/agent", bearer(b.key)...), "GET /v1/agent").String()
	a.post("/app/agent", "/app/agent/profile", url.Values{"business_name": {"Alpha Agent"}, "languages": {"en"}, "email": {"a@alpha.example"}})
	a.post("/app/agent", "/app/agent/appearance", url.Values{"name": {"Alpha Bot"}, "greeting-en": {"Alpha hello"}})
	if got := mustOK(call(t, "GET", api.URL()+"/v1/agent", bearer(b.key)...), "GET /v1/agent").String(); got != betaAgent {
		t.Errorf("B's agent after A's forms:\n%s\n%s", betaAgent, got)
	}
	if p := a.get("/app/agent"); !strings.Contains(p.body, `value="Alpha Agent"`) || !strings.Contains(p.body, `value="Alpha hello"`) {
		t.Errorf("A's agent page after A's forms:\n%s", p.body)
	}
	if r := call(t, "GET", api.URL()+"/v1/account", bearer(b.key)...); r.status != http.StatusOK {
		t.Errorf("B's key after A's tries: %s", r)
	}
	// A's subscribing a browser of the same endpoint makes A's own subscription, B's stays.
	if p := a.post("/app/notifications", "/app/notifications/push", newPushBrowser(t).form("http://127.0.0.1:9/beta-push")); p.status != http.StatusSeeOther {
		t.Errorf("A subscribes a browser: %d", p.status)
	}
	if rows := pushRowID.FindAllStringSubmatch(beta.get("/app/notifications").body, -1); len(rows) != 1 || rows[0][1] != betaPush[1] {
		t.Errorf("B's devices after A's tries: %v, want %s only", rows, betaPush[1])
	}
	if swaOf(t, s, b.id, b.keyID) {
		t.Error("A turned on Send without approval on B's key")
	}
	if !strings.Contains(beta.get("/app/connections").body, betaSite[1]) {
		t.Error("A disconnected B's shop")
	}
	if faq := listOf(mustOK(call(t, "GET", api.URL()+"/v1/knowledge", bearer(b.key)...), "GET /v1/knowledge"), "faq"); len(faq) != 1 {
		t.Errorf("B's FAQ after A's tries: %v", faq)
	}
	if pages := listOf(mustOK(call(t, "GET", api.URL()+"/v1/knowledge", bearer(b.key)...), "GET /v1/knowledge"), "pages"); len(pages) != 1 {
		t.Errorf("B's pages after A's tries: %v", pages)
	}
	// A's session cookie does not open B's console: the console shows A's account only.
	if p := a.get("/app/"); !strings.Contains(p.body, "Alpha Bakery") {
		t.Errorf("A's overview: %d", p.status)
	}
}

func swaOf(t *testing.T, s stack, accountID, keyID string) bool {
	t.Helper()
	for _, k := range listOf(ctl(t, s.env, "key", "list", "--account", accountID), "data") {
		if k["id"] == keyID {
			return k["send_without_approval"] == true
		}
	}
	t.Fatalf("no key %s", keyID)
	return false
}

// TestConsoleCrawlProgress checks the crawl's event stream without a browser: a start without the
// CSRF token or from another origin is refused (403, the site never asked), a bad address is one
// failed event, and a crawl of a site on loopback is one page event per page read, in order, then
// done, with the pages stored. Removing an FAQ item without the token is refused too.
func TestConsoleCrawlProgress(t *testing.T) {
	s := newEmbedded(t)
	api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	b := newOwnerBrowser(t, api.URL())
	b.signIn("lu@example.com", "correct horse battery")
	site := newSiteFixture(t)
	start := site.URL() + "/docs/"

	for _, tt := range []struct {
		name    string
		form    url.Values
		headers []string
	}{
		{"no token", url.Values{"url": {start}}, nil},
		{"other origin", url.Values{"url": {start}, "csrf_token": {b.token("/app/brain")}}, []string{"Origin", "https://evil.example"}},
	} {
		if p := b.do(http.MethodPost, "/app/brain/crawl/progress", tt.form, tt.headers...); p.status != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tt.name, p.status)
		}
	}
	if n := site.total(); n != 0 {
		t.Errorf("refused starts asked the site %d times", n)
	}

	events := func(p consolePage) (names []string, data []obj) {
		t.Helper()
		if p.status != http.StatusOK || !strings.HasPrefix(p.header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("progress: %d %q %.300q", p.status, p.header.Get("Content-Type"), p.body)
		}
		for _, block := range strings.Split(strings.TrimSpace(p.body), "\n\n") {
			var name, raw string
			for _, line := range strings.Split(block, "\n") {
				if v, ok := strings.CutPrefix(line, "event: "); ok {
					name = v
				} else if v, ok := strings.CutPrefix(line, "data: "); ok {
					raw = v
				}
			}
			if name == "" {
				continue
			}
			var d obj
			if err := json.Unmarshal([]byte(raw), &d); err != nil {
				t.Fatalf("event %s data %q: %v", name, raw, err)
			}
			names, data = append(names, name), append(data, d)
		}
		return names, data
	}

	names, data := events(b.post("/app/brain", "/app/brain/crawl/progress", url.Values{"url": {"not an address"}}))
	if len(names) != 1 || names[0] != "failed" || !strings.Contains(data[0].str("text"), "url must be an absolute http(s) URL") || data[0].str("field") != "url" {
		t.Errorf("a bad address: %v %v, want one failed event with its reason and its field", names, data)
	}
	// With script (the crawl's progress), the reason is in the console's language, as the form
	// without script gives it.
	names, data = events(b.post("/app/brain", "/app/brain/crawl/progress?lang=pt", url.Values{"url": {"not an address"}}))
	if len(names) != 1 || names[0] != "failed" || !strings.Contains(data[0].str("text"), "Dê um endereço completo (http:// ou https://).") || data[0].str("field") != "url" {
		t.Errorf("a bad address in Portuguese: %v %v, want one failed event with its reason in Portuguese and its field", names, data)
	}

	// A site that cannot be read: the console says so in its language, then the crawler's reason.
	names, data = events(b.post("/app/brain", "/app/brain/crawl/progress?lang=pt", url.Values{"url": {site.URL() + "/nothing-here/"}}))
	if len(names) != 1 || names[0] != "failed" || !strings.HasPrefix(data[0].str("text"), "Não foi possível ler o site. Nada foi guardado.") ||
		!strings.Contains(data[0].str("text"), "404") {
		t.Errorf("a crawl that fails, in Portuguese: %v %v, want one failed event saying so in Portuguese, with the reason", names, data)
	}
	if p := b.post("/app/brain", "/app/brain/crawl?lang=pt", url.Values{"url": {site.URL() + "/nothing-here/"}}); !strings.Contains(p.body, "Não foi possível ler o site. Nada foi guardado.") ||
		!strings.Contains(p.body, "404") {
		t.Errorf("a crawl that fails, in Portuguese, without script: %d %.2000s", p.status, p.body)
	}

	names, data = events(b.post("/app/brain", "/app/brain/crawl/progress", url.Values{"url": {start}}))
	if len(names) != len(siteInScope)+1 || names[len(names)-1] != "done" {
		t.Fatalf("events %v, want %d pages then done", names, len(siteInScope))
	}
	for i, name := range names[:len(names)-1] {
		if n, _ := data[i].num("read"); name != "page" || int(n) != i+1 || !strings.HasPrefix(data[i].str("url"), site.URL()+"/docs/") {
			t.Errorf("event %d: %s %v, want page %d of the site", i, name, data[i], i+1)
		}
	}
	if n, _ := data[len(data)-1].num("pages"); int(n) != len(siteInScope) {
		t.Errorf("done: %v, want %d pages", data[len(data)-1], len(siteInScope))
	}
	kn := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
	if n, _ := kn.body.num("counts.pages"); int(n) != len(siteInScope) {
		t.Errorf("pages stored after the crawl: %v, want %d", n, len(siteInScope))
	}

	// Removing an FAQ item needs the token too.
	if r := callJSON(t, "POST", api.URL()+"/v1/knowledge/faq", map[string]any{"items": []map[string]string{{"question": "Parking?", "answer": "No."}}}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("POST /v1/knowledge/faq: %s", r)
	}
	faq := listOf(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...).body, "faq")
	if len(faq) != 1 {
		t.Fatalf("faq %v", faq)
	}
	if p := b.do(http.MethodPost, fmt.Sprintf("/app/brain/faq/%v/remove", faq[0]["id"]), url.Values{}); p.status != http.StatusForbidden {
		t.Errorf("remove without a token: %d, want 403", p.status)
	}
	if p := b.post("/app/brain", fmt.Sprintf("/app/brain/faq/%v/remove", faq[0]["id"]), url.Values{}); p.status != http.StatusSeeOther {
		t.Errorf("remove: %d, want 303", p.status)
	}
	if faq := listOf(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...).body, "faq"); len(faq) != 0 {
		t.Errorf("faq after the removal: %v", faq)
	}
}

// TestConsoleWebhookForm: the console's webhook form checks its fields at the edge (a refusal
// shows the form again with the field marked, never a 500) and shows the signing secret in its answer only.
func TestConsoleWebhookForm(t *testing.T) { onStacks(t, testConsoleWebhookForm) }

func testConsoleWebhookForm(t *testing.T, s stack) {
	api, a, b := signedInOwner(t, s)
	for _, tt := range []struct {
		name, field string
		form        url.Values
	}{
		{"NUL in the URL", "url", url.Values{"url": {"https://hooks.shop.example/\x00x"}, "events": {"*"}}},
		{"invalid UTF-8", "url", url.Values{"url": {"https://hooks.shop.example/\xff"}, "events": {"*"}}},
		{"URL too long", "url", url.Values{"url": {"https://hooks.shop.example/" + strings.Repeat("a", 3000)}, "events": {"*"}}},
		{"http", "url", url.Values{"url": {"http://hooks.shop.example/x"}, "events": {"*"}}},
		{"no event", "events", url.Values{"url": {"https://hooks.shop.example/x"}}},
		{"unknown event", "events", url.Values{"url": {"https://hooks.shop.example/x"}, "events": {"order.\x00paid"}}},
		{"* and another", "events", url.Values{"url": {"https://hooks.shop.example/x"}, "events": {"*", "message.replied"}}},
	} {
		p := b.post("/app/webhooks", "/app/webhooks", tt.form)
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `aria-describedby="webhook-`+tt.field+`-error"`) {
			t.Errorf("%s: %d, want 400 and the form with %s marked\n%s", tt.name, p.status, tt.field, p.body)
		}
	}
	if r := call(t, "GET", api.URL()+"/v1/webhooks", bearer(a.key)...); len(listOf(r.body, "data")) != 0 {
		t.Fatalf("webhooks after refused forms: %s", r)
	}
	p := b.post("/app/webhooks", "/app/webhooks", url.Values{"url": {"https://hooks.shop.example/x"}, "events": {"message.replied", "knowledge.updated"}})
	secret := regexp.MustCompile(`whsec_[A-Za-z0-9_-]+`).FindString(p.body)
	if p.status != http.StatusCreated || secret == "" {
		t.Fatalf("add a webhook: %d\n%s", p.status, p.body)
	}
	hooks := listOf(call(t, "GET", api.URL()+"/v1/webhooks", bearer(a.key)...).body, "data")
	if len(hooks) != 1 || hooks[0]["url"] != "https://hooks.shop.example/x" || fmt.Sprint(hooks[0]["events"]) != "[message.replied knowledge.updated]" {
		t.Errorf("the webhook added in the console: %v", hooks)
	}
	if p := b.get("/app/webhooks"); p.status != http.StatusOK || strings.Contains(p.body, secret) || !strings.Contains(p.body, "hooks.shop.example/x") {
		t.Errorf("the webhooks page again: %d, shows the secret or not the webhook", p.status)
	}
}

// TestConsoleAgent: a new owner sets up the agent in the console (the overview sends there), the
// profile and appearance forms change what GET /v1/agent shows (the same use cases as PATCH
// /v1/agent and PATCH /v1/agent/appearance), the chat answers once the business has a name, and
// a refused form names its field and changes nothing.
func TestConsoleAgent(t *testing.T) { onStacks(t, testConsoleAgent) }

func testConsoleAgent(t *testing.T, s stack) {
	api, a, b := signedInOwner(t, s)
	agent := func() obj {
		t.Helper()
		r := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...)
		if r.status != http.StatusOK {
			t.Fatalf("GET /v1/agent: %s", r)
		}
		return r.body
	}
	chat := map[string]any{"message": "When do you open?", "conversation_id": "c1"}
	if r := postChat(t, api, a.key, chat); r.status != http.StatusConflict || r.body.str("error.code") != "agent_not_configured" {
		t.Fatalf("chat before the set-up: %s, want 409 agent_not_configured", r)
	}
	if p := b.get("/app/"); !strings.Contains(p.body, `id="agent-setup" href="/app/agent"`) {
		t.Errorf("the overview of an agent not set up has no call to set it up:\n%s", p.body)
	}
	if p := b.get("/app/agent"); p.status != http.StatusOK || !strings.Contains(p.body, `href="/app/agent" aria-current="page"`) ||
		!strings.Contains(p.body, `id="business_name" name="business_name" value=""`) {
		t.Fatalf("GET /app/agent: %d\n%s", p.status, p.body)
	}
	// A greeting in a language the form does not show is kept by the appearance form.
	if r := callJSON(t, "PATCH", api.URL()+"/v1/agent/appearance", map[string]any{"greeting": map[string]any{"fr": "Bonjour"}}, bearer(a.key)...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/agent/appearance: %s", r)
	}

	p := b.post("/app/agent", "/app/agent/profile", url.Values{"business_name": {" Padaria Lu "}, "languages": {"pt-br, en"},
		"tone": {"warm and concise"}, "description": {"Bakery.\r\nSince 1962."}, "instructions": {"Offer the daily bread."},
		"email": {"lu@padaria.example"}, "phone": {"+351 900 000 000"}, "address": {"Rua Augusta 1, Lisboa"},
		"hours": {"Mon–Sat 7–19"}})
	if p.status != http.StatusSeeOther || p.location != "/app/agent?saved=profile" {
		t.Fatalf("POST /app/agent/profile: %d %q\n%s", p.status, p.location, p.body)
	}
	got := agent()
	for path, want := range map[string]string{"business_name": "Padaria Lu", "tone": "warm and concise", "description": "Bakery.\nSince 1962.",
		"instructions": "Offer the daily bread.", "contact.email": "lu@padaria.example", "contact.phone": "+351 900 000 000",
		"contact.address": "Rua Augusta 1, Lisboa", "contact.hours": "Mon–Sat 7–19"} {
		if got.str(path) != want {
			t.Errorf("GET /v1/agent %s = %q, want %q", path, got.str(path), want)
		}
	}
	if langs, _ := got.get("languages"); fmt.Sprint(langs) != "[pt-BR en]" || got["configured"] != true {
		t.Errorf("GET /v1/agent after the form: %s", got)
	}
	p = b.get("/app/agent?saved=profile")
	for _, want := range []string{`id="saved"`, `value="Padaria Lu"`, `value="pt-BR, en"`, `value="warm and concise"`, `Bakery.
Since 1962.</textarea>`, `name="greeting-pt-br"`, `name="suggestions-en"`, `value="lu@padaria.example"`,
		`Language: Português (Brasil), pt-BR</legend>`, `Language: English, en</legend>`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("GET /app/agent after the change lacks %q", want)
		}
	}
	if strings.Contains(p.body, `name="greeting-fr"`) {
		t.Error("the appearance form shows a language the agent does not speak")
	}

	p = b.post("/app/agent", "/app/agent/appearance", url.Values{"name": {"Lu"}, "avatar_url": {"https://padaria.example/lu.png"},
		"greeting-pt-br": {"Olá! Em que posso ajudar?"}, "greeting-en": {"Hi!"},
		"suggestions-pt-br": {"Que horas abrem?\r\n\r\n Fazem entregas? \r\n"}, "suggestions-en": {""}})
	if p.status != http.StatusSeeOther || p.location != "/app/agent?saved=appearance" {
		t.Fatalf("POST /app/agent/appearance: %d %q\n%s", p.status, p.location, p.body)
	}
	got = agent()
	greeting, _ := got.get("appearance.greeting")
	suggestions, _ := got.get("appearance.suggestions")
	if got.str("appearance.name") != "Lu" || got.str("appearance.avatar_url") != "https://padaria.example/lu.png" ||
		fmt.Sprint(greeting) != "map[en:Hi! fr:Bonjour pt-BR:Olá! Em que posso ajudar?]" ||
		fmt.Sprint(suggestions) != "map[pt-BR:[Que horas abrem? Fazem entregas?]]" {
		t.Errorf("GET /v1/agent after the appearance form: %s", got)
	}
	if p := b.get("/app/agent"); !strings.Contains(p.body, "Que horas abrem?\nFazem entregas?</textarea>") || !strings.Contains(p.body, `value="Hi!"`) {
		t.Errorf("GET /app/agent does not show the appearance saved:\n%s", p.body)
	}
	if r := postChat(t, api, a.key, chat); r.status != http.StatusOK {
		t.Errorf("chat after the set-up: %s, want 200", r)
	}
	if p := b.get("/app/"); strings.Contains(p.body, `id="agent-setup"`) || !strings.Contains(p.body, "Padaria Lu · ") {
		t.Errorf("the overview of the agent set up:\n%s", p.body)
	}

	// Refused: the field named, nothing changed.
	before := agent().String()
	for _, tt := range []struct {
		name, path, field string
		form              url.Values
	}{
		{"no business name", "/app/agent/profile", "business_name", url.Values{"business_name": {"  "}, "tone": {"Other"}}},
		{"a bad e-mail", "/app/agent/profile", "email", url.Values{"business_name": {"Other"}, "email": {"lu at padaria"}}},
		{"a NUL in the phone", "/app/agent/profile", "phone", url.Values{"business_name": {"Other"}, "phone": {"1\x002"}}},
		{"a tone of two lines", "/app/agent/profile", "tone", url.Values{"business_name": {"Other"}, "tone": {"warm\nformal"}}},
		{"no language", "/app/agent/profile", "languages", url.Values{"business_name": {"Other"}, "languages": {" , "}}},
		{"a bad language", "/app/agent/profile", "languages", url.Values{"business_name": {"Other"}, "languages": {"en, english!"}}},
		{"a NUL", "/app/agent/profile", "description", url.Values{"business_name": {"Other"}, "description": {"a\x00b"}}},
		{"a bad avatar", "/app/agent/appearance", "avatar_url", url.Values{"name": {"Other"}, "avatar_url": {"ftp://padaria.example/lu.png"}}},
		{"seven suggestions", "/app/agent/appearance", "suggestions-en", url.Values{"name": {"Other"}, "suggestions-en": {"1\n2\n3\n4\n5\n6\n7"}}},
		{"a long greeting", "/app/agent/appearance", "greeting-pt-br", url.Values{"name": {"Other"}, "greeting-pt-br": {strings.Repeat("a", 501)}}},
	} {
		p := b.post("/app/agent", tt.path, tt.form)
		form := strings.TrimPrefix(tt.path, "/app/agent/")
		if p.status != http.StatusBadRequest || !strings.Contains(p.body, `aria-describedby="`+form+`-`+tt.field+`-error"`) ||
			!strings.Contains(p.body, `id="`+form+`-`+tt.field+`-error" role="alert"`) || !strings.Contains(p.body, `value="Other"`) {
			t.Errorf("%s: %d, want 400 and the form again with %s marked and the values typed\n%s", tt.name, p.status, tt.field, p.body)
		}
	}
	if after := agent().String(); after != before {
		t.Errorf("refused forms changed the agent:\n%s\n%s", before, after)
	}
}

func TestConsoleExpiredForm(t *testing.T) { onStacks(t, testConsoleExpiredForm) }

// testConsoleExpiredForm: the CSRF cookie lasts as long as the sign-in session, and a new one
// comes with each sign-in; a form of the console whose token no longer holds (the cookie cleared,
// a sign-in or sign-out in another tab) is not lost: the owner gets a page that says the form had
// expired, keeps what was typed, and sends it again with a fresh token. A request from elsewhere
// gets the plain refusal.
func testConsoleExpiredForm(t *testing.T, s stack) {
	api := s.startAPI(t)
	consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	b := newOwnerBrowser(t, api.URL())
	site := []string{"Origin", api.URL()}
	u, _ := url.Parse(api.URL())
	dropCSRF := func() { b.c.Jar.SetCookies(u, []*http.Cookie{{Name: "svc_csrf", Value: "", Path: "/", MaxAge: -1}}) }

	// The sign-in page, left open until its token no longer holds: shown again with the e-mail.
	stale := b.token("/app/login")
	dropCSRF()
	p := b.do(http.MethodPost, "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"correct horse battery"}, "csrf_token": {stale}}, site...)
	if p.status != http.StatusForbidden || !strings.Contains(p.body, `value="lu@example.com"`) || !strings.Contains(p.body, "The sign-in page had expired") ||
		strings.Contains(p.body, "correct horse battery") || !csrfInput.MatchString(p.body) || b.sessionCookie() != nil {
		t.Errorf("an expired sign-in: %d, want 403 with the sign-in form again, the e-mail kept, no session\n%s", p.status, p.body)
	}

	// Signing in gives a new CSRF cookie, as long-lived as the session (7 days).
	before := b.token("/app/login")
	b.signIn("lu@example.com", "correct horse battery")
	home := b.get("/app/")
	var cookie *http.Cookie
	for _, c := range (&http.Response{Header: home.header}).Cookies() {
		if c.Name == "svc_csrf" {
			cookie = c
		}
	}
	if cookie == nil || cookie.MaxAge != 7*24*3600 {
		t.Errorf("the CSRF cookie after sign-in: %v, want a new one with Max-Age 604800 (the session's 7 days)", cookie)
	}
	// A form of a tab opened before the sign-in: its token no longer holds, what it carried is
	// kept and sent again with a fresh token, and it is saved.
	form := url.Values{"question": {"Do you bake <b>rye</b> on Sundays?"}, "answer": {"Yes, from 8 \"o'clock\"."}, "csrf_token": {before}}
	p = b.do(http.MethodPost, "/app/brain/faq", form, append(site, "Referer", api.URL()+"/app/brain")...)
	if p.status != http.StatusForbidden || !strings.Contains(p.body, `id="expired-form"`) || !strings.Contains(p.body, "This form had expired") {
		t.Fatalf("an expired form: %d, want 403 with the page that sends it again\n%s", p.status, p.body)
	}
	if !strings.Contains(p.body, `href="/app/brain"`) {
		t.Errorf("the expired page does not go back to the form's page /app/brain\n%s", p.body)
	}
	again := hiddenFields(t, p.body, "expired-form")
	if again.Get("question") != form.Get("question") || again.Get("answer") != form.Get("answer") || again.Get("csrf_token") == before || again.Get("csrf_token") == "" {
		t.Fatalf("the form to send again: %v, want what was typed and a fresh token", again)
	}
	if p := b.do(http.MethodPost, "/app/brain/faq", again, site...); p.status >= 400 {
		t.Fatalf("sent again: %d\n%s", p.status, p.body)
	}
	if !strings.Contains(b.get("/app/brain").body, "Do you bake &lt;b&gt;rye&lt;/b&gt; on Sundays?") {
		t.Errorf("the FAQ item sent again is not on the Brain page")
	}

	// The same form without this site's Origin or Referer, or from another site: the refusal.
	for _, h := range [][]string{nil, {"Origin", "https://evil.example"}} {
		form.Set("csrf_token", before)
		p := b.do(http.MethodPost, "/app/brain/faq", form, h...)
		if p.status != http.StatusForbidden || strings.Contains(p.body, "expired-form") || strings.Contains(p.body, "rye") {
			t.Errorf("a stale form with %v: %d, want 403 without the form sent again\n%s", h, p.status, p.body)
		}
	}

	// A tab's form after signing out in another: nothing saved, and the page says to sign in.
	tok := b.token("/app/brain")
	b.do(http.MethodPost, "/app/logout", url.Values{"csrf_token": {tok}}, site...)
	form.Set("csrf_token", tok)
	p = b.do(http.MethodPost, "/app/brain/faq", form, site...)
	if p.status != http.StatusForbidden || !strings.Contains(p.body, "after you signed out") || strings.Contains(p.body, "expired-form") {
		t.Errorf("a form after sign-out: %d, want 403 saying to sign in again\n%s", p.status, p.body)
	}
}

// hiddenFields reads the fields of the form id on page.
func hiddenFields(t *testing.T, page, id string) url.Values {
	t.Helper()
	start := strings.Index(page, `id="`+id+`"`)
	end := strings.Index(page[max(start, 0):], "</form>")
	if start < 0 || end < 0 {
		t.Fatalf("no form %s in\n%s", id, page)
	}
	out := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(page[start:start+end], -1) {
		out.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return out
}
