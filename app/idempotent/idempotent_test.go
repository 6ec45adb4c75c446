package idempotent_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

var req = idempotent.Request{AccountID: "acct_a", Scope: idempotency.ScopeKey, Key: "k1", Route: "POST /v1/conversions",
	Body: []byte(`{"kind":"sale"}`)}

func reservation(t *testing.T) idempotency.Record {
	t.Helper()
	r, err := idempotency.New(req.AccountID, req.Scope, req.Key, req.Route, req.Body, now)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func testVault(t *testing.T) *vault.AESGCM {
	t.Helper()
	v, err := vault.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// answered is r answered status and body, as the store keeps it: the body sealed.
func answered(t *testing.T, r idempotency.Record, status int, body string) idempotency.Record {
	t.Helper()
	sealed, err := testVault(t).Seal(body)
	if err != nil {
		t.Fatal(err)
	}
	r.Response = idempotency.Response{Status: status, ContentType: "application/json", Body: sealed}
	return r
}

func TestBeginReserves(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	r := reservation(t)
	st.EXPECT().Reserve(gomock.Any(), r, idempotency.ExpiredBefore(now), idempotency.AbandonedBefore(now)).Return(r, true, nil)
	out, err := idempotent.New(st, fixedClock{now}, testVault(t)).Begin(t.Context(), req)
	if err != nil || out.Replayed || !reflect.DeepEqual(out.Reservation, r) {
		t.Fatalf("Begin = %+v, %v; want the reservation", out, err)
	}
}

func TestBeginInvalidKeyTouchesNoStore(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl) // no call expected
	bad := req
	bad.Key = "é"
	_, err := idempotent.New(st, fixedClock{now}, testVault(t)).Begin(t.Context(), bad)
	if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != "Idempotency-Key" {
		t.Fatalf("Begin(invalid key) = %v, want invalid_request naming Idempotency-Key", err)
	}
}

func TestBeginReplays(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	first := answered(t, reservation(t), 201, `{"id":"cv_1"}`)
	first.CreatedAt = now.Add(-time.Hour)
	st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(first, false, nil)
	out, err := idempotent.New(st, fixedClock{now}, testVault(t)).Begin(t.Context(), req)
	if err != nil || !out.Replayed || out.Replay.Status != 201 || string(out.Replay.Body) != `{"id":"cv_1"}` {
		t.Fatalf("Begin = %+v, %v; want the kept 201 replayed", out, err)
	}
}

func TestBeginRefusesOtherParameters(t *testing.T) {
	for _, tt := range []struct {
		name        string
		route, body string
	}{
		{"another body", req.Route, `{"kind":"lead"}`},
		{"another route", "POST /v1/chat", string(req.Body)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctrl := gomock.NewController(t)
			st := mock.NewMockIdempotency(ctrl)
			first, _ := idempotency.New(req.AccountID, req.Scope, req.Key, tt.route, []byte(tt.body), now)
			st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(answered(t, first, 200, `{}`), false, nil)
			_, err := idempotent.New(st, fixedClock{now}, testVault(t)).Begin(t.Context(), req)
			if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeInvalidRequest || e.Field != idempotency.Field {
				t.Fatalf("Begin = %v, want invalid_request naming the key", err)
			}
		})
	}
}

func TestBeginWaitsForTheRunningRequest(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	running := reservation(t)
	gomock.InOrder(
		st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(running, false, nil),
		st.EXPECT().Get(gomock.Any(), "acct_a", idempotency.ScopeKey, "k1").Return(running, nil).Times(2),
		st.EXPECT().Get(gomock.Any(), "acct_a", idempotency.ScopeKey, "k1").Return(answered(t, running, 200, `{"reply":"hi"}`), nil),
	)
	svc := idempotent.NewWith(st, fixedClock{now}, testVault(t), idempotent.Options{Wait: time.Second, Poll: time.Millisecond})
	out, err := svc.Begin(t.Context(), req)
	if err != nil || !out.Replayed || string(out.Replay.Body) != `{"reply":"hi"}` {
		t.Fatalf("Begin = %+v, %v; want the running request's answer", out, err)
	}
}

func TestBeginRunsWhenTheHolderReleased(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	running := reservation(t)
	gomock.InOrder(
		st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(running, false, nil),
		st.EXPECT().Get(gomock.Any(), "acct_a", idempotency.ScopeKey, "k1").Return(idempotency.Record{}, domain.NotFound("idempotency key")),
		st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
			func(_ context.Context, r idempotency.Record, _, _ time.Time) (idempotency.Record, bool, error) {
				return r, true, nil
			}),
	)
	svc := idempotent.NewWith(st, fixedClock{now}, testVault(t), idempotent.Options{Wait: time.Second, Poll: time.Millisecond})
	out, err := svc.Begin(t.Context(), req)
	if err != nil || out.Replayed || out.Reservation.Key != "k1" {
		t.Fatalf("Begin = %+v, %v; want a reservation of its own", out, err)
	}
}

func TestBeginWaitIsBounded(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	running := reservation(t)
	st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(running, false, nil)
	st.EXPECT().Get(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(running, nil).AnyTimes()
	svc := idempotent.NewWith(st, fixedClock{now}, testVault(t), idempotent.Options{Wait: 30 * time.Millisecond, Poll: time.Millisecond})
	start := time.Now()
	_, err := svc.Begin(t.Context(), req)
	if e, ok := domain.AsError(err); !ok || e.Code != domain.CodeRateLimited || e.RetryAfter <= 0 {
		t.Fatalf("Begin past the wait = %v, want rate_limited with a retry_after", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Begin waited %v, want about 30ms", d)
	}
	// The request's context ends the wait sooner.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(running, false, nil)
	svc = idempotent.NewWith(st, fixedClock{now}, testVault(t), idempotent.Options{Wait: time.Minute, Poll: time.Millisecond})
	start = time.Now()
	if _, err := svc.Begin(ctx, req); domain.ErrorCode(err) != domain.CodeRateLimited {
		t.Fatalf("Begin with its context ended = %v, want rate_limited", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Begin waited %v past its context", d)
	}
}

func TestBeginStoreFailure(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	boom := errors.New("boom")
	st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(idempotency.Record{}, false, boom)
	if _, err := idempotent.New(st, fixedClock{now}, testVault(t)).Begin(t.Context(), req); !errors.Is(err, boom) {
		t.Fatalf("Begin = %v, want the store's error (the request does not run)", err)
	}
}

func TestFinish(t *testing.T) {
	for _, tt := range []struct {
		status int
		code   domain.Code
		keep   bool
	}{{200, "", true}, {201, "", true}, {202, "", true}, {400, domain.CodeInvalidRequest, true}, {402, domain.CodePlanRequired, true},
		{409, "", true}, {402, domain.CodeInteractionLimitReached, false}, {409, domain.CodeAgentNotConfigured, false},
		{429, domain.CodeRateLimited, false}, {500, "", false}, {503, "", false}} {
		ctrl := gomock.NewController(t)
		st := mock.NewMockIdempotency(ctrl)
		r := reservation(t)
		resp := idempotency.Response{Status: tt.status, ContentType: "application/json", Body: []byte(`{}`), Code: tt.code}
		if tt.keep {
			st.EXPECT().Complete(gomock.Any(), r, gomock.Any()).DoAndReturn(
				func(_ context.Context, _ idempotency.Record, kept idempotency.Response) error {
					body, err := testVault(t).Open(kept.Body)
					if err != nil || body != `{}` || kept.Status != tt.status || kept.ContentType != resp.ContentType {
						t.Errorf("Complete(%d) kept %+v (%q, %v): want the answer, its body sealed", tt.status, kept, body, err)
					}
					if bytes.Equal(kept.Body, resp.Body) {
						t.Errorf("Complete(%d) kept the body in the clear", tt.status)
					}
					return nil
				})
		} else {
			st.EXPECT().Release(gomock.Any(), r).Return(nil)
		}
		if err := idempotent.New(st, fixedClock{now}, testVault(t)).Finish(t.Context(), r, resp); err != nil {
			t.Errorf("Finish(%d) = %v", tt.status, err)
		}
		ctrl.Finish()
	}
}

func TestFinishReleasesWhenTheAnswerCannotBeKept(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	r := reservation(t)
	boom := errors.New("boom")
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // the caller is gone: the key is still dealt with
	gomock.InOrder(
		st.EXPECT().Complete(gomock.Any(), r, gomock.Any()).DoAndReturn(
			func(ctx context.Context, _ idempotency.Record, _ idempotency.Response) error {
				if ctx.Err() != nil {
					t.Error("Complete got a canceled context")
				}
				return boom
			}),
		st.EXPECT().Release(gomock.Any(), r).Return(nil),
	)
	if err := idempotent.New(st, fixedClock{now}, testVault(t)).Finish(ctx, r, idempotency.Response{Status: 200}); !errors.Is(err, boom) {
		t.Fatalf("Finish = %v, want the Complete's error", err)
	}
}

func TestSweep(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	st.EXPECT().Sweep(gomock.Any(), now.Add(-24*time.Hour)).Return(3, nil)
	if n, err := idempotent.New(st, fixedClock{now}, testVault(t)).Sweep(t.Context()); n != 3 || err != nil {
		t.Fatalf("Sweep = %d, %v", n, err)
	}
}

// TestConcurrentOverTheStore: requests with one key at once over the real store: one runs, every
// other waits and replays its answer.
func TestConcurrentOverTheStore(t *testing.T) {
	db := storetest.SQLite(t)
	storetest.Accounts(t, db, storetest.Account("acct_a", now))
	svc := idempotent.NewWith(store.NewIdempotency(db), fixedClock{now}, testVault(t), idempotent.Options{Wait: 5 * time.Second, Poll: time.Millisecond})
	var ran atomic.Int32
	var wg sync.WaitGroup
	bodies := make([]string, 16)
	errs := make([]error, 16)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := svc.Begin(t.Context(), req)
			if err != nil {
				errs[i] = err
				return
			}
			if out.Replayed {
				bodies[i] = string(out.Replay.Body)
				return
			}
			ran.Add(1)
			time.Sleep(20 * time.Millisecond) // the handler
			errs[i] = svc.Finish(t.Context(), out.Reservation, idempotency.Response{Status: 201, Body: []byte(`{"id":"cv_1"}`)})
			bodies[i] = `{"id":"cv_1"}`
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if n := ran.Load(); n != 1 {
		t.Fatalf("%d requests ran, want 1", n)
	}
	for i, b := range bodies {
		if b != `{"id":"cv_1"}` {
			t.Fatalf("request %d answered %q", i, b)
		}
	}
}

// TestRunSweep: the sweep runs at once, then every interval, and stops with its context;
// each sweep's outcome goes to report.
func TestRunSweep(t *testing.T) {
	ctrl := gomock.NewController(t)
	st := mock.NewMockIdempotency(ctrl)
	ctx, cancel := context.WithCancel(t.Context())
	var calls atomic.Int32
	boom := errors.New("boom")
	st.EXPECT().Sweep(gomock.Any(), now.Add(-idempotency.Lifetime)).DoAndReturn(func(context.Context, time.Time) (int, error) {
		if calls.Add(1) == 3 {
			cancel()
		}
		return 0, boom
	}).MinTimes(3)
	var errs atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		idempotent.New(st, fixedClock{now}, testVault(t)).RunSweep(ctx, time.Millisecond, func(err error) {
			if errors.Is(err, boom) {
				errs.Add(1)
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunSweep did not stop with its context")
	}
	if errs.Load() < 2 {
		t.Errorf("report got %d failures, want the sweeps' before the context ended", errs.Load())
	}
}
