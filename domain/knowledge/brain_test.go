package knowledge_test

import (
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
