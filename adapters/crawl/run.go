package crawl

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/temoto/robotstxt"
	"go.uber.org/zap"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/time/rate"

	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/internal/safehttp"
)

// Skip reasons, as listed in a result's Skipped.
const (
	reasonRobots    = "blocked by robots.txt"
	reasonOutside   = "outside the start path"
	reasonNoText    = "no readable text (the page may need a browser)"
	reasonMaxPages  = "over max_pages"
	reasonDuplicate = "same text as a page already read"
	reasonStopped   = "crawl time limit reached"
)

// run is the state of one crawl. Only the goroutine running Crawl touches it; page fetches run
// concurrently and report back an outcome.
type run struct {
	c        *Crawler
	start    *url.URL
	scope    knowledge.Scope
	maxPages int
	onPage   func(read int, url string) // knowledge.CrawlRequest.OnPage

	pageClient *http.Client // follows redirects that stay crawlable
	fileClient *http.Client // robots.txt and sitemaps: follows same-site redirects
	robots     *robotstxt.RobotsData
	sitemaps   []string
	limiter    *rate.Limiter

	queue   []queued
	queued  int // URLs queued so far, for ordering pages
	seen    map[string]bool
	texts   map[[sha256.Size]byte]int // text hash → index in pages
	pages   []readPage
	skipped []knowledge.Skip
	omitted int // skips beyond maxSkips

	startFailure reason // why the start URL was not read
	failures     []reason
	refused      reason // set when any request was refused by the SSRF guard
}

func newRun(c *Crawler, start *url.URL, maxPages int) *run {
	r := &run{
		c:        c,
		start:    start,
		scope:    knowledge.ScopeOf(start),
		maxPages: maxPages,
		seen:     map[string]bool{},
		texts:    map[[sha256.Size]byte]int{},
	}
	r.pageClient = r.withRedirectRule(func(u *url.URL) bool {
		return r.scope.SameSite(u) && r.scope.InPath(u) && r.allowed(u)
	})
	r.fileClient = r.withRedirectRule(r.scope.SameSite)
	return r
}

// withRedirectRule returns a copy of the crawler's client that stops at a redirect whose target
// fails follow (the 3xx response is then returned) and otherwise applies the client's own rule.
func (r *run) withRedirectRule(follow func(*url.URL) bool) *http.Client {
	c := *r.c.client
	base := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !follow(req.URL) {
			return http.ErrUseLastResponse
		}
		if base != nil {
			return base(req, via)
		}
		if len(via) >= 10 {
			return safehttp.ErrTooManyRedirects
		}
		return nil
	}
	return &c
}

// allowed reports whether robots.txt lets the crawler read u.
func (r *run) allowed(u *url.URL) bool {
	if r.robots == nil {
		return true
	}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return r.robots.TestAgent(p, robotsAgent)
}

// loadRobots reads robots.txt. Only a failure to reach the site at all is an error: a missing or
// unreadable robots.txt allows everything, a server error disallows everything (RFC 9309).
func (r *run) loadRobots(ctx context.Context) error {
	u := r.start.ResolveReference(&url.URL{Path: "/robots.txt"})
	resp, err := r.get(ctx, r.fileClient, u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil {
		return err
	}
	status := resp.StatusCode
	if status >= 300 && status < 400 {
		status = http.StatusNotFound // a redirect off the site: as if there were none
	}
	data, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil {
		r.c.log.Debug("robots.txt unreadable, allowing all", zap.String("site", r.scope.Site), zap.Error(err))
		return nil
	}
	r.robots = data
	r.sitemaps = data.Sitemaps
	if g := data.FindGroup(robotsAgent); g != nil {
		r.limiter = limiter(g.CrawlDelay)
	}
	return nil
}

// fail returns the crawl_failed error for a site that could not be reached.
func (r *run) fail(err error) error {
	return crawlFailed(unreachable(err))
}

// failure returns the crawl_failed error for a crawl that read no page.
func (r *run) failure() error {
	switch {
	case !r.refused.empty():
		return crawlFailed(r.refused)
	case !r.startFailure.empty():
		return crawlFailed(r.startFailure)
	case len(r.failures) > 0:
		return crawlFailed(r.failures[0])
	}
	return crawlFailed(because("no page could be read"))
}

// enqueueStart queues the start URL, or records why robots.txt keeps it out.
func (r *run) enqueueStart() {
	r.seen[key(r.start)] = true
	if !r.allowed(r.start) {
		r.skip(r.start, reasonRobots)
		r.startFailure = because("robots.txt disallows %s", r.start.String())
		return
	}
	r.push(r.start)
}

// queued is a URL waiting to be fetched; seq orders the pages read as they were found.
type queued struct {
	u   *url.URL
	seq int
}

// readPage is a page read, with the order it was found in.
type readPage struct {
	seq      int
	page     knowledge.Page
	docTitle string // the page's <title> as written (document.docTitle)
}

func (r *run) push(u *url.URL) {
	r.queue = append(r.queue, queued{u: u, seq: r.queued})
	r.queued++
}

// result returns the pages in the order they were found, and the skips.
func (r *run) result() knowledge.CrawlResult {
	slices.SortFunc(r.pages, func(a, b readPage) int { return cmp.Compare(a.seq, b.seq) })
	pages := make([]knowledge.Page, len(r.pages))
	docTitles := make([]string, len(r.pages))
	for i, p := range r.pages {
		pages[i], docTitles[i] = p.page, p.docTitle
	}
	trimSiteName(pages, docTitles)
	return knowledge.CrawlResult{Pages: pages, Skipped: r.skipped}
}

// consider queues a URL found on a page or in a sitemap when it is crawlable, and lists it as
// skipped with the reason when it is on the site but not crawlable. listOutside says whether
// URLs outside the start path are listed (links) or dropped quietly (sitemap entries).
func (r *run) consider(u *url.URL, listOutside bool) {
	if !r.scope.SameSite(u) {
		return
	}
	k := key(u)
	if r.seen[k] {
		return
	}
	r.seen[k] = true
	switch {
	case !r.scope.InPath(u):
		if listOutside {
			r.skip(u, reasonOutside)
		}
	case binaryExt(u) != "":
		r.skip(u, "not HTML ("+binaryExt(u)+" file)")
	case !r.allowed(u):
		r.skip(u, reasonRobots)
	default:
		r.push(u)
	}
}

func (r *run) skip(u *url.URL, reason string) {
	r.c.log.Debug("crawl skip", zap.String("url", redact(u)), zap.String("reason", reason))
	r.skipURL(u.String(), reason)
}

func (r *run) skipURL(u, reason string) {
	if len(r.skipped) >= maxSkips {
		r.omitted++
		return
	}
	r.skipped = append(r.skipped, knowledge.Skip{URL: u, Reason: reason})
}

// outcome is what fetching one queued URL gave.
type outcome struct {
	url     *url.URL
	seq     int
	final   *url.URL
	doc     *document
	links   []*url.URL // of a page not read for too little text: a home page of links is followed
	skip    string     // short reason, when not read
	failure reason     // the crawl_failed reason this would give if nothing is read
	refused reason     // set when the SSRF guard refused the request
	took    time.Duration
	status  int
}

// loop fetches queued pages, at most Concurrency at once, until maxPages are read, the queue is
// empty, the fetch budget is spent or the context ends.
func (r *run) loop(ctx context.Context) {
	results := make(chan outcome, r.c.opts.Concurrency)
	inflight, fetches := 0, 0
	budget := 3*r.maxPages + 5
	for {
		for ctx.Err() == nil && len(r.queue) > 0 && inflight < r.c.opts.Concurrency &&
			len(r.pages)+inflight < r.maxPages && fetches < budget {
			q := r.queue[0]
			r.queue = r.queue[1:]
			inflight++
			fetches++
			go func() {
				o := r.fetch(ctx, q.u)
				o.seq = q.seq
				results <- o
			}()
		}
		if inflight == 0 {
			break
		}
		o := <-results
		inflight--
		r.record(o)
	}
	reason := reasonMaxPages
	switch {
	case ctx.Err() != nil:
		reason = reasonStopped
	case len(r.pages) < r.maxPages:
		reason = fmt.Sprintf("fetch limit reached (%d requests)", budget)
	}
	for _, q := range r.queue {
		r.skip(q.u, reason)
	}
	r.queue = nil
	if r.omitted > 0 {
		r.skipped = append(r.skipped, knowledge.Skip{
			URL:    r.start.String(),
			Reason: fmt.Sprintf("%d more URLs not listed", r.omitted),
		})
	}
}

// record applies a fetch outcome to the run.
func (r *run) record(o outcome) {
	isStart := o.url == r.start
	if o.final != nil && key(o.final) != key(o.url) {
		if r.seen[key(o.final)] && o.doc != nil {
			o.doc, o.skip = nil, "redirects to "+o.final.String()+", already listed"
		}
		r.seen[key(o.final)] = true
	}
	if o.doc == nil {
		r.c.log.Debug("crawl page skipped", zap.String("url", redact(o.url)), zap.Int("status", o.status),
			zap.String("reason", o.skip), zap.Duration("took", o.took))
		r.skip(o.url, o.skip)
		if !o.refused.empty() && r.refused.empty() {
			r.refused = o.refused
		}
		if !o.failure.empty() {
			if isStart {
				r.startFailure = o.failure
			}
			r.failures = append(r.failures, o.failure)
		}
		for _, l := range o.links {
			r.consider(l, true)
		}
		return
	}
	r.c.log.Debug("crawl page read", zap.String("url", redact(o.final)), zap.Int("status", o.status),
		zap.Int("chars", len(o.doc.text)), zap.Duration("took", o.took))
	read := readPage{seq: o.seq, page: knowledge.Page{URL: o.final.String(), Title: o.doc.title, Content: o.doc.text}, docTitle: o.doc.docTitle}
	sum := sha256.Sum256([]byte(o.doc.text))
	if i, dup := r.texts[sum]; dup {
		// Of pages with the same text, keep the one found first, whatever finished first.
		if r.pages[i].seq < read.seq {
			r.skipURL(read.page.URL, reasonDuplicate)
			return
		}
		r.skipURL(r.pages[i].page.URL, reasonDuplicate)
		r.pages[i] = read
	} else {
		r.texts[sum] = len(r.pages)
		r.pages = append(r.pages, read)
		if r.onPage != nil {
			r.onPage(len(r.pages), read.page.URL)
		}
	}
	for _, l := range o.doc.links {
		r.consider(l, true)
	}
}

// fetch reads one page.
func (r *run) fetch(ctx context.Context, u *url.URL) (o outcome) {
	began := time.Now()
	o.url = u
	defer func() { o.took = time.Since(began) }()

	if r.limiter != nil {
		if err := r.limiter.Wait(ctx); err != nil {
			o.skip = reasonStopped
			return o
		}
	}
	resp, err := r.get(ctx, r.pageClient, u)
	if err != nil {
		o.failure = unreachable(err)
		o.skip = "could not be fetched: " + describe(err).String()
		var be *safehttp.BlockedError
		if errors.As(err, &be) {
			o.refused = refusedMessage(be)
			o.skip = o.refused.String()
		}
		return o
	}
	defer resp.Body.Close()
	o.status = resp.StatusCode
	o.final = normalize(resp.Request.URL)

	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		loc, err := resp.Location()
		if err != nil {
			o.skip = fmt.Sprintf("HTTP status %d without a valid Location", resp.StatusCode)
			o.failure = because("%s answered HTTP %d", u.String(), resp.StatusCode)
			return o
		}
		loc = normalize(loc)
		var why reason
		switch {
		case !r.scope.SameSite(loc):
			why = because("redirects off the site to %s", loc.String())
		case !r.scope.InPath(loc):
			why = because("redirects outside the start path to %s", loc.String())
		default:
			why = because("redirects to %s, which robots.txt disallows", loc.String())
		}
		o.skip = why.String()
		o.failure = because("%s "+why.format, append([]any{u.String()}, why.args...)...)
		return o
	}
	if resp.StatusCode != http.StatusOK {
		o.skip = fmt.Sprintf("HTTP status %d", resp.StatusCode)
		o.failure = because("the site answered HTTP %d for %s", resp.StatusCode, u.String())
		return o
	}

	ctype := resp.Header.Get("Content-Type")
	if ctype != "" && !isHTML(ctype) {
		mt, _, _ := mime.ParseMediaType(ctype)
		o.skip = "not HTML (" + mt + ")"
		o.failure = because("%s is not an HTML page (%s)", u.String(), mt)
		return o
	}
	limit := r.c.opts.MaxBodyBytes
	if resp.ContentLength > limit {
		return tooLarge(o, u, limit)
	}
	body, err := safehttp.ReadLimited(resp.Body, limit)
	if errors.Is(err, safehttp.ErrTooLarge) {
		return tooLarge(o, u, limit)
	}
	if err != nil {
		o.skip = "could not be read: " + describe(err).String()
		o.failure = describe(err).after("the site could not be reached: ")
		return o
	}
	if ctype == "" {
		ctype = http.DetectContentType(body)
		if !isHTML(ctype) {
			o.skip = "not HTML"
			o.failure = because("%s is not an HTML page", u.String())
			return o
		}
	}

	doc, err := parseHTML(body, ctype)
	if err != nil {
		o.skip = "unparsable HTML"
		o.failure = because("%s could not be parsed as HTML", u.String())
		return o
	}
	d := extract(doc, o.final, r.c.opts.MinTextChars)
	if utf8.RuneCountInString(d.text) < r.c.opts.MinTextChars {
		o.links = d.links
		o.skip = reasonNoText
		o.failure = because("no readable text: the site may render only in a browser")
		return o
	}
	o.doc = &d
	return o
}

func tooLarge(o outcome, u *url.URL, limit int64) outcome {
	o.skip = fmt.Sprintf("too large (over %d KiB)", limit>>10)
	o.failure = because("%s is larger than %d KiB", u.String(), limit>>10)
	return o
}

// get sends a GET for u with the crawler's headers, bounded by the page timeout.
func (r *run) get(ctx context.Context, client *http.Client, u *url.URL) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, r.c.opts.PageTimeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("User-Agent", r.c.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelBody releases the request's context when the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

func isHTML(ctype string) bool {
	mt, _, err := mime.ParseMediaType(ctype)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

// parseHTML decodes body to UTF-8 (from the Content-Type charset, a <meta> or a guess) and
// parses it.
func parseHTML(body []byte, ctype string) (*html.Node, error) {
	rd, err := charset.NewReader(bytes.NewReader(body), ctype)
	if err != nil {
		rd = bytes.NewReader(body)
	}
	return html.Parse(rd)
}

// seedSitemaps queues the in-scope URLs of the site's sitemaps: those robots.txt names, or
// /sitemap.xml. Sitemap indexes are followed one level; failures are only logged.
func (r *run) seedSitemaps(ctx context.Context) {
	var todo []*url.URL
	for _, s := range r.sitemaps {
		if u, err := url.Parse(strings.TrimSpace(s)); err == nil && r.scope.SameSite(u) {
			todo = append(todo, normalize(u))
		}
	}
	if len(todo) == 0 {
		todo = append(todo, r.start.ResolveReference(&url.URL{Path: "/sitemap.xml"}))
	}
	done := map[string]bool{}
	found := 0
	for len(todo) > 0 && len(done) < maxSitemaps && found < maxSitemapURLs && ctx.Err() == nil {
		u := todo[0]
		todo = todo[1:]
		if done[u.String()] {
			continue
		}
		done[u.String()] = true
		sm, err := r.readSitemap(ctx, u)
		if err != nil {
			r.c.log.Debug("sitemap not read", zap.String("url", redact(u)), zap.Error(err))
			continue
		}
		for _, s := range sm.Sitemaps {
			if v, err := u.Parse(strings.TrimSpace(s.Loc)); err == nil && r.scope.SameSite(v) {
				todo = append(todo, normalize(v))
			}
		}
		for _, p := range sm.URLs {
			if found >= maxSitemapURLs {
				break
			}
			if v, err := u.Parse(strings.TrimSpace(p.Loc)); err == nil && (v.Scheme == "http" || v.Scheme == "https") {
				found++
				r.consider(normalize(v), false)
			}
		}
	}
}

// sitemap is a sitemap file or a sitemap index (sitemaps.org).
type sitemap struct {
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func (r *run) readSitemap(ctx context.Context, u *url.URL) (sitemap, error) {
	var sm sitemap
	resp, err := r.get(ctx, r.fileClient, u)
	if err != nil {
		return sm, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return sm, fmt.Errorf("HTTP status %d", resp.StatusCode)
	}
	var rd io.Reader = resp.Body
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if strings.HasSuffix(u.Path, ".gz") || ctype == "application/gzip" || ctype == "application/x-gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return sm, err
		}
		defer zr.Close()
		rd = zr
	}
	body, err := safehttp.ReadLimited(rd, maxSitemapBytes)
	if err != nil {
		return sm, err
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.CharsetReader = charset.NewReaderLabel
	if err := dec.Decode(&sm); err != nil {
		return sm, err
	}
	return sm, nil
}
