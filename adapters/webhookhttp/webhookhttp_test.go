package webhookhttp_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/adapters/webhookhttp"
	"github.com/svcagent/svc/domain/webhook"
)

// receiver is a loopback HTTP server that counts the requests and connections it gets.
type receiver struct {
	*httptest.Server
	requests atomic.Int64
	conns    atomic.Int64
}

func newReceiver(t *testing.T, h http.HandlerFunc) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		h(w, req)
	}))
	r.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			r.conns.Add(1)
		}
	}
	r.Start()
	t.Cleanup(r.Close)
	return r
}

func request(url string) webhook.Request {
	body := []byte(`{"id":"evt_1","type":"webhook.test","created_at":"2026-11-21T12:00:00.000Z","data":{}}`)
	sig := webhook.Sign("whsec_test", time.Now().Unix(), body)
	return webhook.Request{URL: url, Body: body, Headers: webhook.Headers("evt_1", "webhook.test", sig)}
}

func TestSendDelivers(t *testing.T) {
	var got struct {
		method, ua, ctype, event, delivery, sig string
		body                                    []byte
	}
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		got.method, got.ua, got.ctype = r.Method, r.UserAgent(), r.Header.Get("Content-Type")
		got.event, got.delivery, got.sig = r.Header.Get("SVC-Event"), r.Header.Get("SVC-Delivery"), r.Header.Get("SVC-Signature")
		got.body, _ = io.ReadAll(r.Body)
		w.WriteHeader(http.StatusNoContent)
	})
	s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true}, zaptest.NewLogger(t))
	req := request(rcv.URL + "/hook")
	a := s.Send(context.Background(), req)

	if !a.OK() || a.StatusCode != http.StatusNoContent || a.Error != "" {
		t.Fatalf("attempt %+v, want a 204 success", a)
	}
	if a.Duration <= 0 || a.At.IsZero() {
		t.Errorf("attempt has no duration or time: %+v", a)
	}
	if got.method != http.MethodPost || got.ua != "svc-webhooks/1.0" || got.ctype != "application/json" ||
		got.event != "webhook.test" || got.delivery != "evt_1" || string(got.body) != string(req.Body) {
		t.Errorf("receiver got %+v", got)
	}
	if err := webhook.Verify("whsec_test", got.sig, got.body, time.Now(), 0); err != nil {
		t.Errorf("the receiver cannot verify the signature: %v", err)
	}
}

func TestSendFailures(t *testing.T) {
	target := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {})
	tests := []struct {
		name       string
		handler    http.HandlerFunc
		wantStatus int
		wantError  string
	}{
		{"500", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
		}, 500, webhook.FailHTTPStatus},
		{"404 with a body", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, strings.Repeat("not here ", 1<<14), http.StatusNotFound)
		}, 404, webhook.FailHTTPStatus},
		{"302 not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/elsewhere", http.StatusFound)
		}, 302, webhook.FailRedirect},
		{"308 not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/elsewhere", http.StatusPermanentRedirect)
		}, 308, webhook.FailRedirect},
		{"202 is a success", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
		}, 202, ""},
	}
	s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true}, zaptest.NewLogger(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rcv := newReceiver(t, tt.handler)
			a := s.Send(context.Background(), request(rcv.URL+"/hook"))
			if a.StatusCode != tt.wantStatus || a.Error != tt.wantError || a.OK() != (tt.wantError == "") {
				t.Errorf("attempt %+v, want status %d, error %q", a, tt.wantStatus, tt.wantError)
			}
			if n := rcv.requests.Load(); n != 1 {
				t.Errorf("receiver got %d requests, want 1", n)
			}
		})
	}
	if n := target.requests.Load(); n != 0 {
		t.Errorf("the redirect target got %d requests, want none", n)
	}
}

func TestSendTimeout(t *testing.T) {
	tests := []struct {
		name    string
		handler func(release <-chan struct{}) http.HandlerFunc
	}{
		{"no answer", func(release <-chan struct{}) http.HandlerFunc {
			return func(http.ResponseWriter, *http.Request) { <-release }
		}},
		{"stalled body", func(release <-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, "partial")
				w.(http.Flusher).Flush()
				<-release
			}
		}},
	}
	const timeout = 300 * time.Millisecond
	s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true, Timeout: timeout}, zaptest.NewLogger(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			rcv := newReceiver(t, tt.handler(release))
			t.Cleanup(func() { close(release) }) // before the receiver closes
			a := s.Send(context.Background(), request(rcv.URL))
			if a.OK() || a.Error != webhook.FailTimeout {
				t.Errorf("attempt %+v, want a timeout", a)
			}
			if a.Duration < timeout || a.Duration > timeout+time.Second {
				t.Errorf("attempt took %v, want about %v", a.Duration, timeout)
			}
		})
	}
}

func TestSendRefusesPrivate(t *testing.T) {
	canary := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {})
	_, port, _ := net.SplitHostPort(canary.Listener.Addr().String())
	s := webhookhttp.New(webhookhttp.Options{}, zaptest.NewLogger(t))
	for _, url := range []string{
		canary.URL + "/hook",
		"http://localhost:" + port + "/hook",
		"http://2130706433:" + port + "/hook",
		"http://[::ffff:127.0.0.1]:" + port + "/hook",
	} {
		a := s.Send(context.Background(), request(url))
		if a.Error != webhook.FailBlocked || a.StatusCode != 0 {
			t.Errorf("Send(%s) = %+v, want refused", url, a)
		}
	}
	if n := canary.conns.Load(); n != 0 {
		t.Errorf("the canary got %d connections, want none", n)
	}
}

func TestSendTransportErrorHidesURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now

	s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true}, zaptest.NewLogger(t))
	a := s.Send(context.Background(), request("http://"+addr+"/hook?token=s3cr3t"))
	if a.OK() || a.Error != webhook.FailConnectRefused || a.StatusCode != 0 {
		t.Fatalf("attempt %+v, want a transport failure: %s", a, webhook.FailConnectRefused)
	}

	for _, bad := range []string{"ftp://example.com/hook", "://nope"} {
		if a := s.Send(context.Background(), request(bad)); a.OK() || a.Error != webhook.FailInvalidURL {
			t.Errorf("Send(%q) = %+v, want a failure: %s", bad, a, webhook.FailInvalidURL)
		}
	}
}

func TestSendCanceled(t *testing.T) {
	release := make(chan struct{})
	rcv := newReceiver(t, func(http.ResponseWriter, *http.Request) { <-release })
	t.Cleanup(func() { close(release) })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true}, zaptest.NewLogger(t))
	if a := s.Send(ctx, request(rcv.URL)); a.OK() || a.Error != webhook.FailCanceled {
		t.Errorf("attempt %+v, want canceled", a)
	}
}

// TestSendFailureCategories checks that a failed attempt reports a stable category, never the
// transport's words (which named the service's resolver: "lookup x on 127.0.0.53:53"), and that
// the log keeps the cause for the operator.
func TestSendFailureCategories(t *testing.T) {
	plain := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {})
	tlsRcv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(tlsRcv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	_ = ln.Close()
	tests := []struct {
		name, url, want string
	}{
		{"unknown host", "http://no-such-host.invalid/hook", webhook.FailDNS},
		{"nothing listening", "http://" + closed + "/hook", webhook.FailConnectRefused},
		{"certificate of an unknown authority", tlsRcv.URL + "/hook", webhook.FailTLS},
		{"no TLS spoken", "https://" + plain.Listener.Addr().String() + "/hook", webhook.FailTLS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(zap.DebugLevel)
			s := webhookhttp.New(webhookhttp.Options{AllowPrivate: true, Timeout: 5 * time.Second}, zap.New(core))
			a := s.Send(context.Background(), request(tt.url))
			if a.Error != tt.want || a.StatusCode != 0 || a.OK() {
				t.Fatalf("attempt %+v, want error %q", a, tt.want)
			}
			entries := logs.FilterMessage("webhook attempt failed").All()
			if len(entries) != 1 || entries[0].ContextMap()["cause"] == "" || entries[0].ContextMap()["error"] != tt.want {
				t.Errorf("log %v, want one entry with the category and the cause", entries)
			}
			for _, e := range entries {
				if c, _ := e.ContextMap()["cause"].(string); strings.Contains(c, "/hook") {
					t.Errorf("the logged cause shows the URL: %q", c)
				}
			}
		})
	}
}
