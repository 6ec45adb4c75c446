package knowledge

import (
	"container/list"
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
	state, err := b.store.State(ctx, accountID)
	if err != nil {
		return nil, err
	}
	hits, _, err := b.SearchContext(ctx, accountID, state, query, k, -1)
	return hits, err
}

// SearchContext is Search for a caller that has read the Brain's state already (State: its
// version chooses the index, and the store is not read for it again), and what a model upstream
// is given for the query: the hits, then more of the Brain up to budget characters
// (knowledge.Index.SearchContext), from one ranking; a negative budget gives the hits only.
func (b *Brain) SearchContext(ctx context.Context, accountID string, state knowledge.State, query string, k, budget int) (hits, passages []knowledge.Hit, err error) {
	ix, err := b.index(ctx, accountID, state.Version)
	if err != nil {
		return nil, nil, err
	}
	vecs, err := b.embed(ctx, []string{query})
	if err != nil {
		return nil, nil, err
	}
	hits, passages = ix.SearchContext(query, vecs[0], k, budget)
	return hits, passages, nil
}

func (b *Brain) index(ctx context.Context, accountID string, version int64) (*knowledge.Index, error) {
	if ix, ok := b.indexes.get(accountID, version); ok {
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
	b.indexes.put(accountID, version, ix, indexSize(docs, faqs))
	return ix, nil
}

// indexCacheBytes bounds the Brain indexes a process keeps, by their estimated size (indexSize):
// the least recently searched go first. An account's index is rebuilt from the store when it is
// searched again (a few milliseconds for a small Brain).
const indexCacheBytes = 32 << 20

// sentenceBytesPerChar is the memory of a small Brain's sentence matcher per character of its
// chunks' text, and faqQuestionBytesPerChar that of the FAQ matcher per character of an item's
// question (indexSize).
const (
	sentenceBytesPerChar    = 36
	faqQuestionBytesPerChar = 80
)

// indexSize estimates the memory of the index of chunks and FAQ items: their text, kept with the
// index, about three times over for its terms and postings, their vectors as float32, and a
// fixed part per entry. A small Brain's chunks are also matched sentence by sentence
// (knowledge.SentenceMaxChunks), and FAQ questions by the FAQ matcher, by their words' stems and
// character n-grams: each feature's key and its posting in each sentence or question that holds
// it, measured at 20–30 bytes per character of a small Brain's pages (the more text, the more its
// n-grams repeat) and 60–90 per character of a few short questions, where most n-grams are new,
// 40 per character of 1,500 questions.
func indexSize(chunks []knowledge.Doc, faqs []knowledge.FAQ) int64 {
	perChar := int64(4)
	if len(chunks) <= knowledge.SentenceMaxChunks {
		perChar += sentenceBytesPerChar
	}
	var n int64
	for _, d := range chunks {
		c := d.Chunk
		n += perChar*int64(len(c.Title)+len(c.Text)) + int64(len(c.ID)+len(c.URL)+len(c.Source)) + 4*int64(len(d.Vector)) + 256
	}
	for _, f := range faqs {
		// + a word-vector mean of 100 float32 per question on large English FAQs
		n += faqQuestionBytesPerChar*int64(len(f.Question)) + 4*int64(len(f.Question)+len(f.Answer)) + int64(len(f.ID)) + 4*int64(len(f.Vector)) + 512 + 400
	}
	return n + 8192
}

// indexCache keeps the latest index of accounts, the most recently used first, up to max bytes
// of them (indexSize); an index larger than max on its own is not kept.
type indexCache struct {
	mu      sync.Mutex
	max     int64
	size    int64
	order   *list.List // of *cachedIndex, the most recently used at the front
	entries map[string]*list.Element
}

type cachedIndex struct {
	account string
	version int64
	index   *knowledge.Index
	size    int64
}

func newIndexCache(maxBytes int64) *indexCache {
	return &indexCache{max: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *indexCache) get(accountID string, version int64) (*knowledge.Index, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[accountID]
	if !ok || e.Value.(*cachedIndex).version != version {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedIndex).index, true
}

func (c *indexCache) put(accountID string, version int64, ix *knowledge.Index, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[accountID]; ok {
		if e.Value.(*cachedIndex).version > version {
			return // a newer index was built meanwhile
		}
		c.remove(e)
	}
	if size > c.max {
		return
	}
	for c.size+size > c.max {
		c.remove(c.order.Back())
	}
	c.entries[accountID] = c.order.PushFront(&cachedIndex{account: accountID, version: version, index: ix, size: size})
	c.size += size
}

func (c *indexCache) remove(e *list.Element) {
	v := c.order.Remove(e).(*cachedIndex)
	delete(c.entries, v.account)
	c.size -= v.size
}

// State returns the account's Brain state: its version, business summary and site address.
func (b *Brain) State(ctx context.Context, accountID string) (knowledge.State, error) {
	return b.store.State(ctx, accountID)
}
