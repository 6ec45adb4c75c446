package whatsapp_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/messaging/whatsapp"
	"github.com/svcagent/svc/domain/messaging"
)

func TestSend(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		retryAfter string
		answer     string
		wantErr    bool
		retryable  bool
		wait       time.Duration
		reason     string
	}{
		{name: "sent", status: 200, answer: `{"messaging_product":"whatsapp","messages":[{"id":"wamid.x"}]}`},
		{name: "throttled", status: 429, retryAfter: "3", answer: `{"error":{"message":"Rate limit hit","code":130429}}`,
			wantErr: true, retryable: true, wait: 3 * time.Second, reason: "Rate limit hit"},
		{name: "bad token", status: 401, answer: `{"error":{"message":"Invalid OAuth access token","code":190}}`, wantErr: true, reason: "Invalid OAuth access token"},
		{name: "server error", status: 500, answer: `oops`, wantErr: true, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var path, auth string
			var body map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				path, auth = r.URL.Path, r.Header.Get("Authorization")
				raw, _ := io.ReadAll(r.Body)
				_ = json.Unmarshal(raw, &body)
				if tt.retryAfter != "" {
					w.Header().Set("Retry-After", tt.retryAfter)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.answer)
			}))
			defer srv.Close()
			c := whatsapp.New(whatsapp.Options{BaseURL: srv.URL + "/v21.0/", AllowPrivate: true}, zap.NewNop())
			long := strings.Repeat("é", whatsapp.MaxText+10)
			err := c.Send(t.Context(), messaging.Connection{AccountID: "acct_1", PhoneNumberID: "1055"}, messaging.Secrets{AccessToken: "tok"}, "1555", long)
			text, _ := body["text"].(map[string]any)
			sent, _ := text["body"].(string)
			if path != "/v21.0/1055/messages" || auth != "Bearer tok" || body["to"] != "1555" || body["type"] != "text" ||
				body["messaging_product"] != "whatsapp" || utf8.RuneCountInString(sent) != whatsapp.MaxText {
				t.Errorf("request %s %q %v (text of %d characters)", path, auth, body["to"], utf8.RuneCountInString(sent))
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("Send: %v", err)
			}
			if err == nil {
				return
			}
			var se *messaging.SendError
			if !errors.As(err, &se) || se.Retryable() != tt.retryable || se.RetryAfter != tt.wait || se.Reason != tt.reason {
				t.Errorf("Send: %#v, want retryable %v after %v, reason %q", err, tt.retryable, tt.wait, tt.reason)
			}
		})
	}
}

func TestRefusesPrivateTargetsByDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) }))
	defer srv.Close()
	c := whatsapp.New(whatsapp.Options{BaseURL: srv.URL}, zap.NewNop())
	if err := c.Send(t.Context(), messaging.Connection{PhoneNumberID: "1"}, messaging.Secrets{AccessToken: "t"}, "1", "x"); err == nil {
		t.Fatal("a loopback Graph API was reached without SVC_ALLOW_PRIVATE_TARGETS")
	}
}

// TestSendUnreachable: an API that does not answer (nothing listens) is said to be out of reach,
// not to have "refused the message"; the error stays retryable and the secret stays out of it.
func TestSendUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there now
	c := whatsapp.New(whatsapp.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	err := c.Send(t.Context(), messaging.Connection{AccountID: "acct_x", PhoneNumberID: "1055501"}, messaging.Secrets{AccessToken: "SECRET-token"}, "5511999999999", "Hello")
	var refusal *messaging.SendError
	if !errors.As(err, &refusal) || !refusal.Retryable() {
		t.Fatalf("send to nowhere: %v, want a retryable *messaging.SendError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "could not be reached") || strings.Contains(msg, "refused the message") || strings.Contains(msg, "SECRET") {
		t.Errorf("send to nowhere: %q, want that whatsapp could not be reached, without the secret", msg)
	}
}
