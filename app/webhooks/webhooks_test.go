package webhooks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/ports/mock"
)

// nonPublicURLs are receiver URLs whose host is loopback, the metadata address or another
// non-public host in a spelling the domain's plain address check does not read (issue 11,
// defect 5).
var nonPublicURLs = []string{
	"https://2130706433/",
	"https://0x7f.1/",
	"https://127.1/",
	"https://127.0.0.1./",
	"https://[::127.0.0.1]/",
	"https://[64:ff9b::7f00:1]/",
	"https://１２７.０.０.１/",
	"https://2852039166/",
	"https://0177.0.0.1/",
	"https://[::ffff:127.0.0.1]/",
	"https://localhost/",
	"https://hooks.localhost/",
	"https://intranet/",
	"https://1.2.3.4.5/",
}

// newManager returns a Manager whose ports fail the test when called (no expectation is set).
func newManager(t *testing.T, allowPrivate bool) (*Manager, *mock.MockWebhooks, *mock.MockVault, *mock.MockClock) {
	ctrl := gomock.NewController(t)
	hooks, vault, clock := mock.NewMockWebhooks(ctrl), mock.NewMockVault(ctrl), mock.NewMockClock(ctrl)
	m := New(Deps{Tx: mock.NewMockTx(ctrl), Webhooks: hooks, Deliveries: mock.NewMockDeliveries(ctrl), Outbox: mock.NewMockOutbox(ctrl),
		Vault: vault, Sender: mock.NewMockWebhookSender(ctrl), Clock: clock}, Options{AllowPrivate: allowPrivate})
	return m, hooks, vault, clock
}

func wantInvalidURL(t *testing.T, err error) {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.CodeInvalidRequest || de.Field != "url" {
		t.Fatalf("error %v, want invalid_request naming url", err)
	}
}

func TestCreateRefusesNonPublicURLs(t *testing.T) {
	for _, u := range nonPublicURLs {
		t.Run(u, func(t *testing.T) {
			m, _, _, _ := newManager(t, false)
			_, err := m.Create(context.Background(), "acct_1", u, []string{"*"})
			wantInvalidURL(t, err)
		})
	}
}

func TestUpdateRefusesNonPublicURLs(t *testing.T) {
	for _, u := range nonPublicURLs {
		t.Run(u, func(t *testing.T) {
			m, _, _, _ := newManager(t, false)
			_, err := m.Update(context.Background(), "acct_1", "wh_1", Patch{URL: &u})
			wantInvalidURL(t, err)
		})
	}
}

func TestCreateAccepts(t *testing.T) {
	for _, tt := range []struct {
		url          string
		allowPrivate bool
	}{
		{"https://example.com/hooks", false},
		{"https://hooks.example.co.uk:8443/x", false},
		{"http://127.0.0.1:9000/hook", true}, // local tests (SVC_ALLOW_PRIVATE_TARGETS)
		{"http://localhost:9000/hook", true},
	} {
		t.Run(tt.url, func(t *testing.T) {
			m, hooks, vault, clock := newManager(t, tt.allowPrivate)
			clock.EXPECT().Now().Return(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
			vault.EXPECT().Seal(gomock.Any()).Return([]byte("sealed"), nil)
			hooks.EXPECT().Create(gomock.Any(), gomock.Any(), webhook.MaxPerAccount).DoAndReturn(func(_ context.Context, w webhook.Webhook, _ int) (bool, error) {
				if w.URL != tt.url || w.AccountID != "acct_1" {
					t.Errorf("stored webhook %+v", w)
				}
				return true, nil
			})
			if _, err := m.Create(context.Background(), "acct_1", tt.url, []string{"*"}); err != nil {
				t.Fatalf("Create(%s) = %v", tt.url, err)
			}
		})
	}
}
