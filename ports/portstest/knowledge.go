package portstest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/profile"
)

func testAgentProfileFields(t *testing.T, s Stores) {
	createAccounts(t, s, "acct_a")
	p := profile.Default("acct_a")
	p.BusinessName = "Padaria Lu"
	p.Languages = []string{"pt-BR", "en"}
	p.Tone = "warm"
	p.Description = "Bakery in Porto\nsince 1990"
	p.Instructions = "Answer briefly."
	p.Contact = profile.Contact{Email: "lu@example.com", Phone: "+351 1", Address: "Rua A, 1", Hours: "8-18"}
	p.Channels = profile.Channels{API: true, Web: false, Messaging: true}
	p.Appearance = profile.Appearance{Name: "Lu", AvatarURL: "https://cdn.example.com/lu.png",
		Greeting: map[string]string{"en": "Hi!", "pt-BR": "Olá!"}, Suggestions: map[string][]string{"en": {"Hours?"}}}
	p.UpdatedAt = t0
	if err := s.Profiles.Save(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	got, err := s.Profiles.Get(t.Context(), "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "profile", got, p)
}

// testProfilesConcurrentUpdates: partial changes of one profile made at once all stay, whether the
// account had a profile before or not (a lost update saves what one read before another's save).
func testProfilesConcurrentUpdates(t *testing.T, s Stores) {
	createAccounts(t, s, "acct_new", "acct_old")
	if _, err := s.Profiles.Update(t.Context(), "acct_old", func(p *profile.Profile) error { p.BusinessName = "Old"; return nil }); err != nil {
		t.Fatal(err)
	}
	changes := []func(p *profile.Profile){
		func(p *profile.Profile) { p.Description = "desc" },
		func(p *profile.Profile) { p.Instructions = "be brief" },
		func(p *profile.Profile) { p.Tone = "formal" },
		func(p *profile.Profile) { p.Contact.Email = "lu@example.com" },
		func(p *profile.Profile) { p.Contact.Phone = "+351 1" },
		func(p *profile.Profile) { p.Contact.Hours = "8-18" },
		func(p *profile.Profile) { p.Appearance.Name = "Lu" },
		func(p *profile.Profile) { p.Channels.Web = false },
	}
	for _, id := range []string{"acct_new", "acct_old"} {
		updates := make([]func() error, len(changes))
		for i, change := range changes {
			updates[i] = func() error {
				_, err := s.Profiles.Update(t.Context(), id, func(p *profile.Profile) error {
					change(p)
					time.Sleep(5 * time.Millisecond) // widen the window between the read and the save
					return nil
				})
				return err
			}
		}
		if err := concurrently(updates...); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		got, err := s.Profiles.Get(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		want := got
		for _, change := range changes {
			change(&want)
		}
		// every change is already in what was saved: applying them again changes nothing
		equal(t, id+" after concurrent updates", got, want)
		if id == "acct_old" && got.BusinessName != "Old" {
			t.Errorf("acct_old after concurrent updates: business name %q, want it kept", got.BusinessName)
		}
	}
	wantErr := errors.New("refused")
	if _, err := s.Profiles.Update(t.Context(), "acct_old", func(p *profile.Profile) error { p.BusinessName = "New"; return wantErr }); !errors.Is(err, wantErr) {
		t.Fatalf("update whose change fails: %v, want %v", err, wantErr)
	}
	if got, err := s.Profiles.Get(t.Context(), "acct_old"); err != nil || got.BusinessName != "Old" {
		t.Fatalf("after a failed change: %+v, %v; want the name kept", got, err)
	}
}

// concurrently runs every fn at once and returns their errors joined (nil when none failed).
func concurrently(fns ...func() error) error {
	var wg sync.WaitGroup
	errs := make([]error, len(fns))
	for i, fn := range fns {
		wg.Go(func() { errs[i] = fn() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// testProfileWithBrain checks Profiles.GetWithBrain against Profiles.Get and Knowledge.State: an
// account with an agent, a Brain, both or neither, and never another account's.
func testProfileWithBrain(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_both", "acct_none", "acct_brain", "acct_agent")
	for _, id := range []string{"acct_both", "acct_agent"} {
		p := profile.Default(id)
		p.BusinessName, p.Languages, p.Channels, p.UpdatedAt = "Shop "+id, []string{"en", "de"}, profile.Channels{API: true}, t0
		p.Contact = profile.Contact{Email: "a@example.com"}
		if err := s.Profiles.Save(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"acct_both", "acct_brain"} {
		summary, site := "Summary of "+id, "https://"+id+".example"
		if _, err := s.Knowledge.Replace(ctx, id, knowledge.Replacement{Source: knowledge.SourcePages, At: t0,
			BusinessSummary: &summary, SiteURL: &site}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"acct_both", "acct_none", "acct_brain", "acct_agent", "acct_unknown"} {
		wantProfile, err := s.Profiles.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wantState, err := s.Knowledge.State(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if id == "acct_both" && (!wantProfile.Configured() || wantState.Version != 1) {
			t.Fatalf("%s: profile %+v, state %+v", id, wantProfile, wantState)
		}
		gotProfile, gotState, err := s.Profiles.GetWithBrain(ctx, id)
		if err != nil {
			t.Fatalf("GetWithBrain(%s): %v", id, err)
		}
		equal(t, id+": profile", gotProfile, wantProfile)
		equal(t, id+": Brain state", gotState, wantState)
		err = s.Tx.InTx(ctx, func(ctx context.Context) error {
			gotProfile, gotState, err = s.Profiles.GetWithBrain(ctx, id)
			return err
		})
		if err != nil {
			t.Fatalf("GetWithBrain(%s) in a transaction: %v", id, err)
		}
		equal(t, id+": profile in a transaction", gotProfile, wantProfile)
		equal(t, id+": Brain state in a transaction", gotState, wantState)
	}
	p, st, err := s.Profiles.GetWithBrain(ctx, "acct_none")
	if err != nil || p.Configured() || p.AccountID != "acct_none" || st != (knowledge.State{AccountID: "acct_none"}) {
		t.Errorf("an account with neither: %+v, %+v, %v", p, st, err)
	}
}

func page(url, title, content string) knowledge.StoredPage {
	return knowledge.StoredPage{ID: "pg_" + title, Page: knowledge.Page{URL: url, Title: title, Content: content}, Chars: len(content)}
}

func chunk(pageID, text string, ord int) knowledge.StoredChunk {
	return knowledge.StoredChunk{ID: pageID + "_c" + string(rune('0'+ord)), PageID: pageID, URL: "https://x.example/" + pageID,
		Title: pageID, Text: text, Ordinal: ord, Vector: []float32{0.5, -0.25, 1e-7}}
}

func testKnowledgeReplace(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	st, err := s.Knowledge.State(ctx, "acct_a")
	if err != nil || st.Version != 0 {
		t.Fatalf("initial state %+v %v", st, err)
	}
	summary, site := "A bakery", "https://lu.example"
	first := knowledge.Replacement{Source: knowledge.SourcePages, At: t0,
		Pages:           []knowledge.StoredPage{page("https://lu.example/a", "A", "alpha"), page("", "B", "beta")},
		Chunks:          []knowledge.StoredChunk{chunk("pg_A", "alpha", 0), chunk("pg_B", "beta", 0)},
		BusinessSummary: &summary, SiteURL: &site}
	st, err = s.Knowledge.Replace(ctx, "acct_a", first)
	if err != nil || st.Version != 1 || st.BusinessSummary != summary || st.SiteURL != site {
		t.Fatalf("state after first replace %+v %v", st, err)
	}
	crawl := knowledge.Replacement{Source: knowledge.SourceCrawl, Site: "lu.example", At: t0,
		Pages:  []knowledge.StoredPage{page("https://lu.example/c", "C", "gamma")},
		Chunks: []knowledge.StoredChunk{chunk("pg_C", "gamma", 0)}}
	if _, err := s.Knowledge.Replace(ctx, "acct_a", crawl); err != nil {
		t.Fatal(err)
	}
	second := knowledge.Replacement{Source: knowledge.SourcePages, At: t0,
		Pages:  []knowledge.StoredPage{page("", "D", "delta")},
		Chunks: []knowledge.StoredChunk{chunk("pg_D", "delta one", 0), chunk("pg_D", "delta two", 1)}}
	st, err = s.Knowledge.Replace(ctx, "acct_a", second)
	if err != nil || st.Version != 3 || st.BusinessSummary != summary {
		t.Fatalf("state after second replace %+v %v (a nil summary keeps the stored one)", st, err)
	}
	pages, err := s.Knowledge.Pages(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, p := range pages {
		titles = append(titles, p.Page.Title+":"+string(p.Source))
		if p.Page.Content != "" {
			t.Fatalf("Pages returned content %q", p.Page.Content)
		}
	}
	equal(t, "pages after replace", titles, []string{"C:crawl", "D:pages"})
	chunks, err := s.Knowledge.Chunks(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range chunks {
		texts = append(texts, c.Text)
		equal(t, "vector", c.Vector, []float32{0.5, -0.25, 1e-7})
	}
	equal(t, "chunks after replace", texts, []string{"gamma", "delta one", "delta two"})
	// A re-crawl of the same site replaces that site's pages only.
	recrawl := crawl
	recrawl.Pages = []knowledge.StoredPage{page("https://lu.example/e", "E", "epsilon")}
	recrawl.Chunks = []knowledge.StoredChunk{chunk("pg_E", "epsilon", 0)}
	if _, err := s.Knowledge.Replace(ctx, "acct_a", recrawl); err != nil {
		t.Fatal(err)
	}
	if chunks, _ = s.Knowledge.Chunks(ctx, "acct_a"); len(chunks) != 3 {
		t.Fatalf("chunks after re-crawl: %d, want 3 (no duplicates)", len(chunks))
	}
}

// testKnowledgeCrawlScoped: a crawl replaces its site's crawled pages under the directory it read
// only (Replacement.Scope), whatever their scheme or "www."; the site's root replaces them all;
// concurrent crawls of one directory leave one crawl's pages.
func testKnowledgeCrawlScoped(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	var ids atomic.Int64
	crawl := func(start string, urls ...string) knowledge.Replacement {
		u, err := url.Parse(start)
		if err != nil {
			t.Fatal(err)
		}
		scope := knowledge.ScopeOf(u)
		rep := knowledge.Replacement{Source: knowledge.SourceCrawl, Site: knowledge.SiteOf(start), Scope: &scope, At: t0}
		for _, raw := range urls {
			p := page(raw, raw, "text of "+raw)
			p.ID = fmt.Sprint("pg_", ids.Add(1))
			rep.Pages = append(rep.Pages, p)
			rep.Chunks = append(rep.Chunks, chunk(p.ID, p.Page.Content, 0))
		}
		return rep
	}
	replace := func(rep knowledge.Replacement) {
		t.Helper()
		if _, err := s.Knowledge.Replace(ctx, "acct_a", rep); err != nil {
			t.Fatal(err)
		}
	}
	urls := func() []string {
		t.Helper()
		pages, err := s.Knowledge.Pages(ctx, "acct_a")
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := s.Knowledge.Chunks(ctx, "acct_a")
		if err != nil || len(chunks) != len(pages) {
			t.Fatalf("%d chunks for %d pages, %v", len(chunks), len(pages), err)
		}
		var out []string
		for _, p := range pages {
			out = append(out, p.Page.URL)
		}
		slices.Sort(out)
		return out
	}
	replace(crawl("https://lu.example/docs", "https://lu.example/docs", "https://lu.example/docs/a", "https://lu.example/docs/b"))
	replace(crawl("https://www.lu.example/blog/", "https://www.lu.example/blog/x"))
	replace(crawl("https://other.example/docs", "https://other.example/docs/a"))
	equal(t, "two directories and another site", urls(), []string{"https://lu.example/docs", "https://lu.example/docs/a",
		"https://lu.example/docs/b", "https://other.example/docs/a", "https://www.lu.example/blog/x"})
	replace(crawl("http://lu.example/docs/index.html", "http://lu.example/docs/c"))
	equal(t, "a directory crawled again", urls(), []string{"http://lu.example/docs/c", "https://other.example/docs/a",
		"https://www.lu.example/blog/x"})
	replace(crawl("https://lu.example/docsmore", "https://lu.example/docsmore/z"))
	equal(t, "a directory whose name starts another's", urls(), []string{"http://lu.example/docs/c",
		"https://lu.example/docsmore/z", "https://other.example/docs/a", "https://www.lu.example/blog/x"})
	replace(crawl("https://lu.example/", "https://lu.example/", "https://lu.example/docs/a"))
	equal(t, "the site's root", urls(), []string{"https://lu.example/", "https://lu.example/docs/a", "https://other.example/docs/a"})

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			rep := crawl("https://other.example/docs/", fmt.Sprintf("https://other.example/docs/w%d", i),
				fmt.Sprintf("https://other.example/docs/w%d/more", i))
			if _, err := s.Knowledge.Replace(ctx, "acct_a", rep); err != nil {
				t.Errorf("Replace #%d: %v", i, err)
			}
		})
	}
	wg.Wait()
	got := urls()
	if len(got) != 4 || got[0] != "https://lu.example/" || got[1] != "https://lu.example/docs/a" {
		t.Errorf("after 8 concurrent crawls of one directory: %v; want the site's 2 pages and one crawl's 2", got)
	}
}

func testKnowledgeFAQ(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	items := []knowledge.FAQItem{
		{ID: "faq_1", Question: "Do you deliver?", Normalized: "do you deliver", Answer: "Yes.", Vector: []float32{1}},
		{ID: "faq_2", Question: "Opening hours?", Normalized: "opening hours", Answer: "8 to 18."},
	}
	res, st, err := s.Knowledge.UpsertFAQ(ctx, "acct_a", items, t0)
	if err != nil || res != (knowledge.FAQUpsert{Created: 2}) || st.Version != 1 {
		t.Fatalf("first upsert %+v %+v %v", res, st, err)
	}
	update := []knowledge.FAQItem{
		{ID: "faq_3", Question: "DO YOU DELIVER??", Normalized: "do you deliver", Answer: "Yes, in Porto."},
		{ID: "faq_4", Question: "Parking?", Normalized: "parking", Answer: "No."},
	}
	res, st, err = s.Knowledge.UpsertFAQ(ctx, "acct_a", update, t0)
	if err != nil || res != (knowledge.FAQUpsert{Created: 1, Updated: 1}) || st.Version != 2 {
		t.Fatalf("second upsert %+v %+v %v", res, st, err)
	}
	got, err := s.Knowledge.FAQ(ctx, "acct_a")
	if err != nil || len(got) != 3 {
		t.Fatalf("faq %+v %v", got, err)
	}
	for _, it := range got {
		if it.Normalized == "do you deliver" && (it.ID != "faq_1" || it.Answer != "Yes, in Porto." || it.Question != "DO YOU DELIVER??") {
			t.Fatalf("updated item %+v", it)
		}
	}
}

func testKnowledgeScoped(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	rep := knowledge.Replacement{Source: knowledge.SourcePages, At: t0,
		Pages: []knowledge.StoredPage{page("", "A", "alpha")}, Chunks: []knowledge.StoredChunk{chunk("pg_A", "alpha", 0)}}
	if _, err := s.Knowledge.Replace(ctx, "acct_a", rep); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Knowledge.UpsertFAQ(ctx, "acct_a", []knowledge.FAQItem{{ID: "faq_a", Question: "Q", Normalized: "q", Answer: "A"}}, t0); err != nil {
		t.Fatal(err)
	}
	// Account B replacing its pages leaves A's alone, and sees none of A's.
	if _, err := s.Knowledge.Replace(ctx, "acct_b", knowledge.Replacement{Source: knowledge.SourcePages, At: t0}); err != nil {
		t.Fatal(err)
	}
	pages, _ := s.Knowledge.Pages(ctx, "acct_b")
	faq, _ := s.Knowledge.FAQ(ctx, "acct_b")
	chunks, _ := s.Knowledge.Chunks(ctx, "acct_b")
	if len(pages)+len(faq)+len(chunks) != 0 {
		t.Fatalf("account b sees %d pages, %d faq, %d chunks", len(pages), len(faq), len(chunks))
	}
	if pages, _ = s.Knowledge.Pages(ctx, "acct_a"); len(pages) != 1 {
		t.Fatalf("account a lost its pages: %d", len(pages))
	}
	stA, _ := s.Knowledge.State(ctx, "acct_a")
	stB, _ := s.Knowledge.State(ctx, "acct_b")
	if stA.Version != 2 || stB.Version != 1 {
		t.Fatalf("versions a %d b %d", stA.Version, stB.Version)
	}
}

// testKnowledgeFAQConcurrent upserts one question from 50 goroutines at once, each with two
// questions in opposite orders so that transactions cross: no call fails, exactly one row is
// left per question, and the creates and updates add up.
func testKnowledgeFAQConcurrent(t *testing.T, s Stores) {
	const writers = 50
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	var (
		wg      sync.WaitGroup
		start   = make(chan struct{})
		created atomic.Int32
		updated atomic.Int32
	)
	for i := range writers {
		wg.Go(func() {
			items := []knowledge.FAQItem{
				{ID: fmt.Sprintf("faq_a%02d", i), Question: "Do you deliver?", Normalized: "do you deliver", Answer: fmt.Sprintf("Yes (%d).", i)},
				{ID: fmt.Sprintf("faq_b%02d", i), Question: "Parking?", Normalized: "parking", Answer: fmt.Sprintf("No (%d).", i)},
			}
			if i%2 == 1 {
				items[0], items[1] = items[1], items[0]
			}
			<-start
			res, _, err := s.Knowledge.UpsertFAQ(ctx, "acct_a", items, t0.Add(time.Duration(i)*time.Second))
			if err != nil {
				t.Errorf("UpsertFAQ #%d: %v", i, err)
				return
			}
			created.Add(int32(res.Created))
			updated.Add(int32(res.Updated))
		})
	}
	close(start)
	wg.Wait()
	got, err := s.Knowledge.FAQ(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d FAQ rows after %d concurrent upserts of two questions, want 2: %+v", len(got), writers, got)
	}
	if c, u := created.Load(), updated.Load(); c != 2 || u != 2*writers-2 {
		t.Errorf("upserts reported %d created, %d updated; want 2 and %d", c, u, 2*writers-2)
	}
	if st, _ := s.Knowledge.State(ctx, "acct_a"); st.Version != writers {
		t.Errorf("version %d after %d upserts, want %d", st.Version, writers, writers)
	}
}

// testKnowledgeReplaceConcurrent replaces one source from several goroutines at once: the pages
// left are those of exactly one replacement, never a mix or the sum.
func testKnowledgeReplaceConcurrent(t *testing.T, s Stores) {
	const writers = 12
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			var rep knowledge.Replacement
			rep.Source, rep.At = knowledge.SourcePages, t0
			for j := range 3 {
				p := page("", fmt.Sprintf("w%02d-%d", i, j), "text")
				rep.Pages = append(rep.Pages, p)
				rep.Chunks = append(rep.Chunks, chunk(p.ID, "text", 0))
			}
			<-start
			if _, err := s.Knowledge.Replace(ctx, "acct_a", rep); err != nil {
				t.Errorf("Replace #%d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	pages, err := s.Knowledge.Pages(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := s.Knowledge.Chunks(ctx, "acct_a")
	if err != nil {
		t.Fatal(err)
	}
	writer := map[string]bool{}
	for _, p := range pages {
		writer[p.Page.Title[:3]] = true
	}
	if len(pages) != 3 || len(chunks) != 3 || len(writer) != 1 {
		t.Errorf("after %d concurrent replaces: %d pages of %d replacements, %d chunks; want the 3 pages and 3 chunks of one",
			writers, len(pages), len(writer), len(chunks))
	}
	if st, _ := s.Knowledge.State(ctx, "acct_a"); st.Version != writers {
		t.Errorf("version %d after %d replaces, want %d", st.Version, writers, writers)
	}
}

// testKnowledgeFAQDelete deletes FAQ items: another account's item is not found and left alone,
// a deleted item is gone with the version bumped, a second delete of it is not found and changes
// nothing, and of 20 concurrent deletes of one item exactly one succeeds.
func testKnowledgeFAQDelete(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	items := []knowledge.FAQItem{
		{ID: "faq_1", Question: "Do you deliver?", Normalized: "do you deliver", Answer: "Yes.", Vector: []float32{1}},
		{ID: "faq_2", Question: "Opening hours?", Normalized: "opening hours", Answer: "8 to 18."},
		{ID: "faq_3", Question: "Parking?", Normalized: "parking", Answer: "No."},
	}
	if _, _, err := s.Knowledge.UpsertFAQ(ctx, "acct_a", items, t0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Knowledge.UpsertFAQ(ctx, "acct_b", []knowledge.FAQItem{{ID: "faq_b", Question: "Q", Normalized: "q", Answer: "A"}}, t0); err != nil {
		t.Fatal(err)
	}
	version := func(acct string) int64 { return brainVersion(t, s, acct) }
	if _, _, err := s.Knowledge.DeleteFAQ(ctx, "acct_b", "faq_1", t0); !domain.IsNotFound(err) {
		t.Fatalf("B deleting A's item: %v, want not_found", err)
	}
	if v := version("acct_b"); v != 1 {
		t.Fatalf("B's version after a refused delete: %d, want 1", v)
	}
	if faq, _ := s.Knowledge.FAQ(ctx, "acct_a"); len(faq) != 3 {
		t.Fatalf("A's items after B's delete: %d, want 3", len(faq))
	}
	it, st, err := s.Knowledge.DeleteFAQ(ctx, "acct_a", "faq_1", t0.Add(time.Minute))
	if err != nil || it.ID != "faq_1" || it.Question != "Do you deliver?" || it.Answer != "Yes." || st.Version != 2 {
		t.Fatalf("delete: %+v %+v %v", it, st, err)
	}
	if st.UpdatedAt.IsZero() || !st.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("state updated at %v, want %v", st.UpdatedAt, t0.Add(time.Minute))
	}
	faq, err := s.Knowledge.FAQ(ctx, "acct_a")
	if err != nil || len(faq) != 2 || faq[0].ID != "faq_2" || faq[1].ID != "faq_3" {
		t.Fatalf("A's items after the delete: %+v %v", faq, err)
	}
	if _, _, err := s.Knowledge.DeleteFAQ(ctx, "acct_a", "faq_1", t0); !domain.IsNotFound(err) {
		t.Fatalf("second delete: %v, want not_found", err)
	}
	if v := version("acct_a"); v != 2 {
		t.Fatalf("A's version after a second delete: %d, want 2", v)
	}
	// The question can be added again once deleted.
	if res, _, err := s.Knowledge.UpsertFAQ(ctx, "acct_a", []knowledge.FAQItem{{ID: "faq_4", Question: "Do you deliver?", Normalized: "do you deliver", Answer: "Now we do."}}, t0); err != nil || res.Created != 1 {
		t.Fatalf("re-adding the question: %+v %v", res, err)
	}

	const deleters = 20
	var wg sync.WaitGroup
	var ok, missing atomic.Int32
	errs := make(chan error, deleters)
	for range deleters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.Knowledge.DeleteFAQ(ctx, "acct_a", "faq_2", t0)
			switch {
			case err == nil:
				ok.Add(1)
			case domain.IsNotFound(err):
				missing.Add(1)
			default:
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent delete: %v", err)
	}
	if ok.Load() != 1 || missing.Load() != deleters-1 {
		t.Fatalf("concurrent deletes: %d succeeded, %d not found; want 1 and %d", ok.Load(), missing.Load(), deleters-1)
	}
	if v := version("acct_a"); v != 4 {
		t.Fatalf("A's version after the concurrent deletes: %d, want 4 (one more)", v)
	}
}
