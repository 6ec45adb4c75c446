package widgets_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/app/chat"
	"github.com/svcagent/svc/app/widgets"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/domain/widget"
	"github.com/svcagent/svc/ports/mock"
)

const visitor = "0b7c6a3e-2f4d-4c1a-9e8b-7d6c5b4a3f21"

// agentFake stands in for the one agent: it records what it is sent.
type agentFake struct {
	sent    []chat.Request
	threads map[string]chat.Thread
}

func (a *agentFake) Send(_ context.Context, req chat.Request) (chat.Reply, error) {
	a.sent = append(a.sent, req)
	return chat.Reply{Status: chat.StatusCompleted, ConversationID: req.ConversationID, Text: "hello"}, nil
}

func (a *agentFake) Conversation(_ context.Context, _, id string) (chat.Thread, error) {
	if t, ok := a.threads[id]; ok {
		return t, nil
	}
	return chat.Thread{}, domain.NotFound("conversation")
}

// channelsFake is the plan rule: free plans have no web channels.
type channelsFake struct{}

func (channelsFake) RequireWebChannels(a account.Account) error {
	if a.Plan == "free" {
		return domain.Errorf(domain.CodePlanRequired, "upgrade")
	}
	return nil
}

type env struct {
	svc     *widgets.Service
	widgets *mock.MockWidgets
	accts   *mock.MockAccounts
	agents  *mock.MockProfiles
	convs   *mock.MockConversations
	limiter *mock.MockRateLimiter
	agent   *agentFake
}

func newEnv(t *testing.T) *env {
	ctrl := gomock.NewController(t)
	e := &env{widgets: mock.NewMockWidgets(ctrl), accts: mock.NewMockAccounts(ctrl), agents: mock.NewMockProfiles(ctrl),
		convs: mock.NewMockConversations(ctrl), limiter: mock.NewMockRateLimiter(ctrl), agent: &agentFake{threads: map[string]chat.Thread{}}}
	e.svc = widgets.New(widgets.Deps{Widgets: e.widgets, Accounts: e.accts, Profiles: e.agents, Conversations: e.convs,
		Limiter: e.limiter, Channels: channelsFake{}, Agent: e.agent}, widgets.Options{ScriptURL: "https://svc.test/widget.js"})
	return e
}

var allowed = ratelimit.Result{Allowed: true, Remaining: 1}

func acct(plan string, domains ...string) account.Account {
	return account.Account{ID: "acct_a", Plan: plan, Status: account.Active, WidgetToken: "wt_a", AllowedDomains: domains}
}

func wantCode(t *testing.T, err error, code domain.Code, field string) {
	t.Helper()
	e, ok := domain.AsError(err)
	if !ok || e.Code != code || e.Field != field {
		t.Fatalf("error %v, want %s naming %q", err, code, field)
	}
}

func TestOpen(t *testing.T) {
	inactive := acct("pro")
	inactive.Status = account.Inactive
	tests := []struct {
		name    string
		acct    account.Account
		lookup  error
		origin  string
		counted bool // the token's limit is counted
		over    bool
		want    domain.Code
	}{
		{"any domain", acct("pro"), nil, "https://anywhere.test", true, false, ""},
		{"an allowed domain", acct("pro", "*.shop.test"), nil, "https://www.shop.test", true, false, ""},
		{"unknown token", account.Account{}, domain.NotFound("widget"), "https://shop.test", false, false, domain.CodeNotFound},
		{"inactive account", inactive, nil, "https://shop.test", false, false, domain.CodeAccountInactive},
		{"free plan", acct("free"), nil, "https://shop.test", false, false, domain.CodePlanRequired},
		{"another site", acct("pro", "shop.test"), nil, "https://evil.test", false, false, domain.CodeOriginNotAllowed},
		{"no origin with a domain lock", acct("pro", "shop.test"), nil, "", false, false, domain.CodeOriginNotAllowed},
		{"over the token's limit", acct("pro"), nil, "https://shop.test", true, true, domain.CodeRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.widgets.EXPECT().Account(gomock.Any(), "wt_a").Return(tt.acct, tt.lookup)
			if tt.counted {
				res := allowed
				if tt.over {
					res = ratelimit.Result{RetryAfter: 1}
				}
				e.limiter.EXPECT().Allow(gomock.Any(), "widget:wt_a", widgets.TokenLimit).Return(res, nil)
			}
			v, err := e.svc.Open(t.Context(), "wt_a", tt.origin)
			if granted := tt.want != domain.CodeOriginNotAllowed && tt.want != domain.CodeNotFound; v.Granted != granted {
				t.Errorf("Granted = %v, want %v", v.Granted, granted)
			}
			if tt.want == "" {
				if err != nil || v.Account.ID != "acct_a" {
					t.Fatalf("Open = %+v, %v", v, err)
				}
				return
			}
			wantCode(t, err, tt.want, "")
		})
	}
}

func TestChat(t *testing.T) {
	v := widgets.Visit{Account: acct("pro")}
	t.Run("the agent gets the message on the web channel, in the visitor's conversation", func(t *testing.T) {
		e := newEnv(t)
		e.limiter.EXPECT().Allow(gomock.Any(), "visitor:acct_a:"+visitor, widgets.VisitorLimit).Return(allowed, nil)
		e.limiter.EXPECT().Allow(gomock.Any(), "chat:acct_a", ratelimit.Chat).Return(allowed, nil)
		e.convs.EXPECT().Get(gomock.Any(), "acct_a", visitor).Return(conversation.Conversation{}, domain.NotFound("conversation"))
		r, err := e.svc.Chat(t.Context(), v, widgets.Message{Visitor: visitor, Text: "Hi", CustomerName: "Ana"})
		if err != nil || r.Text != "hello" {
			t.Fatalf("Chat = %+v, %v", r, err)
		}
		want := chat.Request{Account: v.Account, Channel: conversation.ChannelWeb, ConversationID: visitor, CustomerName: "Ana", Message: "Hi"}
		if len(e.agent.sent) != 1 || e.agent.sent[0].Channel != want.Channel || e.agent.sent[0].ConversationID != want.ConversationID ||
			e.agent.sent[0].Message != want.Message || e.agent.sent[0].CustomerName != want.CustomerName {
			t.Fatalf("sent %+v, want %+v", e.agent.sent, want)
		}
		if got := conversation.ContactID(want.Channel, want.ConversationID); got != widget.ContactID(visitor) {
			t.Errorf("the conversation's contact would be %q, want %q", got, widget.ContactID(visitor))
		}
	})
	bad := []struct {
		name  string
		m     widgets.Message
		field string
	}{
		{"no visitor", widgets.Message{Text: "Hi"}, "visitor_id"},
		{"visitor not a uuid", widgets.Message{Visitor: "acct_b:conv", Text: "Hi"}, "visitor_id"},
		{"blank message", widgets.Message{Visitor: visitor, Text: " \u200b "}, "message"},
		{"name too long", widgets.Message{Visitor: visitor, Text: "Hi", CustomerName: strings.Repeat("n", conversation.MaxCustomerName+1)}, "customer_name"},
	}
	for _, tt := range bad {
		t.Run(tt.name+": refused before any limit or the agent", func(t *testing.T) {
			e := newEnv(t)
			_, err := e.svc.Chat(t.Context(), v, tt.m)
			wantCode(t, err, domain.CodeInvalidRequest, tt.field)
			if len(e.agent.sent) != 0 {
				t.Fatalf("the agent got %+v", e.agent.sent)
			}
		})
	}
	t.Run("over the visitor's limit: the agent gets nothing", func(t *testing.T) {
		e := newEnv(t)
		e.limiter.EXPECT().Allow(gomock.Any(), "visitor:acct_a:"+visitor, widgets.VisitorLimit).Return(ratelimit.Result{}, nil)
		_, err := e.svc.Chat(t.Context(), v, widgets.Message{Visitor: visitor, Text: "Hi"})
		wantCode(t, err, domain.CodeRateLimited, "")
		if len(e.agent.sent) != 0 {
			t.Fatalf("the agent got %+v", e.agent.sent)
		}
	})
	t.Run("an API conversation with the visitor's id is never joined", func(t *testing.T) {
		e := newEnv(t)
		e.limiter.EXPECT().Allow(gomock.Any(), gomock.Any(), gomock.Any()).Return(allowed, nil).Times(2)
		e.convs.EXPECT().Get(gomock.Any(), "acct_a", visitor).Return(conversation.Conversation{ID: visitor, Channel: conversation.ChannelAPI}, nil)
		_, err := e.svc.Chat(t.Context(), v, widgets.Message{Visitor: visitor, Text: "Hi"})
		wantCode(t, err, domain.CodeInvalidRequest, "visitor_id")
		if len(e.agent.sent) != 0 {
			t.Fatalf("the agent got %+v", e.agent.sent)
		}
	})
}

func TestMessages(t *testing.T) {
	v := widgets.Visit{Account: acct("pro")}
	tests := []struct {
		name   string
		thread *chat.Thread
		want   int // messages
	}{
		{"none yet: an empty web conversation", nil, 0},
		{"the visitor's", &chat.Thread{Conversation: conversation.Conversation{ID: visitor, Channel: conversation.ChannelWeb,
			ContactID: widget.ContactID(visitor)}, Messages: []conversation.Message{{ID: "msg_1"}, {ID: "msg_2"}}}, 2},
		{"another channel's: never shown", &chat.Thread{Conversation: conversation.Conversation{ID: visitor, Channel: conversation.ChannelAPI},
			Messages: []conversation.Message{{ID: "msg_1", Content: "secret"}}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if tt.thread != nil {
				e.agent.threads[visitor] = *tt.thread
			}
			e.limiter.EXPECT().Allow(gomock.Any(), "visitor:acct_a:"+visitor, widgets.VisitorLimit).Return(allowed, nil)
			got, err := e.svc.Messages(t.Context(), v, visitor)
			if err != nil || len(got.Messages) != tt.want || got.Conversation.Channel != conversation.ChannelWeb ||
				got.Conversation.ContactID != widget.ContactID(visitor) {
				t.Fatalf("Messages = %+v, %v; want %d messages of web:%s", got, err, tt.want, visitor)
			}
		})
	}
	t.Run("a visitor id that is not a uuid", func(t *testing.T) {
		e := newEnv(t)
		_, err := e.svc.Messages(t.Context(), v, "conv_1")
		wantCode(t, err, domain.CodeInvalidRequest, "visitor_id")
	})
}

func TestSettings(t *testing.T) {
	e := newEnv(t)
	a := acct("pro", "shop.test")
	e.widgets.EXPECT().Style(gomock.Any(), "acct_a").Return(widget.DefaultStyle, nil)
	got, err := e.svc.Settings(t.Context(), a, widgets.Query{Framework: "react", Lang: "pt-br", Position: "left"})
	if err != nil || got.Framework != widget.React || got.Lang != "pt-BR" || got.Position != "left" || got.Token != "wt_a" ||
		!strings.Contains(got.Code, `"data-lang", "pt-BR"`) || !strings.Contains(got.Code, `"https://svc.test/widget.js"`) {
		t.Fatalf("Settings = %+v, %v", got, err)
	}
	for _, q := range []struct {
		q     widgets.Query
		field string
	}{
		{widgets.Query{Framework: "jquery"}, "framework"},
		{widgets.Query{Lang: "fr"}, "lang"},
		{widgets.Query{Position: "top"}, "position"},
	} {
		_, err := e.svc.Settings(t.Context(), a, q.q)
		wantCode(t, err, domain.CodeInvalidRequest, q.field)
	}
}

func TestSetDomains(t *testing.T) {
	t.Run("normalised and saved", func(t *testing.T) {
		e := newEnv(t)
		stored := acct("pro")
		e.accts.EXPECT().Update(gomock.Any(), "acct_a", gomock.Any()).DoAndReturn(
			func(_ context.Context, _ string, fn func(*account.Account) error) error { return fn(&stored) })
		e.widgets.EXPECT().Style(gomock.Any(), "acct_a").Return(widget.DefaultStyle, nil)
		got, err := e.svc.SetDomains(t.Context(), acct("pro"), []string{"https://Shop.test/", "*.shop.test", "shop.test"})
		want := []string{"shop.test", "*.shop.test"}
		if err != nil || strings.Join(got.AllowedDomains, ",") != strings.Join(want, ",") || strings.Join(stored.AllowedDomains, ",") != strings.Join(want, ",") {
			t.Fatalf("SetDomains = %+v, %v; stored %q; want %q", got.AllowedDomains, err, stored.AllowedDomains, want)
		}
	})
	t.Run("a bad entry saves nothing", func(t *testing.T) {
		e := newEnv(t)
		_, err := e.svc.SetDomains(t.Context(), acct("pro"), []string{"shop.test", "not a host"})
		wantCode(t, err, domain.CodeInvalidRequest, "domains[1]")
	})
}

func TestPatchStyle(t *testing.T) {
	dark, left := "dark", "left"
	t.Run("applied over what is saved", func(t *testing.T) {
		e := newEnv(t)
		saved := widget.Style{Position: widget.Right, Theme: widget.Light, Accent: "#000000", Drag: false}
		e.widgets.EXPECT().UpdateStyle(gomock.Any(), "acct_a", gomock.Any()).DoAndReturn(
			func(_ context.Context, _ string, fn func(*widget.Style) error) (widget.Style, error) {
				err := fn(&saved)
				return saved, err
			})
		got, err := e.svc.PatchStyle(t.Context(), acct("pro"), widget.StylePatch{Theme: &dark, Position: &left})
		want := widget.Style{Position: widget.Left, Theme: widget.Dark, Accent: "#000000", Drag: false}
		if err != nil || got.Style != want {
			t.Fatalf("PatchStyle = %+v, %v; want %+v", got.Style, err, want)
		}
	})
	t.Run("a bad field saves nothing", func(t *testing.T) {
		e := newEnv(t)
		bad := "purple"
		_, err := e.svc.PatchStyle(t.Context(), acct("pro"), widget.StylePatch{Theme: &dark, Accent: &bad})
		wantCode(t, err, domain.CodeInvalidRequest, "accent")
	})
	t.Run("the store's failure is returned", func(t *testing.T) {
		e := newEnv(t)
		boom := errors.New("boom")
		e.widgets.EXPECT().UpdateStyle(gomock.Any(), "acct_a", gomock.Any()).Return(widget.Style{}, boom)
		if _, err := e.svc.PatchStyle(t.Context(), acct("pro"), widget.StylePatch{Theme: &dark}); !errors.Is(err, boom) {
			t.Fatalf("error %v, want the store's", err)
		}
	})
}
