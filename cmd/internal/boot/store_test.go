package boot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/domain"
)

// TestSQLiteDiskFullLogged: the store the programs open logs a disk full in words an operator
// acts on, once (logger "store", "SQLite: disk full: failing" with the error), and the write
// answers service_unavailable, not an internal error.
func TestSQLiteDiskFullLogged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "full.db")
	ctx := context.Background()
	open := func(query string) (*observer.ObservedLogs, func(), func(string, ...any) error) {
		cfg, err := config.Load(func(name string) (string, bool) {
			v, ok := map[string]string{"SVC_DATABASE_URL": "sqlite://" + path + query}[name]
			return v, ok
		})
		if err != nil {
			t.Fatal(err)
		}
		core, logs := observer.New(zapcore.InfoLevel)
		db, closeDB, err := boot.SQLite(ctx, cfg, zap.New(core))
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) error { _, err := db.ExecContext(ctx, q, args...); return err }
		return logs, closeDB, exec
	}
	_, closeDB, exec := open("")
	if err := exec("CREATE TABLE t (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	closeDB()

	logs, closeDB, exec := open("?_pragma=max_page_count(4)")
	defer closeDB()
	big := strings.Repeat("x", 64<<10)
	for range 3 {
		if err := exec("INSERT INTO t VALUES (?)", big); domain.ErrorCode(err) != domain.CodeServiceUnavailable {
			t.Fatalf("insert with the disk full: %v, want service_unavailable", err)
		}
	}
	var lines []string
	for _, e := range logs.All() {
		lines = append(lines, fmt.Sprintf("%s %s %s", e.LoggerName, e.Level, e.Message))
	}
	if len(lines) != 1 || lines[0] != "store warn SQLite: disk full: failing" ||
		!strings.Contains(logs.All()[0].ContextMap()["error"].(string), "database or disk is full") {
		t.Fatalf("logged %q, want one warning naming the disk full", lines)
	}
}
