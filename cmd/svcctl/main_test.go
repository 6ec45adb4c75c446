package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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

// env is a lookup of the given variables only.
func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// TestArgumentsBeforeTheStore: a wrong flag, a missing one or --help is answered from the command
// line alone, before the store is opened: an unreachable database does not hide it, and a SQLite
// file is not made by it.
func TestArgumentsBeforeTheStore(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{"sqlite://" + dir + "/data/svc.db", "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=1"} {
		lookup := env(map[string]string{"SVC_DATABASE_URL": url})
		err := run(context.Background(), []string{"account", "create", "--bogus"}, io.Discard, lookup, nil)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-bogus") {
			t.Errorf("%s: account create --bogus: %v, want the usage error naming the flag", url, err)
		}
		err = run(context.Background(), []string{"key", "list"}, io.Discard, lookup, nil)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--account is required") {
			t.Errorf("%s: key list: %v, want --account is required", url, err)
		}
		err = run(context.Background(), []string{"key", "create", "--help"}, io.Discard, lookup, nil)
		var h commandHelp
		if !errors.Is(err, flag.ErrHelp) || !errors.As(err, &h) ||
			!strings.HasPrefix(h.text, "usage: svcctl key create [flags]") || !strings.Contains(h.text, "-send-without-approval") {
			t.Errorf("%s: key create --help: %v, want the command's flags", url, err)
		}
		// An unset variable ("$WA_TOKEN") is named by its flag, as the command line has it.
		err = run(context.Background(), []string{"channel", "connect", "whatsapp", "--account", "acct_x", "--phone-number-id", "1055501",
			"--access-token", "", "--app-secret", "s", "--verify-token", "v"}, io.Discard, lookup, nil)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--access-token is required") {
			t.Errorf("%s: channel connect whatsapp --access-token '': %v, want --access-token is required", url, err)
		}
		err = run(context.Background(), []string{"channel", "connect", "telegram", "--account", "acct_x"}, io.Discard, lookup, nil)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--bot-token is required") {
			t.Errorf("%s: channel connect telegram: %v, want --bot-token is required", url, err)
		}
		if err := run(context.Background(), []string{"account", "--help"}, io.Discard, lookup, nil); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: account --help: %v, want the help", url, err)
		}
	}
	if _, err := os.Stat(dir + "/data"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a command refused for its arguments made the SQLite directory: %v", err)
	}
}

// TestSQLiteDatabase: a command on a SQLite file that is not there says so and makes none; an
// unmigrated one says to migrate; svcctl migrate makes it, and its output keeps an address as given.
func TestSQLiteDatabase(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/data/svc.db"
	lookup := env(map[string]string{"SVC_DATABASE_URL": "sqlite://" + path})
	err := run(ctx, []string{"account", "list"}, io.Discard, lookup, nil)
	if err == nil || !strings.Contains(err.Error(), "no database at") || !strings.Contains(err.Error(), path) {
		t.Errorf("account list without a database: %v, want that there is no database at %s", err, path)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("account list made %s: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"account", "list"}, io.Discard, lookup, nil)
	if err == nil || !strings.Contains(err.Error(), "run svcctl migrate first") {
		t.Errorf("account list on an empty database: %v, want to run svcctl migrate first", err)
	}
	if err := run(ctx, []string{"migrate"}, io.Discard, lookup, nil); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(ctx, []string{"account", "create", "--name", "Padaria Lu"}, &out, lookup, nil); err != nil {
		t.Fatal(err)
	}
	var created struct {
		AccountID string `json:"account_id"`
	}
	if err := json.Unmarshal([]byte(out.String()), &created); err != nil || created.AccountID == "" {
		t.Fatalf("account create: %q, %v", out.String(), err)
	}
	out.Reset()
	args := []string{"mail", "set", "--account", created.AccountID, "--host", "smtp.example.com", "--from", "Padaria Lu <lu@example.com>"}
	if err := run(ctx, args, &out, lookup, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"from": "Padaria Lu <lu@example.com>"`) {
		t.Errorf("mail set printed %s, want the from address as given", out.String())
	}
	// An account that does not exist is named as such by every command taking --account, not
	// taken for an account without a mailbox (or keys).
	for _, cmd := range [][]string{{"mail", "show"}, {"mail", "delete"}, {"mail", "set", "--host", "smtp.example.com", "--from", "lu@example.com"},
		{"key", "list"}, {"key", "create"}, {"account", "show"}, {"account", "set-status", "--status", "inactive"},
		{"account", "set-plan", "--plan", "pro"}, {"owner", "set-password", "--email", "lu@example.com", "--password", "0123456789ab"},
		{"channel", "connect", "telegram", "--bot-token", "123:abc"}} {
		err := run(ctx, append(cmd, "--account", "acct_nobody"), io.Discard, lookup, nil)
		if msg := message(err); !strings.Contains(msg, "account not found") || errors.Is(err, errUsage) {
			t.Errorf("%s --account acct_nobody: %q, want that the account does not exist", strings.Join(cmd, " "), msg)
		}
	}
	// --password-stdin on an empty line (an unset variable piped in) stores nothing.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.WriteString("\n")
	_ = w.Close()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	err = run(ctx, append(args, "--username", "lu@example.com", "--password-stdin"), io.Discard, lookup, nil)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "empty password") {
		t.Errorf("mail set --password-stdin with an empty line: %v, want the empty password refused", err)
	}
}

// TestUnreachableDatabaseSaysWhy: a database that cannot be reached is stated with its cause,
// which the operator needs (here a refused connection), not only "try again shortly".
func TestUnreachableDatabaseSaysWhy(t *testing.T) {
	lookup := env(map[string]string{"SVC_DATABASE_URL": "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=1"})
	err := run(context.Background(), []string{"account", "list"}, io.Discard, lookup, nil)
	if msg := message(err); !strings.HasPrefix(msg, "service_unavailable: ") || !strings.Contains(msg, "127.0.0.1:1") {
		t.Errorf("account list on an unreachable database: %q, want service_unavailable with its cause", msg)
	}
}
