package tests

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// nonPublicURLs are webhook and crawl URLs whose host is loopback, the cloud metadata address or
// another host that is not public, in the spellings a browser or a resolver reads as such (issue
// 11, defect 5), and hosts that are no valid host at all.
var nonPublicURLs = []string{
	"https://2130706433/",
	"https://0x7f.1/",
	"https://127.1/",
	"https://127.0.0.1./",
	"https://0177.0.0.1/",
	"https://[::127.0.0.1]/",
	"https://[::ffff:127.0.0.1]/",
	"https://[64:ff9b::7f00:1]/",
	"https://１２７.０.０.１/",
	"https://１２７。０。０。１/hook",
	"https://2852039166/latest/meta-data/",
	"https://0xa9fea9fe/",
	"https://169.254.169.254/",
	"https://localhost/hook",
	"https://hooks.localhost/",
	"https://ｌｏｃａｌｈｏｓｔ/",
	"https://intranet/",
	"https://intranet./hook",
	"https://db.internal/",
	"https://printer.local/",
	"https://1.2.3.4.5/",
}

// deliveryFailures are the categories a failed attempt reports in error.
var deliveryFailures = []string{"dns_error", "connect_refused", "timeout", "tls_error", "redirect", "http_status",
	"blocked_address", "invalid_url", "canceled", "network_error"}

// transportWords are traces of the transport's own error text: the resolver's address, a dial.
// (Not a bare ":53": the answers' own times, "05:53:57", have it at every 53rd minute and second.)
var transportWords = regexp.MustCompile(`(?i)lookup |dial |127\.0\.0\.53|\[::1\]:53\b|no such host|connection refused`)

// TestWebhookURLs checks that a webhook URL (POST and PATCH) or a crawl URL whose host is not
// public in any spelling is refused when it is given, with the field named, and that a failed test
// delivery reports a stable category, never the transport's words (which named the resolver).
func TestWebhookURLs(t *testing.T) {
	s := newEmbedded(t)
	api := s.startAPI(t)
	a := s.newAccount(t)

	t.Run("create refused", func(t *testing.T) {
		for _, u := range nonPublicURLs {
			r := callJSON(t, "POST", api.URL()+"/v1/webhooks", map[string]any{"url": u, "events": []string{"*"}}, bearer(a.key)...)
			wantError(t, r, http.StatusBadRequest, "invalid_request")
			if r.body != nil && r.body.str("error.param") != "url" {
				t.Errorf("POST %s: error.param %q, want url: %s", u, r.body.str("error.param"), r.raw)
			}
		}
		if n := len(listHooks(t, api, a.key)); n != 0 {
			t.Errorf("%d webhooks after refused creations, want 0", n)
		}
	})

	t.Run("patch refused", func(t *testing.T) {
		id, _ := createHook(t, api, a.key, "https://hooks.example.co.uk:8443/x", "*")
		for _, u := range nonPublicURLs {
			r := callJSON(t, "PATCH", api.URL()+"/v1/webhooks/"+id, map[string]any{"url": u}, bearer(a.key)...)
			wantError(t, r, http.StatusBadRequest, "invalid_request")
			if r.body != nil && r.body.str("error.param") != "url" {
				t.Errorf("PATCH %s: error.param %q, want url: %s", u, r.body.str("error.param"), r.raw)
			}
		}
		wantFieldsOf(t, "webhook after refused patches", getHook(t, api, a.key, id), map[string]any{"url": "https://hooks.example.co.uk:8443/x"})
		r := call(t, "DELETE", api.URL()+"/v1/webhooks/"+id, bearer(a.key)...)
		if r.status != http.StatusOK {
			t.Fatalf("DELETE /v1/webhooks/%s: %s", id, r)
		}
	})

	t.Run("public hosts accepted", func(t *testing.T) {
		for _, u := range []string{"https://example.com/hooks", "https://hooks.example.co.uk:8443/x", "https://ＥＸＡＭＰＬＥ.com/full-width"} {
			id, _ := createHook(t, api, a.key, u, "*")
			if r := call(t, "DELETE", api.URL()+"/v1/webhooks/"+id, bearer(a.key)...); r.status != http.StatusOK {
				t.Fatalf("DELETE /v1/webhooks/%s: %s", id, r)
			}
		}
	})

	t.Run("crawl refused", func(t *testing.T) {
		for _, tc := range []struct {
			url    string
			status int
			code   string
		}{
			{"https://intranet/", http.StatusUnprocessableEntity, "crawl_failed"},
			{"https://１２７.０.０.１/", http.StatusUnprocessableEntity, "crawl_failed"},
			{"https://[64:ff9b::7f00:1]/", http.StatusUnprocessableEntity, "crawl_failed"},
			{"https://db.internal/docs/", http.StatusUnprocessableEntity, "crawl_failed"},
			{"https://1.2.3.4.5/", http.StatusBadRequest, "invalid_request"},
		} {
			r := callJSON(t, "POST", api.URL()+"/v1/knowledge/crawl", map[string]any{"url": tc.url, "max_pages": 1}, bearer(a.key)...)
			wantError(t, r, tc.status, tc.code)
			if r.body == nil {
				continue
			}
			if msg := r.body.str("error.message"); tc.status == http.StatusUnprocessableEntity && !strings.Contains(msg, "refused") {
				t.Errorf("crawl %s: error.message %q does not say the host was refused", tc.url, msg)
			}
			if tc.status == http.StatusBadRequest && r.body.str("error.param") != "url" {
				t.Errorf("crawl %s: error.param %q, want url", tc.url, r.body.str("error.param"))
			}
		}
	})

	t.Run("test delivery failures", func(t *testing.T) {
		// Unreachable receivers: a name that never resolves (RFC 6761), and, through an API that
		// may reach loopback, a port nothing listens on.
		closed := freeAddr(t) // no program of this test process is handed it
		s2 := newEmbedded(t)
		local := s2.startAPI(t, privateTargets...)
		b := s2.newAccount(t)
		c := s.newAccount(t) // an account of its own: the refusals above must not fill a's ten
		for _, tc := range []struct {
			name, url, want string
			api             *proc
			key             string
		}{
			{"unknown host", "https://no-such-receiver.invalid/hook", "dns_error", api, c.key},
			{"nothing listening", "http://" + closed + "/hook", "connect_refused", local, b.key},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id, _ := createHook(t, tc.api, tc.key, tc.url, "*")
				r := callJSON(t, "POST", tc.api.URL()+"/v1/webhooks/"+id+"/test", "{}", bearer(tc.key)...)
				if r.status != http.StatusOK || r.body == nil {
					t.Fatalf("POST /v1/webhooks/%s/test: %s", id, r)
				}
				wantFieldsOf(t, "test result", r.body, map[string]any{"object": "webhook_test", "delivered": false, "status_code": 0, "error": tc.want})
				if transportWords.Match(r.raw) {
					t.Errorf("the test result shows the transport's words: %s", r.raw)
				}
				d := call(t, "GET", tc.api.URL()+"/v1/webhooks/"+id+"/deliveries", bearer(tc.key)...)
				if d.status != http.StatusOK || d.body == nil {
					t.Fatalf("GET /v1/webhooks/%s/deliveries: %s", id, d)
				}
				entries := listOf(d.body, "data")
				if len(entries) != 1 {
					t.Fatalf("the delivery log lists %d attempts, want 1: %s", len(entries), d.raw)
				}
				wantFieldsOf(t, "logged attempt", entries[0], map[string]any{"delivered": false, "status_code": 0, "error": tc.want})
				if transportWords.Match(d.raw) {
					t.Errorf("the delivery log shows the transport's words: %s", d.raw)
				}
			})
		}

		// A receiver answering 500: the category, with the status code.
		rcv := newHookReceiver(t, http.StatusInternalServerError)
		id, _ := createHook(t, local, b.key, rcv.URL("/hook"), "*")
		r := callJSON(t, "POST", local.URL()+"/v1/webhooks/"+id+"/test", "{}", bearer(b.key)...)
		if r.body == nil {
			t.Fatalf("POST /v1/webhooks/%s/test: %s", id, r)
		}
		wantFieldsOf(t, "test result", r.body, map[string]any{"delivered": false, "status_code": 500, "error": "http_status"})
		if e := r.body.str("error"); !slices.Contains(deliveryFailures, e) {
			t.Errorf("error %q is not one of the categories %v", e, deliveryFailures)
		}
	})
}
