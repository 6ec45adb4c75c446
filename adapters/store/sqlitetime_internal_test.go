package store

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestSQLiteTime checks sqliteTime against the layout it writes by hand: whole seconds,
// microseconds with and without trailing zeros, nanoseconds below a microsecond, other zones,
// the ends of the four-digit years and the years beyond them.
func TestSQLiteTime(t *testing.T) {
	times := []time.Time{
		time.Date(2026, 11, 29, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 1, 2, 23, 59, 59, 123456789, time.UTC),
		time.Date(2026, 12, 31, 0, 0, 0, 100000, time.UTC),
		time.Date(2026, 6, 1, 12, 0, 0, 999, time.UTC),
		time.Date(2026, 6, 1, 12, 0, 0, 1000, time.UTC),
		time.Date(2026, 6, 1, 12, 0, 0, 120000000, time.FixedZone("x", -7*3600-1800)),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		{},
		time.Now(),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		times = append(times, time.Unix(r.Int64N(1<<36)-1<<35, r.Int64N(1e9)))
	}
	for _, at := range times {
		if got, want := sqliteTime(at), at.UTC().Format(sqliteTimeLayout); got != want {
			t.Errorf("sqliteTime(%v) = %q, want %q", at, got, want)
		}
	}
}
