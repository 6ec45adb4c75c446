package portstest

import (
	"sync"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/ports"
)

// IdempotencyStores are the store port of the keys of idempotent requests, over the same
// database as Stores.
type IdempotencyStores struct {
	Stores
	Idempotency ports.Idempotency
}

// RunIdempotency runs the conformance suite of ports.Idempotency. newStores is called once per
// subtest and must return stores over an empty database of their own.
func RunIdempotency(t *testing.T, newStores func(t *testing.T) IdempotencyStores) {
	tests := []struct {
		name string
		run  func(t *testing.T, s IdempotencyStores)
	}{
		{"ReserveCompleteGet", testIdemReserveComplete},
		{"ScopedByAccountAndScope", testIdemScoped},
		{"Release", testIdemRelease},
		{"StaleReplaced", testIdemStale},
		{"Sweep", testIdemSweep},
		{"ConcurrentReserve", testIdemConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStores(t)
			createAccounts(t, s.Stores, "acct_a", "acct_b")
			tt.run(t, s)
		})
	}
}

func idemRecord(t *testing.T, accountID, scope, key, body string, at time.Time) idempotency.Record {
	t.Helper()
	r, err := idempotency.New(accountID, scope, key, "POST /v1/conversions", []byte(body), at)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// reserve reserves r as of now and returns what Reserve returned.
func reserve(t *testing.T, s IdempotencyStores, r idempotency.Record, now time.Time) (idempotency.Record, bool) {
	t.Helper()
	got, ok, err := s.Idempotency.Reserve(t.Context(), r, idempotency.ExpiredBefore(now), idempotency.AbandonedBefore(now))
	if err != nil {
		t.Fatalf("Reserve(%s): %v", r.Key, err)
	}
	return got, ok
}

func testIdemReserveComplete(t *testing.T, s IdempotencyStores) {
	ctx := t.Context()
	r := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{"kind":"sale"}`, t0)
	got, ok := reserve(t, s, r, t0)
	if !ok {
		t.Fatal("Reserve of a new key: reserved false")
	}
	equal(t, "Reserve's record", got, r)
	// A second reservation finds the first, still running.
	again := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{"kind":"lead"}`, t0.Add(time.Second))
	got, ok = reserve(t, s, again, t0.Add(time.Second))
	if ok {
		t.Fatal("Reserve of a held key: reserved true")
	}
	equal(t, "Reserve of a held key", got, r)

	resp := idempotency.Response{Status: 201, ContentType: "application/json; charset=utf-8", Body: []byte(`{"object":"conversion"}`)}
	if err := s.Idempotency.Complete(ctx, r, resp); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := r
	want.Response = resp
	stored, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "k1")
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	equal(t, "Get after Complete", stored, want)
	got, ok = reserve(t, s, again, t0.Add(time.Hour))
	if ok {
		t.Fatal("Reserve of an answered key: reserved true")
	}
	equal(t, "Reserve of an answered key", got, want)
	// An answer is stored once: a second Complete finds no reservation.
	if err := s.Idempotency.Complete(ctx, r, idempotency.Response{Status: 200}); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("a second Complete = %v, want not_found", err)
	}
	// An empty body is kept as empty.
	e := idemRecord(t, "acct_a", idempotency.ScopeKey, "empty", ``, t0)
	reserve(t, s, e, t0)
	if err := s.Idempotency.Complete(ctx, e, idempotency.Response{Status: 204}); err != nil {
		t.Fatalf("Complete(no body): %v", err)
	}
	if got, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "empty"); err != nil || got.Response.Status != 204 || len(got.Response.Body) != 0 {
		t.Fatalf("Get(empty) = %+v, %v", got, err)
	}
	if _, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "none"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Get of no key = %v, want not_found", err)
	}
}

func testIdemScoped(t *testing.T, s IdempotencyStores) {
	ctx := t.Context()
	a := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{}`, t0)
	reserve(t, s, a, t0)
	if err := s.Idempotency.Complete(ctx, a, idempotency.Response{Status: 200, Body: []byte("a")}); err != nil {
		t.Fatal(err)
	}
	// The same key of another account, and of a client session of the same account, are other keys.
	for _, r := range []idempotency.Record{
		idemRecord(t, "acct_b", idempotency.ScopeKey, "k1", `{}`, t0),
		idemRecord(t, "acct_a", idempotency.ClientScope("cs_1"), "k1", `{}`, t0),
		idemRecord(t, "acct_a", idempotency.ClientScope("cs_2"), "k1", `{}`, t0),
	} {
		if _, ok := reserve(t, s, r, t0); !ok {
			t.Fatalf("Reserve(%s, %s) found another caller's key", r.AccountID, r.Scope)
		}
	}
	if _, err := s.Idempotency.Get(ctx, "acct_b", idempotency.ClientScope("cs_1"), "k1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Get of another account's scope = %v, want not_found", err)
	}
	got, err := s.Idempotency.Get(ctx, "acct_b", idempotency.ScopeKey, "k1")
	if err != nil || got.Answered() {
		t.Fatalf("acct_b's key = %+v, %v: want its own reservation, unanswered", got, err)
	}
}

func testIdemRelease(t *testing.T, s IdempotencyStores) {
	ctx := t.Context()
	r := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{}`, t0)
	reserve(t, s, r, t0)
	if err := s.Idempotency.Release(ctx, r); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if _, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "k1"); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Get after Release = %v, want not_found", err)
	}
	if err := s.Idempotency.Release(ctx, r); err != nil {
		t.Fatalf("Release of a released key: %v", err)
	}
	if _, ok := reserve(t, s, r, t0.Add(time.Second)); !ok {
		t.Fatal("Reserve after Release: reserved false")
	}
	// An answered key is not released, nor is a newer reservation of the same key.
	if err := s.Idempotency.Complete(ctx, r, idempotency.Response{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if err := s.Idempotency.Release(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "k1"); err != nil || got.Response.Status != 200 {
		t.Fatalf("an answered key after Release = %+v, %v: want it kept", got, err)
	}
	old := idemRecord(t, "acct_a", idempotency.ScopeKey, "k2", `{}`, t0)
	reserve(t, s, old, t0)
	now := t0.Add(idempotency.Lease + time.Second)
	newer := idemRecord(t, "acct_a", idempotency.ScopeKey, "k2", `{}`, now)
	if _, ok := reserve(t, s, newer, now); !ok {
		t.Fatal("Reserve over an abandoned reservation: reserved false")
	}
	if err := s.Idempotency.Release(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Idempotency.Complete(ctx, old, idempotency.Response{Status: 200}); domain.ErrorCode(err) != domain.CodeNotFound {
		t.Fatalf("Complete of a replaced reservation = %v, want not_found", err)
	}
	if got, err := s.Idempotency.Get(ctx, "acct_a", idempotency.ScopeKey, "k2"); err != nil || !got.CreatedAt.Equal(newer.CreatedAt) || got.Answered() {
		t.Fatalf("the newer reservation = %+v, %v: want it untouched by the old one's Release and Complete", got, err)
	}
}

func testIdemStale(t *testing.T, s IdempotencyStores) {
	ctx := t.Context()
	// An answered key holds for a day, then is free.
	r := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{"a":1}`, t0)
	reserve(t, s, r, t0)
	if err := s.Idempotency.Complete(ctx, r, idempotency.Response{Status: 201, Body: []byte("first")}); err != nil {
		t.Fatal(err)
	}
	before := t0.Add(idempotency.Lifetime - time.Second)
	if _, ok := reserve(t, s, idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{"a":2}`, before), before); ok {
		t.Fatal("Reserve just before a day: reserved true")
	}
	after := t0.Add(idempotency.Lifetime)
	fresh := idemRecord(t, "acct_a", idempotency.ScopeKey, "k1", `{"a":2}`, after)
	got, ok := reserve(t, s, fresh, after)
	if !ok {
		t.Fatal("Reserve a day on: reserved false")
	}
	equal(t, "the fresh reservation", got, fresh)
	// A reservation without an answer holds for the lease.
	run := idemRecord(t, "acct_a", idempotency.ScopeKey, "k2", `{}`, t0)
	reserve(t, s, run, t0)
	if _, ok := reserve(t, s, run, t0.Add(idempotency.Lease-time.Second)); ok {
		t.Fatal("Reserve of a running key within the lease: reserved true")
	}
	if _, ok := reserve(t, s, run, t0.Add(idempotency.Lease)); !ok {
		t.Fatal("Reserve of a running key past the lease: reserved false")
	}
}

func testIdemSweep(t *testing.T, s IdempotencyStores) {
	ctx := t.Context()
	for i, at := range []time.Time{t0, t0.Add(time.Hour), t0.Add(idempotency.Lifetime + time.Hour)} {
		r := idemRecord(t, "acct_a", idempotency.ScopeKey, string(rune('a'+i)), `{}`, at)
		reserve(t, s, r, at)
		if i == 0 {
			if err := s.Idempotency.Complete(ctx, r, idempotency.Response{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
	}
	reserve(t, s, idemRecord(t, "acct_b", idempotency.ScopeKey, "a", `{}`, t0), t0)
	n, err := s.Idempotency.Sweep(ctx, idempotency.ExpiredBefore(t0.Add(idempotency.Lifetime+time.Minute)))
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	if n != 2 {
		t.Fatalf("Sweep deleted %d, want 2 (acct_a's and acct_b's key of t0)", n)
	}
	for _, k := range []struct {
		account, key string
		kept         bool
	}{{"acct_a", "a", false}, {"acct_b", "a", false}, {"acct_a", "b", true}, {"acct_a", "c", true}} {
		_, err := s.Idempotency.Get(ctx, k.account, idempotency.ScopeKey, k.key)
		if kept := err == nil; kept != k.kept {
			t.Errorf("%s/%s after Sweep: kept %v (%v), want %v", k.account, k.key, kept, err, k.kept)
		}
	}
}

// testIdemConcurrent: many requests with one key at once, as clients retrying in parallel send
// them; exactly one reserves, and every other finds its reservation.
func testIdemConcurrent(t *testing.T, s IdempotencyStores) {
	const n = 24
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		reserved int
		errs     []error
		found    []idempotency.Record
	)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := idemRecord(t, "acct_a", idempotency.ScopeKey, "same", `{"n":1}`, t0.Add(time.Duration(i)*time.Millisecond))
			got, ok, err := s.Idempotency.Reserve(t.Context(), r, idempotency.ExpiredBefore(t0), idempotency.AbandonedBefore(t0))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, err)
			case ok:
				reserved++
				found = append(found, got)
			default:
				found = append(found, got)
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("concurrent Reserve: %d errors, first %v", len(errs), errs[0])
	}
	if reserved != 1 {
		t.Fatalf("concurrent Reserve: %d reserved, want exactly 1", reserved)
	}
	for _, r := range found {
		if !r.CreatedAt.Equal(found[0].CreatedAt) {
			t.Fatalf("concurrent Reserve saw two reservations: %v and %v", r.CreatedAt, found[0].CreatedAt)
		}
	}
}
