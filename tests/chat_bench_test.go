package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// chatsPerAccount is how many chat messages the benchmark sends with one account over the whole
// run: below the limit of 30 a minute per account, so the benchmark measures replies, not 429s.
const chatsPerAccount = 25

// chatBenchQuestions are asked in turn: an FAQ question, a page question, one the Brain cannot
// answer, and another FAQ question written otherwise.
var chatBenchQuestions = []string{
	"Do you have gluten-free bread?",
	"Do you deliver to Alfama by bicycle?",
	"Can you repair my motorcycle engine?",
	"can I pay with a card",
}

// BenchmarkChat measures POST /v1/chat with the built-in engine (no model upstream) over loopback
// with keep-alive connections, in both environments: each message opens a new conversation of an
// agent with a small Brain (three pages, three FAQ items). It reports replies per second and the
// p50 and p99 latency in milliseconds. The accounts are made before the timer starts, one for
// every chatsPerAccount messages:
//
//	go test ./tests -run '^$' -bench BenchmarkChat -benchtime 1000x
func BenchmarkChat(b *testing.B) { eachStack(b, newChatBench) }

type chatBench struct {
	s      stack
	api    *proc
	client *http.Client
	url    string
	keys   *keyPool // each of its own account
}

func newChatBench(t testing.TB, newStack func(testing.TB) stack) *chatBench {
	s := newStack(t)
	api := s.startAPI(t, "SVC_LOG_LEVEL", "warn")
	e := &chatBench{
		s:   s,
		api: api,
		url: api.URL() + "/v1/chat",
		client: &http.Client{
			Timeout: 2 * time.Minute,
			Transport: &http.Transport{
				MaxIdleConns:        256,
				MaxIdleConnsPerHost: 256,
				IdleConnTimeout:     time.Minute,
			},
		},
	}
	e.keys = newKeyPool(chatsPerAccount, setupWorkers(s), func(b *testing.B, i int) (string, error) {
		return e.newAccount(b, fmt.Sprintf("Bench bakery %d", i))
	})
	return e
}

// newAccount makes one account ready to chat and returns its key. It reports failures instead of
// failing the benchmark, as it runs outside the benchmark's goroutine.
func (e *chatBench) newAccount(b *testing.B, name string) (string, error) {
	key, err := benchAccount(b, e.s, name)
	if err != nil {
		return "", err
	}
	if err := setUpBakery(e.client, e.api.URL(), key); err != nil {
		return "", err
	}
	return key, nil
}

// setUpBakery gives the account of key, at the svc-api at base, the chat tests' bakery: a
// profile, three pages, three FAQ items.
func setUpBakery(client *http.Client, base, key string) error {
	for _, step := range []struct {
		method, path string
		body         any
	}{
		{"PATCH", "/v1/agent", chatProfile},
		{"PUT", "/v1/knowledge/pages", map[string]any{"pages": chatPages, "site_url": chatSite}},
		{"POST", "/v1/knowledge/faq", map[string]any{"items": chatFAQ}},
	} {
		raw, _ := json.Marshal(step.body)
		req, _ := http.NewRequest(step.method, base+step.path, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("%s %s: %v", step.method, step.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s %s: %d %s", step.method, step.path, resp.StatusCode, body)
		}
	}
	return nil
}

func (e *chatBench) run(b *testing.B) {
	e.keys.cover(b, int64(b.N))
	defer profileAPI(b, e.api, "chat-"+e.s.name)()
	latencies := timeParallel(b, func() (time.Duration, error) {
		n, key := e.keys.next()
		body, _ := json.Marshal(map[string]any{"message": chatBenchQuestions[n%int64(len(chatBenchQuestions))]})
		req, _ := http.NewRequest("POST", e.url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		began := time.Now()
		resp, err := e.client.Do(req)
		if err != nil {
			return 0, err
		}
		raw, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(`"status":"completed"`)) {
			return 0, fmt.Errorf("%s %s", resp.Status, raw)
		}
		return time.Since(began), nil
	})
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)/s, "replies/s")
	}
	b.ReportMetric(percentile(latencies, 0.50)/1000, "p50-ms")
	b.ReportMetric(percentile(latencies, 0.99)/1000, "p99-ms")
}
