package tests

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests (the widget's, the console's, the plugins') share this: the system's
// Chromium driven with chromedp, a test page under a strict CSP, JavaScript checks that wait, and
// screenshots kept as test artifacts.

// chromiumPath finds the system's Chromium; without it the test skips, or fails under CI=true.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is not installed and CI=true: .ci/run installs the chromium package")
	}
	t.Skip("Chromium is not installed: the widget's browser test needs it (apt-get install -y chromium)")
	return ""
}

// browser starts headless Chromium with a fresh profile and returns a tab's context.
func browser(t *testing.T, path string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// servePage serves on host (a loopback name) a page with the snippet, under a strict
// Content-Security-Policy: scripts, connections and images from the service only, no inline
// script or style, no eval.
func servePage(t *testing.T, host, apiURL, snippet string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Padaria Lu</title></head>
<body><h1>Padaria Lu</h1><p>Bread since 1962.</p>
` + snippet + `</body></html>`
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src "+apiURL+"; connect-src "+apiURL+
			"; img-src "+apiURL+"; style-src 'none'; base-uri 'none'; form-action 'none'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return "http://" + host + ":" + port + "/"
}

// widgetSite makes an account with args (its agent set up, its Brain loaded) and serves on
// 127.0.0.1 a page with the account's widget snippet (GET /v1/widget); it returns the account and
// the page's address.
func widgetSite(t *testing.T, s stack, api *proc, args ...string) (account, string) {
	t.Helper()
	a := s.newAccount(t, args...)
	configureAgent(t, api, a.key)
	loadBrain(t, api, a.key)
	snippet := call(t, "GET", api.URL()+"/v1/widget?framework=html", bearer(a.key)...).body.str("code")
	if !strings.Contains(snippet, a.widgetToken) {
		t.Fatalf("GET /v1/widget: the snippet %q lacks the widget token", snippet)
	}
	return a, servePage(t, "127.0.0.1", api.URL(), snippet)
}

// styledWidget starts an embedded svc-api with a pro account whose agent is set up and Brain
// loaded, saves the widget style (PATCH /v1/widget/style) and returns the service, the account
// and its key's headers; it skips where the browser tests skip.
func styledWidget(t *testing.T, style map[string]any) (*proc, account, []string) {
	t.Helper()
	binaries(t) // -short skips here
	chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := s.newAccount(t, "--plan", "pro")
	configureAgent(t, api, a.key)
	loadBrain(t, api, a.key)
	key := bearer(a.key)
	if r := callJSON(t, "PATCH", api.URL()+"/v1/widget/style", style, key...); r.status != http.StatusOK {
		t.Fatalf("PATCH /v1/widget/style: %s", r)
	}
	return api, a, key
}

// widgetPage starts an embedded svc-api and a site with the widget of a pro account
// (widgetSite), and returns the page's address and a browser tab; it skips where the browser
// tests skip.
func widgetPage(t *testing.T) (string, context.Context) {
	t.Helper()
	binaries(t) // -short skips here
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t)
	_, page := widgetSite(t, s, api, "--plan", "pro")
	return page, browser(t, chromium)
}

// rect is where an element is on the screen.
type rect struct{ Left, Top float64 }

// runJS runs browser actions, failing the test on an error.
func runJS(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// evaluate evaluates a JavaScript expression in the page and decodes its value.
func evaluate[T any](t *testing.T, ctx context.Context, what, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// wantJS checks that the expression is true now.
func wantJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if !evaluate[bool](t, ctx, what, expr) {
		t.Errorf("%s: false", what)
	}
}

// waitJS waits until the expression is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	waitFor(t, 60*time.Second, what, func() (bool, string) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { try { return !!(`+expr+`) } catch (e) { return false } })()`))
		if err != nil {
			return false, err.Error()
		}
		return ok, "false"
	})
}

// screenshot keeps a full-page screenshot of the widget under $SVC_TEST_ARTIFACTS or
// tests/artifacts (ignored by git) and returns its path.
func screenshot(t *testing.T, ctx context.Context) string {
	t.Helper()
	return keepShot(t, ctx, "", "widget.png", 100)
}

// consoleShot keeps a full-page screenshot of the console under $SVC_TEST_ARTIFACTS/console or
// tests/artifacts/console (ignored by git; docs/console holds a committed copy).
func consoleShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	keepShot(t, ctx, "console", name+".jpg", 85)
}

// keepShot takes a full-page screenshot (PNG at quality 100, else JPEG) and keeps it as name under
// $SVC_TEST_ARTIFACTS/sub or tests/artifacts/sub; it returns the file's path.
func keepShot(t *testing.T, ctx context.Context, sub, name string, quality int) string {
	t.Helper()
	// A page still being laid out after a navigation has no size yet ("Cannot take screenshot
	// with 0 width"): try again for a moment.
	var img []byte
	var err error
	for try := 0; try < 10; try++ {
		if img, err = chromedp.Run(ctx, chromedp.FullScreenshot(quality)); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := os.Getenv("SVC_TEST_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(repoRoot(t), "tests", "artifacts")
	}
	dir = filepath.Join(dir, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// watchConsole reports whether a page of the tab has logged a message containing text to its
// console (from now on).
func watchConsole(t *testing.T, ctx context.Context, text string) *atomic.Bool {
	t.Helper()
	var seen atomic.Bool
	if err := chromedp.Listen(ctx, func(ev any) {
		var args []*runtime.RemoteObject
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			args = e.Args
		case runtime.EventConsoleAPICalled:
			args = e.Args
		}
		for _, arg := range args {
			if strings.Contains(string(arg.Value), text) {
				seen.Store(true)
			}
		}
	}); err != nil {
		t.Fatalf("listening to the console: %v", err)
	}
	return &seen
}

// openChat opens the page in the tab, waits for the widget, opens its chat and waits for the
// panel.
func openChat(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	const sr = `document.querySelector("#svc-chat-widget").shadowRoot`
	runJS(t, ctx, "open the page", chromedp.Navigate(page))
	waitJS(t, ctx, "the widget is ready", `!!document.querySelector("#svc-chat-widget[data-ready]")`)
	runJS(t, ctx, "open the chat", chromedp.Click(chromedp.JSPath(sr+`.querySelector("button.l")`)))
	waitJS(t, ctx, "the panel is open", `!`+sr+`.querySelector(".pn").hidden`)
}

// interceptRequests pauses the tab's requests that match pattern and hands each to answer, which
// must continue, fulfil or fail it (fetch.ContinueRequest, fetch.FulfillRequest, fetch.FailRequest).
func interceptRequests(t *testing.T, ctx context.Context, pattern *fetch.RequestPattern,
	answer func(ctx context.Context, tg *chromedp.Target, ev *fetch.EventRequestPaused) error) {
	t.Helper()
	paused := func(ev *fetch.EventRequestPaused) {
		go func() {
			_ = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error { return answer(ctx, tg, ev) }))
		}()
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *fetch.EventRequestPaused:
			paused(e)
		case fetch.EventRequestPaused:
			paused(&e)
		}
	}); err != nil {
		t.Fatal(err)
	}
	runJS(t, ctx, "intercept "+pattern.URLPattern, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{pattern}})
		return err
	}))
}
