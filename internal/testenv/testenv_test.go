package testenv_test

import (
	"database/sql"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/svcagent/svc/internal/testenv"
)

func TestPostgres(t *testing.T) {
	var name string
	t.Run("fresh database", func(t *testing.T) {
		dbURL := testenv.Postgres(t)
		u, err := url.Parse(dbURL)
		if err != nil {
			t.Fatal(err)
		}
		name = strings.TrimPrefix(u.Path, "/")
		db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dbURL)))
		defer db.Close()
		var current string
		if err := db.QueryRowContext(t.Context(), "SELECT current_database()").Scan(&current); err != nil || current != name {
			t.Fatalf("current_database() = %q, %v; want %q", current, err, name)
		}
	})
	if name == "" {
		t.Skip("no database was created")
	}
	adminURL := os.Getenv("SVC_TEST_DATABASE_URL")
	if adminURL == "" {
		adminURL = testenv.DefaultPostgresURL
	}
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(adminURL)))
	defer admin.Close()
	var n int
	if err := admin.QueryRowContext(t.Context(), "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil || n != 0 {
		t.Errorf("database %s after the test: count %d, %v; want dropped", name, n, err)
	}
}

func TestRedis(t *testing.T) {
	opts, err := redis.ParseURL(testenv.Redis(t))
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClient(opts)
	defer client.Close()
	if err := client.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// TestShortSkipsServices: under -short no test reaches Postgres or Redis (make test-short).
func TestShortSkipsServices(t *testing.T) {
	if !testing.Short() {
		t.Skip("checks -short only")
	}
	for name, get := range map[string]func(testing.TB) string{"Postgres": testenv.Postgres, "Redis": testenv.Redis} {
		var got string
		t.Run(name, func(t *testing.T) { got = get(t) })
		if got != "" {
			t.Errorf("testenv.%s under -short = %q, want the test skipped", name, got)
		}
	}
}
