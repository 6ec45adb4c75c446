package telegram_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/svcagent/svc/adapters/messaging/telegram"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/messaging"
)

const token = "123456:SECRET-bot-token"

func TestSend(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		answer    string
		wantErr   bool
		retryable bool
		wait      time.Duration
	}{
		{name: "sent", status: 200, answer: `{"ok":true,"result":{"message_id":1}}`},
		{name: "flood wait", status: 429, answer: `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 5","parameters":{"retry_after":5}}`,
			wantErr: true, retryable: true, wait: 5 * time.Second},
		{name: "bot blocked", status: 403, answer: `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`, wantErr: true},
		{name: "server error", status: 502, answer: `bad gateway`, wantErr: true, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var path string
			var body map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				path = r.URL.Path
				raw, _ := io.ReadAll(r.Body)
				_ = json.Unmarshal(raw, &body)
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.answer)
			}))
			defer srv.Close()
			c := telegram.New(telegram.Options{BaseURL: srv.URL + "/", AllowPrivate: true}, zap.NewNop())
			err := c.Send(t.Context(), messaging.Connection{AccountID: "acct_1"}, messaging.Secrets{BotToken: token}, "-1001", "hello")
			if path != "/bot"+token+"/sendMessage" || body["chat_id"] != float64(-1001) || body["text"] != "hello" {
				t.Errorf("request %s %v", path, body)
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("Send: %v", err)
			}
			if err == nil {
				return
			}
			var se *messaging.SendError
			if !errors.As(err, &se) || se.Retryable() != tt.retryable || se.RetryAfter != tt.wait || se.Status != tt.status {
				t.Errorf("Send: %#v, want retryable %v after %v", err, tt.retryable, tt.wait)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("the error shows the bot token: %v", err)
			}
		})
	}
}

func TestSendUnreachableHidesTheToken(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there now
	c := telegram.New(telegram.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	err := c.Send(t.Context(), messaging.Connection{}, messaging.Secrets{BotToken: token}, "1", "hello")
	var se *messaging.SendError
	if !errors.As(err, &se) || !se.Retryable() || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("Send to nowhere: %v, want a retryable error without the token", err)
	}
}

func TestSetWebhook(t *testing.T) {
	var body map[string]any
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		w.WriteHeader(status)
		if status == 200 {
			_, _ = io.WriteString(w, `{"ok":true,"result":true}`)
			return
		}
		_, _ = io.WriteString(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
	}))
	defer srv.Close()
	c := telegram.New(telegram.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	if err := c.SetWebhook(t.Context(), token, "https://svc.example/v1/messaging/telegram/mh_x", "s3cret"); err != nil {
		t.Fatal(err)
	}
	if body["url"] != "https://svc.example/v1/messaging/telegram/mh_x" || body["secret_token"] != "s3cret" {
		t.Errorf("setWebhook %v", body)
	}
	status = 401
	err := c.SetWebhook(t.Context(), token, "https://svc.example/x", "s3cret")
	if e, ok := domain.AsError(err); !ok || e.Field != "bot_token" || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("a refused bot token: %v, want invalid_request on bot_token", err)
	}
}

// TestSetWebhookUnreachable: a Bot API that does not answer is said to be out of reach (svcctl
// channel connect prints it), not to have "refused the message", and the token stays out of it.
func TestSetWebhookUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there now
	c := telegram.New(telegram.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	err := c.SetWebhook(t.Context(), token, "https://svc.example/x", "s3cret")
	if err == nil || !strings.Contains(err.Error(), "could not be reached") || strings.Contains(err.Error(), "refused the message") ||
		strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("setWebhook to nowhere: %v, want that the Bot API could not be reached, without the token", err)
	}
}

// TestSendCountsUTF16 checks that a text is held to MaxText as Telegram counts it, in UTF-16
// code units (an emoji is two), not in characters: 4096 emoji would be refused with a 400.
func TestSendCountsUTF16(t *testing.T) {
	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Text string `json:"text"`
		}
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		sent = body.Text
		_, _ = io.WriteString(w, `{"ok":true,"result":{"message_id":1}}`)
	}))
	defer srv.Close()
	c := telegram.New(telegram.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	text := strings.Repeat("🥐", telegram.MaxText)
	if err := c.Send(t.Context(), messaging.Connection{AccountID: "acct_1"}, messaging.Secrets{BotToken: token}, "42", text); err != nil {
		t.Fatal(err)
	}
	if n := len(utf16.Encode([]rune(sent))); n > telegram.MaxText || !utf8.ValidString(sent) || !strings.HasPrefix(text, strings.TrimSuffix(sent, "…")) {
		t.Errorf("sent %d UTF-16 code units (valid UTF-8 %v), want at most %d of the text", n, utf8.ValidString(sent), telegram.MaxText)
	}
}

// TestSendUnreachable: an API that does not answer (nothing listens) is said to be out of reach,
// not to have "refused the message"; the error stays retryable and the secret stays out of it.
func TestSendUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens there now
	c := telegram.New(telegram.Options{BaseURL: srv.URL, AllowPrivate: true}, zap.NewNop())
	err := c.Send(t.Context(), messaging.Connection{AccountID: "acct_x"}, messaging.Secrets{BotToken: token}, "42", "Hello")
	var refusal *messaging.SendError
	if !errors.As(err, &refusal) || !refusal.Retryable() {
		t.Fatalf("send to nowhere: %v, want a retryable *messaging.SendError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "could not be reached") || strings.Contains(msg, "refused the message") || strings.Contains(msg, "SECRET") {
		t.Errorf("send to nowhere: %q, want that telegram could not be reached, without the secret", msg)
	}
}
