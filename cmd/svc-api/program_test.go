package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/internal/testenv"
)

// completion is what the fake upstream answers.
const completion = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",` +
	`"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],` +
	`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`

// TestInjectors assembles svc-api with the injector run picks for every setup and checks that
// each names the right adapters: it opens its own store (a wrong one refuses the URL), runs the
// queue in the process only when embedded, and answers the model svc from the upstream only when
// one is configured (else 503 model_unavailable).
func TestInjectors(t *testing.T) {
	var calls atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completion)
	}))
	defer up.Close()

	stores := map[config.Store]string{
		config.SQLite:   "sqlite://" + filepath.Join(t.TempDir(), "svc.db"),
		config.Postgres: testenv.Postgres(t),
	}
	// The embedded setups come first: they migrate the stores the production ones then use.
	for _, s := range []config.Setup{
		{Embedded: true, Store: config.SQLite},
		{Embedded: true, Store: config.SQLite, Upstream: true},
		{Embedded: true, Store: config.Postgres},
		{Embedded: true, Store: config.Postgres, Upstream: true},
		{Store: config.Postgres},
		{Store: config.Postgres, Upstream: true},
		{Store: config.SQLite},
		{Store: config.SQLite, Upstream: true},
	} {
		name := "production"
		if s.Embedded {
			name = "embedded"
		}
		name += "/" + string(s.Store)
		if s.Upstream {
			name += "/upstream"
		}
		t.Run(name, func(t *testing.T) {
			env := map[string]string{"SVC_DATABASE_URL": stores[s.Store]}
			if !s.Embedded {
				env["SVC_REDIS_URL"] = "redis://127.0.0.1:1/0" // never dialed here: the limiter falls back
			}
			if s.Upstream {
				env["SVC_MODEL_BASE_URL"] = up.URL + "/v1"
			}
			cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Setup() != s {
				t.Fatalf("Setup() = %+v, want %+v", cfg.Setup(), s)
			}
			init, ok := injectors()[s]
			if !ok {
				t.Fatalf("no injector for %+v", s)
			}
			p, cleanup, err := init(t.Context(), cfg, zap.NewNop())
			if err != nil {
				t.Fatalf("assemble: %v", err)
			}
			defer cleanup()

			if _, inProcess := p.jobs.(*inproc.Queue); inProcess != s.Embedded {
				t.Errorf("jobs %T: in process %v, want %v", p.jobs, inProcess, s.Embedded)
			}

			acct, err := p.admin.Create(t.Context(), accounts.NewAccount{Name: "Acme " + name, Plan: "pro"})
			if err != nil {
				t.Fatal(err)
			}
			_, secret, err := p.admin.CreateKey(t.Context(), accounts.NewKey{AccountID: acct.ID, Name: "test"})
			if err != nil {
				t.Fatal(err)
			}
			before := calls.Load()
			req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions",
				strings.NewReader(`{"model":"svc","messages":[{"role":"user","content":"hello"}]}`))
			req.Header.Set("Authorization", "Bearer "+secret)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			p.server.Handler().ServeHTTP(rec, req)

			asked := calls.Load() > before
			switch {
			case s.Upstream && (rec.Code != http.StatusOK || !asked):
				t.Errorf("model svc: %d %s, upstream asked %v; want 200 from the upstream", rec.Code, rec.Body, asked)
			case !s.Upstream && (rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "model_unavailable") || asked):
				t.Errorf("model svc: %d %s, upstream asked %v; want 503 model_unavailable", rec.Code, rec.Body, asked)
			}
		})
	}
}

// TestRelayInterval checks the tick of svc-api's outbox relay: embedded, where it is the only
// relay, SVC_RELAY_INTERVAL; in production, where svc-worker's relay claims every
// SVC_RELAY_INTERVAL, svc-api's claims when nudged and otherwise only every relayIdleInterval
// (or a longer SVC_RELAY_INTERVAL), rather than 4 times a second.
func TestRelayInterval(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cfg   config.Config
		wantD time.Duration
	}{
		{"embedded", config.Config{RelayInterval: 250 * time.Millisecond}, 250 * time.Millisecond},
		{"production", config.Config{RedisURL: "redis://127.0.0.1:6379/0", RelayInterval: 250 * time.Millisecond}, 5 * time.Second},
		{"production, a longer interval", config.Config{RedisURL: "redis://127.0.0.1:6379/0", RelayInterval: time.Minute}, time.Minute},
	} {
		if got := relayInterval(tt.cfg); got != tt.wantD {
			t.Errorf("%s: relayInterval = %s, want %s", tt.name, got, tt.wantD)
		}
	}
}
