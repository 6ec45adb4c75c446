package console

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	assistantapp "github.com/svcagent/svc/app/assistant"
	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/approval"
	"github.com/svcagent/svc/domain/assistant"
)

// TestNumbers: numbers are written as each language writes them, in T's verbs as in N and Money.
func TestNumbers(t *testing.T) {
	for _, c := range []struct{ lang, n, money, t string }{
		{"en", "1,234.5", "1,234,567.50", "Done: 1,234 pages read, 12,345 passages."},
		{"pt", "1.234,5", "1.234.567,50", "Feito: 1.234 páginas lidas, 12.345 excertos."},
		{"es", "1.234,5", "1.234.567,50", "Hecho: 1.234 páginas leídas, 12.345 pasajes."},
	} {
		v := view{Lang: c.lang, msgs: catalog[c.lang]}
		if got := v.N(1234.5); got != c.n {
			t.Errorf("%s: N(1234.5) = %q, want %q", c.lang, got, c.n)
		}
		if got := v.N(7); got != "7" {
			t.Errorf("%s: N(7) = %q", c.lang, got)
		}
		if got := v.Money(1234567.5); got != c.money {
			t.Errorf("%s: Money = %q, want %q", c.lang, got, c.money)
		}
		if got := v.T("brain.crawled", 1234, 12345); got != c.t {
			t.Errorf("%s: T = %q, want %q", c.lang, got, c.t)
		}
	}
}

// crawlSources give the crawl_failed reasons: the crawler's because(…) and describe(…) forms,
// and the app's domain.Errorf(domain.CodeCrawlFailed, …).
var crawlSources = []string{"../crawl/crawl.go", "../crawl/run.go", "../../app/knowledge/brain.go"}

// crawlForms returns the reasons' forms the sources give: each because literal; each describe
// one also after "the site could not be reached: " (unreachable's prefix).
func crawlForms(t *testing.T) map[string]bool {
	t.Helper()
	forms := map[string]bool{}
	var described []string
	for _, name := range crawlSources {
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		inDescribe := false
		ast.Inspect(f, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok {
				inDescribe = fn.Name.Name == "describe"
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			var lit ast.Expr
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if fun.Name == "because" {
					lit = call.Args[0]
				}
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "domain" && fun.Sel.Name == "Errorf" && len(call.Args) > 1 {
					if code, ok := call.Args[0].(*ast.SelectorExpr); ok && code.Sel.Name == "CodeCrawlFailed" {
						lit = call.Args[1]
					}
				}
			}
			if lit == nil {
				return true
			}
			b, ok := lit.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING {
				// "%s "+why.format: a redirect's form after the URL, each of which is a because literal
				return true
			}
			s, err := strconv.Unquote(b.Value)
			if err != nil {
				t.Fatal(err)
			}
			if inDescribe {
				described = append(described, s)
			} else if !strings.HasPrefix(s, "redirects ") {
				forms[s] = true
			} else {
				forms["%s "+s] = true
			}
			return true
		})
	}
	for _, d := range described {
		forms["the site could not be reached: "+d] = true
	}
	return forms
}

// TestCrawlReasons: every reason the crawler and the app give for a crawl that read no page has
// its words in Portuguese and Spanish, each taking the same values; none is left over.
func TestCrawlReasons(t *testing.T) {
	forms := crawlForms(t)
	if len(forms) < 20 {
		t.Fatalf("found %d reasons: the sources moved? %v", len(forms), forms)
	}
	for _, lang := range []string{"pt", "es"} {
		for f := range forms {
			tr, ok := crawlReasons[lang][f]
			if !ok {
				t.Errorf("%s: no words for %q", lang, f)
				continue
			}
			var args []any
			for i := 0; i < len(f)-1; i++ {
				if f[i] == '%' {
					switch f[i+1] {
					case 's':
						args = append(args, fmt.Sprintf("v%d", len(args)))
					case 'd':
						args = append(args, 100+len(args))
					}
				}
			}
			got := fmt.Sprintf(tr, args...)
			for _, a := range args {
				if !strings.Contains(got, fmt.Sprint(a)) || strings.Contains(got, "%!") {
					t.Errorf("%s: %q formats %v as %q", lang, tr, args, got)
				}
			}
		}
		for f := range crawlReasons[lang] {
			if !forms[f] {
				t.Errorf("%s: %q is no longer a reason the crawler gives", lang, f)
			}
		}
	}
	e := &domain.Error{Code: domain.CodeCrawlFailed, Message: "https://x.example/ answered HTTP 503", Format: "%s answered HTTP %d", Args: []any{"https://x.example/", 503}}
	for lang, want := range map[string]string{"en": e.Message, "pt": "https://x.example/ respondeu HTTP 503.", "es": "https://x.example/ respondió HTTP 503."} {
		if got := (view{Lang: lang}).crawlReason(e); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// TestApprovalsRendered: each pending approval shows its actions in full, whom they are for and
// when it expires, with an approve and a refuse form carrying the CSRF field; the outcome of an
// approval is said in the page's language.
func TestApprovalsRendered(t *testing.T) {
	p, err := parsePages()
	if err != nil {
		t.Fatal(err)
	}
	c := &Console{pages: p, log: zap.NewNop()}
	made := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	a := approval.New("apr_k1", "acct_a", []assistant.Action{
		{Type: assistant.Email, To: "ana@example.com", Cc: "bo@example.com", Subject: "Order <7>", Text: "Line 1\nLine 2"},
		{Type: assistant.Settings, Setting: "tone", Value: "formal"}}, made)
	text := "Feito."
	for _, tt := range []struct {
		lang  string
		extra map[string]any
		want  []string
	}{
		{"en", nil, []string{`id="approval-apr_k1"`, `action="/app/approvals/apr_k1/approve"`, `action="/app/approvals/apr_k1/refuse"`,
			"E-mail", "ana@example.com, bo@example.com", "Order &lt;7&gt;", "Line 1\nLine 2", "Change of a setting", "formal",
			`<time datetime="2026-11-29T11:00:00Z">2026-11-29 11:00 UTC</time>`, "within 60 minutes"}},
		{"pt", map[string]any{"Approved": assistantapp.Reply{Status: assistant.StatusFailed, Text: &text, Actions: []assistant.Outcome{
			{Action: a.Actions[0], Error: "send_failed"}, {Action: a.Actions[1], OK: true}}}},
			[]string{"Aprovado, mas nem tudo pôde ser feito.", "não feito: o e-mail não pôde ser enviado", "Mudança de configuração: feito", "Aprovar", "Recusar"}},
		{"es", map[string]any{"Gone": true}, []string{"Esta aprobación ya se aprobó o se rechazó, o caducó"}},
	} {
		w := httptest.NewRecorder()
		ctx, _ := gin.CreateTestContext(w)
		ctx.Request = httptest.NewRequest(http.MethodGet, "/app/approvals?lang="+tt.lang, nil)
		data := map[string]any{"Pending": []approval.Request{a}, "Lifetime": 60}
		for k, v := range tt.extra {
			data[k] = v
		}
		c.render(ctx, http.StatusOK, "approvals", data)
		body := w.Body.String()
		for _, s := range tt.want {
			if !strings.Contains(body, s) {
				t.Errorf("%s: no %q in\n%s", tt.lang, s, body)
			}
		}
		if n := strings.Count(body, `name="`+csrfField+`"`); n != 0 && n < 2 {
			t.Errorf("%s: %d CSRF fields", tt.lang, n)
		}
	}
	if actionLabel(assistant.Delete) != "" || (view{Lang: "pt", msgs: catalog["pt"]}).ActionType(assistant.Delete) != "delete" {
		t.Error("a type the catalogue lacks is not shown as it is")
	}
}
