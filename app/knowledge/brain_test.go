package knowledge

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type recorder struct {
	events []map[string]any
}

func (r *recorder) Publish(_ context.Context, _ string, t event.Type, data map[string]any) (event.Event, error) {
	if t != event.KnowledgeUpdated {
		panic("unexpected event " + string(t))
	}
	r.events = append(r.events, data)
	return event.Event{}, nil
}

func (r *recorder) Prepare(context.Context, string, event.Type, map[string]any) (outbox.Message, error) {
	panic("the Brain writes its events with Publish")
}

func (r *recorder) Pending(context.Context) { panic("the Brain writes its events with Publish") }

type fixture struct {
	store    *mock.MockKnowledge
	crawler  *mock.MockCrawler
	embedder *mock.MockEmbedder
	events   *recorder
	brain    *Brain
}

func newFixture(t *testing.T) fixture {
	ctrl := gomock.NewController(t)
	tx := mock.NewMockTx(ctrl)
	tx.EXPECT().InTx(gomock.Any(), gomock.Any()).DoAndReturn(func(ctx context.Context, fn func(context.Context) error) error { return fn(ctx) }).AnyTimes()
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(now).AnyTimes()
	f := fixture{store: mock.NewMockKnowledge(ctrl), crawler: mock.NewMockCrawler(ctrl), embedder: mock.NewMockEmbedder(ctrl), events: &recorder{}}
	f.embedder.EXPECT().Embed(gomock.Any(), gomock.Any(), 0).DoAndReturn(func(_ context.Context, texts []string, _ int) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i := range texts {
			out[i] = []float32{1, 0}
		}
		return out, nil
	}).AnyTimes()
	f.brain = NewBrain(tx, f.store, f.crawler, f.embedder, nil, nil, f.events, clock)
	return f
}

func TestReplacePages(t *testing.T) {
	tests := []struct {
		name      string
		in        PagesInput
		wantField string
		wantPages int
	}{
		{name: "two pages", in: PagesInput{Pages: []knowledge.Page{{Title: "Hours", Content: "We open at 8."}, {URL: "https://lu.example/menu", Title: "Menu", Content: "Bread and cakes."}}}, wantPages: 2},
		{name: "empty list clears", in: PagesInput{Pages: []knowledge.Page{}}, wantPages: 0},
		{name: "missing pages", in: PagesInput{}, wantField: "pages"},
		{name: "page without content", in: PagesInput{Pages: []knowledge.Page{{Title: "x"}}}, wantField: "pages[0].content"},
		{name: "bad url", in: PagesInput{Pages: []knowledge.Page{{URL: "ftp://x", Content: "y"}}}, wantField: "pages[0].url"},
		{name: "bad site url", in: PagesInput{Pages: []knowledge.Page{}, SiteURL: ptr("lu.example")}, wantField: "site_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.wantField == "" {
				f.store.EXPECT().Replace(gomock.Any(), "acct_1", gomock.Any()).DoAndReturn(
					func(_ context.Context, _ string, r knowledge.Replacement) (knowledge.State, error) {
						if r.Source != knowledge.SourcePages || len(r.Pages) != tt.wantPages || r.Site != "" {
							t.Fatalf("replacement %+v", r)
						}
						for _, c := range r.Chunks {
							if c.Vector == nil || !strings.HasPrefix(c.ID, "chk_") || !strings.HasPrefix(c.PageID, "pg_") {
								t.Fatalf("chunk %+v", c)
							}
						}
						return knowledge.State{Version: 4}, nil
					})
			}
			up, err := f.brain.ReplacePages(context.Background(), "acct_1", tt.in)
			if tt.wantField != "" {
				if e, ok := domain.AsError(err); !ok || e.Field != tt.wantField {
					t.Fatalf("err %v, want field %q", err, tt.wantField)
				}
				if len(f.events.events) != 0 {
					t.Fatal("an event was written for a refused change")
				}
				return
			}
			if err != nil || up.Pages != tt.wantPages || up.Version != 4 {
				t.Fatalf("update %+v %v", up, err)
			}
			if len(f.events.events) != 1 || f.events.events[0]["source"] != "pages" || f.events.events[0]["pages"] != tt.wantPages {
				t.Fatalf("events %v", f.events.events)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestUpsertFAQ(t *testing.T) {
	t.Run("deduplicates by normalised question, last answer wins", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().UpsertFAQ(gomock.Any(), "acct_1", gomock.Any(), now).DoAndReturn(
			func(_ context.Context, _ string, items []knowledge.FAQItem, _ time.Time) (knowledge.FAQUpsert, knowledge.State, error) {
				if len(items) != 2 || items[0].Answer != "Yes, in Porto." || items[0].Normalized != knowledge.NormalizeQuestion("Do you deliver?") {
					t.Fatalf("items %+v", items)
				}
				return knowledge.FAQUpsert{Created: 2}, knowledge.State{Version: 1}, nil
			})
		f.store.EXPECT().FAQ(gomock.Any(), "acct_1").Return(make([]knowledge.FAQItem, 2), nil)
		out, err := f.brain.UpsertFAQ(context.Background(), "acct_1", []FAQInput{
			{Question: "Do you deliver?", Answer: "Yes."}, {Question: "Hours?", Answer: "8-18"}, {Question: "do you DELIVER", Answer: "Yes, in Porto."}})
		if err != nil || out.Created != 2 || out.Total != 2 {
			t.Fatalf("%+v %v", out, err)
		}
		if f.events.events[0]["source"] != "faq" {
			t.Fatalf("events %v", f.events.events)
		}
	})
	for _, tt := range []struct {
		name  string
		in    []FAQInput
		field string
	}{
		{"nil", nil, "items"},
		{"empty", []FAQInput{}, "items"},
		{"101 items", make([]FAQInput, 101), "items"},
		{"no answer", []FAQInput{{Question: "Q?"}}, "items[0].answer"},
		{"no question", []FAQInput{{Question: "ok", Answer: "a"}, {Answer: "A"}}, "items[1].question"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			_, err := f.brain.UpsertFAQ(context.Background(), "acct_1", tt.in)
			if e, ok := domain.AsError(err); !ok || e.Field != tt.field {
				t.Fatalf("err %v, want field %q", err, tt.field)
			}
		})
	}
}

func TestCrawl(t *testing.T) {
	tests := []struct {
		name     string
		req      knowledge.CrawlRequest
		result   *knowledge.CrawlResult
		crawlErr error
		want     domain.Code
		field    string
		maxPages int
		cancel   bool // the caller cancels while the crawler reads
	}{
		{name: "no url", req: knowledge.CrawlRequest{}, want: domain.CodeInvalidRequest, field: "url"},
		{name: "not http", req: knowledge.CrawlRequest{URL: "file:///etc/passwd"}, want: domain.CodeInvalidRequest, field: "url"},
		{name: "too many pages", req: knowledge.CrawlRequest{URL: "https://lu.example", MaxPages: 31}, want: domain.CodeInvalidRequest, field: "max_pages"},
		{name: "crawler fails: nothing stored", req: knowledge.CrawlRequest{URL: "https://lu.example"}, maxPages: 30,
			crawlErr: domain.Errorf(domain.CodeCrawlFailed, "no readable text"), want: domain.CodeCrawlFailed},
		{name: "no page read", req: knowledge.CrawlRequest{URL: "https://lu.example"}, maxPages: 30,
			result: &knowledge.CrawlResult{Skipped: []knowledge.Skip{{URL: "https://lu.example/", Reason: "no text"}}}, want: domain.CodeCrawlFailed},
		{name: "pages read replace the site's", req: knowledge.CrawlRequest{URL: "https://www.lu.example/docs/", MaxPages: 3}, maxPages: 3,
			result: &knowledge.CrawlResult{Pages: []knowledge.Page{{URL: "https://www.lu.example/docs/", Title: "Docs", Content: "Our bread is baked daily."}}}},
		{name: "cancelled with pages read: nothing stored", req: knowledge.CrawlRequest{URL: "https://lu.example"}, maxPages: 30, cancel: true,
			result: &knowledge.CrawlResult{Pages: []knowledge.Page{{URL: "https://lu.example/", Title: "Home", Content: "Our bread is baked daily."}}},
			want:   domain.CodeCrawlFailed},
		{name: "cancelled, the crawler says so: nothing stored", req: knowledge.CrawlRequest{URL: "https://lu.example"}, maxPages: 30, cancel: true,
			crawlErr: context.Canceled, want: domain.CodeCrawlFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.maxPages > 0 {
				f.crawler.EXPECT().Crawl(gomock.Any(), knowledge.CrawlRequest{URL: tt.req.URL, MaxPages: tt.maxPages}).DoAndReturn(
					func(context.Context, knowledge.CrawlRequest) (knowledge.CrawlResult, error) {
						if tt.cancel {
							cancel()
						}
						if tt.result == nil {
							return knowledge.CrawlResult{}, tt.crawlErr
						}
						return *tt.result, nil
					})
			}
			if tt.want == "" {
				f.store.EXPECT().Pages(gomock.Any(), "acct_1").Return(nil, nil)
				f.store.EXPECT().Replace(gomock.Any(), "acct_1", gomock.Any()).DoAndReturn(
					func(_ context.Context, _ string, r knowledge.Replacement) (knowledge.State, error) {
						if r.Source != knowledge.SourceCrawl || r.Site != "lu.example" || len(r.Pages) != 1 ||
							r.Scope == nil || *r.Scope != (knowledge.Scope{Site: "lu.example", Dir: "/docs/"}) {
							t.Fatalf("replacement %+v", r)
						}
						return knowledge.State{Version: 2}, nil
					})
			}
			out, err := f.brain.Crawl(ctx, "acct_1", tt.req)
			if got := domain.ErrorCode(err); got != tt.want {
				t.Fatalf("code %q, want %q (%v)", got, tt.want, err)
			}
			if e, ok := domain.AsError(err); ok && e.Field != tt.field {
				t.Fatalf("field %q, want %q", e.Field, tt.field)
			}
			if tt.want == "" && (out.Pages != 1 || out.Version != 2 || len(f.events.events) != 1 || out.Changes != (knowledge.PageChanges{Added: 1})) {
				t.Fatalf("outcome %+v events %v", out, f.events.events)
			}
		})
	}
}

// TestCrawlChanges: a crawl's outcome counts, against the Brain's pages, the pages it added,
// replaced and removed in the directory it read, and the other pages it kept.
func TestCrawlChanges(t *testing.T) {
	f := newFixture(t)
	stored := func(source knowledge.Source, site, url string) knowledge.StoredPage {
		return knowledge.StoredPage{Source: source, Site: site, Page: knowledge.Page{URL: url}}
	}
	f.store.EXPECT().Pages(gomock.Any(), "acct_1").Return([]knowledge.StoredPage{
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/docs/"),           // read again (scheme and www aside)
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/docs/a?x=1"),      // read again
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/docs/gone"),       // not read again: removed
		stored(knowledge.SourceCrawl, "lu.example", "https://lu.example/blog/"),           // another directory: kept
		stored(knowledge.SourceCrawl, "other.example", "https://other.example/docs/"),     // another site: kept
		stored(knowledge.SourcePages, "", "https://lu.example/docs/new"),                  // uploaded: kept
		stored(knowledge.SourcePlugin, "shop.example", "https://shop.example/docs/bread"), // synced: kept
	}, nil)
	f.crawler.EXPECT().Crawl(gomock.Any(), gomock.Any()).Return(knowledge.CrawlResult{Pages: []knowledge.Page{
		{URL: "http://www.lu.example/docs/", Title: "Docs", Content: "Our bread is baked daily."},
		{URL: "https://lu.example/docs/a?x=1#top", Title: "A", Content: "Rye on Saturdays."},
		{URL: "https://lu.example/docs/a?x=2", Title: "A2", Content: "Croissants on Sundays."},
		{URL: "https://lu.example/docs/new", Title: "New", Content: "We deliver before nine."},
	}}, nil)
	f.store.EXPECT().Replace(gomock.Any(), "acct_1", gomock.Any()).Return(knowledge.State{Version: 3}, nil)
	out, err := f.brain.Crawl(context.Background(), "acct_1", knowledge.CrawlRequest{URL: "https://www.lu.example/docs/", MaxPages: 10})
	if err != nil {
		t.Fatal(err)
	}
	if want := (knowledge.PageChanges{Added: 2, Replaced: 2, Removed: 1, Kept: 4}); out.Changes != want {
		t.Errorf("changes %+v, want %+v", out.Changes, want)
	}
}

func TestSearchCachesByVersion(t *testing.T) {
	f := newFixture(t)
	chunks := []knowledge.StoredChunk{{ID: "c1", URL: "https://lu.example/hours", Title: "Hours", Text: "We open every day at 8 in the morning.", Vector: []float32{1, 0}}}
	gomock.InOrder(
		f.store.EXPECT().State(gomock.Any(), "acct_1").Return(knowledge.State{Version: 1}, nil),
		f.store.EXPECT().Chunks(gomock.Any(), "acct_1").Return(chunks, nil),
		f.store.EXPECT().FAQ(gomock.Any(), "acct_1").Return(nil, nil),
		f.store.EXPECT().State(gomock.Any(), "acct_1").Return(knowledge.State{Version: 1}, nil), // cached: no reload
		f.store.EXPECT().State(gomock.Any(), "acct_1").Return(knowledge.State{Version: 2}, nil), // changed elsewhere: reload
		f.store.EXPECT().Chunks(gomock.Any(), "acct_1").Return(nil, nil),
		f.store.EXPECT().FAQ(gomock.Any(), "acct_1").Return([]knowledge.FAQItem{{ID: "f1", Question: "When do you open?", Answer: "At 8."}}, nil),
	)
	for i, want := range []string{"c1", "c1", "f1"} {
		hits, err := f.brain.Search(context.Background(), "acct_1", "when do you open", 3)
		if err != nil || len(hits) == 0 {
			t.Fatalf("search %d: %v %v", i, hits, err)
		}
		got := hits[0].Chunk.ID
		if hits[0].Kind == knowledge.KindFAQ {
			got = hits[0].FAQ.ID
		}
		if got != want {
			t.Fatalf("search %d: top hit %q, want %q", i, got, want)
		}
	}
}

func TestRemoveFAQ(t *testing.T) {
	t.Run("deletes the account's item and writes knowledge.updated", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().DeleteFAQ(gomock.Any(), "acct_1", "faq_1", now).
			Return(knowledge.FAQItem{ID: "faq_1", Question: "Q?", Answer: "A."}, knowledge.State{Version: 3}, nil)
		it, err := f.brain.RemoveFAQ(context.Background(), "acct_1", "faq_1")
		if err != nil || it.ID != "faq_1" {
			t.Fatalf("%+v %v", it, err)
		}
		if len(f.events.events) != 1 || f.events.events[0]["source"] != "faq" || f.events.events[0]["pages"] != 1 || f.events.events[0]["chars"] != 0 {
			t.Fatalf("events %v", f.events.events)
		}
	})
	t.Run("another account's or an unknown item is not found, without an event", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().DeleteFAQ(gomock.Any(), "acct_1", "faq_other", now).Return(knowledge.FAQItem{}, knowledge.State{}, domain.NotFound("FAQ item"))
		if _, err := f.brain.RemoveFAQ(context.Background(), "acct_1", "faq_other"); !domain.IsNotFound(err) {
			t.Fatalf("err %v, want not_found", err)
		}
		if len(f.events.events) != 0 {
			t.Fatalf("events %v", f.events.events)
		}
	})
	for _, id := range []string{"", "faq\x00", "faq 1", "\xff", strings.Repeat("f", 101)} {
		t.Run("id that names nothing "+strconv.Quote(id[:min(len(id), 8)]), func(t *testing.T) {
			f := newFixture(t) // the store is not asked
			if _, err := f.brain.RemoveFAQ(context.Background(), "acct_1", id); !domain.IsNotFound(err) {
				t.Fatalf("err %v, want not_found", err)
			}
		})
	}
}

func TestAddPage(t *testing.T) {
	t.Run("adds one page of source pages with its chunks and writes knowledge.updated", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().AddPage(gomock.Any(), "acct_1", gomock.Any(), gomock.Any(), knowledge.MaxPages, now, gomock.Any()).DoAndReturn(
			func(_ context.Context, _ string, p knowledge.StoredPage, chunks []knowledge.StoredChunk, _ int, _ time.Time, _ func(context.Context) error) (knowledge.State, int, error) {
				if p.Source != knowledge.SourcePages || p.Site != "" || !strings.HasPrefix(p.ID, "pg_") || p.Page.Content != "We open at 8." ||
					p.Page.URL != "https://lu.example/hours" || p.Chars != len("We open at 8.") {
					t.Fatalf("page %+v", p)
				}
				if len(chunks) == 0 {
					t.Fatal("no chunks")
				}
				for _, c := range chunks {
					if c.PageID != p.ID || c.Vector == nil || c.Source != knowledge.SourcePages {
						t.Fatalf("chunk %+v", c)
					}
				}
				return knowledge.State{Version: 7}, 1, nil
			})
		up, err := f.brain.AddPage(context.Background(), "acct_1", knowledge.Page{URL: "https://lu.example/hours", Title: "Hours", Content: "  We open at 8.\n"}, nil)
		if err != nil || up.Pages != 1 || up.Version != 7 || up.Chars != len("We open at 8.") || up.Chunks == 0 || up.Source != knowledge.SourcePages {
			t.Fatalf("update %+v %v", up, err)
		}
		if len(f.events.events) != 1 || f.events.events[0]["source"] != "pages" || f.events.events[0]["pages"] != 1 || f.events.events[0]["chars"] != len("We open at 8.") {
			t.Fatalf("events %v", f.events.events)
		}
	})
	for _, tt := range []struct {
		name  string
		page  knowledge.Page
		field string
	}{
		{"no text", knowledge.Page{Title: "x", Content: " \n"}, "pages[0].content"},
		{"text too long", knowledge.Page{Content: strings.Repeat("a", knowledge.MaxPageContent+1)}, "pages[0].content"},
		{"title too long", knowledge.Page{Title: strings.Repeat("t", knowledge.MaxTitle+1), Content: "y"}, "pages[0].title"},
		{"bad address", knowledge.Page{URL: "ftp://x", Content: "y"}, "pages[0].url"},
	} {
		t.Run("refuses "+tt.name, func(t *testing.T) {
			f := newFixture(t) // neither the store nor the embedder is asked
			_, err := f.brain.AddPage(context.Background(), "acct_1", tt.page, nil)
			if e, ok := domain.AsError(err); !ok || e.Field != tt.field {
				t.Fatalf("err %v, want field %q", err, tt.field)
			}
			if len(f.events.events) != 0 {
				t.Fatal("an event was written for a refused page")
			}
		})
	}
	t.Run("the store's refusal (too many pages) writes no event", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().AddPage(gomock.Any(), "acct_1", gomock.Any(), gomock.Any(), knowledge.MaxPages, now, gomock.Any()).
			Return(knowledge.State{}, 0, domain.Invalid("pages", "at most 500 uploaded pages"))
		_, err := f.brain.AddPage(context.Background(), "acct_1", knowledge.Page{Title: "x", Content: "y"}, nil)
		if e, ok := domain.AsError(err); !ok || e.Field != "pages" {
			t.Fatalf("err %v, want field pages", err)
		}
		if len(f.events.events) != 0 {
			t.Fatalf("events %v", f.events.events)
		}
	})
}

func TestRemovePage(t *testing.T) {
	t.Run("deletes the account's uploaded page and writes knowledge.updated", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().DeletePage(gomock.Any(), "acct_1", "pg_1", now).
			Return(knowledge.StoredPage{ID: "pg_1", Source: knowledge.SourcePages}, knowledge.State{Version: 3}, nil)
		p, err := f.brain.RemovePage(context.Background(), "acct_1", "pg_1")
		if err != nil || p.ID != "pg_1" {
			t.Fatalf("%+v %v", p, err)
		}
		if len(f.events.events) != 1 || f.events.events[0]["source"] != "pages" || f.events.events[0]["pages"] != 1 || f.events.events[0]["chars"] != 0 {
			t.Fatalf("events %v", f.events.events)
		}
	})
	t.Run("another account's, a crawled or an unknown page is not found, without an event", func(t *testing.T) {
		f := newFixture(t)
		f.store.EXPECT().DeletePage(gomock.Any(), "acct_1", "pg_crawled", now).Return(knowledge.StoredPage{}, knowledge.State{}, domain.NotFound("page"))
		if _, err := f.brain.RemovePage(context.Background(), "acct_1", "pg_crawled"); !domain.IsNotFound(err) {
			t.Fatalf("err %v, want not_found", err)
		}
		if len(f.events.events) != 0 {
			t.Fatalf("events %v", f.events.events)
		}
	})
	for _, id := range []string{"", "pg\x00", "pg 1", "\xff", strings.Repeat("p", 101)} {
		t.Run("id that names nothing "+strconv.Quote(id[:min(len(id), 8)]), func(t *testing.T) {
			f := newFixture(t) // the store is not asked
			if _, err := f.brain.RemovePage(context.Background(), "acct_1", id); !domain.IsNotFound(err) {
				t.Fatalf("err %v, want not_found", err)
			}
		})
	}
}
