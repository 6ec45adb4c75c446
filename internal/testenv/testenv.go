// Package testenv gives tests the backing services they need: a fresh Postgres database, a Redis,
// a SQLite file. When a service does not answer, the test is skipped, except on CI (CI=true),
// where it fails. Under `go test -short` (make test-short) Postgres and Redis are not asked at
// all: every test that needs one is skipped. SQLite is embedded and always given.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun/driver/pgdriver"
)

// Defaults used when the environment names no test service.
const (
	DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	DefaultRedisURL    = "redis://127.0.0.1:6379/0"
)

// pingTimeout bounds how long a test waits for a service before giving up on it.
const pingTimeout = 3 * time.Second

// Postgres returns the URL of a new, empty database on the test server (SVC_TEST_DATABASE_URL,
// else DefaultPostgresURL), dropped when the test ends, so that tests never share data.
func Postgres(t testing.TB) string {
	t.Helper()
	skipShort(t, "Postgres")
	adminURL := getenv("SVC_TEST_DATABASE_URL", DefaultPostgresURL)
	u, err := url.Parse(adminURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("testenv: SVC_TEST_DATABASE_URL must be a postgres:// URL")
	}
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(adminURL)))
	t.Cleanup(func() { _ = admin.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		unavailable(t, "Postgres", u.Redacted(), "SVC_TEST_DATABASE_URL", err)
	}

	name := "svc_test_" + randomHex(t, 8)
	// Creating a database copies the template and waits for a checkpoint: slow on a busy machine.
	createCtx, cancelCreate := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelCreate()
	if _, err := admin.ExecContext(createCtx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("testenv: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testenv: drop database %s: %v", name, err)
		}
	})

	u.Path = "/" + name
	return u.String()
}

// Redis returns the URL of the test Redis (SVC_TEST_REDIS_URL, else DefaultRedisURL) once it
// answers a ping. The database is shared: tests keep their keys apart.
func Redis(t testing.TB) string {
	t.Helper()
	skipShort(t, "Redis")
	redisURL := getenv("SVC_TEST_REDIS_URL", DefaultRedisURL)
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatalf("testenv: SVC_TEST_REDIS_URL must be a redis:// URL: %v", err)
	}
	client := redis.NewClient(opts)
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		redacted := redisURL
		if u, err := url.Parse(redisURL); err == nil {
			redacted = u.Redacted()
		}
		unavailable(t, "Redis", redacted, "SVC_TEST_REDIS_URL", err)
	}
	return redisURL
}

// SQLite returns the URL of a SQLite database file in the test's temporary directory.
func SQLite(t testing.TB) string {
	t.Helper()
	return "sqlite://" + filepath.Join(t.TempDir(), "svc.db")
}

// skipShort skips the test under -short, which promises tests that need no service.
func skipShort(t testing.TB, service string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("testenv: -short: the test needs %s", service)
	}
}

// unavailable skips the test, or fails it on CI, because service does not answer.
func unavailable(t testing.TB, service, redactedURL, envName string, err error) {
	t.Helper()
	msg := fmt.Sprintf("testenv: %s at %s does not answer (%v); start it or set %s", service, redactedURL, err, envName)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("testenv: random name: %v", err)
	}
	return hex.EncodeToString(b)
}

func getenv(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
