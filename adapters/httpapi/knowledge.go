package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	appknowledge "github.com/svcagent/svc/app/knowledge"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ratelimit"
)

// GET /v1/knowledge, PUT /v1/knowledge/pages, POST /v1/knowledge/faq, POST /v1/knowledge/crawl

// pagesIn is the body of PUT /v1/knowledge/pages.
type pagesIn struct {
	Pages           []pageJSON `json:"pages"`
	BusinessSummary *string    `json:"business_summary"`
	SiteURL         *string    `json:"site_url"`
}

// faqIn is the body of POST /v1/knowledge/faq.
type faqIn struct {
	Items []struct {
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"items"`
}

// crawlIn is the body of POST /v1/knowledge/crawl.
type crawlIn struct {
	URL      string `json:"url"`
	MaxPages *int   `json:"max_pages"`
}

type pageJSON struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Content string `json:"content"`
}

type storedPageJSON struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Source    string `json:"source"`
	Chars     int    `json:"chars"`
	CreatedAt string `json:"created_at"`
}

type faqJSON struct {
	ID        string `json:"id"`
	Question  string `json:"question"`
	Answer    string `json:"answer"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

type knowledgeCounts struct {
	Pages    int `json:"pages"`
	FAQ      int `json:"faq"`
	Services int `json:"services"`
	Chars    int `json:"chars"`
}

type knowledgeJSON struct {
	Object          string           `json:"object"`
	Version         int64            `json:"version"`
	BusinessSummary string           `json:"business_summary"`
	SiteURL         string           `json:"site_url"`
	Pages           []storedPageJSON `json:"pages"`
	FAQ             []faqJSON        `json:"faq"`
	Services        []storedPageJSON `json:"services"`
	Counts          knowledgeCounts  `json:"counts"`
	UpdatedAt       *string          `json:"updated_at"`
}

func knowledgeOf(o appknowledge.Overview) knowledgeJSON {
	out := knowledgeJSON{Object: "knowledge", Version: o.State.Version, BusinessSummary: o.State.BusinessSummary,
		SiteURL: o.State.SiteURL, Pages: []storedPageJSON{}, FAQ: []faqJSON{}, Services: []storedPageJSON{}}
	for _, p := range o.Pages {
		j := storedPageJSON{ID: p.ID, URL: p.Page.URL, Title: p.Page.Title, Source: string(p.Source), Chars: p.Chars, CreatedAt: stamp(p.CreatedAt)}
		out.Counts.Chars += p.Chars
		if p.Source == knowledge.SourcePlugin {
			out.Services = append(out.Services, j)
			continue
		}
		out.Pages = append(out.Pages, j)
	}
	for _, f := range o.FAQ {
		out.FAQ = append(out.FAQ, faqJSON{ID: f.ID, Question: f.Question, Answer: f.Answer, CreatedAt: stamp(f.CreatedAt), UpdatedAt: stamp(f.UpdatedAt)})
		out.Counts.Chars += len([]rune(f.Question)) + len([]rune(f.Answer))
	}
	out.Counts.Pages, out.Counts.FAQ, out.Counts.Services = len(out.Pages), len(out.FAQ), len(out.Services)
	if !o.State.UpdatedAt.IsZero() {
		s := stamp(o.State.UpdatedAt)
		out.UpdatedAt = &s
	}
	return out
}

type updateJSON struct {
	Object  string `json:"object"`
	Source  string `json:"source"`
	Pages   int    `json:"pages"`
	Chars   int    `json:"chars"`
	Chunks  int    `json:"chunks"`
	Version int64  `json:"version"`
}

func updateOf(u appknowledge.Update) updateJSON {
	return updateJSON{Object: "knowledge.update", Source: string(u.Source), Pages: u.Pages, Chars: u.Chars, Chunks: u.Chunks, Version: u.Version}
}

func (s *Server) getKnowledge(c *gin.Context) {
	p, _ := principal(c)
	o, err := s.uc.Brain.Overview(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, knowledgeOf(o))
}

func (s *Server) putPages(c *gin.Context) {
	p, _ := principal(c)
	var body pagesIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	in := appknowledge.PagesInput{BusinessSummary: body.BusinessSummary, SiteURL: body.SiteURL}
	if body.Pages != nil {
		in.Pages = make([]knowledge.Page, len(body.Pages))
		for i, pg := range body.Pages {
			in.Pages[i] = knowledge.Page{URL: pg.URL, Title: pg.Title, Content: pg.Content}
		}
	}
	// The hourly allowance counts valid uploads only: a rejected one must not use it up.
	if err := in.Validate(); err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.ID, ratelimit.PageUploads) {
		return
	}
	up, err := s.uc.Brain.ReplacePages(c.Request.Context(), p.Account.ID, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, updateOf(up))
}

type faqUpdateJSON struct {
	Object  string `json:"object"`
	Source  string `json:"source"`
	Created int    `json:"created"`
	Updated int    `json:"updated"`
	Total   int    `json:"total"`
	Version int64  `json:"version"`
}

func (s *Server) postFAQ(c *gin.Context) {
	p, _ := principal(c)
	var body faqIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	var in []appknowledge.FAQInput
	if body.Items != nil {
		in = make([]appknowledge.FAQInput, len(body.Items))
		for i, it := range body.Items {
			in[i] = appknowledge.FAQInput{Question: it.Question, Answer: it.Answer}
		}
	}
	out, err := s.uc.Brain.UpsertFAQ(c.Request.Context(), p.Account.ID, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, faqUpdateJSON{Object: "knowledge.update", Source: string(knowledge.SourceFAQ),
		Created: out.Created, Updated: out.Updated, Total: out.Total, Version: out.Version})
}

type pageReadJSON struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Chars int    `json:"chars"`
}

type skipJSON struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

type crawlJSON struct {
	Object    string         `json:"object"`
	URL       string         `json:"url"`
	Source    string         `json:"source"`
	Pages     int            `json:"pages"`
	Chars     int            `json:"chars"`
	Chunks    int            `json:"chunks"`
	Version   int64          `json:"version"`
	PagesRead []pageReadJSON `json:"pages_read"`
	Skipped   []skipJSON     `json:"skipped"`
}

func (s *Server) postCrawl(c *gin.Context) {
	p, _ := principal(c)
	var body crawlIn
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	req := knowledge.CrawlRequest{URL: body.URL}
	if body.MaxPages != nil {
		req.MaxPages = *body.MaxPages
		if req.MaxPages == 0 {
			req.MaxPages = -1 // an explicit 0 is out of range, not the default
		}
	}
	// The hourly allowance counts valid crawls only: a rejected one must not use it up.
	req, err := req.Checked()
	if err != nil {
		s.fail(c, err)
		return
	}
	if !s.limit(c, p.Account.ID, ratelimit.Crawls) {
		return
	}
	out, err := s.uc.Brain.Crawl(c.Request.Context(), p.Account.ID, req)
	if err != nil {
		s.fail(c, err)
		return
	}
	read := make([]pageReadJSON, 0, len(out.Result.Pages))
	for _, pg := range out.Result.Pages {
		read = append(read, pageReadJSON{URL: pg.URL, Title: pg.Title, Chars: len([]rune(pg.Content))})
	}
	skipped := make([]skipJSON, 0, len(out.Result.Skipped))
	for _, sk := range out.Result.Skipped {
		skipped = append(skipped, skipJSON(sk))
	}
	c.JSON(http.StatusOK, crawlJSON{Object: "knowledge.crawl", URL: body.URL, Source: string(knowledge.SourceCrawl),
		Pages: out.Pages, Chars: out.Chars, Chunks: out.Chunks, Version: out.Version,
		PagesRead: read, Skipped: skipped})
}
