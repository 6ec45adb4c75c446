package tests

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestConsoleApprovals: the assistant's approvals in the console, on both stacks. A settings
// change the assistant left waiting is listed in full (what, the new value, when it expires);
// two approvals of it sent at once run it once: one is answered with what was done, the other
// is told the approval is gone (404, never a 500), and no interaction is used. A refused one
// runs nothing and the API's approve of it is approval_not_found. A malformed or unknown id and
// a form without its CSRF token change nothing.
func TestConsoleApprovals(t *testing.T) { onStacks(t, testConsoleApprovals) }

func testConsoleApprovals(t *testing.T, s stack) {
	api, a, b := signedInOwner(t, s)
	configureAgent(t, api, a.key)
	wait := func(message string) string {
		t.Helper()
		r, _ := ask(t, api, a.key, map[string]any{"message": message, "mode": "do"}, http.StatusOK)
		if r.Status != "needs_approval" || r.Approval == nil {
			t.Fatalf("%q: %+v, want needs_approval", message, r)
		}
		return r.Approval.ID
	}
	id := wait("change the tone to formal")
	p := b.get("/app/approvals")
	if p.status != http.StatusOK || !strings.Contains(p.body, `id="approval-`+id+`"`) || !strings.Contains(p.body, "Change of a setting") ||
		!strings.Contains(p.body, "formal") || !regexp.MustCompile(`<time datetime="[0-9T:Z-]+">[0-9: -]+ UTC</time>`).MatchString(p.body) {
		t.Fatalf("GET /app/approvals: %d\n%s", p.status, p.body)
	}
	if pt := b.get("/app/approvals?lang=pt"); !strings.Contains(pt.body, "Mudança de configuração") || !strings.Contains(pt.body, "Aprovar") {
		t.Errorf("the approvals in Portuguese:\n%s", pt.body)
	}
	b.get("/app/approvals?lang=en")
	spent := spentOf(t, api, a.key)

	// Without the CSRF token: refused, nothing runs.
	if p := b.do(http.MethodPost, "/app/approvals/"+id+"/approve", url.Values{}); p.status != http.StatusForbidden {
		t.Fatalf("approve without a CSRF token: %d", p.status)
	}
	// Two clicks at once: one runs the change, the other is told it is gone.
	form := url.Values{"csrf_token": {b.token("/app/approvals")}}
	pages := make([]consolePage, 2)
	var wg sync.WaitGroup
	for i := range pages {
		wg.Go(func() {
			pages[i] = b.do(http.MethodPost, "/app/approvals/"+id+"/approve", form, "Referer", api.URL()+"/app/approvals")
		})
	}
	wg.Wait()
	done, gone := 0, 0
	for _, p := range pages {
		switch {
		case p.status == http.StatusOK && strings.Contains(p.body, "Approved: done.") && strings.Contains(p.body, "Change of a setting: done"):
			done++
		case p.status == http.StatusNotFound && strings.Contains(html.UnescapeString(p.body), "This approval was already approved or refused, or it expired"):
			gone++
		default:
			t.Errorf("an approve: %d\n%s", p.status, p.body)
		}
	}
	if done != 1 || gone != 1 {
		t.Fatalf("two approvals at once: %d done, %d gone; want 1 and 1", done, gone)
	}
	if g := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); g.body.str("tone") != "formal" {
		t.Errorf("the tone after the console's approval: %s", g)
	}
	if got := spentOf(t, api, a.key); got != spent {
		t.Errorf("the approval used %d interactions, want 0", got-spent)
	}
	if p := b.get("/app/approvals"); strings.Contains(p.body, `id="approval-`+id+`"`) || !strings.Contains(p.body, `id="approvals-none"`) {
		t.Errorf("the used approval is still listed:\n%s", p.body)
	}

	// Refused: nothing runs, the API's approve is approval_not_found.
	refused := wait("change the tone to casual")
	p = b.post("/app/approvals", "/app/approvals/"+refused+"/refuse", url.Values{})
	if p.status != http.StatusOK || !strings.Contains(p.body, "Refused: nothing was done.") || strings.Contains(p.body, `id="approval-`+refused+`"`) {
		t.Fatalf("refuse: %d\n%s", p.status, p.body)
	}
	if r := callJSON(t, "POST", api.URL()+"/v1/assistant", map[string]any{"approve": refused}, bearer(a.key)...); r.status != http.StatusNotFound || !strings.Contains(r.String(), "approval_not_found") {
		t.Errorf("the API's approve of a refused approval: %s", r)
	}
	if g := call(t, "GET", api.URL()+"/v1/agent", bearer(a.key)...); g.body.str("tone") != "formal" {
		t.Errorf("the tone after a refusal: %s", g)
	}
	if p := b.post("/app/approvals", "/app/approvals/"+refused+"/approve", url.Values{}); p.status != http.StatusNotFound {
		t.Errorf("approve a refused approval in the console: %d", p.status)
	}
	// Malformed and unknown ids: the page says the approval is gone.
	for _, bad := range []string{"apr_unknown", "nope", "apr_%00x", strings.Repeat("a", 300)} {
		for _, action := range []string{"approve", "refuse"} {
			p := b.post("/app/approvals", "/app/approvals/"+url.PathEscape(bad)+"/"+action, url.Values{})
			if p.status != http.StatusNotFound || !strings.Contains(p.body, `id="approval-outcome"`) {
				t.Errorf("%s %q: %d\n%s", action, bad, p.status, p.body)
			}
		}
	}
}

// TestConsolePageUpload: a page written on the Brain page is stored as PUT /v1/knowledge/pages
// stores it (the API lists it) but added to the pages uploaded before (a page of the same address
// replaces that one only), each with a Remove button (CSRF), and a bad value is answered on the page next to its field, in the
// page's language, the values typed kept: no text, a NUL, invalid UTF-8, a title too long, an
// address that is not http(s). Never a 500.
func TestConsolePageUpload(t *testing.T) { onStacks(t, testConsolePageUpload) }

func testConsolePageUpload(t *testing.T, s stack) {
	api, a, b := signedInOwner(t, s)
	p := b.post("/app/brain", "/app/brain/pages", url.Values{"title": {"Opening hours"}, "url": {"https://padaria.example/hours"},
		"content": {"We open every day from 7:00 to 19:00, and on holidays from 8:00 to 12:00."}})
	if p.status != http.StatusOK || !strings.Contains(p.body, `id="page-status"`) || !strings.Contains(p.body, "Saved: 1 page,") {
		t.Fatalf("upload a page: %d\n%s", p.status, p.body)
	}
	k := call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...)
	pages := listOf(k.body, "pages")
	if len(pages) != 1 || pages[0]["title"] != "Opening hours" || pages[0]["url"] != "https://padaria.example/hours" {
		t.Fatalf("GET /v1/knowledge after the console's upload: %s", k)
	}
	if p := b.get("/app/brain"); !strings.Contains(p.body, "Opening hours") {
		t.Errorf("the Brain page does not list the page:\n%s", p.body)
	}
	// A second page is added: the first stays. A page of the same address replaces that one only.
	for _, form := range []url.Values{
		{"title": {"Delivery"}, "content": {"We deliver bread in Porto before 9:00."}},
		{"title": {"Hours"}, "url": {"https://padaria.example/hours"}, "content": {"We open every day from 6:30 to 20:00."}},
	} {
		if p := b.post("/app/brain", "/app/brain/pages", form); p.status != http.StatusOK || !strings.Contains(p.body, "Saved: 1 page,") {
			t.Fatalf("add the page %q: %d\n%s", form.Get("title"), p.status, p.body)
		}
	}
	pages = listOf(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...).body, "pages")
	titles := map[string]string{}
	for _, pg := range pages {
		titles[fmt.Sprint(pg["title"])] = fmt.Sprint(pg["id"])
	}
	if len(pages) != 2 || titles["Delivery"] == "" || titles["Hours"] == "" {
		t.Fatalf("GET /v1/knowledge after adding two pages and replacing one: %v", pages)
	}
	brain := b.get("/app/brain")
	for _, title := range []string{"Delivery", "Hours"} {
		if !strings.Contains(brain.body, fmt.Sprintf(`action="/app/brain/pages/%s/remove"`, titles[title])) {
			t.Errorf("the Brain page has no Remove button for %q:\n%s", title, brain.body)
		}
	}
	// The agent's search sees the pages added, and no longer the text replaced.
	try := b.post("/app/brain", "/app/brain/try", url.Values{"question": {"Do you deliver bread in Porto?"}})
	if !strings.Contains(try.body, "We deliver bread in Porto") {
		t.Errorf("the search does not find the page added:\n%s", try.body)
	}
	// Removing a page needs the CSRF token; then it is gone from the Brain and the API, the other
	// stays; a page gone (or never the account's) is not found.
	remove := fmt.Sprintf("/app/brain/pages/%s/remove", titles["Delivery"])
	if p := b.do(http.MethodPost, remove, url.Values{}); p.status != http.StatusForbidden {
		t.Errorf("remove a page without a CSRF token: %d, want 403", p.status)
	}
	if p := b.post("/app/brain", remove, url.Values{}); p.status != http.StatusSeeOther {
		t.Errorf("remove a page: %d, want 303\n%s", p.status, p.body)
	}
	pages = listOf(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...).body, "pages")
	if len(pages) != 1 || pages[0]["title"] != "Hours" {
		t.Fatalf("GET /v1/knowledge after the removal: %v", pages)
	}
	if p := b.get("/app/brain"); strings.Contains(p.body, "Delivery") || !strings.Contains(p.body, "Hours") {
		t.Errorf("the Brain page after the removal:\n%s", p.body)
	}
	if try := b.post("/app/brain", "/app/brain/try", url.Values{"question": {"Do you deliver bread in Porto?"}}); try.status != http.StatusOK ||
		strings.Contains(try.body, "We deliver bread in Porto") {
		t.Errorf("the search still finds the page removed: %d\n%s", try.status, try.body)
	}
	if p := b.post("/app/brain", remove, url.Values{}); p.status != http.StatusNotFound {
		t.Errorf("remove a page already removed: %d, want 404", p.status)
	}
	for _, c := range []struct {
		name, lang  string
		form        url.Values
		input       string
		reason      string
		kept        []string
		notTypedRaw bool
	}{
		{"no text", "en", url.Values{"title": {"Menu"}, "content": {" \n "}}, "content", "Write the page's text.", []string{`value="Menu"`}, false},
		{"no text, in Portuguese", "pt", url.Values{"title": {"Menu"}, "content": {""}}, "content", "Dê o texto da página.", []string{`value="Menu"`}, false},
		{"no text, in Spanish", "es", url.Values{"title": {"Menú"}, "content": {""}}, "content", "Indica el texto de la página.", []string{`value="Menú"`}, false},
		{"a NUL in the title", "en", url.Values{"title": {"Me\x00nu"}, "content": {"bread"}}, "title", "title must not contain control characters", []string{"bread"}, true},
		{"a NUL in the text, in Portuguese", "pt", url.Values{"title": {"Menu"}, "content": {"bre\x00ad"}}, "content", "O texto tem caracteres de controle.", []string{`value="Menu"`}, true},
		{"invalid UTF-8", "es", url.Values{"title": {"Menu\xff"}, "content": {"bread"}}, "title", "El texto no es UTF-8 válido.", []string{"bread"}, true},
		{"a title too long", "en", url.Values{"title": {strings.Repeat("t", 501)}, "content": {"bread"}}, "title", "title must be at most 500 characters", []string{"bread"}, false},
		{"not an http address", "pt", url.Values{"title": {"Menu"}, "url": {"ftp://padaria.example/menu"}, "content": {"bread"}}, "url",
			"Dê um endereço completo (http:// ou https://).", []string{"ftp://padaria.example/menu"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b.get("/app/brain?lang=" + c.lang)
			p := b.post("/app/brain", "/app/brain/pages", c.form)
			checkFormError(t, p, "page-"+c.input, "page-"+c.input+"-error", c.reason, c.kept)
			if c.notTypedRaw && (strings.Contains(p.body, "\x00") || strings.Contains(p.body, "\xff")) {
				t.Errorf("the page shows a NUL or an invalid byte back")
			}
		})
	}
	b.get("/app/brain?lang=en")
	// A form over the console's body cap (SVC_MAX_BODY_BYTES, 8 MiB) is named as too large, not refused as a form
	// without its CSRF token, and changes nothing.
	big := b.post("/app/brain", "/app/brain/pages", url.Values{"title": {"Menu"}, "content": {strings.Repeat("pão de queijo ", 700_000)}})
	// 400 naming the cap, as the REST API and /mcp answer such a body (spec 7)
	if big.status != http.StatusBadRequest || !strings.Contains(big.body, "larger than the console accepts") ||
		!strings.Contains(big.body, "request body is larger than 8388608 bytes") {
		t.Errorf("an oversized upload: %d\n%s", big.status, big.body)
	}
	if pages := listOf(call(t, "GET", api.URL()+"/v1/knowledge", bearer(a.key)...).body, "pages"); len(pages) != 1 || pages[0]["title"] != "Hours" {
		t.Errorf("the refused uploads changed the Brain: %v", pages)
	}
	if p := b.do(http.MethodPost, "/app/brain/pages", url.Values{"title": {"x"}, "content": {"y"}}); p.status != http.StatusForbidden {
		t.Errorf("an upload without a CSRF token: %d", p.status)
	}
}
