package notifications_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/ports/mock"
)

// browserKeys returns a p256dh and an auth as a browser makes them.
func browserKeys(t *testing.T) (p256dh, auth string) {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	return base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(secret)
}

// mockEnv is a notifier whose push subscriptions and sender are mocks.
type mockEnv struct {
	notifier *notifications.Notifier
	subs     *mock.MockPushSubscriptions
	pusher   *mock.MockPushSender
}

func newMockEnv(t *testing.T, allowPrivate bool) *mockEnv {
	ctrl := gomock.NewController(t)
	e := &mockEnv{subs: mock.NewMockPushSubscriptions(ctrl), pusher: mock.NewMockPushSender(ctrl)}
	e.notifier = notifications.New(notifications.Deps{Accounts: mock.NewMockAccounts(ctrl), Notifications: mock.NewMockNotifications(ctrl),
		Outbox: mock.NewMockOutbox(ctrl), Mailer: mock.NewMockMailer(ctrl), Clock: &clock{now}, Subscriptions: e.subs, Pusher: e.pusher},
		notifications.Options{PublicKey: "BPUB", AllowPrivate: allowPrivate})
	return e
}

func TestSubscribe(t *testing.T) {
	p256dh, auth := browserKeys(t)
	tests := []struct {
		name         string
		endpoint     string
		p256dh, auth string
		allowPrivate bool
		wantField    string // "" when saved
	}{
		{"an https endpoint of a public host", "https://fcm.googleapis.com/fcm/send/abc", p256dh, auth, false, ""},
		{"loopback over http when private targets are allowed", "http://127.0.0.1:9999/push/1", p256dh, auth, true, ""},
		{"plain http", "http://push.example/1", p256dh, auth, false, "endpoint"},
		{"loopback", "https://127.0.0.1/push/1", p256dh, auth, false, "endpoint"},
		{"localhost", "https://localhost/push/1", p256dh, auth, false, "endpoint"},
		{"a private address written as a number", "https://2130706433/push", p256dh, auth, false, "endpoint"},
		{"not a URL", "push me", p256dh, auth, false, "endpoint"},
		{"no endpoint", "", p256dh, auth, false, "endpoint"},
		{"a p256dh of the wrong length", "https://push.example/1", p256dh[:40], auth, false, "p256dh"},
		{"a p256dh that is not base64url", "https://push.example/1", "not base64!", auth, false, "p256dh"},
		{"an auth of the wrong length", "https://push.example/1", p256dh, auth + "AAAA", false, "auth"},
		{"no auth", "https://push.example/1", p256dh, "", false, "auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newMockEnv(t, tt.allowPrivate)
			if tt.wantField == "" {
				e.subs.EXPECT().Save(gomock.Any(), gomock.Any(), push.MaxPerAccount).DoAndReturn(
					func(_ any, s push.Subscription, _ int) (push.Subscription, error) {
						if !strings.HasPrefix(s.ID, "push_") || s.AccountID != "acct_a" || s.Endpoint != tt.endpoint ||
							s.P256dh != tt.p256dh || s.Auth != tt.auth || !s.CreatedAt.Equal(now) {
							t.Errorf("saved %+v", s)
						}
						return s, nil
					})
			}
			_, err := e.notifier.Subscribe(t.Context(), "acct_a", " "+tt.endpoint+" ", tt.p256dh, tt.auth)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Subscribe: %v", err)
				}
				return
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Code != domain.CodeInvalidRequest || de.Field != tt.wantField {
				t.Errorf("Subscribe = %v, want invalid_request on %s", err, tt.wantField)
			}
		})
	}
}

func TestNotifyQueuesOnePushPerBrowser(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for _, endpoint := range []string{"https://push.example/1", "https://push.example/2"} {
		p256dh, auth := browserKeys(t)
		s, err := e.notifier.Subscribe(t.Context(), "acct_quiet", endpoint, p256dh, auth)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	p256dh, auth := browserKeys(t)
	if _, err := e.notifier.Subscribe(t.Context(), "acct_mail", "https://push.example/other", p256dh, auth); err != nil {
		t.Fatal(err)
	}
	if err := e.notifier.Notify(t.Context(), "acct_quiet", notification.KindConversion, "New sale: 12.50 EUR", "Order #7."); err != nil {
		t.Fatal(err)
	}
	msgs := e.queued(t)
	if len(msgs) != 2 {
		t.Fatalf("queued %d messages, want one push per browser of the account: %+v", len(msgs), msgs)
	}
	got := map[string]bool{}
	for _, m := range msgs {
		var p struct {
			Subscription string       `json:"subscription"`
			Message      push.Message `json:"message"`
		}
		if err := json.Unmarshal(m.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if m.Topic != outbox.TopicPush || m.AccountID != "acct_quiet" || !strings.HasSuffix(m.ID, "_"+p.Subscription) ||
			p.Message != (push.Message{Title: "New sale: 12.50 EUR", Body: "Order #7.", URL: "/app/notifications"}) {
			t.Errorf("push message %+v %+v", m, p)
		}
		got[p.Subscription] = true
	}
	for _, id := range ids {
		if !got[id] {
			t.Errorf("no push queued for %s", id)
		}
	}
}

func TestSendPush(t *testing.T) {
	sub := push.Subscription{ID: "push_1", AccountID: "acct_a", Endpoint: "https://push.example/1", P256dh: "k", Auth: "a"}
	payload := `{"subscription":"push_1","message":{"title":"New sale","body":"Order #7.","url":"/app/notifications"}}`
	wantBody := `{"title":"New sale","body":"Order #7.","url":"/app/notifications"}`
	errNet := errors.New("connection refused")
	tests := []struct {
		name    string
		payload string
		expect  func(e *mockEnv)
		wantErr bool
	}{
		{"a push the service takes is done", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(sub, nil)
			e.pusher.EXPECT().Send(gomock.Any(), sub, []byte(wantBody)).Return(201, nil)
		}, false},
		{"a 410 deletes the subscription", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(sub, nil)
			e.pusher.EXPECT().Send(gomock.Any(), sub, gomock.Any()).Return(410, nil)
			e.subs.EXPECT().Delete(gomock.Any(), "acct_a", "push_1").Return(nil)
		}, false},
		{"a 404 deletes it too, even when it went meanwhile", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(sub, nil)
			e.pusher.EXPECT().Send(gomock.Any(), sub, gomock.Any()).Return(404, nil)
			e.subs.EXPECT().Delete(gomock.Any(), "acct_a", "push_1").Return(domain.NotFound("push subscription"))
		}, false},
		{"a 503 is tried again", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(sub, nil)
			e.pusher.EXPECT().Send(gomock.Any(), sub, gomock.Any()).Return(503, nil)
		}, true},
		{"no answer is tried again", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(sub, nil)
			e.pusher.EXPECT().Send(gomock.Any(), sub, gomock.Any()).Return(0, errNet)
		}, true},
		{"a browser turned off since gets nothing", payload, func(e *mockEnv) {
			e.subs.EXPECT().Get(gomock.Any(), "acct_a", "push_1").Return(push.Subscription{}, domain.NotFound("push subscription"))
		}, false},
		{"a payload that is not a push is dropped", `{not json`, func(*mockEnv) {}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newMockEnv(t, false)
			tt.expect(e)
			err := e.notifier.SendPush(t.Context(), outbox.Message{ID: "push_ntf_1_push_1", AccountID: "acct_a", Topic: outbox.TopicPush, Payload: []byte(tt.payload)})
			if (err != nil) != tt.wantErr {
				t.Errorf("SendPush = %v, want error %t", err, tt.wantErr)
			}
		})
	}
}

func TestDevicesAndUnsubscribe(t *testing.T) {
	e := newMockEnv(t, false)
	list := []push.Subscription{{ID: "push_1", AccountID: "acct_a"}}
	e.subs.EXPECT().List(gomock.Any(), "acct_a").Return(list, nil)
	e.subs.EXPECT().Delete(gomock.Any(), "acct_a", "push_2").Return(domain.NotFound("push subscription"))
	if got, err := e.notifier.Devices(t.Context(), "acct_a"); err != nil || len(got) != 1 || got[0].ID != "push_1" {
		t.Errorf("Devices = %+v, %v", got, err)
	}
	if err := e.notifier.Unsubscribe(t.Context(), "acct_a", "push_2"); !domain.IsNotFound(err) {
		t.Errorf("Unsubscribe(another's) = %v, want not_found", err)
	}
	if e.notifier.PublicKey() != "BPUB" {
		t.Errorf("PublicKey = %q", e.notifier.PublicKey())
	}
}
