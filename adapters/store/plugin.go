package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/plugin"
	"github.com/svcagent/svc/ports"
)

var (
	_ ports.PluginRequests = (*Plugins)(nil)
	_ ports.PluginSites    = (*Plugins)(nil)
	_ ports.PluginOrders   = (*Plugins)(nil)
)

// Plugins implements ports.PluginRequests, ports.PluginSites and ports.PluginOrders.
type Plugins struct{ db *bun.DB }

// NewPlugins returns the plugin repository of db.
func NewPlugins(db *bun.DB) *Plugins { return &Plugins{db: db} }

type pluginRequestRow struct {
	bun.BaseModel `bun:"table:plugin_requests"`

	ID        string    `bun:"id,pk"`
	Site      string    `bun:"site"`
	ReturnURL string    `bun:"return_url"`
	State     string    `bun:"state"`
	Lang      string    `bun:"lang"`
	Woo       bool      `bun:"woo"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
}

type pluginCodeRow struct {
	bun.BaseModel `bun:"table:plugin_codes"`

	Hash      string    `bun:"hash,pk"`
	AccountID string    `bun:"account_id"`
	Site      string    `bun:"site"`
	ReturnURL string    `bun:"return_url"`
	State     string    `bun:"state"`
	Lang      string    `bun:"lang"`
	Woo       bool      `bun:"woo"`
	CreatedAt time.Time `bun:"created_at"`
	ExpiresAt time.Time `bun:"expires_at"`
	UsedAt    time.Time `bun:"used_at,nullzero"`
}

type pluginSiteRow struct {
	bun.BaseModel `bun:"table:plugin_sites"`

	ID           string    `bun:"id,pk"`
	AccountID    string    `bun:"account_id"`
	Site         string    `bun:"site"`
	SiteURL      string    `bun:"site_url"`
	Platform     string    `bun:"platform"`
	Woo          bool      `bun:"woo"`
	Lang         string    `bun:"lang"`
	TokenHash    string    `bun:"token_hash"`
	CreatedAt    time.Time `bun:"created_at"`
	RevokedAt    time.Time `bun:"revoked_at,nullzero"`
	LastSyncAt   time.Time `bun:"last_sync_at,nullzero"`
	SyncPages    int       `bun:"sync_pages"`
	SyncPosts    int       `bun:"sync_posts"`
	SyncProducts int       `bun:"sync_products"`
	SyncChars    int       `bun:"sync_chars"`
}

type pluginOrderRow struct {
	bun.BaseModel `bun:"table:plugin_orders"`

	AccountID    string    `bun:"account_id,pk"`
	Site         string    `bun:"site,pk"`
	OrderID      int64     `bun:"order_id,pk"`
	ConversionID string    `bun:"conversion_id"`
	CreatedAt    time.Time `bun:"created_at"`
}

func (m pluginSiteRow) domain() plugin.Connection {
	return plugin.Connection{ID: m.ID, AccountID: m.AccountID, Site: m.Site, SiteURL: m.SiteURL, Platform: m.Platform,
		Woo: m.Woo, Lang: m.Lang, TokenHash: m.TokenHash, CreatedAt: domainTime(m.CreatedAt),
		RevokedAt: domainTime(m.RevokedAt), LastSyncAt: domainTime(m.LastSyncAt),
		LastSync: plugin.Counts{Pages: m.SyncPages, Posts: m.SyncPosts, Products: m.SyncProducts, Chars: m.SyncChars}}
}

// Save stores a pending request.
func (r *Plugins) Save(ctx context.Context, p plugin.Pending) error {
	m := pluginRequestRow{ID: p.ID, Site: p.Request.Site, ReturnURL: p.Request.Return, State: p.Request.State,
		Lang: p.Request.Lang, Woo: p.Request.Woo, CreatedAt: dbTime(p.CreatedAt), ExpiresAt: dbTime(p.ExpiresAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("save plugin request: %w", err)
	}
	return nil
}

// Get returns a pending request; not_found when none.
func (r *Plugins) Get(ctx context.Context, id string) (plugin.Pending, error) {
	var m pluginRequestRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("id = ?", id).Scan(ctx); err != nil {
		return plugin.Pending{}, notFound(err, "connection request", "get plugin request")
	}
	return plugin.Pending{ID: m.ID, Request: plugin.Request{Site: m.Site, Return: m.ReturnURL, State: m.State, Lang: m.Lang,
		Woo: m.Woo}, CreatedAt: domainTime(m.CreatedAt), ExpiresAt: domainTime(m.ExpiresAt)}, nil
}

// Approve deletes the pending request and stores the code in one transaction; of concurrent
// approvals only the one whose delete found the row goes on.
func (r *Plugins) Approve(ctx context.Context, id string, c plugin.Code) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewDelete().Model((*pluginRequestRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("approve plugin request: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return notFound(sql.ErrNoRows, "connection request", "")
		}
		m := pluginCodeRow{Hash: c.Hash, AccountID: c.AccountID, Site: c.Request.Site, ReturnURL: c.Request.Return,
			State: c.Request.State, Lang: c.Request.Lang, Woo: c.Request.Woo, CreatedAt: dbTime(c.CreatedAt),
			ExpiresAt: dbTime(c.ExpiresAt)}
		if _, err := tx.NewInsert().Model(&m).Exec(ctx); err != nil {
			return fmt.Errorf("save connect code: %w", err)
		}
		return nil
	})
}

// Redeem reads the code, lets the domain decide, and marks it used with a conditional update
// (still unused), so that of two concurrent redeems one succeeds.
func (r *Plugins) Redeem(ctx context.Context, hash, site string, now time.Time) (plugin.Code, error) {
	var out plugin.Code
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var m pluginCodeRow
		err := tx.NewSelect().Model(&m).Where("hash = ?", hash).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return plugin.ErrCode
		}
		if err != nil {
			return fmt.Errorf("get connect code: %w", err)
		}
		c := plugin.Code{Hash: m.Hash, AccountID: m.AccountID, Request: plugin.Request{Site: m.Site, Return: m.ReturnURL,
			State: m.State, Lang: m.Lang, Woo: m.Woo}, CreatedAt: domainTime(m.CreatedAt), ExpiresAt: domainTime(m.ExpiresAt),
			UsedAt: domainTime(m.UsedAt)}
		if err := c.Redeem(site, now); err != nil {
			return err
		}
		res, err := tx.NewUpdate().Model((*pluginCodeRow)(nil)).Set("used_at = ?", dbTime(now)).
			Where("hash = ?", hash).Where("used_at IS NULL").Exec(ctx)
		if err != nil {
			return fmt.Errorf("use connect code: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return plugin.ErrCode
		}
		c.UsedAt = now
		out = c
		return nil
	})
	return out, err
}

// Connect stores the connection and revokes the account's other connections of the site.
func (r *Plugins) Connect(ctx context.Context, c plugin.Connection) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.NewUpdate().Model((*pluginSiteRow)(nil)).Set("revoked_at = ?", dbTime(c.CreatedAt)).
			Where("account_id = ?", c.AccountID).Where("site = ?", c.Site).Where("revoked_at IS NULL").
			Exec(ctx); err != nil {
			return fmt.Errorf("revoke previous connections: %w", err)
		}
		m := pluginSiteRow{ID: c.ID, AccountID: c.AccountID, Site: c.Site, SiteURL: c.SiteURL, Platform: c.Platform,
			Woo: c.Woo, Lang: c.Lang, TokenHash: c.TokenHash, CreatedAt: dbTime(c.CreatedAt)}
		if _, err := tx.NewInsert().Model(&m).Exec(ctx); err != nil {
			return fmt.Errorf("save connection: %w", err)
		}
		return nil
	})
}

// ByToken returns the connection of a token hash.
func (r *Plugins) ByToken(ctx context.Context, hash string) (plugin.Connection, error) {
	var m pluginSiteRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("token_hash = ?", hash).Scan(ctx); err != nil {
		return plugin.Connection{}, notFound(err, "plugin token", "get connection by token")
	}
	return m.domain(), nil
}

// List returns the account's live connections, newest first.
func (r *Plugins) List(ctx context.Context, accountID string) ([]plugin.Connection, error) {
	var ms []pluginSiteRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).Where("revoked_at IS NULL").
		OrderExpr("created_at DESC, id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list connections: %w", err)
	}
	out := make([]plugin.Connection, len(ms))
	for i, m := range ms {
		out[i] = m.domain()
	}
	return out, nil
}

// Revoke revokes the account's connection id.
func (r *Plugins) Revoke(ctx context.Context, accountID, id string, at time.Time) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		n, err := tx.NewSelect().Model((*pluginSiteRow)(nil)).Where("account_id = ?", accountID).Where("id = ?", id).Count(ctx)
		if err != nil {
			return fmt.Errorf("get connection: %w", err)
		}
		if n == 0 {
			return notFound(sql.ErrNoRows, "connection "+id, "")
		}
		if _, err := tx.NewUpdate().Model((*pluginSiteRow)(nil)).Set("revoked_at = ?", dbTime(at)).
			Where("account_id = ?", accountID).Where("id = ?", id).Where("revoked_at IS NULL").Exec(ctx); err != nil {
			return fmt.Errorf("revoke connection: %w", err)
		}
		return nil
	})
}

// Synced records the connection's last sync.
func (r *Plugins) Synced(ctx context.Context, accountID, id string, at time.Time, c plugin.Counts) error {
	if _, err := idb(ctx, r.db).NewUpdate().Model((*pluginSiteRow)(nil)).Set("last_sync_at = ?", dbTime(at)).
		Set("sync_pages = ?", c.Pages).Set("sync_posts = ?", c.Posts).Set("sync_products = ?", c.Products).
		Set("sync_chars = ?", c.Chars).Where("account_id = ?", accountID).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("record sync: %w", err)
	}
	return nil
}

// Claim inserts the order unless it is there (one insert that does nothing on a conflict), then
// reads the conversion of the one that is.
func (r *Plugins) Claim(ctx context.Context, accountID, site string, orderID int64, conversionID string, at time.Time) (string, bool, error) {
	db := idb(ctx, r.db)
	res, err := db.NewInsert().Model(&pluginOrderRow{AccountID: accountID, Site: site, OrderID: orderID,
		ConversionID: conversionID, CreatedAt: dbTime(at)}).On("CONFLICT (account_id, site, order_id) DO NOTHING").Exec(ctx)
	if err != nil {
		return "", false, fmt.Errorf("claim order: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return conversionID, true, nil
	}
	var m pluginOrderRow
	if err := db.NewSelect().Model(&m).Where("account_id = ?", accountID).Where("site = ?", site).
		Where("order_id = ?", orderID).Scan(ctx); err != nil {
		return "", false, fmt.Errorf("get order: %w", err)
	}
	return m.ConversionID, false, nil
}
