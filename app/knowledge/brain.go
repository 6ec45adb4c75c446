// Package knowledge holds the Brain's use cases: replacing pages, adding FAQ items, reading a site,
// listing what the Brain knows, and searching it for the agent.
package knowledge

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/ports"
)

// Brain runs the knowledge use cases of an account.
type Brain struct {
	tx       ports.Tx
	store    ports.Knowledge
	crawler  ports.Crawler
	embedder ports.Embedder
	stemmer  ports.Stemmer
	words    ports.WordVectors
	events   ports.Publisher
	clock    ports.Clock
	indexes  *indexCache
}

// NewBrain returns a Brain.
func NewBrain(tx ports.Tx, s ports.Knowledge, c ports.Crawler, e ports.Embedder, st ports.Stemmer, w ports.WordVectors, p ports.Publisher, clock ports.Clock) *Brain {
	return &Brain{tx: tx, store: s, crawler: c, embedder: e, stemmer: st, words: w, events: p, clock: clock, indexes: newIndexCache(indexCacheBytes)}
}

// Overview is what GET /v1/knowledge shows.
type Overview struct {
	State knowledge.State
	Pages []knowledge.StoredPage
	FAQ   []knowledge.FAQItem
}

// Overview lists the account's pages (without content) and FAQ items.
func (b *Brain) Overview(ctx context.Context, accountID string) (Overview, error) {
	state, err := b.store.State(ctx, accountID)
	if err != nil {
		return Overview{}, err
	}
	pages, err := b.store.Pages(ctx, accountID)
	if err != nil {
		return Overview{}, err
	}
	faq, err := b.store.FAQ(ctx, accountID)
	if err != nil {
		return Overview{}, err
	}
	return Overview{State: state, Pages: pages, FAQ: faq}, nil
}

// PagesInput is the body of PUT /v1/knowledge/pages.
type PagesInput struct {
	Pages           []knowledge.Page
	BusinessSummary *string
	SiteURL         *string
}

// Update is the outcome of a change of the Brain.
type Update struct {
	Source  knowledge.Source
	Pages   int
	Chars   int
	Chunks  int
	Version int64
}

// Validate returns 400 invalid_request naming the field of in that is wrong, if any: what
// ReplacePages checks before it does anything, for a caller to check first (a rate limit that
// counts only valid requests).
func (in PagesInput) Validate() error {
	if err := knowledge.ValidatePages(in.Pages); err != nil {
		return err
	}
	return knowledge.ValidateSite(in.SiteURL, in.BusinessSummary)
}

// ReplacePages replaces the pages uploaded through the API with in.Pages, in one transaction.
func (b *Brain) ReplacePages(ctx context.Context, accountID string, in PagesInput) (Update, error) {
	if err := in.Validate(); err != nil {
		return Update{}, err
	}
	rep, err := b.replacement(ctx, knowledge.SourcePages, "", in.Pages)
	if err != nil {
		return Update{}, err
	}
	rep.BusinessSummary, rep.SiteURL = in.BusinessSummary, in.SiteURL
	return b.apply(ctx, accountID, rep)
}

// AddPage adds page to the pages uploaded through the API or the console (source pages), as a
// PUT of it with the pages uploaded before would, but in one transaction against the pages
// stored when it commits: an uploaded page of the same address (or, for a page without one, of
// the same title) is replaced, the others stay, and crawled pages, the plugin's and the FAQ are
// untouched. It is checked as a page of PUT /v1/knowledge/pages (PagesInput{Pages: {page}}
// .Validate, fields pages[0].…), and refused with invalid_request (field pages) when the account
// would hold more uploaded pages than one PUT may carry (knowledge.MaxPages). It writes
// knowledge.updated (source pages, pages 1, the page's characters) in the same transaction; the
// Brain's version goes up, so the next search sees the page.
//
// admit (when not nil) is called once the page fits in the account's uploaded pages, before
// anything is written, in the transaction that locks the account's Brain: the console counts the
// page against the hourly page uploads there, so a page refused (invalid, or past MaxPages) uses
// none, and concurrent adds near both limits are counted one at a time. admit's error refuses the
// page and nothing is written.
func (b *Brain) AddPage(ctx context.Context, accountID string, page knowledge.Page, admit func(ctx context.Context) error) (Update, error) {
	in := PagesInput{Pages: []knowledge.Page{page}}
	if err := in.Validate(); err != nil {
		return Update{}, err
	}
	rep, err := b.replacement(ctx, knowledge.SourcePages, "", in.Pages)
	if err != nil {
		return Update{}, err
	}
	up := Update{Source: knowledge.SourcePages, Pages: 1, Chars: rep.Pages[0].Chars, Chunks: len(rep.Chunks)}
	err = b.tx.InTx(ctx, func(ctx context.Context) error {
		state, _, err := b.store.AddPage(ctx, accountID, rep.Pages[0], rep.Chunks, knowledge.MaxPages, rep.At, admit)
		if err != nil {
			return err
		}
		up.Version = state.Version
		_, err = b.events.Publish(ctx, accountID, event.KnowledgeUpdated, map[string]any{
			"source": string(knowledge.SourcePages), "pages": 1, "chars": up.Chars})
		return err
	})
	if err != nil {
		return Update{}, err
	}
	return up, nil
}

// RemovePage deletes the account's uploaded page id (source pages: a crawled or synced page is
// not one) with its passages and writes knowledge.updated (source pages, pages 1, chars 0), in
// one transaction, so the Brain's version goes up and the next search no longer finds it. An id
// the account has no uploaded page of, or that could name none, is 404 not_found and changes
// nothing.
func (b *Brain) RemovePage(ctx context.Context, accountID, id string) (knowledge.StoredPage, error) {
	if !plausibleID(id) {
		return knowledge.StoredPage{}, domain.NotFound("page")
	}
	var page knowledge.StoredPage
	err := b.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if page, _, err = b.store.DeletePage(ctx, accountID, id, b.clock.Now()); err != nil {
			return err
		}
		_, err = b.events.Publish(ctx, accountID, event.KnowledgeUpdated, map[string]any{
			"source": string(knowledge.SourcePages), "pages": 1, "chars": 0})
		return err
	})
	if err != nil {
		return knowledge.StoredPage{}, err
	}
	return page, nil
}

// ReplacePlugin replaces the pages a site's plugin synced (source plugin, the site's key) with
// pages, records siteURL as the Brain's site (the base of add-to-cart and checkout links), and
// writes knowledge.updated with source plugin, in one transaction. The caller checked the pages.
func (b *Brain) ReplacePlugin(ctx context.Context, accountID, site, siteURL string, pages []knowledge.Page) (Update, error) {
	rep, err := b.replacement(ctx, knowledge.SourcePlugin, site, pages)
	if err != nil {
		return Update{}, err
	}
	rep.SiteURL = &siteURL
	return b.apply(ctx, accountID, rep)
}

// CrawlOutcome is what a crawl read and stored, and how it changed the Brain's pages.
type CrawlOutcome struct {
	Update
	Result  knowledge.CrawlResult
	Changes knowledge.PageChanges
}

// Crawl reads a public site and replaces that site's crawled pages under the directory it read
// (knowledge.Scope) with what it read. A site that cannot be read answers 422 crawl_failed, and
// nothing stored is lost.
func (b *Brain) Crawl(ctx context.Context, accountID string, req knowledge.CrawlRequest) (CrawlOutcome, error) {
	req, err := req.Checked()
	if err != nil {
		return CrawlOutcome{}, err
	}
	res, err := b.crawler.Crawl(ctx, req)
	if ctx.Err() != nil {
		// The caller went away or cancelled (an MCP notifications/cancelled): whatever was read
		// is dropped, and nothing is stored.
		return CrawlOutcome{}, domain.Errorf(domain.CodeCrawlFailed, "the crawl of %s was cancelled before it ended; nothing was stored", req.URL)
	}
	if err != nil {
		return CrawlOutcome{}, err
	}
	if len(res.Pages) == 0 {
		return CrawlOutcome{}, domain.Errorf(domain.CodeCrawlFailed, "no page of %s could be read", req.URL)
	}
	rep, err := b.replacement(ctx, knowledge.SourceCrawl, knowledge.SiteOf(req.URL), res.Pages)
	if err != nil {
		return CrawlOutcome{}, err
	}
	if start, err := url.Parse(req.URL); err == nil { // Checked parsed it
		scope := knowledge.ScopeOf(start)
		rep.Scope = &scope
	}
	// The pages are read once the crawl is done and embedded, just before they are replaced: a
	// replacement committed in between (another crawl of the same directory) is counted as
	// though this one came first.
	before, err := b.store.Pages(ctx, accountID)
	if err != nil {
		return CrawlOutcome{}, err
	}
	up, err := b.apply(ctx, accountID, rep)
	if err != nil {
		return CrawlOutcome{}, err
	}
	return CrawlOutcome{Update: up, Result: res, Changes: rep.Changes(before)}, nil
}

// FAQInput is one item of POST /v1/knowledge/faq.
type FAQInput struct {
	Question string
	Answer   string
}

// FAQOutcome is the outcome of an FAQ upsert.
type FAQOutcome struct {
	knowledge.FAQUpsert
	Version int64
	Total   int
}

// UpsertFAQ adds items, or updates those whose question (normalised) the account already has.
// Within one call a repeated question keeps its last answer.
func (b *Brain) UpsertFAQ(ctx context.Context, accountID string, in []FAQInput) (FAQOutcome, error) {
	items := make([]knowledge.FAQItem, len(in))
	for i, it := range in {
		items[i] = knowledge.FAQItem{Question: strings.TrimSpace(it.Question), Answer: strings.TrimSpace(it.Answer)}
	}
	if in == nil {
		items = nil
	}
	if err := knowledge.ValidateFAQ(items); err != nil {
		return FAQOutcome{}, err
	}
	byKey := map[string]int{}
	unique := items[:0]
	for _, it := range items {
		it.Normalized = knowledge.NormalizeQuestion(it.Question)
		if i, ok := byKey[it.Normalized]; ok {
			unique[i] = it
			continue
		}
		byKey[it.Normalized] = len(unique)
		unique = append(unique, it)
	}
	texts := make([]string, len(unique))
	for i, it := range unique {
		texts[i] = it.Question
	}
	vectors, err := b.embed(ctx, texts)
	if err != nil {
		return FAQOutcome{}, err
	}
	for i := range unique {
		unique[i].ID = ident.New("faq")
		unique[i].Vector = vectors[i]
	}
	var out FAQOutcome
	err = b.tx.InTx(ctx, func(ctx context.Context) error {
		res, state, err := b.store.UpsertFAQ(ctx, accountID, unique, b.clock.Now())
		if err != nil {
			return err
		}
		out = FAQOutcome{FAQUpsert: res, Version: state.Version}
		chars := 0
		for _, it := range unique {
			chars += utf8.RuneCountInString(it.Question) + utf8.RuneCountInString(it.Answer)
		}
		_, err = b.events.Publish(ctx, accountID, event.KnowledgeUpdated, map[string]any{
			"source": string(knowledge.SourceFAQ), "pages": len(unique), "chars": chars})
		return err
	})
	if err != nil {
		return FAQOutcome{}, err
	}
	all, err := b.store.FAQ(ctx, accountID)
	if err != nil {
		return FAQOutcome{}, err
	}
	out.Total = len(all)
	return out, nil
}

// maxIDLength bounds the id of an FAQ item looked up: longer ones name none.
const maxIDLength = 100

// RemoveFAQ deletes the account's FAQ item id and writes knowledge.updated (source faq, pages 1:
// the one item changed, chars 0: nothing added), in one transaction, so the Brain's version goes
// up and the next search no longer finds the item. An id the account has no item of, or that
// could name none (empty, too long, not printable UTF-8), is 404 not_found and changes nothing.
func (b *Brain) RemoveFAQ(ctx context.Context, accountID, id string) (knowledge.FAQItem, error) {
	if !plausibleID(id) {
		return knowledge.FAQItem{}, domain.NotFound("FAQ item")
	}
	var item knowledge.FAQItem
	err := b.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if item, _, err = b.store.DeleteFAQ(ctx, accountID, id, b.clock.Now()); err != nil {
			return err
		}
		_, err = b.events.Publish(ctx, accountID, event.KnowledgeUpdated, map[string]any{
			"source": string(knowledge.SourceFAQ), "pages": 1, "chars": 0})
		return err
	})
	if err != nil {
		return knowledge.FAQItem{}, err
	}
	return item, nil
}

// plausibleID reports whether id could be a stored id: 1 to maxIDLength characters of printable
// UTF-8.
func plausibleID(id string) bool {
	if id == "" || len(id) > maxIDLength || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if r < 0x21 || r == 0x7f {
			return false
		}
	}
	return true
}

// replacement splits pages into chunks and embeds them, outside any transaction.
func (b *Brain) replacement(ctx context.Context, source knowledge.Source, site string, pages []knowledge.Page) (knowledge.Replacement, error) {
	rep := knowledge.Replacement{Source: source, Site: site, At: b.clock.Now().UTC()}
	var texts []string
	for _, p := range pages {
		p.Content = strings.TrimSpace(p.Content)
		sp := knowledge.StoredPage{ID: ident.New("pg"), Source: source, Site: site, Page: p, Chars: utf8.RuneCountInString(p.Content)}
		rep.Pages = append(rep.Pages, sp)
		for _, c := range knowledge.Split(p, 0, 0) {
			rep.Chunks = append(rep.Chunks, knowledge.StoredChunk{ID: ident.New("chk"), PageID: sp.ID, Source: source,
				URL: c.URL, Title: c.Title, Text: c.Text, Ordinal: c.Ordinal, Cart: c.Cart})
			texts = append(texts, c.Title+"\n"+c.Text)
		}
	}
	vectors, err := b.embed(ctx, texts)
	if err != nil {
		return knowledge.Replacement{}, err
	}
	for i := range rep.Chunks {
		rep.Chunks[i].Vector = vectors[i]
	}
	return rep, nil
}

// apply stores a replacement and writes knowledge.updated in the same transaction.
func (b *Brain) apply(ctx context.Context, accountID string, rep knowledge.Replacement) (Update, error) {
	up := Update{Source: rep.Source, Pages: len(rep.Pages), Chunks: len(rep.Chunks)}
	for _, p := range rep.Pages {
		up.Chars += p.Chars
	}
	err := b.tx.InTx(ctx, func(ctx context.Context) error {
		state, err := b.store.Replace(ctx, accountID, rep)
		if err != nil {
			return err
		}
		up.Version = state.Version
		_, err = b.events.Publish(ctx, accountID, event.KnowledgeUpdated, map[string]any{
			"source": string(rep.Source), "pages": up.Pages, "chars": up.Chars})
		return err
	})
	if err != nil {
		return Update{}, err
	}
	return up, nil
}

// embedBatch bounds one embedding call.
const embedBatch = 256

func (b *Brain) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += embedBatch {
		vs, err := b.embedder.Embed(ctx, texts[start:min(start+embedBatch, len(texts))], 0)
		if err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// Page returns the account's page n (from 1, in the order Overview lists them) with its chunks,
// the text the agent reads of it, in order. A page past the last is not found.
func (b *Brain) Page(ctx context.Context, accountID string, n int) (knowledge.StoredPage, []knowledge.StoredChunk, error) {
	pages, err := b.store.Pages(ctx, accountID)
	if err != nil {
		return knowledge.StoredPage{}, nil, err
	}
	if n < 1 || n > len(pages) {
		return knowledge.StoredPage{}, nil, domain.NotFound(fmt.Sprintf("page %d", n))
	}
	page := pages[n-1]
	chunks, err := b.store.Chunks(ctx, accountID)
	if err != nil {
		return knowledge.StoredPage{}, nil, err
	}
	var out []knowledge.StoredChunk
	for _, c := range chunks {
		if c.PageID == page.ID {
			c.Vector = nil
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b knowledge.StoredChunk) int { return a.Ordinal - b.Ordinal })
	return page, out, nil
}
