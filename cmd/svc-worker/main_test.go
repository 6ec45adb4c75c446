package main

import (
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/internal/testenv"
)

// TestInjectors assembles svc-worker with the injector run picks for every setup of the
// production environment: each opens its own store (a wrong one refuses the URL).
func TestInjectors(t *testing.T) {
	stores := map[config.Store]string{
		config.SQLite:   "sqlite://" + filepath.Join(t.TempDir(), "svc.db"),
		config.Postgres: testenv.Postgres(t),
	}
	for _, url := range stores { // svcctl migrate's part
		db, closeDB, err := store.Open(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Migrate(t.Context(), db); err != nil {
			t.Fatal(err)
		}
		closeDB()
	}
	for _, s := range []config.Setup{
		{Store: config.Postgres},
		{Store: config.Postgres, Upstream: true},
		{Store: config.SQLite},
		{Store: config.SQLite, Upstream: true},
	} {
		t.Run(string(s.Store), func(t *testing.T) {
			env := map[string]string{"SVC_DATABASE_URL": stores[s.Store], "SVC_REDIS_URL": "redis://127.0.0.1:1/0"}
			if s.Upstream {
				env["SVC_MODEL_BASE_URL"] = "http://127.0.0.1:1/v1" // never asked here
			}
			cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			init, ok := injectors()[cfg.Setup()]
			if !ok {
				t.Fatalf("no injector for %+v", cfg.Setup())
			}
			_, cleanup, err := init(t.Context(), cfg, zap.NewNop())
			if err != nil {
				t.Fatalf("assemble: %v", err)
			}
			cleanup()
		})
	}
}
