package store_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports"
)

// TestExchangeGroups checks what the ports allow but the group commit must not do (SQLite's, and
// Postgres's groups of the exchanges waiting for a writer): of concurrent exchanges stored in
// groups, one that does not fit (over the limit, after its conversation was opened in the group's
// transaction) leaves nothing behind, not even its conversation, and the others are stored whole.
func TestExchangeGroups(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testExchangeGroups(t, testenv.SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { testExchangeGroups(t, testenv.Postgres(t)) })
}

func testExchangeGroups(t *testing.T, url string) {
	const writers, room = 24, 5
	db := newDB(t, url)
	ctx := t.Context()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	createAccount(t, db, "acct_g", now)
	if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: "chg_open", AccountID: "acct_g", Action: ledger.ChatReply, Cost: 1, At: now},
		ledger.PeriodAt(now), 1+room); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	convs := store.NewConversations(db)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		stored []string
		start  = make(chan struct{})
	)
	for i := range writers {
		wg.Go(func() {
			conv := fmt.Sprint("c", i)
			x := groupExchange(i, "acct_g", conv, fmt.Sprint("msg_c", i), fmt.Sprint("msg_r", i), 1+room, now)
			x.HooksOnly = i%2 == 1 // written done (the account has no webhook), and said so
			<-start
			_, _, pending, err := convs.Exchange(ctx, x)
			switch {
			case err == nil:
				if pending != !x.HooksOnly {
					t.Errorf("exchange %d: pending %t, want %t", i, pending, !x.HooksOnly)
				}
				mu.Lock()
				stored = append(stored, conv)
				mu.Unlock()
			case !errors.Is(err, ports.ErrNotExchanged):
				t.Errorf("exchange %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(stored) != room {
		t.Fatalf("%d exchanges stored, want %d", len(stored), room)
	}
	for table, want := range map[string]int{"conversations": room, "messages": 2 * room, "reply_jobs": room, "outbox": room, "charges": 1 + room} {
		n, err := db.NewSelect().Table(table).Where("account_id = ?", "acct_g").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if int(n) != want {
			t.Errorf("%d rows in %s, want %d", n, table, want)
		}
	}
}

// groupExchange is the i-th exchange of the group tests: a customer message and its reply in
// conversation conv of acct, charged 1 against limit.
func groupExchange(i int, acct, conv, msg, reply string, limit int, now time.Time) ports.Exchange {
	job := conversation.NewJob(fmt.Sprint("job_", i), acct, conv, msg, reply, conversation.ChannelAPI, now, time.Minute)
	done, _ := job.Complete(reply, now)
	return ports.Exchange{
		Conversation: conversation.Conversation{AccountID: acct, ID: conv, Channel: conversation.ChannelAPI, CreatedAt: now, UpdatedAt: now},
		Message:      conversation.Message{ID: msg, ConversationID: conv, Role: conversation.RoleCustomer, Content: "q", CreatedAt: now},
		Reply:        conversation.Message{ID: reply, ConversationID: conv, Role: conversation.RoleAgent, Content: "a", ReplyTo: msg, CreatedAt: now},
		Job:          done,
		Charge:       ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: acct, Action: ledger.ChatReply, Cost: 1, Ref: reply, At: now},
		Period:       ledger.PeriodAt(now), Limit: limit,
		Events: []outbox.Message{{ID: fmt.Sprint("evt_", i), AccountID: acct, Topic: outbox.TopicEvent, Payload: []byte(`{}`), CreatedAt: now}},
	}
}

// atOnce runs f(0) … f(n-1) on n goroutines released together and returns their errors.
func atOnce(n int, f func(i int) error) []error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = f(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// TestExchangeGroupsRefused checks the exchanges of a group that cannot be stored: one whose
// conversation belongs to another channel and one whose message's id is taken are refused
// (ports.ErrNotExchanged) and leave nothing behind, the others of their group are stored whole.
func TestExchangeGroupsRefused(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testExchangeGroupsRefused(t, testenv.SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { testExchangeGroupsRefused(t, testenv.Postgres(t)) })
}

func testExchangeGroupsRefused(t *testing.T, url string) {
	const writers = 24
	db := newDB(t, url)
	ctx := t.Context()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	createAccount(t, db, "acct_g", now)
	if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: "chg_open", AccountID: "acct_g", Action: ledger.ChatReply, Cost: 1, At: now},
		ledger.PeriodAt(now), math.MaxInt32); err != nil || !ok {
		t.Fatalf("opening charge: %t %v", ok, err)
	}
	convs := store.NewConversations(db)
	if _, err := convs.Open(ctx, conversation.Conversation{AccountID: "acct_g", ID: "c_widget", Channel: conversation.ChannelWeb,
		CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := convs.AddMessage(ctx, "acct_g", conversation.Message{ID: "msg_taken", ConversationID: "c_widget",
		Role: conversation.RoleCustomer, Content: "hi", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	errs := atOnce(writers, func(i int) error {
		conv, msg, reply := fmt.Sprint("c", i), fmt.Sprint("msg_c", i), fmt.Sprint("msg_r", i)
		switch i {
		case 3:
			conv = "c_widget" // another channel's conversation
		case 7:
			msg = "msg_taken" // an id taken
		}
		_, _, _, err := convs.Exchange(ctx, groupExchange(i, "acct_g", conv, msg, reply, math.MaxInt32, now))
		return err
	})
	for i, err := range errs {
		if refused := i == 3 || i == 7; refused != errors.Is(err, ports.ErrNotExchanged) || (!refused && err != nil) {
			t.Errorf("exchange %d: %v", i, err)
		}
	}
	const stored = writers - 2
	for table, want := range map[string]int{"conversations": stored + 1, "messages": 2*stored + 1, "reply_jobs": stored, "outbox": stored,
		"charges": 1 + stored} {
		n, err := db.NewSelect().Table(table).Where("account_id = ?", "acct_g").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if int(n) != want {
			t.Errorf("%d rows in %s, want %d", n, table, want)
		}
	}
	var spent int
	if err := db.NewSelect().Table("usage_periods").Column("spent").Where("account_id = ?", "acct_g").Scan(ctx, &spent); err != nil {
		t.Fatal(err)
	}
	if spent != 1+stored {
		t.Errorf("spent %d, want %d", spent, 1+stored)
	}
}

// TestExchangeGroupsPostgres checks that on Postgres concurrent exchanges share transactions
// (pggroup.go: those waiting for a writer are written together), over several accounts and two
// messages in one conversation, each stored whole and numbered in order: the rows of a
// transaction share its xmin, so fewer distinct ones than exchanges means groups were written.
func TestExchangeGroupsPostgres(t *testing.T) {
	const writers, accounts = 32, 4
	db := newDB(t, testenv.Postgres(t))
	ctx := t.Context()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for a := range accounts {
		acct := fmt.Sprint("acct_", a)
		createAccount(t, db, acct, now)
		if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: "chg_open_" + acct, AccountID: acct, Action: ledger.ChatReply, Cost: 1, At: now},
			ledger.PeriodAt(now), math.MaxInt32); err != nil || !ok {
			t.Fatalf("opening charge: %t %v", ok, err)
		}
	}
	convs := store.NewConversations(db)
	errs := atOnce(writers, func(i int) error {
		acct, conv := fmt.Sprint("acct_", i%accounts), fmt.Sprint("c", i)
		_, _, _, err := convs.Exchange(ctx, groupExchange(i, acct, conv, fmt.Sprint("msg_c", i), fmt.Sprint("msg_r", i), math.MaxInt32, now))
		return err
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("exchange %d: %v", i, err)
		}
	}
	var rows []struct {
		ConversationID string `bun:"conversation_id"`
		Role           string `bun:"role"`
		Seq            int    `bun:"seq"`
	}
	if err := db.NewSelect().Table("messages").Column("conversation_id", "role", "seq").Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*writers {
		t.Fatalf("%d messages, want %d", len(rows), 2*writers)
	}
	for _, m := range rows {
		if want := map[string]int{conversation.RoleCustomer: 1, conversation.RoleAgent: 2}[m.Role]; m.Seq != want {
			t.Errorf("message of %s, %s: seq %d, want %d", m.ConversationID, m.Role, m.Seq, want)
		}
	}
	var txs, spent int
	if err := db.NewRaw("SELECT count(DISTINCT xmin::text) FROM messages").Scan(ctx, &txs); err != nil {
		t.Fatal(err)
	}
	if txs >= writers {
		t.Errorf("the %d exchanges took %d transactions: none was written in a group", writers, txs)
	}
	if err := db.NewRaw("SELECT sum(spent) FROM usage_periods").Scan(ctx, &spent); err != nil {
		t.Fatal(err)
	}
	if spent != accounts+writers {
		t.Errorf("spent %d, want %d", spent, accounts+writers)
	}
	t.Logf("%d exchanges in %d transactions", writers, txs)
}

// benchExchanges makes 100 accounts in db with their periods open and returns parallel, which
// makes total exchanges from 16 goroutines at once, each opening a new conversation of the next
// account as POST /v1/chat without a conversation id does; id makes the rows' identifiers.
func benchExchanges(b *testing.B, db *bun.DB, id func(string) string) (parallel func(total int)) {
	ctx := b.Context()
	now := time.Now().UTC()
	const accounts = 100
	for a := range accounts { // each account, its period opened
		acct := fmt.Sprint("acct_", a)
		createAccount(b, db, acct, now)
		if _, ok, err := store.NewUsage(db).Charge(ctx, ledger.Charge{ID: id("chg"), AccountID: acct,
			Action: ledger.ChatReply, Cost: 1, At: now}, ledger.PeriodAt(now), math.MaxInt32); err != nil || !ok {
			b.Fatalf("opening charge: %t %v", ok, err)
		}
	}
	convs := store.NewConversations(db)
	var n atomic.Int64
	exchange := func() error {
		i := n.Add(1)
		acct := fmt.Sprint("acct_", i%accounts)
		conv, msg, reply := ident.New("conv"), id("msg"), id("msg")
		job := conversation.NewJob(id("job"), acct, conv, msg, reply, conversation.ChannelAPI, now, time.Minute)
		done, _ := job.Complete(reply, now)
		_, _, _, err := convs.Exchange(ctx, ports.Exchange{
			Conversation: conversation.Conversation{AccountID: acct, ID: conv, Channel: conversation.ChannelAPI, CreatedAt: now, UpdatedAt: now},
			Message: conversation.Message{ID: msg, ConversationID: conv, Role: conversation.RoleCustomer,
				Content: "What time do you open on Sundays?", CreatedAt: now},
			Reply: conversation.Message{ID: reply, ConversationID: conv, Role: conversation.RoleAgent,
				Content: "On Sundays we open from 9am to 1pm.", ReplyTo: msg, CreatedAt: now},
			Job:    done,
			Charge: ledger.Charge{ID: id("chg"), AccountID: acct, Action: ledger.ChatReply, Cost: 1, Ref: reply, At: now},
			Period: ledger.PeriodAt(now), Limit: math.MaxInt32,
			Events: []outbox.Message{{ID: id("evt"), AccountID: acct, Topic: outbox.TopicEvent,
				Payload: []byte(`{"type":"message.replied","data":{"reply":"On Sundays we open from 9am to 1pm."}}`), CreatedAt: now}},
			HooksOnly: true,
		})
		return err
	}
	return func(total int) {
		var wg sync.WaitGroup
		var left atomic.Int64
		left.Store(int64(total))
		for range 16 {
			wg.Go(func() {
				for left.Add(-1) >= 0 {
					if err := exchange(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// BenchmarkExchangeParallel measures SQLite's Conversations.Exchange from 16 goroutines at once
// (grouped), over 100 accounts, each exchange opening a new conversation as POST /v1/chat without
// a conversation id does, after 10,000 exchanges already stored; the identifiers of the rows are
// random (ident.New) or ordered (ident.Ordered). It reports the bytes this process wrote per
// exchange (the write-ahead log and its checkpoints into the database file), and the log's size
// at the end, which the checkpoints keep bounded.
func BenchmarkExchangeParallel(b *testing.B) {
	for _, ids := range []struct {
		name string
		id   func(string) string
	}{{"random", ident.New}, {"ordered", func(prefix string) string { return ident.Ordered(prefix, time.Now()) }}} {
		b.Run(ids.name, func(b *testing.B) {
			url := testenv.SQLite(b)
			db := newDB(b, url)
			parallel := benchExchanges(b, db, ids.id)
			parallel(10_000)
			before := writtenBytes(b)
			b.ResetTimer()
			parallel(b.N)
			b.StopTimer()
			b.ReportMetric(float64(writtenBytes(b)-before)/float64(b.N), "written-B/op")
			if fi, err := os.Stat(strings.TrimPrefix(url, "sqlite://") + "-wal"); err == nil {
				b.ReportMetric(float64(fi.Size())/(1<<20), "log-MB") // the log's size at the end (bounded)
			}
		})
	}
}

// writtenBytes is what this process has written so far (/proc/self/io's wchar).
func writtenBytes(tb testing.TB) int64 {
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		tb.Skipf("no /proc/self/io: %v", err)
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	tb.Skip("no wchar in /proc/self/io")
	return 0
}
