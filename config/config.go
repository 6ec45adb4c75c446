// Package config loads the service's configuration once, at start, from SVC_* environment
// variables, into one typed struct. A malformed value stops the program with a message naming the
// variable.
package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/domain/ratelimit"
)

// Environment names.
const (
	EnvDev        = "dev"
	EnvProduction = "production"
)

// Config is everything the programs read from the environment.
type Config struct {
	HTTPAddr    string `env:"SVC_HTTP_ADDR" envDefault:":8080"`
	MetricsAddr string `env:"SVC_METRICS_ADDR"` // DefaultMetricsAddr when unset; set empty: no metrics
	// Profiling serves Go's pprof profiles (/debug/pprof/) on the metrics listener and records
	// the block and mutex profiles, which cost a little on every wait: for measuring only.
	Profiling   bool   `env:"SVC_PROFILING" envDefault:"false"`
	DatabaseURL string `env:"SVC_DATABASE_URL" envDefault:"sqlite://data/svc.db"`
	RedisURL    string `env:"SVC_REDIS_URL"`
	// RedisTimeout bounds how long a request's rate-limit check waits for Redis before it is
	// counted in the process (ratelimit.Fallback); the try of Redis after an outage waits half.
	RedisTimeout        time.Duration `env:"SVC_REDIS_TIMEOUT" envDefault:"1s"`
	PublicURL           string        `env:"SVC_PUBLIC_URL"` // localPublicURL(HTTPAddr) when unset or empty
	LogLevel            string        `env:"SVC_LOG_LEVEL" envDefault:"info"`
	Env                 string        `env:"SVC_ENV" envDefault:"dev"`
	AllowPrivateTargets bool          `env:"SVC_ALLOW_PRIVATE_TARGETS" envDefault:"false"`
	ShutdownTimeout     time.Duration `env:"SVC_SHUTDOWN_TIMEOUT" envDefault:"30s"`
	WorkerConcurrency   int           `env:"SVC_WORKER_CONCURRENCY" envDefault:"10"`
	RelayInterval       time.Duration `env:"SVC_RELAY_INTERVAL" envDefault:"250ms"`
	MaxBodyBytes        int64         `env:"SVC_MAX_BODY_BYTES" envDefault:"8388608"`
	// MemoryLimitMB is the soft limit of svc-api's Go memory (runtime/debug.SetMemoryLimit) in
	// MiB: past it the collector runs sooner and returns freed memory to the system; 0 sets none.
	// GOMEMLIMIT in the environment, Go's own setting, overrides it.
	MemoryLimitMB           int64  `env:"SVC_MEMORY_LIMIT_MB" envDefault:"80"`
	DemoOnFirstStart        bool   `env:"SVC_DEMO" envDefault:"true"`
	UpgradeURL              string `env:"SVC_UPGRADE_URL"`
	PlanFreeInteractions    int    `env:"SVC_PLAN_FREE_INTERACTIONS" envDefault:"100"`
	PlanStarterInteractions int    `env:"SVC_PLAN_STARTER_INTERACTIONS" envDefault:"1000"`
	PlanProInteractions     int    `env:"SVC_PLAN_PRO_INTERACTIONS" envDefault:"10000"`
	// DeveloperBonusInteractions are the interactions a period on top of the plan's that an
	// account connected through MCP gets (the developer bonus).
	DeveloperBonusInteractions int `env:"SVC_DEVELOPER_BONUS_INTERACTIONS" envDefault:"100"`
	// Plan*RateLimits set a plan's per-minute request limits, e.g. "model=600,key=1200" (names:
	// key, chat, assistant, model); a limit left out keeps the spec's count.
	PlanFreeRateLimits    map[string]int `env:"SVC_PLAN_FREE_RATE_LIMITS" envSeparator:"," envKeyValSeparator:"="`
	PlanStarterRateLimits map[string]int `env:"SVC_PLAN_STARTER_RATE_LIMITS" envSeparator:"," envKeyValSeparator:"="`
	PlanProRateLimits     map[string]int `env:"SVC_PLAN_PRO_RATE_LIMITS" envSeparator:"," envKeyValSeparator:"="`
	ModelBaseURL          string         `env:"SVC_MODEL_BASE_URL"`
	ModelAPIKey           string         `env:"SVC_MODEL_API_KEY"`
	ModelName             string         `env:"SVC_MODEL_NAME" envDefault:"gpt-4o-mini"`
	ModelEmbeddingName    string         `env:"SVC_MODEL_EMBEDDING_NAME" envDefault:"text-embedding-3-small"`
	ModelImageName        string         `env:"SVC_MODEL_IMAGE_NAME"`
	ChatWait              time.Duration  `env:"SVC_CHAT_WAIT" envDefault:"40s"`
	ReplyTimeout          time.Duration  `env:"SVC_REPLY_TIMEOUT" envDefault:"75s"`
	SweepInterval         time.Duration  `env:"SVC_SWEEP_INTERVAL" envDefault:"5s"`
	SecretKey             string         `env:"SVC_SECRET_KEY"`
	SMTPURL               string         `env:"SVC_SMTP_URL"`
	// VAPID* are the Web Push key pair (base64url, as web-push generate-vapid-keys prints them)
	// and subject (mailto: or https:); without the pair one is made once and kept in the store.
	VAPIDPublicKey  string   `env:"SVC_VAPID_PUBLIC_KEY"`
	VAPIDPrivateKey string   `env:"SVC_VAPID_PRIVATE_KEY"`
	VAPIDSubject    string   `env:"SVC_VAPID_SUBJECT"`
	MailFrom        string   `env:"SVC_MAIL_FROM" envDefault:"svc <no-reply@localhost>"`
	TrustedProxies  []string `env:"SVC_TRUSTED_PROXIES" envSeparator:","`
	WhatsAppAPIURL  string   `env:"SVC_WHATSAPP_API_URL" envDefault:"https://graph.facebook.com/v21.0"`
	TelegramAPIURL  string   `env:"SVC_TELEGRAM_API_URL" envDefault:"https://api.telegram.org"`
}

// DefaultMetricsAddr is where svc-api serves /metrics when SVC_METRICS_ADDR is not set: loopback
// only, apart from the API.
const DefaultMetricsAddr = "127.0.0.1:9090"

// Load reads the configuration from the environment given as a lookup function (os.LookupEnv in
// the programs, a map in tests) and checks it.
func Load(lookup func(string) (string, bool)) (Config, error) {
	environ := map[string]string{}
	for _, name := range Names() {
		if v, ok := lookup(name); ok {
			environ[name] = v
		}
	}
	var c Config
	if err := env.ParseWithOptions(&c, env.Options{Environment: environ}); err != nil {
		return Config{}, fmt.Errorf("configuration: %w", nameVariables(err))
	}
	if _, set := environ["SVC_METRICS_ADDR"]; !set {
		c.MetricsAddr = DefaultMetricsAddr // a default the library would also put in for an empty value
	}
	if c.PublicURL == "" { // unset or empty
		c.PublicURL = localPublicURL(c.HTTPAddr)
	}
	if err := c.validate(); err != nil {
		return Config{}, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// localPublicURL is the address of a service listening on addr as seen from the same machine:
// http://localhost:<port> for any host or none, http://<host>:<port> for one address. A malformed
// addr is left to validate, which names SVC_HTTP_ADDR.
func localPublicURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "http://localhost:8080"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Names lists every variable Config reads, sorted.
func Names() []string {
	params, err := env.GetFieldParams(&Config{})
	if err != nil {
		panic(err) // the struct tags are constants: TestNames catches a broken one
	}
	names := make([]string, 0, len(params))
	for _, p := range params {
		names = append(names, p.Key)
	}
	sort.Strings(names)
	return names
}

// nameVariables rewrites the library's parse errors, which name struct fields, to name the
// environment variable and the value it could not read.
func nameVariables(err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return err
	}
	t := reflect.TypeFor[Config]()
	out := make([]error, 0, len(agg.Errors))
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			if f, ok := t.FieldByName(pe.Name); ok {
				out = append(out, fmt.Errorf("%s: not a valid %s: %w", f.Tag.Get("env"), pe.Type, pe.Err))
				continue
			}
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

func (c *Config) validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}
	if _, port, err := net.SplitHostPort(c.HTTPAddr); err != nil || port == "" {
		bad("SVC_HTTP_ADDR", "%q is not a listen address such as :8080 or 127.0.0.1:8080", c.HTTPAddr)
	}
	if c.MemoryLimitMB < 0 {
		bad("SVC_MEMORY_LIMIT_MB", "%d is negative (0: no limit)", c.MemoryLimitMB)
	}
	if c.MetricsAddr != "" {
		if _, port, err := net.SplitHostPort(c.MetricsAddr); err != nil || port == "" {
			bad("SVC_METRICS_ADDR", "%q is not a listen address such as 127.0.0.1:9090 (or empty: no metrics)", c.MetricsAddr)
		}
	}
	switch scheme := schemeOf(c.DatabaseURL); scheme {
	case "sqlite", "postgres", "postgresql":
	default:
		bad("SVC_DATABASE_URL", "%q must start with sqlite:// or postgres://", c.DatabaseURL)
	}
	if c.RedisURL != "" {
		if s := schemeOf(c.RedisURL); s != "redis" && s != "rediss" {
			bad("SVC_REDIS_URL", "%q must start with redis:// or rediss://", c.RedisURL)
		}
	}
	if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("SVC_PUBLIC_URL", "%q is not an http(s) URL", c.PublicURL)
	}
	if c.UpgradeURL != "" {
		if u, err := url.Parse(c.UpgradeURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("SVC_UPGRADE_URL", "%q is not an http(s) URL", c.UpgradeURL)
		}
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("SVC_LOG_LEVEL", "%q must be debug, info, warn or error", c.LogLevel)
	}
	switch c.Env {
	case EnvDev, EnvProduction:
	default:
		bad("SVC_ENV", "%q must be %s or %s", c.Env, EnvDev, EnvProduction)
	}
	for _, api := range [][2]string{{"SVC_WHATSAPP_API_URL", c.WhatsAppAPIURL}, {"SVC_TELEGRAM_API_URL", c.TelegramAPIURL}} {
		name, v := api[0], api[1]
		if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad(name, "%q is not an http(s) URL", v)
		}
	}
	if c.ModelBaseURL != "" {
		if u, err := url.Parse(c.ModelBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("SVC_MODEL_BASE_URL", "%q is not an http(s) URL such as https://api.openai.com/v1", c.ModelBaseURL)
		}
	}
	if c.ChatWait <= 0 || c.ChatWait > 10*time.Minute {
		bad("SVC_CHAT_WAIT", "must be above zero and at most 10m")
	}
	if c.ReplyTimeout < time.Second {
		bad("SVC_REPLY_TIMEOUT", "must be at least 1s")
	}
	if c.SweepInterval < 100*time.Millisecond {
		bad("SVC_SWEEP_INTERVAL", "must be at least 100ms")
	}
	if c.SMTPURL != "" {
		if sch := schemeOf(c.SMTPURL); sch != "smtp" && sch != "smtps" {
			bad("SVC_SMTP_URL", "must start with smtp:// or smtps://")
		}
	}
	if (c.VAPIDPublicKey == "") != (c.VAPIDPrivateKey == "") {
		bad("SVC_VAPID_PRIVATE_KEY", "SVC_VAPID_PUBLIC_KEY and SVC_VAPID_PRIVATE_KEY are set together, or neither")
	} else if c.VAPIDPublicKey != "" {
		if err := push.CheckKeys(c.VAPIDPublicKey, c.VAPIDPrivateKey); err != nil {
			bad("SVC_VAPID_PRIVATE_KEY", "%v", err)
		}
	}
	if c.VAPIDSubject != "" {
		if err := push.CheckSubject(c.VAPIDSubject); err != nil {
			bad("SVC_VAPID_SUBJECT", "%v", err)
		}
	}
	if c.Env == EnvProduction && c.SecretKey == "" {
		bad("SVC_SECRET_KEY", "is required when SVC_ENV=production (32 random bytes, base64): it seals webhook signing secrets")
	}
	if c.ShutdownTimeout <= 0 {
		bad("SVC_SHUTDOWN_TIMEOUT", "must be above zero")
	}
	if c.WorkerConcurrency < 1 || c.WorkerConcurrency > 1000 {
		bad("SVC_WORKER_CONCURRENCY", "must be between 1 and 1000")
	}
	if c.RedisTimeout < 10*time.Millisecond || c.RedisTimeout > 10*time.Second {
		bad("SVC_REDIS_TIMEOUT", "must be between 10ms and 10s")
	}
	if c.RelayInterval < 10*time.Millisecond {
		bad("SVC_RELAY_INTERVAL", "must be at least 10ms")
	}
	proxies := c.TrustedProxies[:0]
	for _, p := range c.TrustedProxies {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		proxies = append(proxies, p)
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				bad("SVC_TRUSTED_PROXIES", "%q is not an IP address or CIDR range (list them with commas, e.g. 10.0.0.0/8,192.168.1.2)", p)
			}
		}
	}
	c.TrustedProxies = proxies
	if c.MaxBodyBytes < 1024 {
		bad("SVC_MAX_BODY_BYTES", "must be at least 1024")
	}
	for name, n := range map[string]int{
		"SVC_PLAN_FREE_INTERACTIONS":       c.PlanFreeInteractions,
		"SVC_PLAN_STARTER_INTERACTIONS":    c.PlanStarterInteractions,
		"SVC_PLAN_PRO_INTERACTIONS":        c.PlanProInteractions,
		"SVC_DEVELOPER_BONUS_INTERACTIONS": c.DeveloperBonusInteractions,
	} {
		if n < 0 {
			bad(name, "must not be negative")
		}
	}
	for name, counts := range map[string]map[string]int{
		"SVC_PLAN_FREE_RATE_LIMITS":    c.PlanFreeRateLimits,
		"SVC_PLAN_STARTER_RATE_LIMITS": c.PlanStarterRateLimits,
		"SVC_PLAN_PRO_RATE_LIMITS":     c.PlanProRateLimits,
	} {
		for _, l := range slices.Sorted(maps.Keys(counts)) {
			if !slices.ContainsFunc(ratelimit.PerMinute, func(pm ratelimit.Limit) bool { return pm.Name == l }) {
				bad(name, "%q is not a per-minute limit: name key, chat, assistant or model, e.g. model=600,key=1200", l)
			} else if n := counts[l]; n < 1 || n > maxRateLimit {
				bad(name, "%s=%d: a limit is between 1 and %d requests a minute", l, n, maxRateLimit)
			}
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errors.Join(errs...)
}

// maxRateLimit is the most requests a minute a plan's limit may allow: 100 a millisecond.
const maxRateLimit = 6_000_000

func schemeOf(raw string) string {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return ""
	}
	return strings.ToLower(raw[:i])
}

// Embedded reports whether the programs run the embedded environment: no Redis, so the queue and
// the rate limiter live inside svc-api.
func (c Config) Embedded() bool { return c.RedisURL == "" }

// Store names a store the programs can run on.
type Store string

// The stores SVC_DATABASE_URL can name.
const (
	SQLite   Store = "sqlite"
	Postgres Store = "postgres"
)

// Setup is what the programs are assembled from: the environment (where the queue and the rate
// limiter live), the store, and what writes the agent's replies. Each program has one injector
// per setup it runs in.
type Setup struct {
	Embedded bool  // no Redis: the queue and the rate limiter live inside svc-api
	Store    Store // SQLite or Postgres
	Upstream bool  // SVC_MODEL_BASE_URL is set: the upstream model writes replies, else the built-in engine
}

// Setup returns the configured setup.
func (c Config) Setup() Setup {
	s := Setup{Embedded: c.Embedded(), Store: Postgres, Upstream: c.ModelBaseURL != ""}
	if schemeOf(c.DatabaseURL) == "sqlite" {
		s.Store = SQLite
	}
	return s
}

// Upgrade returns the address that plan and limit errors point to.
func (c Config) Upgrade() string {
	if c.UpgradeURL != "" {
		return c.UpgradeURL
	}
	return strings.TrimRight(c.PublicURL, "/") + "/billing"
}

// Plans returns the plan table: free (no web channels), starter and pro.
func (c Config) Plans() ledger.Plans {
	return ledger.Plans{
		"free": {Name: "free", Interactions: c.PlanFreeInteractions, WebChannels: false, DeveloperBonus: c.DeveloperBonusInteractions,
			RateLimits: c.PlanFreeRateLimits},
		"starter": {Name: "starter", Interactions: c.PlanStarterInteractions, WebChannels: true, DeveloperBonus: c.DeveloperBonusInteractions,
			RateLimits: c.PlanStarterRateLimits},
		"pro": {Name: "pro", Interactions: c.PlanProInteractions, WebChannels: true, DeveloperBonus: c.DeveloperBonusInteractions,
			RateLimits: c.PlanProRateLimits},
	}
}

// testFamilies are the words after SVC_ of the variables that belong to the test suites, not to
// the programs: SVC_TEST_* (the suites' services and binaries), SVC_EVAL and SVC_EVAL_* (the
// answer-quality evaluations), SVC_BENCH and SVC_BENCH_* (the load harness). Unknown leaves
// them out: an environment that runs the suites beside a program is not misconfigured.
var testFamilies = [...]string{"TEST", "EVAL", "BENCH"}

// testOnly reports whether name is of a test suite's family (testFamilies).
func testOnly(name string) bool {
	rest, ok := strings.CutPrefix(name, "SVC_")
	if !ok {
		return false
	}
	for _, f := range testFamilies {
		if after, ok := strings.CutPrefix(rest, f); ok && (after == "" || after[0] == '_') {
			return true
		}
	}
	return false
}

// Unknown returns the SVC_* variables set in environ (KEY=VALUE pairs) that Config does not read,
// so a typo can be reported. The test suites' variables (testFamilies) are not reported.
func Unknown(environ []string) []string {
	known := map[string]bool{}
	for _, n := range Names() {
		known[n] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SVC_") && !testOnly(name) && !known[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
