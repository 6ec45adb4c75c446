package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/ports"
)

var (
	_ ports.Conversations = (*Conversations)(nil)
	_ ports.ReplyJobs     = (*ReplyJobs)(nil)
	_ ports.Sessions      = (*Sessions)(nil)
	_ ports.Bookings      = (*Bookings)(nil)
)

type conversationRow struct {
	bun.BaseModel `bun:"table:conversations"`

	AccountID    string    `bun:"account_id,pk"`
	ID           string    `bun:"id,pk"`
	Channel      string    `bun:"channel"`
	CustomerName string    `bun:"customer_name"`
	ContactID    string    `bun:"contact_id"`
	Tags         string    `bun:"tags"`
	CreatedAt    time.Time `bun:"created_at"`
	UpdatedAt    time.Time `bun:"updated_at"`
}

func (m *conversationRow) domain() (conversation.Conversation, error) {
	tags, err := decodeList(m.Tags)
	if err != nil {
		return conversation.Conversation{}, fmt.Errorf("conversation %s: tags: %w", m.ID, err)
	}
	return conversation.Conversation{AccountID: m.AccountID, ID: m.ID, Channel: conversation.Channel(m.Channel),
		CustomerName: m.CustomerName, ContactID: m.ContactID, Tags: tags,
		CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}, nil
}

type messageRow struct {
	bun.BaseModel `bun:"table:messages"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	ConversationID string    `bun:"conversation_id"`
	Role           string    `bun:"role"`
	Content        string    `bun:"content"`
	Actions        string    `bun:"actions"`
	ReplyTo        string    `bun:"reply_to"`
	CreatedAt      time.Time `bun:"created_at"`
	Seq            int64     `bun:"seq"`
}

func (row *messageRow) domain() (conversation.Message, error) {
	var actions []actionJSON
	if err := json.Unmarshal([]byte(row.Actions), &actions); err != nil {
		return conversation.Message{}, fmt.Errorf("message %s: actions: %w", row.ID, err)
	}
	m := conversation.Message{ID: row.ID, ConversationID: row.ConversationID, Role: row.Role,
		Content: row.Content, ReplyTo: row.ReplyTo, CreatedAt: domainTime(row.CreatedAt)}
	for _, a := range actions {
		m.Actions = append(m.Actions, conversation.Action(a))
	}
	return m, nil
}

// touch moves a conversation's updated_at forward to at, never back (a change that commits late
// may carry an earlier time), and reports whether the conversation exists. It locks the row.
func touch(ctx context.Context, tx bun.IDB, accountID, conversationID string, set *bun.UpdateQuery, at time.Time) (bool, error) {
	at = dbTime(at)
	res, err := set.Model((*conversationRow)(nil)).
		Set("updated_at = CASE WHEN updated_at < ? THEN ? ELSE updated_at END", at, at).
		Where("account_id = ?", accountID).Where("id = ?", conversationID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

type actionJSON struct {
	Type      string `json:"type"`
	URL       string `json:"url,omitempty"`
	ProductID string `json:"product_id,omitempty"`
	Qty       int    `json:"qty,omitempty"`
}

// Conversations implements ports.Conversations.
type Conversations struct {
	db       *bun.DB
	exchange *prepared                // Postgres: Exchange in one statement
	pgGroups handoff[*pgExchangeCall] // Postgres: exchanges waiting for a writer (pggroup.go)
	// SQLite: Exchange's statements in its transaction
	xOpen, xCount, xCharge, xMessages, xJob, xEvent *prepared
	xFits                                           *prepared      // SQLite: whether an exchange fits (groupcommit.go)
	groups                                          exchangeGroups // SQLite: exchanges stored together (groupcommit.go)
	checkpoints                                     checkpoints    // SQLite: the log's checkpoints beside the writers (groupcommit.go)
}

// NewConversations returns the conversation repository of db.
func NewConversations(db *bun.DB) *Conversations {
	return &Conversations{db: db, exchange: prepare(db, pgExchange, ""),
		xOpen: prepare(db, "", sqliteExchangeOpen), xCount: prepare(db, "", sqliteCount), xCharge: prepare(db, "", sqliteRecord),
		xMessages: prepare(db, "", sqliteExchangeLast+sqliteExchangeMessages), xJob: prepare(db, "", sqliteExchangeJob),
		xEvent: prepare(db, "", sqliteExchangeEvent), xFits: prepare(db, "", sqliteExchangeFits)}
}

// Open returns the conversation, creating it when new.
func (r *Conversations) Open(ctx context.Context, c conversation.Conversation) (conversation.Conversation, error) {
	var out conversation.Conversation
	err := inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		tags, err := encodeList(c.Tags)
		if err != nil {
			return err
		}
		m := conversationRow{AccountID: c.AccountID, ID: c.ID, Channel: string(c.Channel), CustomerName: c.CustomerName,
			ContactID: c.ContactID, Tags: tags, CreatedAt: dbTime(c.CreatedAt), UpdatedAt: dbTime(c.UpdatedAt)}
		if _, err := tx.NewInsert().Model(&m).On("CONFLICT (account_id, id) DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("open conversation: %w", err)
		}
		if c.CustomerName != "" {
			if _, err := tx.NewUpdate().Model((*conversationRow)(nil)).Set("customer_name = ?", c.CustomerName).
				Where("account_id = ?", c.AccountID).Where("id = ?", c.ID).Exec(ctx); err != nil {
				return fmt.Errorf("name conversation: %w", err)
			}
		}
		out, err = getConversation(ctx, tx, c.AccountID, c.ID)
		return err
	})
	return out, err
}

func getConversation(ctx context.Context, db bun.IDB, accountID, id string) (conversation.Conversation, error) {
	var m conversationRow
	err := db.NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", id).Scan(ctx)
	if err != nil {
		return conversation.Conversation{}, notFound(err, "conversation", "get conversation")
	}
	return m.domain()
}

// Get returns one conversation of the account.
func (r *Conversations) Get(ctx context.Context, accountID, conversationID string) (conversation.Conversation, error) {
	return getConversation(ctx, idb(ctx, r.db), accountID, conversationID)
}

// List pages through the account's conversations, newest first (by creation, then id).
func (r *Conversations) List(ctx context.Context, accountID string, q conversation.ListQuery) (conversation.Page, error) {
	db := idb(ctx, r.db)
	// Each kind's page is read on its own, newest first, through its index, and the two are
	// merged by the same order (UNION ALL): a page holds the newest of both after the cursor.
	var parts []*bun.SelectQuery
	if q.Channel != conversation.ChannelAssistant {
		sel := db.NewSelect().Model((*conversationRow)(nil)).Column(conversationColumns...).Where("account_id = ?", accountID)
		if q.Channel != "" {
			sel = sel.Where("channel = ?", string(q.Channel))
		}
		parts = append(parts, sel)
	}
	if q.Assistant && (q.Channel == "" || q.Channel == conversation.ChannelAssistant) {
		parts = append(parts, db.NewSelect().Model((*assistantConversationRow)(nil)).
			ColumnExpr("account_id, id, ? AS channel, '' AS customer_name, '' AS contact_id, '[]' AS tags, created_at, updated_at",
				string(conversation.ChannelAssistant)).
			Where("account_id = ?", accountID))
	}
	if len(parts) == 0 {
		return conversation.Page{}, nil
	}
	for i, sel := range parts {
		if q.After != nil {
			at := dbTime(q.After.CreatedAt)
			sel = sel.Where("(created_at < ? OR (created_at = ? AND id < ?))", at, at, q.After.ID)
		}
		parts[i] = sel.OrderExpr("created_at DESC, id DESC").Limit(int64(q.Limit + 1))
	}
	var ms []conversationRow
	var err error
	if len(parts) == 1 {
		err = parts[0].Scan(ctx, &ms)
	} else {
		err = db.NewRaw("SELECT * FROM (?) AS c UNION ALL SELECT * FROM (?) AS a ORDER BY created_at DESC, id DESC LIMIT ?",
			parts[0], parts[1], q.Limit+1).Scan(ctx, &ms)
	}
	if err != nil {
		return conversation.Page{}, fmt.Errorf("list conversations: %w", err)
	}
	page := conversation.Page{HasMore: len(ms) > q.Limit}
	for i := range ms[:min(len(ms), q.Limit)] {
		c, err := ms[i].domain()
		if err != nil {
			return conversation.Page{}, err
		}
		page.Conversations = append(page.Conversations, c)
	}
	return page, nil
}

// conversationColumns are conversationRow's, in the order List's kinds share.
var conversationColumns = []string{"account_id", "id", "channel", "customer_name", "contact_id", "tags", "created_at", "updated_at"}

// AddMessage stores a message and touches its conversation.
func (r *Conversations) AddMessage(ctx context.Context, accountID string, m conversation.Message) error {
	actions := make([]actionJSON, len(m.Actions))
	for i, a := range m.Actions {
		actions[i] = actionJSON(a)
	}
	b, err := json.Marshal(actions)
	if err != nil {
		return fmt.Errorf("encode actions: %w", err)
	}
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		// The conversation's row is locked first: the messages added to it queue there, so each
		// reads the number of the one before it only once that one has committed.
		ok, err := touch(ctx, tx, accountID, m.ConversationID, tx.NewUpdate(), m.CreatedAt)
		if err != nil {
			return fmt.Errorf("touch conversation: %w", err)
		}
		if !ok {
			return notFound(sql.ErrNoRows, "conversation", "add message")
		}
		// seq orders a conversation's messages as they were added, whatever their clocks say.
		var last int64
		if err := tx.NewSelect().Model((*messageRow)(nil)).ColumnExpr("COALESCE(MAX(seq), 0)").
			Where("account_id = ?", accountID).Where("conversation_id = ?", m.ConversationID).Scan(ctx, &last); err != nil {
			return fmt.Errorf("add message: %w", err)
		}
		row := messageRow{ID: m.ID, AccountID: accountID, ConversationID: m.ConversationID, Role: m.Role,
			Content: m.Content, Actions: string(b), ReplyTo: m.ReplyTo, CreatedAt: dbTime(m.CreatedAt), Seq: last + 1}
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return fmt.Errorf("add message: %w", err)
		}
		return nil
	})
}

// Messages returns the last limit messages, oldest first.
func (r *Conversations) Messages(ctx context.Context, accountID, conversationID string, limit int) ([]conversation.Message, error) {
	q := idb(ctx, r.db).NewSelect().Where("account_id = ?", accountID).Where("conversation_id = ?", conversationID)
	return messages(ctx, q, limit)
}

// UpTo returns the message messageID and up to limit-1 messages before it, oldest first.
func (r *Conversations) UpTo(ctx context.Context, accountID, conversationID, messageID string, limit int) ([]conversation.Message, error) {
	db := idb(ctx, r.db)
	at := db.NewSelect().Model((*messageRow)(nil)).Column("seq").
		Where("account_id = ?", accountID).Where("conversation_id = ?", conversationID).Where("id = ?", messageID)
	q := db.NewSelect().Where("account_id = ?", accountID).Where("conversation_id = ?", conversationID).
		Where("seq <= (?)", at)
	out, err := messages(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 || out[len(out)-1].ID != messageID {
		return nil, domain.NotFound("message")
	}
	return out, nil
}

// messages runs q for the last limit messages (0: all) and returns them oldest first.
func messages(ctx context.Context, q *bun.SelectQuery, limit int) ([]conversation.Message, error) {
	var rows []messageRow
	q = q.Model(&rows).OrderExpr("seq DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	slices.Reverse(rows)
	out := make([]conversation.Message, len(rows))
	for i := range rows {
		m, err := rows[i].domain()
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// Tag adds a tag to a conversation, once.
func (r *Conversations) Tag(ctx context.Context, accountID, conversationID, tag string, at time.Time) error {
	return inTx(ctx, r.db, func(ctx context.Context, tx bun.IDB) error {
		var m conversationRow
		q := tx.NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", conversationID)
		if err := lockForUpdate(q, tx).Scan(ctx); err != nil {
			return notFound(err, "conversation", "tag conversation")
		}
		tags, err := decodeList(m.Tags)
		if err != nil {
			return err
		}
		if slices.Contains(tags, tag) {
			return nil
		}
		enc, err := encodeList(append(tags, tag))
		if err != nil {
			return err
		}
		_, err = touch(ctx, tx, accountID, conversationID, tx.NewUpdate().Set("tags = ?", enc), at)
		return err
	})
}

type jobRow struct {
	bun.BaseModel `bun:"table:reply_jobs"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	ConversationID string    `bun:"conversation_id"`
	MessageID      string    `bun:"message_id"`
	Channel        string    `bun:"channel"`
	Status         string    `bun:"status"`
	LeaseUntil     time.Time `bun:"lease_until"`
	Attempts       int       `bun:"attempts"`
	ReplyID        string    `bun:"reply_id"`
	Error          string    `bun:"error"`
	RequestKey     string    `bun:"request_key"`
	CreatedAt      time.Time `bun:"created_at"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

func (m *jobRow) domain() conversation.Job {
	return conversation.Job{ID: m.ID, AccountID: m.AccountID, ConversationID: m.ConversationID, MessageID: m.MessageID,
		Channel: conversation.Channel(m.Channel), Status: conversation.JobStatus(m.Status), LeaseUntil: domainTime(m.LeaseUntil), Attempts: m.Attempts,
		ReplyID: m.ReplyID, Error: m.Error, RequestKey: m.RequestKey, CreatedAt: domainTime(m.CreatedAt), UpdatedAt: domainTime(m.UpdatedAt)}
}

// ReplyJobs implements ports.ReplyJobs.
type ReplyJobs struct{ db *bun.DB }

// NewReplyJobs returns the reply job repository of db.
func NewReplyJobs(db *bun.DB) *ReplyJobs { return &ReplyJobs{db: db} }

// Create stores a job.
func (r *ReplyJobs) Create(ctx context.Context, j conversation.Job) error {
	m := jobRow{ID: j.ID, AccountID: j.AccountID, ConversationID: j.ConversationID, MessageID: j.MessageID, ReplyID: j.ReplyID,
		Channel: string(j.Channel), Status: string(j.Status), LeaseUntil: dbTime(j.LeaseUntil), Attempts: j.Attempts, Error: j.Error,
		RequestKey: j.RequestKey, CreatedAt: dbTime(j.CreatedAt), UpdatedAt: dbTime(j.UpdatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create reply job: %w", err)
	}
	return nil
}

// Get returns one job of the account.
func (r *ReplyJobs) Get(ctx context.Context, accountID, jobID string) (conversation.Job, error) {
	var m jobRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("id = ?", jobID).Scan(ctx); err != nil {
		return conversation.Job{}, notFound(err, "reply job", "get reply job")
	}
	return m.domain(), nil
}

// ByRequestKey returns the job of the request key names, made after since (the partial index
// reply_jobs_request_key): the one done or pending when there is one (a request has at most one:
// a retry makes a new job only when all before it failed), else the latest failed; not_found
// when none.
func (r *ReplyJobs) ByRequestKey(ctx context.Context, accountID, key string, since time.Time) (conversation.Job, error) {
	if key == "" {
		return conversation.Job{}, domain.NotFound("reply job")
	}
	var m jobRow
	if err := idb(ctx, r.db).NewSelect().Model(&m).Where("account_id = ?", accountID).Where("request_key = ?", key).
		Where("request_key <> ''").Where("created_at > ?", dbTime(since)).
		OrderExpr("CASE WHEN status = ? THEN 1 ELSE 0 END, created_at DESC, id DESC", string(conversation.JobFailed)).Limit(1).Scan(ctx); err != nil {
		return conversation.Job{}, notFound(err, "reply job", "find reply job by request")
	}
	return m.domain(), nil
}

// Finish stores a job that conversation.Job.Complete or Fail finished, when the stored job is
// still pending (the condition of those transitions), and reports whether this call did.
func (r *ReplyJobs) Finish(ctx context.Context, j conversation.Job) (bool, error) {
	if !j.Finished() {
		return false, fmt.Errorf("finish reply job %s: status %q is not a finished one", j.ID, j.Status)
	}
	res, err := idb(ctx, r.db).NewUpdate().Model((*jobRow)(nil)).
		Set("status = ?", string(j.Status)).Set("reply_id = ?", j.ReplyID).Set("error = ?", j.Error).Set("updated_at = ?", dbTime(j.UpdatedAt)).
		Where("account_id = ?", j.AccountID).Where("id = ?", j.ID).Where("status = ?", string(conversation.JobPending)).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("finish reply job: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// ClaimExpired takes over pending jobs whose lease ended, as conversation.Job.TakeOver does: the
// conditions (pending, lease_until < now) and the changes (lease_until = now+lease, attempts + 1,
// updated_at = now) are that method's, in SQL so that each claim is one conditional statement.
func (r *ReplyJobs) ClaimExpired(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]conversation.Job, error) {
	db := idb(ctx, r.db)
	var ids []string
	if err := db.NewSelect().Model((*jobRow)(nil)).Column("id").
		Where("status = ?", string(conversation.JobPending)).Where("lease_until < ?", dbTime(now)).
		Order("lease_until").Limit(int64(limit)).Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("find expired reply jobs: %w", err)
	}
	var out []conversation.Job
	for _, id := range ids {
		var m jobRow
		err := db.NewUpdate().Model(&m).
			Set("lease_until = ?", dbTime(now.Add(lease))).Set("attempts = attempts + 1").Set("updated_at = ?", dbTime(now)).
			Where("id = ?", id).Where("status = ?", string(conversation.JobPending)).Where("lease_until < ?", dbTime(now)).
			Returning("*").Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			continue // another sweeper took it
		}
		if err != nil {
			return nil, fmt.Errorf("claim reply job: %w", err)
		}
		out = append(out, m.domain())
	}
	return out, nil
}

type sessionRow struct {
	bun.BaseModel `bun:"table:client_sessions"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	KeyID          string    `bun:"key_id"`
	ConversationID string    `bun:"conversation_id"`
	CustomerName   string    `bun:"customer_name"`
	Hash           string    `bun:"hash"`
	ExpiresAt      time.Time `bun:"expires_at"`
	CreatedAt      time.Time `bun:"created_at"`
}

// Sessions implements ports.Sessions.
type Sessions struct {
	db         *bun.DB
	credential *prepared
}

// NewSessions returns the client session repository of db.
func NewSessions(db *bun.DB) *Sessions {
	return &Sessions{db: db, credential: prepare(db, pgClientCredential, qmarkClientCredential)}
}

// Create stores a session.
func (r *Sessions) Create(ctx context.Context, s session.Session) error {
	m := sessionRow{ID: s.ID, AccountID: s.AccountID, KeyID: s.KeyID, ConversationID: s.ConversationID, CustomerName: s.CustomerName,
		Hash: s.Hash, ExpiresAt: dbTime(s.ExpiresAt), CreatedAt: dbTime(s.CreatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create client session: %w", err)
	}
	return nil
}

// clientCredentialQuery is Credential's query, with the placeholder of each dialect filled in:
// the token's hash. The key is joined by id (its primary key); a session of no key (made before
// sessions recorded their key) has none to join.
const clientCredentialQuery = `SELECT s.id, s.account_id, s.key_id, s.conversation_id, s.customer_name, s.hash,
	s.expires_at, s.created_at, a.id AS a_id, a.name AS a_name, a.plan AS a_plan,
	a.interaction_limit AS a_interaction_limit, a.status AS a_status, a.owner_email AS a_owner_email,
	a.widget_token AS a_widget_token, a.allowed_domains AS a_allowed_domains,
	a.developer_bonus AS a_developer_bonus, a.developer_since AS a_developer_since,
	a.developer_client AS a_developer_client, a.created_at AS a_created_at, a.updated_at AS a_updated_at,
	k.id AS k_id, k.revoked_at AS k_revoked_at
FROM client_sessions AS s
JOIN accounts AS a ON a.id = s.account_id
LEFT JOIN api_keys AS k ON k.id = s.key_id
WHERE s.hash = %s`

var (
	pgClientCredential    = fmt.Sprintf(clientCredentialQuery, "$1")
	qmarkClientCredential = fmt.Sprintf(clientCredentialQuery, "?")
)

// clientCredentialRow is a row of clientCredentialQuery.
type clientCredentialRow struct {
	sessionRow
	Account      accountRow `bun:"embed:a_"`
	KeyFound     string     `bun:"k_id,nullzero"`
	KeyRevokedAt time.Time  `bun:"k_revoked_at,nullzero"`
}

// Credential finds a session by its token's hash, with its account and whether the key that
// created it is revoked, in one prepared query; not_found when none. It is the client
// authentication lookup, so it is not scoped to an account. A session whose key is gone counts
// as revoked.
func (r *Sessions) Credential(ctx context.Context, hash string) (ports.ClientCredential, error) {
	var row clientCredentialRow
	stmt, ok, err := r.credential.on(ctx, r.db)
	switch {
	case err != nil:
		return ports.ClientCredential{}, fmt.Errorf("find client session: %w", err)
	case ok:
		err = scanOne(ctx, r.db, stmt, &row, hash)
	default:
		err = idb(ctx, r.db).NewRaw(qmarkClientCredential, hash).Scan(ctx, &row)
	}
	if err != nil {
		return ports.ClientCredential{}, notFound(err, "client session", "find client session")
	}
	acct, err := row.Account.domain()
	if err != nil {
		return ports.ClientCredential{}, err
	}
	m := row.sessionRow
	sess := session.Session{ID: m.ID, AccountID: m.AccountID, KeyID: m.KeyID, ConversationID: m.ConversationID,
		CustomerName: m.CustomerName, Hash: m.Hash, ExpiresAt: domainTime(m.ExpiresAt), CreatedAt: domainTime(m.CreatedAt)}
	revoked := m.KeyID != "" && (row.KeyFound == "" || !row.KeyRevokedAt.IsZero())
	return ports.ClientCredential{Session: sess, Account: acct, KeyRevoked: revoked}, nil
}

type bookingRow struct {
	bun.BaseModel `bun:"table:bookings"`

	ID             string    `bun:"id,pk"`
	AccountID      string    `bun:"account_id"`
	ConversationID string    `bun:"conversation_id"`
	CustomerName   string    `bun:"customer_name"`
	Date           string    `bun:"date"`
	Time           string    `bun:"time"`
	Duration       string    `bun:"duration"`
	Type           string    `bun:"type"`
	CreatedAt      time.Time `bun:"created_at"`
}

// Bookings implements ports.Bookings.
type Bookings struct{ db *bun.DB }

// NewBookings returns the booking repository of db.
func NewBookings(db *bun.DB) *Bookings { return &Bookings{db: db} }

// Create stores a booking.
func (r *Bookings) Create(ctx context.Context, accountID string, b conversation.Booking) error {
	m := bookingRow{ID: b.ID, AccountID: accountID, ConversationID: b.ConversationID, CustomerName: b.CustomerName,
		Date: b.Date, Time: b.Time, Duration: b.Duration, Type: b.Type, CreatedAt: dbTime(b.CreatedAt)}
	if _, err := idb(ctx, r.db).NewInsert().Model(&m).Exec(ctx); err != nil {
		return fmt.Errorf("create booking: %w", err)
	}
	return nil
}
