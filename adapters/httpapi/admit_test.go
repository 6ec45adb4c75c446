package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/ports"
)

// chatWork makes the key's read of POST /v1/chat (the first work a chat message does once
// admitted) wait until release is closed, and counts the reads at once: in is how many are
// reading now, most the most there were, calls all of them. The key's account is inactive: each
// request that gets through answers 403.
type chatWork struct {
	in, most, calls atomic.Int64
	release         chan struct{}
}

func (w *chatWork) expect(d deps) {
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).DoAndReturn(func(context.Context, string, ledger.Period) (ports.Credential, error) {
		w.calls.Add(1)
		n := w.in.Add(1)
		for m := w.most.Load(); n > m && !w.most.CompareAndSwap(m, n); m = w.most.Load() {
		}
		<-w.release
		w.in.Add(-1)
		return ports.Credential{Key: key, Account: account.Account{ID: "acct_1", Status: account.Inactive}}, nil
	}).AnyTimes()
}

func chatRequest(ctx context.Context) *http.Request {
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/v1/chat", strings.NewReader(`{"message":"Hi"}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	return req
}

// TestChatWorkIsBounded sends many chat messages at once: no more than Options.ChatWork of them
// do their work at a time, and every one is answered.
func TestChatWorkIsBounded(t *testing.T) {
	const places, requests = 3, 40
	s, d := newTestServer(t, func(o *Options) { o.ChatWork = places })
	w := &chatWork{release: make(chan struct{})}
	w.expect(d)
	var wg sync.WaitGroup
	codes := make([]int, requests)
	for i := range requests {
		wg.Go(func() {
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, chatRequest(context.Background()))
			codes[i] = rec.Code
		})
	}
	// Let every request reach the work or its wait, then let them through one read at a time.
	deadline := time.Now().Add(5 * time.Second)
	for w.in.Load() < places && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if n := w.in.Load(); n != places {
		t.Fatalf("%d messages worked on at once, want %d (the bound)", n, places)
	}
	close(w.release)
	wg.Wait()
	if m := w.most.Load(); m > places {
		t.Fatalf("at most %d messages worked on at once, want no more than %d", m, places)
	}
	if c := w.calls.Load(); c != requests {
		t.Fatalf("%d messages worked on, want %d", c, requests)
	}
	for i, code := range codes {
		if code != http.StatusForbidden {
			t.Fatalf("request %d: %d, want 403", i, code)
		}
	}
}

// TestChatWaiterLeaves: a message waiting for its turn whose request ends (the client left) is
// answered at once, does none of the work, and frees its turn for the next.
func TestChatWaiterLeaves(t *testing.T) {
	s, d := newTestServer(t, func(o *Options) { o.ChatWork = 1 })
	w := &chatWork{release: make(chan struct{})}
	w.expect(d)
	held := make(chan int)
	go func() {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, chatRequest(context.Background()))
		held <- rec.Code
	}()
	deadline := time.Now().Add(5 * time.Second)
	for w.in.Load() < 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, chatRequest(ctx))
		left <- rec
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case rec := <-left:
		if rec.Code != http.StatusServiceUnavailable || envelope(t, rec).Code != domain.CodeServiceUnavailable {
			t.Fatalf("the waiter that left: %d %s, want 503 service_unavailable", rec.Code, rec.Body)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the waiter whose request ended is still waiting")
	}
	if c := w.calls.Load(); c != 1 {
		t.Fatalf("%d messages worked on, want 1: the waiter that left did work", c)
	}
	close(w.release)
	if code := <-held; code != http.StatusForbidden {
		t.Fatalf("the message worked on: %d, want 403", code)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, chatRequest(context.Background()))
	if rec.Code != http.StatusForbidden || w.calls.Load() != 2 {
		t.Fatalf("the next message: %d after %d reads, want 403 after 2: its turn was not freed", rec.Code, w.calls.Load())
	}
}
