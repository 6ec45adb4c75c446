package portstest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
)

// uploaded returns a page of source pages with id, for Knowledge.AddPage.
func uploaded(id, url, title, content string) knowledge.StoredPage {
	p := page(url, title, content)
	p.ID, p.Source = id, knowledge.SourcePages
	return p
}

// pageKeys lists the account's pages as "title:source:url", in order.
func pageKeys(t *testing.T, s Stores, acct string) []string {
	t.Helper()
	pages, err := s.Knowledge.Pages(t.Context(), acct)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pages {
		out = append(out, p.Page.Title+":"+string(p.Source)+":"+p.Page.URL)
	}
	return out
}

// brainVersion returns the account's Brain version.
func brainVersion(t *testing.T, s Stores, acct string) int64 {
	t.Helper()
	st, err := s.Knowledge.State(t.Context(), acct)
	if err != nil {
		t.Fatal(err)
	}
	return st.Version
}

// chunkPages lists the page ids of the account's chunks, in order.
func chunkPages(t *testing.T, s Stores, acct string) []string {
	t.Helper()
	chunks, err := s.Knowledge.Chunks(t.Context(), acct)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range chunks {
		out = append(out, c.PageID)
	}
	return out
}

// testKnowledgeAddPage: AddPage keeps the other uploaded pages and replaces only the uploaded page
// of the same address (or, without one, of the same title), never a crawled page or another
// account's; above the limit it refuses and changes nothing. DeletePage deletes one uploaded page
// of the account with its chunks, and no crawled page.
func testKnowledgeAddPage(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b")
	if _, err := s.Knowledge.Replace(ctx, "acct_a", knowledge.Replacement{Source: knowledge.SourcePages, At: t0,
		Pages:  []knowledge.StoredPage{page("https://lu.example/a", "A", "alpha"), page("", "B", "beta")},
		Chunks: []knowledge.StoredChunk{chunk("pg_A", "alpha", 0), chunk("pg_B", "beta", 0)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Knowledge.Replace(ctx, "acct_a", knowledge.Replacement{Source: knowledge.SourceCrawl, Site: "lu.example", At: t0.Add(time.Second),
		Pages:  []knowledge.StoredPage{page("https://lu.example/a", "C", "gamma"), page("", "B2", "crawled, titled as an upload")},
		Chunks: []knowledge.StoredChunk{chunk("pg_C", "gamma", 0)}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Knowledge.AddPage(ctx, "acct_b", uploaded("pg_b1", "https://lu.example/a", "B's", "b"),
		[]knowledge.StoredChunk{chunk("pg_b1", "b", 0)}, 10, t0, nil); err != nil {
		t.Fatal(err)
	}
	version := func(acct string) int64 { return brainVersion(t, s, acct) }
	added := 0 // each add a minute later, so that Pages lists them in order
	add := func(p knowledge.StoredPage, limit int, wantReplaced int) {
		t.Helper()
		before := version("acct_a")
		added++
		st, replaced, err := s.Knowledge.AddPage(ctx, "acct_a", p, []knowledge.StoredChunk{chunk(p.ID, p.Page.Content, 0), chunk(p.ID, p.Page.Content+" 2", 1)}, limit, t0.Add(time.Duration(added)*time.Minute), nil)
		if err != nil || replaced != wantReplaced || st.Version != before+1 {
			t.Fatalf("AddPage %s: state %+v, replaced %d, %v; want version %d, replaced %d", p.ID, st, replaced, err, before+1, wantReplaced)
		}
	}

	add(uploaded("pg_N", "https://lu.example/n", "N", "nu"), 10, 0)
	equal(t, "pages after adding N", pageKeys(t, s, "acct_a"), []string{
		"A:pages:https://lu.example/a", "B:pages:", "C:crawl:https://lu.example/a", "B2:crawl:", "N:pages:https://lu.example/n"})
	// The same address replaces that uploaded page only (not the crawled page of that address).
	add(uploaded("pg_A2", "https://lu.example/a", "A again", "alpha two"), 10, 1)
	// Without an address, the same title (of an uploaded page without one) replaces it.
	add(uploaded("pg_B3", "", "B", "beta three"), 10, 1)
	// A title that an uploaded page with an address has is a new page.
	add(uploaded("pg_N2", "", "N", "nu two"), 10, 0)
	equal(t, "pages after replacing A and B", pageKeys(t, s, "acct_a"), []string{
		"C:crawl:https://lu.example/a", "B2:crawl:", "N:pages:https://lu.example/n",
		"A again:pages:https://lu.example/a", "B:pages:", "N:pages:"})
	equal(t, "chunks after replacing A and B", chunkPages(t, s, "acct_a"), []string{
		"pg_A2", "pg_A2", "pg_B3", "pg_B3", "pg_C", "pg_N", "pg_N", "pg_N2", "pg_N2"})
	equal(t, "B's pages", pageKeys(t, s, "acct_b"), []string{"B's:pages:https://lu.example/a"})

	// At the limit (4 uploaded pages): a new page is refused, a page of the same key is not.
	v := version("acct_a")
	_, _, err := s.Knowledge.AddPage(ctx, "acct_a", uploaded("pg_X", "", "X", "x"), []knowledge.StoredChunk{chunk("pg_X", "x", 0)}, 4, t0, nil)
	if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != "pages" {
		t.Fatalf("add above the limit: %v, want invalid_request on pages", err)
	}
	if version("acct_a") != v || len(pageKeys(t, s, "acct_a")) != 6 || len(chunkPages(t, s, "acct_a")) != 9 {
		t.Fatalf("a refused add changed the Brain: version %d (was %d), pages %v", version("acct_a"), v, pageKeys(t, s, "acct_a"))
	}
	add(uploaded("pg_N3", "https://lu.example/n", "N three", "nu three"), 4, 1)

	// DeletePage: not another account's page, nor a crawled one, nor one that is gone.
	for _, tt := range []struct{ acct, id string }{{"acct_b", "pg_A2"}, {"acct_a", "pg_C"}, {"acct_a", "pg_A"}, {"acct_a", "pg_b1"}} {
		v := version(tt.acct)
		if _, _, err := s.Knowledge.DeletePage(ctx, tt.acct, tt.id, t0); !domain.IsNotFound(err) {
			t.Fatalf("%s deleting %s: %v, want not_found", tt.acct, tt.id, err)
		}
		if version(tt.acct) != v {
			t.Fatalf("%s's version moved on a refused delete", tt.acct)
		}
	}
	p, st, err := s.Knowledge.DeletePage(ctx, "acct_a", "pg_B3", t0.Add(time.Hour))
	if err != nil || p.ID != "pg_B3" || p.Page.Title != "B" || p.Source != knowledge.SourcePages || p.Chars != len("beta three") || st.Version != version("acct_a") {
		t.Fatalf("delete: %+v %+v %v", p, st, err)
	}
	if !st.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("state updated at %v, want %v", st.UpdatedAt, t0.Add(time.Hour))
	}
	equal(t, "pages after the delete", pageKeys(t, s, "acct_a"), []string{
		"C:crawl:https://lu.example/a", "B2:crawl:", "A again:pages:https://lu.example/a", "N:pages:", "N three:pages:https://lu.example/n"})
	equal(t, "chunks after the delete", chunkPages(t, s, "acct_a"), []string{"pg_A2", "pg_A2", "pg_C", "pg_N2", "pg_N2", "pg_N3", "pg_N3"})
	if _, _, err := s.Knowledge.DeletePage(ctx, "acct_a", "pg_B3", t0); !domain.IsNotFound(err) {
		t.Fatalf("second delete: %v, want not_found", err)
	}
}

// testKnowledgeAddPageConcurrent: concurrent adds of different pages all end up stored, each with
// its chunks and one version each; concurrent adds of one address leave one page; concurrent adds
// near the limit store exactly as many as it allows; concurrent deletes and adds keep the adds.
func testKnowledgeAddPageConcurrent(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a", "acct_b", "acct_c")
	const n = 16
	adds := func(acct string, limit int, key func(i int) (url, title string)) []func() error {
		var fns []func() error
		for i := range n {
			fns = append(fns, func() error {
				url, title := key(i)
				id := fmt.Sprintf("pg_%s_%d", acct, i)
				_, _, err := s.Knowledge.AddPage(ctx, acct, uploaded(id, url, title, "text"),
					[]knowledge.StoredChunk{chunk(id, "text", 0)}, limit, t0, nil)
				return err
			})
		}
		return fns
	}
	if err := concurrently(adds("acct_a", 100, func(i int) (string, string) { return "", fmt.Sprintf("page %d", i) })...); err != nil {
		t.Fatalf("concurrent adds: %v", err)
	}
	st, _ := s.Knowledge.State(ctx, "acct_a")
	if got, chunks := len(pageKeys(t, s, "acct_a")), len(chunkPages(t, s, "acct_a")); got != n || chunks != n || st.Version != n {
		t.Fatalf("after %d concurrent adds: %d pages, %d chunks, version %d; want %d each", n, got, chunks, st.Version, n)
	}
	if err := concurrently(adds("acct_b", 100, func(int) (string, string) { return "https://lu.example/same", "same" })...); err != nil {
		t.Fatalf("concurrent adds of one address: %v", err)
	}
	if got, chunks := len(pageKeys(t, s, "acct_b")), len(chunkPages(t, s, "acct_b")); got != 1 || chunks != 1 {
		t.Fatalf("after concurrent adds of one address: %d pages, %d chunks; want 1 each", got, chunks)
	}
	const limit = 5
	err := concurrently(adds("acct_c", limit, func(i int) (string, string) { return fmt.Sprintf("https://lu.example/%d", i), "" })...)
	refused := 0
	for _, e := range unwrapJoined(err) {
		if de, ok := domain.AsError(e); !ok || de.Field != "pages" {
			t.Fatalf("concurrent adds near the limit: %v", e)
		}
		refused++
	}
	if got := len(pageKeys(t, s, "acct_c")); got != limit || refused != n-limit {
		t.Fatalf("concurrent adds near the limit %d: %d stored, %d refused; want %d and %d", limit, got, refused, limit, n-limit)
	}
	// Deletes of some pages while others are added: the adds all stay.
	var fns []func() error
	for i := range 8 {
		fns = append(fns, func() error {
			_, _, err := s.Knowledge.DeletePage(ctx, "acct_a", fmt.Sprintf("pg_acct_a_%d", i), t0)
			return err
		}, func() error {
			id := fmt.Sprintf("pg_new_%d", i)
			_, _, err := s.Knowledge.AddPage(ctx, "acct_a", uploaded(id, "", id, "text"), []knowledge.StoredChunk{chunk(id, "text", 0)}, 100, t0, nil)
			return err
		})
	}
	if err := concurrently(fns...); err != nil {
		t.Fatalf("concurrent adds and deletes: %v", err)
	}
	if got, chunks := len(pageKeys(t, s, "acct_a")), len(chunkPages(t, s, "acct_a")); got != n || chunks != n {
		t.Fatalf("after 8 deletes and 8 adds: %d pages, %d chunks; want %d each", got, chunks, n)
	}
}

// unwrapJoined returns the errors errors.Join joined (none for nil).
func unwrapJoined(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// testKnowledgeAddPageAdmit: AddPage calls admit (an hourly upload limit) only for a page that
// fits, with the Brain locked, before it writes: 16 concurrent adds of new pages near both
// limits (3 of 5 pages stored, 3 uploads left) store 2, admit 2 (a page refused for the page
// limit uses no upload: 1 is left), and an admit that refuses writes nothing.
func testKnowledgeAddPageAdmit(t *testing.T, s Stores) {
	ctx := t.Context()
	createAccounts(t, s, "acct_a")
	const limit, n = 5, 16
	for i := range limit - 2 {
		id := fmt.Sprint("pg_old_", i)
		if _, _, err := s.Knowledge.AddPage(ctx, "acct_a", uploaded(id, "", id, "text"), []knowledge.StoredChunk{chunk(id, "text", 0)}, limit, t0, nil); err != nil {
			t.Fatal(err)
		}
	}
	var uploads, admitting atomic.Int32
	uploads.Store(3)
	errUploads := errors.New("uploads used up")
	admit := func(context.Context) error {
		if admitting.Add(1) != 1 {
			t.Errorf("two admits at once: the Brain is not locked around them")
		}
		defer admitting.Add(-1)
		time.Sleep(time.Millisecond) // a limiter's round trip, to let a race show
		if uploads.Add(-1) < 0 {
			uploads.Add(1)
			return errUploads
		}
		return nil
	}
	var fns []func() error
	for i := range n {
		fns = append(fns, func() error {
			id := fmt.Sprint("pg_new_", i)
			_, _, err := s.Knowledge.AddPage(ctx, "acct_a", uploaded(id, "", id, "text"), []knowledge.StoredChunk{chunk(id, "text", 0)}, limit, t0, admit)
			return err
		})
	}
	err := concurrently(fns...)
	refused := 0
	for _, e := range unwrapJoined(err) {
		if de, ok := domain.AsError(e); !ok || de.Field != "pages" {
			t.Fatalf("concurrent adds near both limits: %v; want only the page limit's refusals", e)
		}
		refused++
	}
	if got := len(pageKeys(t, s, "acct_a")); got != limit || refused != n-2 || uploads.Load() != 1 {
		t.Fatalf("concurrent adds near both limits: %d pages, %d refused, %d uploads left; want %d, %d, 1",
			got, refused, uploads.Load(), limit, n-2)
	}
	// An admit that refuses: nothing written, its error returned. A page that replaces one of
	// the same title fits, so it is admitted.
	before, _ := s.Knowledge.State(ctx, "acct_a")
	_, _, err = s.Knowledge.AddPage(ctx, "acct_a", uploaded("pg_again", "", "pg_old_0", "new text"), []knowledge.StoredChunk{chunk("pg_again", "new text", 0)}, limit, t0,
		func(context.Context) error { return errUploads })
	after, _ := s.Knowledge.State(ctx, "acct_a")
	if !errors.Is(err, errUploads) || after.Version != before.Version || len(chunkPages(t, s, "acct_a")) != limit {
		t.Fatalf("an admit refused: %v, version %d then %d; want its error, nothing written", err, before.Version, after.Version)
	}
}
