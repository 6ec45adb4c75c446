package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/console"
	"github.com/svcagent/svc/adapters/httpapi"
	"github.com/svcagent/svc/adapters/ratelimit"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/internal/outage"
)

// jobs runs queued work inside this process (the embedded environment) or nowhere (production,
// where svc-worker does).
type jobs interface {
	Start(ctx context.Context)
	Stop(ctx context.Context) error
}

// noJobs is the production jobs: svc-worker takes the queue's tasks.
type noJobs struct{}

func newNoJobs() noJobs                   { return noJobs{} }
func (noJobs) Start(context.Context)      {}
func (noJobs) Stop(context.Context) error { return nil }

// startCheck checks at start what the program can do without, to log what it cannot reach.
type startCheck func(context.Context)

// noStartCheck is the embedded environment's: nothing to check.
func noStartCheck() startCheck { return func(context.Context) {} }

// redisStartCheck is the production environment's: a Redis that cannot be reached is logged at
// start (once, by the rate limiter, which counts in the process until Redis answers), rather than
// at the first rate-limited request. svc-api starts anyway: it answers without Redis.
func redisStartCheck(f *ratelimit.Fallback, r *boot.RedisPinger) startCheck {
	return func(ctx context.Context) { f.Check(ctx, r.Ping) }
}

// program is the assembled svc-api.
type program struct {
	cfg     config.Config
	log     *zap.Logger
	server  *httpapi.Server
	console *console.Console
	metrics *httpapi.Metrics
	relay   *events.Relay
	admin   *accounts.Admin
	chat    *chat.Agent
	idem    *idempotent.Requests
	jobs    jobs
	check   startCheck
}

// handler serves the owner console under /app/ and the HTTP interface everywhere else.
func (p *program) handler() http.Handler {
	return httpapi.AnswerHead(p.console.Wrap(p.server.Handler()))
}

// injector assembles svc-api (wire.go).
type injector func(context.Context, config.Config, *zap.Logger) (*program, func(), error)

// injectors are svc-api's assemblies, one per setup: the environment, the store and the model.
func injectors() map[config.Setup]injector {
	return map[config.Setup]injector{
		{Embedded: true, Store: config.SQLite}:                   initEmbeddedSQLite,
		{Embedded: true, Store: config.SQLite, Upstream: true}:   initEmbeddedSQLiteUpstream,
		{Embedded: true, Store: config.Postgres}:                 initEmbeddedPostgres,
		{Embedded: true, Store: config.Postgres, Upstream: true}: initEmbeddedPostgresUpstream,
		{Store: config.Postgres}:                                 initProductionPostgres,
		{Store: config.Postgres, Upstream: true}:                 initProductionPostgresUpstream,
		{Store: config.SQLite}:                                   initProductionSQLite,
		{Store: config.SQLite, Upstream: true}:                   initProductionSQLiteUpstream,
	}
}

func run(ctx context.Context, lookup func(string) (string, bool), environ []string) error {
	cfg, log, err := boot.Load(lookup, environ)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if _, set := lookup("GOMEMLIMIT"); !set && cfg.MemoryLimitMB > 0 {
		debug.SetMemoryLimit(cfg.MemoryLimitMB << 20) // Go's own GOMEMLIMIT, when set, stands
	}
	ctx, stop := boot.SignalContext(ctx)
	defer stop()

	init, ok := injectors()[cfg.Setup()]
	if !ok {
		return fmt.Errorf("svc-api has no assembly for %+v", cfg.Setup())
	}
	p, cleanup, err := init(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	return p.serve(ctx)
}

// serve prepares the store (embedded only), listens, and on ctx's end drains: HTTP first, then the
// relay, then running jobs.
func (p *program) serve(ctx context.Context) error {
	if p.cfg.Embedded() {
		if err := p.demo(ctx); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", p.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("SVC_HTTP_ADDR: %w", err)
	}
	served := make(chan error, 2)
	msrv, err := p.serveMetrics(served)
	if err != nil {
		_ = ln.Close()
		return err
	}
	if msrv != nil {
		defer func() { _ = msrv.Close() }() // a scrape in progress is not worth waiting for
	}
	// Requests run under a context of their own, cancelled when the drain at shutdown runs out
	// (see stopRequests), never by the signal itself: a request in flight at SIGTERM finishes.
	requests, stopRequests := context.WithCancelCause(context.WithoutCancel(ctx))
	defer stopRequests(nil)
	running := &inflight{}
	srv := &http.Server{
		Handler:           running.wrap(p.handler()),
		BaseContext:       func(net.Listener) context.Context { return requests },
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          zap.NewStdLog(p.log.Named("http")),
	}

	background, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	p.jobs.Start(background)
	// Each loop logs when it starts failing, reminds at most once a minute, and logs its return.
	outages := outage.New(p.log, clock.New(), outage.Reminder)
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		p.relay.Run(background, relayInterval(p.cfg), func(err error) { outages.Report("outbox relay", err) })
	}()
	sweepDone := make(chan struct{})
	go func() {
		defer close(sweepDone)
		if !p.cfg.Embedded() {
			return // svc-worker sweeps in production
		}
		p.chat.RunSweep(background, p.cfg.SweepInterval, outages.Report)
	}()
	idemDone := make(chan struct{})
	go func() {
		defer close(idemDone)
		if !p.cfg.Embedded() {
			return // svc-worker deletes the expired idempotency keys in production
		}
		p.idem.RunSweep(background, idempotent.SweepInterval, func(err error) { outages.Report("idempotency key sweep", err) })
	}()

	p.check(background)
	go func() { served <- fmt.Errorf("http server: %w", srv.Serve(ln)) }()
	mode := "production"
	if p.cfg.Embedded() {
		mode = "embedded"
	}
	p.log.Info("svc-api listening", zap.String("addr", ln.Addr().String()), zap.String("environment", mode))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	p.log.Info("shutting down")
	drain, cancelDrain := context.WithTimeout(context.WithoutCancel(ctx), p.cfg.ShutdownTimeout)
	defer cancelDrain()
	var errs []error
	if err := srv.Shutdown(drain); err != nil {
		errs = append(errs, fmt.Errorf("drain http: %w", err))
		p.stopRequests(srv, running, stopRequests)
	}
	cancel()
	<-relayDone
	<-sweepDone
	<-idemDone
	if err := p.jobs.Stop(drain); err != nil {
		errs = append(errs, fmt.Errorf("drain jobs: %w", err))
	}
	p.log.Info("stopped")
	return errors.Join(errs...)
}

// stopRequests ends the requests still running when the drain at shutdown ran out, before the
// relay, the jobs and then the store stop under them: their context is cancelled with
// outage.ShuttingDown, so that each answers 503 service_unavailable with Retry-After (a stream,
// its error as the last event) and gives back what it held, and they are waited for up to
// outage.CutGrace; the connections still open a second after that are closed.
func (p *program) stopRequests(srv *http.Server, running *inflight, stop context.CancelCauseFunc) {
	n := running.Count()
	stop(outage.ShuttingDown)
	if !running.Wait(outage.CutGrace) {
		p.log.Warn("requests still running after the drain and their cancellation", zap.Int64("requests", running.Count()),
			zap.Duration("waited", outage.CutGrace))
	}
	// A handler that returned has not always sent its answer yet (net/http flushes it after):
	// the connections are let close by themselves, as they do once answered, before the rest
	// is closed.
	sent, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Shutdown(sent)
	_ = srv.Close()
	p.log.Info("requests cut short by the shutdown timeout", zap.Int64("requests", n))
}

// inflight counts the requests whose handlers are running.
type inflight struct{ outage.Running }

// wrap counts the requests h serves.
func (f *inflight) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.Add(1)
		defer f.Add(-1)
		h.ServeHTTP(w, r)
	})
}

// serveMetrics serves /metrics on SVC_METRICS_ADDR, a listener of its own so that the metrics are
// never exposed with the API; nil when SVC_METRICS_ADDR is empty. A failure of the server is sent
// to served.
func (p *program) serveMetrics(served chan<- error) (*http.Server, error) {
	if p.cfg.MetricsAddr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", p.cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("SVC_METRICS_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", p.metrics.Handler())
	if p.cfg.Profiling {
		// Every blocking event and one in 5 mutex contentions are recorded from now on.
		runtime.SetBlockProfileRate(1)
		runtime.SetMutexProfileFraction(5)
		mux.HandleFunc("GET /debug/pprof/", pprof.Index)
		mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
		p.log.Warn("SVC_PROFILING: pprof profiles served on the metrics listener; block and mutex profiles recorded")
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          zap.NewStdLog(p.log.Named("metrics")),
	}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			served <- fmt.Errorf("metrics server: %w", err)
		}
	}()
	p.log.Info("metrics listening", zap.String("addr", ln.Addr().String()))
	return srv, nil
}

// demo makes, when the embedded store (migrated at assembly) is empty, a demo account and key and
// logs them once, so that a first start can be tried with one request.
func (p *program) demo(ctx context.Context) error {
	if !p.cfg.DemoOnFirstStart {
		return nil
	}
	acct, secret, created, err := p.admin.Demo(ctx)
	if err != nil {
		return fmt.Errorf("demo account: %w", err)
	}
	if created {
		// The one log line that carries a secret, on purpose: the demo key, printed once.
		p.log.Info("demo account created; try: curl -H 'Authorization: Bearer "+secret+"' "+p.cfg.PublicURL+"/v1/account",
			zap.String("account_id", acct.ID), zap.String("api_key", secret))
	}
	return nil
}

// relayIdleInterval is how often svc-api's relay claims the outbox unasked in production, where
// svc-worker's relay does so every SVC_RELAY_INTERVAL.
const relayIdleInterval = 5 * time.Second

// relayInterval is the tick of svc-api's outbox relay. Embedded, it is the only relay: it claims
// every SVC_RELAY_INTERVAL (what another process wrote, svcctl's, and what a lease gave back wait
// no longer than that). In production svc-worker always runs a relay that claims every
// SVC_RELAY_INTERVAL, so svc-api's needs no tick of its own for those: it claims when a request of
// its own wrote to the outbox (nudged, at once) and otherwise every relayIdleInterval, rather than
// 4 times a second in every svc-api whether or not anything was written. No event waits longer
// than before: whatever svc-api does not claim at once, svc-worker's tick does.
func relayInterval(cfg config.Config) time.Duration {
	if cfg.Embedded() {
		return cfg.RelayInterval
	}
	return max(cfg.RelayInterval, relayIdleInterval)
}
