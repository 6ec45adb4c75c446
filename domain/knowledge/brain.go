package knowledge

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// Limits of the knowledge endpoints (spec part 8, and decisions where it is silent).
const (
	MaxFAQItems        = 100     // per call
	MaxQuestion        = 500     // characters
	MaxAnswer          = 5000    // characters
	MaxPages           = 500     // per PUT /v1/knowledge/pages
	MaxPageContent     = 200_000 // characters of one page
	MaxTitle           = 500
	MaxURL             = 2048
	MaxBusinessSummary = 5000
)

// StoredPage is a page kept in the Brain. Site groups crawled pages by host, so a re-crawl of a
// site replaces that site's pages only (those under the directory it read: Scope).
type StoredPage struct {
	ID        string
	Source    Source
	Site      string
	Page      Page
	Chars     int
	CreatedAt time.Time
}

// StoredChunk is a piece of a stored page with its vector.
type StoredChunk struct {
	ID      string
	PageID  string
	Source  Source
	URL     string
	Title   string
	Text    string
	Ordinal int
	Cart    string // the cart id of its page (Page.Cart)
	Vector  []float32
}

// FAQItem is a question and its answer. Normalized is the key an upsert matches on.
type FAQItem struct {
	ID         string
	Question   string
	Answer     string
	Normalized string
	Vector     []float32
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// State is the account's Brain as a whole: a version that every change increases (caches of the
// index compare it), and the business summary and site address given with pages.
type State struct {
	AccountID       string
	Version         int64
	BusinessSummary string
	SiteURL         string
	UpdatedAt       time.Time
}

// Replacement replaces the pages of one source (and, for a crawl, one site) with new ones.
// A nil BusinessSummary or SiteURL keeps the stored value.
type Replacement struct {
	Source Source
	Site   string
	// Scope, when set, narrows the pages replaced to those it holds (a crawl's: the site's pages
	// under the directory it read).
	Scope           *Scope
	Pages           []StoredPage
	Chunks          []StoredChunk
	BusinessSummary *string
	SiteURL         *string
	At              time.Time
}

// Replaces reports whether r replaces the stored page p: a page of its source, of its site when
// it names one, and held by its scope when it has one (as the store deletes them).
func (r Replacement) Replaces(p StoredPage) bool {
	return p.Source == r.Source && (r.Site == "" || p.Site == r.Site) && (r.Scope == nil || r.Scope.Holds(p.Page.URL))
}

// PageChanges is how a replacement (a crawl's) changes the Brain's pages, page by page, against
// the pages it had. Before = Kept + Replaced + Removed; after = Kept + Replaced + Added,
// Replaced + Added being the replacement's pages.
type PageChanges struct {
	Added    int // new pages whose address the replaced pages did not have
	Replaced int // new pages whose address they had: the stored copy gave way to the new read
	Removed  int // replaced pages whose address no new page has: gone
	Kept     int // every other page of the Brain, untouched: uploaded, synced, other sites' and directories'
}

// Changes counts how r changes before, the Brain's pages (Replaces). A page is the same page as
// a stored one when its address is, scheme, "www." and fragment aside, as the scope reads
// addresses.
func (r Replacement) Changes(before []StoredPage) PageChanges {
	var ch PageChanges
	replaced := map[string]int{}
	for _, p := range before {
		if r.Replaces(p) {
			replaced[pageKey(p.Page.URL)]++
			continue
		}
		ch.Kept++
	}
	for _, p := range r.Pages {
		if k := pageKey(p.Page.URL); replaced[k] > 0 {
			replaced[k]--
			ch.Replaced++
			continue
		}
		ch.Added++
	}
	for _, n := range replaced {
		ch.Removed += n
	}
	return ch
}

// pageKey is a page address without its scheme, "www." and fragment (SiteHost).
func pageKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	return SiteHost(u) + p + "?" + u.RawQuery
}

// FAQUpsert is the outcome of adding or updating FAQ items.
type FAQUpsert struct {
	Created int
	Updated int
}

// Key is what names an uploaded page among the account's others: its address, or its title
// when it has none (the console's form replaces the uploaded page of the same key).
func (p Page) Key() (url, title string) {
	if p.URL != "" {
		return p.URL, ""
	}
	return "", p.Title
}

// ValidatePages checks the pages of PUT /v1/knowledge/pages, naming the field at fault.
func ValidatePages(pages []Page) error {
	if pages == nil {
		return domain.Invalid("pages", "pages is required (an array of {url, title, content})")
	}
	if len(pages) > MaxPages {
		return domain.Invalid("pages", "at most %d pages per call (got %d)", MaxPages, len(pages))
	}
	seen := make(map[string]int, len(pages)) // url → index of its first page
	for i, p := range pages {
		field := fmt.Sprintf("pages[%d]", i)
		if !domain.HasVisible(p.Content) {
			return domain.Invalid(field+".content", "%s.content is required", field)
		}
		if n := utf8.RuneCountInString(p.Content); n > MaxPageContent {
			return domain.Invalid(field+".content", "%s.content must be at most %d characters (got %d)", field, MaxPageContent, n)
		}
		if utf8.RuneCountInString(p.Title) > MaxTitle {
			return domain.Invalid(field+".title", "%s.title must be at most %d characters", field, MaxTitle)
		}
		if p.URL == "" {
			continue
		}
		if !WebURL(p.URL) {
			return domain.Invalid(field+".url", "%s.url must be an absolute http(s) URL", field)
		}
		if first, dup := seen[p.URL]; dup {
			return domain.Invalid(field+".url", "%s.url is also the url of pages[%d]; each page's url must be unique", field, first)
		}
		seen[p.URL] = i
	}
	return nil
}

// ValidateFAQ checks the items of POST /v1/knowledge/faq, naming the field at fault.
func ValidateFAQ(items []FAQItem) error {
	if items == nil {
		return domain.Invalid("items", "items is required (an array of {question, answer})")
	}
	if len(items) == 0 {
		return domain.Invalid("items", "items must hold at least one item")
	}
	if len(items) > MaxFAQItems {
		return domain.Invalid("items", "at most %d items per call (got %d)", MaxFAQItems, len(items))
	}
	for i, it := range items {
		field := fmt.Sprintf("items[%d]", i)
		switch q := strings.TrimSpace(it.Question); {
		case q == "":
			return domain.Invalid(field+".question", "%s.question is required", field)
		case utf8.RuneCountInString(q) > MaxQuestion:
			return domain.Invalid(field+".question", "%s.question must be at most %d characters", field, MaxQuestion)
		case NormalizeQuestion(q) == "":
			// Items are matched on NormalizeQuestion: a question without a word ("???", an emoji,
			// a zero-width space) would have the key of every other such question and replace it.
			return domain.Invalid(field+".question", "%s.question must hold a word (a letter or a digit)", field)
		}
		switch a := strings.TrimSpace(it.Answer); {
		case !domain.HasVisible(a): // an answer the customer could not see
			return domain.Invalid(field+".answer", "%s.answer is required", field)
		case utf8.RuneCountInString(a) > MaxAnswer:
			return domain.Invalid(field+".answer", "%s.answer must be at most %d characters", field, MaxAnswer)
		}
	}
	return nil
}

// ValidateSite checks an optional site address and business summary given with pages.
func ValidateSite(siteURL, summary *string) error {
	if siteURL != nil && *siteURL != "" && !WebURL(*siteURL) {
		return domain.Invalid("site_url", "site_url must be an absolute http(s) URL")
	}
	if summary != nil && utf8.RuneCountInString(*summary) > MaxBusinessSummary {
		return domain.Invalid("business_summary", "business_summary must be at most %d characters", MaxBusinessSummary)
	}
	return nil
}

// Checked returns r with its defaults (MaxPages 0: MaxCrawlPages), or 400 invalid_request naming
// the field that is wrong: url missing or not an absolute http(s) URL, max_pages outside 1 to
// MaxCrawlPages.
func (r CrawlRequest) Checked() (CrawlRequest, error) {
	if strings.TrimSpace(r.URL) == "" {
		return CrawlRequest{}, domain.Invalid("url", "url is required")
	}
	if !WebURL(r.URL) {
		return CrawlRequest{}, domain.Invalid("url", "url must be an absolute http(s) URL")
	}
	switch {
	case r.MaxPages == 0:
		r.MaxPages = MaxCrawlPages
	case r.MaxPages < 1 || r.MaxPages > MaxCrawlPages:
		return CrawlRequest{}, domain.Invalid("max_pages", "max_pages must be between 1 and %d", MaxCrawlPages)
	}
	return r, nil
}

// WebURL reports whether s is an absolute http(s) URL of sane length.
func WebURL(s string) bool {
	if len(s) > MaxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// SiteOf returns the site key of an address: its host, lower case, without "www.".
func SiteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}
