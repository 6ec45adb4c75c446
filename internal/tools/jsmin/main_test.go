package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var assets = filepath.Join("..", "..", "..", "adapters", "httpapi", "assets")

// TestWidgetScriptInSync: the committed widget.min.js is what this command writes from widget.js
// (as `make check-generate` checks), so `go test` alone also catches a script edited without
// `make generate`.
func TestWidgetScriptInSync(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(assets, "widget.js"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(assets, "widget.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := minify("widget.js", src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatalf("adapters/httpapi/assets/widget.min.js (%d bytes) is not widget.js minified (%d bytes): run make generate and commit",
			len(committed), len(got))
	}
	if len(got) >= len(src)*3/4 {
		t.Errorf("minified to %d bytes of %d", len(got), len(src))
	}
	// What the page, the service and the tests rely on keeps its name: a global, the cookie, the
	// data attributes and the shadow host's id are no local names.
	for _, want := range []string{`"use strict"`, "window.svcWidgetLoaded", "svc_visitor=", "script[data-token][src*='widget.js']",
		"svc-chat-widget", "data-ready", "Digitando…"} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("the minified script lacks %q", want)
		}
	}
	for _, gone := range []string{"/* svc website chat widget", "function pickLang("} {
		if bytes.Contains(got, []byte(gone)) {
			t.Errorf("the minified script still holds %q", gone)
		}
	}
}

// TestMinifyKeepsES5: the script is written in ES5 syntax; esbuild lowers what it can (an arrow
// function, a template literal) and refuses what it cannot (let, const) rather than serve syntax
// older browsers do not read; and a syntax error is an error, not an empty script.
func TestMinifyKeepsES5(t *testing.T) {
	got, err := minify("a.js", []byte("(function () { var f = (x) => `n${x}`; window.y = f(1); })();\n"))
	if err != nil || bytes.Contains(got, []byte("=>")) || bytes.Contains(got, []byte("`")) || !bytes.Contains(got, []byte("window.y=")) {
		t.Errorf("an arrow and a template literal: %q, %v", got, err)
	}
	for _, src := range []string{"(function () { const a = 1; window.a = a; })();", "(function () { let a = 1; window.a = a; })();", "(function ( {"} {
		if got, err := minify("a.js", []byte(src)); err == nil || !strings.Contains(err.Error(), "a.js") {
			t.Errorf("%s: %q, %v; want an error naming the file", src, got, err)
		}
	}
}

// TestProgramsDoNotLinkEsbuild: the minifier is a build tool; the programs embed its output and
// link none of it.
func TestProgramsDoNotLinkEsbuild(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/...")
	cmd.Dir = filepath.Join("..", "..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/...: %v", err)
	}
	deps := strings.Fields(string(out))
	if !strings.Contains(string(out), "github.com/svcagent/svc/adapters/httpapi\n") {
		t.Fatalf("go list -deps ./cmd/... lists no adapters/httpapi among %d packages", len(deps))
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/evanw/esbuild") || strings.HasSuffix(p, "/internal/tools/jsmin") {
			t.Errorf("the programs link %s", p)
		}
	}
}
