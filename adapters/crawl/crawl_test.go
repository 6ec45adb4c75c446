package crawl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/internal/safehttp"
)

// prose returns readable text of about n characters on topic.
func prose(topic string, n int) string {
	sentence := fmt.Sprintf("This paragraph explains %s in plain words for the customers of the shop. ", topic)
	return strings.Repeat(sentence, n/len(sentence)+1)
}

// page renders an HTML page with a title, a paragraph about topic and links.
func page(title, topic string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title></head><body>", title)
	b.WriteString("<nav>")
	for _, l := range links {
		fmt.Fprintf(&b, `<a href="%s">link</a> `, l)
	}
	b.WriteString("</nav><main><article>")
	fmt.Fprintf(&b, "<h1>%s</h1><p>%s</p><p>%s</p>", title, prose(topic, 400), prose(topic+" again", 300))
	b.WriteString("</article></main></body></html>")
	return b.String()
}

const jsOnly = `<!doctype html><html><head><title>App</title><script src="/app.js"></script></head>` +
	`<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>` +
	`<script>document.getElementById("root").innerHTML = "hello";</script></body></html>`

// site is a test web site on loopback that records the paths requested.
type site struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

// route is one path of a test site.
type route struct {
	status int
	ctype  string
	body   string
	header map[string]string
}

func html200(body string) route {
	return route{status: http.StatusOK, ctype: "text/html; charset=utf-8", body: body}
}

func newSite(t *testing.T, routes func(s *site) map[string]route) *site {
	t.Helper()
	s := &site{}
	var table map[string]route
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.RequestURI())
		s.mu.Unlock()
		rt, ok := table[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range rt.header {
			w.Header().Set(k, v)
		}
		if rt.ctype != "" {
			w.Header().Set("Content-Type", rt.ctype)
		}
		w.WriteHeader(rt.status)
		_, _ = w.Write([]byte(rt.body))
	}))
	t.Cleanup(s.Close)
	table = routes(s)
	return s
}

func (s *site) requested(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.requests {
		if p == path {
			return true
		}
	}
	return false
}

func (s *site) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func newCrawler(t *testing.T, allowPrivate bool) *Crawler {
	return NewGuarded(Options{
		AllowPrivate: allowPrivate,
		MaxBodyBytes: 64 << 10,
		PageTimeout:  5 * time.Second,
	}, zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel)))
}

func paths(t *testing.T, base string, pages []knowledge.Page) []string {
	t.Helper()
	var out []string
	for _, p := range pages {
		out = append(out, strings.TrimPrefix(p.URL, base))
	}
	sort.Strings(out)
	return out
}

func TestCrawlSite(t *testing.T) {
	other := newSite(t, func(*site) map[string]route {
		return map[string]route{"/": html200(page("Elsewhere", "another site"))}
	})
	s := newSite(t, func(s *site) map[string]route {
		return map[string]route{
			"/robots.txt": {status: http.StatusOK, ctype: "text/plain", body: "User-agent: *\nDisallow: /docs/private/\n\nSitemap: " + s.URL + "/sitemap.xml\n"},
			"/sitemap.xml": {status: http.StatusOK, ctype: "application/xml", body: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>` + s.URL + `/docs/hidden</loc></url>
  <url><loc>` + s.URL + `/blog/from-sitemap</loc></url>
  <url><loc>` + s.URL + `/docs/private/also</loc></url>
</urlset>`},
			"/docs/": html200(page("Docs home", "the documentation",
				"a", "/docs/b", "/docs/a#install", "private/secret", "/blog/x", "mailto:shop@example.com",
				"javascript:void(0)", "tel:+4912345", "#top", "/docs/manual.pdf", "/docs/feed",
				"/docs/away", "/docs/missing", "/docs/js", "/docs/big", "/docs/copy", "/docs/inside",
				"https://elsewhere.example/page", other.URL+"/")),
			"/docs/a":              html200(page("Installing", "installation")),
			"/docs/b":              html200(page("Billing", "billing and invoices")),
			"/docs/hidden":         html200(page("Hidden", "a page only the sitemap knows")),
			"/docs/copy":           html200(page("Billing", "billing and invoices")),
			"/docs/inside":         {status: http.StatusFound, header: map[string]string{"Location": "/docs/a"}},
			"/docs/private/secret": html200(page("Secret", "secrets")),
			"/docs/private/also":   html200(page("Secret", "secrets")),
			"/blog/x":              html200(page("Blog", "news")),
			"/blog/from-sitemap":   html200(page("Blog", "news")),
			"/docs/manual.pdf":     {status: http.StatusOK, ctype: "application/pdf", body: "%PDF-1.4"},
			"/docs/feed":           {status: http.StatusOK, ctype: "application/json", body: `{"items":[]}`},
			"/docs/away":           {status: http.StatusFound, header: map[string]string{"Location": other.URL + "/"}},
			"/docs/js":             html200(jsOnly),
			"/docs/big":            html200(page("Big", "everything", strings.Repeat("x", 70<<10))),
		}
	})

	res, err := newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: s.URL + "/docs/"})
	if err != nil {
		t.Fatal(err)
	}

	want := []string{"/docs/", "/docs/a", "/docs/b", "/docs/hidden"}
	if got := paths(t, s.URL, res.Pages); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("pages = %v, want %v (skipped %+v)", got, want, res.Skipped)
	}
	for _, p := range res.Pages {
		if p.Title == "" || len(p.Content) < DefaultMinTextChars || strings.Contains(p.Content, "  ") {
			t.Errorf("page %s: title %q, %d chars", p.URL, p.Title, len(p.Content))
		}
	}
	if p := res.Pages[0]; p.Title != "Docs home" || !strings.Contains(p.Content, "explains the documentation") {
		t.Errorf("start page = %q: %.80q", p.Title, p.Content)
	}

	skips := map[string]string{}
	for _, sk := range res.Skipped {
		skips[strings.TrimPrefix(sk.URL, s.URL)] = sk.Reason
	}
	wantSkips := map[string]string{
		"/blog/x":              "outside the start path",
		"/docs/private/secret": "robots.txt",
		"/docs/private/also":   "robots.txt",
		"/docs/manual.pdf":     "not HTML (.pdf file)",
		"/docs/feed":           "not HTML (application/json)",
		"/docs/away":           "redirects off the site",
		"/docs/missing":        "HTTP status 404",
		"/docs/js":             "no readable text",
		"/docs/big":            "too large",
		"/docs/copy":           "same text",
		"/docs/inside":         "already listed",
	}
	for path, reason := range wantSkips {
		if !strings.Contains(skips[path], reason) {
			t.Errorf("skip of %s = %q, want %q", path, skips[path], reason)
		}
	}
	for path := range skips {
		if strings.HasPrefix(path, "mailto") || strings.HasPrefix(path, "http") || strings.Contains(path, "#") {
			t.Errorf("%s listed as skipped", path)
		}
	}

	for _, path := range []string{"/blog/x", "/blog/from-sitemap", "/docs/private/secret", "/docs/private/also", "/docs/manual.pdf"} {
		if s.requested(path) {
			t.Errorf("%s was requested", path)
		}
	}
	if n := other.count(); n != 0 {
		t.Errorf("the other host got %d requests, want 0", n)
	}
}

func TestMaxPages(t *testing.T) {
	const n = 40
	s := newSite(t, func(*site) map[string]route {
		r := map[string]route{}
		var links []string
		for i := 1; i <= n; i++ {
			p := fmt.Sprintf("/docs/p%d", i)
			links = append(links, p)
			r[p] = html200(page(fmt.Sprintf("Page %d", i), fmt.Sprintf("topic number %d", i)))
		}
		r["/docs/"] = html200(page("Index", "the index", links...))
		return r
	})
	tests := []struct {
		name     string
		maxPages int
		want     int
	}{
		{"three", 3, 3},
		{"default", 0, knowledge.MaxCrawlPages},
		{"never more than the ceiling", 100, knowledge.MaxCrawlPages},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: s.URL + "/docs/", MaxPages: tt.maxPages})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != tt.want {
				t.Fatalf("read %d pages, want %d", len(res.Pages), tt.want)
			}
			over := 0
			for _, sk := range res.Skipped {
				if sk.Reason == reasonMaxPages {
					over++
				}
			}
			if over != n+1-tt.want {
				t.Fatalf("%d skipped over max_pages, want %d", over, n+1-tt.want)
			}
		})
	}
}

func TestCrawlFailed(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]route
		start  string
		want   string
	}{
		{
			name:   "browser-only site",
			routes: map[string]route{"/": html200(jsOnly)},
			start:  "/",
			want:   "no readable text: the site may render only in a browser",
		},
		{
			name:   "start page is not HTML",
			routes: map[string]route{"/docs/guide": {status: http.StatusOK, ctype: "application/pdf", body: "%PDF-1.4"}},
			start:  "/docs/guide",
			want:   "is not an HTML page (application/pdf)",
		},
		{
			name:   "robots.txt disallows everything",
			routes: map[string]route{"/robots.txt": {status: http.StatusOK, body: "User-agent: *\nDisallow: /\n"}, "/": html200(page("Home", "home"))},
			start:  "/",
			want:   "robots.txt disallows",
		},
		{
			name:   "robots.txt disallows this crawler",
			routes: map[string]route{"/robots.txt": {status: http.StatusOK, body: "User-agent: svc-crawler\nDisallow: /\n\nUser-agent: *\nAllow: /\n"}, "/": html200(page("Home", "home"))},
			start:  "/",
			want:   "robots.txt disallows",
		},
		{
			name:   "start page missing",
			routes: map[string]route{},
			start:  "/nothing",
			want:   "HTTP 404",
		},
		{
			name:   "start page redirects to another host",
			routes: map[string]route{"/": {status: http.StatusMovedPermanently, header: map[string]string{"Location": "http://elsewhere.invalid/"}}},
			start:  "/",
			want:   "redirects off the site to http://elsewhere.invalid/",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, func(*site) map[string]route { return tt.routes })
			_, err := newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: s.URL + tt.start})
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeCrawlFailed || !strings.Contains(e.Message, tt.want) {
				t.Fatalf("err = %v, want crawl_failed containing %q", err, tt.want)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, err = newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: "http://" + addr + "/"})
	e, ok := domain.AsError(err)
	if !ok || e.Code != domain.CodeCrawlFailed || !strings.HasPrefix(e.Message, "the site could not be reached: ") {
		t.Fatalf("err = %v, want crawl_failed: the site could not be reached", err)
	}
}

// TestPrivateRefused crawls the loopback site without AllowPrivate: refused, and no request
// reaches the server.
func TestPrivateRefused(t *testing.T) {
	s := newSite(t, func(*site) map[string]route {
		return map[string]route{"/": html200(page("Home", "home"))}
	})
	u, _ := url.Parse(s.URL)
	for _, start := range []string{
		s.URL + "/",
		"http://localhost:" + u.Port() + "/",
		"http://2130706433:" + u.Port() + "/",
		"http://[::ffff:127.0.0.1]:" + u.Port() + "/",
		"http://169.254.169.254/latest/meta-data/",
	} {
		_, err := newCrawler(t, false).Crawl(context.Background(), knowledge.CrawlRequest{URL: start})
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeCrawlFailed || !strings.Contains(e.Message, "private") {
			t.Fatalf("crawl %s: err = %v, want crawl_failed naming a private address", start, err)
		}
	}
	if n := s.count(); n != 0 {
		t.Fatalf("the server got %d requests, want 0", n)
	}
}

// TestPrivateRefusedUpFront crawls, without AllowPrivate, start URLs whose host is not public in
// spellings a plain address check misses (issue 11, defect 5): each is refused before any name
// is resolved or any connection made, with crawl_failed naming a private host as before.
func TestPrivateRefusedUpFront(t *testing.T) {
	var lookups, dials atomic.Int64
	client := safehttp.New(safehttp.Options{
		Timeout: 5 * time.Second,
		Resolve: func(context.Context, string) ([]netip.Addr, error) {
			lookups.Add(1)
			return nil, errors.New("no such host")
		},
	})
	client.Transport = countingTransport{next: client.Transport, n: &dials}
	c := New(client, Options{PageTimeout: 5 * time.Second}, zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel)))
	for _, start := range []string{
		"http://１２７.０.０.１/",
		"http://0x7f.1/",
		"http://127.0.0.1./",
		"http://[64:ff9b::7f00:1]/",
		"http://2852039166/",
		"http://intranet/",
		"http://metadata/computeMetadata/v1/",
		"http://db.internal/",
		"http://api.localhost/",
	} {
		_, err := c.Crawl(context.Background(), knowledge.CrawlRequest{URL: start})
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeCrawlFailed || !strings.Contains(e.Message, "refused") || !strings.Contains(e.Message, "private") {
			t.Errorf("crawl %s: err = %v, want crawl_failed: refused, private", start, err)
		}
	}
	if n, d := lookups.Load(), dials.Load(); n != 0 || d != 0 {
		t.Errorf("%d name lookups and %d requests for refused start URLs, want none", n, d)
	}
}

// countingTransport counts the requests that reach the client's transport.
type countingTransport struct {
	next http.RoundTripper
	n    *atomic.Int64
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

func TestInvalidURL(t *testing.T) {
	for _, raw := range []string{"", "   ", "example.com", "ftp://example.com/", "javascript:alert(1)", "http://", "http://user:pass@example.com/", "http://exa mple.com/",
		"http://1.2.3.4.5/", "http://example.0x/", "http://a..example.com/"} {
		_, err := newCrawler(t, false).Crawl(context.Background(), knowledge.CrawlRequest{URL: raw})
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeInvalidRequest || e.Field != "url" {
			t.Errorf("Crawl(%q): err = %v, want invalid_request on url", raw, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	s := newSite(t, func(*site) map[string]route {
		return map[string]route{"/": html200(page("Home", "home"))}
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newCrawler(t, true).Crawl(ctx, knowledge.CrawlRequest{URL: s.URL}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestScope(t *testing.T) {
	tests := []struct {
		start, u string
		sameSite bool
		inPath   bool
	}{
		{"https://example.com/docs/", "https://example.com/docs/a", true, true},
		{"https://example.com/docs/", "https://www.example.com/docs/a", true, true},
		{"https://www.example.com/docs/", "http://example.com/docs/a", true, true},
		{"https://example.com/docs/", "https://example.com/docs", true, true},
		{"https://example.com/docs/", "https://example.com/docsmore", true, false},
		{"https://example.com/docs/", "https://example.com/blog/x", true, false},
		{"https://example.com/docs/intro", "https://example.com/docs/other", true, false},
		{"https://example.com/docs/intro", "https://example.com/docs/intro/part-2", true, true},
		{"https://example.com/docs/index.html", "https://example.com/docs/other", true, true},
		{"https://example.com/docs", "https://example.com/blog/x", true, false},
		{"https://example.com/docs", "https://example.com/docs/a", true, true},
		{"https://example.com/", "https://shop.example.com/", false, true},
		{"https://example.com/", "https://example.com:8443/", false, true},
		{"https://example.com:443/", "https://EXAMPLE.com/", true, true},
		{"https://example.com/", "ftp://example.com/", false, true},
	}
	for _, tt := range tests {
		start, _ := url.Parse(tt.start)
		u, _ := url.Parse(tt.u)
		sc := knowledge.ScopeOf(normalize(start))
		if got := sc.SameSite(normalize(u)); got != tt.sameSite {
			t.Errorf("scope(%s).sameSite(%s) = %v, want %v", tt.start, tt.u, got, tt.sameSite)
		}
		if got := sc.InPath(normalize(u)); got != tt.inPath {
			t.Errorf("scope(%s).inPath(%s) = %v, want %v", tt.start, tt.u, got, tt.inPath)
		}
	}
}

func TestExtractFallback(t *testing.T) {
	// A page readability cannot make an article of still gives its visible text.
	body := `<html><head><title> Opening   hours </title><style>p{}</style></head><body>` +
		`<table><tr><td>` + prose("opening hours", 250) + `</td></tr></table><script>var x = 1;</script></body></html>`
	s := newSite(t, func(*site) map[string]route { return map[string]route{"/": html200(body)} })
	res, err := newCrawler(t, true).Crawl(context.Background(), knowledge.CrawlRequest{URL: s.URL})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Pages[0]
	if p.Title != "Opening hours" || !strings.Contains(p.Content, "explains opening hours") || strings.Contains(p.Content, "var x") {
		t.Fatalf("page = %q: %.100q", p.Title, p.Content)
	}
}
