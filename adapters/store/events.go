package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain/conversion"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/ports"
)

var (
	_ ports.Webhooks      = (*Webhooks)(nil)
	_ ports.Deliveries    = (*Deliveries)(nil)
	_ ports.Conversions   = (*Conversions)(nil)
	_ ports.Notifications = (*Notifications)(nil)
)

type webhookRow struct {
	bun.BaseModel `bun:"table:webhooks"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	URL            string    `bun:"url"`
	Events         string    `bun:"events"`
	Active         bool      `bun:"active"`
	SealedSecret   []byte    `bun:"sealed_secret"`
	Failures       int       `bun:"failures"`
	LastStatus     int       `bun:"last_status"`
	LastDeliveryAt time.Time `bun:"last_delivery_at,nullzero"`
	CreatedAt      time.Time `bun:"created_at"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

func toWebhookRow(w webhook.Webhook) (*webhookRow, error) {
	events, err := encodeList(w.Events)
	if err != nil {
		return nil, err
	}
	return &webhookRow{ID: w.ID, AccountID: w.AccountID, URL: w.URL, Events: events, Active: w.Active,
		SealedSecret: w.SealedSecret, Failures: w.Failures, LastStatus: w.LastStatus, LastDeliveryAt: dbTime(w.LastDeliveryAt),
		CreatedAt: dbTime(w.CreatedAt), UpdatedAt: dbTime(w.UpdatedAt)}, nil
}

func (m *webhookRow) domain() (webhook.Webhook, error) {
	events, err := decodeList(m.Events)
	if err != nil {
		return webhook.Webhook{}, fmt.Errorf("webhook %s: events: %w", m.ID, err)
	}
	return webhook.Webhook{ID: m.ID, AccountID: m.AccountID, URL: m.URL, Events: events, Active: m.Active,
		SealedSecret: m.SealedSecret, Failures: m.Failures, LastStatus: m.LastStatus, LastDeliveryAt: domainTime(m.LastDeliveryAt),
		CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}, nil
}

// Webhooks implements ports.Webhooks.
type Webhooks struct{ db *bun.DB }

// NewWebhooks returns the webhook repository of db.
func NewWebhooks(db *bun.DB) *Webhooks { return &Webhooks{db: db} }

// Create stores a webhook.
func (r *Webhooks) Create(ctx context.Context, w webhook.Webhook, limit int) (bool, error) {
	m, err := toWebhookRow(w)
	if err != nil {
		return false, err
	}
	created := false
	err = inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		// Creates for one account queue on its row (SQLite's transactions are serialized
		// already), so two never both count room for one more.
		var id string
		q := tx.NewSelect().Model((*accountRow)(nil)).Column("id").Where("id = ?", w.AccountID)
		if err := lockForUpdate(q, tx).Scan(ctx, &id); err != nil {
			return notFound(err, "account", "create webhook")
		}
		n, err := tx.NewSelect().Model((*webhookRow)(nil)).Where("account_id = ?", w.AccountID).Count(ctx)
		if err != nil {
			return fmt.Errorf("count webhooks: %w", err)
		}
		if int(n) >= limit {
			return nil
		}
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("create webhook: %w", err)
		}
		created = true
		return nil
	})
	return created, err
}

func getWebhook(ctx context.Context, db bun.IDB, accountID, id string, lock bool) (webhook.Webhook, error) {
	var m webhookRow
	q := db.NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", id)
	if lock {
		q = lockForUpdate(q, db)
	}
	if err := q.Scan(ctx); err != nil {
		return webhook.Webhook{}, notFound(err, "webhook", "get webhook")
	}
	return m.domain()
}

// Get returns one webhook of the account.
func (r *Webhooks) Get(ctx context.Context, accountID, webhookID string) (webhook.Webhook, error) {
	return getWebhook(ctx, idb(ctx, r.db), accountID, webhookID, false)
}

// List returns the account's webhooks, oldest first.
func (r *Webhooks) List(ctx context.Context, accountID string) ([]webhook.Webhook, error) {
	var ms []webhookRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).Order("created_at", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	out := make([]webhook.Webhook, 0, len(ms))
	for i := range ms {
		w, err := ms[i].domain()
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// Update changes a webhook in one transaction, the row locked.
func (r *Webhooks) Update(ctx context.Context, accountID, webhookID string, fn func(w *webhook.Webhook) error) (webhook.Webhook, error) {
	var out webhook.Webhook
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		w, err := getWebhook(ctx, tx, accountID, webhookID, true)
		if err != nil {
			return err
		}
		if err := fn(&w); err != nil {
			return err
		}
		w.ID, w.AccountID = webhookID, accountID
		m, err := toWebhookRow(w)
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(m).WherePK().Where("account_id = ?", accountID).Exec(ctx); err != nil {
			return fmt.Errorf("update webhook: %w", err)
		}
		out = w
		return nil
	})
	return out, err
}

// Record logs attempt a and accounts for it on its webhook in one transaction: the attempt's row
// first, then the webhook's row locked, changed by webhook.Webhook.Record and saved; a webhook
// gone since fails after the attempt's row, and the rollback takes that row back with it.
func (r *Webhooks) Record(ctx context.Context, accountID string, a webhook.Attempt, final bool) (webhook.Webhook, bool, error) {
	var out webhook.Webhook
	deactivated := false
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if err := addDelivery(ctx, tx, accountID, a); err != nil {
			return err
		}
		w, err := getWebhook(ctx, tx, accountID, a.WebhookID, true)
		if err != nil {
			return err
		}
		deactivated = w.Record(a, final)
		m, err := toWebhookRow(w)
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(m).Column("active", "failures", "last_status", "last_delivery_at").
			WherePK().Where("account_id = ?", accountID).Exec(ctx); err != nil {
			return fmt.Errorf("record webhook delivery: %w", err)
		}
		out = w
		return nil
	})
	if err != nil {
		return webhook.Webhook{}, false, err
	}
	return out, deactivated, nil
}

// Delete removes a webhook of the account.
func (r *Webhooks) Delete(ctx context.Context, accountID, webhookID string) error {
	res, err := idb(ctx, r.db).NewDelete().Model((*webhookRow)(nil)).Where("account_id = ?", accountID).Where("id = ?", webhookID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(sql.ErrNoRows, "webhook", "delete webhook")
	}
	return nil
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID         string    `bun:"id,pk"`
	AccountID  string    `bun:"account_id"`
	WebhookID  string    `bun:"webhook_id"`
	EventID    string    `bun:"event_id"`
	EventType  string    `bun:"event_type"`
	Attempt    int       `bun:"attempt"`
	StatusCode int       `bun:"status_code"`
	DurationMS int64     `bun:"duration_ms"`
	Error      string    `bun:"error"`
	CreatedAt  time.Time `bun:"created_at"`
}

// Deliveries implements ports.Deliveries.
type Deliveries struct{ db *bun.DB }

// NewDeliveries returns the delivery log of db.
func NewDeliveries(db *bun.DB) *Deliveries { return &Deliveries{db: db} }

// addDelivery inserts the row of attempt a (once: the same attempt again writes nothing), in
// Webhooks.Record's transaction.
func addDelivery(ctx context.Context, db bun.IDB, accountID string, a webhook.Attempt) error {
	m := deliveryRow{ID: fmt.Sprintf("%s:%s:%d:%d", a.WebhookID, a.EventID, a.Number, a.At.UnixNano()), AccountID: accountID,
		WebhookID: a.WebhookID, EventID: a.EventID, EventType: a.EventType, Attempt: a.Number, StatusCode: a.StatusCode,
		DurationMS: a.Duration.Milliseconds(), Error: a.Error, CreatedAt: dbTime(a.At)}
	if _, err := db.NewInsert().Model(&m).On("CONFLICT (id) DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("record delivery: %w", err)
	}
	return nil
}

// List returns the webhook's latest attempts, newest first.
func (r *Deliveries) List(ctx context.Context, accountID, webhookID string, limit int) ([]webhook.Attempt, error) {
	var ms []deliveryRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).Where("webhook_id = ?", webhookID).
		OrderExpr("created_at DESC, attempt DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list deliveries: %w", err)
	}
	out := make([]webhook.Attempt, len(ms))
	for i, m := range ms {
		out[i] = webhook.Attempt{WebhookID: m.WebhookID, EventID: m.EventID, EventType: m.EventType, Number: m.Attempt,
			StatusCode: m.StatusCode, Duration: time.Duration(m.DurationMS) * time.Millisecond, Error: m.Error, At: domainTime(m.CreatedAt)}
	}
	return out, nil
}

type conversionRow struct {
	bun.BaseModel `bun:"table:conversions"`

	ID             string          `bun:"id,pk"`
	AccountID      string          `bun:"account_id"`
	Kind           string          `bun:"kind"`
	Amount         sql.NullFloat64 `bun:"amount"`
	Currency       string          `bun:"currency"`
	Reference      string          `bun:"reference"`
	ConversationID string          `bun:"conversation_id"`
	CreatedAt      time.Time       `bun:"created_at"`
}

// Conversions implements ports.Conversions.
type Conversions struct{ db *bun.DB }

// NewConversions returns the conversion repository of db.
func NewConversions(db *bun.DB) *Conversions { return &Conversions{db: db} }

// Create stores a conversion.
func (r *Conversions) Create(ctx context.Context, c conversion.Conversion) error {
	m := conversionRow{ID: c.ID, AccountID: c.AccountID, Kind: c.Kind, Amount: sql.NullFloat64{Float64: c.Amount, Valid: c.HasAmount},
		Currency: c.Currency, Reference: c.Reference, ConversationID: c.ConversationID, CreatedAt: dbTime(c.CreatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create conversion: %w", err)
	}
	return nil
}

// List reads a page of the account's conversions in [q.From, q.To), of q.Kind when given, newest
// first, after q.After: q.Limit+1 rows through conversions_page (account_id, created_at, id), the
// last only to say whether more follow.
func (r *Conversions) List(ctx context.Context, accountID string, q conversion.Query) (conversion.Page, error) {
	sel := idb(ctx, r.db).NewSelect().Model((*conversionRow)(nil)).Where("account_id = ?", accountID).
		Where("created_at >= ?", dbTime(q.From)).Where("created_at < ?", dbTime(q.To))
	if q.Kind != "" {
		sel = sel.Where("kind = ?", q.Kind)
	}
	if q.After != nil {
		at := dbTime(q.After.CreatedAt)
		sel = sel.Where("(created_at < ? OR (created_at = ? AND id < ?))", at, at, q.After.ID)
	}
	var ms []conversionRow
	if err := sel.OrderExpr("created_at DESC, id DESC").Limit(int64(q.Limit+1)).Scan(ctx, &ms); err != nil {
		return conversion.Page{}, fmt.Errorf("list conversions: %w", err)
	}
	page := conversion.Page{HasMore: len(ms) > q.Limit}
	ms = ms[:min(len(ms), q.Limit)]
	page.Conversions = make([]conversion.Conversion, len(ms))
	for i, m := range ms {
		page.Conversions[i] = conversion.Conversion{ID: m.ID, AccountID: m.AccountID, Kind: m.Kind, Amount: m.Amount.Float64, HasAmount: m.Amount.Valid,
			Currency: m.Currency, Reference: m.Reference, ConversationID: m.ConversationID, CreatedAt: domainTime(m.CreatedAt)}
	}
	return page, nil
}

// Totals sums the account's conversions in [from, to) (of kind when given) by kind and currency
// in one aggregate query: a row per group, whatever the number of conversions.
func (r *Conversions) Totals(ctx context.Context, accountID string, from, to time.Time, kind string) ([]conversion.Total, error) {
	sel := idb(ctx, r.db).NewSelect().Model((*conversionRow)(nil)).
		ColumnExpr("kind, currency, COUNT(*) AS n, SUM(amount) AS total").
		Where("account_id = ?", accountID).Where("created_at >= ?", dbTime(from)).Where("created_at < ?", dbTime(to)).
		GroupExpr("kind, currency")
	if kind != "" {
		sel = sel.Where("kind = ?", kind)
	}
	var rows []struct {
		Kind     string          `bun:"kind"`
		Currency string          `bun:"currency"`
		Count    int             `bun:"n"`
		Amount   sql.NullFloat64 `bun:"total"` // NULL: none has an amount
	}
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("total conversions: %w", err)
	}
	out := make([]conversion.Total, len(rows))
	for i, t := range rows {
		out[i] = conversion.Total{Kind: t.Kind, Currency: t.Currency, Count: t.Count, Amount: t.Amount.Float64}
	}
	return conversion.SortTotals(out), nil
}

type notificationRow struct {
	bun.BaseModel `bun:"table:notifications"`

	ID        string    `bun:"id,pk"`
	AccountID string    `bun:"account_id"`
	Kind      string    `bun:"kind"`
	Title     string    `bun:"title"`
	Body      string    `bun:"body"`
	CreatedAt time.Time `bun:"created_at"`
	ReadAt    time.Time `bun:"read_at,nullzero"`
}

// Notifications implements ports.Notifications.
type Notifications struct{ db *bun.DB }

// NewNotifications returns the notification repository of db.
func NewNotifications(db *bun.DB) *Notifications { return &Notifications{db: db} }

// Create stores a notification.
func (r *Notifications) Create(ctx context.Context, n notification.Notification) error {
	m := notificationRow{ID: n.ID, AccountID: n.AccountID, Kind: n.Kind, Title: n.Title, Body: n.Body,
		CreatedAt: dbTime(n.CreatedAt), ReadAt: dbTime(n.ReadAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create notification: %w", err)
	}
	return nil
}

// List returns the account's latest notifications, newest first.
func (r *Notifications) List(ctx context.Context, accountID string, limit int) ([]notification.Notification, error) {
	var ms []notificationRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).
		OrderExpr("created_at DESC, id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list notifications: %w", err)
	}
	out := make([]notification.Notification, len(ms))
	for i, m := range ms {
		out[i] = notification.Notification{ID: m.ID, AccountID: m.AccountID, Kind: m.Kind, Title: m.Title, Body: m.Body,
			CreatedAt: domainTime(m.CreatedAt), ReadAt: domainTime(m.ReadAt)}
	}
	return out, nil
}

// Settings keeps the service's own settings, such as the vault key when none is configured.
type Settings struct{ db *bun.DB }

// NewSettings returns the settings of db.
func NewSettings(db *bun.DB) *Settings { return &Settings{db: db} }

type settingRow struct {
	bun.BaseModel `bun:"table:service_settings"`

	Name      string    `bun:"name,pk"`
	Value     string    `bun:"value"`
	CreatedAt time.Time `bun:"created_at"`
}

// Ensure stores value under name unless a value is there already, and returns the stored one:
// every process of the service agrees on the first value written.
func (r *Settings) Ensure(ctx context.Context, name, value string) (string, error) {
	db := idb(ctx, r.db)
	m := settingRow{Name: name, Value: value, CreatedAt: dbTime(time.Now())}
	if _, err := db.NewInsert().Model(&m).On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
		return "", fmt.Errorf("ensure setting %s: %w", name, err)
	}
	var stored settingRow
	if err := db.NewSelect().Model(&stored).Where("name = ?", name).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("setting %s vanished", name)
		}
		return "", fmt.Errorf("read setting %s: %w", name, err)
	}
	return stored.Value, nil
}
