package store_test

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/app/ident"
	"github.com/svcagent/svc/internal/testenv"
)

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux).
const clockTicks = 100

// backendsCPU sums the CPU time (user and system, in clock ticks) of the server processes of db's
// database, when the server runs on this machine; -1 when they cannot be read.
func backendsCPU(b *testing.B, db *bun.DB) int64 {
	var pids []int
	if err := db.NewRaw("SELECT pid FROM pg_stat_activity WHERE datname = current_database()").Scan(b.Context(), &pids); err != nil {
		b.Fatal(err)
	}
	var sum int64
	for _, pid := range pids {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return -1
		}
		f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		if len(f) < 13 {
			return -1
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		sum += u + s
	}
	return sum
}

// BenchmarkExchangePostgres measures Conversations.Exchange on Postgres from 16 goroutines at
// once over 100 accounts, each exchange opening a new conversation as POST /v1/chat without a
// conversation id does, with the exchanges waiting for a writer written in groups (pggroup.go) and
// without (each its own statement and commit). It reports the write-ahead log written per
// exchange (pg_current_wal_lsn, the whole server's: run it on a server of its own,
// SVC_TEST_DATABASE_URL), the transactions per exchange (the distinct xmin of the messages) and,
// when the server runs on this machine, the CPU time of the database's server processes per
// exchange.
func BenchmarkExchangePostgres(b *testing.B) {
	for _, mode := range []struct {
		name    string
		writers int
	}{{"grouped", 0}, {"alone", math.MaxInt32}} {
		b.Run(mode.name, func(b *testing.B) {
			if mode.writers > 0 {
				defer store.SetPGWriters(mode.writers)()
			}
			db := newDB(b, testenv.Postgres(b))
			ctx := b.Context()
			parallel := benchExchanges(b, db, func(prefix string) string { return ident.Ordered(prefix, time.Now()) })
			parallel(1_000)
			var lsn0, lsn1 int64
			var tx0, tx1 int
			count := func(lsn *int64, txs *int) {
				if err := db.NewRaw("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").Scan(ctx, lsn); err != nil {
					b.Fatal(err)
				}
				if err := db.NewRaw("SELECT count(DISTINCT xmin::text) FROM messages").Scan(ctx, txs); err != nil {
					b.Fatal(err)
				}
			}
			count(&lsn0, &tx0)
			cpu0 := backendsCPU(b, db)
			b.ResetTimer()
			parallel(b.N)
			b.StopTimer()
			cpu1 := backendsCPU(b, db)
			count(&lsn1, &tx1)
			if cpu0 >= 0 && cpu1 >= 0 {
				b.ReportMetric(float64(cpu1-cpu0)*1e6/float64(clockTicks)/float64(b.N), "pg-CPU-µs/op")
			}
			b.ReportMetric(float64(lsn1-lsn0)/float64(b.N), "WAL-B/op")
			b.ReportMetric(float64(tx1-tx0)/float64(b.N), "tx/op")
		})
	}
}
