package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/vault"
	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/app/idempotent"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/idempotency"
	"github.com/svcagent/svc/ports/mock"
)

// idemEngine is s.idempotent between an authentication that lets acct_a in and handler, behind
// recovery, over st.
// okAnswer is the test handler's answer, whose body the middleware keeps.
type okAnswer struct {
	OK bool `json:"ok"`
}

func idemEngine(t *testing.T, st *mock.MockIdempotency, handler gin.HandlerFunc) *gin.Engine {
	t.Helper()
	s, _ := newTestServer(t)
	v, err := vault.New(bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	clock := mock.NewMockClock(gomock.NewController(t))
	clock.EXPECT().Now().Return(testNow).AnyTimes()
	s.uc.Idempotent = idempotent.New(st, clock, v)
	r := gin.New()
	r.Use(s.requestID, s.recovery)
	auth := func(c *gin.Context) {
		c.Set(ctxPrincipal, accounts.Principal{Account: account.Account{ID: "acct_a"}})
		c.Next()
	}
	r.POST("/v1/things/:id", auth, s.idempotent, handler)
	return r
}

func idemDo(r *gin.Engine, key, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/v1/things/t1", strings.NewReader(body))
	if key != "" {
		req.Header.Set(headerIdempotencyKey, key)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

// TestIdempotentWithoutKeyTouchesNothing: without the header the store is never called (the mock
// has no expectations) and the handler reads the body as sent.
func TestIdempotentWithoutKeyTouchesNothing(t *testing.T) {
	st := mock.NewMockIdempotency(gomock.NewController(t))
	r := idemEngine(t, st, func(c *gin.Context) {
		b, _ := io.ReadAll(c.Request.Body)
		c.Data(http.StatusCreated, "application/json", b)
	})
	w := idemDo(r, "", `{"a":1}`)
	if w.Code != http.StatusCreated || w.Body.String() != `{"a":1}` || w.Header().Get(headerIdempotentReplayed) != "" {
		t.Fatalf("without a key: %d %s %v", w.Code, w.Body, w.Header())
	}
}

// TestIdempotentKeepsOrReleases: the handler's answer is kept (sealed) when it is below 500 and
// not 429 nor a refusal of the account's state (interaction_limit_reached,
// agent_not_configured), and the key released otherwise, and on a panic; the handler reads the whole body.
func TestIdempotentKeepsOrReleases(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		code   domain.Code // answered with s.fail when set
		panics bool
		keep   bool
	}{
		{"402 interaction_limit_reached released", http.StatusPaymentRequired, domain.CodeInteractionLimitReached, false, false},
		{"402 plan_required kept", http.StatusPaymentRequired, domain.CodePlanRequired, false, true},
		{"409 agent_not_configured released", http.StatusConflict, domain.CodeAgentNotConfigured, false, false},
		{"201 kept", http.StatusCreated, "", false, true},
		{"400 kept", http.StatusBadRequest, "", false, true},
		{"429 released", http.StatusTooManyRequests, "", false, false},
		{"500 released", http.StatusInternalServerError, "", false, false},
		{"503 released", http.StatusServiceUnavailable, "", false, false},
		{"panic released", 0, "", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := mock.NewMockIdempotency(gomock.NewController(t))
			var reserved idempotency.Record
			st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
				func(_ context.Context, r idempotency.Record, _, _ any) (idempotency.Record, bool, error) {
					if r.AccountID != "acct_a" || r.Scope != idempotency.ScopeKey || r.Key != "k1" || r.Route != "POST /v1/things/t1" {
						t.Errorf("Reserve(%+v): want acct_a's key k1 of POST /v1/things/t1", r)
					}
					reserved = r
					return r, true, nil
				})
			if tt.keep {
				st.EXPECT().Complete(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
					func(_ context.Context, r idempotency.Record, resp idempotency.Response) error {
						v, _ := vault.New(bytes.Repeat([]byte{3}, 32))
						plain, err := v.Open(resp.Body)
						if r.Key != reserved.Key || resp.Status != tt.status || !strings.HasPrefix(resp.ContentType, "application/json") ||
							err != nil || plain != `{"ok":true}` || bytes.Equal(resp.Body, []byte(plain)) {
							t.Errorf("Complete(%+v, %d %q %q): want the answer, its body sealed", r, resp.Status, resp.ContentType, resp.Body)
						}
						return nil
					})
			} else {
				st.EXPECT().Release(gomock.Any(), gomock.Any()).Return(nil)
			}
			r := idemEngine(t, st, func(c *gin.Context) {
				b, _ := io.ReadAll(c.Request.Body)
				if string(b) != `{"a":1}` {
					t.Errorf("the handler read %q, want the body sent", b)
				}
				if tt.panics {
					panic("boom")
				}
				if tt.code != "" {
					c.Set(ctxErrorCode, tt.code) // as errorOf does
				}
				c.JSON(tt.status, okAnswer{OK: true})
			})
			w := idemDo(r, "k1", `{"a":1}`)
			if want := max(tt.status, http.StatusInternalServerError*btoi(tt.panics)); w.Code != want {
				t.Errorf("status %d, want %d", w.Code, want)
			}
			if got := w.Header().Get(headerIdempotencyKey); got != "k1" || w.Header().Get(headerIdempotentReplayed) != "" {
				t.Errorf("Idempotency-Key %q, Idempotent-Replayed %q on the first answer: want the key sent back (as Stripe's), not replayed", got, w.Header().Get(headerIdempotentReplayed))
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestIdempotentReplays: a kept answer is written back with Idempotent-Replayed and the key sent
// (Idempotency-Key, as Stripe's), and the handler does not run.
func TestIdempotentReplays(t *testing.T) {
	st := mock.NewMockIdempotency(gomock.NewController(t))
	v, _ := vault.New(bytes.Repeat([]byte{3}, 32))
	sealed, _ := v.Seal(`{"id":"t1"}`)
	first, _ := idempotency.New("acct_a", idempotency.ScopeKey, "k1", "POST /v1/things/t1", []byte(`{"a":1}`), testNow)
	first.Response = idempotency.Response{Status: http.StatusCreated, ContentType: "application/json; charset=utf-8", Body: sealed}
	st.EXPECT().Reserve(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(first, false, nil)
	r := idemEngine(t, st, func(c *gin.Context) { t.Error("the handler ran on a replay") })
	w := idemDo(r, "k1", `{"a":1}`)
	if w.Code != http.StatusCreated || w.Body.String() != `{"id":"t1"}` || w.Header().Get(headerIdempotentReplayed) != "true" ||
		w.Header().Get("Content-Type") != "application/json; charset=utf-8" || w.Header().Get(headerIdempotencyKey) != "k1" {
		t.Fatalf("replay: %d %s %v, want the kept answer with Idempotent-Replayed and the key sent back", w.Code, w.Body, w.Header())
	}
}

// TestIdempotentInvalidKey: an invalid key, or the header twice, is 400 naming it, before the
// store.
func TestIdempotentInvalidKey(t *testing.T) {
	st := mock.NewMockIdempotency(gomock.NewController(t))
	r := idemEngine(t, st, func(c *gin.Context) { t.Error("the handler ran with an invalid key") })
	for _, key := range []string{strings.Repeat("x", 256), "é"} {
		w := idemDo(r, key, `{}`)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"param":"Idempotency-Key"`) || w.Header().Get(headerIdempotencyKey) != "" {
			t.Errorf("key %q: %d %s %v, want 400 naming it, not sent back", key, w.Code, w.Body, w.Header())
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/things/t1", strings.NewReader(`{}`))
	req.Header.Add(headerIdempotencyKey, "a")
	req.Header.Add(headerIdempotencyKey, "b")
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"param":"Idempotency-Key"`) {
		t.Errorf("two keys: %d %s", w.Code, w.Body)
	}
}
