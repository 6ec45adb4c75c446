package console

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// formChecks are the sources of the checks the console's forms reach: each of their
// domain.Invalid message forms needs words in every other language of the console.
var formChecks = []string{
	"pages.go",
	"../../domain/profile/patch.go",
	"../../domain/webhook/rules.go",
	"../../app/webhooks/webhooks.go",
	"../../domain/widget/widget.go",
	"../../domain/knowledge/brain.go",
	"../../domain/conversation/rules.go",
	"../../domain/owner/owner.go",
	"../../domain/account/account.go",
	"../../app/conversions/conversions.go",
	"../../adapters/apijson/conversions.go",
}

// invalidForms returns the literal message forms of the domain.Invalid calls in the files.
func invalidForms(t *testing.T, files []string) map[string]bool {
	t.Helper()
	forms := map[string]bool{}
	for _, name := range files {
		fs := token.NewFileSet()
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Invalid" {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "domain" {
				return true
			}
			lit, ok := call.Args[1].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: domain.Invalid's message is not a literal: it cannot be translated", fs.Position(call.Pos()))
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			forms[s] = true
			return true
		})
	}
	return forms
}

func TestReasons(t *testing.T) {
	forms := invalidForms(t, formChecks)
	if len(forms) < 50 {
		t.Fatalf("found %d message forms: the sources moved?", len(forms))
	}
	for _, lang := range []string{"pt", "es"} {
		words := reasons[lang]
		for f := range forms {
			if _, ok := words[f]; !ok {
				t.Errorf("%s: no words for %q", lang, f)
			}
		}
		for _, f := range slices.Sorted(maps.Keys(words)) {
			if !forms[f] {
				t.Errorf("%s: %q is no longer a message of the forms' checks", lang, f)
			}
		}
	}
	// English has words only for some forms, each still one of the forms' checks.
	for _, f := range slices.Sorted(maps.Keys(reasons["en"])) {
		if !forms[f] {
			t.Errorf("en: %q is no longer a message of the forms' checks", f)
		}
	}
}

// TestReasonValues formats every translation with values of the kinds its English form takes:
// none is left over or missing, and every number and quoted value the English gives is said.
func TestReasonValues(t *testing.T) {
	for _, lang := range []string{"en", "pt", "es"} {
		for f, tr := range reasons[lang] {
			var args []any
			var must []string
			for i := 0; i < len(f)-1; i++ {
				if f[i] != '%' {
					continue
				}
				i++
				switch f[i] {
				case 's':
					args = append(args, "field"+strconv.Itoa(len(args)))
				case 'd':
					n := 1000 + len(args)
					args = append(args, n)
					must = append(must, strconv.Itoa(n))
				case 'q':
					s := "value" + strconv.Itoa(len(args))
					args = append(args, s)
					must = append(must, strconv.Quote(s))
				case '%':
				default:
					t.Fatalf("%q: verb %%%c not handled by this test", f, f[i])
				}
			}
			got := fmt.Sprintf(tr, args...)
			if strings.Contains(got, "%!") {
				t.Errorf("%s: %q formats as %q", lang, tr, got)
			}
			for _, m := range must {
				if !strings.Contains(got, m) {
					t.Errorf("%s: %q leaves out %s: %q", lang, tr, m, got)
				}
			}
		}
	}
}

func TestReasonLanguage(t *testing.T) {
	st := &formState{Message: "name must be at most 100 characters", Format: "%s must be at most %d characters", Args: []any{"name", 100}}
	for _, c := range []struct{ lang, want string }{
		{"en", "name must be at most 100 characters"},
		{"pt", "No máximo 100 caracteres."},
		{"es", "Como máximo 100 caracteres."},
	} {
		if got := (view{Lang: c.lang}).reason(st); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
	other := &formState{Message: "the request is too large for the model"}
	if got := (view{Lang: "pt"}).reason(other); got != other.Message {
		t.Errorf("a refusal without a form: %q", got)
	}
}
