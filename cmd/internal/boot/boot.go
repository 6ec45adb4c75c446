// Package boot holds what the three programs share at start: the configuration, the logger, the
// providers that turn configuration into adapters, and signal handling.
package boot

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	webpushgo "github.com/SherClockHolmes/webpush-go"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/svcagent/svc/adapters/console"
	"github.com/svcagent/svc/adapters/crawl"
	"github.com/svcagent/svc/adapters/httpapi"
	"github.com/svcagent/svc/adapters/mail"
	"github.com/svcagent/svc/adapters/mcpserver"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/adapters/queue/inproc"
	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/adapters/webhookhttp"
	"github.com/svcagent/svc/adapters/webpush"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/app/webhooks"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/internal/outage"
	"github.com/svcagent/svc/ports"
)

// Load reads the configuration and makes the logger. Unknown SVC_* variables are reported.
func Load(lookup func(string) (string, bool), environ []string) (config.Config, *zap.Logger, error) {
	cfg, err := config.Load(lookup)
	if err != nil {
		return config.Config{}, nil, err
	}
	log, err := NewLogger(cfg)
	if err != nil {
		return config.Config{}, nil, err
	}
	logRedisWith(log)
	if unknown := config.Unknown(environ); len(unknown) > 0 {
		log.Warn("unknown SVC_ variables are ignored", zap.Strings("names", unknown))
	}
	return cfg, log, nil
}

// NewLogger returns a JSON logger on stderr at the configured level.
func NewLogger(cfg config.Config) (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(cfg.LogLevel)
	if err != nil {
		return nil, fmt.Errorf("SVC_LOG_LEVEL: %w", err)
	}
	zc := zap.NewProductionConfig()
	zc.Level = zap.NewAtomicLevelAt(level)
	zc.EncoderConfig.TimeKey = "time"
	zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	zc.Sampling = nil
	return zc.Build(zap.Fields(zap.String("env", cfg.Env)))
}

// SignalContext returns a context canceled at SIGINT or SIGTERM.
func SignalContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// SQLite opens the SQLite store at SVC_DATABASE_URL. Writes its file refuses (disk full, a
// read-only file) are logged as an outage of their cause ("SQLite: disk full: failing", "…:
// still failing" at most once a minute, "…: back" at the first write that succeeds).
func SQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return reportOutages(log)(store.OpenSQLite(ctx, cfg.DatabaseURL))
}

// Postgres opens the PostgreSQL store at SVC_DATABASE_URL. New connections that fail (the
// server at its connection limit, shutting down or starting up, or not reached) are logged as an
// outage ("Postgres: new connections: failing", … "back" at the next one made).
func Postgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return reportOutages(log)(store.OpenPostgres(ctx, cfg.DatabaseURL))
}

// reportOutages returns what has the outages of a database just opened, that the store tells of
// (store.ReportOutages), logged to log's logger "store".
func reportOutages(log *zap.Logger) func(*bun.DB, func(), error) (*bun.DB, func(), error) {
	return func(db *bun.DB, closeDB func(), err error) (*bun.DB, func(), error) {
		if err != nil {
			return nil, nil, err
		}
		store.ReportOutages(db, outage.New(log.Named("store"), outage.System, outage.Reminder).Report)
		return db, closeDB, nil
	}
}

// MigratedSQLite opens the SQLite store and brings its schema up to date: the embedded
// environment migrates by itself, before anything reads the store.
func MigratedSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return migrated(ctx, cfg, withLog(SQLite, log))
}

// MigratedPostgres opens the PostgreSQL store and brings its schema up to date, as
// MigratedSQLite does.
func MigratedPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return migrated(ctx, cfg, withLog(Postgres, log))
}

// CurrentPostgres opens the PostgreSQL store and checks that its schema is this version's: the
// production environment never migrates by itself (svcctl migrate does), and a program on a
// schema it does not know would fail on every call that reaches a missing table or column.
func CurrentPostgres(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return current(ctx, cfg, withLog(Postgres, log))
}

// CurrentSQLite opens the SQLite store and checks its schema, as CurrentPostgres does.
func CurrentSQLite(ctx context.Context, cfg config.Config, log *zap.Logger) (*bun.DB, func(), error) {
	return current(ctx, cfg, withLog(SQLite, log))
}

// withLog is open given its logger.
func withLog(open func(context.Context, config.Config, *zap.Logger) (*bun.DB, func(), error),
	log *zap.Logger) func(context.Context, config.Config) (*bun.DB, func(), error) {
	return func(ctx context.Context, cfg config.Config) (*bun.DB, func(), error) { return open(ctx, cfg, log) }
}

func current(ctx context.Context, cfg config.Config,
	open func(context.Context, config.Config) (*bun.DB, func(), error)) (*bun.DB, func(), error) {
	db, cleanup, err := open(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckMigrated(ctx, db); err != nil {
		cleanup()
		return nil, nil, err
	}
	return db, cleanup, nil
}

// CheckMigrated fails, saying so, when the store's schema is not this version's.
func CheckMigrated(ctx context.Context, db *bun.DB) error {
	pending, err := store.Unapplied(ctx, db)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if len(pending) > 0 {
		return fmt.Errorf("SVC_DATABASE_URL: the database is not migrated to this version (%d of its migrations not applied, from %s): run svcctl migrate first; production never migrates by itself",
			len(pending), pending[0])
	}
	return nil
}

func migrated(ctx context.Context, cfg config.Config,
	open func(context.Context, config.Config) (*bun.DB, func(), error)) (*bun.DB, func(), error) {
	db, cleanup, err := open(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := store.Migrate(ctx, db); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	return db, cleanup, nil
}

// Plans returns the plan table.
func Plans(cfg config.Config) ledger.Plans { return cfg.Plans() }

// HTTPOptions returns the HTTP adapter's settings.
func HTTPOptions(cfg config.Config) httpapi.Options {
	return httpapi.Options{
		PublicURL:      strings.TrimRight(cfg.PublicURL, "/"),
		UpgradeURL:     cfg.Upgrade(),
		MaxBodyBytes:   cfg.MaxBodyBytes,
		TrustedProxies: cfg.TrustedProxies,
	}
}

// ConsoleOptions returns the owner console's settings. Its CSRF key is made once and kept in the
// store's own settings, so that every replica shares it.
func ConsoleOptions(ctx context.Context, cfg config.Config, settings *store.Settings) (console.Options, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return console.Options{}, fmt.Errorf("console key: %w", err)
	}
	raw, err := settings.Ensure(ctx, "console_csrf_key", base64.StdEncoding.EncodeToString(b))
	if err != nil {
		return console.Options{}, err
	}
	key, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(key) != 32 {
		return console.Options{}, fmt.Errorf("console key: the stored key is not 32 bytes of base64")
	}
	return console.Options{
		PublicURL:      strings.TrimRight(cfg.PublicURL, "/"),
		Dev:            cfg.Env == config.EnvDev,
		CSRFKey:        key,
		TrustedProxies: cfg.TrustedProxies,
		MaxBodyBytes:   cfg.MaxBodyBytes,
	}, nil
}

// MCPOptions returns the MCP server's settings.
func MCPOptions(cfg config.Config) mcpserver.Options {
	return mcpserver.Options{UpgradeURL: cfg.Upgrade()}
}

// WidgetOptions returns the widget's settings: its script is served by svc-api at
// SVC_PUBLIC_URL/widget.js.
func WidgetOptions(cfg config.Config) widgets.Options {
	return widgets.Options{ScriptURL: strings.TrimRight(cfg.PublicURL, "/") + "/widget.js"}
}

// InprocOptions returns the in-process queue's settings.
func InprocOptions(cfg config.Config) inproc.Options {
	return inproc.Options{Concurrency: cfg.WorkerConcurrency}
}

// AsynqOptions returns the asynq queue's and worker's settings.
func AsynqOptions(cfg config.Config) asynqq.Options {
	return asynqq.Options{Concurrency: cfg.WorkerConcurrency, ShutdownTimeout: cfg.ShutdownTimeout}
}

// RedisConnOpt parses SVC_REDIS_URL for asynq.
func RedisConnOpt(cfg config.Config) (asynq.RedisConnOpt, error) {
	return asynqq.RedisOpt(cfg.RedisURL)
}

// Redis opens a go-redis client on SVC_REDIS_URL (for the rate limiter and readiness).
func Redis(cfg config.Config) (*redis.Client, func(), error) {
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, nil, fmt.Errorf("SVC_REDIS_URL: %w", err)
	}
	// The rate limiter bounds each call with its context (ratelimit.Fallback): without this the
	// client waits out its own read timeouts and retries whatever the context says, and a Redis
	// that stops answering holds every request of that moment for seconds.
	opt.ContextTimeoutEnabled = true
	// One dial per try: go-redis's default of 5 dials 100 ms apart, under each of its 4 tries of a
	// command, made a Redis that refuses connections cost every call the whole of its timeout (a
	// request 0.5 to 1 s every 2 s, GET /readyz 1.7 s, past the 1 s a load balancer's probe
	// commonly waits) instead of failing at once.
	opt.DialerRetries = 1
	c := redis.NewClient(opt)
	return c, func() { _ = c.Close() }, nil
}

// RateLimitOptions returns the rate limiter's settings: how long a check waits for Redis.
func RateLimitOptions(cfg config.Config) ratelimit.Options {
	return ratelimit.Options{Timeout: cfg.RedisTimeout}
}

// RedisPinger checks Redis.
type RedisPinger struct{ client *redis.Client }

// NewRedisPinger returns a RedisPinger.
func NewRedisPinger(c *redis.Client) *RedisPinger { return &RedisPinger{client: c} }

// Ping answers whether Redis answers.
func (p *RedisPinger) Ping(ctx context.Context) error { return p.client.Ping(ctx).Err() }

// EmbeddedReadiness checks the store.
func EmbeddedReadiness(db *store.Pinger) httpapi.Readiness {
	return httpapi.Readiness{{Name: "store", Pinger: db}}
}

// ProductionReadiness checks the store and Redis. Redis not answering degrades the instance
// rather than taking it out of rotation: the rate limits fall back to the process and events wait
// in the outbox until it returns.
func ProductionReadiness(db *store.Pinger, r *RedisPinger) httpapi.Readiness {
	return httpapi.Readiness{{Name: "store", Pinger: db}, {Name: "redis", Pinger: r, Degrades: true}}
}

// EmbeddedCollectors are the embedded environment's extra metrics: none.
func EmbeddedCollectors() httpapi.Collectors { return nil }

// ProductionCollectors are the production environment's extra metrics: the rate limiter's
// fallback to the process while Redis cannot be reached.
func ProductionCollectors(f *ratelimit.Fallback) httpapi.Collectors { return f.Collectors() }

var _ ports.Pinger = (*RedisPinger)(nil)

// CrawlOptions returns the crawler's settings.
func CrawlOptions(cfg config.Config) crawl.Options {
	return crawl.Options{AllowPrivate: cfg.AllowPrivateTargets}
}

// ChatOptions returns the agent's timings.
func ChatOptions(cfg config.Config) chat.Options {
	// The built-in engine answers in microseconds: its replies are stored in one transaction.
	return chat.Options{Wait: cfg.ChatWait, Generate: cfg.ReplyTimeout, Inline: cfg.ModelBaseURL == ""}
}

// Vault returns the sealer of webhook secrets. Its key is SVC_SECRET_KEY; without one (dev and
// tests only; production requires it) a random key is made once and kept in the store's own
// settings, so that every process of the service shares it.
func Vault(ctx context.Context, cfg config.Config, settings *store.Settings) (*vault.AESGCM, error) {
	raw := cfg.SecretKey
	if raw == "" {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("vault key: %w", err)
		}
		var err error
		if raw, err = settings.Ensure(ctx, "vault_key", base64.StdEncoding.EncodeToString(b)); err != nil {
			return nil, err
		}
	}
	key, err := vault.ParseKey(raw)
	if err != nil {
		return nil, fmt.Errorf("SVC_SECRET_KEY: %w", err)
	}
	return vault.New(key)
}

// Mailer sends owner e-mail by SMTP when SVC_SMTP_URL is set, else writes it to the log.
func Mailer(cfg config.Config, log *zap.Logger) (ports.Mailer, error) {
	if cfg.SMTPURL == "" {
		return mail.NewLog(log.Named("mail")), nil
	}
	m, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom, log.Named("mail"))
	if err != nil {
		return nil, fmt.Errorf("SVC_SMTP_URL: %w", err)
	}
	return m, nil
}

// SenderOptions returns the webhook sender's settings.
func SenderOptions(cfg config.Config) webhookhttp.Options {
	return webhookhttp.Options{AllowPrivate: cfg.AllowPrivateTargets}
}

// WebhookOptions returns the webhook use cases' settings.
func WebhookOptions(cfg config.Config) webhooks.Options {
	return webhooks.Options{AllowPrivate: cfg.AllowPrivateTargets}
}

// PushKeys returns the Web Push (VAPID) key pair: SVC_VAPID_PUBLIC_KEY and SVC_VAPID_PRIVATE_KEY
// when set; otherwise a pair made once and kept in the store's own settings, the private key
// sealed by the vault, so that every process of the service signs with the same pair that
// browsers subscribed with. The subject is SVC_VAPID_SUBJECT, else push.DefaultSubject.
func PushKeys(ctx context.Context, cfg config.Config, settings *store.Settings, v ports.Vault) (push.Keys, error) {
	keys := push.Keys{Public: cfg.VAPIDPublicKey, Private: cfg.VAPIDPrivateKey, Subject: cfg.VAPIDSubject}
	if keys.Subject == "" {
		keys.Subject = push.DefaultSubject(cfg.PublicURL)
	}
	if keys.Public != "" {
		return keys, nil
	}
	private, public, err := webpushgo.GenerateVAPIDKeys()
	if err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: %w", err)
	}
	sealed, err := v.Seal(private)
	if err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: %w", err)
	}
	raw, err := json.Marshal(storedVAPID{Public: public, SealedPrivate: sealed})
	if err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: %w", err)
	}
	kept, err := settings.Ensure(ctx, "vapid_keys", string(raw))
	if err != nil {
		return push.Keys{}, err
	}
	var stored storedVAPID
	if err := json.Unmarshal([]byte(kept), &stored); err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: the stored pair cannot be read: %w", err)
	}
	if keys.Private, err = v.Open(stored.SealedPrivate); err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: the stored private key cannot be opened (was SVC_SECRET_KEY changed?): %w", err)
	}
	keys.Public = stored.Public
	if err := push.CheckKeys(keys.Public, keys.Private); err != nil {
		return push.Keys{}, fmt.Errorf("vapid keys: the stored pair: %w", err)
	}
	return keys, nil
}

// storedVAPID is the generated VAPID pair as the settings keep it.
type storedVAPID struct {
	Public        string `json:"public"`
	SealedPrivate []byte `json:"sealed_private"`
}

// NotifierOptions returns the notifications' settings.
func NotifierOptions(cfg config.Config, keys push.Keys) notifications.Options {
	return notifications.Options{PublicKey: keys.Public, AllowPrivate: cfg.AllowPrivateTargets}
}

// PushOptions returns the Web Push sender's settings.
func PushOptions(cfg config.Config, keys push.Keys) webpush.Options {
	return webpush.Options{Keys: keys, AllowPrivate: cfg.AllowPrivateTargets}
}

// EventHandlers maps each outbox topic to its handler (the ping topic is built in).
func EventHandlers(w *webhooks.Manager, n *notifications.Notifier, m *messaging.Service) events.Handlers {
	return events.Handlers{
		outbox.TopicEvent:          w.FanOut,
		outbox.TopicDelivery:       w.Deliver,
		outbox.TopicMail:           n.SendMail,
		outbox.TopicPush:           n.SendPush,
		outbox.TopicMessagingReply: m.Deliver,
	}
}
