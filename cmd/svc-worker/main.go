// Command svc-worker runs the queue's tasks in the production environment (asynq on Redis) and
// relays the transactional outbox, re-claiming what was never confirmed. In the embedded
// environment svc-api does both itself and svc-worker refuses to start.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/clock"
	"github.com/svcagent/svc/adapters/queue/asynqq"
	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/events"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
	"github.com/svcagent/svc/internal/outage"
)

func main() {
	if err := run(context.Background(), os.LookupEnv, os.Environ()); err != nil {
		fmt.Fprintln(os.Stderr, "svc-worker:", err)
		os.Exit(1)
	}
}

// program is the assembled svc-worker.
type program struct {
	cfg    config.Config
	log    *zap.Logger
	worker *asynqq.Worker
	relay  *events.Relay
	chat   *chat.Agent
	idem   *idempotent.Requests
}

// injectors are svc-worker's assemblies (wire.go), one per setup of the production environment:
// the store and the model.
func injectors() map[config.Setup]func(context.Context, config.Config, *zap.Logger) (*program, func(), error) {
	return map[config.Setup]func(context.Context, config.Config, *zap.Logger) (*program, func(), error){
		{Store: config.Postgres}:                 initWorkerPostgres,
		{Store: config.Postgres, Upstream: true}: initWorkerPostgresUpstream,
		{Store: config.SQLite}:                   initWorkerSQLite,
		{Store: config.SQLite, Upstream: true}:   initWorkerSQLiteUpstream,
	}
}

func run(ctx context.Context, lookup func(string) (string, bool), environ []string) error {
	cfg, log, err := boot.Load(lookup, environ)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()
	if cfg.Embedded() {
		return errors.New("SVC_REDIS_URL is not set: in the embedded environment svc-api runs the queue itself; set SVC_REDIS_URL (and SVC_DATABASE_URL) for the production environment")
	}
	ctx, stop := boot.SignalContext(ctx)
	defer stop()
	init, ok := injectors()[cfg.Setup()]
	if !ok {
		return fmt.Errorf("svc-worker has no assembly for %+v", cfg.Setup())
	}
	p, cleanup, err := init(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer cleanup()
	return p.serve(ctx)
}

// serve runs the worker, the relay, the reply sweep and the sweep of expired idempotency keys until ctx ends, then stops the relay and
// the sweep and lets running tasks finish (up to the shutdown timeout).
func (p *program) serve(ctx context.Context) error {
	if err := p.worker.Start(ctx); err != nil {
		return fmt.Errorf("SVC_REDIS_URL: %w", err)
	}
	relayCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	// Each loop logs when it starts failing, reminds at most once a minute, and logs its return.
	outages := outage.New(p.log, clock.New(), outage.Reminder)
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		p.relay.Run(relayCtx, p.cfg.RelayInterval, func(err error) { outages.Report("outbox relay", err) })
	}()
	sweepDone := make(chan struct{})
	go func() {
		defer close(sweepDone)
		p.chat.RunSweep(relayCtx, p.cfg.SweepInterval, outages.Report)
	}()
	idemDone := make(chan struct{})
	go func() {
		defer close(idemDone)
		p.idem.RunSweep(relayCtx, idempotent.SweepInterval, func(err error) { outages.Report("idempotency key sweep", err) })
	}()
	p.log.Info("svc-worker running", zap.Int("concurrency", p.cfg.WorkerConcurrency))
	<-ctx.Done()
	p.log.Info("shutting down")
	cancel()
	<-relayDone
	<-sweepDone
	<-idemDone
	err := p.worker.Shutdown()
	p.log.Info("stopped")
	if err != nil {
		return fmt.Errorf("drain tasks: %w", err) // exit 1, as svc-api's after a drain cut short
	}
	return nil
}
