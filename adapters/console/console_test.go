package console

import (
	"errors"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/ledger"
)

// TestCatalogue checks that every key a template asks for exists in every language, and that
// the languages have the same keys.
func TestCatalogue(t *testing.T) {
	used := map[string]bool{}
	re := regexp.MustCompile(`\.T "([a-z_.]+)"`)
	files, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(templateFiles, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
		}
	}
	plural := regexp.MustCompile(`\.P "([a-z_.]+)"`)
	for _, f := range files {
		b, err := fs.ReadFile(templateFiles, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range plural.FindAllStringSubmatch(string(b), -1) {
			used[m[1]+".one"], used[m[1]+".other"] = true, true
		}
	}
	if len(used) < 50 {
		t.Fatalf("only %d keys found in the templates", len(used))
	}
	for lang, msgs := range catalog {
		for k := range used {
			if msgs[k] == "" {
				t.Errorf("%s: no %q", lang, k)
			}
		}
		for k := range catalog["en"] {
			if _, ok := msgs[k]; !ok {
				t.Errorf("%s lacks %q, which en has", lang, k)
			}
		}
	}
}

func TestPagesParse(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"login", "error", "overview", "agent", "keys", "widget", "brain", "conversations", "conversation",
		"webhooks", "webhook", "conversions", "notifications"} {
		if p.byName[name] == nil {
			t.Errorf("no page %q", name)
		}
	}
}

func TestChartOf(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name      string
		days      []ledger.Day
		wantH     []int
		peak      int
		peakDate  string
		wantTotal int
	}{
		{"no use draws no bar", []ledger.Day{{Date: day(1)}, {Date: day(2)}}, []int{0, 0}, 0, "2026-11-01", 0},
		{"the busiest day fills the height", []ledger.Day{{Date: day(1), Interactions: 10}, {Date: day(2), Interactions: 5}, {Date: day(3)}},
			[]int{chartHeight - chartBottom - chartTop, (chartHeight - chartBottom - chartTop) / 2, 0}, 10, "2026-11-01", 15},
		{"a little use still shows", []ledger.Day{{Date: day(1), Interactions: 1000}, {Date: day(2), Interactions: 1}}, []int{chartHeight - chartBottom - chartTop, 2}, 1000, "2026-11-01", 1001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := chartOf(tt.days)
			if c.Peak != tt.peak || c.PeakDate != tt.peakDate || c.Total != tt.wantTotal || len(c.Bars) != len(tt.days) {
				t.Fatalf("chart %+v", c)
			}
			for i, b := range c.Bars {
				if b.H != tt.wantH[i] || b.Y+b.H != c.Base || b.X+b.W > c.Width {
					t.Errorf("bar %d: %+v, want height %d on the base %d", i, b, tt.wantH[i], c.Base)
				}
			}
		})
	}
}

// TestRefuse: a refused value shows the form's page again (400) with the field at fault and the
// values typed, a secret left out; a field that names no input of the form is shown above it; any
// other failure is not a form's.
func TestRefuse(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	c := &Console{pages: p, log: zap.NewNop()}
	signIn := form{name: "signin", inputs: []string{"email", "password"}, secret: []string{"password"}}
	tests := []struct {
		name      string
		err       error
		f         form
		body      url.Values
		wantShown bool
		wantInput string
		wantKept  map[string][]string
	}{
		{"a field of the form", domain.Invalid("items[0].question", "items[0].question is required"), faqForm,
			url.Values{"question": {" "}, "answer": {"Yes\x00 <b>we</b> do", "\xff"}}, true, "question",
			map[string][]string{"question": {" "}, "answer": {"Yes <b>we</b> do", "\uFFFD"}}},
		{"an indexed field", domain.Invalid("domains[2]", "not a host name"), domainsForm, url.Values{"domains": {"a b c!"}}, true, "domains",
			map[string][]string{"domains": {"a b c!"}}},
		{"a secret is not kept", domain.Invalid("email", "email is wrong"), signIn,
			url.Values{"email": {"lu@example.com"}, "password": {"hunter2 hunter2"}}, true, "email", map[string][]string{"email": {"lu@example.com"}}},
		{"a field no input has", domain.Invalid("url", "an account may have at most 10 webhooks"), keyForm, url.Values{"name": {"k"}}, true, "",
			map[string][]string{"name": {"k"}}},
		{"too large", &domain.Error{Code: domain.CodeInputTooLarge, Field: "question", Message: "too long"}, tryForm, url.Values{"question": {"q"}}, true, "question",
			map[string][]string{"question": {"q"}}},
		{"not a form's", domain.NotFound("webhook"), webhookForm, url.Values{"url": {"https://x.example/"}}, false, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(http.MethodPost, "/app/x", strings.NewReader(tt.body.Encode()))
			ctx.Request.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			var got *formState
			status := 0
			c.refuse(ctx, tt.err, tt.f, func(_ *gin.Context, s int, extra map[string]any) {
				status, got = s, extra[formKey].(*formState)
			})
			if !tt.wantShown {
				if got != nil || w.Code != http.StatusNotFound {
					t.Fatalf("shown %+v, answered %d; want the 404 page", got, w.Code)
				}
				return
			}
			if got == nil || status != http.StatusBadRequest || got.Input != tt.wantInput || got.Form != tt.f.name || !reflect.DeepEqual(got.Values, tt.wantKept) {
				t.Fatalf("%d %+v, want input %q and kept %v", status, got, tt.wantInput, tt.wantKept)
			}
			if e, _ := domain.AsError(tt.err); got.Field != e.Field || got.Message != e.Message {
				t.Errorf("field %q message %q", got.Field, got.Message)
			}
		})
	}
}

// TestFormErrorRendered: the keys page with its form refused marks the input, says why next to
// it, keeps the value typed (escaped), and shows nothing of it on another form.
func TestFormErrorRendered(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	c := &Console{pages: p, log: zap.NewNop()}
	for _, tt := range []struct {
		name string
		st   *formState
		want []string
		not  []string
	}{
		{"next to the field", &formState{Form: "key", Input: "name", Field: "name", Message: "name must be <short>",
			Values: map[string][]string{"name": {`"><script>x</script>`}}},
			[]string{`value="&#34;&gt;&lt;script&gt;x&lt;/script&gt;" aria-invalid="true" aria-describedby="key-name-error" autofocus`,
				`<p class="field-error" id="key-name-error" role="alert">Corrija este valor: name must be &lt;short&gt;</p>`},
			[]string{"<script>x", `id="key-error"`}},
		{"above the form", &formState{Form: "key", Field: "plan", Message: "plan needed", Values: map[string][]string{"name": {"k1"}}},
			[]string{`<p class="alert" id="key-error" role="alert" tabindex="-1" autofocus>O formulário tem um valor que não podemos aceitar. <code>plan</code>: plan needed</p>`, `value="k1"`},
			[]string{`aria-invalid`}},
		{"not sent, a limit", &formState{Form: "key", Failed: "error.rate_limited", Wait: "7", Values: map[string][]string{"name": {"k1"}}},
			[]string{`<p class="alert" id="key-error" role="alert" tabindex="-1" autofocus>Não foi enviado, nada foi guardado; o que escreveu está mantido abaixo. Demasiados pedidos: tente de novo daqui a 7 segundos.</p>`, `value="k1"`},
			[]string{`aria-invalid`, "<code>"}},
		{"another form's", &formState{Form: "webhook", Input: "url", Field: "url", Message: "url must use https", Values: map[string][]string{"url": {"http://x"}}},
			nil, []string{`aria-invalid`, "url must use https", "http://x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(http.MethodPost, "/app/keys?lang=pt", nil)
			c.render(ctx, http.StatusBadRequest, "keys", map[string]any{"Keys": nil, formKey: tt.st})
			body := w.Body.String()
			if w.Code != http.StatusBadRequest {
				t.Fatalf("%d\n%s", w.Code, body)
			}
			for _, s := range tt.want {
				if !strings.Contains(body, s) {
					t.Errorf("no %q in\n%s", s, body)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(body, s) {
					t.Errorf("%q in\n%s", s, body)
				}
			}
		})
	}
}

// TestConnectReasons: every field of a connection request has its reason in every language.
func TestConnectReasons(t *testing.T) {
	for lang, msgs := range catalog {
		for _, f := range append(connectFields, "other") {
			if msgs["connect.refused."+f] == "" {
				t.Errorf("%s: no reason for %s", lang, f)
			}
		}
	}
}

func TestLangOf(t *testing.T) {
	for _, tt := range []struct{ tag, accept, want string }{
		{"pt-BR", "es", "pt"}, {"es", "", "es"}, {"", "es-ES,es;q=0.9", "es"}, {"fr", "pt-PT", "pt"}, {"", "de", "en"}, {"x!", "", "en"},
	} {
		if got := langOf(tt.tag, tt.accept); got != tt.want {
			t.Errorf("langOf(%q, %q) = %q, want %q", tt.tag, tt.accept, got, tt.want)
		}
	}
}

func TestLanguageLabel(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"en", "English, en"},
		{"pt-BR", "Português (Brasil), pt-BR"},
		{"pt", "Português, pt"},
		{"es", "Español, es"},
		{"fr", "fr"},
	} {
		if got := languageLabel(tt.code); got != tt.want {
			t.Errorf("languageLabel(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

// TestFailedForm: a form of the console that meets a limit (429) or a failure (500, 503) is not
// answered with the bare error page that loses what was typed: the page says why (the limit's
// wait in seconds, also in Retry-After), lists what was typed (never a password or a secret) in a
// form that sends it again, and links back to the form's page; a GET still gets the error page.
func TestFailedForm(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	c := &Console{pages: p, log: zap.NewNop(), host: "console.example"}
	body := url.Values{"question": {"Do you bake <spelt> bread?"}, "answer": {"Yes, on Fridays"},
		"password": {"hunter2 hunter2"}, "secret": {"whsec_abc"}}
	tests := []struct {
		name   string
		err    error
		status int
		say    string
	}{
		{"a limit", &domain.Error{Code: domain.CodeRateLimited, Message: "slow down", RetryAfter: 2500 * time.Millisecond}, http.StatusTooManyRequests, "try again in 3 seconds"},
		{"an outage", &domain.Error{Code: domain.CodeServiceUnavailable, Message: "store down", RetryAfter: 5 * time.Second}, http.StatusServiceUnavailable, catalog["en"]["error.unavailable"]},
		{"a failure", errors.New("disk I/O error"), http.StatusInternalServerError, catalog["en"]["error.internal"]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(http.MethodPost, "/app/brain/faq", strings.NewReader(body.Encode()))
			ctx.Request.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			ctx.Request.Header.Set("Referer", "http://console.example/app/brain")
			c.fail(ctx, tt.err)
			page := w.Body.String()
			if w.Code != tt.status {
				t.Fatalf("answered %d, want %d", w.Code, tt.status)
			}
			for _, want := range []string{html.EscapeString(tt.say), `id="expired-form"`, `action="/app/brain/faq"`, `id="expired-typed" open`,
				html.EscapeString("Do you bake <spelt> bread?"), "Yes, on Fridays", `href="/app/brain"`} {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %q:\n%s", want, page)
				}
			}
			for _, secret := range []string{"hunter2", "whsec_abc"} {
				if strings.Contains(page, secret) {
					t.Errorf("the page shows %q", secret)
				}
			}
			if got, want := w.Header().Get("Retry-After"), map[int]string{http.StatusTooManyRequests: "3", http.StatusServiceUnavailable: "5"}[tt.status]; got != want {
				t.Errorf("Retry-After %q, want %q", got, want)
			}
		})
	}
	w := httptest.NewRecorder()
	ctx, _ := gin.CreateTestContext(w)
	ctx.Request = httptest.NewRequest(http.MethodGet, "/app/brain", nil)
	c.fail(ctx, errors.New("disk I/O error"))
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `id="error-message"`) {
		t.Errorf("a GET answered %d:\n%s", w.Code, w.Body.String())
	}
}

// TestRefuseFailed: a form that meets a limit, an outage or a failure renders its own page again
// (show) with its status, Retry-After as the API answers, and the values typed but its secrets;
// a GET meeting one gets the error page.
func TestRefuseFailed(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	c := &Console{pages: p, log: zap.NewNop(), host: "console.example"}
	f := form{name: "faq", inputs: []string{"question", "answer", "token"}, secret: []string{"token"}}
	body := url.Values{"question": {"Do you bake <spelt> bread?"}, "answer": {"Yes"}, "token": {"whsec_abc"}}
	for _, tt := range []struct {
		name        string
		err         error
		status      int
		failed      string
		wait, after string
	}{
		{"a limit", &domain.Error{Code: domain.CodeRateLimited, Message: "slow down", RetryAfter: 2500 * time.Millisecond}, http.StatusTooManyRequests, "error.rate_limited", "3", "3"},
		{"an outage", &domain.Error{Code: domain.CodeServiceUnavailable, Message: "store down", RetryAfter: 5 * time.Second}, http.StatusServiceUnavailable, "error.unavailable", "", "5"},
		{"a failure", errors.New("disk I/O error"), http.StatusInternalServerError, "error.internal", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(http.MethodPost, "/app/brain/faq", strings.NewReader(body.Encode()))
			ctx.Request.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			var got *formState
			status := 0
			c.refuse(ctx, tt.err, f, func(_ *gin.Context, s int, extra map[string]any) { status, got = s, extra[formKey].(*formState) })
			if got == nil || status != tt.status || got.Failed != tt.failed || got.Wait != tt.wait || got.Input != "" {
				t.Fatalf("%d %+v", status, got)
			}
			if want := map[string][]string{"question": {"Do you bake <spelt> bread?"}, "answer": {"Yes"}}; !reflect.DeepEqual(got.Values, want) {
				t.Errorf("kept %v, want %v", got.Values, want)
			}
			if a := w.Header().Get("Retry-After"); a != tt.after {
				t.Errorf("Retry-After %q, want %q", a, tt.after)
			}
		})
	}
	w := httptest.NewRecorder()
	ctx, _ := gin.CreateTestContext(w)
	ctx.Request = httptest.NewRequest(http.MethodGet, "/app/conversions?from=x", nil)
	c.refuse(ctx, errors.New("disk I/O error"), f, func(*gin.Context, int, map[string]any) { t.Error("a GET's page shown again") })
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `id="error-message"`) {
		t.Errorf("a GET answered %d", w.Code)
	}
}
