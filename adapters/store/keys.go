package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

var (
	_ ports.Keys       = (*Keys)(nil)
	_ ports.KeyChanges = (*Keys)(nil)
)

// Keys implements ports.Keys.
type Keys struct {
	db         *bun.DB
	credential *prepared
}

// NewKeys returns the API key repository of db.
func NewKeys(db *bun.DB) *Keys {
	return &Keys{db: db, credential: prepare(db, pgCredential, qmarkCredential)}
}

// Generation implements ports.KeyChanges: every write of a key or an account tells the other
// processes in its transaction (watchedWrite), which follow them (on Postgres a connection of
// this process listens to notifications; on SQLite the counter row of auth_changes is read every
// sqlitePoll).
func (r *Keys) Generation() (gen uint64, ok bool) {
	if w := keyWatchOf(r.db); w != nil {
		return w.Generation()
	}
	return 0, false
}

// Create stores a new key.
func (r *Keys) Create(ctx context.Context, k account.Key) error {
	if _, err := idb(ctx, r.db).NewInsert().Model(toKeyRow(k)).Exec(ctx); err != nil {
		return fmt.Errorf("create key: %w", err)
	}
	return nil
}

// credentialQuery is Credential's query, with the placeholders of each dialect filled in: the
// period's start, then the key's hash.
const credentialQuery = `SELECT k.id, k.account_id, k.name, k.hash, k.last4, k.send_without_approval,
	k.created_at, k.revoked_at, a.id AS a_id, a.name AS a_name, a.plan AS a_plan,
	a.interaction_limit AS a_interaction_limit, a.status AS a_status, a.owner_email AS a_owner_email,
	a.widget_token AS a_widget_token, a.allowed_domains AS a_allowed_domains,
	a.developer_bonus AS a_developer_bonus, a.developer_since AS a_developer_since,
	a.developer_client AS a_developer_client, a.created_at AS a_created_at, a.updated_at AS a_updated_at,
	COALESCE(u.spent, 0) AS spent
FROM api_keys AS k
JOIN accounts AS a ON a.id = k.account_id
LEFT JOIN usage_periods AS u ON u.account_id = k.account_id AND u.period_start = %s
WHERE k.hash = %s`

// Credential's query with the placeholders of Postgres, and with ?: SQLite's, and bun's for a
// statement not prepared yet.
var (
	pgCredential    = fmt.Sprintf(credentialQuery, "$2", "$1")
	qmarkCredential = fmt.Sprintf(credentialQuery, "?", "?")
)

// credentialRow is a row of credentialQuery.
type credentialRow struct {
	keyRow
	Account accountRow `bun:"embed:a_"`
	Spent   int        `bun:"spent"`
}

// Credential finds a key, revoked or not, by the hash of its secret, with its account and the
// account's spending in period, in one prepared query; not_found when none. It is
// the authentication lookup, so it is not scoped to an account.
func (r *Keys) Credential(ctx context.Context, hash string, period ledger.Period) (ports.Credential, error) {
	var row credentialRow
	start := dbTime(period.Start)
	stmt, ok, err := r.credential.on(ctx, r.db)
	switch {
	case err != nil:
		return ports.Credential{}, fmt.Errorf("get key: %w", err)
	case ok && r.db.Dialect().Name() != dialect.PG:
		err = scanOne(ctx, r.db, stmt, &row, sqliteTime(start), hash)
	case ok:
		var revoked sql.NullTime
		var widgetToken sql.NullString
		var developerSince sql.NullTime
		a := &row.Account
		err = stmt.QueryRowContext(ctx, hash, start).Scan(
			&row.ID, &row.AccountID, &row.Name, &row.Hash, &row.Last4, &row.SendWithoutApproval, &row.CreatedAt, &revoked,
			&a.ID, &a.Name, &a.Plan, &a.InteractionLimit, &a.Status, &a.OwnerEmail, &widgetToken, &a.AllowedDomains,
			&a.DeveloperBonus, &developerSince, &a.DeveloperClient, &a.CreatedAt, &a.UpdatedAt, &row.Spent)
		row.RevokedAt, a.WidgetToken, a.DeveloperSince = revoked.Time, widgetToken.String, developerSince.Time
	default:
		err = idb(ctx, r.db).NewRaw(qmarkCredential, start, hash).Scan(ctx, &row)
	}
	if err != nil {
		return ports.Credential{}, notFound(err, "key", "get key")
	}
	acct, err := row.Account.domain()
	if err != nil {
		return ports.Credential{}, err
	}
	return ports.Credential{Key: row.domain(), Account: acct, Spent: row.Spent}, nil
}

// List returns the account's keys, oldest first.
func (r *Keys) List(ctx context.Context, accountID string) ([]account.Key, error) {
	var ms []keyRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).
		Where("account_id = ?", accountID).
		Order("created_at", "id").
		Scan(ctx); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	keys := make([]account.Key, len(ms))
	for i := range ms {
		keys[i] = ms[i].domain()
	}
	return keys, nil
}

// Revoke marks the key revoked at at, unless it already was, and returns it; not_found when
// none. It is an admin call by key id.
func (r *Keys) Revoke(ctx context.Context, keyID string, at time.Time) (account.Key, error) {
	if err := watchedWrite(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		_, err := tx.NewUpdate().Model((*keyRow)(nil)).
			Set("revoked_at = ?", dbTime(at)).
			Where("id = ?", keyID).
			Where("revoked_at IS NULL").
			Exec(ctx)
		return err
	}); err != nil {
		return account.Key{}, fmt.Errorf("revoke key: %w", err)
	}
	return r.get(ctx, "id = ?", keyID)
}

// SetSendWithoutApproval switches the key's Send without approval permission and returns the
// key; not_found when none. It is an admin call by key id.
func (r *Keys) SetSendWithoutApproval(ctx context.Context, keyID string, on bool) (account.Key, error) {
	if err := watchedWrite(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		_, err := tx.NewUpdate().Model((*keyRow)(nil)).
			Set("send_without_approval = ?", on).
			Where("id = ?", keyID).
			Exec(ctx)
		return err
	}); err != nil {
		return account.Key{}, fmt.Errorf("set key permission: %w", err)
	}
	return r.get(ctx, "id = ?", keyID)
}

func (r *Keys) get(ctx context.Context, where string, arg any) (account.Key, error) {
	var m keyRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where(where, arg).Scan(ctx); err != nil {
		return account.Key{}, notFound(err, "key", "get key")
	}
	return m.domain(), nil
}

// Touch sets the last use of the keys of keyIDs to at, in one statement, unless a later one is
// stored already (two processes' writes may arrive out of order).
func (r *Keys) Touch(ctx context.Context, at time.Time, keyIDs []string) error {
	if len(keyIDs) == 0 {
		return nil
	}
	at = dbTime(at)
	if _, err := idb(ctx, r.db).NewUpdate().Model((*keyRow)(nil)).
		Set("last_used_at = ?", at).
		Where("id IN (?)", bun.In(keyIDs)).
		Where("(last_used_at IS NULL OR last_used_at < ?)", at).
		Exec(ctx); err != nil {
		return fmt.Errorf("touch keys: %w", err)
	}
	return nil
}
