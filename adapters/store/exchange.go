package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/ports"
)

// pgExchange stores a customer message answered at once in one statement (ports.Conversations.
// Exchange), atomic on its own: every write takes its rows from the counter's update, which
// takes its row from the conversation's, so when the conversation belongs to another channel
// (the upsert's WHERE keeps its row) or the charge does not fit, nothing past the conversation is
// written and no row comes back. The conversation is opened only when the period's counter has
// room (a read before the counter's update), so a charge that does not fit writes nothing either,
// but for a concurrent charge taking the room between the two: then the conversation alone is
// left opened, as the caller's longer way would open it. Locks are taken in the order of every
// other writer of a reply (the counter's row, then the conversation's), so concurrent writers of
// one account or conversation wait for each other instead of deadlocking: room locks the counter's
// row (FOR UPDATE) before the conversation's upsert locks its row. The messages' numbers
// come from the statement's snapshot, so a message added meanwhile by a concurrent transaction
// makes the unique index on (account_id, conversation_id, seq) refuse the statement, whole. The
// event is written done when it needs only webhooks ($45, ports.Exchange.HooksOnly) and the account
// has no active one; the statement returns whether it was not (pending), for the caller to nudge
// the relay only then.
const pgExchange = `WITH room AS (
	SELECT 1 FROM usage_periods WHERE account_id = $1 AND period_start = $8 AND ($7 <= 0 OR spent + $7 <= $9) FOR UPDATE
), conv AS (
	INSERT INTO conversations AS c (account_id, id, channel, customer_name, contact_id, tags, created_at, updated_at)
	SELECT $1, $2, $3, $4, $5, '[]', $6, $6 WHERE EXISTS (SELECT 1 FROM room)
	ON CONFLICT (account_id, id) DO UPDATE SET
		customer_name = CASE WHEN EXCLUDED.customer_name <> '' THEN EXCLUDED.customer_name ELSE c.customer_name END,
		updated_at = GREATEST(c.updated_at, EXCLUDED.updated_at)
	WHERE c.channel = EXCLUDED.channel
	RETURNING c.id
), counter AS (
	UPDATE usage_periods SET spent = spent + $7
	WHERE account_id = $1 AND period_start = $8 AND ($7 <= 0 OR spent + $7 <= $9) AND EXISTS (SELECT 1 FROM conv)
	RETURNING spent
), charge AS (
	INSERT INTO charges (id, account_id, action, cost, ref, label_source, label_workflow,
		label_workflow_id, label_execution_id, period_start, created_at)
	SELECT $10, $1, $11, $7, $12, $13, $14, $15, $16, $8, $17 FROM counter
), last AS (
	SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE account_id = $1 AND conversation_id = $2
), message AS (
	INSERT INTO messages (id, account_id, conversation_id, role, content, actions, reply_to, created_at, seq)
	SELECT $18, $1, $2, $19, $20, $21, $22, $23, last.seq + 1 FROM counter, last
), reply AS (
	INSERT INTO messages (id, account_id, conversation_id, role, content, actions, reply_to, created_at, seq)
	SELECT $24, $1, $2, $25, $26, $27, $28, $29, last.seq + 2 FROM counter, last
), job AS (
	INSERT INTO reply_jobs (id, account_id, conversation_id, message_id, channel, status, lease_until, attempts,
		reply_id, error, created_at, updated_at, request_key)
	SELECT $30, $1, $2, $31, $32, $33, $34, $35, $36, $37, $38, $39, $46 FROM counter
), event AS (
	INSERT INTO outbox (id, account_id, topic, payload, created_at, attempts, done_at)
	SELECT $40, $41, $42, $43, $44, 0, CASE WHEN $45 AND NOT EXISTS (SELECT 1 FROM webhooks WHERE account_id = $41 AND active)
		THEN $44::timestamptz END FROM counter
	RETURNING done_at IS NULL AS pending
)
SELECT counter.spent, event.pending FROM counter, event`

// SQLite has no data-modifying WITH: there Exchange is a transaction of six prepared statements.
const (
	sqliteExchangeOpen = `INSERT INTO conversations AS c (account_id, id, channel, customer_name, contact_id, tags, created_at, updated_at)
	VALUES (?1, ?2, ?3, ?4, ?5, '[]', ?6, ?6)
	ON CONFLICT (account_id, id) DO UPDATE SET
		customer_name = CASE WHEN excluded.customer_name <> '' THEN excluded.customer_name ELSE c.customer_name END,
		updated_at = CASE WHEN c.updated_at < excluded.updated_at THEN excluded.updated_at ELSE c.updated_at END
	WHERE c.channel = excluded.channel
	RETURNING id`
	sqliteExchangeMessages = `INSERT INTO messages (id, account_id, conversation_id, role, content, actions, reply_to, created_at, seq)
	SELECT ?3, ?1, ?2, ?4, ?5, ?6, ?7, ?8, last.seq + 1 FROM last
	UNION ALL
	SELECT ?9, ?1, ?2, ?10, ?11, ?12, ?13, ?14, last.seq + 2 FROM last`
	sqliteExchangeJob = `INSERT INTO reply_jobs (id, account_id, conversation_id, message_id, channel, status, lease_until, attempts,
		reply_id, error, created_at, updated_at, request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqliteExchangeEvent = `INSERT INTO outbox (id, account_id, topic, payload, created_at, attempts, done_at)
	VALUES (?1, ?2, ?3, ?4, ?5, 0, CASE WHEN ?6 AND NOT EXISTS (SELECT 1 FROM webhooks WHERE account_id = ?2 AND active) THEN ?5 END)
	RETURNING done_at IS NULL`
)

// sqliteExchangeLast is the WITH of sqliteExchangeMessages: the conversation's last number.
const sqliteExchangeLast = `WITH last AS (SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE account_id = ?1 AND conversation_id = ?2) `

// exchangeArgs returns the arguments of pgExchange for x (which has one event).
func exchangeArgs(x ports.Exchange) ([]any, error) {
	msg, err := toMessageRow(x.Conversation.AccountID, x.Message)
	if err != nil {
		return nil, err
	}
	reply, err := toMessageRow(x.Conversation.AccountID, x.Reply)
	if err != nil {
		return nil, err
	}
	c, ch, job, ev := x.Conversation, toChargeRow(x.Charge, x.Period), toJobRow(x.Job), toOutboxRow(x.Events[0])
	return []any{
		c.AccountID, c.ID, string(c.Channel), c.CustomerName, c.ContactID, dbTime(c.CreatedAt),
		ch.Cost, ch.PeriodStart, x.Limit, ch.ID, ch.Action, ch.Ref, ch.LabelSource, ch.LabelWorkflow, ch.LabelWorkflowID,
		ch.LabelExecutionID, ch.CreatedAt,
		msg.ID, msg.Role, msg.Content, msg.Actions, msg.ReplyTo, msg.CreatedAt,
		reply.ID, reply.Role, reply.Content, reply.Actions, reply.ReplyTo, reply.CreatedAt,
		job.ID, job.MessageID, job.Channel, job.Status, job.LeaseUntil, job.Attempts, job.ReplyID, job.Error, job.CreatedAt, job.UpdatedAt,
		ev.ID, ev.AccountID, ev.Topic, ev.Payload, ev.CreatedAt, x.HooksOnly, job.RequestKey,
	}, nil
}

// Exchange implements ports.Conversations.Exchange: on Postgres one prepared statement
// (pgExchange) outside any transaction, alone or with the exchanges of other callers waiting at
// the same time in one transaction (pggroup.go); on SQLite six statements, in a transaction with the
// exchanges of other callers at the same time (groupcommit.go); in the caller's transaction, or
// on Postgres with other than one event, one transaction of separate statements.
func (r *Conversations) Exchange(ctx context.Context, x ports.Exchange) (conversation.Conversation, int, bool, error) {
	c := x.Conversation
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	if len(x.Events) == 1 {
		if _, inTx := ctx.Value(txKey{r.db}).(bun.Tx); !inTx {
			stmt, prepared, err := r.exchange.on(ctx, r.db)
			if err != nil {
				return conversation.Conversation{}, 0, false, fmt.Errorf("store exchange: %w", err)
			}
			if prepared {
				w, err := r.exchangePG(ctx, stmt, x)
				if err != nil {
					return conversation.Conversation{}, 0, false, err
				}
				return c, w.spent, w.pending, nil
			}
		}
	}
	if _, inTx := ctx.Value(txKey{r.db}).(bun.Tx); !inTx && r.db.Dialect().Name() == dialect.SQLite {
		w, err := r.exchangeGrouped(ctx, x)
		if err != nil {
			return conversation.Conversation{}, 0, false, err
		}
		return c, w.spent, w.pending, nil
	}
	var w written
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var err error
		w, err = r.exchangeInTx(ctx, tx, x)
		return err
	})
	if isUniqueViolation(err) {
		err = ports.ErrNotExchanged
	}
	if err != nil {
		return conversation.Conversation{}, 0, false, err
	}
	return c, w.spent, w.pending, nil
}

// written is what storing an exchange returns: the period's spending after its charge, and
// whether it left an event pending (not written done).
type written struct {
	spent   int
	pending bool
}

// exchangeInTx is Exchange's statements in tx; ports.ErrNotExchanged (which rolls tx back) when
// the conversation belongs to another channel or the charge does not fit.
func (r *Conversations) exchangeInTx(ctx context.Context, tx bun.IDB, x ports.Exchange) (written, error) {
	if w, done, err := r.exchangePrepared(ctx, x); done || err != nil {
		return w, err
	}
	c := x.Conversation
	m := conversationRow{AccountID: c.AccountID, ID: c.ID, Channel: string(c.Channel), CustomerName: c.CustomerName,
		ContactID: c.ContactID, Tags: "[]", CreatedAt: dbTime(c.CreatedAt), UpdatedAt: dbTime(c.UpdatedAt)}
	var id string
	err := tx.NewInsert().Model(&m).
		On("CONFLICT (account_id, id) DO UPDATE").
		Set("customer_name = CASE WHEN EXCLUDED.customer_name <> '' THEN EXCLUDED.customer_name ELSE ?TableAlias.customer_name END").
		Set("updated_at = CASE WHEN ?TableAlias.updated_at < EXCLUDED.updated_at THEN EXCLUDED.updated_at ELSE ?TableAlias.updated_at END").
		Where("?TableAlias.channel = EXCLUDED.channel").
		Returning("id").Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return written{}, ports.ErrNotExchanged
	}
	if err != nil {
		return written{}, fmt.Errorf("open conversation: %w", err)
	}
	ch := toChargeRow(x.Charge, x.Period)
	var spent int
	err = tx.NewUpdate().Model((*usagePeriodRow)(nil)).
		Set("spent = spent + ?", ch.Cost).
		Where("account_id = ?", ch.AccountID).
		Where("period_start = ?", ch.PeriodStart).
		Where("(? <= 0 OR spent + ? <= ?)", ch.Cost, ch.Cost, x.Limit).
		Returning("spent").Scan(ctx, &spent)
	if errors.Is(err, sql.ErrNoRows) {
		return written{}, ports.ErrNotExchanged
	}
	if err != nil {
		return written{}, fmt.Errorf("charge: %w", err)
	}
	if _, err := tx.NewInsert().Model(ch).Exec(ctx); err != nil {
		return written{}, fmt.Errorf("record charge: %w", err)
	}
	var last int64
	if err := tx.NewSelect().Model((*messageRow)(nil)).ColumnExpr("COALESCE(MAX(seq), 0)").
		Where("account_id = ?", c.AccountID).Where("conversation_id = ?", c.ID).Scan(ctx, &last); err != nil {
		return written{}, fmt.Errorf("add message: %w", err)
	}
	rows := make([]*messageRow, 2)
	for i, msg := range []conversation.Message{x.Message, x.Reply} {
		row, err := toMessageRow(c.AccountID, msg)
		if err != nil {
			return written{}, err
		}
		row.ConversationID, row.Seq = c.ID, last+int64(i)+1
		rows[i] = row
	}
	if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return written{}, fmt.Errorf("add message: %w", err)
	}
	if _, err := tx.NewInsert().Model(toJobRow(x.Job)).Exec(ctx); err != nil {
		return written{}, fmt.Errorf("create reply job: %w", err)
	}
	hooked := true
	if x.HooksOnly {
		var err error
		hooked, err = tx.NewSelect().Model((*webhookRow)(nil)).Where("account_id = ?", c.AccountID).Where("active").Exists(ctx)
		if err != nil {
			return written{}, fmt.Errorf("look for webhooks: %w", err)
		}
	}
	for _, e := range x.Events {
		row := toOutboxRow(e)
		if !hooked {
			row.DoneAt = row.CreatedAt
		}
		if _, err := tx.NewInsert().Model(row).Exec(ctx); err != nil {
			return written{}, fmt.Errorf("add outbox message: %w", err)
		}
	}
	return written{spent: spent, pending: hooked && len(x.Events) > 0}, nil
}

// exchangePrepared runs exchangeInTx's statements prepared (SQLite), in the transaction of ctx;
// done is false when they are not prepared on this database (Postgres), or not yet.
func (r *Conversations) exchangePrepared(ctx context.Context, x ports.Exchange) (w written, done bool, err error) {
	var stmts [6]*sql.Stmt
	for i, p := range []*prepared{r.xOpen, r.xCount, r.xCharge, r.xMessages, r.xJob, r.xEvent} {
		stmt, ok, err := p.on(ctx, r.db)
		if err != nil || !ok {
			return written{}, false, err
		}
		stmts[i] = stmt
	}
	c := x.Conversation
	var id string
	err = stmts[0].QueryRowContext(ctx, c.AccountID, c.ID, string(c.Channel), c.CustomerName, c.ContactID, sqliteTime(c.CreatedAt)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return written{}, true, ports.ErrNotExchanged
	}
	if err != nil {
		return written{}, true, fmt.Errorf("open conversation: %w", err)
	}
	ch := toChargeRow(x.Charge, x.Period)
	err = stmts[1].QueryRowContext(ctx, ch.Cost, ch.AccountID, sqliteTime(ch.PeriodStart), x.Limit).Scan(&w.spent)
	if errors.Is(err, sql.ErrNoRows) {
		return written{}, true, ports.ErrNotExchanged
	}
	if err != nil {
		return written{}, true, fmt.Errorf("charge: %w", err)
	}
	if _, err := stmts[2].ExecContext(ctx, ch.ID, ch.AccountID, ch.Action, ch.Cost, ch.Ref, ch.LabelSource, ch.LabelWorkflow,
		ch.LabelWorkflowID, ch.LabelExecutionID, sqliteTime(ch.PeriodStart), sqliteTime(ch.CreatedAt)); err != nil {
		return written{}, true, fmt.Errorf("record charge: %w", err)
	}
	msg, err := toMessageRow(c.AccountID, x.Message)
	if err != nil {
		return written{}, true, err
	}
	reply, err := toMessageRow(c.AccountID, x.Reply)
	if err != nil {
		return written{}, true, err
	}
	if _, err := stmts[3].ExecContext(ctx, c.AccountID, c.ID,
		msg.ID, msg.Role, msg.Content, msg.Actions, msg.ReplyTo, sqliteTime(msg.CreatedAt),
		reply.ID, reply.Role, reply.Content, reply.Actions, reply.ReplyTo, sqliteTime(reply.CreatedAt)); err != nil {
		return written{}, true, fmt.Errorf("add message: %w", err)
	}
	j := toJobRow(x.Job)
	if _, err := stmts[4].ExecContext(ctx, j.ID, j.AccountID, j.ConversationID, j.MessageID, j.Channel, j.Status,
		sqliteTime(j.LeaseUntil), j.Attempts, j.ReplyID, j.Error, sqliteTime(j.CreatedAt), sqliteTime(j.UpdatedAt), j.RequestKey); err != nil {
		return written{}, true, fmt.Errorf("create reply job: %w", err)
	}
	for _, e := range x.Events {
		ev := toOutboxRow(e)
		var pending bool
		if err := stmts[5].QueryRowContext(ctx, ev.ID, ev.AccountID, ev.Topic, ev.Payload, sqliteTime(ev.CreatedAt), x.HooksOnly).
			Scan(&pending); err != nil {
			return written{}, true, fmt.Errorf("add outbox message: %w", err)
		}
		w.pending = w.pending || pending
	}
	return w, true, nil
}

// toMessageRow is m's row in the account's conversation (its Seq unset).
func toMessageRow(accountID string, m conversation.Message) (*messageRow, error) {
	actions := make([]actionJSON, len(m.Actions))
	for i, a := range m.Actions {
		actions[i] = actionJSON(a)
	}
	b, err := json.Marshal(actions)
	if err != nil {
		return nil, fmt.Errorf("encode actions: %w", err)
	}
	return &messageRow{ID: m.ID, AccountID: accountID, ConversationID: m.ConversationID, Role: m.Role,
		Content: m.Content, Actions: string(b), ReplyTo: m.ReplyTo, CreatedAt: dbTime(m.CreatedAt)}, nil
}

// toJobRow is j's row.
func toJobRow(j conversation.Job) *jobRow {
	return &jobRow{ID: j.ID, AccountID: j.AccountID, ConversationID: j.ConversationID, MessageID: j.MessageID, ReplyID: j.ReplyID,
		Channel: string(j.Channel), Status: string(j.Status), LeaseUntil: dbTime(j.LeaseUntil), Attempts: j.Attempts, Error: j.Error,
		RequestKey: j.RequestKey, CreatedAt: dbTime(j.CreatedAt), UpdatedAt: dbTime(j.UpdatedAt)}
}

// isUniqueViolation reports whether err is a unique index's refusal (Postgres 23505, SQLite
// SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY).
// isLockConflict reports whether err is Postgres ending a statement for a deadlock (40P01) or a
// serialization failure (40001).
func isLockConflict(err error) bool {
	var pg interface{ Field(byte) string }
	if errors.As(err, &pg) {
		code := pg.Field('C')
		return code == "40P01" || code == "40001"
	}
	return false
}

func isUniqueViolation(err error) bool {
	var pg interface{ Field(byte) string }
	if errors.As(err, &pg) {
		return pg.Field('C') == "23505"
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		return lite.Code() == 2067 || lite.Code() == 1555
	}
	return false
}
