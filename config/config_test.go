package config

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/ratelimit"
)

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestPublicURLFollowsHTTPAddr(t *testing.T) {
	for _, tc := range []struct{ addr, public, want string }{
		{":8080", "", "http://localhost:8080"},
		{":18080", "", "http://localhost:18080"},
		{"0.0.0.0:9000", "", "http://localhost:9000"},
		{"[::]:9000", "", "http://localhost:9000"},
		{"127.0.0.1:9000", "", "http://127.0.0.1:9000"},
		{"[::1]:9000", "", "http://[::1]:9000"},
		{":18080", "https://svc.example.com", "https://svc.example.com"},
		{":18080", "(empty)", "http://localhost:18080"},
	} {
		env := map[string]string{"SVC_HTTP_ADDR": tc.addr}
		switch tc.public {
		case "":
		case "(empty)":
			env["SVC_PUBLIC_URL"] = ""
		default:
			env["SVC_PUBLIC_URL"] = tc.public
		}
		c, err := Load(lookup(env))
		if err != nil || c.PublicURL != tc.want {
			t.Errorf("SVC_HTTP_ADDR=%s SVC_PUBLIC_URL=%q: PublicURL %q (%v), want %q", tc.addr, tc.public, c.PublicURL, err, tc.want)
		}
	}
}

func TestLoadDefaults(t *testing.T) {
	c, err := Load(lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != ":8080" || c.DatabaseURL != "sqlite://data/svc.db" || c.RedisURL != "" ||
		c.PublicURL != "http://localhost:8080" || c.Env != EnvDev || c.AllowPrivateTargets || !c.Embedded() || len(c.TrustedProxies) != 0 {
		t.Fatalf("defaults: %+v", c)
	}
	if c.MetricsAddr != "127.0.0.1:9090" {
		t.Fatalf("SVC_METRICS_ADDR default %q, want loopback 127.0.0.1:9090", c.MetricsAddr)
	}
	if c, err := Load(lookup(map[string]string{"SVC_METRICS_ADDR": ""})); err != nil || c.MetricsAddr != "" {
		t.Fatalf("SVC_METRICS_ADDR empty (no metrics): %q, %v", c.MetricsAddr, err)
	}
	if c.Upgrade() != "http://localhost:8080/billing" {
		t.Fatalf("Upgrade() = %q", c.Upgrade())
	}
	plans := c.Plans()
	if p, _ := plans.Get("free"); p.WebChannels || p.Interactions != 100 {
		t.Fatalf("free plan %+v", p)
	}
	if p, _ := plans.Get("starter"); !p.WebChannels || p.Interactions != 1000 {
		t.Fatalf("starter plan %+v", p)
	}
	if p, _ := plans.Get("pro"); !p.WebChannels || p.Interactions != 10000 {
		t.Fatalf("pro plan %+v", p)
	}
	if got := strings.Join(plans.Names(), ","); got != "free,pro,starter" {
		t.Fatalf("Names() = %s", got)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, key, value string
	}{
		{"bad env", "SVC_ENV", "staging"},
		{"bad addr", "SVC_HTTP_ADDR", "nonsense"},
		{"bad metrics addr", "SVC_METRICS_ADDR", "9090"},
		{"bad database", "SVC_DATABASE_URL", "mysql://x"},
		{"bad redis", "SVC_REDIS_URL", "http://localhost"},
		{"bad public url", "SVC_PUBLIC_URL", "localhost:8080"},
		{"bad log level", "SVC_LOG_LEVEL", "verbose"},
		{"bad bool", "SVC_ALLOW_PRIVATE_TARGETS", "maybe"},
		{"bad duration", "SVC_SHUTDOWN_TIMEOUT", "soon"},
		{"negative plan", "SVC_PLAN_PRO_INTERACTIONS", "-1"},
		{"zero concurrency", "SVC_WORKER_CONCURRENCY", "0"},
		{"redis timeout too short", "SVC_REDIS_TIMEOUT", "1ms"},
		{"redis timeout too long", "SVC_REDIS_TIMEOUT", "1m"},
		{"bad model url", "SVC_MODEL_BASE_URL", "localhost:11434"},
		{"bad smtp url", "SVC_SMTP_URL", "mail.example.com"},
		{"production without a secret key", "SVC_ENV", "production"},
		{"bad trusted proxy", "SVC_TRUSTED_PROXIES", "10.0.0.0/8,proxy.internal"},
		{"bad trusted range", "SVC_TRUSTED_PROXIES", "10.0.0.0/33"},
		{"unknown rate limit", "SVC_PLAN_PRO_RATE_LIMITS", "model=600,pages=5"},
		{"zero rate limit", "SVC_PLAN_FREE_RATE_LIMITS", "chat=0"},
		{"rate limit not a number", "SVC_PLAN_STARTER_RATE_LIMITS", "key=many"},
		{"rate limit without a count", "SVC_PLAN_STARTER_RATE_LIMITS", "key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(lookup(map[string]string{tt.key: tt.value}))
			if err == nil {
				t.Fatalf("%s=%q loaded without error", tt.key, tt.value)
			}
			if !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("error %q does not name %s", err, tt.key)
			}
		})
	}
}

func TestPlanRateLimits(t *testing.T) {
	c, err := Load(lookup(map[string]string{"SVC_PLAN_PRO_RATE_LIMITS": "model=6000,key=12000"}))
	if err != nil {
		t.Fatal(err)
	}
	plans := c.Plans()
	for _, tt := range []struct {
		plan  string
		limit ratelimit.Limit
		want  int
	}{
		{"pro", ratelimit.Compat, 6000},
		{"pro", ratelimit.PerKey, 12000},
		{"pro", ratelimit.Chat, 30},       // not set: the spec's
		{"starter", ratelimit.Compat, 60}, // another plan: the spec's
		{"free", ratelimit.PerKey, 120},
		{"unknown", ratelimit.Compat, 60},
		{"pro", ratelimit.Crawls, 10}, // not a per-minute limit
	} {
		got := plans.RateLimit(tt.plan, tt.limit)
		if got.Count != tt.want || got.Name != tt.limit.Name || got.Period != tt.limit.Period {
			t.Errorf("%s %s: %+v, want a count of %d", tt.plan, tt.limit.Name, got, tt.want)
		}
	}
}

func TestLoadProduction(t *testing.T) {
	c, err := Load(lookup(map[string]string{
		"SVC_DATABASE_URL":          "postgres://postgres@127.0.0.1:5432/test",
		"SVC_REDIS_URL":             "redis://127.0.0.1:6379/0",
		"SVC_ENV":                   "production",
		"SVC_ALLOW_PRIVATE_TARGETS": "true",
		"SVC_UPGRADE_URL":           "https://app.example.com/plans",
		"SVC_SECRET_KEY":            "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=",
		"SVC_TRUSTED_PROXIES":       "10.0.0.0/8, 192.168.1.2,,fd00::/8",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.TrustedProxies, ","); got != "10.0.0.0/8,192.168.1.2,fd00::/8" {
		t.Fatalf("TrustedProxies = %q", got)
	}
	if c.Embedded() || !c.AllowPrivateTargets || c.Upgrade() != "https://app.example.com/plans" {
		t.Fatalf("production: %+v", c)
	}
}

func TestNamesAndUnknown(t *testing.T) {
	names := Names()
	if len(names) < 7 || names[0] > names[len(names)-1] {
		t.Fatalf("Names() = %v", names)
	}
	got := Unknown([]string{"SVC_DATABSE_URL=x", "SVC_ENV=dev", "SVC_TEST_REDIS_URL=y", "HOME=/root",
		"SVC_EVAL=1", "SVC_EVAL_SPLITS=tune,held-out", "SVC_BENCH=1", "SVC_BENCHMARK=1", "SVC_EVALUATE=1", "SVC_TESTING=1"})
	if strings.Join(got, ",") != "SVC_BENCHMARK,SVC_DATABSE_URL,SVC_EVALUATE,SVC_TESTING" {
		t.Fatalf("Unknown() = %v", got)
	}
}

// TestSetup checks that the setup the programs pick their injector by follows SVC_REDIS_URL,
// SVC_DATABASE_URL and SVC_MODEL_BASE_URL, each on its own.
func TestSetup(t *testing.T) {
	const (
		pg    = "postgres://postgres@127.0.0.1:5432/test"
		pgs   = "PostgreSQL://postgres@127.0.0.1:5432/test"
		redis = "redis://127.0.0.1:6379/0"
		model = "http://127.0.0.1:11434/v1"
	)
	tests := []struct {
		name string
		env  map[string]string
		want Setup
	}{
		{"defaults", nil, Setup{Embedded: true, Store: SQLite}},
		{"embedded on postgres", map[string]string{"SVC_DATABASE_URL": pg}, Setup{Embedded: true, Store: Postgres}},
		{"embedded with a model", map[string]string{"SVC_MODEL_BASE_URL": model}, Setup{Embedded: true, Store: SQLite, Upstream: true}},
		{"production", map[string]string{"SVC_DATABASE_URL": pg, "SVC_REDIS_URL": redis}, Setup{Store: Postgres}},
		{"production postgresql scheme", map[string]string{"SVC_DATABASE_URL": pgs, "SVC_REDIS_URL": redis}, Setup{Store: Postgres}},
		{"production on sqlite with a model", map[string]string{"SVC_REDIS_URL": redis, "SVC_MODEL_BASE_URL": model}, Setup{Store: SQLite, Upstream: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(lookup(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Setup(); got != tt.want {
				t.Fatalf("Setup() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestVAPID: the Web Push key pair is set whole or not at all, and must be a pair; the subject is
// a mailto: address or an https URL; no error shows the private key.
func TestVAPID(t *testing.T) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ecdh.P256().GenerateKey(rand.Reader)
	pub, priv := base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(k.Bytes())
	otherPub := base64.RawURLEncoding.EncodeToString(other.PublicKey().Bytes())
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // the variable named; "" loads
	}{
		{"a pair and a subject", map[string]string{"SVC_VAPID_PUBLIC_KEY": pub, "SVC_VAPID_PRIVATE_KEY": priv, "SVC_VAPID_SUBJECT": "mailto:ops@example.com"}, ""},
		{"none", map[string]string{}, ""},
		{"the public key alone", map[string]string{"SVC_VAPID_PUBLIC_KEY": pub}, "SVC_VAPID_PRIVATE_KEY"},
		{"the private key alone", map[string]string{"SVC_VAPID_PRIVATE_KEY": priv}, "SVC_VAPID_PRIVATE_KEY"},
		{"keys of two pairs", map[string]string{"SVC_VAPID_PUBLIC_KEY": otherPub, "SVC_VAPID_PRIVATE_KEY": priv}, "SVC_VAPID_PRIVATE_KEY"},
		{"a subject without mailto:", map[string]string{"SVC_VAPID_SUBJECT": "ops@example.com"}, "SVC_VAPID_SUBJECT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(lookup(tt.env))
			if tt.wantErr == "" {
				if err != nil || c.VAPIDPublicKey != tt.env["SVC_VAPID_PUBLIC_KEY"] {
					t.Fatalf("Load = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Load = %v, want an error naming %s", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), priv) {
				t.Errorf("the error shows the private key: %v", err)
			}
		})
	}
}
