package knowledge

import (
	"context"
	"fmt"
	"sync"

	"github.com/svcagent/svc/domain/knowledge"
)

// Search ranks the account's Brain for a query: at most k hits, FAQ items that match closely
// first (Strong). The index of an account is built once per Brain version and kept in memory; a
// change in any process increases the version in the store, so every process rebuilds on its
// next search.
func (b *Brain) Search(ctx context.Context, accountID, query string, k int) ([]knowledge.Hit, error) {
	ix, err := b.index(ctx, accountID)
	if err != nil {
		return nil, err
	}
	vecs, err := b.embed(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	return ix.Search(query, vecs[0], k), nil
}

func (b *Brain) index(ctx context.Context, accountID string) (*knowledge.Index, error) {
	state, err := b.store.State(ctx, accountID)
	if err != nil {
		return nil, err
	}
	if ix, ok := b.indexes.get(accountID, state.Version); ok {
		return ix, nil
	}
	chunks, err := b.store.Chunks(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("load chunks: %w", err)
	}
	faq, err := b.store.FAQ(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("load faq: %w", err)
	}
	docs := make([]knowledge.Doc, len(chunks))
	for i, c := range chunks {
		docs[i] = knowledge.Doc{Chunk: knowledge.Chunk{ID: c.ID, Source: c.Source, URL: c.URL, Title: c.Title, Text: c.Text, Ordinal: c.Ordinal, Cart: c.Cart}, Vector: c.Vector}
	}
	faqs := make([]knowledge.FAQ, len(faq))
	for i, f := range faq {
		faqs[i] = knowledge.FAQ{ID: f.ID, Question: f.Question, Answer: f.Answer, Vector: f.Vector}
	}
	ix := knowledge.NewIndex(docs, faqs, b.stemmer, b.words)
	b.indexes.put(accountID, state.Version, ix)
	return ix, nil
}

// indexCache keeps the latest index of up to max accounts.
type indexCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]cachedIndex
}

type cachedIndex struct {
	version int64
	index   *knowledge.Index
}

func newIndexCache(max int) *indexCache {
	return &indexCache{max: max, entries: map[string]cachedIndex{}}
}

func (c *indexCache) get(accountID string, version int64) (*knowledge.Index, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[accountID]
	if !ok || e.version != version {
		return nil, false
	}
	return e.index, true
}

func (c *indexCache) put(accountID string, version int64, ix *knowledge.Index) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[accountID]; ok && e.version > version {
		return // a newer index was built meanwhile
	}
	if _, ok := c.entries[accountID]; !ok && len(c.entries) >= c.max {
		for id := range c.entries { // evict one at random: map order
			delete(c.entries, id)
			break
		}
	}
	c.entries[accountID] = cachedIndex{version: version, index: ix}
}

// State returns the account's Brain state: its version, business summary and site address.
func (b *Brain) State(ctx context.Context, accountID string) (knowledge.State, error) {
	return b.store.State(ctx, accountID)
}
