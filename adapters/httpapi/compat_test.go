package httpapi

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/adapters/apijson"
	"github.com/svcagent/svc/app/accounts"
	appassistant "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/app/compat"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/conversation"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/ledger"
	"github.com/svcagent/svc/domain/model"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/ports"
	"github.com/svcagent/svc/ports/mock"
)

// fakeLedger records the charges the model endpoints make.
type fakeLedger struct {
	mu      sync.Mutex
	spent   int
	limit   int
	held    int // holds made, released or not
	charges []ledger.Charge
}

func (l *fakeLedger) Hold(_ context.Context, acct account.Account, action ledger.Action, ref string, labels ledger.Labels) (ledger.Hold, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spent >= l.limit {
		return ledger.Hold{Usage: ledger.Usage{Spent: l.spent, Limit: l.limit}}, ledger.LimitReached()
	}
	l.spent++
	l.held++
	c := ledger.Charge{ID: fmt.Sprint("chg_", l.held), AccountID: acct.ID, Action: action, Cost: 1, Ref: ref, Labels: labels}
	l.charges = append(l.charges, c)
	return ledger.Hold{Charge: c, Usage: ledger.Usage{Spent: l.spent, Limit: l.limit}}, nil
}

func (l *fakeLedger) Keep(context.Context, account.Account, ledger.Hold) error { return nil }

func (l *fakeLedger) Release(_ context.Context, h ledger.Hold) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.charges = slices.DeleteFunc(l.charges, func(c ledger.Charge) bool { return c.ID == h.Charge.ID })
	l.spent = len(l.charges)
	return nil
}

func (l *fakeLedger) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.charges)
}

// fakeProfiles answers p, or (p nil) a configured agent with every channel on.
type fakeProfiles struct{ p *profile.Profile }

func (f *fakeProfiles) Get(context.Context, string) (profile.Profile, error) {
	if f.p != nil {
		return *f.p, nil
	}
	return profile.Profile{BusinessName: "Padaria Lu", Channels: profile.AllOn}, nil
}

type fakeBrain struct{}

func (fakeBrain) SearchContext(context.Context, string, knowledge.State, string, int, int) (hits, passages []knowledge.Hit, err error) {
	return nil, nil, nil
}
func (fakeBrain) State(context.Context, string) (knowledge.State, error) {
	return knowledge.State{}, nil
}

// words counts a token per word.
type words struct{}

func (words) Count(s string) int                      { return len(strings.Fields(s)) }
func (words) Truncate(s string, n int) (string, bool) { return s, false }
func (words) Decode(ids []int) (string, error)        { return strings.Repeat("w ", len(ids)), nil }

// upstream is a scripted model: complete answers Complete; stream sends its chunks one by one,
// each after the matching gate (when set) is closed.
type upstream struct {
	complete model.Response
	err      error
	chunks   []model.Chunk
	gates    map[int]chan struct{}
	calls    int
	last     model.Request
}

func (u *upstream) Complete(_ context.Context, req model.Request) (model.Response, error) {
	u.calls++
	u.last = req
	return u.complete, u.err
}

func (u *upstream) Stream(ctx context.Context, req model.Request, fn func(model.Chunk) error) (model.Response, error) {
	u.calls++
	u.last = req
	for i, ch := range u.chunks {
		if g := u.gates[i]; g != nil {
			select {
			case <-g:
			case <-ctx.Done():
				return model.Response{}, ctx.Err()
			case <-time.After(5 * time.Second):
				return model.Response{}, fmt.Errorf("gate %d never opened", i)
			}
		}
		if err := fn(ch); err != nil {
			return model.Response{}, err
		}
	}
	if u.err != nil {
		return model.Response{}, u.err
	}
	return u.complete, nil
}

type embedder struct{}

func (embedder) Embed(_ context.Context, texts []string, dims int) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		out[i] = []float32{float32(i) + 0.5, -1.25, 1e-7}
	}
	return out, nil
}

type modelFixture struct {
	s        *Server
	d        deps
	ledger   *fakeLedger
	up       *upstream
	profiles *fakeProfiles
}

func newModelServer(t *testing.T, withUpstream bool) modelFixture {
	return newLimitedModelServer(t, withUpstream, func(ratelimit.Check) bool { return true })
}

// newLimitedModelServer is newModelServer with a limiter that lets in the checks allow lets in.
func newLimitedModelServer(t *testing.T, withUpstream bool, allow func(ratelimit.Check) bool) modelFixture {
	s, d := newTestServer(t)
	s.opts.MaxBodyBytes = 1 << 20
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: account.Account{ID: "acct_1", Status: account.Active, Plan: "starter"}}, nil).AnyTimes()
	d.limiter.EXPECT().Allow(gomock.Any(), gomock.Any(), gomock.Any()).Return(ratelimit.Result{Allowed: true, Remaining: 10}, nil).AnyTimes()
	d.limiter.EXPECT().AllowAll(gomock.Any(), gomock.Any()).DoAndReturn(func(_ context.Context, checks []ratelimit.Check) ([]ratelimit.Result, error) {
		out := make([]ratelimit.Result, len(checks))
		for i := range out {
			out[i] = ratelimit.Result{Allowed: true, Remaining: 10}
			if !allow(checks[i]) {
				out[i] = ratelimit.Result{RetryAfter: time.Second}
			}
		}
		return out, nil
	}).AnyTimes()
	f := modelFixture{s: s, d: d, ledger: &fakeLedger{limit: 10}, up: &upstream{}, profiles: &fakeProfiles{}}
	ctrl := gomock.NewController(t)
	clock := mock.NewMockClock(ctrl)
	clock.EXPECT().Now().Return(testNow).AnyTimes()
	engine := mock.NewMockReplier(ctrl)
	engine.EXPECT().Reply(gomock.Any(), gomock.Any()).Return(conversation.Draft{Text: "We open at seven."}, nil).AnyTimes()
	records := mock.NewMockRecords(ctrl) // the owner has no records
	records.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, 0, nil).AnyTimes()
	owner := appassistant.New(appassistant.Deps{Records: records, Clock: clock}, appassistant.Options{})
	deps := compat.Deps{Engine: engine, Embedder: embedder{}, Tokens: words{}, Ledger: f.ledger, Profiles: f.profiles,
		Brain: fakeBrain{}, Usage: d.usage, Clock: clock, Owner: owner}
	if withUpstream {
		deps.Upstream = f.up
	}
	s.uc.Compat = compat.New(deps, compat.Options{UpstreamModel: "gpt-test"})
	return f
}

var auth = map[string]string{"Authorization": "Bearer " + testKey, "Content-Type": "application/json"}

func decodeBody(t *testing.T, rec *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	return v
}

func TestModelEndpointErrors(t *testing.T) {
	image := `{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}`
	images := strings.TrimSuffix(strings.Repeat(image+",", 5), ",")
	texts := make([]string, 257)
	for i := range texts {
		texts[i] = `"x"`
	}
	long := strings.Repeat("x", 33000)
	tests := []struct {
		name, path, body string
		upstream         bool
		status           int
		code             domain.Code
		param            string
	}{
		{"n 2", "/v1/chat/completions", `{"model":"svc","n":2,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "n"},
		{"stream_options without stream", "/v1/chat/completions", `{"model":"svc","stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "stream_options"},
		{"stream_options with stream false", "/v1/chat/completions", `{"model":"svc","stream":false,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "stream_options"},
		{"a user message without content", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user"}]}`, true, 400, domain.CodeInvalidRequest, "messages[0].content"},
		{"a user message of content null", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"system","content":"be brief"},{"role":"user","content":null}]}`, true, 400, domain.CodeInvalidRequest, "messages[1].content"},
		{"a tool message without content", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1"}]}`, true, 400, domain.CodeInvalidRequest, "messages[2].content"},
		{"functions", "/v1/chat/completions", `{"model":"svc","functions":[{"name":"f"}],"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "functions"},
		{"function_call", "/v1/chat/completions", `{"model":"svc","function_call":"auto","messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "function_call"},
		// OpenAI's bounds of the options the built-in engine has no use for, and an upstream gets
		{"frequency_penalty 2.5", "/v1/chat/completions", `{"model":"svc","frequency_penalty":2.5,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "frequency_penalty"},
		{"presence_penalty -2.01", "/v1/chat/completions", `{"model":"svc-assistant","presence_penalty":-2.01,"messages":[{"role":"user","content":"hi"}]}`, false, 400, domain.CodeInvalidRequest, "presence_penalty"},
		{"presence_penalty a string", "/v1/chat/completions", `{"model":"svc","presence_penalty":"high","messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "presence_penalty"},
		{"top_logprobs 21", "/v1/chat/completions", `{"model":"svc","logprobs":true,"top_logprobs":21,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "top_logprobs"},
		{"top_logprobs -1", "/v1/chat/completions", `{"model":"svc","logprobs":true,"top_logprobs":-1,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "top_logprobs"},
		{"top_logprobs without logprobs", "/v1/chat/completions", `{"model":"svc-assistant","top_logprobs":2,"messages":[{"role":"user","content":"hi"}]}`, false, 400, domain.CodeInvalidRequest, "top_logprobs"},
		{"top_logprobs with logprobs false", "/v1/chat/completions", `{"model":"svc","logprobs":false,"top_logprobs":2,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "top_logprobs"},
		{"top_logprobs a fraction", "/v1/chat/completions", `{"model":"svc","logprobs":true,"top_logprobs":1.5,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "top_logprobs"},
		{"logprobs a string", "/v1/chat/completions", `{"model":"svc","logprobs":"yes","messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "logprobs"},
		{"parallel_tool_calls a number", "/v1/chat/completions", `{"model":"svc","parallel_tool_calls":1,"messages":[{"role":"user","content":"hi"}]}`, true, 400, domain.CodeInvalidRequest, "parallel_tool_calls"},
		{"33,000 characters", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"` + long + `"}]}`, true, 400, domain.CodeInputTooLarge, "messages"},
		{"33,000 characters of tools", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","description":"` + long + `"}}]}`, true, 400, domain.CodeInputTooLarge, "tools"},
		{"5 images", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":[` + images + `]}]}`, true, 400, domain.CodeInvalidRequest, "messages"},
		{"no upstream", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"hi"}]}`, false, 503, domain.CodeModelUnavailable, ""},
		{"upstream content filter", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"bad"}]}`, true, 400, domain.CodeContentPolicy, ""},
		{"previous_response_id", "/v1/responses", `{"model":"svc","input":"hi","previous_response_id":"resp_1"}`, true, 400, domain.CodeInvalidRequest, "previous_response_id"},
		{"built-in tool", "/v1/responses", `{"model":"svc","input":"hi","tools":[{"type":"web_search"}]}`, true, 400, domain.CodeInvalidRequest, "tools[0].type"},
		{"a function_call_output without output", "/v1/responses", `{"model":"svc","input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1"}]}`, true, 400, domain.CodeInvalidRequest, "input[2].output"},
		{"an empty input list", "/v1/responses", `{"model":"svc","input":[]}`, true, 400, domain.CodeInvalidRequest, "input"},
		{"33,000 characters of input", "/v1/responses", `{"model":"svc","input":"` + long + `"}`, true, 400, domain.CodeInputTooLarge, "input"},
		{"33,000 characters of instructions", "/v1/responses", `{"model":"svc","instructions":"` + long + `","input":"hi"}`, true, 400, domain.CodeInputTooLarge, "instructions"},
		{"257 embedding texts", "/v1/embeddings", `{"model":"x","input":[` + strings.Join(texts, ",") + `]}`, true, 400, domain.CodeInvalidRequest, "input"}, // a count: input_too_large is characters (spec 7)
		{"32,001 embedding characters", "/v1/embeddings", `{"input":["` + long[:32001] + `"]}`, true, 400, domain.CodeInputTooLarge, "input"},
		{"encoding_format", "/v1/embeddings", `{"input":"a","encoding_format":"int8"}`, true, 400, domain.CodeInvalidRequest, "encoding_format"},
		{"label too long", "/v1/embeddings", `{"input":"a"}`, true, 400, domain.CodeInvalidRequest, "X-Svc-Execution-Id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newModelServer(t, tt.upstream)
			if tt.code == domain.CodeContentPolicy {
				f.up.err = domain.Errorf(domain.CodeContentPolicy, "the model's safety filter refused this content")
			}
			h := map[string]string{"X-Svc-Source": "n8n"}
			for k, v := range auth {
				h[k] = v
			}
			if tt.param == "X-Svc-Execution-Id" {
				h["X-Svc-Execution-Id"] = strings.Repeat("e", 201)
			}
			rec := do(f.s, "POST", tt.path, h, tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			e := envelope(t, rec)
			if e.Code != tt.code || e.Param != tt.param {
				t.Fatalf("envelope %+v", e)
			}
			if tt.name == "an empty input list" && !strings.HasPrefix(e.Message, "input ") {
				t.Fatalf("message %q, want one about input (a Responses request has no messages)", e.Message)
			}
			if tt.code == domain.CodeModelUnavailable && !strings.Contains(e.Message, "SVC_MODEL_BASE_URL") {
				t.Fatalf("message %q", e.Message)
			}
			if n := f.ledger.count(); n != 0 {
				t.Fatalf("%d interactions charged", n)
			}
			if tt.code != domain.CodeContentPolicy && f.up.calls != 0 {
				t.Fatalf("the upstream was called")
			}
		})
	}
}

// TestModelErrorsOnlyTheOwnerClears: an answer that asking again cannot change (svc-assistant's
// agent not set up, 409, or turned off for the API, 503; model svc without an upstream, 503) says
// X-Should-Retry: false, which OpenAI's SDKs read before their own rule of retrying every 409 and
// 5xx (the Node SDK asked three times); an error a later try may clear (the upstream down, 503)
// says nothing.
func TestModelErrorsOnlyTheOwnerClears(t *testing.T) {
	assistant := `{"model":"svc-assistant","messages":[{"role":"user","content":"hours?"}]`
	tests := []struct {
		name, path, body string
		prof             *profile.Profile
		upstream         bool
		status           int
		code             domain.Code
		retry            string
	}{
		{"not configured", "/v1/chat/completions", assistant + `}`, &profile.Profile{Channels: profile.AllOn}, true, 409, domain.CodeAgentNotConfigured, "false"},
		{"not configured, streamed", "/v1/chat/completions", assistant + `,"stream":true}`, &profile.Profile{Channels: profile.AllOn}, true, 409, domain.CodeAgentNotConfigured, "false"},
		{"not configured, responses", "/v1/responses", `{"model":"svc-assistant","input":"hours?"}`, &profile.Profile{Channels: profile.AllOn}, true, 409, domain.CodeAgentNotConfigured, "false"},
		{"not configured, responses streamed", "/v1/responses", `{"model":"svc-assistant","input":"hours?","stream":true}`, &profile.Profile{Channels: profile.AllOn}, true, 409, domain.CodeAgentNotConfigured, "false"},
		{"api channel off", "/v1/chat/completions", assistant + `}`, &profile.Profile{BusinessName: "Padaria Lu"}, true, 503, domain.CodeAgentUnavailable, "false"},
		{"no upstream", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"hi"}]}`, nil, false, 503, domain.CodeModelUnavailable, "false"},
		{"no upstream, responses streamed", "/v1/responses", `{"model":"svc","input":"hi","stream":true}`, nil, false, 503, domain.CodeModelUnavailable, "false"},
		{"upstream down", "/v1/chat/completions", `{"model":"svc","messages":[{"role":"user","content":"hi"}]}`, nil, true, 503, domain.CodeModelUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newModelServer(t, tt.upstream)
			f.profiles.p = tt.prof
			f.up.err = domain.Errorf(domain.CodeModelUnavailable, "the model is unavailable right now; try again")
			rec := do(f.s, "POST", tt.path, auth, tt.body)
			if rec.Code != tt.status || envelope(t, rec).Code != tt.code {
				t.Fatalf("%d %s, want %d %s", rec.Code, rec.Body.String(), tt.status, tt.code)
			}
			if got := rec.Header().Get("X-Should-Retry"); got != tt.retry {
				t.Fatalf("X-Should-Retry %q, want %q", got, tt.retry)
			}
		})
	}
}

func TestModelRateLimit(t *testing.T) {
	s, d := newTestServer(t)
	key := account.Key{ID: "key_1", AccountID: "acct_1", Hash: account.HashSecret(testKey)}
	d.keys.EXPECT().Credential(gomock.Any(), key.Hash, gomock.Any()).Return(ports.Credential{Key: key, Account: account.Account{ID: "acct_1", Status: account.Active, Plan: "starter"}}, nil)
	d.limiter.EXPECT().AllowAll(gomock.Any(), []ratelimit.Check{{Subject: "key:key_1", Limit: ratelimit.PerKey}, {Subject: "model:acct_1", Limit: ratelimit.Compat}}).
		Return([]ratelimit.Result{{Allowed: true, Remaining: 100, ResetAfter: 10 * time.Second}, {RetryAfter: time.Second, ResetAfter: time.Minute}}, nil)
	rec := do(s, "POST", "/v1/embeddings", auth, `{"input":"a"}`)
	if rec.Code != 429 || envelope(t, rec).Code != domain.CodeRateLimited {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	// The rate-limit headers of a refusal describe the limit that refused it, not the per-key
	// limit with requests to spare.
	for h, want := range map[string]string{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "60", "Retry-After": "1"} {
		if got := rec.Header().Get(h); got != want {
			t.Errorf("%s %q, want %q", h, got, want)
		}
	}
}

// followingKeys is a key store that follows changes and reports none (ports.KeyChanges), so that
// Access.AdmitKept reuses its checks.
type followingKeys struct{ *mock.MockKeys }

func (followingKeys) Generation() (uint64, bool) { return 0, true }

// TestModelRateLimitGivesTheEarlyHoldBack checks that a reply refused by the model limit after
// its interaction was held early (holdEarly: a reused check, whose limits are counted after) is
// not charged, and that the account's next request holds nothing before its limits are counted.
func TestModelRateLimitGivesTheEarlyHoldBack(t *testing.T) {
	counted := 0
	f := newLimitedModelServer(t, true, func(c ratelimit.Check) bool {
		if c.Limit.Name != ratelimit.Compat.Name {
			return true
		}
		counted++
		return counted == 1 // the first request only
	})
	clock := mock.NewMockClock(gomock.NewController(t))
	clock.EXPECT().Now().Return(testNow).AnyTimes()
	f.s.uc.Access = accounts.NewAccess(followingKeys{f.d.keys}, f.d.limiter, testPlans, clock)
	f.s.engine = f.s.routes() // the routes take the Access when made
	f.up.complete = model.Response{Message: model.Message{Role: "assistant", Content: "Hello!"}, FinishReason: "stop"}
	for i, want := range []struct{ status, charges, held int }{{200, 1, 1}, {429, 1, 2}, {429, 1, 2}} {
		rec := do(f.s, "POST", "/v1/chat/completions", auth, `{"model":"svc","messages":[{"role":"user","content":"hi"}]}`)
		if rec.Code != want.status || f.ledger.count() != want.charges || f.ledger.held != want.held || f.up.calls != 1 {
			t.Fatalf("request %d: %d %s; %d charges, %d holds, %d upstream calls; want %d, %d charges, %d holds, 1 call",
				i+1, rec.Code, rec.Body.String(), f.ledger.count(), f.ledger.held, f.up.calls, want.status, want.charges, want.held)
		}
	}
}

func TestChatCompletion(t *testing.T) {
	f := newModelServer(t, true)
	f.up.complete = model.Response{Message: model.Message{Role: "assistant", Content: "Hello!"}, FinishReason: "stop",
		Usage: model.Usage{PromptTokens: 12, CompletionTokens: 2, TotalTokens: 14}}
	h := map[string]string{"X-Svc-Source": "n8n", "X-Svc-Workflow": "Daily%20orders", "X-Svc-Workflow-Id": "wf_9", "X-Svc-Execution-Id": "ex_7"}
	for k, v := range auth {
		h[k] = v
	}
	body := `{"model":"gpt-4o","messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":[{"type":"text","text":"Hi"}]}],
		"temperature":0.5,"max_tokens":9000,"stop":"END","seed":7,"logprobs":false,"frequency_penalty":0,"stream_options":null}`
	rec := do(f.s, "POST", "/v1/chat/completions", h, body)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	b := decodeBody(t, rec)
	choice := b["choices"].([]any)[0].(map[string]any)
	msg := choice["message"].(map[string]any)
	usage := b["usage"].(map[string]any)
	svc := b["svc"].(map[string]any)
	if !strings.HasPrefix(b["id"].(string), "chatcmpl-") || b["object"] != "chat.completion" || b["created"].(float64) < 1e9 ||
		b["model"] != "svc" || choice["index"] != 0.0 || choice["finish_reason"] != "stop" || choice["logprobs"] != nil ||
		msg["role"] != "assistant" || msg["content"] != "Hello!" || msg["refusal"] != nil || msg["tool_calls"] != nil ||
		usage["prompt_tokens"] != 12.0 || usage["completion_tokens"] != 2.0 || usage["total_tokens"] != 14.0 ||
		svc["interactions_spent"] != 1.0 || svc["interactions_remaining"] != 9.0 || svc["interactions_limit"] != 10.0 {
		t.Fatalf("body %s", rec.Body.String())
	}
	sent := f.up.last
	if sent.MaxTokens != 2000 || len(sent.Messages) != 2 || sent.Messages[0].Role != "developer" || sent.Messages[1].Parts[0].Text != "Hi" ||
		*sent.Temperature != 0.5 || sent.Stop[0] != "END" || *sent.Seed != 7 {
		t.Fatalf("sent %+v", sent)
	}
	want := ledger.Charge{ID: "chg_1", AccountID: "acct_1", Action: ledger.ModelReply, Cost: 1, Ref: b["id"].(string),
		Labels: ledger.Labels{Source: "n8n", Workflow: "Daily orders", WorkflowID: "wf_9", ExecutionID: "ex_7"}}
	if len(f.ledger.charges) != 1 || f.ledger.charges[0] != want {
		t.Fatalf("charges %+v", f.ledger.charges)
	}
}

func TestChatCompletionToolCalls(t *testing.T) {
	f := newModelServer(t, true)
	f.up.complete = model.Response{Message: model.Message{Role: "assistant",
		ToolCalls: []model.ToolCall{{ID: "call_1", Name: "weather", Arguments: `{"city":"Lisbon"}`}}}, FinishReason: "tool_calls",
		Usage: model.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}}
	body := `{"model":"svc","messages":[{"role":"user","content":"weather?"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"call_0","type":"function","function":{"name":"weather","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_0","content":"sunny"}],
		"tools":[{"type":"function","function":{"name":"weather","parameters":{"type":"object"},"strict":true}}],
		"tool_choice":{"type":"function","function":{"name":"weather"}}}`
	rec := do(f.s, "POST", "/v1/chat/completions", auth, body)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(rec.Body.String(), `"content":null`) ||
		!strings.Contains(rec.Body.String(), `"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Lisbon\"}"}}]`) ||
		!strings.Contains(rec.Body.String(), `"finish_reason":"tool_calls"`) {
		t.Fatalf("body %s", rec.Body.String())
	}
	sent := f.up.last
	if len(sent.Messages) != 3 || sent.Messages[1].ToolCalls[0].ID != "call_0" || sent.Messages[2].ToolCallID != "call_0" ||
		!sent.Tools[0].Strict || sent.ToolChoice.Name != "weather" {
		t.Fatalf("sent %+v", sent)
	}
}

// sseEvents reads a stream's events as they come: event name and data.
type sseEvent struct{ name, data string }

func readEvents(t *testing.T, r *bufio.Reader, out chan<- sseEvent) {
	var ev sseEvent
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			close(out)
			return
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			out <- ev
			ev = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data = strings.TrimPrefix(line, "data: ")
		}
	}
}

func postStream(t *testing.T, s *Server, path, body string) (*http.Response, chan sseEvent) {
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
	for k, v := range auth {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events := make(chan sseEvent, 100)
	go readEvents(t, bufio.NewReader(resp.Body), events)
	return resp, events
}

func next(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(3 * time.Second):
		t.Fatal("no event within 3 s: the stream is buffered")
	}
	return sseEvent{}
}

func TestChatStreamIsFlushedChunkByChunk(t *testing.T) {
	f := newModelServer(t, true)
	gate := make(chan struct{})
	f.up.chunks = []model.Chunk{
		{Content: "Hel"},
		{Content: "lo"},
		{ToolCalls: []model.ToolCallDelta{{Index: 0, ID: "call_1", Name: "f", Arguments: `{"a"`}}},
		{ToolCalls: []model.ToolCallDelta{{Index: 0, Arguments: `:1}`}}},
		{FinishReason: "tool_calls"},
	}
	f.up.gates = map[int]chan struct{}{1: gate}
	f.up.complete = model.Response{Message: model.Message{Content: "Hello", ToolCalls: []model.ToolCall{{ID: "call_1", Name: "f", Arguments: `{"a":1}`}}},
		FinishReason: "tool_calls", Usage: model.Usage{PromptTokens: 5, CompletionTokens: 4, TotalTokens: 9}}
	resp, events := postStream(t, f.s, "/v1/chat/completions",
		`{"model":"svc","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" ||
		resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("X-Accel-Buffering") != "no" || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	type chunk struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Model   string `json:"model"`
		Choices []struct {
			Delta struct {
				Role      string  `json:"role"`
				Content   *string `json:"content"`
				ToolCalls []struct {
					Index    int    `json:"index"`
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
		Svc *struct {
			Spent int `json:"interactions_spent"`
		} `json:"svc"`
	}
	parse := func(ev sseEvent) chunk {
		var c chunk
		if err := json.Unmarshal([]byte(ev.data), &c); err != nil || ev.name != "" {
			t.Fatalf("event %+v: %v", ev, err)
		}
		return c
	}
	first := parse(next(t, events))
	if first.Object != "chat.completion.chunk" || !strings.HasPrefix(first.ID, "chatcmpl-") || first.Choices[0].Delta.Role != "assistant" {
		t.Fatalf("first chunk %+v", first)
	}
	hel := parse(next(t, events)) // read while the upstream still holds back its second piece
	if *hel.Choices[0].Delta.Content != "Hel" || hel.ID != first.ID {
		t.Fatalf("chunk %+v", hel)
	}
	close(gate)
	if lo := parse(next(t, events)); *lo.Choices[0].Delta.Content != "lo" {
		t.Fatalf("chunk %+v", lo)
	}
	call := parse(next(t, events)).Choices[0].Delta.ToolCalls[0]
	if call.ID != "call_1" || call.Type != "function" || call.Function.Name != "f" || call.Function.Arguments != `{"a"` {
		t.Fatalf("tool call %+v", call)
	}
	more := parse(next(t, events)).Choices[0].Delta.ToolCalls[0]
	if more.ID != "" || more.Index != 0 || more.Function.Arguments != ":1}" {
		t.Fatalf("tool call fragment %+v", more)
	}
	last := parse(next(t, events))
	if *last.Choices[0].FinishReason != "tool_calls" || last.Svc == nil || last.Svc.Spent != 1 {
		t.Fatalf("last chunk %s", fmt.Sprint(last))
	}
	usage := parse(next(t, events))
	if len(usage.Choices) != 0 || usage.Usage == nil || usage.Usage.TotalTokens != 9 {
		t.Fatalf("usage chunk %+v", usage)
	}
	if done := next(t, events); done.data != "[DONE]" {
		t.Fatalf("end %+v", done)
	}
	if f.ledger.count() != 1 {
		t.Fatalf("%d charges", f.ledger.count())
	}
}

func TestChatStreamFailureAfterTheFirstPiece(t *testing.T) {
	f := newModelServer(t, true)
	f.up.chunks = []model.Chunk{{Content: "Hel"}}
	f.up.err = domain.Errorf(domain.CodeModelUnavailable, "the model is unavailable right now; try again")
	_, events := postStream(t, f.s, "/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	next(t, events) // role
	next(t, events) // Hel
	ev := next(t, events)
	var env apijson.ErrorEnvelope
	if err := json.Unmarshal([]byte(ev.data), &env); err != nil || env.Error.Code != domain.CodeModelUnavailable {
		t.Fatalf("event %+v", ev)
	}
	if _, ok := <-events; ok {
		t.Fatal("the stream went on after the error")
	}
	if f.ledger.count() != 0 {
		t.Fatal("charged")
	}
}

func TestChatStreamFailureBeforeThePieces(t *testing.T) {
	f := newModelServer(t, true)
	f.up.err = domain.Errorf(domain.CodeContentPolicy, "refused")
	rec := do(f.s, "POST", "/v1/chat/completions", auth, `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if rec.Code != 400 || envelope(t, rec).Code != domain.CodeContentPolicy {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}

func TestAssistantModelWithoutUpstream(t *testing.T) {
	f := newModelServer(t, false)
	rec := do(f.s, "POST", "/v1/chat/completions", auth, `{"model":"svc-assistant","messages":[{"role":"user","content":"hours?"}],"tools":[{"type":"function","function":{"name":"f"}}]}`)
	b := decodeBody(t, rec)
	if rec.Code != 200 || b["model"] != "svc-assistant" || !strings.Contains(rec.Body.String(), `"content":"We open at seven."`) ||
		b["usage"].(map[string]any)["completion_tokens"] != 4.0 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}

func TestResponses(t *testing.T) {
	f := newModelServer(t, true)
	f.up.complete = model.Response{Message: model.Message{Content: "Checking.", ToolCalls: []model.ToolCall{{ID: "call_9", Name: "weather", Arguments: `{"city":"Porto"}`}}},
		FinishReason: "tool_calls", Usage: model.Usage{PromptTokens: 20, CompletionTokens: 6, TotalTokens: 26}}
	body := `{"model":"svc","instructions":"Be brief.","store":true,"max_output_tokens":50,
		"input":[{"role":"user","content":[{"type":"input_text","text":"weather?"},{"type":"input_image","image_url":"https://x.test/a.png"}]},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Let me see.","annotations":[]}]},
			{"type":"function_call","call_id":"call_1","name":"weather","arguments":"{}"},
			{"type":"function_call_output","call_id":"call_1","output":"sunny"}],
		"tools":[{"type":"function","name":"weather","parameters":{"type":"object"},"strict":false}],
		"tool_choice":"auto","text":{"format":{"type":"text"}},"reasoning":{"effort":"low"}}`
	rec := do(f.s, "POST", "/v1/responses", auth, body)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	var r struct {
		ID        string `json:"id"`
		Object    string `json:"object"`
		CreatedAt int64  `json:"created_at"`
		Status    string `json:"status"`
		Model     string `json:"model"`
		Store     bool   `json:"store"`
		Output    []struct {
			Type, ID, Status, Role, Name, Arguments string
			CallID                                  string `json:"call_id"`
			Content                                 []struct{ Type, Text string }
		} `json:"output"`
		Usage struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
			TotalTokens  int `json:"total_tokens"`
		} `json:"usage"`
		Svc struct {
			Spent int `json:"interactions_spent"`
		} `json:"svc"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.ID, "resp_") || r.Object != "response" || r.Status != "completed" || r.Store || r.Model != "svc" ||
		len(r.Output) != 2 || r.Output[0].Type != "message" || r.Output[0].Content[0].Type != "output_text" || r.Output[0].Content[0].Text != "Checking." ||
		r.Output[1].Type != "function_call" || r.Output[1].CallID != "call_9" || r.Output[1].Name != "weather" || !strings.HasPrefix(r.Output[1].ID, "fc_") ||
		r.Usage.InputTokens != 20 || r.Usage.OutputTokens != 6 || r.Usage.TotalTokens != 26 || r.Svc.Spent != 1 {
		t.Fatalf("response %s", rec.Body.String())
	}
	for _, field := range []string{`"input_tokens_details":{"cached_tokens":0}`, `"output_tokens_details":{"reasoning_tokens":0}`, `"incomplete_details":null`, `"error":null`} {
		if !strings.Contains(rec.Body.String(), field) {
			t.Errorf("no %s in %s", field, rec.Body.String())
		}
	}
	sent := f.up.last
	if len(sent.Messages) != 4 || sent.Messages[0].Content != "Be brief." || sent.Messages[1].Parts[1].ImageURL != "https://x.test/a.png" ||
		sent.Messages[2].Content != "Let me see." || sent.Messages[2].ToolCalls[0].ID != "call_1" ||
		sent.Messages[3].Role != "tool" || sent.Messages[3].Content != "sunny" || sent.MaxTokens != 50 {
		t.Fatalf("sent %+v", sent)
	}

	f.up.complete = model.Response{Message: model.Message{Content: "cut"}, FinishReason: "length", Usage: model.Usage{PromptTokens: 1, CompletionTokens: 1}}
	rec = do(f.s, "POST", "/v1/responses", auth, `{"input":"hi"}`)
	if !strings.Contains(rec.Body.String(), `"status":"incomplete"`) || !strings.Contains(rec.Body.String(), `"incomplete_details":{"reason":"max_output_tokens"}`) {
		t.Fatalf("incomplete: %s", rec.Body.String())
	}
	// A max_output_tokens above the reply cap (spec part 8: 2,000 tokens) is reduced to it, and
	// the response says so: the reply it calls incomplete was cut at 2,000, not at what was asked.
	rec = do(f.s, "POST", "/v1/responses", auth, `{"input":"hi","max_output_tokens":5000}`)
	if !strings.Contains(rec.Body.String(), `"max_output_tokens":2000`) || f.up.last.MaxTokens != 2000 {
		t.Fatalf("max_output_tokens 5000: sent %d, answered %s", f.up.last.MaxTokens, rec.Body.String())
	}
}

func TestResponsesStream(t *testing.T) {
	f := newModelServer(t, true)
	f.up.chunks = []model.Chunk{
		{Content: "Hi"}, {Content: " there"},
		{ToolCalls: []model.ToolCallDelta{{Index: 0, ID: "call_1", Name: "f", Arguments: `{"a"`}}},
		{ToolCalls: []model.ToolCallDelta{{Index: 0, Arguments: `:1}`}}},
	}
	f.up.complete = model.Response{Message: model.Message{Content: "Hi there", ToolCalls: []model.ToolCall{{ID: "call_1", Name: "f", Arguments: `{"a":1}`}}},
		FinishReason: "tool_calls", Usage: model.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}}
	_, events := postStream(t, f.s, "/v1/responses", `{"model":"svc","input":"hi","stream":true}`)
	var types []string
	var last map[string]any
	for i := 0; ; i++ {
		ev, ok := <-events
		if !ok {
			break
		}
		var data map[string]any
		if err := json.Unmarshal([]byte(ev.data), &data); err != nil {
			t.Fatalf("event %+v", ev)
		}
		if data["type"] != ev.name || data["sequence_number"] != float64(i) {
			t.Fatalf("event %d: %+v", i, ev)
		}
		types = append(types, ev.name)
		last = data
	}
	want := []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done",
		"response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
		"response.function_call_arguments.done", "response.output_item.done", "response.completed"}
	if strings.Join(types, " ") != strings.Join(want, " ") {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(types, "\n"), strings.Join(want, "\n"))
	}
	resp := last["response"].(map[string]any)
	out := resp["output"].([]any)
	if resp["status"] != "completed" || len(out) != 2 || out[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"] != "Hi there" ||
		out[1].(map[string]any)["arguments"] != `{"a":1}` || out[1].(map[string]any)["call_id"] != "call_1" ||
		resp["usage"].(map[string]any)["total_tokens"] != 7.0 || resp["svc"].(map[string]any)["interactions_spent"] != 1.0 {
		t.Fatalf("final response %v", resp)
	}
}

func TestEmbeddings(t *testing.T) {
	f := newModelServer(t, false)
	rec := do(f.s, "POST", "/v1/embeddings", auth, `{"model":"text-embedding-3-small","input":["a b","c"],"dimensions":3,"user":"u"}`)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	var floats struct {
		Object string
		Model  string
		Data   []struct {
			Object    string
			Index     int
			Embedding []float32
		}
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
			TotalTokens  int `json:"total_tokens"`
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &floats); err != nil || floats.Object != "list" || floats.Model != "svc-embeddings" ||
		len(floats.Data) != 2 || floats.Data[1].Object != "embedding" || floats.Data[1].Index != 1 || floats.Usage.PromptTokens != 3 || floats.Usage.TotalTokens != 3 {
		t.Fatalf("%v %s", err, rec.Body.String())
	}
	rec = do(f.s, "POST", "/v1/embeddings", auth, `{"input":["a b","c"],"encoding_format":"base64"}`)
	var b64 struct {
		Data []struct{ Embedding string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b64); err != nil || len(b64.Data) != 2 {
		t.Fatalf("%v %s", err, rec.Body.String())
	}
	for i, d := range b64.Data {
		raw, err := base64.StdEncoding.DecodeString(d.Embedding)
		if err != nil || len(raw) != 4*len(floats.Data[i].Embedding) {
			t.Fatalf("vector %d: %v", i, err)
		}
		for j, want := range floats.Data[i].Embedding {
			if got := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:])); got != want {
				t.Fatalf("vector %d[%d]: %v, want %v", i, j, got, want)
			}
		}
	}
	if rec := do(f.s, "POST", "/v1/embeddings", auth, `{"input":[[1,2],[3]]}`); rec.Code != 200 {
		t.Fatalf("token input: %d %s", rec.Code, rec.Body.String())
	}
	if f.ledger.count() != 3 || f.ledger.charges[0].Action != ledger.Embeddings {
		t.Fatalf("charges %+v", f.ledger.charges)
	}
}

func TestUsageStatement(t *testing.T) {
	f := newModelServer(t, false)
	nov := ledger.PeriodAt(testNow)
	f.d.usage.EXPECT().Statement(gomock.Any(), "acct_1", nov.Start, nov.End).Return([]ledger.Line{
		{Action: ledger.ModelReply, Labels: ledger.Labels{Source: "n8n", Workflow: "Orders", WorkflowID: "wf_1", ExecutionID: "ex_1"}, Requests: 3, Interactions: 3},
		{Action: ledger.Embeddings, Requests: 1, Interactions: 1},
	}, nil)
	rec := do(f.s, "GET", "/v1/usage", auth, "")
	want := `{"object":"usage_statement","period":{"from":"2026-11-01T00:00:00Z","to":"2026-12-01T00:00:00Z"},"data":[` +
		`{"action":"model_reply","source":"n8n","workflow":"Orders","workflow_id":"wf_1","execution_id":"ex_1","requests":3,"interactions":3},` +
		`{"action":"embeddings","source":null,"workflow":null,"workflow_id":null,"execution_id":null,"requests":1,"interactions":1}],"total_interactions":4}`
	if rec.Code != 200 || rec.Body.String() != want {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	from, to := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	f.d.usage.EXPECT().Statement(gomock.Any(), "acct_1", from, to).Return(nil, nil)
	if rec := do(f.s, "GET", "/v1/usage?from=2026-10-01&to=2026-10-02T12:00:00Z", auth, ""); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"data":[]`) {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	if rec := do(f.s, "GET", "/v1/usage?from=yesterday", auth, ""); rec.Code != 400 || envelope(t, rec).Param != "from" {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}

// TestChatCompletionOutputOptions: parallel_tool_calls, logprobs, top_logprobs and the penalties,
// valid, reach an upstream as they were sent, and its logprobs come back as it gave them; the
// built-in engine (svc-assistant without an upstream) accepts them and answers logprobs null.
func TestChatCompletionOutputOptions(t *testing.T) {
	body := `{"model":"%s","messages":[{"role":"user","content":"hours?"}],"parallel_tool_calls":false,"logprobs":true,
		"top_logprobs":20,"frequency_penalty":-2,"presence_penalty":1.5}`
	f := newModelServer(t, true)
	lp := `{"content":[{"token":"Hi","logprob":-0.25,"bytes":[72,105],"top_logprobs":[]}],"refusal":null}`
	f.up.complete = model.Response{Message: model.Message{Role: "assistant", Content: "Hi"}, FinishReason: "stop",
		Usage: model.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2}, Logprobs: []byte(lp)}
	rec := do(f.s, "POST", "/v1/chat/completions", auth, fmt.Sprintf(body, "svc"))
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	sent := f.up.last
	if sent.ParallelToolCalls == nil || *sent.ParallelToolCalls || sent.Logprobs == nil || !*sent.Logprobs ||
		sent.TopLogprobs == nil || *sent.TopLogprobs != 20 || sent.FrequencyPenalty == nil || *sent.FrequencyPenalty != -2 ||
		sent.PresencePenalty == nil || *sent.PresencePenalty != 1.5 {
		t.Fatalf("sent %+v", sent)
	}
	if !strings.Contains(rec.Body.String(), `"logprobs":`+lp) {
		t.Fatalf("the upstream's logprobs not relayed: %s", rec.Body.String())
	}
	f = newModelServer(t, false)
	rec = do(f.s, "POST", "/v1/chat/completions", auth, fmt.Sprintf(body, "svc-assistant"))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"logprobs":null`) {
		t.Fatalf("the built-in engine: %d %s", rec.Code, rec.Body.String())
	}
}
