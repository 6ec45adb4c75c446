package plugins_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/app/plugins"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/plugin"
	"github.com/svcagent/svc/ports/mock"
)

// webPlan lets every account use the web channels (the plan rule is accounts.Access's, tested there).
type webPlan struct{}

func (webPlan) RequireWebChannels(account.Account) error { return nil }

type env struct {
	svc *plugins.Service
	now *time.Time
}

func newEnv(t *testing.T) env {
	ctrl := gomock.NewController(t)
	db := storetest.SQLite(t)
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	clock := mock.NewMockClock(ctrl)
	e := env{now: &now}
	clock.EXPECT().Now().DoAndReturn(func() time.Time { return *e.now }).AnyTimes()
	accts := storetest.Accounts(t, db, storetest.Account("acct_a", now))
	r := store.NewPlugins(db)
	e.svc = plugins.New(plugins.Deps{Tx: store.NewTx(db), Requests: r, Sites: r, Orders: r, Accounts: accts,
		Profiles: store.NewProfiles(db), Channels: webPlan{}, Clock: clock})
	return e
}

// approve runs a connection request through the owner's approval and returns the code.
func (e env) approve(t *testing.T) string {
	t.Helper()
	p, err := e.svc.Begin(t.Context(), "https://shop.example", "https://shop.example/wp-admin/admin.php?page=svc", "st-1", "en", "1")
	if err != nil {
		t.Fatal(err)
	}
	back, err := e.svc.Approve(t.Context(), "acct_a", p.ID)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(back)
	if u.Host != "shop.example" || u.Path != "/wp-admin/admin.php" || u.Query().Get("state") != "st-1" || u.Query().Get("page") != "svc" {
		t.Fatalf("return address %s", back)
	}
	if _, err := e.svc.Approve(t.Context(), "acct_a", p.ID); !domain.IsNotFound(err) {
		t.Errorf("a second approval of the request = %v, want not_found", err)
	}
	return u.Query().Get("svc_code")
}

func TestExchangeOnce(t *testing.T) {
	e := newEnv(t)
	code := e.approve(t)
	if _, err := e.svc.Exchange(t.Context(), code, "https://other.example"); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Fatalf("exchange for another site = %v", err)
	}
	out, err := e.svc.Exchange(t.Context(), code, "https://shop.example/")
	if err != nil {
		t.Fatal(err)
	}
	if out.WidgetToken != "wt_acct_a" || out.Name != "acct_a" || len(out.Token) != len(plugin.TokenPrefix)+43 || out.Connection.Platform != "woocommerce" {
		t.Errorf("exchange = %+v", out)
	}
	if out.Connection.TokenHash != account.HashSecret(out.Token) {
		t.Error("the token must be stored hashed")
	}
	if _, err := e.svc.Exchange(t.Context(), code, "https://shop.example/"); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Errorf("the code used twice = %v, want 400", err)
	}
	caller, err := e.svc.Authenticate(t.Context(), out.Token)
	if err != nil {
		t.Fatalf("Authenticate = %v", err)
	}
	for _, token := range []string{"", "wt_acct_a", "svc_live_" + out.Token[len(plugin.TokenPrefix):], out.Token + "x"} {
		if _, err := e.svc.Authenticate(t.Context(), token); domain.ErrorCode(err) != domain.CodeUnauthorized {
			t.Errorf("Authenticate(%q) = %v, want 401", token, err)
		}
	}
	if err := e.svc.Disconnect(t.Context(), "acct_a", caller.Connection.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Authenticate(t.Context(), out.Token); domain.ErrorCode(err) != domain.CodeUnauthorized {
		t.Errorf("a disconnected site's token = %v, want 401", err)
	}
}

func TestExchangeExpired(t *testing.T) {
	e := newEnv(t)
	code := e.approve(t)
	*e.now = e.now.Add(plugin.CodeTTL)
	if _, err := e.svc.Exchange(t.Context(), code, "https://shop.example"); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Errorf("exchange at 10 minutes = %v, want 400", err)
	}

	code = e.approve(t)
	*e.now = e.now.Add(plugin.CodeTTL - time.Second)
	if _, err := e.svc.Exchange(t.Context(), code, "https://shop.example"); err != nil {
		t.Errorf("exchange a second before 10 minutes = %v", err)
	}
}

func TestRequestExpires(t *testing.T) {
	e := newEnv(t)
	p, err := e.svc.Begin(t.Context(), "https://shop.example", "https://shop.example/wp-admin/", "s", "", "")
	if err != nil {
		t.Fatal(err)
	}
	*e.now = e.now.Add(plugin.StateTTL)
	if _, err := e.svc.Request(t.Context(), p.ID); !domain.IsNotFound(err) {
		t.Errorf("a request after 30 minutes = %v, want not_found", err)
	}
	if _, err := e.svc.Approve(t.Context(), "acct_a", p.ID); !domain.IsNotFound(err) {
		t.Errorf("approving it = %v, want not_found", err)
	}
	if _, err := e.svc.Begin(t.Context(), "https://shop.example", "https://evil.example/wp-admin/", "s", "", ""); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Errorf("a return address on another host = %v", err)
	}
}
