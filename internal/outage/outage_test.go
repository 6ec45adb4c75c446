package outage_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/svcagent/svc/internal/outage"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// step is one try: after advancing the clock by at, cause failed (fail) or succeeded.
type step struct {
	at    time.Duration
	cause string
	fail  bool
}

// TestLog checks the lines of outages: one when a cause starts failing, a reminder at most once a
// minute with the failures not logged, one when it is back, and nothing for successes.
func TestLog(t *testing.T) {
	// fails returns n failures of cause, every d apart.
	fails := func(cause string, n int, d time.Duration) []step {
		out := make([]step, n)
		for i := range out {
			out[i] = step{at: d, cause: cause, fail: true}
		}
		return out
	}
	cat := func(parts ...[]step) []step {
		var out []step
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		steps []step
		want  []string // "level message suppressed=n failures=n"
	}{
		{"successes only", []step{{at: time.Second, cause: "relay"}, {at: time.Second, cause: "relay"}}, nil},
		{"one failure then back", []step{{at: 0, cause: "relay", fail: true}, {at: time.Second, cause: "relay"}},
			[]string{"warn relay: failing", "info relay: back failures=1"}},
		// 4 a second for 150 s: the first logged, reminders at 60 s and 120 s, then back.
		{"a long outage", cat(fails("redis", 600, 250*time.Millisecond), []step{{at: time.Second, cause: "redis"}}),
			[]string{"warn redis: failing", "warn redis: still failing suppressed=239 failures=241",
				"warn redis: still failing suppressed=239 failures=481", "info redis: back failures=600"}},
		{"causes apart", []step{{cause: "relay", fail: true}, {at: time.Second, cause: "sweep", fail: true},
			{at: time.Second, cause: "relay", fail: true}, {at: time.Second, cause: "relay"}, {at: time.Second, cause: "sweep"}},
			[]string{"warn relay: failing", "warn sweep: failing", "info relay: back failures=2", "info sweep: back failures=1"}},
		{"a second outage starts afresh", cat(fails("relay", 3, time.Second), []step{{at: time.Second, cause: "relay"}},
			fails("relay", 2, time.Second), []step{{at: time.Second, cause: "relay"}}),
			[]string{"warn relay: failing", "info relay: back failures=3", "warn relay: failing", "info relay: back failures=2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			core, logs := observer.New(zap.DebugLevel)
			clk := &clock{now: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
			l := outage.New(zap.New(core), clk, outage.Reminder)
			for _, s := range c.steps {
				clk.now = clk.now.Add(s.at)
				var err error
				if s.fail {
					err = errors.New("dial tcp: connection refused")
				}
				l.Report(s.cause, err)
				if l.Failing(s.cause) != s.fail {
					t.Fatalf("Failing(%q) %v after a try that failed %v", s.cause, !s.fail, s.fail)
				}
			}
			var got []string
			for _, e := range logs.All() {
				line := e.Level.String() + " " + e.Message
				fields := e.ContextMap()
				for _, k := range []string{"suppressed", "failures"} {
					if v, ok := fields[k]; ok && !(k == "failures" && strings.HasSuffix(e.Message, "failing") && fields["suppressed"] == nil) {
						line += fmt.Sprintf(" %s=%v", k, v)
					}
				}
				if e.Level == zap.WarnLevel && fields["error"] == nil {
					t.Errorf("%q carries no error", e.Message)
				}
				if e.Stack != "" {
					t.Errorf("%q carries a stack trace", e.Message)
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
