package store_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/internal/testenv"
	"github.com/svcagent/svc/ports/portstest"
)

// dialects are the databases every test runs against; each call gives a fresh, empty one.
var dialects = []struct {
	name string
	url  func(testing.TB) string
}{
	{"SQLite", testenv.SQLite},
	{"Postgres", testenv.Postgres},
}

// newDB opens and migrates the database at url, closed when the test ends.
func newDB(tb testing.TB, url string) *bun.DB {
	tb.Helper()
	ctx := context.Background()
	db, closeDB, err := store.Open(ctx, url)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(closeDB)
	if err := store.Migrate(ctx, db); err != nil {
		tb.Fatalf("Migrate: %v", err)
	}
	return db
}

func stores(db *bun.DB) portstest.Stores {
	return portstest.Stores{
		Tx:            store.NewTx(db),
		Accounts:      store.NewAccounts(db),
		Keys:          store.NewKeys(db),
		Profiles:      store.NewProfiles(db),
		Usage:         store.NewUsage(db),
		Outbox:        store.NewOutbox(db),
		Knowledge:     store.NewKnowledge(db),
		Conversations: store.NewConversations(db),
		ReplyJobs:     store.NewReplyJobs(db),
		Sessions:      store.NewSessions(db),
		Bookings:      store.NewBookings(db),
		Webhooks:      store.NewWebhooks(db),
		Deliveries:    store.NewDeliveries(db),
		Conversions:   store.NewConversions(db),
		Notifications: store.NewNotifications(db),
		Widgets:       store.NewWidgets(db),
	}
}

func TestStores(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			portstest.RunStores(t, func(t *testing.T) portstest.Stores {
				return stores(newDB(t, d.url(t)))
			})
		})
	}
}

func TestMigrateIsIdempotentAndConcurrent(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					if err := store.Migrate(t.Context(), db); err != nil {
						t.Errorf("Migrate again: %v", err)
					}
				})
			}
			wg.Wait()
			files, _ := filepath.Glob("migrations/*.up.sql")
			var n int
			if err := db.NewRaw("SELECT count(*) FROM bun_migrations").Scan(t.Context(), &n); err != nil || n != len(files) || n == 0 {
				t.Errorf("recorded migrations = %d, %v; want %d", n, err, len(files))
			}
		})
	}
}

// TestChargeRows checks what the ports cannot see: a charge row for each charge that went through.
func TestChargeRows(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			createAccount(t, db, "acct_a", now)
			usage := store.NewUsage(db)
			var wg sync.WaitGroup
			for i := range 50 {
				wg.Go(func() {
					c := ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: "acct_a", Action: ledger.ChatReply, Cost: 1, At: now}
					if _, _, err := usage.Charge(ctx, c, ledger.PeriodAt(now), 10); err != nil {
						t.Errorf("Charge: %v", err)
					}
				})
			}
			wg.Wait()
			n, err := db.NewSelect().Table("charges").Where("account_id = ?", "acct_a").Count(ctx)
			if err != nil || n != 10 {
				t.Errorf("charge rows = %d, %v; want 10", n, err)
			}
		})
	}
}

// TestChargeInTransaction checks the charge's one statement inside a caller's transaction: a
// rollback takes back the counter and the row together, a commit keeps both, and a refund of the
// kept charge gives its cost back.
func TestChargeInTransaction(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			period := ledger.PeriodAt(now)
			createAccount(t, db, "acct_a", now)
			usage, tx := store.NewUsage(db), store.NewTx(db)
			charge := func(ctx context.Context, id string) {
				c := ledger.Charge{ID: id, AccountID: "acct_a", Action: ledger.ModelReply, Cost: 2, At: now}
				if _, ok, err := usage.Charge(ctx, c, period, 10); err != nil || !ok {
					t.Fatalf("Charge %s: ok %t, %v", id, ok, err)
				}
			}
			charge(ctx, "chg_open") // opens the period
			undone := errors.New("undone")
			if err := tx.InTx(ctx, func(ctx context.Context) error { charge(ctx, "chg_undone"); return undone }); !errors.Is(err, undone) {
				t.Fatalf("InTx = %v", err)
			}
			if err := tx.InTx(ctx, func(ctx context.Context) error { charge(ctx, "chg_kept"); return nil }); err != nil {
				t.Fatalf("InTx = %v", err)
			}
			rows := func() int {
				n, err := db.NewSelect().Table("charges").Where("account_id = ?", "acct_a").Count(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return int(n)
			}
			if spent, err := usage.Spent(ctx, "acct_a", period); err != nil || spent != 4 || rows() != 2 {
				t.Errorf("after a rolled back and a committed charge: spent %d (%v), %d rows; want 4, 2", spent, err, rows())
			}
			if err := usage.Refund(ctx, "acct_a", "chg_kept"); err != nil {
				t.Fatal(err)
			}
			if spent, err := usage.Spent(ctx, "acct_a", period); err != nil || spent != 2 || rows() != 1 {
				t.Errorf("after the refund: spent %d (%v), %d rows; want 2, 1", spent, err, rows())
			}
		})
	}
}

func TestOpenSQLite(t *testing.T) {
	t.Chdir(t.TempDir())
	db, closeDB, err := store.Open(t.Context(), "sqlite://data/svc.db")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer closeDB()
	if _, err := os.Stat("data/svc.db"); err != nil {
		t.Errorf("database file not created relative to the working directory: %v", err)
	}
	for _, tt := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
	} {
		var got string
		if err := db.NewRaw("PRAGMA "+tt.pragma).Scan(t.Context(), &got); err != nil || got != tt.want {
			t.Errorf("PRAGMA %s = %q, %v; want %q", tt.pragma, got, err, tt.want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name, url, want string
	}{
		{"no scheme", "data/svc.db", "needs a scheme"},
		{"unknown scheme", "mysql://u:secret@localhost/db", "unsupported database URL scheme"},
		{"no sqlite path", "sqlite://", "needs a file path"},
		{"sqlite in memory", "sqlite://:memory:", "needs a file path"},
		{"bad postgres option", "postgres://u:secret@127.0.0.1:1/db?sslmode=bogus", "invalid postgres URL"},
		{"postgres down", "postgres://u:secret@127.0.0.1:1/db?sslmode=disable", "connect to postgres database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := store.Open(t.Context(), tt.url)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open(%q) = %v; want an error with %q", tt.url, err, tt.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

// TestOpenByName checks the openers the programs' injectors name: each opens its own store and
// refuses the other's URL, without showing the password.
func TestOpenByName(t *testing.T) {
	sqlite := "sqlite://" + filepath.Join(t.TempDir(), "svc.db")
	tests := []struct {
		name, url string
		open      func(context.Context, string) (*bun.DB, func(), error)
		dialect   dialect.Name
		wantErr   string
	}{
		{"sqlite", sqlite, store.OpenSQLite, dialect.SQLite, ""},
		{"sqlite given postgres", "postgres://u:secret@127.0.0.1:1/db", store.OpenSQLite, 0, "needs a sqlite://PATH URL"},
		{"sqlite given no scheme", "data/svc.db", store.OpenSQLite, 0, "needs a sqlite://PATH URL"},
		{"postgres given sqlite", sqlite, store.OpenPostgres, 0, "needs a postgres://… URL"},
		{"postgres down", "postgresql://u:secret@127.0.0.1:1/db?sslmode=disable", store.OpenPostgres, 0, "connect to postgres database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, closeDB, err := tt.open(t.Context(), tt.url)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("open(%q) = %v; want an error with %q", tt.url, err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error %q shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("open(%q): %v", tt.url, err)
			}
			defer closeDB()
			if got := db.Dialect().Name(); got != tt.dialect {
				t.Errorf("dialect %v, want %v", got, tt.dialect)
			}
		})
	}
}

func TestPinger(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			if err := store.NewPinger(db).Ping(t.Context()); err != nil {
				t.Fatalf("Ping: %v", err)
			}
			_ = db.Close()
			if err := store.NewPinger(db).Ping(t.Context()); err == nil {
				t.Fatal("Ping of a closed database = nil; want an error")
			}
		})
	}
}

// BenchmarkCredential measures the authentication lookup (key, account and the period's
// spending) among 10,000 keys.
func BenchmarkCredential(b *testing.B) {
	const n = 10_000
	withAccount(b, func(b *testing.B, db *bun.DB, now time.Time) {
		ctx := context.Background()
		keys := store.NewKeys(db)
		hashes := make([]string, n)
		err := store.NewTx(db).InTx(ctx, func(ctx context.Context) error {
			for i := range hashes {
				hashes[i] = account.HashSecret(fmt.Sprint("svc_live_", i))
				k := account.Key{ID: fmt.Sprint("key_", i), AccountID: "acct_a", Hash: hashes[i], CreatedAt: now}
				if err := keys.Create(ctx, k); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatalf("create keys: %v", err)
		}
		period := ledger.PeriodAt(now)
		i := 0
		for b.Loop() {
			if _, err := keys.Credential(ctx, hashes[i%n], period); err != nil {
				b.Fatalf("Credential: %v", err)
			}
			i++
		}
	})
}

// BenchmarkCharge measures the ledger's charge (a hold) in an open period with room left: the
// conditional update of the period's counter and the charge's row, committed.
func BenchmarkCharge(b *testing.B) {
	withAccount(b, func(b *testing.B, db *bun.DB, now time.Time) {
		ctx := context.Background()
		usage := store.NewUsage(db)
		period := ledger.PeriodAt(now)
		charge := func(i int) {
			c := ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: "acct_a", Action: ledger.ModelReply, Cost: 1, At: now}
			if _, ok, err := usage.Charge(ctx, c, period, math.MaxInt32); err != nil || !ok {
				b.Fatalf("Charge: ok %t, %v", ok, err)
			}
		}
		charge(-1) // opens the period
		i := 0
		for b.Loop() {
			charge(i)
			i++
		}
	})
}

// BenchmarkChargeParallel measures the same charge from 16 goroutines at once (8 per core on
// this 2-core machine): concurrent writers, which SQLite lets in one at a time.
func BenchmarkChargeParallel(b *testing.B) {
	withAccount(b, func(b *testing.B, db *bun.DB, now time.Time) {
		ctx := context.Background()
		usage := store.NewUsage(db)
		period := ledger.PeriodAt(now)
		var n atomic.Int64
		charge := func() error {
			c := ledger.Charge{ID: fmt.Sprint("chg_", n.Add(1)), AccountID: "acct_a", Action: ledger.ModelReply, Cost: 1, At: now}
			if _, ok, err := usage.Charge(ctx, c, period, math.MaxInt32); err != nil || !ok {
				return fmt.Errorf("charge: ok %t, %w", ok, err)
			}
			return nil
		}
		if err := charge(); err != nil { // opens the period
			b.Fatal(err)
		}
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := charge(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// TestStatementsPreparedLate checks the repositories whose statements are prepared when they are
// made, made before the schema exists (so nothing could be prepared then): their first uses
// come from 50 transactions at once, which must neither wait on each other for a connection to
// prepare on nor fail, and the charges must stay exact.
func TestStatementsPreparedLate(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			// A deadlock fails the test by this deadline rather than hanging it.
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			db, closeDB, err := store.Open(ctx, d.url(t))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(closeDB)
			usage, keys, sessions, tx := store.NewUsage(db), store.NewKeys(db), store.NewSessions(db), store.NewTx(db)
			if err := store.Migrate(ctx, db); err != nil {
				t.Fatalf("Migrate: %v", err)
			}
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			createAccount(t, db, "acct_a", now)
			key := account.Key{ID: "key_a", AccountID: "acct_a", Hash: account.HashSecret("svc_live_a"), CreatedAt: now}
			if err := keys.Create(ctx, key); err != nil {
				t.Fatalf("Create key: %v", err)
			}
			sess := session.Session{ID: "cs_a", AccountID: "acct_a", KeyID: "key_a", ConversationID: "c1", Hash: "h_a",
				ExpiresAt: now.Add(time.Hour), CreatedAt: now}
			if err := sessions.Create(ctx, sess); err != nil {
				t.Fatalf("Create session: %v", err)
			}
			period := ledger.PeriodAt(now)
			var wg sync.WaitGroup
			var charged atomic.Int32
			for i := range 50 {
				wg.Go(func() {
					err := tx.InTx(ctx, func(ctx context.Context) error {
						c := ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: "acct_a", Action: ledger.ChatReply, Cost: 1, At: now}
						_, ok, err := usage.Charge(ctx, c, period, 10)
						if err != nil {
							return err
						}
						if ok {
							charged.Add(1)
						}
						if _, err = keys.Credential(ctx, key.Hash, period); err != nil {
							return err
						}
						_, err = sessions.Credential(ctx, sess.Hash)
						return err
					})
					if err != nil {
						t.Errorf("transaction %d: %v", i, err)
					}
				})
			}
			wg.Wait()
			if n := charged.Load(); n != 10 {
				t.Errorf("%d charges went through; want 10", n)
			}
			cred, err := keys.Credential(ctx, key.Hash, period)
			if err != nil || cred.Spent != 10 {
				t.Errorf("Credential after: spent %d, %v; want 10", cred.Spent, err)
			}
		})
	}
}

// createAccount stores an active starter account of id made at now.
func createAccount(tb testing.TB, db *bun.DB, id string, now time.Time) {
	tb.Helper()
	if err := store.NewAccounts(db).Create(context.Background(), account.Account{
		ID: id, Name: "A", Plan: "starter", Status: account.Active, CreatedAt: now, UpdatedAt: now,
	}); err != nil {
		tb.Fatalf("Create: %v", err)
	}
}

// withAccount runs bench on each dialect, with a migrated database holding account acct_a made
// at now.
func withAccount(b *testing.B, bench func(b *testing.B, db *bun.DB, now time.Time)) {
	for _, d := range dialects {
		b.Run(d.name, func(b *testing.B) {
			db := newDB(b, d.url(b))
			now := time.Now()
			createAccount(b, db, "acct_a", now)
			bench(b, db, now)
		})
	}
}

// TestMessageSeq checks what the ports cannot see: concurrent messages to one conversation get
// the sequence numbers 1..n, each once.
func TestMessageSeq(t *testing.T) {
	const writers = 50
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			createAccount(t, db, "acct_a", now)
			convs := store.NewConversations(db)
			if _, err := convs.Open(ctx, conversation.Conversation{AccountID: "acct_a", ID: "c1", Channel: conversation.ChannelAPI,
				CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range writers {
				wg.Go(func() {
					<-start
					if err := convs.AddMessage(ctx, "acct_a", conversation.Message{ID: fmt.Sprint("msg_", i), ConversationID: "c1",
						Role: conversation.RoleCustomer, Content: "hi", CreatedAt: now}); err != nil {
						t.Errorf("AddMessage: %v", err)
					}
				})
			}
			close(start)
			wg.Wait()
			var seqs []int64
			if err := db.NewSelect().Table("messages").Column("seq").Where("account_id = ?", "acct_a").
				Where("conversation_id = ?", "c1").Order("seq").Scan(ctx, &seqs); err != nil {
				t.Fatal(err)
			}
			for i, s := range seqs {
				if s != int64(i+1) {
					t.Fatalf("seqs %v, want 1..%d each once", seqs, writers)
				}
			}
			if len(seqs) != writers {
				t.Fatalf("%d messages, want %d", len(seqs), writers)
			}
		})
	}
}

// TestMessageOrderMigration runs the message_order migration over data stored before it: an agent
// reply gets reply_to from its reply job, and messages that share a number are renumbered in
// the order they were listed (seq, then id), so that the unique index can be built.
func TestMessageOrderMigration(t *testing.T) {
	const name = "migrations/20261125010000_message_order.tx."
	run := func(t *testing.T, db *bun.DB, file string) {
		t.Helper()
		raw, err := os.ReadFile(name + file)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range strings.Split(string(raw), "--bun:split") {
			if _, err := db.ExecContext(t.Context(), stmt); err != nil {
				t.Fatalf("%s: %v\n%s", file, err, stmt)
			}
		}
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			createAccount(t, db, "acct_a", now)
			run(t, db, "down.sql")
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.NewRaw(q, args...).Exec(ctx); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			exec("INSERT INTO conversations (account_id, id, channel, created_at, updated_at) VALUES ('acct_a', 'c1', 'api', ?, ?)", now, now)
			for _, m := range []struct {
				id, role string
				seq      int
			}{{"m_a", "customer", 1}, {"m_c", "customer", 2}, {"m_b", "customer", 2}, {"m_r", "agent", 3}, {"m_s", "agent", 3}} {
				exec("INSERT INTO messages (id, account_id, conversation_id, role, content, created_at, seq) VALUES (?, 'acct_a', 'c1', ?, 'x', ?, ?)",
					m.id, m.role, now, m.seq)
			}
			exec(`INSERT INTO reply_jobs (id, account_id, conversation_id, message_id, channel, status, lease_until, reply_id, created_at, updated_at)
				VALUES ('job_1', 'acct_a', 'c1', 'm_b', 'api', 'done', ?, 'm_r', ?, ?)`, now, now, now)
			run(t, db, "up.sql")
			var rows []struct {
				ID      string `bun:"id"`
				Seq     int    `bun:"seq"`
				ReplyTo string `bun:"reply_to"`
			}
			if err := db.NewSelect().Table("messages").Column("id", "seq", "reply_to").Order("seq").Scan(ctx, &rows); err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(rows)
			if want := "[{m_a 1 } {m_b 2 } {m_c 3 } {m_r 4 m_b} {m_s 5 }]"; got != want {
				t.Fatalf("messages after the migration %s, want %s", got, want)
			}
			// The index now refuses a shared number.
			if _, err := db.NewRaw("INSERT INTO messages (id, account_id, conversation_id, role, content, created_at, seq) VALUES ('m_x', 'acct_a', 'c1', 'customer', 'x', ?, 5)", now).Exec(ctx); err == nil {
				t.Fatal("a second message with seq 5 was stored")
			}
		})
	}
}

// TestChargesCheckpoint checks that SQLite's log stays bounded under charges alone: the charge is
// one INSERT … RETURNING, and SQLite runs the automatic checkpoint only after a statement stepped
// to its end. 5,000 charges write about 20,000 pages to the log (80 MB) when nothing checkpoints
// it; wal_autocheckpoint keeps it near 4,000 pages (16 MB; a little longer when it meets a pass of
// the log's checkpointer, which runs beside it in a loop of charges that leaves no pause).
func TestChargesCheckpoint(t *testing.T) {
	charge, logSize := sqliteCharges(t)
	charge(0, 5000)
	if n := logSize(); n > 32<<20 {
		t.Errorf("the log is %d MB after 5,000 charges; want it checkpointed (about 16 MB)", n>>20)
	}
}

// sqliteCharges returns, on a new SQLite database, a function that makes n charges of one account
// (numbered from first on) and one that returns the length of the log's file.
func sqliteCharges(t *testing.T) (charge func(first, n int), logSize func() int64) {
	url := testenv.SQLite(t)
	db := newDB(t, url)
	ctx := t.Context()
	now := time.Now()
	createAccount(t, db, "acct_a", now)
	usage := store.NewUsage(db)
	period := ledger.PeriodAt(now)
	charge = func(first, n int) {
		t.Helper()
		for i := first; i < first+n; i++ {
			c := ledger.Charge{ID: fmt.Sprint("chg_", i), AccountID: "acct_a", Action: ledger.ModelReply, Cost: 1, At: now}
			if _, ok, err := usage.Charge(ctx, c, period, math.MaxInt32); err != nil || !ok {
				t.Fatalf("charge %d: ok %t, %v", i, ok, err)
			}
		}
	}
	logSize = func() int64 {
		t.Helper()
		fi, err := os.Stat(strings.TrimPrefix(url, "sqlite://") + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	return charge, logSize
}

// applyFile runs the statements of a migration file on db.
func applyFile(t *testing.T, db *bun.DB, file string) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range strings.Split(string(raw), "--bun:split") {
		if _, err := db.ExecContext(t.Context(), stmt); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, stmt)
		}
	}
}

// TestReplyJobsPendingMigration checks the reply_jobs_pending migration on both dialects: the
// index holds the pending jobs only (a job stored done, as every reply of the built-in engine's,
// writes no entry in it), and its down file brings the index of every job back.
func TestReplyJobsPendingMigration(t *testing.T) {
	const name = "migrations/20261127100010_reply_jobs_pending.tx."
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := newDB(t, d.url(t))
			ctx := t.Context()
			def := func() string {
				t.Helper()
				q := "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'reply_jobs_pending'"
				if d.name == "Postgres" {
					q = "SELECT indexdef FROM pg_indexes WHERE indexname = 'reply_jobs_pending'"
				}
				var s string
				if err := db.NewRaw(q).Scan(ctx, &s); err != nil {
					t.Fatal(err)
				}
				return strings.ToLower(s)
			}
			if s := def(); !strings.Contains(s, "where") || !strings.Contains(s, "pending") {
				t.Errorf("reply_jobs_pending after the migrations: %s, want the pending jobs only", s)
			}
			for _, file := range []string{"down.sql", "up.sql", "down.sql"} {
				applyFile(t, db, name+file)
			}
			if s := def(); strings.Contains(s, "where") || !strings.Contains(s, "status") {
				t.Errorf("reply_jobs_pending after the down file: %s, want every job by status and lease", s)
			}
		})
	}
}

// TestLogCheckpointedBeside checks that the log's checkpointer copies the log beside the writers:
// after a burst of charges and a pause, the next charges write the log again from its beginning,
// so a second burst does not make it longer (SQLite's own checkpoint, at 4,000 pages, would not
// have run for these few hundred, and the log would have grown to twice its length).
func TestLogCheckpointedBeside(t *testing.T) {
	charge, logSize := sqliteCharges(t)
	charge(0, 300)
	first := logSize()
	time.Sleep(500 * time.Millisecond)
	charge(300, 300)
	if second := logSize(); second > first+first/4 {
		t.Errorf("the log is %d KB after a second burst of charges, %d KB after the first; want it written again from its beginning", second>>10, first>>10)
	}
}
