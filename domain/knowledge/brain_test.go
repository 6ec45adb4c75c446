package knowledge_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
)

func TestValidatePages(t *testing.T) {
	page := func(url string) knowledge.Page { return knowledge.Page{URL: url, Title: "T", Content: "Text."} }
	tests := []struct {
		name      string
		pages     []knowledge.Page
		wantField string // "" when valid
	}{
		{"none", []knowledge.Page{}, ""},
		{"missing", nil, "pages"},
		{"distinct urls and pages without one", []knowledge.Page{page("https://lu.example/a"), page(""), page("https://lu.example/b"), page("")}, ""},
		{"blank content", []knowledge.Page{{URL: "https://lu.example/a", Content: " \n"}}, "pages[0].content"},
		{"invisible content", []knowledge.Page{{URL: "https://lu.example/a", Content: "\u200b\u2060\ufeff"}}, "pages[0].content"},
		{"too long content", []knowledge.Page{{Content: strings.Repeat("x", knowledge.MaxPageContent+1)}}, "pages[0].content"},
		{"too long title", []knowledge.Page{{Title: strings.Repeat("x", knowledge.MaxTitle+1), Content: "x"}}, "pages[0].title"},
		{"not a web url", []knowledge.Page{page("https://lu.example/a"), page("ftp://lu.example/b")}, "pages[1].url"},
		{"relative url", []knowledge.Page{page("/about")}, "pages[0].url"},
		{"same url twice", []knowledge.Page{page("https://lu.example/a"), page("https://lu.example/b"), page("https://lu.example/a")}, "pages[2].url"},
		{"urls differing in path case", []knowledge.Page{page("https://lu.example/a"), page("https://lu.example/A")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := knowledge.ValidatePages(tt.pages)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("ValidatePages: %v; want nil", err)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.wantField {
				t.Fatalf("ValidatePages: %v; want invalid_request naming %q", err, tt.wantField)
			}
		})
	}
}

// TestValidateFAQ: a question must hold a word, since items are matched on its words
// (NormalizeQuestion): "???" and "!!!" would be one item, each replacing the other.
func TestValidateFAQ(t *testing.T) {
	item := func(q string) knowledge.FAQItem { return knowledge.FAQItem{Question: q, Answer: "Yes."} }
	tests := []struct {
		name      string
		items     []knowledge.FAQItem
		wantField string // "" when valid
	}{
		{"words", []knowledge.FAQItem{item("Open on Sunday?"), item("¿Abren el domingo?"), item("24/7?"), item("営業時間は？")}, ""},
		{"missing", nil, "items"},
		{"blank question", []knowledge.FAQItem{item(" ")}, "items[0].question"},
		{"punctuation only", []knowledge.FAQItem{item("Open?"), item("???")}, "items[1].question"},
		{"an emoji only", []knowledge.FAQItem{item("🍕")}, "items[0].question"},
		{"a zero-width space only", []knowledge.FAQItem{item("\u200b")}, "items[0].question"},
		{"blank answer", []knowledge.FAQItem{{Question: "Open?", Answer: " "}}, "items[0].answer"},
		{"invisible answer", []knowledge.FAQItem{{Question: "Open?", Answer: "\u200b\u200b"}}, "items[0].answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := knowledge.ValidateFAQ(tt.items)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("ValidateFAQ: %v; want nil", err)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.wantField {
				t.Fatalf("ValidateFAQ: %v; want invalid_request naming %q", err, tt.wantField)
			}
		})
	}
}

func TestCrawlRequestChecked(t *testing.T) {
	tests := []struct {
		in        knowledge.CrawlRequest
		wantPages int
		param     string
	}{
		{knowledge.CrawlRequest{URL: "https://shop.example/"}, knowledge.MaxCrawlPages, ""},
		{knowledge.CrawlRequest{URL: "https://shop.example/docs", MaxPages: 5}, 5, ""},
		{knowledge.CrawlRequest{URL: "https://shop.example/", MaxPages: knowledge.MaxCrawlPages}, knowledge.MaxCrawlPages, ""},
		{knowledge.CrawlRequest{URL: ""}, 0, "url"},
		{knowledge.CrawlRequest{URL: "   "}, 0, "url"},
		{knowledge.CrawlRequest{URL: "ftp://shop.example/"}, 0, "url"},
		{knowledge.CrawlRequest{URL: "shop.example"}, 0, "url"},
		{knowledge.CrawlRequest{URL: "https://shop.example/", MaxPages: -1}, 0, "max_pages"},
		{knowledge.CrawlRequest{URL: "https://shop.example/", MaxPages: knowledge.MaxCrawlPages + 1}, 0, "max_pages"},
	}
	for _, tt := range tests {
		got, err := tt.in.Checked()
		if tt.param == "" {
			if err != nil || got.MaxPages != tt.wantPages || got.URL != tt.in.URL {
				t.Errorf("%+v.Checked() = %+v, %v; want max_pages %d", tt.in, got, err, tt.wantPages)
			}
			continue
		}
		e, ok := domain.AsError(err)
		if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.param {
			t.Errorf("%+v.Checked() error %v, want invalid_request on %s", tt.in, err, tt.param)
		}
	}
}

func TestReplacementChanges(t *testing.T) {
	stored := func(source knowledge.Source, site, url string) knowledge.StoredPage {
		return knowledge.StoredPage{Source: source, Site: site, Page: knowledge.Page{URL: url}}
	}
	before := []knowledge.StoredPage{
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/docs/"),
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/docs/gone"),
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/blog/"),
		stored(knowledge.SourceCrawl, "other.example", "https://other.example/docs/"),
		stored(knowledge.SourcePages, "", "https://lu.example/docs/new"),
	}
	read := []knowledge.StoredPage{
		{Page: knowledge.Page{URL: "http://www.lu.example/docs/#top"}}, // the same page: scheme, www and fragment aside
		{Page: knowledge.Page{URL: "https://lu.example/docs/new"}},     // the uploaded copy is another source's
	}
	start, _ := url.Parse("https://lu.example/docs/")
	docs := knowledge.ScopeOf(start)
	tests := []struct {
		name string
		rep  knowledge.Replacement
		want knowledge.PageChanges
	}{
		{"a directory of the site", knowledge.Replacement{Source: knowledge.SourceCrawl, Site: "lu.example", Scope: &docs, Pages: read},
			knowledge.PageChanges{Added: 1, Replaced: 1, Removed: 1, Kept: 3}},
		{"the whole site", knowledge.Replacement{Source: knowledge.SourceCrawl, Site: "lu.example", Pages: read},
			knowledge.PageChanges{Added: 1, Replaced: 1, Removed: 2, Kept: 2}},
		{"nothing read", knowledge.Replacement{Source: knowledge.SourceCrawl, Site: "lu.example", Scope: &docs},
			knowledge.PageChanges{Removed: 2, Kept: 3}},
	}
	for _, tt := range tests {
		if got := tt.rep.Changes(before); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
