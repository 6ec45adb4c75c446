package webpush_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	webpushgo "github.com/SherClockHolmes/webpush-go"

	"github.com/svcagent/svc/adapters/webpush"
	"github.com/svcagent/svc/domain/push"
)

func subscription(t *testing.T, endpoint string) push.Subscription {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding.EncodeToString
	return push.Subscription{ID: "push_1", AccountID: "acct_a", Endpoint: endpoint, P256dh: b64(k.PublicKey().Bytes()), Auth: b64(make([]byte, 16))}
}

func TestSend(t *testing.T) {
	private, public, err := webpushgo.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	keys := push.Keys{Public: public, Private: private, Subject: "mailto:ops@example.com"}
	var got atomic.Pointer[http.Request]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r)
		w.WriteHeader(http.StatusGone)
	}))
	defer srv.Close()
	tests := []struct {
		name         string
		allowPrivate bool
		wantStatus   int
	}{
		{"a loopback push service when private targets are allowed", true, http.StatusGone},
		{"refused at dial time otherwise", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got.Store(nil)
			status, err := webpush.New(webpush.Options{Keys: keys, AllowPrivate: tt.allowPrivate}).Send(t.Context(), subscription(t, srv.URL+"/p/secret-token"), []byte(`{"title":"t"}`))
			if status != tt.wantStatus || (tt.wantStatus == 0) != (err != nil) {
				t.Fatalf("Send = %d, %v; want %d", status, err, tt.wantStatus)
			}
			if err != nil && strings.Contains(err.Error(), "secret-token") {
				t.Errorf("the error shows the endpoint: %v", err)
			}
			r := got.Load()
			if tt.wantStatus == 0 {
				if r != nil {
					t.Error("the refused push reached the server")
				}
				return
			}
			if r == nil || r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") != "86400" || r.Header.Get("Urgency") != "normal" ||
				!strings.HasPrefix(r.Header.Get("Authorization"), "vapid t=") || !strings.HasSuffix(r.Header.Get("Authorization"), "k="+public) {
				t.Errorf("the push service got %v", r.Header)
			}
		})
	}
}
