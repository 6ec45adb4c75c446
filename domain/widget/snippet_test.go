package widget

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files of the snippets")

// snippetCases are the parameters each framework's snippet is written and checked with.
var snippetCases = []struct {
	name string
	s    Snippet
}{
	{"plain", Snippet{ScriptURL: "https://svc.example/widget.js", Token: "wt_3kQ9xZ"}},
	{"lang-position", Snippet{ScriptURL: "https://svc.example/widget.js", Token: "wt_3kQ9xZ", Lang: "pt-BR", Position: Left}},
	// Never produced by the service (tokens are letters, digits and _), but it must not break out.
	{"quotes", Snippet{ScriptURL: "https://svc.example/widget.js?a=1&b=2", Token: `wt_"</script><b>'`, Position: Right}},
}

// TestSnippetGolden compares each framework's snippet with its golden file under testdata/snippets
// (go test -update rewrites them; review the diff).
func TestSnippetGolden(t *testing.T) {
	for _, f := range Frameworks {
		for _, tc := range snippetCases {
			t.Run(string(f)+"/"+tc.name, func(t *testing.T) {
				got := tc.s.Code(f)
				path := filepath.Join("testdata", "snippets", string(f)+"."+tc.name+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to write it)", err)
				}
				if got != string(want) {
					t.Errorf("snippet differs from %s:\n%s", path, got)
				}
			})
		}
	}
}

// TestSnippetParses parses each framework's snippet: HTML with golang.org/x/net/html (the script
// element must carry the address and every data-* attribute, with their values as given), TSX,
// JSX and TypeScript with esbuild, and the script and template parts of Vue and Svelte
// components with each.
func TestSnippetParses(t *testing.T) {
	for _, f := range Frameworks {
		for _, tc := range snippetCases {
			t.Run(string(f)+"/"+tc.name, func(t *testing.T) {
				code := tc.s.Code(f)
				switch f {
				case HTML, CMS:
					checkScriptTag(t, code, tc.s)
				case Astro:
					parts := strings.SplitN(code, "---\n", 3)
					if len(parts) != 3 || parts[0] != "" {
						t.Fatalf("no front matter fence:\n%s", code)
					}
					parseTS(t, parts[1], api.LoaderTS)
					checkScriptTag(t, parts[2], tc.s)
				case NextJSApp, NextJSPages, React:
					parseTS(t, code, api.LoaderTSX)
					checkJSValues(t, code, tc.s)
				case Nuxt, Angular:
					parseTS(t, code, api.LoaderTS)
					checkJSValues(t, code, tc.s)
				case Vue, Svelte:
					m := regexp.MustCompile(`(?s)^<script[^>]*>\n(.*?)</script>\n(.*)$`).FindStringSubmatch(code)
					if m == nil {
						t.Fatalf("no <script> block first:\n%s", code)
					}
					parseTS(t, m[1], api.LoaderTS)
					checkJSValues(t, m[1], tc.s)
					if _, err := html.Parse(strings.NewReader(m[2])); err != nil {
						t.Errorf("template: %v", err)
					}
				default:
					t.Fatalf("no check for %s", f)
				}
			})
		}
	}
}

func parseTS(t *testing.T, code string, loader api.Loader) {
	t.Helper()
	r := api.Transform(code, api.TransformOptions{Loader: loader, JSX: api.JSXPreserve})
	for _, m := range r.Errors {
		line := ""
		if m.Location != nil {
			line = m.Location.LineText
		}
		t.Errorf("does not parse: %s\n  %s", m.Text, line)
	}
}

// checkScriptTag finds the one script element of code and checks its src and data-* attributes.
func checkScriptTag(t *testing.T, code string, s Snippet) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(code))
	found := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		if tok.Data != "script" || tt != html.StartTagToken {
			continue
		}
		found++
		attrs := map[string]string{}
		for _, a := range tok.Attr {
			attrs[a.Key] = a.Val
		}
		want := map[string]string{"src": s.ScriptURL}
		for _, a := range s.attrs() {
			want[a[0]] = a[1]
		}
		for k, v := range want {
			if attrs[k] != v {
				t.Errorf("attribute %s = %q, want %q", k, attrs[k], v)
			}
		}
		if _, ok := attrs["async"]; !ok {
			t.Errorf("script tag without async: %v", tok)
		}
	}
	if found != 1 {
		t.Errorf("%d script start tags, want 1:\n%s", found, code)
	}
}

// checkJSValues checks that the JS form of every value is in code (as a JS string or, in JSX, as
// an HTML-escaped attribute).
func checkJSValues(t *testing.T, code string, s Snippet) {
	t.Helper()
	for _, v := range append([]string{s.ScriptURL}, s.Token, s.Lang, s.Position) {
		if v == "" {
			continue
		}
		if !strings.Contains(code, js(v)) && !strings.Contains(code, `"`+html.EscapeString(v)+`"`) {
			t.Errorf("%q is not in the snippet:\n%s", v, code)
		}
	}
}
