package console

import (
	"io/fs"
	"regexp"
	"testing"
	"time"

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
