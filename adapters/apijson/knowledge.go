package apijson

import (
	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain/knowledge"
)

// PagesIn is the body of PUT /v1/knowledge/pages (the replace_pages tool's arguments).
type PagesIn struct {
	Pages           []PageIn `json:"pages,omitempty" jsonschema:"the pages that replace every uploaded page: url, title and content (text or Markdown)"`
	BusinessSummary *string  `json:"business_summary,omitempty" jsonschema:"a short summary of the business"`
	SiteURL         *string  `json:"site_url,omitempty" jsonschema:"the business's website"`
}

// PageIn is one page of PagesIn.
type PageIn struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Content string `json:"content"`
}

// Input is the use case's input of b.
func (b PagesIn) Input() appknowledge.PagesInput {
	in := appknowledge.PagesInput{BusinessSummary: b.BusinessSummary, SiteURL: b.SiteURL}
	if b.Pages != nil {
		in.Pages = make([]knowledge.Page, len(b.Pages))
		for i, pg := range b.Pages {
			in.Pages[i] = knowledge.Page{URL: pg.URL, Title: pg.Title, Content: pg.Content}
		}
	}
	return in
}

// FAQIn is the body of POST /v1/knowledge/faq (the add_faq tool's arguments).
type FAQIn struct {
	Items []struct {
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"items,omitempty" jsonschema:"the questions and answers; an existing question gets the new answer"`
}

// Input is the use case's input of b.
func (b FAQIn) Input() []appknowledge.FAQInput {
	if b.Items == nil {
		return nil
	}
	in := make([]appknowledge.FAQInput, len(b.Items))
	for i, it := range b.Items {
		in[i] = appknowledge.FAQInput{Question: it.Question, Answer: it.Answer}
	}
	return in
}

// CrawlIn is the body of POST /v1/knowledge/crawl (the crawl_site tool's arguments).
type CrawlIn struct {
	URL      string `json:"url,omitempty" jsonschema:"the site's address (http or https)"`
	MaxPages *int   `json:"max_pages,omitempty" jsonschema:"the most pages to read, 1 to 30 (default 30)"`
}

// Request is the crawl b asks for, checked.
func (b CrawlIn) Request() (knowledge.CrawlRequest, error) {
	req := knowledge.CrawlRequest{URL: b.URL}
	if b.MaxPages != nil {
		req.MaxPages = *b.MaxPages
		if req.MaxPages == 0 {
			req.MaxPages = -1 // an explicit 0 is out of range, not the default
		}
	}
	return req.Checked()
}

// StoredPage is a page of the Brain, without its content.
type StoredPage struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Source    string `json:"source"`
	Chars     int    `json:"chars"`
	CreatedAt string `json:"created_at"`
}

// FAQ is an item of the FAQ.
type FAQ struct {
	ID        string `json:"id"`
	Question  string `json:"question"`
	Answer    string `json:"answer"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// KnowledgeCounts are the sizes of the Brain.
type KnowledgeCounts struct {
	Pages    int `json:"pages"`
	FAQ      int `json:"faq"`
	Services int `json:"services"`
	Chars    int `json:"chars"`
}

// Knowledge is the body of GET /v1/knowledge (the get_knowledge tool).
type Knowledge struct {
	Object          string          `json:"object"`
	Version         int64           `json:"version"`
	BusinessSummary string          `json:"business_summary"`
	SiteURL         string          `json:"site_url"`
	Pages           []StoredPage    `json:"pages"`
	FAQ             []FAQ           `json:"faq"`
	Services        []StoredPage    `json:"services"`
	Counts          KnowledgeCounts `json:"counts"`
	UpdatedAt       *string         `json:"updated_at"`
}

// KnowledgeOf is the Brain of o.
func KnowledgeOf(o appknowledge.Overview) Knowledge {
	out := Knowledge{Object: "knowledge", Version: o.State.Version, BusinessSummary: o.State.BusinessSummary,
		SiteURL: o.State.SiteURL, Pages: []StoredPage{}, FAQ: []FAQ{}, Services: []StoredPage{}}
	for _, p := range o.Pages {
		j := StoredPage{ID: p.ID, URL: p.Page.URL, Title: p.Page.Title, Source: string(p.Source), Chars: p.Chars, CreatedAt: Stamp(p.CreatedAt)}
		out.Counts.Chars += p.Chars
		if p.Source == knowledge.SourcePlugin {
			out.Services = append(out.Services, j)
			continue
		}
		out.Pages = append(out.Pages, j)
	}
	for _, f := range o.FAQ {
		out.FAQ = append(out.FAQ, FAQ{ID: f.ID, Question: f.Question, Answer: f.Answer, CreatedAt: Stamp(f.CreatedAt), UpdatedAt: Stamp(f.UpdatedAt)})
		out.Counts.Chars += len([]rune(f.Question)) + len([]rune(f.Answer))
	}
	out.Counts.Pages, out.Counts.FAQ, out.Counts.Services = len(out.Pages), len(out.FAQ), len(out.Services)
	if !o.State.UpdatedAt.IsZero() {
		s := Stamp(o.State.UpdatedAt)
		out.UpdatedAt = &s
	}
	return out
}

// Update is the body of PUT /v1/knowledge/pages (the replace_pages tool).
type Update struct {
	Object  string `json:"object"`
	Source  string `json:"source"`
	Pages   int    `json:"pages"`
	Chars   int    `json:"chars"`
	Chunks  int    `json:"chunks"`
	Version int64  `json:"version"`
}

// UpdateOf is the update u.
func UpdateOf(u appknowledge.Update) Update {
	return Update{Object: "knowledge.update", Source: string(u.Source), Pages: u.Pages, Chars: u.Chars, Chunks: u.Chunks, Version: u.Version}
}

// FAQUpdate is the body of POST /v1/knowledge/faq (the add_faq tool).
type FAQUpdate struct {
	Object  string `json:"object"`
	Source  string `json:"source"`
	Created int    `json:"created"`
	Updated int    `json:"updated"`
	Total   int    `json:"total"`
	Version int64  `json:"version"`
}

// FAQUpdateOf is the FAQ update u.
func FAQUpdateOf(u appknowledge.FAQOutcome) FAQUpdate {
	return FAQUpdate{Object: "knowledge.update", Source: string(knowledge.SourceFAQ),
		Created: u.Created, Updated: u.Updated, Total: u.Total, Version: u.Version}
}

// PageRead is a page a crawl read.
type PageRead struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Chars int    `json:"chars"`
}

// Skip is a page a crawl did not read, and why.
type Skip struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// Crawl is the body of POST /v1/knowledge/crawl (the crawl_site tool).
type Crawl struct {
	Object    string     `json:"object"`
	URL       string     `json:"url"`
	Source    string     `json:"source"`
	Pages     int        `json:"pages"`
	Chars     int        `json:"chars"`
	Chunks    int        `json:"chunks"`
	Version   int64      `json:"version"`
	PagesRead []PageRead `json:"pages_read"`
	Skipped   []Skip     `json:"skipped"`
	// How the crawl changed the Brain's pages (knowledge.PageChanges).
	Added    int `json:"added" jsonschema:"pages read that the Brain did not have"`
	Replaced int `json:"replaced" jsonschema:"pages read that the Brain had: its copy replaced by the new read"`
	Removed  int `json:"removed" jsonschema:"pages of the crawled directory that the Brain had and the crawl did not read again: removed"`
	Kept     int `json:"kept" jsonschema:"the Brain's other pages, untouched: uploaded, synced by a plugin, of other sites or directories"`
}

// CrawlOf is the crawl of url that gave out.
func CrawlOf(url string, out appknowledge.CrawlOutcome) Crawl {
	read := make([]PageRead, 0, len(out.Result.Pages))
	for _, pg := range out.Result.Pages {
		read = append(read, PageRead{URL: pg.URL, Title: pg.Title, Chars: len([]rune(pg.Content))})
	}
	skipped := make([]Skip, 0, len(out.Result.Skipped))
	for _, sk := range out.Result.Skipped {
		skipped = append(skipped, Skip(sk))
	}
	return Crawl{Object: "knowledge.crawl", URL: url, Source: string(knowledge.SourceCrawl),
		Pages: out.Pages, Chars: out.Chars, Chunks: out.Chunks, Version: out.Version,
		PagesRead: read, Skipped: skipped,
		Added: out.Changes.Added, Replaced: out.Changes.Replaced, Removed: out.Changes.Removed, Kept: out.Changes.Kept}
}
