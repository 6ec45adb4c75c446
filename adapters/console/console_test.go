package console

import (
	"io/fs"
	"regexp"
	"testing"
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
	for _, name := range []string{"login", "error", "overview", "keys", "widget", "brain", "conversations", "conversation",
		"webhooks", "webhook", "conversions", "notifications"} {
		if p.byName[name] == nil {
			t.Errorf("no page %q", name)
		}
	}
}
