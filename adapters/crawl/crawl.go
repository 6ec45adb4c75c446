// Package crawl reads a public site for the Brain: it follows same-site links under the start
// path, honours robots.txt, seeds from the sitemap, and extracts each HTML page's readable text
// and title. Every request goes through an SSRF-guarded client (internal/safehttp).
package crawl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

// Set provides the crawler, with its own guarded HTTP client, from Options and a *zap.Logger.
var Set = wire.NewSet(NewGuarded, wire.Bind(new(ports.Crawler), new(*Crawler)))

// Defaults, used where Options leaves a field zero.
const (
	DefaultUserAgent    = "svc-crawler/1.0"
	DefaultMaxBodyBytes = 2 << 20
	DefaultConcurrency  = 4
	DefaultPageTimeout  = 15 * time.Second
	DefaultTimeout      = 2 * time.Minute
	DefaultMaxRedirects = 5
	DefaultMinTextChars = 200
	DefaultMaxPages     = knowledge.MaxCrawlPages
)

const (
	// robotsAgent is the product token matched against robots.txt User-agent lines.
	robotsAgent     = "svc-crawler"
	maxRobotsBytes  = 500 << 10
	maxSitemapBytes = 10 << 20
	maxSitemaps     = 5
	maxSitemapURLs  = 1000
	maxSkips        = 200
	maxCrawlDelay   = 2 * time.Second
)

// Options configures a Crawler.
type Options struct {
	// AllowPrivate lets the guarded client reach loopback and private addresses (local tests
	// only: SVC_ALLOW_PRIVATE_TARGETS).
	AllowPrivate bool
	// UserAgent is sent with every request; robots.txt is matched as "svc-crawler".
	UserAgent string
	// MaxBodyBytes caps a page's body; larger pages are skipped.
	MaxBodyBytes int64
	// Concurrency is how many pages are fetched at once.
	Concurrency int
	// PageTimeout bounds one page's request, redirects and body included.
	PageTimeout time.Duration
	// Timeout bounds a whole crawl; what was read by then is kept.
	Timeout time.Duration
	// MaxRedirects is how many same-site redirects one request follows.
	MaxRedirects int
	// MinTextChars is the least readable text a page must have to be kept.
	MinTextChars int
}

func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = DefaultPageTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.MinTextChars <= 0 {
		o.MinTextChars = DefaultMinTextChars
	}
	return o
}

// NewClient returns the SSRF-guarded HTTP client a Crawler needs.
func NewClient(o Options) *http.Client {
	o = o.withDefaults()
	return safehttp.New(safehttp.Options{
		AllowPrivate: o.AllowPrivate,
		MaxRedirects: o.MaxRedirects,
		Timeout:      o.PageTimeout,
	})
}

// Crawler reads public sites. It implements ports.Crawler.
type Crawler struct {
	client *http.Client
	opts   Options
	log    *zap.Logger
}

var _ ports.Crawler = (*Crawler)(nil)

// New returns a Crawler that fetches through client, which should come from NewClient (or
// safehttp.New): the crawler adds its same-site redirect rule on top of the client's own.
func New(client *http.Client, opts Options, log *zap.Logger) *Crawler {
	return &Crawler{client: client, opts: opts.withDefaults(), log: log}
}

// NewGuarded returns a Crawler with its own guarded client made by NewClient.
func NewGuarded(opts Options, log *zap.Logger) *Crawler {
	return New(NewClient(opts), opts, log)
}

// Crawl reads the site at req.URL: at most req.MaxPages pages (default and ceiling
// knowledge.MaxCrawlPages) under the start URL's directory. A site of which no page could be read
// is a crawl_failed error naming the reason.
func (c *Crawler) Crawl(ctx context.Context, req knowledge.CrawlRequest) (knowledge.CrawlResult, error) {
	start, err := parseStart(req.URL, c.opts.AllowPrivate)
	if err != nil {
		return knowledge.CrawlResult{}, err
	}
	maxPages := req.MaxPages
	if maxPages <= 0 || maxPages > knowledge.MaxCrawlPages {
		maxPages = DefaultMaxPages
	}

	crawlCtx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()

	r := newRun(c, start, maxPages)
	r.onPage = req.OnPage
	began := time.Now()
	if err := r.loadRobots(crawlCtx); err != nil {
		if ctx.Err() != nil {
			return knowledge.CrawlResult{}, ctx.Err()
		}
		return knowledge.CrawlResult{}, r.fail(err)
	}
	r.enqueueStart()
	r.seedSitemaps(crawlCtx)
	r.loop(crawlCtx)

	if len(r.pages) == 0 {
		if ctx.Err() != nil {
			return knowledge.CrawlResult{}, ctx.Err()
		}
		return knowledge.CrawlResult{}, r.failure()
	}
	c.log.Info("crawl finished",
		zap.String("site", redact(start)),
		zap.Int("pages", len(r.pages)),
		zap.Int("skipped", len(r.skipped)),
		zap.Duration("took", time.Since(began)))
	return r.result(), nil
}

// parseStart checks the start URL: absolute http(s), a host, no credentials, and a host that,
// read as a browser reads it, is public (unless allowPrivate): a refused one is crawl_failed
// before any name is resolved or any request made, an invalid one invalid_request.
func parseStart(raw string, allowPrivate bool) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, domain.Invalid("url", "url is required")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, domain.Invalid("url", "url is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, domain.Invalid("url", "url must be an http or https URL")
	}
	if u.Hostname() == "" {
		return nil, domain.Invalid("url", "url has no host")
	}
	if u.User != nil {
		return nil, domain.Invalid("url", "url must not contain credentials")
	}
	if err := safehttp.CheckTarget(u, allowPrivate); err != nil {
		var be *safehttp.BlockedError
		if errors.As(err, &be) {
			return nil, crawlFailed(refusedMessage(be))
		}
		return nil, domain.Invalid("url", "url cannot be crawled: %s", safehttp.Explain(err))
	}
	return normalize(u), nil
}

// reason is why a crawl read nothing: its form and values, whose English (String) is the
// crawl_failed message the API answers, kept as domain.Error's Format and Args for a page to say
// it in its own language. A URL or a media type goes in as a value, never into the form.
type reason struct {
	format string
	args   []any
}

func because(format string, args ...any) reason { return reason{format: format, args: args} }

// String is the reason in English.
func (r reason) String() string {
	if len(r.args) == 0 {
		return r.format
	}
	return fmt.Sprintf(r.format, r.args...)
}

// empty reports whether no reason was given.
func (r reason) empty() bool { return r.format == "" }

// after returns prefix (a form without verbs) followed by r.
func (r reason) after(prefix string) reason { return because(prefix+r.format, r.args...) }

// crawlFailed returns the crawl_failed error of why.
func crawlFailed(why reason) error {
	return &domain.Error{Code: domain.CodeCrawlFailed, Message: why.String(), Format: why.format, Args: why.args}
}

// unreachable turns a request error into a crawl_failed reason.
func unreachable(err error) reason {
	var be *safehttp.BlockedError
	if errors.As(err, &be) {
		return refusedMessage(be)
	}
	if errors.Is(err, safehttp.ErrBlocked) {
		return because("refused: the address is not public")
	}
	return describe(err).after("the site could not be reached: ")
}

func refusedMessage(be *safehttp.BlockedError) reason {
	if !be.Addr.IsValid() && strings.HasSuffix(be.Class, " name") {
		return because("refused: the host is private (%s)", be.Class)
	}
	what := be.Host
	if be.Addr.IsValid() {
		what = be.Addr.String()
	}
	return because("refused: the address is private (%s address %s)", be.Class, what)
}

// describe returns a short, log-safe description of a request error.
func describe(err error) reason {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var timeout interface{ Timeout() bool }
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return because("timed out")
	case errors.Is(err, safehttp.ErrTooManyRedirects):
		return because("too many redirects")
	case errors.As(err, &dns):
		// The resolver's own address is ours, not the caller's business.
		if dns.IsNotFound {
			return because("the host name %s does not exist", dns.Name)
		}
		return because("the host name %s could not be resolved", dns.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return because("the connection was refused")
	case errors.As(err, &op) && op.Op == "dial":
		return because("the host could not be reached")
	}
	return because("%s", err.Error())
}

// redact drops the query, which may carry tokens, from a URL for logs.
func redact(u *url.URL) string {
	v := *u
	v.RawQuery, v.ForceQuery, v.User = "", false, nil
	return v.String()
}

// limiter returns a rate limiter honouring a robots.txt Crawl-delay (capped), or nil.
func limiter(delay time.Duration) *rate.Limiter {
	if delay <= 0 {
		return nil
	}
	delay = min(delay, maxCrawlDelay)
	return rate.NewLimiter(rate.Every(delay), 1)
}
