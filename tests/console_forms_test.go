package tests

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestConsoleFormErrors: a value the service refuses brings the owner back to the same form
// (400, as the API answers), with the reason next to the field (the input aria-invalid and
// aria-describedby the reason, shown with role="alert") and every value typed kept, escaped; a
// password is never sent back, and nothing is stored.
func TestConsoleFormErrors(t *testing.T) { onStacks(t, testConsoleFormErrors) }

func testConsoleFormErrors(t *testing.T, s stack) {
	api, a, b := signedInOwner(t, s)
	for _, tt := range []struct {
		name, from, path string
		form             url.Values
		input, errorID   string // the id of the element marked invalid, and of its reason
		reason           string // in the reason
		kept             []string
	}{
		{"a key's name too long", "/app/keys", "/app/keys", url.Values{"name": {"<b>Lu's key</b>" + strings.Repeat("k", 100)}},
			"key-name", "key-name-error", "at most 100 characters", []string{`value="` + html.EscapeString("<b>Lu's key</b>")}},
		{"a webhook over http", "/app/webhooks", "/app/webhooks", url.Values{"url": {"http://hooks.shop.example/x"}, "events": {"message.replied"}},
			"webhook-url", "webhook-url-error", "https", []string{`value="http://hooks.shop.example/x"`, `value="message.replied" checked`}},
		{"a webhook without event", "/app/webhooks", "/app/webhooks", url.Values{"url": {"https://hooks.shop.example/x"}},
			"webhook-events", "webhook-events-error", "events", []string{`value="https://hooks.shop.example/x"`}},
		{"a widget colour", "/app/widget", "/app/widget/style", url.Values{"position": {"left"}, "theme": {"dark"}, "accent": {"#zzz"}, "drag": {"on"}},
			"accent", "style-accent-error", "colour", []string{`value="#zzz"`, `value="left" selected`, `value="dark" selected`, `name="drag" checked`}},
		{"a widget domain", "/app/widget", "/app/widget/domains", url.Values{"domains": {"shop.example\nbad_host!"}},
			"domains", "domains-domains-error", "host name", []string{">shop.example\nbad_host!</textarea>"}},
		{"an FAQ question of blanks", "/app/brain", "/app/brain/faq", url.Values{"question": {"   "}, "answer": {"Yes, <i>we</i> deliver"}},
			"faq-q", "faq-question-error", "Write the question.", []string{html.EscapeString("Yes, <i>we</i> deliver") + "</textarea>"}},
		{"a test question with a control character", "/app/brain", "/app/brain/try", url.Values{"question": {"Do you open\x01 on Sundays?"}},
			"try-q", "try-question-error", "control characters", []string{`Do you open`}},
		{"a crawl of an ftp address", "/app/brain", "/app/brain/crawl", url.Values{"url": {"ftp://shop.example/"}},
			"crawl-url", "crawl-url-error", "http(s)", []string{`value="ftp://shop.example/"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := b.post(tt.from, tt.path, tt.form)
			checkFormError(t, p, tt.input, tt.errorID, tt.reason, tt.kept)
		})
	}
	t.Run("a period that is no date", func(t *testing.T) {
		p := b.get("/app/conversions?" + url.Values{"from": {"<yesterday>"}, "to": {"2026-11-02"}}.Encode())
		checkFormError(t, p, "from", "period-from-error", "date", []string{`value="&lt;yesterday&gt;"`, `value="2026-11-02"`, `id="totals"`})
	})
	t.Run("a wrong password", func(t *testing.T) {
		out := newOwnerBrowser(t, api.URL())
		p := out.post("/app/login", "/app/login", url.Values{"email": {"lu@example.com"}, "password": {"my secret guess 123"}})
		if p.status != http.StatusUnauthorized || strings.Contains(p.body, "my secret guess 123") || !strings.Contains(p.body, `value="lu@example.com"`) ||
			!regexp.MustCompile(`id="password"[^>]*aria-describedby="login-error"[^>]*aria-invalid="true"`).MatchString(p.body) {
			t.Errorf("wrong password: %d, the password sent back, the e-mail lost or the field not marked:\n%s", p.status, p.body)
		}
	})

	// The reason is said in the console's language (the field's name left to the page).
	t.Run("in Portuguese and Spanish", func(t *testing.T) {
		b.get("/app/keys?lang=pt")
		p := b.post("/app/keys", "/app/keys", url.Values{"name": {strings.Repeat("k", 101)}})
		checkFormError(t, p, "key-name", "key-name-error", "No máximo 100 caracteres.", nil)
		p = b.post("/app/brain", "/app/brain/faq", url.Values{"question": {"   "}, "answer": {"Sim"}})
		checkFormError(t, p, "faq-q", "faq-question-error", "Escreva a pergunta.", nil)
		// The language links of a page answering a form lead to the form's page (its path takes
		// only a POST).
		if !strings.Contains(p.body, `href="/app/brain?lang=es"`) {
			t.Errorf("the ES link of a refused form's page does not lead to the form's page:\n%s", p.body)
		}
		p = b.get("/app/conversions?" + url.Values{"lang": {"es"}, "from": {"ayer"}, "to": {"2026-11-02"}}.Encode())
		checkFormError(t, p, "from", "period-from-error", "Indica una fecha (2026-11-01) o una hora RFC 3339.", nil)
		// The language links keep the page's query: the period the owner was reading.
		p = b.get("/app/conversions?" + url.Values{"from": {"2026-11-01"}, "to": {"2026-11-02"}}.Encode())
		if !strings.Contains(p.body, `href="?from=2026-11-01&amp;lang=pt&amp;to=2026-11-02"`) {
			t.Errorf("the PT link does not keep the period:\n%s", p.body)
		}
		b.get("/app/keys?lang=en")
	})

	// Nothing refused was stored.
	if r := call(t, "GET", api.URL()+"/v1/webhooks", bearer(a.key)...); len(listOf(r.body, "data")) != 0 {
		t.Errorf("webhooks after refused forms: %s", r)
	}
	if p := b.get("/app/keys"); strings.Contains(p.body, "Lu&#39;s key") {
		t.Errorf("a refused key is listed")
	}
	// And a good form still redirects (Post/Redirect/Get).
	if p := b.post("/app/widget", "/app/widget/style", url.Values{"position": {"left"}, "theme": {"dark"}, "accent": {"#123456"}}); p.status != http.StatusSeeOther || p.location != "/app/widget" {
		t.Errorf("a good style: %d %q", p.status, p.location)
	}
}

// checkFormError checks a form shown again with its error: 400, the element id marked invalid
// and described by its reason errorID (role="alert", holding reason), and the values kept.
func checkFormError(t *testing.T, p consolePage, id, errorID, reason string, kept []string) {
	t.Helper()
	if p.status != http.StatusBadRequest {
		t.Fatalf("%d, want 400 and the form again\n%s", p.status, p.body)
	}
	marked := regexp.MustCompile(`<[a-z]+ id="` + regexp.QuoteMeta(id) + `"[^>]*aria-invalid="true" aria-describedby="` + regexp.QuoteMeta(errorID) + `"`)
	if !marked.MatchString(p.body) {
		t.Errorf("#%s is not marked invalid and described by #%s:\n%s", id, errorID, p.body)
	}
	m := regexp.MustCompile(`<p class="field-error" id="` + regexp.QuoteMeta(errorID) + `" role="alert">([^<]*)</p>`).FindStringSubmatch(p.body)
	if m == nil || !strings.Contains(html.UnescapeString(m[1]), reason) {
		t.Errorf("the reason #%s: %q, want it to say %q", errorID, m, reason)
	}
	for _, k := range kept {
		if !strings.Contains(p.body, k) {
			t.Errorf("the value typed is lost: no %q in\n%s", k, p.body)
		}
	}
	if !csrfInput.MatchString(p.body) {
		t.Errorf("the form shown again has no CSRF token")
	}
}
