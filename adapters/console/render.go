package console

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/outage"
)

// pages are the parsed templates: each page is the layout with its own content.
type pages struct{ byName map[string]*template.Template }

var funcs = template.FuncMap{
	"pct": func(part, whole int) int {
		if whole <= 0 {
			return 0
		}
		p := part * 100 / whole
		return min(max(p, 0), 100)
	},
}

func parsePages() (*pages, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &pages{byName: map[string]*template.Template{}}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(layout.Clone()).ParseFS(templateFiles, n)
		if err != nil {
			return nil, err
		}
		p.byName[name] = t
	}
	return p, nil
}

// view is what every page's template gets.
type view struct {
	Lang    string
	msgs    map[string]string
	Page    string
	Account any
	CSRF    template.HTML
	Token   string
	Path    string
	Data    any
	form    *formState // the form refused, if any (forms.go)
	query   url.Values // the page's query, which the language links keep
	// back is, for a page answering a form (a POST: its path may be the form's only), the page
	// the form was on (Console.backTo), which the language links lead to instead; "" otherwise.
	back string
}

// LangHref is the address of this page in lang: its query (a conversion report's period, a
// list's cursor) with lang set; for a page answering a form, the form's page's (back).
func (v view) LangHref(lang string) string {
	path, query := "", v.query
	if u, err := url.Parse(v.back); v.back != "" && err == nil {
		path, query = u.Path, u.Query()
	}
	q := url.Values{}
	for k, vs := range query {
		q[k] = vs
	}
	q.Set("lang", lang)
	return path + "?" + q.Encode()
}

// T returns the page's words for key, with args filled in (fmt verbs, numbers written as the
// page's language writes them: 1,234 in English, 1.234 in Portuguese and Spanish); the key
// itself when the catalogue lacks it (TestCatalogue keeps them complete).
func (v view) T(key string, args ...any) string {
	m, ok := v.msgs[key]
	if !ok {
		m = key
	}
	if len(args) > 0 {
		return printerOf(v.Lang).Sprintf(m, args...)
	}
	return m
}

// P is T for words that follow a count n: the catalogue's key.one when n is 1, key.other
// otherwise (the plural of every language the console speaks takes the singular for 1 alone).
func (v view) P(key string, n int, args ...any) string {
	if n == 1 {
		return v.T(key+".one", args...)
	}
	return v.T(key+".other", args...)
}

// N writes a number as the page's language does: thousands grouped and the decimal mark (en
// 1,234.5; pt and es 1.234,5), a fraction with at most 2 digits.
func (v view) N(n any) string {
	return printerOf(v.Lang).Sprint(number.Decimal(n, number.MaxFractionDigits(2)))
}

// Money writes an amount with 2 decimals as the page's language does (en 1,234.50; pt and es
// 1.234,50).
func (v view) Money(amount float64) string {
	return printerOf(v.Lang).Sprintf("%.2f", amount)
}

// printers write numbers in each of the console's languages.
var printers = func() map[string]*message.Printer {
	m := map[string]*message.Printer{}
	for _, t := range languages {
		m[baseOf(t)] = message.NewPrinter(t)
	}
	return m
}()

// printerOf is lang's printer; English's for another.
func printerOf(lang string) *message.Printer {
	if p, ok := printers[lang]; ok {
		return p
	}
	return printers["en"]
}

// languages are the console's languages; the first is the fallback.
var languages = []language.Tag{language.English, language.Portuguese, language.Spanish}

var matcher = language.NewMatcher(languages)

// langCookie keeps the language the owner chose.
const langCookie = "svc_lang"

// lang picks the page's language: ?lang= (kept in a cookie), the cookie, then Accept-Language.
func (c *Console) lang(ctx *gin.Context) string {
	if q := ctx.Query("lang"); q != "" {
		if _, ok := catalog[q]; ok {
			http.SetCookie(ctx.Writer, &http.Cookie{Name: langCookie, Value: q, Path: Prefix, MaxAge: 365 * 24 * 3600,
				HttpOnly: true, Secure: c.secure, SameSite: http.SameSiteLaxMode})
			return q
		}
	}
	if v, err := ctx.Cookie(langCookie); err == nil {
		if _, ok := catalog[v]; ok {
			return v
		}
	}
	return langOf("", ctx.GetHeader("Accept-Language"))
}

// langOf picks one of the console's languages: the one tag names (pt-BR: pt) if it is one of
// them, else the best for an Accept-Language header, else English.
func langOf(tag, acceptLanguage string) string {
	if t, err := language.Parse(tag); err == nil {
		if _, i, conf := matcher.Match(t); conf != language.No {
			return baseOf(languages[i])
		}
	}
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	_, i, _ := matcher.Match(tags...)
	return baseOf(languages[i])
}

func baseOf(t language.Tag) string {
	base, _ := t.Base()
	return base.String()
}

// render writes page name with data, in the owner's language.
func (c *Console) render(ctx *gin.Context, status int, name string, data any) {
	c.renderIn(ctx, c.lang(ctx), status, name, data)
}

// renderIn writes page name with data in lang.
func (c *Console) renderIn(ctx *gin.Context, lang string, status int, name string, data any) {
	t, ok := c.pages.byName[name]
	if !ok {
		c.fail(ctx, fmt.Errorf("console: no page %q", name))
		return
	}
	v := view{Lang: lang, msgs: catalog[lang], Page: name, CSRF: c.CSRFField(ctx), Token: c.CSRFToken(ctx),
		Path: ctx.Request.URL.Path, Data: data, query: ctx.Request.URL.Query()}
	if m := ctx.Request.Method; m != http.MethodGet && m != http.MethodHead {
		v.back = c.backTo(ctx.Request)
	}
	if m, ok := data.(map[string]any); ok {
		v.form, _ = m[formKey].(*formState)
	}
	if a, ok := signedIn(ctx); ok {
		v.Account = a
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", v); err != nil {
		c.log.Error("render", zap.String("page", name), zap.Error(err))
		ctx.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("internal error"))
		return
	}
	ctx.Data(status, "text/html; charset=utf-8", buf.Bytes())
}

// errorPage answers status with the page of message key msg.
func (c *Console) errorPage(ctx *gin.Context, status int, msg string) {
	c.render(ctx, status, "error", map[string]any{"Status": status, "Message": msg})
}

// fail answers err: a bad input 400, an unknown thing 404, a limit 429, an outage 503, else 500
// (logged, never shown).
func (c *Console) fail(ctx *gin.Context, err error) {
	status, msg := c.failure(ctx, err)
	c.answer(ctx, err, status, msg)
}

// answer is fail's answer once failure has said its status and message.
func (c *Console) answer(ctx *gin.Context, err error, status int, msg string) {
	if (status == http.StatusTooManyRequests || status >= http.StatusInternalServerError) && c.failedForm(ctx, err, status, msg) {
		return
	}
	if status == http.StatusBadRequest {
		// Which field and why, as the API says it: the owner can correct the form.
		data := map[string]any{"Status": status, "Message": msg}
		if e, ok := domain.AsError(err); ok {
			data["Field"], data["Detail"] = e.Field, e.Message
		}
		c.render(ctx, status, "error", data)
		return
	}
	c.errorPage(ctx, status, msg)
}

// failure is how fail answers err: its status and the key of its message (an internal error is
// logged here).
func (c *Console) failure(ctx *gin.Context, err error) (status int, msg string) {
	// A request cut short by the shutdown (its drain ran out) answers 503, not 500.
	switch domain.ErrorCode(outage.Cut(ctx.Request.Context(), err)) {
	case domain.CodeInvalidRequest, domain.CodeInputTooLarge:
		return http.StatusBadRequest, "error.invalid"
	case domain.CodeNotFound:
		return http.StatusNotFound, "error.not_found"
	case domain.CodeRateLimited:
		return http.StatusTooManyRequests, "error.rate_limited"
	case domain.CodeServiceUnavailable:
		return http.StatusServiceUnavailable, "error.unavailable"
	default:
		c.log.Error("console", zap.String("path", ctx.Request.URL.Path), zap.Error(err))
		return http.StatusInternalServerError, "error.internal"
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// failedForm answers a form of this console that met a limit (429) or a failure (5xx, 503): not
// the bare error page that lost what was typed (the console's pages are no-store, so the browser's
// Back may not bring it back), but the expired form's page (expired.html) saying what happened (a
// limit's wait in seconds; Retry-After for a limit and an outage, as the API answers), what was
// typed listed to copy (never a password or a secret), a button that sends it again and a link
// back to the form's page. false when the request is no form (not a POST, or a body that is not
// one).
func (c *Console) failedForm(ctx *gin.Context, err error, status int, msg string) bool {
	r := ctx.Request
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		return false
	}
	data := map[string]any{"Failed": msg, "Action": r.URL.RequestURI(), "Fields": typedFields(r), "Back": c.backTo(r)}
	if wait := c.setRetryAfter(ctx, err, status); wait != "" {
		data["Wait"] = wait
	}
	c.render(ctx, status, "expired", data)
	return true
}

// setRetryAfter sets Retry-After for a limit or an outage whose error says when to try again, as the
// API answers both, and returns a limit's wait in seconds to say ("" for an outage, whose end is
// not known: its page says to try again in a moment).
func (c *Console) setRetryAfter(ctx *gin.Context, err error, status int) string {
	e, ok := domain.AsError(outage.Cut(ctx.Request.Context(), err))
	if !ok || e.RetryAfter <= 0 || status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable {
		return ""
	}
	wait := retryAfter(e.RetryAfter)
	ctx.Header("Retry-After", wait)
	if status != http.StatusTooManyRequests {
		return ""
	}
	return wait
}
