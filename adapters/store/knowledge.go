package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/ports"
)

var _ ports.Knowledge = (*Knowledge)(nil)

// Knowledge implements ports.Knowledge.
type Knowledge struct {
	db    *bun.DB
	state *prepared // State, the read of every search
}

// NewKnowledge returns the Brain repository of db.
func NewKnowledge(db *bun.DB) *Knowledge {
	return &Knowledge{db: db, state: byAccount(db, (*knowledgeStateRow)(nil))}
}

type knowledgeStateRow struct {
	bun.BaseModel `bun:"table:knowledge_state"`

	AccountID       string    `bun:"account_id,pk"`
	Version         int64     `bun:"version"`
	BusinessSummary string    `bun:"business_summary"`
	SiteURL         string    `bun:"site_url"`
	UpdatedAt       time.Time `bun:"updated_at"`
}

func (m *knowledgeStateRow) domain() knowledge.State {
	return knowledge.State{AccountID: m.AccountID, Version: m.Version, BusinessSummary: m.BusinessSummary,
		SiteURL: m.SiteURL, UpdatedAt: domainTime(m.UpdatedAt)}
}

type pageRow struct {
	bun.BaseModel `bun:"table:pages"`

	ID        string    `bun:"id,pk"`
	AccountID string    `bun:"account_id"`
	Source    string    `bun:"source"`
	Site      string    `bun:"site"`
	URL       string    `bun:"url"`
	Title     string    `bun:"title"`
	Content   string    `bun:"content"`
	Chars     int       `bun:"chars"`
	Position  int       `bun:"position"`
	CreatedAt time.Time `bun:"created_at"`
}

type chunkRow struct {
	bun.BaseModel `bun:"table:chunks"`

	ID        string `bun:"id,pk"`
	AccountID string `bun:"account_id"`
	PageID    string `bun:"page_id"`
	Source    string `bun:"source"`
	URL       string `bun:"url"`
	Title     string `bun:"title"`
	Text      string `bun:"text"`
	Ordinal   int    `bun:"ordinal"`
	Cart      string `bun:"cart"`
	Vector    []byte `bun:"vector"`
}

type faqRow struct {
	bun.BaseModel `bun:"table:faqs"`

	ID         string    `bun:"id,pk"`
	AccountID  string    `bun:"account_id"`
	Question   string    `bun:"question"`
	Normalized string    `bun:"normalized"`
	Answer     string    `bun:"answer"`
	Vector     []byte    `bun:"vector"`
	CreatedAt  time.Time `bun:"created_at"`
	UpdatedAt  time.Time `bun:"updated_at"`
}

func (m *faqRow) domain() knowledge.FAQItem {
	return knowledge.FAQItem{ID: m.ID, Question: m.Question, Answer: m.Answer, Normalized: m.Normalized,
		Vector: decodeVector(m.Vector), CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}
}

// State returns the account's Brain state (version 0 when it has none yet).
func (r *Knowledge) State(ctx context.Context, accountID string) (knowledge.State, error) {
	return brainState(ctx, r.db, r.state, accountID)
}

// brainState reads the account's Brain state with p (byAccount of knowledgeStateRow): version 0
// when it has none yet.
func brainState(ctx context.Context, db *bun.DB, p *prepared, accountID string) (knowledge.State, error) {
	var m knowledgeStateRow
	err := getByAccount(ctx, db, p, &m, accountID)
	if errors.Is(err, sql.ErrNoRows) {
		return knowledge.State{AccountID: accountID}, nil
	}
	if err != nil {
		return knowledge.State{}, fmt.Errorf("knowledge state: %w", err)
	}
	return m.domain(), nil
}

// bump increases the account's version (creating its state row) and applies the optional summary
// and site address, inside tx.
func bump(ctx context.Context, tx bun.IDB, accountID string, summary, siteURL *string, at time.Time) (knowledge.State, error) {
	m := knowledgeStateRow{AccountID: accountID, Version: 1, UpdatedAt: dbTime(at)}
	if summary != nil {
		m.BusinessSummary = *summary
	}
	if siteURL != nil {
		m.SiteURL = *siteURL
	}
	q := tx.NewInsert().Model(&m).
		On("CONFLICT (account_id) DO UPDATE").
		Set("version = ?TableAlias.version + 1").
		Set("updated_at = EXCLUDED.updated_at")
	if summary != nil {
		q = q.Set("business_summary = EXCLUDED.business_summary")
	}
	if siteURL != nil {
		q = q.Set("site_url = EXCLUDED.site_url")
	}
	if _, err := q.Exec(ctx); err != nil {
		return knowledge.State{}, fmt.Errorf("bump knowledge version: %w", err)
	}
	var out knowledgeStateRow
	if err := tx.NewSelect().Model(&out).Where("account_id = ?", accountID).Scan(ctx); err != nil {
		return knowledge.State{}, fmt.Errorf("read knowledge state: %w", err)
	}
	return out.domain(), nil
}

// Replace swaps the pages of one source (and site) for new ones, with their chunks, in one
// transaction.
func (r *Knowledge) Replace(ctx context.Context, accountID string, rep knowledge.Replacement) (knowledge.State, error) {
	var state knowledge.State
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		// The version goes up first: its row lock queues the account's Brain writes, so that a
		// concurrent replacement's delete runs after this one commits and sees its pages.
		var err error
		if state, err = bump(ctx, tx, accountID, rep.BusinessSummary, rep.SiteURL, rep.At); err != nil {
			return err
		}
		if err := deleteReplaced(ctx, tx, accountID, rep); err != nil {
			return err
		}
		return insertPages(ctx, tx, accountID, rep)
	})
	return state, err
}

// insertPages inserts rep's pages and chunks, in tx.
func insertPages(ctx context.Context, tx bun.IDB, accountID string, rep knowledge.Replacement) error {
	if len(rep.Pages) > 0 {
		pages := make([]pageRow, len(rep.Pages))
		for i, p := range rep.Pages {
			pages[i] = pageRow{ID: p.ID, AccountID: accountID, Source: string(rep.Source), Site: rep.Site,
				URL: p.Page.URL, Title: p.Page.Title, Content: p.Page.Content, Chars: p.Chars, Position: i,
				CreatedAt: dbTime(rep.At)}
		}
		if _, err := tx.NewInsert().Model(&pages).Exec(ctx); err != nil {
			return fmt.Errorf("insert pages: %w", err)
		}
	}
	for start := 0; start < len(rep.Chunks); start += 500 {
		batch := rep.Chunks[start:min(start+500, len(rep.Chunks))]
		chunks := make([]chunkRow, len(batch))
		for i, c := range batch {
			chunks[i] = chunkRow{ID: c.ID, AccountID: accountID, PageID: c.PageID, Source: string(rep.Source),
				URL: c.URL, Title: c.Title, Text: c.Text, Ordinal: c.Ordinal, Cart: c.Cart, Vector: encodeVector(c.Vector)}
		}
		if _, err := tx.NewInsert().Model(&chunks).Exec(ctx); err != nil {
			return fmt.Errorf("insert chunks: %w", err)
		}
	}
	return nil
}

// deleteReplaced deletes the pages rep replaces with their chunks, in tx: its source's pages, of
// its site when set, and of those only the ones its scope holds when set. Chunks go with their pages (ON DELETE
// CASCADE); deleting them first keeps SQLite connections without foreign keys just as clean.
func deleteReplaced(ctx context.Context, tx bun.IDB, accountID string, rep knowledge.Replacement) error {
	var ids []string
	if rep.Scope != nil {
		// The scope is read from each page's address here, within the transaction that the
		// Brain's version row serialises, so that a concurrent crawl of the same directory
		// replaces this one's pages rather than adding to them.
		var rows []pageRow
		if err := tx.NewSelect().Model(&rows).Column("id", "url").
			Where("account_id = ?", accountID).Where("source = ?", string(rep.Source)).
			Where("site = ?", rep.Site).Scan(ctx); err != nil {
			return fmt.Errorf("pages of the scope: %w", err)
		}
		for _, p := range rows {
			if rep.Scope.Holds(p.URL) {
				ids = append(ids, p.ID)
			}
		}
		if len(ids) == 0 {
			return nil
		}
	}
	chunks := tx.NewDelete().Model((*chunkRow)(nil)).Where("account_id = ?", accountID)
	del := tx.NewDelete().Model((*pageRow)(nil)).Where("account_id = ?", accountID)
	if ids != nil {
		chunks, del = chunks.Where("page_id IN (?)", bun.In(ids)), del.Where("id IN (?)", bun.In(ids))
	} else {
		pages := tx.NewSelect().Model((*pageRow)(nil)).Column("id").
			Where("account_id = ?", accountID).Where("source = ?", string(rep.Source))
		del = del.Where("source = ?", string(rep.Source))
		if rep.Site != "" {
			pages, del = pages.Where("site = ?", rep.Site), del.Where("site = ?", rep.Site)
		}
		chunks = chunks.Where("page_id IN (?)", pages)
	}
	if _, err := chunks.Exec(ctx); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	if _, err := del.Exec(ctx); err != nil {
		return fmt.Errorf("delete pages: %w", err)
	}
	return nil
}

// UpsertFAQ adds items or updates those whose normalised question exists, in one transaction.
// Each item is one INSERT … ON CONFLICT (account_id, normalized) DO UPDATE, so concurrent upserts
// of one question never both insert; the version goes up first, so that the account's upserts
// queue on its row instead of locking questions in different orders.
func (r *Knowledge) UpsertFAQ(ctx context.Context, accountID string, items []knowledge.FAQItem, at time.Time) (knowledge.FAQUpsert, knowledge.State, error) {
	var res knowledge.FAQUpsert
	var state knowledge.State
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		res = knowledge.FAQUpsert{}
		var err error
		if state, err = bump(ctx, tx, accountID, nil, nil, at); err != nil {
			return err
		}
		for _, it := range items {
			m := faqRow{ID: it.ID, AccountID: accountID, Question: it.Question, Normalized: it.Normalized,
				Answer: it.Answer, Vector: encodeVector(it.Vector), CreatedAt: dbTime(at), UpdatedAt: dbTime(at)}
			// An update keeps the stored id, so the id returned tells a create from an update.
			var id string
			if err := tx.NewInsert().Model(&m).
				On("CONFLICT (account_id, normalized) DO UPDATE").
				Set("question = EXCLUDED.question").
				Set("answer = EXCLUDED.answer").
				Set("vector = EXCLUDED.vector").
				Set("updated_at = EXCLUDED.updated_at").
				Returning("id").
				Scan(ctx, &id); err != nil {
				return fmt.Errorf("upsert faq: %w", err)
			}
			if id == it.ID {
				res.Created++
			} else {
				res.Updated++
			}
		}
		return nil
	})
	return res, state, err
}

// DeleteFAQ deletes one FAQ item of the account and bumps the version, in one transaction: the
// version goes up first (queuing on the account's row like every Brain write), then the delete,
// which returns the row; when it returns none the transaction rolls back and nothing changed.
func (r *Knowledge) DeleteFAQ(ctx context.Context, accountID, id string, at time.Time) (knowledge.FAQItem, knowledge.State, error) {
	var item knowledge.FAQItem
	var state knowledge.State
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var err error
		if state, err = bump(ctx, tx, accountID, nil, nil, at); err != nil {
			return err
		}
		var rows []faqRow
		if err := tx.NewDelete().Model(&rows).
			Where("account_id = ?", accountID).
			Where("id = ?", id).
			Returning("*").
			Scan(ctx); err != nil {
			return fmt.Errorf("delete faq: %w", err)
		}
		if len(rows) == 0 {
			return domain.NotFound("FAQ item")
		}
		item = rows[0].domain()
		return nil
	})
	if err != nil {
		return knowledge.FAQItem{}, knowledge.State{}, err
	}
	return item, state, nil
}

// AddPage adds one uploaded page with its chunks in one transaction: the version goes up first
// (its row lock queues the account's Brain writes, so a concurrent add or delete reads the pages
// this one leaves), then the uploaded pages of the same key are deleted with their chunks, the
// rest counted against limit, the page admitted (admit, the Brain's row still locked) and
// inserted.
func (r *Knowledge) AddPage(ctx context.Context, accountID string, page knowledge.StoredPage, chunks []knowledge.StoredChunk, limit int, at time.Time, admit func(ctx context.Context) error) (knowledge.State, int, error) {
	var state knowledge.State
	var replaced int
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var err error
		if state, err = bump(ctx, tx, accountID, nil, nil, at); err != nil {
			return err
		}
		url, title := page.Page.Key()
		same := tx.NewSelect().Model((*pageRow)(nil)).Column("id").
			Where("account_id = ?", accountID).Where("source = ?", string(knowledge.SourcePages)).
			Where("url = ?", url)
		if url == "" {
			same = same.Where("title = ?", title)
		}
		var ids []string
		if err := same.Scan(ctx, &ids); err != nil {
			return fmt.Errorf("pages of the same key: %w", err)
		}
		if len(ids) > 0 {
			if err := deletePages(ctx, tx, accountID, ids); err != nil {
				return err
			}
		}
		replaced = len(ids)
		kept, err := tx.NewSelect().Model((*pageRow)(nil)).
			Where("account_id = ?", accountID).Where("source = ?", string(knowledge.SourcePages)).Count(ctx)
		if err != nil {
			return fmt.Errorf("count uploaded pages: %w", err)
		}
		if kept >= int64(limit) {
			return domain.Invalid("pages", "at most %d uploaded pages (the account has %d); remove one first", limit, kept)
		}
		if admit != nil {
			if err := admit(ctx); err != nil {
				return err
			}
		}
		return insertPages(ctx, tx, accountID, knowledge.Replacement{Source: knowledge.SourcePages,
			Pages: []knowledge.StoredPage{page}, Chunks: chunks, At: at})
	})
	if err != nil {
		return knowledge.State{}, 0, err
	}
	return state, replaced, nil
}

// DeletePage deletes one uploaded page of the account with its chunks and bumps the version, in
// one transaction (the version first, as every Brain write); when the account has no such
// uploaded page the transaction rolls back and nothing changed.
func (r *Knowledge) DeletePage(ctx context.Context, accountID, id string, at time.Time) (knowledge.StoredPage, knowledge.State, error) {
	var out knowledge.StoredPage
	var state knowledge.State
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var err error
		if state, err = bump(ctx, tx, accountID, nil, nil, at); err != nil {
			return err
		}
		var m pageRow
		err = tx.NewSelect().Model(&m).
			Column("id", "source", "site", "url", "title", "chars", "created_at").
			Where("account_id = ?", accountID).Where("source = ?", string(knowledge.SourcePages)).
			Where("id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.NotFound("page")
		}
		if err != nil {
			return fmt.Errorf("read page: %w", err)
		}
		out = m.domain()
		return deletePages(ctx, tx, accountID, []string{id})
	})
	if err != nil {
		return knowledge.StoredPage{}, knowledge.State{}, err
	}
	return out, state, nil
}

// deletePages deletes the account's pages ids with their chunks, in tx.
func deletePages(ctx context.Context, tx bun.IDB, accountID string, ids []string) error {
	if _, err := tx.NewDelete().Model((*chunkRow)(nil)).Where("account_id = ?", accountID).
		Where("page_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("delete chunks: %w", err)
	}
	if _, err := tx.NewDelete().Model((*pageRow)(nil)).Where("account_id = ?", accountID).
		Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("delete pages: %w", err)
	}
	return nil
}

func (m *pageRow) domain() knowledge.StoredPage {
	return knowledge.StoredPage{ID: m.ID, Source: knowledge.Source(m.Source), Site: m.Site,
		Page: knowledge.Page{URL: m.URL, Title: m.Title}, Chars: m.Chars, CreatedAt: domainTime(m.CreatedAt)}
}

// Pages lists the account's pages without their content, in the order they were given.
func (r *Knowledge) Pages(ctx context.Context, accountID string) ([]knowledge.StoredPage, error) {
	var ms []pageRow
	err := idb(ctx, r.db).NewSelect().Model(&ms).
		Column("id", "source", "site", "url", "title", "chars", "created_at").
		Where("account_id = ?", accountID).
		Order("created_at", "position").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list pages: %w", err)
	}
	out := make([]knowledge.StoredPage, len(ms))
	for i := range ms {
		out[i] = ms[i].domain()
	}
	return out, nil
}

// FAQ lists the account's FAQ items, oldest first.
func (r *Knowledge) FAQ(ctx context.Context, accountID string) ([]knowledge.FAQItem, error) {
	var ms []faqRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list faq: %w", err)
	}
	out := make([]knowledge.FAQItem, len(ms))
	for i := range ms {
		out[i] = ms[i].domain()
	}
	return out, nil
}

// Chunks lists the account's chunks with their vectors.
func (r *Knowledge) Chunks(ctx context.Context, accountID string) ([]knowledge.StoredChunk, error) {
	var ms []chunkRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).
		Order("page_id", "ordinal").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list chunks: %w", err)
	}
	out := make([]knowledge.StoredChunk, len(ms))
	for i, m := range ms {
		out[i] = knowledge.StoredChunk{ID: m.ID, PageID: m.PageID, Source: knowledge.Source(m.Source), URL: m.URL,
			Title: m.Title, Text: m.Text, Ordinal: m.Ordinal, Cart: m.Cart, Vector: decodeVector(m.Vector)}
	}
	return out, nil
}

// encodeVector stores a vector as little-endian float32s; nil stays nil.
func encodeVector(v []float32) []byte {
	if v == nil {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
