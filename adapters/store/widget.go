package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/widget"
	"github.com/svcagent/svc/ports"
)

var _ ports.Widgets = (*Widgets)(nil)

// Widgets implements ports.Widgets.
type Widgets struct{ db *bun.DB }

// NewWidgets returns the widget repository of db.
func NewWidgets(db *bun.DB) *Widgets { return &Widgets{db: db} }

type widgetStyleRow struct {
	bun.BaseModel `bun:"table:widget_styles"`

	AccountID string    `bun:"account_id,pk"`
	Position  string    `bun:"position"`
	Theme     string    `bun:"theme"`
	Accent    string    `bun:"accent"`
	Drag      bool      `bun:"drag"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// Account returns the account whose widget token is token; not_found when none.
func (r *Widgets) Account(ctx context.Context, token string) (account.Account, error) {
	if token == "" {
		return account.Account{}, notFound(sql.ErrNoRows, "widget", "")
	}
	var m accountRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("widget_token = ?", token).Scan(ctx); err != nil {
		return account.Account{}, notFound(err, "widget", "get account by widget token")
	}
	return m.domain()
}

// Style returns the account's saved style, widget.DefaultStyle when it saved none.
func (r *Widgets) Style(ctx context.Context, accountID string) (widget.Style, error) {
	return style(ctx, idb(ctx, r.db).NewSelect(), accountID)
}

func style(ctx context.Context, q *bun.SelectQuery, accountID string) (widget.Style, error) {
	var m widgetStyleRow
	err := q.Model(&m).Where("account_id = ?", accountID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return widget.DefaultStyle, nil
	}
	if err != nil {
		return widget.Style{}, fmt.Errorf("get widget style: %w", err)
	}
	return widget.Style{Position: m.Position, Theme: m.Theme, Accent: m.Accent, Drag: m.Drag}, nil
}

// UpdateStyle loads the style, lets fn change it and saves it in one transaction. The account's
// row is locked first, so concurrent updates of an account that saved no style yet queue too.
func (r *Widgets) UpdateStyle(ctx context.Context, accountID string, fn func(s *widget.Style) error) (widget.Style, error) {
	var out widget.Style
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if _, err := getAccount(ctx, lockForUpdate(tx.NewSelect(), tx), accountID); err != nil {
			return err
		}
		s, err := style(ctx, tx.NewSelect(), accountID)
		if err != nil {
			return err
		}
		if err := fn(&s); err != nil {
			return err
		}
		m := widgetStyleRow{AccountID: accountID, Position: s.Position, Theme: s.Theme, Accent: s.Accent, Drag: s.Drag,
			UpdatedAt: dbTime(time.Now())}
		if _, err := tx.NewInsert().Model(&m).On("CONFLICT (account_id) DO UPDATE").
			Set("position = EXCLUDED.position").
			Set("theme = EXCLUDED.theme").
			Set("accent = EXCLUDED.accent").
			Set("drag = EXCLUDED.drag").
			Set("updated_at = EXCLUDED.updated_at").
			Exec(ctx); err != nil {
			return fmt.Errorf("save widget style: %w", err)
		}
		out = s
		return nil
	})
	return out, err
}
