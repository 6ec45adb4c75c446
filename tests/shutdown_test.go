package tests

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestShutdownCutsRequests sends SIGTERM to svc-api while model requests wait on an upstream that
// does not answer, with a drain (SVC_SHUTDOWN_TIMEOUT) shorter than the wait: the requests still
// running when the drain runs out are cancelled before the store closes, and each answers 503
// service_unavailable with Retry-After (a stream that has begun ends with that error as its last
// event, never [DONE]), none 500 and none dropped unanswered; nothing is charged for them (the
// usage read by the next start is the one before), and svc-api exits 1 (the drain was cut short).
func TestShutdownCutsRequests(t *testing.T) {
	for _, st := range stacks {
		t.Run(st.name, func(t *testing.T) {
			s := st.stack(t)
			up := newSlowUpstream(t)
			modelEnv := []string{
				"SVC_MODEL_BASE_URL", up.srv.URL + "/v1",
				"SVC_MODEL_API_KEY", "sk-slow",
				"SVC_MODEL_NAME", "slow-model",
				"SVC_SHUTDOWN_TIMEOUT", "1s",
			}
			api := s.startAPI(t, modelEnv...)
			a := s.newAccount(t, "--plan", "pro")
			before := spentOf(t, api, a.key)

			const plain, streams = 4, 2
			type answer struct {
				stream bool
				status int
				header http.Header
				body   string
				err    error
			}
			answers := make(chan answer, plain+streams)
			var wg sync.WaitGroup
			for i := range plain + streams {
				stream := i >= plain
				wg.Go(func() {
					body := fmt.Sprintf(`{"model":"gpt-4o","stream":%t,"messages":[{"role":"user","content":"question %d"}]}`, stream, i)
					req, err := http.NewRequestWithContext(withTest(context.Background(), t), "POST",
						api.URL()+"/v1/chat/completions", strings.NewReader(body))
					if err != nil {
						answers <- answer{stream: stream, err: err}
						return
					}
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+a.key)
					resp, err := httpClient.Do(req)
					if err != nil {
						answers <- answer{stream: stream, err: err}
						return
					}
					defer resp.Body.Close()
					raw, err := io.ReadAll(resp.Body)
					answers <- answer{stream: stream, status: resp.StatusCode, header: resp.Header, body: string(raw), err: err}
				})
			}
			up.waitCalls(t, plain+streams)
			sent := time.Now()
			code := api.stop(t)
			took := time.Since(sent)
			wg.Wait()
			close(answers)

			got := map[string]int{}
			for r := range answers {
				switch {
				case r.err != nil:
					got["no answer"]++
					t.Errorf("stream=%t: no answer: %v (read %q)", r.stream, r.err, r.body)
				case !r.stream:
					got[fmt.Sprint(r.status)]++
					var e struct {
						Error struct{ Code string } `json:"error"`
					}
					_ = json.Unmarshal([]byte(r.body), &e)
					if r.status != http.StatusServiceUnavailable || e.Error.Code != "service_unavailable" || r.header.Get("Retry-After") == "" {
						t.Errorf("completion cut by the shutdown: %d %s (Retry-After %q), want 503 service_unavailable with Retry-After",
							r.status, r.body, r.header.Get("Retry-After"))
					}
				default:
					last := lastEvent(r.body)
					got[fmt.Sprintf("stream %d, last event %s", r.status, shorten(last, 60))]++
					if r.status != http.StatusOK || !strings.Contains(last, `"service_unavailable"`) || strings.Contains(r.body, "[DONE]") {
						t.Errorf("stream cut by the shutdown: %d, last event %q, want 200 ending with the service_unavailable error, no [DONE]; body %q",
							r.status, last, r.body)
					}
				}
			}
			t.Logf("%s: SIGTERM to exit %s, exit code %d, answers %v", s.name, took.Round(10*time.Millisecond), code, got)
			if code != 1 {
				t.Errorf("svc-api exit code %d after a drain cut short, want 1", code)
			}
			for _, bad := range []string{"database is closed", `"request failed"`} {
				if api.log.has(bad) {
					t.Errorf("svc-api's log has %q:\n%s", bad, api.log)
				}
			}
			again := s.startAPI(t, modelEnv...)
			if after := spentOf(t, again, a.key); after != before {
				t.Errorf("interactions spent %d after the requests cut by the shutdown, want %d as before them", after, before)
			}
		})
	}
}

// slowUpstream is a model upstream on loopback that never answers a chat completion by itself: a
// plain one waits for its caller to leave, a stream sends its first piece and then waits.
type slowUpstream struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls int
	seen  chan struct{}
}

func newSlowUpstream(t *testing.T) *slowUpstream {
	u := &slowUpstream{seen: make(chan struct{}, 64)}
	u.srv = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *slowUpstream) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var body struct {
		Stream bool `json:"stream"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	if body.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"chatcmpl-slow","object":"chat.completion.chunk","created":1,"model":"slow-model","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}`+"\n\n")
		w.(http.Flusher).Flush()
	}
	u.mu.Lock()
	u.calls++
	u.mu.Unlock()
	u.seen <- struct{}{}
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

// waitCalls waits until n chat completions wait on the upstream.
func (u *slowUpstream) waitCalls(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for range n {
		select {
		case <-u.seen:
		case <-timeout:
			u.mu.Lock()
			defer u.mu.Unlock()
			t.Fatalf("%d of %d chat completions reached the upstream", u.calls, n)
		}
	}
}

// lastEvent is the data of the last event of a text/event-stream body.
func lastEvent(body string) string {
	last := ""
	sc := bufio.NewScanner(bytes.NewReader([]byte(body)))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			last = d
		}
	}
	return last
}
