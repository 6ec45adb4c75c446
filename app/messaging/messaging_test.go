package messaging_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/chat"
	appmessaging "github.com/svcagent/svc/app/messaging"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/actiontoken"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/messaging"
	"github.com/svcagent/svc/domain/outbox"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// plainVault seals by prefixing, so that a test can read what was sealed.
type plainVault struct{}

func (plainVault) Seal(p string) ([]byte, error) { return []byte("sealed:" + p), nil }
func (plainVault) Open(b []byte) (string, error) {
	s, ok := strings.CutPrefix(string(b), "sealed:")
	if !ok {
		return "", errors.New("not sealed")
	}
	return s, nil
}

// sealed returns the connection's Sealed for secrets, as the service seals them.
func sealed(t *testing.T, sec messaging.Secrets) []byte {
	t.Helper()
	ctrl := gomock.NewController(t)
	conns, accts, clock := mock.NewMockConnections(ctrl), mock.NewMockAccounts(ctrl), mock.NewMockClock(ctrl)
	bots := mock.NewMockBotWebhooks(ctrl)
	accts.EXPECT().Get(gomock.Any(), "acct_1").Return(account.Account{ID: "acct_1"}, nil)
	clock.EXPECT().Now().Return(now)
	var got []byte
	conns.EXPECT().Save(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, c messaging.Connection) error {
		got = c.Sealed
		return nil
	})
	c := appmessaging.NewConnector(appmessaging.ConnectorDeps{Accounts: accts, Connections: conns, Vault: plainVault{}, Bots: bots, Clock: clock}, appmessaging.Options{})
	if _, err := c.Connect(t.Context(), "acct_1", messaging.WhatsApp, "1055", sec); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestConnectWhatsApp(t *testing.T) {
	ctrl := gomock.NewController(t)
	conns, accts, clock := mock.NewMockConnections(ctrl), mock.NewMockAccounts(ctrl), mock.NewMockClock(ctrl)
	accts.EXPECT().Get(gomock.Any(), "acct_1").Return(account.Account{ID: "acct_1"}, nil)
	clock.EXPECT().Now().Return(now)
	var saved messaging.Connection
	conns.EXPECT().Save(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, c messaging.Connection) error {
		saved = c
		return nil
	})
	c := appmessaging.NewConnector(appmessaging.ConnectorDeps{Accounts: accts, Connections: conns, Vault: plainVault{},
		Bots: mock.NewMockBotWebhooks(ctrl), Clock: clock}, appmessaging.Options{PublicURL: "https://svc.example/"})
	got, err := c.Connect(t.Context(), "acct_1", messaging.WhatsApp, "1055", messaging.Secrets{AccessToken: "tok", AppSecret: "sec", VerifyToken: "ver"})
	if err != nil {
		t.Fatal(err)
	}
	if !messaging.ValidHook(saved.Hook) || saved.AccountID != "acct_1" || saved.PhoneNumberID != "1055" || !saved.CreatedAt.Equal(now) {
		t.Errorf("saved %+v", saved)
	}
	if got.App != messaging.WhatsApp || got.WebhookURL != "https://svc.example/v1/messaging/whatsapp/"+saved.Hook {
		t.Errorf("connected %+v, hook %s", got, saved.Hook)
	}
	if strings.Contains(string(saved.Sealed), `"sec"`) == false || !strings.HasPrefix(string(saved.Sealed), "sealed:") {
		t.Errorf("stored %q: want the secrets sealed by the vault", saved.Sealed)
	}
}

func TestConnectTelegram(t *testing.T) {
	ctrl := gomock.NewController(t)
	conns, accts, clock, bots := mock.NewMockConnections(ctrl), mock.NewMockAccounts(ctrl), mock.NewMockClock(ctrl), mock.NewMockBotWebhooks(ctrl)
	accts.EXPECT().Get(gomock.Any(), "acct_1").Return(account.Account{ID: "acct_1"}, nil).Times(2)
	clock.EXPECT().Now().Return(now).Times(2)
	var hookSecret, hookURL string
	bots.EXPECT().SetWebhook(gomock.Any(), "123:abc", gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, _, url, secret string) error {
		hookURL, hookSecret = url, secret
		return nil
	})
	var saved messaging.Connection
	conns.EXPECT().Save(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, c messaging.Connection) error {
		saved = c
		return nil
	})
	c := appmessaging.NewConnector(appmessaging.ConnectorDeps{Accounts: accts, Connections: conns, Vault: plainVault{}, Bots: bots, Clock: clock},
		appmessaging.Options{PublicURL: "https://svc.example"})
	got, err := c.Connect(t.Context(), "acct_1", messaging.Telegram, "", messaging.Secrets{BotToken: "123:abc", HookSecret: "chosen-by-caller"})
	if err != nil {
		t.Fatal(err)
	}
	if got.WebhookURL != hookURL || hookURL != "https://svc.example/v1/messaging/telegram/"+saved.Hook {
		t.Errorf("connected %+v; setWebhook url %s", got, hookURL)
	}
	if len(hookSecret) < 32 || hookSecret == "chosen-by-caller" || !strings.Contains(string(saved.Sealed), hookSecret) {
		t.Errorf("secret token %q, sealed %q: want a new random one, kept sealed", hookSecret, saved.Sealed)
	}

	// The Bot API refuses: nothing is stored.
	bots.EXPECT().SetWebhook(gomock.Any(), "999:bad", gomock.Any(), gomock.Any()).Return(domain.Invalid("bot_token", "refused"))
	if _, err := c.Connect(t.Context(), "acct_1", messaging.Telegram, "", messaging.Secrets{BotToken: "999:bad"}); domain.ErrorCode(err) != domain.CodeInvalidRequest {
		t.Errorf("Connect with a refused token: %v", err)
	}
}

func TestConnectRefusesBeforeAnything(t *testing.T) {
	ctrl := gomock.NewController(t)
	c := appmessaging.NewConnector(appmessaging.ConnectorDeps{Accounts: mock.NewMockAccounts(ctrl), Connections: mock.NewMockConnections(ctrl),
		Vault: plainVault{}, Bots: mock.NewMockBotWebhooks(ctrl), Clock: mock.NewMockClock(ctrl)}, appmessaging.Options{})
	_, err := c.Connect(t.Context(), "acct_1", messaging.WhatsApp, "1055", messaging.Secrets{AccessToken: "t"})
	if e, ok := domain.AsError(err); !ok || e.Field != "app_secret" {
		t.Errorf("Connect without an app secret: %v", err)
	}
}

// agentFunc is the agent as a function.
type agentFunc func(req chat.Request) (chat.Reply, error)

func (f agentFunc) Post(_ context.Context, req chat.Request) (chat.Reply, error) { return f(req) }

type env struct {
	conns    *mock.MockConnections
	accts    *mock.MockAccounts
	convs    *mock.MockConversations
	know     *mock.MockKnowledge
	outbox   *mock.MockOutbox
	wa, tg   *mock.MockMessenger
	requests []chat.Request
	agentErr error
	svc      *appmessaging.Service
	conn     messaging.Connection
}

func newEnv(t *testing.T) *env {
	ctrl := gomock.NewController(t)
	e := &env{conns: mock.NewMockConnections(ctrl), accts: mock.NewMockAccounts(ctrl), convs: mock.NewMockConversations(ctrl),
		know: mock.NewMockKnowledge(ctrl), outbox: mock.NewMockOutbox(ctrl), wa: mock.NewMockMessenger(ctrl), tg: mock.NewMockMessenger(ctrl)}
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(now).AnyTimes()
	e.svc = appmessaging.New(appmessaging.Deps{Accounts: e.accts, Connections: e.conns, Conversations: e.convs, Knowledge: e.know,
		Vault: plainVault{}, Messengers: appmessaging.Messengers{messaging.WhatsApp: e.wa, messaging.Telegram: e.tg},
		Outbox: e.outbox, Clock: clock,
		Agent: agentFunc(func(req chat.Request) (chat.Reply, error) {
			e.requests = append(e.requests, req)
			return chat.Reply{Status: chat.StatusPending}, e.agentErr
		})})
	e.conn = messaging.Connection{AccountID: "acct_1", App: messaging.WhatsApp, Hook: messaging.HookPrefix + strings.Repeat("h", 43),
		PhoneNumberID: "1055", Sealed: sealed(t, messaging.Secrets{AccessToken: "tok", AppSecret: "sec", VerifyToken: "ver"})}
	return e
}

func TestAuthenticate(t *testing.T) {
	e := newEnv(t)
	body := []byte(`{"object":"whatsapp_business_account"}`)
	e.conns.EXPECT().ByHook(gomock.Any(), messaging.WhatsApp, e.conn.Hook).Return(e.conn, nil).AnyTimes()
	e.conns.EXPECT().ByHook(gomock.Any(), messaging.WhatsApp, gomock.Not(e.conn.Hook)).Return(messaging.Connection{}, domain.NotFound("connection")).AnyTimes()
	other := messaging.HookPrefix + strings.Repeat("o", 43)
	tests := []struct {
		name  string
		hook  string
		proof string
		ok    bool
	}{
		{"signed", e.conn.Hook, messaging.Sign("sec", body), true},
		{"unsigned", e.conn.Hook, "", false},
		{"signed with another secret", e.conn.Hook, messaging.Sign("other", body), false},
		{"unknown hook", other, messaging.Sign("sec", body), false},
		{"not a hook", "../etc", messaging.Sign("sec", body), false},
	}
	for _, tt := range tests {
		c, err := e.svc.Authenticate(t.Context(), messaging.WhatsApp, tt.hook, body, tt.proof)
		if tt.ok && (err != nil || c.AccountID != "acct_1") {
			t.Errorf("%s: %+v, %v", tt.name, c, err)
		}
		if !tt.ok && domain.ErrorCode(err) != domain.CodeUnauthorized {
			t.Errorf("%s: %v, want unauthorized", tt.name, err)
		}
	}
	if err := e.svc.Handshake(t.Context(), e.conn.Hook, "subscribe", "ver"); err != nil {
		t.Errorf("handshake: %v", err)
	}
	for _, bad := range [][2]string{{"subscribe", "wrong"}, {"unsubscribe", "ver"}, {"subscribe", ""}} {
		if err := e.svc.Handshake(t.Context(), e.conn.Hook, bad[0], bad[1]); domain.ErrorCode(err) != domain.CodeUnauthorized {
			t.Errorf("handshake %v: %v, want unauthorized", bad, err)
		}
	}
}

func TestReceive(t *testing.T) {
	text := messaging.Inbound{ID: "wamid.1", From: "1555", Name: "Ana", Kind: messaging.KindText, Text: "Do you deliver?"}
	boom := errors.New("boom")
	tests := []struct {
		name     string
		in       messaging.Inbound
		acct     account.Account
		agentErr error
		want     appmessaging.Received
		wantErr  bool
		asked    bool
	}{
		{name: "accepted", in: text, acct: account.Account{ID: "acct_1", Status: account.Active}, want: appmessaging.Received{Outcome: appmessaging.Accepted}, asked: true},
		{name: "duplicate", in: text, acct: account.Account{ID: "acct_1", Status: account.Active}, agentErr: chat.ErrDuplicate,
			want: appmessaging.Received{Outcome: appmessaging.Duplicate}, asked: true},
		{name: "channel off", in: text, acct: account.Account{ID: "acct_1", Status: account.Active},
			agentErr: domain.Errorf(domain.CodeAgentUnavailable, "off"), want: appmessaging.Received{Outcome: appmessaging.Ignored, Reason: "agent_unavailable"}, asked: true},
		{name: "no interactions left", in: text, acct: account.Account{ID: "acct_1", Status: account.Active},
			agentErr: domain.Errorf(domain.CodeInteractionLimitReached, "none"), want: appmessaging.Received{Outcome: appmessaging.Ignored, Reason: "interaction_limit_reached"}, asked: true},
		{name: "inactive account", in: text, acct: account.Account{ID: "acct_1", Status: account.Inactive},
			want: appmessaging.Received{Outcome: appmessaging.Ignored, Reason: "account_inactive"}},
		{name: "the store fails", in: text, acct: account.Account{ID: "acct_1", Status: account.Active}, agentErr: boom, wantErr: true, asked: true},
		{name: "a sticker", in: messaging.Inbound{ID: "wamid.2", From: "1555", Kind: messaging.KindOther},
			want: appmessaging.Received{Outcome: appmessaging.Ignored, Reason: "not_text"}},
		// a picture sent alone is answered, by the agent, as a message (its note): asked for in words
		{name: "a picture alone", in: messaging.Inbound{ID: "wamid.1", From: "1555", Name: "Ana", Kind: messaging.KindFile, Text: conversation.AttachmentNote("image")},
			acct: account.Account{ID: "acct_1", Status: account.Active}, want: appmessaging.Received{Outcome: appmessaging.Accepted}, asked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.agentErr = tt.agentErr
			if tt.in.Answerable() {
				e.accts.EXPECT().Get(gomock.Any(), "acct_1").Return(tt.acct, nil)
			}
			got, err := e.svc.Receive(t.Context(), messaging.NewInbox(e.conn, messaging.Secrets{}), tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Receive = %+v, %v; want %+v (error %v)", got, err, tt.want, tt.wantErr)
			}
			if asked := len(e.requests) == 1; asked != tt.asked {
				t.Fatalf("the agent was asked %d times", len(e.requests))
			}
			if tt.asked {
				r := e.requests[0]
				if r.Channel != conversation.ChannelMessaging || r.ConversationID != "whatsapp:1555" || r.CustomerName != "Ana" ||
					r.Message != tt.in.Text || r.InboxKey != "whatsapp:wamid.1" || r.InboxKeep != messaging.WhatsAppKeep || r.Account.ID != "acct_1" {
					t.Errorf("request %+v", r)
				}
			}
		})
	}
}

// TestReceiveTelegramKeysByBot checks that a Telegram update is recorded under its bot's id, for
// Telegram's keep: another bot's update of the same update_id is another message, while the same
// bot reconnected under a new token keeps its key. The secrets are opened once, when the request
// is authenticated, not again for each of its messages; a connection whose secrets cannot be read
// is refused there, and the agent is not asked.
func TestReceiveTelegramKeysByBot(t *testing.T) {
	in := messaging.Inbound{ID: "7", From: "42", Kind: messaging.KindText, Text: "Do you deliver?"}
	tests := []struct {
		name    string
		sealed  string
		wantKey string
		wantErr bool
	}{
		{"a bot", `sealed:{"bot_token":"111:aaa","hook_secret":"s"}`, "telegram:111:7", false},
		{"the same bot under a new token", `sealed:{"bot_token":"111:ccc","hook_secret":"s"}`, "telegram:111:7", false},
		{"another bot", `sealed:{"bot_token":"222:bbb","hook_secret":"s"}`, "telegram:222:7", false},
		{"secrets that cannot be read", `not sealed`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			vault := &countingVault{}
			e.svc = appmessaging.New(appmessaging.Deps{Accounts: e.accts, Connections: e.conns, Vault: vault,
				Agent: agentFunc(func(req chat.Request) (chat.Reply, error) {
					e.requests = append(e.requests, req)
					return chat.Reply{Status: chat.StatusPending}, nil
				})})
			conn := messaging.Connection{AccountID: "acct_1", App: messaging.Telegram, Hook: messaging.HookPrefix + strings.Repeat("t", 43),
				Sealed: []byte(tt.sealed)}
			e.conns.EXPECT().ByHook(gomock.Any(), messaging.Telegram, conn.Hook).Return(conn, nil)
			inbox, err := e.svc.Authenticate(t.Context(), messaging.Telegram, conn.Hook, []byte(`{}`), "s")
			if tt.wantErr {
				if err == nil || len(e.requests) != 0 {
					t.Fatalf("Authenticate = %+v, %v; want an error", inbox, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			e.accts.EXPECT().Get(gomock.Any(), "acct_1").Return(account.Account{ID: "acct_1", Status: account.Active}, nil).Times(2)
			for range 2 { // two updates of one request
				got, err := e.svc.Receive(t.Context(), inbox, in)
				if err != nil || got.Outcome != appmessaging.Accepted {
					t.Fatalf("Receive = %+v, %v", got, err)
				}
			}
			if vault.opens != 1 {
				t.Errorf("the secrets were opened %d times for one request of two messages, want once", vault.opens)
			}
			if r := e.requests[0]; r.InboxKey != tt.wantKey || r.InboxKeep != messaging.TelegramKeep || r.ConversationID != "telegram:42" {
				t.Errorf("request key %q keep %v conversation %q; want %q, %v, telegram:42", r.InboxKey, r.InboxKeep, r.ConversationID,
					tt.wantKey, messaging.TelegramKeep)
			}
		})
	}
}

// countingVault is plainVault counting its Opens.
type countingVault struct {
	plainVault
	opens int
}

func (v *countingVault) Open(b []byte) (string, error) {
	v.opens++
	return v.plainVault.Open(b)
}

func TestDeliver(t *testing.T) {
	reply := conversation.Message{ID: "msg_r", ConversationID: "whatsapp:1555", Role: conversation.RoleAgent, Content: "Here is the menu.",
		Actions: []actiontoken.Action{{Type: actiontoken.Open, URL: "https://shop.example/menu"}, {Type: actiontoken.Cart, ProductID: "41", Qty: 2}, {Type: actiontoken.Checkout}}}
	const rendered = "Here is the menu.\n\nhttps://shop.example/menu\nhttps://shop.example/?add-to-cart=41&quantity=2\nhttps://shop.example/checkout/"
	msg := outbox.Message{ID: "send_msg_r", AccountID: "acct_1", Topic: outbox.TopicMessagingReply,
		Payload: []byte(`{"conversation_id":"whatsapp:1555","reply_id":"msg_r"}`)}
	tests := []struct {
		name      string
		sendErr   error
		noConn    bool
		wantErr   bool
		wantDelay time.Duration
	}{
		{name: "sent"},
		{name: "5xx: retried", sendErr: &messaging.SendError{App: messaging.WhatsApp, Status: 503}, wantErr: true},
		{name: "no answer: retried", sendErr: &messaging.SendError{App: messaging.WhatsApp}, wantErr: true},
		{name: "429 with a wait", sendErr: &messaging.SendError{App: messaging.WhatsApp, Status: 429, RetryAfter: 7 * time.Second}, wantErr: true, wantDelay: 7 * time.Second},
		{name: "400: dropped", sendErr: &messaging.SendError{App: messaging.WhatsApp, Status: 400}},
		{name: "disconnected since: dropped", noConn: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.convs.EXPECT().Get(gomock.Any(), "acct_1", "whatsapp:1555").Return(conversation.Conversation{AccountID: "acct_1", ID: "whatsapp:1555",
				Channel: conversation.ChannelMessaging, ContactID: "whatsapp:1555"}, nil)
			e.convs.EXPECT().UpTo(gomock.Any(), "acct_1", "whatsapp:1555", "msg_r", 1).Return([]conversation.Message{reply}, nil)
			if tt.noConn {
				e.conns.EXPECT().Get(gomock.Any(), "acct_1", messaging.WhatsApp).Return(messaging.Connection{}, domain.NotFound("connection"))
			} else {
				e.conns.EXPECT().Get(gomock.Any(), "acct_1", messaging.WhatsApp).Return(e.conn, nil)
				e.know.EXPECT().State(gomock.Any(), "acct_1").Return(knowledge.State{SiteURL: "https://shop.example"}, nil)
				e.wa.EXPECT().Send(gomock.Any(), e.conn, messaging.Secrets{AccessToken: "tok", AppSecret: "sec", VerifyToken: "ver"}, "1555", rendered).Return(tt.sendErr)
			}
			err := e.svc.Deliver(t.Context(), msg)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Deliver: %v, want error %v", err, tt.wantErr)
			}
			var later *ports.RetryLater
			if errors.As(err, &later) != (tt.wantDelay > 0) || (later != nil && later.Delay != tt.wantDelay) {
				t.Errorf("Deliver: %v, want a retry after %v", err, tt.wantDelay)
			}
		})
	}
}

// TestDeliverLongReply checks that a reply longer than one WhatsApp message is sent as parts in
// order, one outbox message each, the next written only once a part is sent: a part the app
// refuses for now is retried alone (the part before it is not sent again), and a refusal that
// drops a part drops the rest.
func TestDeliverLongReply(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("Our sourdough rests for two days. ", 70)) // 2379 characters
	short := strings.TrimSpace(strings.Repeat("The rye is baked on Fridays. ", 50))     // 1449 characters
	reply := conversation.Message{ID: "msg_r", ConversationID: "whatsapp:1555", Role: conversation.RoleAgent,
		Content: long + "\n\n" + short + "\n\n" + short}
	parts := messaging.Split(reply.Content)
	if len(parts) != 2 || parts[0] != long+"\n\n"+short || parts[1] != short {
		t.Fatalf("the reply splits into %d parts, want 2 at its last paragraph break within 4096 characters", len(parts))
	}
	first := outbox.Message{ID: "send_msg_r", AccountID: "acct_1", Topic: outbox.TopicMessagingReply,
		Payload: []byte(`{"conversation_id":"whatsapp:1555","reply_id":"msg_r"}`)}
	setup := func(t *testing.T) *env {
		e := newEnv(t)
		e.convs.EXPECT().Get(gomock.Any(), "acct_1", "whatsapp:1555").Return(conversation.Conversation{AccountID: "acct_1", ID: "whatsapp:1555",
			Channel: conversation.ChannelMessaging, ContactID: "whatsapp:1555"}, nil).AnyTimes()
		e.convs.EXPECT().UpTo(gomock.Any(), "acct_1", "whatsapp:1555", "msg_r", 1).Return([]conversation.Message{reply}, nil).AnyTimes()
		e.conns.EXPECT().Get(gomock.Any(), "acct_1", messaging.WhatsApp).Return(e.conn, nil).AnyTimes()
		e.know.EXPECT().State(gomock.Any(), "acct_1").Return(knowledge.State{}, nil).AnyTimes()
		return e
	}
	sec := messaging.Secrets{AccessToken: "tok", AppSecret: "sec", VerifyToken: "ver"}

	t.Run("in order, a failed part retried alone", func(t *testing.T) {
		e := setup(t)
		var next outbox.Message
		gomock.InOrder(
			e.wa.EXPECT().Send(gomock.Any(), e.conn, sec, "1555", parts[0]).Return(nil),
			e.outbox.EXPECT().Ensure(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, m outbox.Message) error {
				next = m
				return nil
			}),
			e.wa.EXPECT().Send(gomock.Any(), e.conn, sec, "1555", parts[1]).Return(&messaging.SendError{App: messaging.WhatsApp, Status: 503}),
			e.wa.EXPECT().Send(gomock.Any(), e.conn, sec, "1555", parts[1]).Return(nil),
		)
		if err := e.svc.Deliver(t.Context(), first); err != nil {
			t.Fatal(err)
		}
		o, err := chat.ParseOutgoing(next)
		if err != nil || next.ID != "send_msg_r_part1" || next.Topic != outbox.TopicMessagingReply || next.AccountID != "acct_1" ||
			o.Part != 1 || o.ReplyID != "msg_r" || !next.CreatedAt.Equal(now) {
			t.Fatalf("the next part's message %+v (%+v, %v)", next, o, err)
		}
		if err := e.svc.Deliver(t.Context(), next); err == nil {
			t.Fatal("a 503 on the second part: no error, want one for the queue to retry it")
		}
		if err := e.svc.Deliver(t.Context(), next); err != nil { // the last part: nothing more written
			t.Fatal(err)
		}
	})

	t.Run("a part dropped drops the rest", func(t *testing.T) {
		e := setup(t)
		e.wa.EXPECT().Send(gomock.Any(), e.conn, sec, "1555", parts[0]).Return(&messaging.SendError{App: messaging.WhatsApp, Status: 400})
		if err := e.svc.Deliver(t.Context(), first); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("the next part not written: the part is sent again", func(t *testing.T) {
		e := setup(t)
		e.wa.EXPECT().Send(gomock.Any(), e.conn, sec, "1555", parts[0]).Return(nil)
		e.outbox.EXPECT().Ensure(gomock.Any(), gomock.Any()).Return(errors.New("database is locked"))
		if err := e.svc.Deliver(t.Context(), first); err == nil {
			t.Fatal("the next part's message not written: no error")
		}
	})
}
