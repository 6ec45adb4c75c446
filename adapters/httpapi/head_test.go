package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestAnswerHead(t *testing.T) {
	s, _ := newTestServer(t)
	srv := httptest.NewServer(AnswerHead(s.Handler()))
	defer srv.Close()
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/healthz", http.StatusOK},
		{"/v1/account", http.StatusUnauthorized}, // as the GET: the key is checked
		{"/v2/nothing", http.StatusNotFound},
	} {
		get := fetch(t, srv, http.MethodGet, tt.path)
		head := fetch(t, srv, http.MethodHead, tt.path)
		if get.status != tt.status || head.status != tt.status {
			t.Errorf("%s: GET %d, HEAD %d, want %d", tt.path, get.status, head.status, tt.status)
		}
		if head.body != "" {
			t.Errorf("HEAD %s: body %q", tt.path, head.body)
		}
		if get.body == "" || head.contentType != get.contentType || head.length != get.length {
			t.Errorf("%s: HEAD gives %q length %d, GET %q length %d (%q)", tt.path, head.contentType, head.length, get.contentType, get.length, get.body)
		}
	}
	// Other methods are not turned into GET.
	if got := fetch(t, srv, http.MethodDelete, "/healthz"); got.status != http.StatusNotFound {
		t.Errorf("DELETE /healthz: %d", got.status)
	}
}

type fetched struct {
	status      int
	contentType string
	length      int64
	body        string
}

// fetch asks srv for path with the test server's own client (loopback only).
func fetch(t *testing.T, srv *httptest.Server, method, path string) fetched {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fetched{resp.StatusCode, resp.Header.Get("Content-Type"), resp.ContentLength, string(b)}
}
