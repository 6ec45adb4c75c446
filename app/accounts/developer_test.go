package accounts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/notification"
)

// notes records what the owner was told.
type notes struct {
	kinds  []string
	bodies []string
	err    error
}

func (n *notes) Notify(_ context.Context, _, kind, _, body string) error {
	n.kinds = append(n.kinds, kind)
	n.bodies = append(n.bodies, body)
	return n.err
}

func TestDevelopersConnected(t *testing.T) {
	earlier := now.Add(-48 * time.Hour)
	tests := []struct {
		name       string
		stored     account.Account
		client     string
		notifyErr  error
		wantFirst  bool
		wantErr    bool
		want       account.Account
		wantNotify int
	}{
		{"first connection", account.Account{ID: "acct_1"}, "Claude Desktop 1.0",
			nil, true, false, account.Account{ID: "acct_1", DeveloperBonus: true, DeveloperSince: now, DeveloperClient: "Claude Desktop 1.0", UpdatedAt: now}, 1},
		{"control characters and a blank client", account.Account{ID: "acct_1"}, " \x00\n ",
			nil, true, false, account.Account{ID: "acct_1", DeveloperBonus: true, DeveloperSince: now, DeveloperClient: "an MCP client", UpdatedAt: now}, 1},
		{"later connection", account.Account{ID: "acct_1", DeveloperBonus: true, DeveloperSince: earlier, DeveloperClient: "Cursor 2"}, "Claude Desktop 1.0",
			nil, false, false, account.Account{ID: "acct_1", DeveloperBonus: true, DeveloperSince: earlier, DeveloperClient: "Cursor 2"}, 0},
		{"switched off by the operator stays off", account.Account{ID: "acct_1", DeveloperSince: earlier, DeveloperClient: "Cursor 2"}, "Claude Desktop 1.0",
			nil, false, false, account.Account{ID: "acct_1", DeveloperSince: earlier, DeveloperClient: "Cursor 2"}, 0},
		{"notification fails", account.Account{ID: "acct_1"}, "Claude Desktop 1.0",
			errors.New("boom"), true, true, account.Account{ID: "acct_1", DeveloperBonus: true, DeveloperSince: now, DeveloperClient: "Claude Desktop 1.0", UpdatedAt: now}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var saved account.Account
			f.accounts.EXPECT().Update(gomock.Any(), "acct_1", gomock.Any()).DoAndReturn(
				func(_ context.Context, _ string, fn func(*account.Account) error) error {
					a := tt.stored
					err := fn(&a)
					saved = a
					return err
				})
			n := &notes{err: tt.notifyErr}
			first, err := NewDevelopers(f.tx, f.accounts, n, f.clock).Connected(context.Background(), "acct_1", tt.client)
			if first != tt.wantFirst || (err != nil) != tt.wantErr {
				t.Fatalf("Connected = %v, %v; want %v, error %v", first, err, tt.wantFirst, tt.wantErr)
			}
			if saved.DeveloperBonus != tt.want.DeveloperBonus || !saved.DeveloperSince.Equal(tt.want.DeveloperSince) ||
				saved.DeveloperClient != tt.want.DeveloperClient || !saved.UpdatedAt.Equal(tt.want.UpdatedAt) {
				t.Errorf("saved %+v, want %+v", saved, tt.want)
			}
			if len(n.kinds) != tt.wantNotify {
				t.Fatalf("%d notifications, want %d", len(n.kinds), tt.wantNotify)
			}
			if tt.wantNotify == 1 && (n.kinds[0] != notification.KindDeveloperBonus || !strings.Contains(n.bodies[0], tt.want.DeveloperClient)) {
				t.Errorf("notification %q %q", n.kinds[0], n.bodies[0])
			}
		})
	}
}

func TestCleanClientBounds(t *testing.T) {
	if got := cleanClient(strings.Repeat("é", maxClient+10)); len([]rune(got)) != maxClient {
		t.Errorf("cleanClient kept %d characters, want %d", len([]rune(got)), maxClient)
	}
}
