package notifications_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/app/notifications"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/notification"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// clock is a clock the test sets.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type env struct {
	notifier      *notifications.Notifier
	notifications *store.Notifications
	outbox        *store.Outbox
	mailer        *mock.MockMailer
	pusher        *mock.MockPushSender
	clock         *clock
}

// newEnv builds the notifier over a real SQLite store with acct_mail (whose owner has an e-mail
// address) and acct_quiet (whose owner has none); the mailer and the push sender are mocks that
// fail the test when called unexpectedly.
func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.SQLite(t)
	mail := storetest.Account("acct_mail", now)
	mail.OwnerEmail = "lu@example.com"
	accts := storetest.Accounts(t, db, mail, storetest.Account("acct_quiet", now))
	ctrl := gomock.NewController(t)
	e := &env{notifications: store.NewNotifications(db), outbox: store.NewOutbox(db), mailer: mock.NewMockMailer(ctrl),
		pusher: mock.NewMockPushSender(ctrl), clock: &clock{now}}
	e.notifier = notifications.New(notifications.Deps{Accounts: accts, Notifications: e.notifications, Outbox: e.outbox, Mailer: e.mailer,
		Clock: e.clock, Subscriptions: store.NewPushSubscriptions(db), Pusher: e.pusher}, notifications.Options{AllowPrivate: true})
	return e
}

// queued returns every message in the outbox.
func (e *env) queued(t *testing.T) []outbox.Message {
	t.Helper()
	msgs, err := e.outbox.Claim(t.Context(), e.clock.t.Add(time.Hour), time.Nanosecond, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

func TestNotify(t *testing.T) {
	tests := []struct {
		name     string
		account  string
		wantMail string // the address the mail goes to; "" for no mail
	}{
		{"an owner with an e-mail address gets a mail", "acct_mail", "lu@example.com"},
		{"an owner without one gets the notification only", "acct_quiet", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if err := e.notifier.Notify(t.Context(), tt.account, notification.KindConversion, "New sale", "A sale was reported."); err != nil {
				t.Fatal(err)
			}
			got, err := e.notifier.List(t.Context(), tt.account, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("notifications %+v, want one", got)
			}
			n := got[0]
			if !strings.HasPrefix(n.ID, "ntf_") || n.AccountID != tt.account || n.Kind != notification.KindConversion ||
				n.Title != "New sale" || n.Body != "A sale was reported." || !n.CreatedAt.Equal(now) || !n.ReadAt.IsZero() {
				t.Errorf("notification %+v", n)
			}
			msgs := e.queued(t)
			if tt.wantMail == "" {
				if len(msgs) != 0 {
					t.Errorf("queued %+v, want no mail", msgs)
				}
				return
			}
			if len(msgs) != 1 {
				t.Fatalf("queued %+v, want one mail", msgs)
			}
			m := msgs[0]
			if m.ID != "mail_"+n.ID || m.AccountID != tt.account || m.Topic != outbox.TopicMail || !m.CreatedAt.Equal(now) {
				t.Errorf("mail message %+v", m)
			}
			var mail map[string]string
			if err := json.Unmarshal(m.Payload, &mail); err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"to": tt.wantMail, "subject": "New sale", "text": "A sale was reported."}; !equalMaps(mail, want) {
				t.Errorf("mail %v, want %v", mail, want)
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestNotifyUnknownAccountWritesNothing(t *testing.T) {
	e := newEnv(t)
	err := e.notifier.Notify(t.Context(), "acct_gone", notification.KindConversion, "t", "b")
	if !domain.IsNotFound(err) {
		t.Fatalf("error %v, want not_found", err)
	}
	if got, _ := e.notifier.List(t.Context(), "acct_gone", 10); len(got) != 0 {
		t.Errorf("notifications %+v", got)
	}
	if msgs := e.queued(t); len(msgs) != 0 {
		t.Errorf("queued %+v", msgs)
	}
}

func TestListIsTheAccountsOwnNewestFirst(t *testing.T) {
	e := newEnv(t)
	for _, n := range []struct{ acct, title string }{{"acct_mail", "first"}, {"acct_quiet", "other's"}, {"acct_mail", "second"}} {
		e.clock.t = e.clock.t.Add(time.Second)
		if err := e.notifier.Notify(t.Context(), n.acct, notification.KindConversion, n.title, "b"); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		limit int
		want  []string
	}{
		{10, []string{"second", "first"}},
		{1, []string{"second"}},
	}
	for _, tt := range tests {
		got, err := e.notifier.List(t.Context(), "acct_mail", tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, n := range got {
			titles = append(titles, n.Title)
		}
		if strings.Join(titles, ",") != strings.Join(tt.want, ",") {
			t.Errorf("List(limit %d) = %v, want %v", tt.limit, titles, tt.want)
		}
	}
}

func TestSendMail(t *testing.T) {
	errSMTP := errors.New("smtp: 451 try again later")
	tests := []struct {
		name    string
		payload string
		expect  func(m *mock.MockMailer)
		wantErr error
	}{
		{
			name:    "a queued mail is sent",
			payload: `{"to":"lu@example.com","subject":"New sale","text":"A sale was reported."}`,
			expect: func(m *mock.MockMailer) {
				m.EXPECT().Send(gomock.Any(), notification.Mail{To: "lu@example.com", Subject: "New sale", Text: "A sale was reported."}).Return(nil)
			},
		},
		{
			name:    "a failed send is returned, so the queue retries it",
			payload: `{"to":"lu@example.com","subject":"s","text":"t"}`,
			expect: func(m *mock.MockMailer) {
				m.EXPECT().Send(gomock.Any(), notification.Mail{To: "lu@example.com", Subject: "s", Text: "t"}).Return(errSMTP)
			},
			wantErr: errSMTP,
		},
		{
			name:    "a payload that is not a mail is dropped without sending",
			payload: `{not json`,
			expect:  func(*mock.MockMailer) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.expect(e.mailer)
			err := e.notifier.SendMail(t.Context(), outbox.Message{ID: "mail_ntf_1", AccountID: "acct_mail", Topic: outbox.TopicMail, Payload: []byte(tt.payload)})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("SendMail = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
