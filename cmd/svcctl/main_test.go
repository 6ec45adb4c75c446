package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestHelpListsEveryCommand keeps svcctl --help in step with the commands run dispatches: every
// command path is listed, and every listed path is one run knows.
func TestHelpListsEveryCommand(t *testing.T) {
	paths := []string{
		"migrate",
		"account create", "account list", "account show", "account set-status", "account set-plan",
		"key create", "key list", "key revoke", "key set",
		"owner set-password",
		"mail set", "mail show", "mail delete",
		"ping",
		"channel connect whatsapp", "channel connect telegram",
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(helpText, "\n") {
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
			continue
		}
		var words []string
		for _, w := range strings.Fields(line) {
			if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") || w != strings.ToLower(w) {
				break
			}
			words = append(words, w)
			if len(words) == 3 || (len(words) == 2 && words[0] != "channel") || words[0] == "migrate" || words[0] == "ping" {
				break
			}
		}
		listed[strings.Join(words, " ")] = true
	}
	for _, p := range paths {
		if !listed[p] {
			t.Errorf("svcctl --help does not list %q", p)
		}
		// A known path gets past dispatch: a bad configuration stops it, never "unknown".
		lookup := func(k string) (string, bool) {
			if k == "SVC_DATABASE_URL" {
				return "bogus://x", true
			}
			return "", false
		}
		err := run(context.Background(), strings.Fields(p), io.Discard, lookup, nil)
		if err == nil || errors.Is(err, errUsage) && strings.Contains(err.Error(), "unknown") {
			t.Errorf("svcctl %s: %v", p, err)
		}
	}
	for p := range listed {
		found := false
		for _, q := range paths {
			found = found || p == q
		}
		if !found {
			t.Errorf("svcctl --help lists %q, which the test does not know", p)
		}
	}
}
