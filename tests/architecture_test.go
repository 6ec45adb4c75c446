package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// The import rules of DESIGN.md part 1. Each rule says which packages it applies to and judges
// one import of such a package; a non-empty verdict is a violation. Paths are relative to the
// module ("domain/ledger"); an import outside the module keeps its full path.

// imp is one import of a package, classified.
type imp struct {
	path     string // as written in the import
	rel      string // relative to the module when inModule
	inModule bool
	std      bool // the standard library
}

type archRule struct {
	name string
	// applies reports whether the rule governs the package at rel (module-relative path).
	applies func(rel string) bool
	// tests makes the rule judge the imports of the package's test files too.
	tests bool
	// judge returns why the import breaks the rule, or "".
	judge func(pkg string, i imp) string
}

// under reports whether rel is dir or inside it.
func under(rel, dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }

// appLibraries are the third-party libraries the app layer may use: pure code (no I/O, no
// process-wide state) that the use cases would otherwise write by hand. Anything else outside the
// standard library is an adapter's business; add a library here only when it is of that kind.
var appLibraries = []string{
	"github.com/hashicorp/golang-lru/v2",       // the Brain's per-version index cache
	"github.com/santhosh-tekuri/jsonschema/v6", // checking structured replies against their schema
	"golang.org/x/text/",                       // language tags and localised numbers
	"golang.org/x/crypto/bcrypt",               // the owner's password hash (app/owners)
}

// technologyLibraries are libraries the app layer must not touch, named in the violation.
var technologyLibraries = []string{
	"github.com/gin-gonic/",
	"github.com/uptrace/bun",
	"github.com/hibiken/asynq",
	"github.com/redis/go-redis/",
	"github.com/go-redis/",
	"go.uber.org/zap",
	"github.com/google/wire",
}

// impureStd are the standard packages the domain never imports (it does no I/O).
var impureStd = []string{"net/http", "database/sql", "os/exec"}

var archRules = []archRule{
	{
		name:    "the domain imports only the standard library and other domain packages",
		applies: func(rel string) bool { return under(rel, "domain") },
		judge: func(_ string, i imp) string {
			switch {
			case i.inModule && !under(i.rel, "domain"):
				return "a package of the module outside domain/"
			case !i.inModule && !i.std:
				return "a library outside the standard library"
			case i.std:
				for _, p := range impureStd {
					if under(i.path, p) {
						return "a standard package that does I/O (" + p + ")"
					}
				}
			}
			return ""
		},
	},
	{
		name: "ports import only the standard library and the domain",
		applies: func(rel string) bool {
			return under(rel, "ports") && !under(rel, "ports/mock") && !under(rel, "ports/portstest")
		},
		judge: func(_ string, i imp) string {
			switch {
			case i.inModule && !under(i.rel, "domain") &&
				(!under(i.rel, "ports") || under(i.rel, "ports/mock") || under(i.rel, "ports/portstest")):
				return "a package of the module outside domain/"
			case !i.inModule && !i.std:
				return "a library outside the standard library"
			}
			return ""
		},
	},
	{
		name:    "the app layer uses no technology, adapter, command or configuration; of libraries, only appLibraries",
		applies: func(rel string) bool { return under(rel, "app") },
		judge: func(_ string, i imp) string {
			if i.inModule {
				for _, dir := range []string{"adapters", "cmd", "config"} {
					if under(i.rel, dir) {
						return "a package under " + dir + "/"
					}
				}
				return ""
			}
			if i.std {
				return ""
			}
			for _, lib := range technologyLibraries {
				if strings.HasPrefix(i.path, lib) {
					return "a technology library (" + strings.TrimSuffix(lib, "/") + ")"
				}
			}
			for _, lib := range appLibraries {
				if under(i.path, strings.TrimSuffix(lib, "/")) {
					return ""
				}
			}
			return "a library that is not one of the pure libraries the app layer may use (appLibraries)"
		},
	},
	{
		name:    "an adapter never imports another adapter",
		applies: func(rel string) bool { return strings.HasPrefix(rel, "adapters/") },
		judge: func(pkg string, i imp) string {
			if !i.inModule || !strings.HasPrefix(i.rel, "adapters/") {
				return ""
			}
			if adapterOf(pkg) != adapterOf(i.rel) {
				return "another adapter (adapters/" + adapterOf(i.rel) + ")"
			}
			return ""
		},
	},
	{
		name:    "config is imported by cmd and adapters only",
		applies: func(rel string) bool { return !under(rel, "cmd") && !under(rel, "adapters") && !under(rel, "config") },
		judge: func(_ string, i imp) string {
			if i.inModule && under(i.rel, "config") {
				return "the configuration package"
			}
			return ""
		},
	},
	{
		name:    "config depends on no layer above the domain",
		applies: func(rel string) bool { return under(rel, "config") },
		judge: func(_ string, i imp) string {
			for _, dir := range []string{"ports", "app", "adapters", "cmd"} {
				if i.inModule && under(i.rel, dir) {
					return "a package under " + dir + "/"
				}
			}
			return ""
		},
	},
	{
		name:    "the end-to-end tests are black-box",
		applies: func(rel string) bool { return under(rel, "tests") },
		tests:   true,
		judge: func(_ string, i imp) string {
			if i.inModule && !under(i.rel, "internal/testenv") && !under(i.rel, "tests") {
				return "a package of the module other than internal/testenv"
			}
			return ""
		},
	},
}

// adapterOf returns X of adapters/X/...
func adapterOf(rel string) string {
	parts := strings.SplitN(strings.TrimPrefix(rel, "adapters/"), "/", 2)
	return parts[0]
}

// classify describes the import path p as seen from module.
func classify(module, p string) imp {
	i := imp{path: p}
	switch {
	case p == module:
		i.inModule = true
	case strings.HasPrefix(p, module+"/"):
		i.inModule, i.rel = true, strings.TrimPrefix(p, module+"/")
	default:
		first, _, _ := strings.Cut(p, "/")
		i.std = !strings.Contains(first, ".") && p != "C"
	}
	return i
}

// goPackage is the part of `go list -json` output the test reads.
type goPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

// archViolations returns one message per import of pkg (module-relative) that breaks a rule.
func archViolations(module string, p goPackage) []string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
	var out []string
	for _, r := range archRules {
		if !r.applies(rel) {
			continue
		}
		imports := p.Imports
		if r.tests {
			imports = append(append(append([]string(nil), p.Imports...), p.TestImports...), p.XTestImports...)
		}
		seen := map[string]bool{}
		for _, path := range imports {
			if seen[path] {
				continue
			}
			seen[path] = true
			if why := r.judge(rel, classify(module, path)); why != "" {
				out = append(out, p.ImportPath+" imports "+path+": "+why+" (rule: "+r.name+")")
			}
		}
	}
	return out
}

func TestArchitecture(t *testing.T) {
	root := repoRoot(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -e -json ./...: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })

	checked := map[string]int{} // rule name → packages it governed
	for _, p := range pkgs {
		if !strings.HasPrefix(p.ImportPath, modulePath) {
			continue
		}
		if p.Error != nil {
			t.Logf("go list reports a problem in %s (not an import rule): %s", p.ImportPath, p.Error.Err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, modulePath), "/")
		for _, r := range archRules {
			if r.applies(rel) {
				checked[r.name]++
			}
		}
		for _, v := range archViolations(modulePath, p) {
			t.Error(v)
		}
	}
	if checked[archRules[0].name] == 0 {
		t.Errorf("go list found no package under domain/: the rules checked nothing (%d packages listed)", len(pkgs))
	}
	for _, r := range archRules {
		t.Logf("%3d packages checked by: %s", checked[r.name], r.name)
	}
}

// TestArchitectureRulesCatchViolations makes sure the rule matcher can fail: synthetic packages
// with bad imports are flagged, good ones are not.
func TestArchitectureRulesCatchViolations(t *testing.T) {
	const m = modulePath
	for _, tc := range []struct {
		pkg, imp string
		test     bool // the import is in a test file
		bad      bool
	}{
		{"domain/ledger", "time", false, false},
		{"domain/ledger", m + "/domain", false, false},
		{"domain/ledger", "net/http", false, true},
		{"domain/ledger", "net/http/httptest", false, true},
		{"domain/ledger", "database/sql", false, true},
		{"domain/ledger", "os/exec", false, true},
		{"domain/ledger", "go.uber.org/zap", false, true},
		{"domain/ledger", m + "/ports", false, true},
		{"domain/ledger", m + "/config", false, true},
		{"domain", m + "/app/accounts", false, true},
		{"ports", m + "/domain/ledger", false, false},
		{"ports", "context", false, false},
		{"ports", m + "/adapters/store", false, true},
		{"ports", m + "/app/accounts", false, true},
		{"ports", "github.com/uptrace/bun", false, true},
		{"ports/mock", "github.com/golang/mock/gomock", false, false},
		{"ports/portstest", m + "/ports", false, false},
		{"app/accounts", m + "/ports", false, false},
		{"app/accounts", m + "/domain/ledger", false, false},
		{"app/accounts", "github.com/gin-gonic/gin", false, true},
		{"app/accounts", "github.com/uptrace/bun", false, true},
		{"app/accounts", "github.com/hibiken/asynq", false, true},
		{"app/accounts", "github.com/redis/go-redis/v9", false, true},
		{"app/accounts", "go.uber.org/zap", false, true},
		{"app/accounts", "github.com/google/wire", false, true},
		{"app/accounts", m + "/adapters/store", false, true},
		{"app/accounts", m + "/config", false, true},
		{"app/knowledge", "github.com/hashicorp/golang-lru/v2", false, false},
		{"app/compat", "golang.org/x/text/language", false, false},
		{"app/compat", "encoding/json", false, false},
		{"app/compat", "github.com/prometheus/client_golang/prometheus", false, true},
		{"app/compat", "github.com/some/unknown", false, true},
		{"adapters/httpapi", m + "/app/accounts", false, false},
		{"adapters/httpapi", m + "/config", false, false},
		{"adapters/httpapi", m + "/adapters/store", false, true},
		{"adapters/queue/asynqq", m + "/adapters/queue", false, false},
		{"adapters/queue/asynqq", m + "/adapters/ratelimit", false, true},
		{"cmd/svc-api", m + "/adapters/store", false, false},
		{"cmd/svc-api", m + "/config", false, false},
		{"config", m + "/domain/ledger", false, false},
		{"config", m + "/adapters/store", false, true},
		{"tests", m + "/internal/testenv", true, false},
		{"tests", m + "/adapters/store", true, true},
		{"tests", m + "/domain", true, true},
	} {
		p := goPackage{ImportPath: m + "/" + tc.pkg}
		if tc.pkg == "" {
			p.ImportPath = m
		}
		if tc.test {
			p.TestImports = []string{tc.imp}
		} else {
			p.Imports = []string{tc.imp}
		}
		got := archViolations(m, p)
		if tc.bad && len(got) == 0 {
			t.Errorf("%s importing %s: no violation reported, want one", tc.pkg, tc.imp)
		}
		if !tc.bad && len(got) != 0 {
			t.Errorf("%s importing %s: %v, want none", tc.pkg, tc.imp, got)
		}
		for _, msg := range got {
			if !strings.Contains(msg, p.ImportPath) || !strings.Contains(msg, tc.imp) {
				t.Errorf("message %q does not name the package and the import", msg)
			}
		}
	}
}
