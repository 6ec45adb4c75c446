package sessions_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/store"
	"github.com/svcagent/svc/adapters/store/storetest"
	"github.com/svcagent/svc/app/sessions"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/session"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// clock is a clock the test moves.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type env struct {
	svc      *sessions.Sessions
	tx       *store.Tx
	accounts *store.Accounts
	keys     *store.Keys
	convs    *store.Conversations
	clock    *clock
	acctA    account.Account
	acctB    account.Account
}

// newEnv builds the sessions over a real SQLite store with the accounts acct_a (key key_a) and
// acct_b (key key_b); acct_b has a conversation "shared" of its own.
func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.SQLite(t)
	e := &env{tx: store.NewTx(db), accounts: storetest.Accounts(t, db, storetest.Account("acct_a", now), storetest.Account("acct_b", now)),
		keys: store.NewKeys(db), convs: store.NewConversations(db), clock: &clock{now}}
	for _, id := range []string{"acct_a", "acct_b"} {
		key := "key_" + strings.TrimPrefix(id, "acct_")
		if err := e.keys.Create(t.Context(), account.Key{ID: key, AccountID: id, Name: key, Hash: account.HashSecret(account.KeyPrefix + key), CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	e.acctA, _ = e.accounts.Get(t.Context(), "acct_a")
	e.acctB, _ = e.accounts.Get(t.Context(), "acct_b")
	if _, err := e.convs.Open(t.Context(), conversation.Conversation{AccountID: "acct_b", ID: "shared", Channel: conversation.ChannelWeb,
		CustomerName: "Bea", ContactID: "web:shared", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	e.svc = sessions.New(e.tx, store.NewSessions(db), e.convs, e.clock)
	return e
}

func (e *env) wantNoConversation(t *testing.T, accountID, convID string) {
	t.Helper()
	if c, err := e.convs.Get(t.Context(), accountID, convID); !domain.IsNotFound(err) {
		t.Errorf("conversation %s of %s: %+v, %v; want none", convID, accountID, c, err)
	}
}

func TestCreateRefusesBadInput(t *testing.T) {
	tests := []struct {
		name  string
		in    sessions.Input
		field string
	}{
		{"ttl below the minimum", sessions.Input{ConversationID: "c1", TTLMinutes: session.MinTTL - 1, TTLGiven: true}, "ttl_minutes"},
		{"ttl above the maximum", sessions.Input{ConversationID: "c1", TTLMinutes: session.MaxTTL + 1, TTLGiven: true}, "ttl_minutes"},
		{"ttl given as 0", sessions.Input{ConversationID: "c1", TTLGiven: true}, "ttl_minutes"},
		{"conversation id with a space", sessions.Input{ConversationID: "c 1"}, "conversation_id"},
		{"conversation id too long", sessions.Input{ConversationID: strings.Repeat("c", conversation.MaxIDLength+1)}, "conversation_id"},
		{"customer name too long", sessions.Input{ConversationID: "c1", CustomerName: strings.Repeat("n", conversation.MaxCustomerName+1)}, "customer_name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.svc.Create(t.Context(), e.acctA, "key_a", tt.in)
			de, ok := domain.AsError(err)
			if !ok || de.Code != domain.CodeInvalidRequest || de.Field != tt.field {
				t.Fatalf("error %v, want invalid_request naming %s", err, tt.field)
			}
			e.wantNoConversation(t, "acct_a", "c1")
		})
	}
}

func TestCreate(t *testing.T) {
	tests := []struct {
		name     string
		in       sessions.Input
		wantTTL  time.Duration
		wantConv string // "" means a new conv_ id
	}{
		{"default lifetime, new conversation", sessions.Input{}, session.DefaultTTL * time.Minute, ""},
		{"given lifetime and conversation", sessions.Input{ConversationID: "order-42", CustomerName: "Ana", TTLMinutes: 5, TTLGiven: true}, 5 * time.Minute, "order-42"},
		// acct_b has a conversation "shared": acct_a's is its own.
		{"an id another account uses", sessions.Input{ConversationID: "shared", CustomerName: "Ana", TTLMinutes: 1440, TTLGiven: true}, 24 * time.Hour, "shared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			got, err := e.svc.Create(t.Context(), e.acctA, "key_a", tt.in)
			if err != nil {
				t.Fatal(err)
			}
			s := got.Session
			if !session.LooksLikeToken(got.Token) || s.Hash != account.HashSecret(got.Token) {
				t.Errorf("token %q with hash %q: want a client token and its hash", got.Token, s.Hash)
			}
			if !strings.HasPrefix(s.ID, "cs_") || s.AccountID != "acct_a" || s.KeyID != "key_a" || s.CustomerName != tt.in.CustomerName ||
				!s.CreatedAt.Equal(now) || !s.ExpiresAt.Equal(now.Add(tt.wantTTL)) {
				t.Errorf("session %+v, want acct_a's by key_a, created now, expiring in %v", s, tt.wantTTL)
			}
			if tt.wantConv == "" && !strings.HasPrefix(s.ConversationID, "conv_") || tt.wantConv != "" && s.ConversationID != tt.wantConv {
				t.Errorf("conversation %q, want %q (or a new conv_ id)", s.ConversationID, tt.wantConv)
			}
			c, err := e.convs.Get(t.Context(), "acct_a", s.ConversationID)
			if err != nil {
				t.Fatalf("the session's conversation was not opened: %v", err)
			}
			if c.Channel != conversation.ChannelAPI || c.ContactID != "api:"+s.ConversationID || c.CustomerName != tt.in.CustomerName {
				t.Errorf("conversation %+v, want an API one of %q", c, tt.in.CustomerName)
			}
			if b, err := e.convs.Get(t.Context(), "acct_b", "shared"); err != nil || b.CustomerName != "Bea" || b.Channel != conversation.ChannelWeb {
				t.Errorf("acct_b's conversation became %+v, %v", b, err)
			}
			p, err := e.svc.Authenticate(t.Context(), got.Token)
			if err != nil || p.Account.ID != "acct_a" || p.Session.ID != s.ID || p.Session.ConversationID != s.ConversationID {
				t.Errorf("Authenticate(new token) = %+v, %v", p, err)
			}
		})
	}
}

// TestCreateRefusesAnotherChannelsConversation checks that a session, which chats on the API
// channel, is never bound to a conversation of the website chat or of a messaging contact: its
// token would write to it as that customer.
func TestCreateRefusesAnotherChannelsConversation(t *testing.T) {
	for _, ch := range []conversation.Channel{conversation.ChannelWeb, conversation.ChannelMessaging} {
		t.Run(string(ch), func(t *testing.T) {
			e := newEnv(t)
			if _, err := e.convs.Open(t.Context(), conversation.Conversation{AccountID: "acct_a", ID: "theirs", Channel: ch,
				CustomerName: "Bea", ContactID: string(ch) + ":theirs", CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			_, err := e.svc.Create(t.Context(), e.acctA, "key_a", sessions.Input{ConversationID: "theirs", CustomerName: "Ana"})
			if de, ok := domain.AsError(err); !ok || de.Code != domain.CodeInvalidRequest || de.Field != "conversation_id" {
				t.Fatalf("error %v, want invalid_request naming conversation_id", err)
			}
			if c, err := e.convs.Get(t.Context(), "acct_a", "theirs"); err != nil || c.Channel != ch || c.CustomerName != "Bea" {
				t.Errorf("the conversation became %+v, %v", c, err)
			}
		})
	}
}

func TestCreateWritesNothingWhenTheSessionIsNotStored(t *testing.T) {
	e := newEnv(t)
	failing := mock.NewMockSessions(gomock.NewController(t))
	errDisk := errors.New("disk full")
	failing.EXPECT().Create(gomock.Any(), gomock.Any()).Return(errDisk)
	svc := sessions.New(e.tx, failing, e.convs, e.clock)
	if _, err := svc.Create(t.Context(), e.acctA, "key_a", sessions.Input{ConversationID: "c1"}); !errors.Is(err, errDisk) {
		t.Fatalf("error %v, want the store's", err)
	}
	e.wantNoConversation(t, "acct_a", "c1")
}

func TestAuthenticate(t *testing.T) {
	unauthorized := domain.CodeUnauthorized
	tests := []struct {
		name  string
		setup func(t *testing.T, e *env, token string) string // returns the token to present
		want  domain.Code                                     // "" means accepted
	}{
		{"the token", func(_ *testing.T, _ *env, tok string) string { return tok }, ""},
		{"just before expiry", func(_ *testing.T, e *env, tok string) string {
			e.clock.t = now.Add(5*time.Minute - time.Second)
			return tok
		}, ""},
		{"missing", func(*testing.T, *env, string) string { return "" }, unauthorized},
		{"not a client token", func(*testing.T, *env, string) string { return account.KeyPrefix + strings.Repeat("x", 43) }, unauthorized},
		{"unknown", func(_ *testing.T, _ *env, tok string) string { return tok[:len(tok)-1] + flip(tok[len(tok)-1]) }, unauthorized},
		{"expired", func(_ *testing.T, e *env, tok string) string { e.clock.t = now.Add(5 * time.Minute); return tok }, unauthorized},
		{"its key revoked", func(t *testing.T, e *env, tok string) string {
			if _, err := e.keys.Revoke(t.Context(), "key_a", now); err != nil {
				t.Fatal(err)
			}
			return tok
		}, unauthorized},
		{"its account inactive", func(t *testing.T, e *env, tok string) string {
			if err := e.accounts.Update(t.Context(), "acct_a", func(a *account.Account) error { a.Status = account.Inactive; return nil }); err != nil {
				t.Fatal(err)
			}
			return tok
		}, domain.CodeAccountInactive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			created, err := e.svc.Create(t.Context(), e.acctA, "key_a", sessions.Input{ConversationID: "c1", TTLMinutes: 5, TTLGiven: true})
			if err != nil {
				t.Fatal(err)
			}
			// acct_b's session on another key: revoking key_a must not touch it.
			other, err := e.svc.Create(t.Context(), e.acctB, "key_b", sessions.Input{ConversationID: "c1", TTLMinutes: 60, TTLGiven: true})
			if err != nil {
				t.Fatal(err)
			}
			p, err := e.svc.Authenticate(t.Context(), tt.setup(t, e, created.Token))
			if tt.want == "" {
				if err != nil || p.Account.ID != "acct_a" || p.Account.Status != account.Active || p.Session.ID != created.Session.ID {
					t.Errorf("Authenticate = %+v, %v; want acct_a's session", p, err)
				}
			} else if got := domain.ErrorCode(err); got != tt.want {
				t.Errorf("Authenticate error %v (%s), want %s", err, got, tt.want)
			}
			if e.clock.t.Before(now.Add(time.Hour)) {
				if p, err := e.svc.Authenticate(t.Context(), other.Token); err != nil || p.Account.ID != "acct_b" {
					t.Errorf("acct_b's session: %+v, %v; want it still accepted", p, err)
				}
			}
		})
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}
