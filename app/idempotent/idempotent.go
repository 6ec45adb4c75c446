// Package idempotent runs the REST API's idempotent requests (the Idempotency-Key header, as
// Stripe has it): the first request with a key reserves it and runs, and its answer is kept; the
// same request again gets the kept answer without running; a request with the same key and other
// parameters is refused; one that comes while the first runs waits for its answer.
package idempotent

import (
	"context"
	"fmt"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/ports"
)

// Defaults of Options.
const (
	// DefaultWait is longer than a chat reply's wait (SVC_CHAT_WAIT, 40 s by default), the longest
	// a request of these routes usually runs.
	DefaultWait = 60 * time.Second
	DefaultPoll = 50 * time.Millisecond
	// SweepInterval is how often the expired keys are deleted.
	SweepInterval = 10 * time.Minute
)

// Options tune the wait for a request that holds the key.
type Options struct {
	// Wait bounds how long a request waits for the answer of another that holds its key (the
	// request's own context may end it sooner); 0 is DefaultWait.
	Wait time.Duration
	// Poll is the first pause between two reads of the key (it doubles up to 8 times as much);
	// 0 is DefaultPoll.
	Poll time.Duration
}

// Requests runs idempotent requests.
type Requests struct {
	store ports.Idempotency
	clock ports.Clock
	vault ports.Vault
	opts  Options
}

// New returns the use case with the default options.
func New(store ports.Idempotency, clock ports.Clock, vault ports.Vault) *Requests {
	return NewWith(store, clock, vault, Options{})
}

// NewWith returns the use case with opts. The kept answers are sealed with vault: some hold a
// secret shown once (a client session's token, a webhook's signing secret), which the store
// never holds in the clear.
func NewWith(store ports.Idempotency, clock ports.Clock, vault ports.Vault, opts Options) *Requests {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	return &Requests{store: store, clock: clock, vault: vault, opts: opts}
}

// Request is a request sent with a key: its caller (the account and the credential's scope,
// idempotency.ScopeKey or idempotency.ClientScope), its route (method and path) and raw body.
type Request struct {
	AccountID string
	Scope     string
	Key       string
	Route     string
	Body      []byte
}

// Outcome is what Begin decided: either the request runs, holding Reservation, which the caller
// must end with Finish or Abandon, or it was answered before and Replay is its answer.
type Outcome struct {
	Reservation idempotency.Record
	Replayed    bool
	Replay      idempotency.Response
}

// Begin reserves the request's key, or finds the answer kept for it. A key held by a request
// still running is waited for (Options.Wait, and as long as ctx lasts), and its answer replayed;
// a key its holder released is reserved again. An invalid key, or a key first used with another
// route or body, is invalid_request naming the key; a wait that ends without an answer is
// rate_limited, to be tried again.
func (s *Requests) Begin(ctx context.Context, req Request) (Outcome, error) {
	rec, err := idempotency.New(req.AccountID, req.Scope, req.Key, req.Route, req.Body, s.clock.Now())
	if err != nil {
		return Outcome{}, err
	}
	deadline := time.Now().Add(s.opts.Wait)
	pause := s.opts.Poll
	for {
		now := s.clock.Now()
		rec.CreatedAt = now
		held, reserved, err := s.store.Reserve(ctx, rec, idempotency.ExpiredBefore(now), idempotency.AbandonedBefore(now))
		if err != nil {
			return Outcome{}, err
		}
		if reserved {
			return Outcome{Reservation: held}, nil
		}
		// Held by another request: wait for its answer, or for the key to be free again.
		for {
			if err := held.Matches(rec); err != nil {
				return Outcome{}, err
			}
			if held.Answered() {
				return s.replay(held)
			}
			if !time.Now().Add(pause).Before(deadline) {
				return Outcome{}, stillRunning(s.opts.Wait)
			}
			t := time.NewTimer(pause)
			select {
			case <-ctx.Done():
				t.Stop()
				return Outcome{}, stillRunning(s.opts.Wait)
			case <-t.C:
			}
			pause = min(2*pause, 8*s.opts.Poll)
			held, err = s.store.Get(ctx, req.AccountID, req.Scope, req.Key)
			if domain.ErrorCode(err) == domain.CodeNotFound {
				break // released: reserve it
			}
			if err != nil {
				return Outcome{}, err
			}
			if held.Stale(s.clock.Now()) {
				break // abandoned: reserve it in its place
			}
		}
	}
}

// replay opens the kept answer of held.
func (s *Requests) replay(held idempotency.Record) (Outcome, error) {
	body, err := s.vault.Open(held.Response.Body)
	if err != nil {
		return Outcome{}, fmt.Errorf("open the kept answer of an idempotent request: %w", err)
	}
	resp := held.Response
	resp.Body = []byte(body)
	return Outcome{Replayed: true, Replay: resp}, nil
}

func stillRunning(waited time.Duration) error {
	return &domain.Error{Code: domain.CodeRateLimited, Field: idempotency.Field, RetryAfter: time.Second,
		Message: fmt.Sprintf("a request with this %s is still running after %s; try again", idempotency.Field, waited)}
}

// Finish ends the reservation of a request answered resp: the answer is kept for the key when
// idempotency.Keeps it, and the key is released otherwise (a failure of the service, a rate
// limit, or a refusal of the account's state: the same request may succeed later).
func (s *Requests) Finish(ctx context.Context, reservation idempotency.Record, resp idempotency.Response) error {
	ctx = context.WithoutCancel(ctx) // a caller gone after its answer still leaves the key answered
	if !idempotency.Keeps(resp.Status, resp.Code) {
		return s.store.Release(ctx, reservation)
	}
	sealed, err := s.vault.Seal(string(resp.Body))
	if err == nil {
		resp.Body = sealed
		err = s.store.Complete(ctx, reservation, resp)
	}
	if err != nil {
		// Never leave the key held: a retry runs again rather than wait for an answer that
		// will not come.
		if rerr := s.store.Release(ctx, reservation); rerr != nil {
			return fmt.Errorf("keep the answer of an idempotent request: %w; release its key: %w", err, rerr)
		}
		return fmt.Errorf("keep the answer of an idempotent request (key released): %w", err)
	}
	return nil
}

// Abandon releases the reservation of a request that ended without an answer (a panic).
func (s *Requests) Abandon(ctx context.Context, reservation idempotency.Record) error {
	return s.store.Release(context.WithoutCancel(ctx), reservation)
}

// Sweep deletes the keys that expired.
func (s *Requests) Sweep(ctx context.Context) (int, error) {
	return s.store.Sweep(ctx, idempotency.ExpiredBefore(s.clock.Now()))
}

// RunSweep sweeps at once and then every interval until ctx ends; report receives the outcome of
// each sweep (nil when it succeeded).
func (s *Requests) RunSweep(ctx context.Context, interval time.Duration, report func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.Sweep(ctx); ctx.Err() == nil {
			report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
