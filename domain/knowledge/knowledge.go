// Package knowledge holds the Brain: pages, FAQ items, the chunks they are split into, and the
// pure rules of retrieval (tokenizing, ranking, fusion).
package knowledge

// Source says where a piece of knowledge came from (the knowledge.updated event's data.source).
type Source string

// The knowledge sources.
const (
	SourcePages  Source = "pages"
	SourceCrawl  Source = "crawl"
	SourceFAQ    Source = "faq"
	SourcePlugin Source = "plugin"
)

// Page is a readable page of the business's site or an uploaded one.
type Page struct {
	URL     string
	Title   string
	Content string
	// Cart is, for a product a store's plugin synced, the cart id the agent may offer to add
	// (a product or variation in stock); empty for every other page.
	Cart string
}

// MaxCrawlPages is the most pages one crawl reads (spec part 8).
const MaxCrawlPages = 30

// CrawlRequest asks for a public site to be read from URL, at most MaxPages pages.
type CrawlRequest struct {
	URL      string
	MaxPages int
	// OnPage, when set, is told of each page read as it is read: how many so far, and its
	// address. It is called from the crawl's own goroutine, one call at a time.
	OnPage func(read int, url string)
}

// Skip is a URL the crawler did not read, and why.
type Skip struct {
	URL    string
	Reason string
}

// CrawlResult is what a crawl read.
type CrawlResult struct {
	Pages   []Page
	Skipped []Skip
}
