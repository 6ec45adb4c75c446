package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang/mock/gomock"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/account"
	"github.com/svcagent/svc/domain/profile"
	"github.com/svcagent/svc/domain/ratelimit"
	"github.com/svcagent/svc/domain/widget"
)

func TestWidgetScript(t *testing.T) {
	s, _ := newTestServer(t)
	rec := do(s, "GET", "/widget.js", nil, "")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") ||
		rec.Header().Get("ETag") != widgetETag || !strings.Contains(rec.Header().Get("Cache-Control"), "max-age=300") {
		t.Fatalf("GET /widget.js: %d %v", rec.Code, rec.Header())
	}
	// The goal is under 30 KB sent: the served bytes count, the minified script.
	if !bytes.Equal(rec.Body.Bytes(), widgetScript) || rec.Body.Len() >= 30<<10 {
		t.Errorf("script of %d bytes served as %d; the goal is under 30 KB", len(widgetScript), rec.Body.Len())
	}
	source, err := os.ReadFile(filepath.Join("assets", "widget.js"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Body.Len() >= len(source)*3/4 || bytes.Contains(rec.Body.Bytes(), []byte("/* svc website chat widget")) {
		t.Errorf("served %d bytes for a readable script of %d: not the minified one", rec.Body.Len(), len(source))
	}
	for _, banned := range []string{"eval(", "new Function", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "setTimeout(\"", "'unsafe"} {
		for name, script := range map[string][]byte{"widget.js": source, "the served script": rec.Body.Bytes()} {
			if bytes.Contains(script, []byte(banned)) {
				t.Errorf("%s uses %q", name, banned)
			}
		}
	}
	for _, inm := range []string{widgetETag, `W/` + widgetETag, `"other", ` + widgetETag, "*"} {
		if rec := do(s, "GET", "/widget.js", map[string]string{"If-None-Match": inm}, ""); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("If-None-Match %s: %d with %d bytes, want 304 and none", inm, rec.Code, rec.Body.Len())
		}
	}
	if rec := do(s, "GET", "/widget.js", map[string]string{"If-None-Match": `"stale"`}, ""); rec.Code != http.StatusOK {
		t.Errorf("a stale ETag: %d, want 200", rec.Code)
	}
}

// TestWidgetScriptCORS: the script is public, so any page may fetch it in CORS mode (a script tag
// with crossorigin and an integrity hash, a loader that fetches it): every answer, 304 included,
// grants any origin without credentials.
func TestWidgetScriptCORS(t *testing.T) {
	s, _ := newTestServer(t)
	for _, h := range []map[string]string{
		{"Origin": "https://shop.example"},
		{"Origin": "https://shop.example", "Accept-Encoding": "gzip"},
		{"Origin": "https://shop.example", "If-None-Match": widgetETag},
		nil,
	} {
		rec := do(s, "GET", "/widget.js", h, "")
		if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" || rec.Header().Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("GET /widget.js %v: %d, Access-Control-Allow-Origin %q, want *", h, rec.Code, got)
		}
	}
}

func TestWidgetCORS(t *testing.T) {
	locked := account.Account{ID: "acct_a", Plan: "starter", Status: account.Active, WidgetToken: "wt_a", AllowedDomains: []string{"*.shop.test"}}
	tests := []struct {
		name   string
		origin string
		grant  bool
	}{
		{"an allowed subdomain", "https://www.shop.test", true},
		{"another site", "https://evil.test", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := newTestServer(t)
			d.widgets.EXPECT().Account(gomock.Any(), "wt_a").Return(locked, nil).Times(2)
			pre := do(s, "OPTIONS", "/widget/api/wt_a/chat", map[string]string{"Origin": tt.origin, "Access-Control-Request-Method": "POST"}, "")
			if pre.Code != http.StatusNoContent || (pre.Header().Get("Access-Control-Allow-Origin") == tt.origin) != tt.grant {
				t.Fatalf("preflight: %d %v, grant %v wanted", pre.Code, pre.Header(), tt.grant)
			}
			if tt.grant {
				d.limiter.EXPECT().Allow(gomock.Any(), "widget:wt_a", gomock.Any()).Return(ratelimit.Result{Allowed: true}, nil)
				d.profiles.EXPECT().Get(gomock.Any(), "acct_a").Return(profile.Default("acct_a"), nil)
				d.widgets.EXPECT().Style(gomock.Any(), "acct_a").Return(widget.DefaultStyle, nil)
			}
			rec := do(s, "GET", "/widget/api/wt_a/info", map[string]string{"Origin": tt.origin}, "")
			if got := rec.Header().Get("Access-Control-Allow-Origin"); (got == tt.origin) != tt.grant || !tt.grant && got != "" {
				t.Errorf("Access-Control-Allow-Origin %q, grant %v wanted", got, tt.grant)
			}
			if tt.grant && rec.Code != http.StatusOK || !tt.grant && (rec.Code != http.StatusForbidden || envelope(t, rec).Code != domain.CodeOriginNotAllowed) {
				t.Errorf("GET info from %s: %d %s", tt.origin, rec.Code, rec.Body)
			}
		})
	}
	t.Run("an unknown token", func(t *testing.T) {
		s, d := newTestServer(t)
		d.widgets.EXPECT().Account(gomock.Any(), "wt_x").Return(account.Account{}, domain.NotFound("widget")).Times(2)
		pre := do(s, "OPTIONS", "/widget/api/wt_x/info", map[string]string{"Origin": "https://shop.test"}, "")
		if pre.Code != http.StatusNoContent || pre.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("preflight of an unknown token: %d %v", pre.Code, pre.Header())
		}
		rec := do(s, "GET", "/widget/api/wt_x/info", map[string]string{"Origin": "https://shop.test"}, "")
		if rec.Code != http.StatusNotFound || rec.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("GET info of an unknown token: %d %v", rec.Code, rec.Header())
		}
	})
}

// TestWidgetScriptGzip: a browser that accepts gzip gets the script compressed (under half of
// its size), with its own ETag and Vary: Accept-Encoding; one that refuses gzip gets it as is.
func TestWidgetScriptGzip(t *testing.T) {
	s, _ := newTestServer(t)
	rec := do(s, "GET", "/widget.js", map[string]string{"Accept-Encoding": "gzip, deflate, br"}, "")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("GET /widget.js accepting gzip: %d %v", rec.Code, rec.Header())
	}
	n := rec.Body.Len()
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, widgetScript) {
		t.Fatalf("the gzipped script does not unzip to the script (%v)", err)
	}
	if n == 0 || n > len(widgetScript)/2 {
		t.Errorf("gzipped script of %d bytes for %d", n, len(widgetScript))
	}
	etag := rec.Header().Get("ETag")
	if etag == "" || etag == widgetETag {
		t.Errorf("the gzipped script's ETag %q, want its own", etag)
	}
	if rec := do(s, "GET", "/widget.js", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag}, ""); rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match of the gzipped script: %d, want 304", rec.Code)
	}
	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		rec := do(s, "GET", "/widget.js", map[string]string{"Accept-Encoding": ae}, "")
		if rec.Header().Get("Content-Encoding") != "" || rec.Body.Len() != len(widgetScript) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q with %d bytes, want the script as is", ae, rec.Header().Get("Content-Encoding"), rec.Body.Len())
		}
	}
}
