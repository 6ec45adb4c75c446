package compat

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	appassistant "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/assistant"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/ports/mock"
)

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// fakeLedger holds interactions against a limit; a released hold's charge is taken back.
type fakeLedger struct {
	mu           sync.Mutex
	spent, limit int
	charges      []ledger.Charge // held and not released
	released     int
}

func (l *fakeLedger) Hold(_ context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cost, _ := ledger.Cost(action)
	u := ledger.Usage{Period: ledger.PeriodAt(testNow), Spent: l.spent, Limit: l.limit}
	if err := ledger.Check(u, cost); err != nil {
		return ledger.Hold{Usage: u}, err
	}
	l.spent += cost
	c := ledger.Charge{ID: fmt.Sprintf("chg_%d", l.spent), AccountID: acct.ID, Action: action, Cost: cost, Ref: ref, Labels: labels}
	l.charges = append(l.charges, c)
	u.Spent = l.spent
	return ledger.Hold{Charge: c, Usage: u}, nil
}

func (l *fakeLedger) Keep(context.Context, account.Account, ledger.Hold) error { return nil }

func (l *fakeLedger) Release(_ context.Context, h ledger.Hold) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, c := range l.charges {
		if c.ID == h.Charge.ID {
			l.charges = slices.Delete(l.charges, i, i+1)
			l.spent -= c.Cost
			l.released++
		}
	}
	return nil
}

type fakeProfiles struct{ p profile.Profile }

func (f fakeProfiles) Get(context.Context, string) (profile.Profile, error) { return f.p, nil }

type fakeBrain struct {
	hits  []knowledge.Hit
	asked []string
}

func (b *fakeBrain) SearchContext(_ context.Context, _ string, _ knowledge.State, query string, _, _ int) (hits, passages []knowledge.Hit, err error) {
	b.asked = append(b.asked, query)
	return b.hits, b.hits, nil
}

func (b *fakeBrain) State(context.Context, string) (knowledge.State, error) {
	return knowledge.State{BusinessSummary: "Bakery since 1962."}, nil
}

// words counts a token per word.
type words struct{}

func (words) Count(s string) int { return len(strings.Fields(s)) }
func (words) Truncate(s string, n int) (string, bool) {
	f := strings.Fields(s)
	if len(f) <= n {
		return s, false
	}
	return strings.Join(f[:n], " "), true
}
func (words) Decode(ids []int) (string, error) {
	var out []string
	for _, id := range ids {
		if id < 0 {
			return "", errors.New("bad token")
		}
		out = append(out, "w")
	}
	return strings.Join(out, " "), nil
}

type fixture struct {
	svc      *Service
	upstream *mock.MockChatModel
	engine   *mock.MockReplier
	embedder *mock.MockEmbedder
	ledger   *fakeLedger
	brain    *fakeBrain
	caller   Caller
	// records are the owner's records the owner's assistant (app/assistant, the real one) reads,
	// by type; it may save none (the mock has no Save).
	records    map[assistant.Type][]assistant.Record
	recordsErr error // what reading them fails with
}

var bakery = profile.Profile{BusinessName: "Padaria Lu", Languages: []string{"en"}, Channels: profile.AllOn,
	Contact: profile.Contact{Email: "lu@padaria.test"}}

func newFixture(t *testing.T, withUpstream bool) *fixture {
	ctrl := gomock.NewController(t)
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(testNow).AnyTimes()
	f := &fixture{
		upstream: mock.NewMockChatModel(ctrl),
		engine:   mock.NewMockReplier(ctrl),
		embedder: mock.NewMockEmbedder(ctrl),
		ledger:   &fakeLedger{limit: 100},
		brain:    &fakeBrain{hits: []knowledge.Hit{{Kind: knowledge.KindFAQ, FAQ: knowledge.FAQ{Question: "Gluten-free?", Answer: "Fridays."}}}},
		caller: Caller{Account: account.Account{ID: "acct_1", Plan: "starter"}, Labels: ledger.Labels{Source: "n8n", Workflow: "Orders"},
			Usage: ledger.Usage{Period: ledger.PeriodAt(testNow), Limit: 100}},
	}
	f.records = map[assistant.Type][]assistant.Record{}
	records := mock.NewMockRecords(ctrl)
	records.EXPECT().List(gomock.Any(), "acct_1", gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, _ string, t assistant.Type, limit int) ([]assistant.Record, int, error) {
			if f.recordsErr != nil {
				return nil, 0, f.recordsErr
			}
			rs := f.records[t]
			if limit > 0 && len(rs) > limit {
				return rs[:limit], len(rs), nil
			}
			return rs, len(rs), nil
		}).AnyTimes()
	owner := appassistant.New(appassistant.Deps{Records: records, Conversions: mock.NewMockConversions(ctrl),
		Conversations: mock.NewMockConversations(ctrl), Clock: clock}, appassistant.Options{})
	d := Deps{Engine: f.engine, Embedder: f.embedder, Tokens: words{}, Ledger: f.ledger, Profiles: fakeProfiles{bakery},
		Brain: f.brain, Owner: owner, Clock: clock}
	if withUpstream {
		d.Upstream = f.upstream
	}
	f.svc = New(d, Options{UpstreamModel: "gpt-test"})
	return f
}

func user(text string) model.Message { return model.Message{Role: model.RoleUser, Content: text} }

func reply(text string, usage model.Usage) model.Response {
	return model.Response{Message: model.Message{Role: model.RoleAssistant, Content: text}, FinishReason: model.FinishStop, Usage: usage}
}

func code(err error) domain.Code { return domain.ErrorCode(err) }

func TestCompletePassesTheConversationAsSent(t *testing.T) {
	f := newFixture(t, true)
	temp := 0.2
	req := model.Request{
		Messages: []model.Message{
			{Role: model.RoleSystem, Content: "Be terse."},
			{Role: model.RoleDeveloper, Content: "JSON when asked."},
			{Role: model.RoleUser, Parts: []model.Part{{Type: "text", Text: "What is this?"}, {Type: "image_url", ImageURL: "https://x.test/a.png"}}},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "look", Arguments: `{"q":"a"}`}}},
			{Role: model.RoleTool, ToolCallID: "call_1", Content: "a cat"},
		},
		Tools:       []model.Tool{{Name: "look", Parameters: []byte(`{"type":"object"}`)}},
		ToolChoice:  &model.ToolChoice{Mode: "auto"},
		Temperature: &temp,
		Stop:        []string{"END"},
		MaxTokens:   5000,
	}
	want := req
	want.Model, want.MaxTokens = "gpt-test", MaxReplyTokens
	f.upstream.EXPECT().Complete(gomock.Any(), want).Return(reply("A cat.", model.Usage{PromptTokens: 40, CompletionTokens: 3, TotalTokens: 43}), nil)

	r, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-1", Model: "gpt-4o", Request: req})
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != General || r.Message.Content != "A cat." || r.FinishReason != model.FinishStop || r.Usage.TotalTokens != 43 {
		t.Fatalf("reply %+v", r)
	}
	if r.Interactions.Spent != 1 || r.Interactions.Remaining() != 99 {
		t.Fatalf("interactions %+v", r.Interactions)
	}
	wantCharge := []ledger.Charge{{ID: "chg_1", AccountID: "acct_1", Action: ledger.ModelReply, Cost: 1, Ref: "chatcmpl-1", Labels: f.caller.Labels}}
	if !reflect.DeepEqual(f.ledger.charges, wantCharge) {
		t.Fatalf("charges %+v", f.ledger.charges)
	}
}

func TestCompleteMaxTokens(t *testing.T) {
	for asked, want := range map[int]int{0: 2000, 100: 100, 2000: 2000, 2001: 2000} {
		f := newFixture(t, true)
		f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, req model.Request) (model.Response, error) {
			if req.MaxTokens != want {
				t.Errorf("asked %d: sent %d, want %d", asked, req.MaxTokens, want)
			}
			return reply("ok", model.Usage{PromptTokens: 1, CompletionTokens: 1}), nil
		})
		if _, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: model.Request{Messages: []model.Message{user("hi")}, MaxTokens: asked}}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCompleteFailuresChargeNothing(t *testing.T) {
	images := make([]model.Part, 5)
	for i := range images {
		images[i] = model.Part{Type: "image_url", ImageURL: "data:image/png;base64,AAAA"}
	}
	long := strings.Repeat("x", 33000)
	tests := []struct {
		name     string
		upstream bool
		model    string
		req      model.Request
		spent    int
		call     func(f *fixture)
		code     domain.Code
		param    string
		message  string
	}{
		{name: "no messages", upstream: true, code: domain.CodeInvalidRequest, param: "messages"},
		{name: "five images", upstream: true, req: model.Request{Messages: []model.Message{{Role: "user", Parts: images}}},
			code: domain.CodeInvalidRequest, param: "messages"},
		{name: "http image", upstream: true, req: model.Request{Messages: []model.Message{{Role: "user", Parts: []model.Part{{Type: "image_url", ImageURL: "http://x.test/a.png"}}}}},
			code: domain.CodeInvalidRequest, param: "messages[0].content[0].image_url.url"},
		{name: "33,000 characters", upstream: true, req: model.Request{Messages: []model.Message{user(long)}},
			code: domain.CodeInputTooLarge, param: "messages"},
		{name: "tools past the limit", upstream: true, req: model.Request{Messages: []model.Message{user(long[:31000])},
			Tools: []model.Tool{{Name: "f", Description: long[:2000]}}}, code: domain.CodeInputTooLarge, param: "tools"},
		{name: "tool-call arguments count", upstream: true, req: model.Request{Messages: []model.Message{user("hi"),
			{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "c", Name: "f", Arguments: long}}}}}, code: domain.CodeInputTooLarge, param: "messages"},
		{name: "unknown role", upstream: true, req: model.Request{Messages: []model.Message{{Role: "function", Content: "x"}}},
			code: domain.CodeInvalidRequest, param: "messages[0].role"},
		{name: "bad schema", upstream: true, req: model.Request{Messages: []model.Message{user("hi")},
			ResponseFormat: &model.ResponseFormat{Type: "json_schema", Schema: []byte(`{"type":"nope"}`), Strict: true}},
			code: domain.CodeInvalidRequest, param: "response_format.schema"},
		{name: "schema reference to a file", upstream: true, req: model.Request{Messages: []model.Message{user("hi")},
			ResponseFormat: &model.ResponseFormat{Type: "json_schema", Schema: []byte(`{"$ref":"file:///etc/passwd"}`), Strict: true}},
			code: domain.CodeInvalidRequest, param: "response_format.schema"},
		{name: "svc without upstream", req: model.Request{Messages: []model.Message{user("hi")}},
			code: domain.CodeModelUnavailable, message: "SVC_MODEL_BASE_URL"},
		{name: "nothing left", upstream: true, spent: 100, req: model.Request{Messages: []model.Message{user("hi")}},
			code: domain.CodeInteractionLimitReached},
		{name: "used up since the key was checked", upstream: true, req: model.Request{Messages: []model.Message{user("hi")}},
			call: func(f *fixture) {
				f.ledger.spent = f.ledger.limit // other requests spent the rest; the caller's usage is older
				f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).DoAndReturn(func(ctx context.Context, _ model.Request) (model.Response, error) {
					<-ctx.Done() // the refused hold stops the upstream call
					return model.Response{}, ctx.Err()
				}).MaxTimes(1)
			}, code: domain.CodeInteractionLimitReached},
		{name: "upstream fails", upstream: true, req: model.Request{Messages: []model.Message{user("hi")}},
			call: func(f *fixture) {
				f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(model.Response{}, domain.Errorf(domain.CodeModelUnavailable, "down"))
			}, code: domain.CodeModelUnavailable},
		{name: "content filter", upstream: true, req: model.Request{Messages: []model.Message{user("hi")}},
			call: func(f *fixture) {
				f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(model.Response{}, domain.Errorf(domain.CodeContentPolicy, "refused"))
			}, code: domain.CodeContentPolicy},
		{name: "assistant: JSON without upstream", model: Assistant, req: model.Request{Messages: []model.Message{user("hi")},
			ResponseFormat: &model.ResponseFormat{Type: "json_object"}}, code: domain.CodeInvalidRequest, param: "response_format"},
		{name: "assistant: no user text", model: Assistant, req: model.Request{Messages: []model.Message{{Role: "system", Content: "x"}}},
			code: domain.CodeInvalidRequest, param: "messages"},
	}
	for _, tt := range tests {
		for _, early := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, early hold %t", tt.name, early), func(t *testing.T) {
				f := newFixture(t, tt.upstream)
				f.ledger.spent = tt.spent
				f.caller.Usage.Spent = tt.spent
				if tt.call != nil {
					tt.call(f)
				}
				if early {
					f.caller.Early = f.svc.HoldEarly(t.Context(), f.caller, ledger.ModelReply, "chatcmpl-x")
				}
				_, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-x", Model: tt.model, Request: tt.req})
				if derr := f.svc.Drop(t.Context(), f.caller.Early); derr != nil {
					t.Fatalf("Drop: %v", derr)
				}
				e, ok := domain.AsError(err)
				if !ok || e.Code != tt.code || e.Field != tt.param || !strings.Contains(e.Message, tt.message) {
					t.Fatalf("err %v; want %s %q", err, tt.code, tt.param)
				}
				if len(f.ledger.charges) != 0 || f.ledger.spent != tt.spent && tt.call == nil {
					t.Fatalf("charged %+v, spent %d", f.ledger.charges, f.ledger.spent)
				}
			})
		}
	}
}

// TestHoldEarly checks the interaction held before the request is read (HoldEarly): the reply
// with its reference takes it and is charged once; another reply holds its own, and Drop gives
// the early one back; an account with nothing left gets none.
func TestHoldEarly(t *testing.T) {
	ok := reply("ok", model.Usage{PromptTokens: 1, CompletionTokens: 1})
	for _, tt := range []struct {
		name, id string // the reply's id (the early hold's reference is chatcmpl-e)
		released int
		spent    int // the interactions the reply reports: another reply's counts the early hold, still held
	}{
		{"taken by its reply", "chatcmpl-e", 0, 1},
		{"another reply holds its own", "chatcmpl-other", 1, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, true)
			f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(ok, nil)
			f.caller.Early = f.svc.HoldEarly(t.Context(), f.caller, ledger.ModelReply, "chatcmpl-e")
			<-f.caller.Early.h.done // the early hold made first, whatever the goroutines' order
			r, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: tt.id, Request: model.Request{Messages: []model.Message{user("hi")}}})
			if err != nil || r.ID != tt.id || r.Interactions.Spent != tt.spent {
				t.Fatalf("Complete = %+v, %v", r, err)
			}
			if err := f.svc.Drop(t.Context(), f.caller.Early); err != nil {
				t.Fatal(err)
			}
			if len(f.ledger.charges) != 1 || f.ledger.charges[0].Ref != tt.id || f.ledger.released != tt.released {
				t.Fatalf("charges %+v, released %d; want the reply's charge only, %d released", f.ledger.charges, f.ledger.released, tt.released)
			}
		})
	}
	t.Run("none with nothing left", func(t *testing.T) {
		f := newFixture(t, true)
		f.caller.Usage.Spent = f.caller.Usage.Limit
		if e := f.svc.HoldEarly(t.Context(), f.caller, ledger.ModelReply, "chatcmpl-e"); e != nil || f.ledger.spent != 0 {
			t.Fatalf("HoldEarly = %+v, spent %d; want none", e, f.ledger.spent)
		}
	})
	t.Run("none with an in-process ledger", func(t *testing.T) {
		f := newFixture(t, true)
		f.svc.d.Ledger = inProcessLedger{f.ledger}
		if e := f.svc.HoldEarly(t.Context(), f.caller, ledger.ModelReply, "chatcmpl-e"); e != nil {
			t.Fatalf("HoldEarly = %+v; want none (held inline by the reply)", e)
		}
	})
}

func TestStrictJSONSchema(t *testing.T) {
	schema := []byte(`{"type":"object","required":["city"],"additionalProperties":false,"properties":{"city":{"type":"string"}}}`)
	req := model.Request{Messages: []model.Message{user("where?")}, ResponseFormat: &model.ResponseFormat{Type: "json_schema", Name: "place", Schema: schema, Strict: true}}
	t.Run("a second try that fits", func(t *testing.T) {
		f := newFixture(t, true)
		gomock.InOrder(
			f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(reply(`{"town":"Lisbon"}`, model.Usage{}), nil),
			f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(reply(`{"city":"Lisbon"}`, model.Usage{}), nil),
		)
		r, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: req})
		if err != nil || r.Message.Content != `{"city":"Lisbon"}` || len(f.ledger.charges) != 1 {
			t.Fatalf("%+v, %v, %d charges", r, err, len(f.ledger.charges))
		}
	})
	t.Run("never fits", func(t *testing.T) {
		f := newFixture(t, true)
		f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(reply(`{"city":7}`, model.Usage{}), nil).Times(2)
		_, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: req})
		if code(err) != domain.CodeModelUnavailable || !strings.Contains(err.Error(), "/city") || len(f.ledger.charges) != 0 {
			t.Fatalf("err %v, charges %d", err, len(f.ledger.charges))
		}
	})
	t.Run("json_object needs an object", func(t *testing.T) {
		f := newFixture(t, true)
		f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(reply(`not json`, model.Usage{}), nil).Times(2)
		_, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: model.Request{Messages: []model.Message{user("x")},
			ResponseFormat: &model.ResponseFormat{Type: "json_object"}}})
		if code(err) != domain.CodeModelUnavailable {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a reply cut at the limit is passed on", func(t *testing.T) {
		f := newFixture(t, true)
		cut := reply(`{"city":"Lis`, model.Usage{})
		cut.FinishReason = model.FinishLength
		f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(cut, nil)
		r, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: req})
		if err != nil || r.FinishReason != model.FinishLength {
			t.Fatalf("%+v, %v", r, err)
		}
	})
}

func TestTokensCountedWhenTheUpstreamGivesNone(t *testing.T) {
	f := newFixture(t, true)
	resp := reply("one two three", model.Usage{})
	resp.Message.ToolCalls = []model.ToolCall{{Name: "f", Arguments: "{}"}}
	resp.FinishReason = ""
	f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(resp, nil)
	r, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: model.Request{Messages: []model.Message{user("a b c d")},
		Tools: []model.Tool{{Name: "f"}}}})
	if err != nil {
		t.Fatal(err)
	}
	// 3 + (3 + role 1 + 4 words) + tool name 1 = 12; the reply: 3 words + name 1 + arguments 1.
	if r.Usage != (model.Usage{PromptTokens: 12, CompletionTokens: 5, TotalTokens: 17}) {
		t.Fatalf("usage %+v", r.Usage)
	}
	if r.FinishReason != model.FinishToolCalls || !strings.HasPrefix(r.Message.ToolCalls[0].ID, "call_") {
		t.Fatalf("reply %+v", r)
	}
}

func TestAssistantWithUpstream(t *testing.T) {
	f := newFixture(t, true)
	f.records[assistant.Task] = ownerTasks
	f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, req model.Request) (model.Response, error) {
		if len(req.Tools) != 0 || req.ToolChoice != nil {
			t.Errorf("tools sent: %+v", req.Tools)
		}
		sys := req.Messages[0]
		if sys.Role != model.RoleSystem || !strings.Contains(sys.Content, "Padaria Lu") || !strings.Contains(sys.Content, "Fridays.") ||
			!strings.Contains(sys.Content, "Bakery since 1962.") || !strings.Contains(sys.Content, "lu@padaria.test") {
			t.Errorf("system prompt %q", sys.Content)
		}
		// What the owner's assistant tells its model of the owner's records, with the answer-only rules.
		if !strings.Contains(sys.Content, "The owner's latest records:\ntask (2):\n- Order flour from the mill") ||
			!strings.Contains(sys.Content, "Fix the oven door") || !strings.Contains(sys.Content, "You only answer.") {
			t.Errorf("system prompt %q lacks the owner's records or the answer-only rules", sys.Content)
		}
		rest := req.Messages[1:]
		if len(rest) != 2 || rest[0].Content != "hello" || rest[1].Content != "gluten-free bread?" {
			t.Errorf("messages %+v", rest)
		}
		return reply("On Fridays.", model.Usage{PromptTokens: 100, CompletionTokens: 3}), nil
	})
	req := model.Request{Messages: []model.Message{user("hello"),
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "x"}}},
		{Role: model.RoleTool, ToolCallID: "c1", Content: "result"},
		user("gluten-free bread?")},
		Tools: []model.Tool{{Name: "x"}}}
	r, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-a", Model: Assistant, Request: req})
	if err != nil || r.Model != Assistant || r.Message.Content != "On Fridays." || len(f.ledger.charges) != 1 {
		t.Fatalf("%+v, %v", r, err)
	}
	if !reflect.DeepEqual(f.brain.asked, []string{"gluten-free bread?"}) {
		t.Fatalf("searched %v", f.brain.asked)
	}
}

// TestAssistantAnswersOnly: svc-assistant calls no tools (spec 4.8), so tool calls an upstream
// makes anyway never reach the caller, whole or streamed; a reply of tool calls alone is asked
// for once more, then answers 503 model_unavailable and costs nothing.
func TestAssistantAnswersOnly(t *testing.T) {
	call := model.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Lisbon"}`}
	withCall := func(text string) model.Response {
		return model.Response{Message: model.Message{Role: model.RoleAssistant, Content: text, ToolCalls: []model.ToolCall{call}},
			FinishReason: model.FinishToolCalls, Usage: model.Usage{PromptTokens: 9, CompletionTokens: 4}}
	}
	asked := Chat{ID: "chatcmpl-a", Model: Assistant, Request: model.Request{Messages: []model.Message{user("weather in Lisbon?")},
		Tools: []model.Tool{{Name: "get_weather"}}}}

	f := newFixture(t, true)
	f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(withCall("We open at seven."), nil)
	r, err := f.svc.Complete(t.Context(), f.caller, asked)
	if err != nil || len(r.Message.ToolCalls) != 0 || r.FinishReason != model.FinishStop || r.Message.Content != "We open at seven." ||
		len(f.ledger.charges) != 1 {
		t.Fatalf("text and a tool call: %+v, %v", r, err)
	}

	f = newFixture(t, true)
	f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(withCall(""), nil).Times(2)
	if _, err = f.svc.Complete(t.Context(), f.caller, asked); code(err) != domain.CodeModelUnavailable || len(f.ledger.charges) != 0 {
		t.Fatalf("tool calls alone: %v, charges %d", err, len(f.ledger.charges))
	}

	f = newFixture(t, true)
	f.upstream.EXPECT().Stream(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, _ model.Request, fn func(model.Chunk) error) (model.Response, error) {
			for _, ch := range []model.Chunk{
				{Content: "We open "},
				{ToolCalls: []model.ToolCallDelta{{Index: 0, ID: "call_1", Name: "get_weather", Arguments: `{"city":"Lisbon"}`}}},
				{Content: "at seven."},
			} {
				if err := fn(ch); err != nil {
					return model.Response{}, err
				}
			}
			return withCall("We open at seven."), nil
		})
	var got []model.Chunk
	r, err = f.svc.Stream(t.Context(), f.caller, asked, func(ch model.Chunk) error {
		got = append(got, ch)
		return nil
	})
	if err != nil || len(got) != 2 || len(got[0].ToolCalls)+len(got[1].ToolCalls) != 0 || len(r.Message.ToolCalls) != 0 ||
		r.FinishReason != model.FinishStop {
		t.Fatalf("stream: pieces %+v, reply %+v, %v", got, r, err)
	}
}

func TestAssistantBuiltInEngine(t *testing.T) {
	f := newFixture(t, false)
	f.engine.EXPECT().Reply(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, turn conversation.Turn) (conversation.Draft, error) {
		if turn.Message != "delivery?" || turn.Profile.BusinessName != "Padaria Lu" || len(turn.Hits) != 1 ||
			len(turn.History) != 2 || turn.History[0].Role != conversation.RoleCustomer || turn.History[1].Role != conversation.RoleAgent {
			t.Errorf("turn %+v", turn)
		}
		return conversation.Draft{Text: "We deliver before ten.\n\n[OPEN:https://padaria.test/delivery]"}, nil
	})
	req := model.Request{Messages: []model.Message{user("hi"), {Role: model.RoleAssistant, Content: "Hello!"}, user("delivery?")}}
	r, err := f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-e", Model: Assistant, Request: req})
	if err != nil {
		t.Fatal(err)
	}
	if r.Message.Content != "We deliver before ten.\n\nhttps://padaria.test/delivery" || r.FinishReason != model.FinishStop {
		t.Fatalf("reply %q %s", r.Message.Content, r.FinishReason)
	}
	if r.Usage.CompletionTokens != 5 || r.Usage.PromptTokens == 0 || r.Usage.TotalTokens != r.Usage.PromptTokens+5 {
		t.Fatalf("usage %+v", r.Usage)
	}

	f.engine.EXPECT().Reply(gomock.Any(), gomock.Any()).Return(conversation.Draft{Text: "one two three four"}, nil)
	req.MaxTokens = 2
	r, err = f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: req})
	if err != nil || r.Message.Content != "one two" || r.FinishReason != model.FinishLength {
		t.Fatalf("cut reply %+v, %v", r, err)
	}
}

func TestAssistantNeedsTheAgent(t *testing.T) {
	f := newFixture(t, true)
	f.svc.d.Profiles = fakeProfiles{profile.Default("acct_1")}
	_, err := f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user("hi")}}})
	if code(err) != domain.CodeAgentNotConfigured {
		t.Fatalf("err %v", err)
	}
	off := bakery
	off.Channels.API = false
	f.svc.d.Profiles = fakeProfiles{off}
	_, err = f.svc.Complete(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user("hi")}}})
	if code(err) != domain.CodeAgentUnavailable {
		t.Fatalf("err %v", err)
	}
}

func TestStream(t *testing.T) {
	f := newFixture(t, true)
	f.upstream.EXPECT().Stream(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, _ model.Request, fn func(model.Chunk) error) (model.Response, error) {
			for _, ch := range []model.Chunk{
				{Content: "Let me look."},
				{ToolCalls: []model.ToolCallDelta{{Index: 0, Name: "look", Arguments: `{"q":`}}},
				{ToolCalls: []model.ToolCallDelta{{Index: 0, Arguments: `"a"}`}}},
				{FinishReason: model.FinishToolCalls},
				{Usage: &model.Usage{PromptTokens: 9, CompletionTokens: 8, TotalTokens: 17}},
			} {
				if err := fn(ch); err != nil {
					return model.Response{}, err
				}
			}
			return model.Response{Message: model.Message{Role: "assistant", Content: "Let me look.",
				ToolCalls: []model.ToolCall{{Name: "look", Arguments: `{"q":"a"}`}}},
				FinishReason: model.FinishToolCalls, Usage: model.Usage{PromptTokens: 9, CompletionTokens: 8, TotalTokens: 17}}, nil
		})
	var got []model.Chunk
	r, err := f.svc.Stream(t.Context(), f.caller, Chat{ID: "chatcmpl-s", Request: model.Request{Messages: []model.Message{user("hi")},
		Tools: []model.Tool{{Name: "look"}}}}, func(ch model.Chunk) error {
		got = append(got, ch)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Content != "Let me look." || got[2].ToolCalls[0].ID != "" {
		t.Fatalf("pieces %+v", got)
	}
	id := got[1].ToolCalls[0].ID
	if !strings.HasPrefix(id, "call_") || r.Message.ToolCalls[0].ID != id {
		t.Fatalf("call id %q, reply %+v", id, r.Message.ToolCalls)
	}
	if r.FinishReason != model.FinishToolCalls || r.Usage.TotalTokens != 17 || len(f.ledger.charges) != 1 {
		t.Fatalf("reply %+v, charges %d", r, len(f.ledger.charges))
	}
}

func TestStreamOffTheSchemaIsNotCharged(t *testing.T) {
	f := newFixture(t, true)
	f.upstream.EXPECT().Stream(gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, _ model.Request, fn func(model.Chunk) error) (model.Response, error) {
			_ = fn(model.Chunk{Content: "nope"})
			return reply("nope", model.Usage{}), nil
		})
	_, err := f.svc.Stream(t.Context(), f.caller, Chat{Request: model.Request{Messages: []model.Message{user("hi")},
		ResponseFormat: &model.ResponseFormat{Type: "json_object"}}}, func(model.Chunk) error { return nil })
	if code(err) != domain.CodeModelUnavailable || len(f.ledger.charges) != 0 {
		t.Fatalf("err %v, charges %d", err, len(f.ledger.charges))
	}
}

func TestStreamBuiltInEngine(t *testing.T) {
	f := newFixture(t, false)
	f.engine.EXPECT().Reply(gomock.Any(), gomock.Any()).Return(conversation.Draft{Text: "We open at seven."}, nil)
	var pieces []string
	r, err := f.svc.Stream(t.Context(), f.caller, Chat{Model: Assistant, Request: model.Request{Messages: []model.Message{user("hours?")}}},
		func(ch model.Chunk) error { pieces = append(pieces, ch.Content); return nil })
	if err != nil || strings.Join(pieces, "") != "We open at seven." || len(pieces) != 4 || r.Message.Content != "We open at seven." {
		t.Fatalf("pieces %q, %v", pieces, err)
	}
}

func TestEmbed(t *testing.T) {
	f := newFixture(t, false)
	f.embedder.EXPECT().Embed(gomock.Any(), []string{"a b", "c"}, 8).Return([][]float32{{1}, {2}}, nil)
	v, err := f.svc.Embed(t.Context(), f.caller, Embed{Texts: []string{"a b", "c"}, Dimensions: 8})
	if err != nil || len(v.Vectors) != 2 || v.Tokens != 3 || v.Interactions.Spent != 1 {
		t.Fatalf("%+v, %v", v, err)
	}
	if c := f.ledger.charges; len(c) != 1 || c[0].Action != ledger.Embeddings || c[0].Labels != f.caller.Labels {
		t.Fatalf("charges %+v", c)
	}
	f.embedder.EXPECT().Embed(gomock.Any(), []string{"w w"}, 0).Return([][]float32{{1}}, nil)
	if _, err := f.svc.Embed(t.Context(), f.caller, Embed{Tokens: [][]int{{1, 2}}}); err != nil {
		t.Fatal(err)
	}

	tooMany := make([]string, 257)
	for i := range tooMany {
		tooMany[i] = "x"
	}
	for _, tt := range []struct {
		name  string
		e     Embed
		code  domain.Code
		param string
	}{
		{"257 texts", Embed{Texts: tooMany}, domain.CodeInvalidRequest, "input"}, // a count, not characters of text (spec part 7)
		{"257 token lists", Embed{Tokens: make([][]int, 257)}, domain.CodeInvalidRequest, "input"},
		{"32,001 characters", Embed{Texts: []string{strings.Repeat("x", 16001), strings.Repeat("y", 16000)}}, domain.CodeInputTooLarge, "input"},
		{"no input", Embed{}, domain.CodeInvalidRequest, "input"},
		{"an empty text", Embed{Texts: []string{"a", ""}}, domain.CodeInvalidRequest, "input[1]"},
		{"bad tokens", Embed{Tokens: [][]int{{-1}}}, domain.CodeInvalidRequest, "input[0]"},
		{"negative dimensions", Embed{Texts: []string{"a"}, Dimensions: -1}, domain.CodeInvalidRequest, "dimensions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Embed(t.Context(), f.caller, tt.e)
			if e, ok := domain.AsError(err); !ok || e.Code != tt.code || e.Field != tt.param {
				t.Fatalf("err %v", err)
			}
		})
	}
	f.ledger.spent = f.ledger.limit
	f.caller.Usage.Spent = f.ledger.limit
	if _, err := f.svc.Embed(t.Context(), f.caller, Embed{Texts: []string{"a"}}); code(err) != domain.CodeInteractionLimitReached {
		t.Fatalf("err %v", err)
	}
	if len(f.ledger.charges) != 2 {
		t.Fatalf("charges %d", len(f.ledger.charges))
	}
}

func TestStatement(t *testing.T) {
	ctrl := gomock.NewController(t)
	usage := mock.NewMockUsage(ctrl)
	f := newFixture(t, false)
	f.svc.d.Usage = usage
	nov := ledger.PeriodAt(testNow)
	lines := []ledger.Line{{Action: ledger.ModelReply, Labels: ledger.Labels{Source: "n8n"}, Requests: 3, Interactions: 3},
		{Action: ledger.Embeddings, Requests: 2, Interactions: 2}}
	usage.EXPECT().Statement(gomock.Any(), "acct_1", nov.Start, nov.End).Return(lines, nil)
	st, err := f.svc.Statement(t.Context(), f.caller.Account, time.Time{}, time.Time{})
	if err != nil || st.Total != 5 || !st.From.Equal(nov.Start) || !st.To.Equal(nov.End) {
		t.Fatalf("%+v, %v", st, err)
	}
	oct := time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC)
	usage.EXPECT().Statement(gomock.Any(), "acct_1", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), oct).Return(nil, nil)
	if _, err := f.svc.Statement(t.Context(), f.caller.Account, time.Time{}, oct); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Statement(t.Context(), f.caller.Account, oct, oct); code(err) != domain.CodeInvalidRequest {
		t.Fatalf("err %v", err)
	}
}

// TestPanicGivesTheHoldBack checks that a reply whose making panics gives its interaction back
// and lets the panic go on.
func TestPanicGivesTheHoldBack(t *testing.T) {
	f := newFixture(t, true)
	f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).DoAndReturn(func(context.Context, model.Request) (model.Response, error) {
		panic("upstream adapter bug")
	})
	func() {
		defer func() {
			if r := recover(); r != "upstream adapter bug" {
				t.Errorf("recovered %v; want the upstream's panic", r)
			}
		}()
		_, _ = f.svc.Complete(t.Context(), f.caller, Chat{ID: "chatcmpl-p", Request: model.Request{Messages: []model.Message{user("hi")}}})
	}()
	if len(f.ledger.charges) != 0 || f.ledger.released != 1 {
		t.Fatalf("charges %+v, released %d; want the hold given back", f.ledger.charges, f.ledger.released)
	}
}

// inProcessLedger is a ledger whose store answers in this process (ports.InProcess).
type inProcessLedger struct{ *fakeLedger }

func (inProcessLedger) InProcess() bool { return true }

// TestHoldInline checks the hold made inline when the ledger is in this process: a reply is
// charged once, and with nothing left the upstream is never asked (the mock fails on a call).
func TestHoldInline(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spent int
		code  domain.Code
		want  int
	}{
		{"room left", 0, "", 1},
		{"nothing left", 100, domain.CodeInteractionLimitReached, 100},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, true)
			f.ledger.spent = tt.spent
			f.svc.d.Ledger = inProcessLedger{f.ledger}
			if tt.code == "" {
				f.upstream.EXPECT().Complete(gomock.Any(), gomock.Any()).Return(reply("ok", model.Usage{PromptTokens: 1, CompletionTokens: 1}), nil)
			}
			_, err := f.svc.Complete(t.Context(), f.caller, Chat{Request: model.Request{Messages: []model.Message{user("hi")}}})
			if code(err) != tt.code || (tt.code == "" && err != nil) || f.ledger.spent != tt.want {
				t.Errorf("Complete = %v (code %q), spent %d; want code %q, spent %d", err, code(err), f.ledger.spent, tt.code, tt.want)
			}
		})
	}
}
