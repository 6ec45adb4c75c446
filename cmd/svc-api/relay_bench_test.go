package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/svcagent/svc/app/accounts"
	"github.com/svcagent/svc/cmd/internal/boot"
	"github.com/svcagent/svc/config"
)

// relayBenchCompletion is the fake upstream's answer: the load harness's (tests/load_test.go).
const relayBenchCompletion = `{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"We open at 9 on Saturdays.","role":"assistant"}}],` +
	`"created":1767225600,"id":"chatcmpl-bench","model":"gpt-upstream","object":"chat.completion",` +
	`"usage":{"completion_tokens":8,"prompt_tokens":21,"total_tokens":29}}`

var relayBenchBody = []byte(`{"model":"svc","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"When do you open on Saturdays?"}]}`)

// BenchmarkRelay is the relay's work in one process: svc-api as embedded runs it (SQLite, the
// in-process limiter, the log at warn as the load harness sets it) behind a loopback server,
// relaying POST /v1/chat/completions to a loopback fake upstream that answers at once, one request
// at a time, each with the next of relayBenchKeys keys (each of its own account; the pro plan's
// limits lifted as the harness lifts them). Its allocations and CPU profile are the relay's
// (plus the fake upstream's and the client's, the same in every build):
//
//	go test ./cmd/svc-api -run '^$' -bench Relay -benchmem -count 5
func BenchmarkRelay(b *testing.B) {
	for _, stream := range []bool{false, true} {
		name := "complete"
		if stream {
			name = "stream"
		}
		b.Run(name, func(b *testing.B) { benchRelay(b, stream) })
	}
}

const relayBenchKeys = 8

func benchRelay(b *testing.B, stream bool) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
			for _, e := range []string{
				`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1767225600,"model":"gpt-upstream","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
				`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1767225600,"model":"gpt-upstream","choices":[{"index":0,"delta":{"content":"We open at 9 "},"finish_reason":null}]}`,
				`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1767225600,"model":"gpt-upstream","choices":[{"index":0,"delta":{"content":"on Saturdays."},"finish_reason":null}]}`,
				`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1767225600,"model":"gpt-upstream","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"completion_tokens":8,"prompt_tokens":21,"total_tokens":29}}`,
				`[DONE]`,
			} {
				_, _ = io.WriteString(w, "data: "+e+"\n\n")
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, relayBenchCompletion)
	}))
	defer up.Close()

	env := map[string]string{
		"SVC_DATABASE_URL":         "sqlite://" + filepath.Join(b.TempDir(), "svc.db"),
		"SVC_MODEL_BASE_URL":       up.URL + "/v1",
		"SVC_MODEL_API_KEY":        "sk-upstream",
		"SVC_MODEL_NAME":           "gpt-upstream",
		"SVC_LOG_LEVEL":            "warn",
		"SVC_PLAN_PRO_RATE_LIMITS": "key=1000000,chat=1000000,assistant=1000000,model=1000000",
	}
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		b.Fatal(err)
	}
	log, err := boot.NewLogger(cfg)
	if err != nil {
		b.Fatal(err)
	}
	p, cleanup, err := initEmbeddedSQLiteUpstream(b.Context(), cfg, log)
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	srv := httptest.NewServer(p.handler())
	defer srv.Close()
	client := srv.Client()

	keys := make([]string, relayBenchKeys)
	for i := range keys {
		acct, err := p.admin.Create(b.Context(), accounts.NewAccount{Name: fmt.Sprintf("Relay bench %d", i), Plan: "pro"})
		if err != nil {
			b.Fatal(err)
		}
		if _, keys[i], err = p.admin.CreateKey(b.Context(), accounts.NewKey{AccountID: acct.ID, Name: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	body := relayBenchBody
	if stream {
		body = bytes.Replace(body, []byte(`{"model":"svc",`), []byte(`{"model":"svc","stream":true,`), 1)
	}
	send := func(i int) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+keys[i%len(keys)])
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%d %s", resp.StatusCode, got)
		}
	}
	for i := range 2 * relayBenchKeys { // every key checked once, the connections open
		send(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		send(i)
	}
}
