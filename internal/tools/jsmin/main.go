// Command jsmin writes the minified website chat widget script that svc-api serves
// (adapters/httpapi/assets/widget.min.js) from the readable one developers edit
// (adapters/httpapi/assets/widget.js), with esbuild's Transform (the version go.mod pins). `make
// generate` runs it through the go:generate directive of adapters/httpapi/widget.go, and `make
// check-generate` fails when the committed file differs from what it writes:
//
//	go run ./internal/tools/jsmin -in adapters/httpapi/assets/widget.js -out adapters/httpapi/assets/widget.min.js
//
// The programs do not link esbuild: only this command and tests import it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	in := flag.String("in", "adapters/httpapi/assets/widget.js", "the readable script")
	out := flag.String("out", "adapters/httpapi/assets/widget.min.js", "the minified script to write")
	flag.Parse()
	src, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	code, err := minify(*in, src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		log.Fatal(err)
	}
}

// minify returns src minified: whitespace and comments dropped, local names shortened, syntax
// made shorter. Only names local to the script's function are renamed; globals (window's
// svcWidgetLoaded, the DOM's), properties and strings (data attributes, class names, CSS, the
// cookie's name) stay as written.
//
// The target is ES5, the syntax the script is written in (it feature-detects the rest: a shadow
// root, constructed stylesheets, AbortController, BroadcastChannel): esbuild then writes no newer
// syntax than the source's (no template literal for "\n", no catch without its binding, no ??),
// so the minified script runs wherever the readable one does. The characters outside ASCII (the
// widget's words in pt and es, "…") stay UTF-8, as in the source: svc-api serves the script as
// text/javascript; charset=utf-8.
func minify(name string, src []byte) ([]byte, error) {
	r := api.Transform(string(src), api.TransformOptions{
		Loader:            api.LoaderJS,
		Sourcefile:        name,
		Target:            api.ES5,
		Charset:           api.CharsetUTF8,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LogLevel:          api.LogLevelSilent,
	})
	if msgs := append(r.Errors, r.Warnings...); len(msgs) > 0 {
		var b strings.Builder
		for _, m := range api.FormatMessages(msgs, api.FormatMessagesOptions{Kind: api.ErrorMessage}) {
			b.WriteString(m)
		}
		return nil, errors.New(strings.TrimSpace(b.String()))
	}
	if len(r.Code) == 0 {
		return nil, fmt.Errorf("%s: esbuild wrote nothing", name)
	}
	return r.Code, nil
}
