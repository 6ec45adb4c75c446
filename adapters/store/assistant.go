package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/wire"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/ports"
)

// AssistantSet provides the repositories of the owner's assistant, each bound to its port.
var AssistantSet = wire.NewSet(
	NewRecords, wire.Bind(new(ports.Records), new(*Records)),
	NewApprovals, wire.Bind(new(ports.Approvals), new(*Approvals)),
	NewAssistantHistory, wire.Bind(new(ports.AssistantHistory), new(*AssistantHistory)),
	NewMailboxes, wire.Bind(new(ports.Mailboxes), new(*Mailboxes)),
)

var (
	_ ports.Records          = (*Records)(nil)
	_ ports.Approvals        = (*Approvals)(nil)
	_ ports.AssistantHistory = (*AssistantHistory)(nil)
	_ ports.Mailboxes        = (*Mailboxes)(nil)
)

type recordRow struct {
	bun.BaseModel `bun:"table:owner_records"`

	ID        string    `bun:"id,pk"`
	AccountID string    `bun:"account_id"`
	Type      string    `bun:"type"`
	Key       string    `bun:"record_key"`
	Title     string    `bun:"title"`
	Email     string    `bun:"email"`
	Phone     string    `bun:"phone"`
	Date      string    `bun:"date"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

func (m *recordRow) domain() assistant.Record {
	return assistant.Record{ID: m.ID, AccountID: m.AccountID, Type: assistant.Type(m.Type), Title: m.Title, Email: m.Email,
		Phone: m.Phone, Date: m.Date, CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}
}

// Records implements ports.Records.
type Records struct{ db *bun.DB }

// NewRecords returns the owner-record repository of db.
func NewRecords(db *bun.DB) *Records { return &Records{db: db} }

// Save inserts r, or, when the account has a record with its key, changes that one's fields
// (keeping its id and creation time), in one statement.
func (r *Records) Save(ctx context.Context, rec assistant.Record) error {
	m := recordRow{ID: rec.ID, AccountID: rec.AccountID, Type: string(rec.Type), Key: rec.Key(), Title: rec.Title,
		Email: rec.Email, Phone: rec.Phone, Date: rec.Date, CreatedAt: dbTime(rec.CreatedAt), UpdatedAt: dbTime(rec.UpdatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).
		On("CONFLICT (account_id, record_key) DO UPDATE").
		// a detail the new save does not give keeps its value ("update Ana's phone" leaves her e-mail)
		Set("title = EXCLUDED.title, email = " + keptUnlessGiven("email") + ", phone = " + keptUnlessGiven("phone") +
			", date = " + keptUnlessGiven("date") + ", updated_at = EXCLUDED.updated_at").
		Exec(ctx); err != nil {
		return fmt.Errorf("save record: %w", err)
	}
	return nil
}

// keptUnlessGiven is the SET expression of an upsert that keeps column's value when the new row
// leaves it empty.
func keptUnlessGiven(column string) string {
	return "CASE WHEN EXCLUDED." + column + " = '' THEN ?TableAlias." + column + " ELSE EXCLUDED." + column + " END"
}

// List returns the account's records of type t, newest first, at most limit, and how many
// there are; bookings include the agent's (the bookings table).
func (r *Records) List(ctx context.Context, accountID string, t assistant.Type, limit int) ([]assistant.Record, int, error) {
	db := idb(ctx, r.db)
	var ms []recordRow
	q := db.NewSelect().Model(&ms).Where("account_id = ?", accountID).Where("type = ?", string(t)).
		OrderExpr("created_at DESC, id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	n, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("list records: %w", err)
	}
	out := make([]assistant.Record, 0, len(ms))
	for i := range ms {
		out = append(out, ms[i].domain())
	}
	if t != assistant.Booking {
		return out, int(n), nil
	}
	var bs []bookingRow
	bq := db.NewSelect().Model(&bs).Where("account_id = ?", accountID).OrderExpr("created_at DESC, id DESC")
	if limit > 0 {
		bq = bq.Limit(int64(limit))
	}
	nb, err := bq.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("list bookings: %w", err)
	}
	for _, b := range bs {
		title := b.Type
		if b.CustomerName != "" {
			title = b.CustomerName + ", " + title
		}
		if b.Time != "" {
			title += " " + b.Time
		}
		out = append(out, assistant.Record{ID: b.ID, AccountID: b.AccountID, Type: assistant.Booking, Title: title,
			Date: b.Date, CreatedAt: domainTime(b.CreatedAt), UpdatedAt: domainTime(b.CreatedAt)})
	}
	sortNewest(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, int(n + nb), nil
}

func sortNewest(rs []assistant.Record) {
	slices.SortStableFunc(rs, func(a, b assistant.Record) int { return b.CreatedAt.Compare(a.CreatedAt) })
}

// approvalActionJSON is how an approval's action is kept.
type approvalActionJSON struct {
	Type     string `json:"type"`
	To       string `json:"to,omitempty"`
	Cc       string `json:"cc,omitempty"`
	Subject  string `json:"subject,omitempty"`
	Text     string `json:"text,omitempty"`
	Name     string `json:"name,omitempty"`
	Email    string `json:"email,omitempty"`
	Phone    string `json:"phone,omitempty"`
	Date     string `json:"date,omitempty"`
	Setting  string `json:"setting,omitempty"`
	Value    string `json:"value,omitempty"`
	Question string `json:"question,omitempty"`
	Answer   string `json:"answer,omitempty"`
	Query    string `json:"query,omitempty"`
	Target   string `json:"target,omitempty"`
	URL      string `json:"url,omitempty"`
	ToOwner  bool   `json:"to_owner,omitempty"`
}

type approvalRow struct {
	bun.BaseModel `bun:"table:approvals"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	Actions        string    `bun:"actions"`
	Hash           string    `bun:"hash"`
	Status         string    `bun:"status"`
	Lang           string    `bun:"lang"`
	ConversationID string    `bun:"conversation_id"`
	CreatedAt      time.Time `bun:"created_at"`
	ExpiresAt      time.Time `bun:"expires_at"`
	UsedAt         time.Time `bun:"used_at,nullzero"`
	Outcome        string    `bun:"outcome"` // approvalOutcomeJSON; "" before the actions ran
	AnsweredAt     time.Time `bun:"answered_at,nullzero"`
}

// approvalOutcomeJSON is how an approval's outcome is kept.
type approvalOutcomeJSON struct {
	Status  string                      `json:"status"`
	Actions []approvalActionOutcomeJSON `json:"actions"`
	Text    string                      `json:"text,omitempty"`
}

type approvalActionOutcomeJSON struct {
	Action approvalActionJSON `json:"action"`
	OK     bool               `json:"ok"`
	Error  string             `json:"error,omitempty"`
}

func approvalActionOf(a assistant.Action) approvalActionJSON {
	return approvalActionJSON{Type: string(a.Type), To: a.To, Cc: a.Cc, Subject: a.Subject, Text: a.Text, Name: a.Name,
		Email: a.Email, Phone: a.Phone, Date: a.Date, Setting: a.Setting, Value: a.Value, Question: a.Question,
		Answer: a.Answer, Query: a.Query, Target: a.Target, URL: a.URL, ToOwner: a.ToOwner}
}

func (a approvalActionJSON) domain() assistant.Action {
	return assistant.Action{Type: assistant.Type(a.Type), To: a.To, Cc: a.Cc, Subject: a.Subject, Text: a.Text,
		Name: a.Name, Email: a.Email, Phone: a.Phone, Date: a.Date, Setting: a.Setting, Value: a.Value,
		Question: a.Question, Answer: a.Answer, Query: a.Query, Target: a.Target, URL: a.URL, ToOwner: a.ToOwner}
}

func encodeOutcome(o approval.Outcome) (string, error) {
	m := approvalOutcomeJSON{Status: string(o.Status), Text: o.Text, Actions: make([]approvalActionOutcomeJSON, len(o.Actions))}
	for i, a := range o.Actions {
		m.Actions[i] = approvalActionOutcomeJSON{Action: approvalActionOf(a.Action), OK: a.OK, Error: string(a.Error)}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encode approval outcome: %w", err)
	}
	return string(b), nil
}

func decodeOutcome(id, s string) (*approval.Outcome, error) {
	if s == "" {
		return nil, nil
	}
	var m approvalOutcomeJSON
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("decode approval %s outcome: %w", id, err)
	}
	o := &approval.Outcome{Status: assistant.Status(m.Status), Text: m.Text, Actions: make([]assistant.Outcome, len(m.Actions))}
	for i, a := range m.Actions {
		o.Actions[i] = assistant.Outcome{Action: a.Action.domain(), OK: a.OK, Error: assistant.ActionError(a.Error)}
	}
	return o, nil
}

func toApprovalRow(r approval.Request) (*approvalRow, error) {
	as := make([]approvalActionJSON, len(r.Actions))
	for i, a := range r.Actions {
		as[i] = approvalActionOf(a)
	}
	b, err := json.Marshal(as)
	if err != nil {
		return nil, fmt.Errorf("encode approval actions: %w", err)
	}
	m := &approvalRow{ID: r.ID, AccountID: r.AccountID, Actions: string(b), Hash: r.Hash, Status: string(r.Status),
		Lang: r.Lang, ConversationID: r.ConversationID, CreatedAt: dbTime(r.CreatedAt), ExpiresAt: dbTime(r.ExpiresAt),
		UsedAt: dbTime(r.UsedAt), AnsweredAt: dbTime(r.AnsweredAt)}
	if r.Outcome != nil {
		if m.Outcome, err = encodeOutcome(*r.Outcome); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *approvalRow) domain() (approval.Request, error) {
	var as []approvalActionJSON
	if err := json.Unmarshal([]byte(m.Actions), &as); err != nil {
		return approval.Request{}, fmt.Errorf("decode approval %s actions: %w", m.ID, err)
	}
	actions := make([]assistant.Action, len(as))
	for i, a := range as {
		actions[i] = a.domain()
	}
	out, err := decodeOutcome(m.ID, m.Outcome)
	if err != nil {
		return approval.Request{}, err
	}
	return approval.Request{ID: m.ID, AccountID: m.AccountID, Actions: actions, Hash: m.Hash, Status: approval.Status(m.Status),
		Lang: m.Lang, ConversationID: m.ConversationID, CreatedAt: domainTime(m.CreatedAt), ExpiresAt: domainTime(m.ExpiresAt),
		UsedAt: domainTime(m.UsedAt), Outcome: out, AnsweredAt: domainTime(m.AnsweredAt)}, nil
}

// Approvals implements ports.Approvals.
type Approvals struct{ db *bun.DB }

// NewApprovals returns the approval repository of db.
func NewApprovals(db *bun.DB) *Approvals { return &Approvals{db: db} }

// Create stores a new approval.
func (r *Approvals) Create(ctx context.Context, a approval.Request) error {
	m, err := toApprovalRow(a)
	if err != nil {
		return err
	}
	if _, err := idb(ctx, r.db).NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("create approval: %w", err)
	}
	return nil
}

// Use is one conditional UPDATE … WHERE status = 'pending' AND expires_at >= now … RETURNING,
// on both databases: of concurrent uses the first to write wins, the others match no row.
func (r *Approvals) Use(ctx context.Context, accountID, id string, now time.Time) (approval.Request, error) {
	return r.decide(ctx, accountID, id, now, approval.Used)
}

// Refuse is Use's conditional UPDATE with status 'refused': of a concurrent Use and Refuse, the
// first to write wins and the other matches no row.
func (r *Approvals) Refuse(ctx context.Context, accountID, id string, now time.Time) (approval.Request, error) {
	return r.decide(ctx, accountID, id, now, approval.Refused)
}

// decide moves the account's pending approval id, not past its expiry at now, to status to.
func (r *Approvals) decide(ctx context.Context, accountID, id string, now time.Time, to approval.Status) (approval.Request, error) {
	var m approvalRow
	err := idb(ctx, r.db).NewUpdate().Model(&m).
		Set("status = ?", string(to)).
		Set("used_at = ?", dbTime(now)).
		Where("account_id = ?", accountID).
		Where("id = ?", id).
		Where("status = ?", string(approval.Pending)).
		Where("expires_at >= ?", dbTime(now)).
		Returning("*").
		Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || err == nil && m.ID == "" {
		return approval.Request{}, approval.NotFound()
	}
	if err != nil {
		return approval.Request{}, fmt.Errorf("mark approval %s: %w", to, err)
	}
	return m.domain()
}

// Pending lists the account's pending approvals not past their expiry at now, newest first (the
// index approvals_account).
func (r *Approvals) Pending(ctx context.Context, accountID string, now time.Time, limit int) ([]approval.Request, error) {
	var ms []approvalRow
	if err := idb(ctx, r.db).NewSelect().Model(&ms).
		Where("account_id = ?", accountID).
		Where("status = ?", string(approval.Pending)).
		Where("expires_at >= ?", dbTime(now)).
		OrderExpr("created_at DESC, id DESC").
		Limit(int64(limit)).
		Scan(ctx); err != nil {
		return nil, fmt.Errorf("list pending approvals: %w", err)
	}
	out := make([]approval.Request, 0, len(ms))
	for i := range ms {
		a, err := ms[i].domain()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// Get returns the account's approval id; approval_not_found when the account has none.
func (r *Approvals) Get(ctx context.Context, accountID, id string) (approval.Request, error) {
	var m approvalRow
	err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return approval.Request{}, approval.NotFound()
	}
	if err != nil {
		return approval.Request{}, fmt.Errorf("get approval: %w", err)
	}
	return m.domain()
}

// Record keeps the outcome of the account's used approval (one UPDATE … WHERE status = 'used').
func (r *Approvals) Record(ctx context.Context, accountID, id string, o approval.Outcome) error {
	enc, err := encodeOutcome(o)
	if err != nil {
		return err
	}
	res, err := idb(ctx, r.db).NewUpdate().Table("approvals").Set("outcome = ?", enc).
		Where("account_id = ?", accountID).Where("id = ?", id).Where("status = ?", string(approval.Used)).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("record approval outcome: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("record approval outcome: %w", err)
	} else if n == 0 {
		return approval.NotFound()
	}
	return nil
}

// Answer is one conditional UPDATE … WHERE answered_at IS NULL AND outcome <> ”: of concurrent
// calls the first to write wins.
func (r *Approvals) Answer(ctx context.Context, accountID, id string, now time.Time) (bool, error) {
	res, err := idb(ctx, r.db).NewUpdate().Table("approvals").Set("answered_at = ?", dbTime(now)).
		Where("account_id = ?", accountID).Where("id = ?", id).Where("status = ?", string(approval.Used)).
		Where("outcome <> ''").Where("answered_at IS NULL").
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("answer approval: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("answer approval: %w", err)
	}
	return n == 1, nil
}

type turnRow struct {
	bun.BaseModel `bun:"table:assistant_turns"`

	AccountID      string    `bun:"account_id,pk"`
	ConversationID string    `bun:"conversation_id,pk"`
	Seq            int64     `bun:"seq,pk"`
	Role           string    `bun:"role"`
	Content        string    `bun:"content"`
	Status         string    `bun:"status"`
	Missing        string    `bun:"missing"`
	CreatedAt      time.Time `bun:"created_at"`
}

// assistantConversationRow is a kept assistant conversation's row: when it began and last moved.
type assistantConversationRow struct {
	bun.BaseModel `bun:"table:assistant_conversations"`

	AccountID string    `bun:"account_id,pk"`
	ID        string    `bun:"id,pk"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

func (m *assistantConversationRow) domain() conversation.Conversation {
	return conversation.Conversation{AccountID: m.AccountID, ID: m.ID, Channel: conversation.ChannelAssistant,
		CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}
}

// AssistantHistory implements ports.AssistantHistory.
type AssistantHistory struct{ db *bun.DB }

// NewAssistantHistory returns the assistant-conversation repository of db.
func NewAssistantHistory(db *bun.DB) *AssistantHistory { return &AssistantHistory{db: db} }

// Add appends turns after the conversation's last, in one transaction. Concurrent adds to the
// same conversation (the owner sending several messages with one conversation_id) take turns:
// on Postgres on an advisory lock of the conversation, taken before its last turn is read (two
// adds reading the same last turn would both write the next one, and one would fail on the
// primary key); SQLite's write lock already makes them so. Each add's turns stay together.
func (r *AssistantHistory) Add(ctx context.Context, accountID string, turns ...assistant.Turn) error {
	if len(turns) == 0 {
		return nil
	}
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		if tx.Dialect().Name() == dialect.PG {
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext(?))",
				"assistant_turns:"+accountID+":"+turns[0].ConversationID); err != nil {
				return fmt.Errorf("add turns: %w", err)
			}
		}
		var last sql.NullInt64
		if err := tx.NewSelect().Model((*turnRow)(nil)).ColumnExpr("MAX(seq)").
			Where("account_id = ?", accountID).Where("conversation_id = ?", turns[0].ConversationID).
			Scan(ctx, &last); err != nil {
			return fmt.Errorf("add turns: %w", err)
		}
		ms := make([]turnRow, len(turns))
		conv := assistantConversationRow{AccountID: accountID, ID: turns[0].ConversationID, CreatedAt: dbTime(turns[0].CreatedAt)}
		for i, t := range turns {
			ms[i] = turnRow{AccountID: accountID, ConversationID: t.ConversationID, Seq: last.Int64 + int64(i) + 1,
				Role: t.Role, Content: t.Content, Status: string(t.Status), Missing: t.Missing, CreatedAt: dbTime(t.CreatedAt)}
			conv.CreatedAt, conv.UpdatedAt = minTime(conv.CreatedAt, ms[i].CreatedAt), maxTime(conv.UpdatedAt, ms[i].CreatedAt)
		}
		if _, err := tx.NewInsert().Model(&ms).Exec(ctx); err != nil {
			return fmt.Errorf("add turns: %w", err)
		}
		// The conversation's row: created with its first turns, its updated_at moved forward
		// (never back) by the later ones.
		if _, err := tx.NewInsert().Model(&conv).
			On("CONFLICT (account_id, id) DO UPDATE").
			Set("updated_at = CASE WHEN ?TableAlias.updated_at < EXCLUDED.updated_at THEN EXCLUDED.updated_at ELSE ?TableAlias.updated_at END").
			Exec(ctx); err != nil {
			return fmt.Errorf("add turns: keep conversation: %w", err)
		}
		return nil
	})
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Conversation returns the account's kept conversation as one of the account's conversations
// (channel assistant); not_found when the account has none with that id.
func (r *AssistantHistory) Conversation(ctx context.Context, accountID, conversationID string) (conversation.Conversation, error) {
	var m assistantConversationRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).
		Where("id = ?", conversationID).Scan(ctx); err != nil {
		return conversation.Conversation{}, notFound(err, "conversation", "get assistant conversation")
	}
	return m.domain(), nil
}

// Hold takes the account's conversation for one turn until until, when no other turn holds it
// (none did, the one that did let go, or its until is past at now): one conditional write, so
// that of concurrent turns one takes it. ok is false when another turn holds it; not_found when
// the account has no such conversation.
func (r *AssistantHistory) Hold(ctx context.Context, accountID, conversationID, turn string, now, until time.Time) (bool, error) {
	res, err := idb(ctx, r.db).NewUpdate().Table("assistant_conversations").
		Set("turn_id = ?", turn).Set("turn_until = ?", dbTime(until)).
		Where("account_id = ?", accountID).Where("id = ?", conversationID).
		Where("(turn_id = '' OR turn_until IS NULL OR turn_until < ?)", dbTime(now)).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("hold conversation: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("hold conversation: %w", err)
	} else if n == 1 {
		return true, nil
	}
	exists, err := idb(ctx, r.db).NewSelect().Table("assistant_conversations").
		Where("account_id = ?", accountID).Where("id = ?", conversationID).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("hold conversation: %w", err)
	}
	if !exists {
		return false, domain.NotFound("conversation")
	}
	return false, nil
}

// Release lets go of the conversation that turn holds (nothing when it no longer holds it).
func (r *AssistantHistory) Release(ctx context.Context, accountID, conversationID, turn string) error {
	if _, err := idb(ctx, r.db).NewUpdate().Table("assistant_conversations").
		Set("turn_id = ''").Set("turn_until = NULL").
		Where("account_id = ?", accountID).Where("id = ?", conversationID).Where("turn_id = ?", turn).
		Exec(ctx); err != nil {
		return fmt.Errorf("release conversation: %w", err)
	}
	return nil
}

// Turns returns the last limit turns, oldest first; not_found when there are none.
func (r *AssistantHistory) Turns(ctx context.Context, accountID, conversationID string, limit int) ([]assistant.Turn, error) {
	var ms []turnRow
	q := idb(ctx, r.db).NewSelect().Model(&ms).Where("account_id = ?", accountID).
		Where("conversation_id = ?", conversationID).Order("seq DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("read turns: %w", err)
	}
	if len(ms) == 0 {
		return nil, domain.NotFound("conversation")
	}
	out := make([]assistant.Turn, len(ms))
	for i, m := range ms {
		out[len(ms)-1-i] = assistant.Turn{ConversationID: m.ConversationID, Seq: m.Seq, Role: m.Role, Content: m.Content,
			Status: assistant.Status(m.Status), Missing: m.Missing, CreatedAt: domainTime(m.CreatedAt)}
	}
	return out, nil
}

type mailboxRow struct {
	bun.BaseModel `bun:"table:mailboxes"`

	AccountID      string    `bun:"account_id,pk"`
	Host           string    `bun:"host"`
	Port           int       `bun:"port"`
	Username       string    `bun:"username"`
	SealedPassword []byte    `bun:"sealed_password"`
	From           string    `bun:"from_address"`
	Security       string    `bun:"security"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

// Mailboxes implements ports.Mailboxes.
type Mailboxes struct{ db *bun.DB }

// NewMailboxes returns the mail-connector repository of db.
func NewMailboxes(db *bun.DB) *Mailboxes { return &Mailboxes{db: db} }

// Get returns the account's mailbox; not_found when none.
func (r *Mailboxes) Get(ctx context.Context, accountID string) (assistant.Mailbox, error) {
	var m mailboxRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Scan(ctx); err != nil {
		return assistant.Mailbox{}, notFound(err, "mailbox", "get mailbox")
	}
	return assistant.Mailbox{AccountID: m.AccountID, Host: m.Host, Port: m.Port, Username: m.Username,
		SealedPassword: m.SealedPassword, From: m.From, Security: assistant.Security(m.Security), UpdatedAt: domainTime(m.UpdatedAt)}, nil
}

// Save stores the account's mailbox, replacing the one it had.
func (r *Mailboxes) Save(ctx context.Context, b assistant.Mailbox) error {
	m := mailboxRow{AccountID: b.AccountID, Host: b.Host, Port: b.Port, Username: b.Username, SealedPassword: b.SealedPassword,
		From: b.From, Security: string(b.Security), UpdatedAt: dbTime(b.UpdatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).
		On("CONFLICT (account_id) DO UPDATE").
		Set("host = EXCLUDED.host, port = EXCLUDED.port, username = EXCLUDED.username, sealed_password = EXCLUDED.sealed_password, from_address = EXCLUDED.from_address, security = EXCLUDED.security, updated_at = EXCLUDED.updated_at").
		Exec(ctx); err != nil {
		return fmt.Errorf("save mailbox: %w", err)
	}
	return nil
}

// Delete removes the account's mailbox.
func (r *Mailboxes) Delete(ctx context.Context, accountID string) error {
	if _, err := idb(ctx, r.db).NewDelete().Model((*mailboxRow)(nil)).Where("account_id = ?", accountID).Exec(ctx); err != nil {
		return fmt.Errorf("delete mailbox: %w", err)
	}
	return nil
}
