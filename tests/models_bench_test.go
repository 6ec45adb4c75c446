package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// modelRequestsPerAccount is how many model requests the benchmark sends with one account over
// the whole run: below the limit of 60 a minute per account, so it measures replies, not 429s.
const modelRequestsPerAccount = 50

// After each timed run, the added latency is measured over modelLatencySamples requests and the
// added time to first byte over modelTTFBSamples streams, one at a time, through the service and
// directly in turn.
const (
	modelLatencySamples = 300
	modelTTFBSamples    = 50
)

// modelBenchParallelism is how many clients per GOMAXPROCS send requests in the timed run.
const modelBenchParallelism = 4

// BenchmarkModelOverhead measures what the service adds to a model call: POST
// /v1/chat/completions through svc-api (GOMAXPROCS=2) against a fake upstream on loopback that
// answers at once, compared with the same request sent to the fake upstream directly. The timed
// run sends b.N requests from modelBenchParallelism clients per core and reports requests per
// second (and the p50 latency under that load); then, one request at a time, it reports the p50
// and p99 latency the service adds and the added time to the first chunk of a stream. The
// accounts (one per modelRequestsPerAccount requests, for the limit of 60 a minute) are made
// before the timer starts:
//
//	go test ./tests -run '^$' -bench BenchmarkModelOverhead -benchtime 1000x
func BenchmarkModelOverhead(b *testing.B) { eachStack(b, newModelBench) }

var (
	modelBenchBody       = []byte(`{"model":"svc","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"When do you open on Saturdays?"}]}`)
	modelBenchStreamBody = []byte(`{"model":"svc","stream":true,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"When do you open on Saturdays?"}]}`)
)

type modelBench struct {
	s        stack
	api      *proc
	upstream *httptest.Server
	client   *http.Client
	keys     *keyPool // each of its own account
}

func newModelBench(t testing.TB, newStack func(testing.TB) stack) *modelBench {
	up := httptest.NewServer(http.HandlerFunc(benchUpstream))
	t.Cleanup(up.Close)
	s := newStack(t)
	api := s.startAPI(t,
		"SVC_LOG_LEVEL", "warn",
		"GOMAXPROCS", "2",
		"SVC_MODEL_BASE_URL", up.URL+"/v1",
		"SVC_MODEL_API_KEY", mcUpstreamKey,
		"SVC_MODEL_NAME", mcUpstreamModel,
	)
	e := &modelBench{
		s:        s,
		api:      api,
		upstream: up,
		client: &http.Client{
			Timeout: 2 * time.Minute,
			Transport: &http.Transport{
				MaxIdleConns:        256,
				MaxIdleConnsPerHost: 256,
				IdleConnTimeout:     time.Minute,
				DisableCompression:  true,
			},
		},
	}
	e.keys = newKeyPool(modelRequestsPerAccount, setupWorkers(s), func(b *testing.B, i int) (string, error) {
		return benchAccount(b, s, fmt.Sprintf("Model bench %d", i))
	})
	return e
}

// benchUpstream is the fake upstream of the benchmark: a fixed completion, whole or streamed in
// four chunks, with no work of its own.
func benchUpstream(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	if bytes.Contains(raw, []byte(`"stream":true`)) {
		w.Header().Set("Content-Type", "text/event-stream")
		f, _ := w.(http.Flusher)
		for _, chunk := range benchStreamChunks {
			_, _ = w.Write(chunk)
			if f != nil {
				f.Flush()
			}
		}
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(benchCompletion)
}

var benchCompletion, benchStreamChunks = func() ([]byte, [][]byte) {
	whole, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-bench", "object": "chat.completion", "created": 1767225600, "model": mcUpstreamModel,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": mcPlainReply}, "finish_reason": "stop"}},
		"usage":   mcUsage(),
	})
	var chunks [][]byte
	chunk := func(delta map[string]any, finish any, usage any) {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1767225600, "model": mcUpstreamModel,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}, "usage": usage})
		chunks = append(chunks, []byte("data: "+string(b)+"\n\n"))
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	half := len(mcPlainReply) / 2
	chunk(map[string]any{"content": mcPlainReply[:half]}, nil, nil)
	chunk(map[string]any{"content": mcPlainReply[half:]}, nil, nil)
	chunk(map[string]any{}, "stop", mcUsage())
	chunks = append(chunks, []byte("data: [DONE]\n\n"))
	return whole, chunks
}()

// nextKey returns the key for the next request.
func (e *modelBench) nextKey() string {
	_, key := e.keys.next()
	return key
}

// post sends body to url (with key unless "") and returns the latency to the whole answer, or to
// its first data line when firstChunk; the answer must be 200.
func (e *modelBench) post(url, key string, body []byte, firstChunk bool) (time.Duration, error) {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	began := time.Now()
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var took time.Duration
	if firstChunk && resp.StatusCode == http.StatusOK {
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if strings.HasPrefix(line, "data:") {
				took = time.Since(began)
				break
			}
			if err != nil {
				return 0, fmt.Errorf("the stream ended before a data line: %v", err)
			}
		}
		_, _ = io.Copy(io.Discard, r)
	} else {
		raw, _ := io.ReadAll(resp.Body)
		took = time.Since(began)
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("%s: %s", resp.Status, shorten(string(raw), 300))
		}
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s", resp.Status)
	}
	return took, nil
}

func (e *modelBench) run(b *testing.B) {
	// Warm both paths (connections, the first account lookups) before anything is measured.
	e.keys.cover(b, 1)
	for range 4 {
		if _, err := e.post(e.upstream.URL+"/v1/chat/completions", "", modelBenchBody, false); err != nil {
			b.Fatalf("warm-up, direct: %v", err)
		}
	}
	if _, err := e.post(e.api.URL()+"/v1/chat/completions", e.nextKey(), modelBenchBody, false); err != nil {
		b.Fatalf("warm-up, through the service: %v", err)
	}
	e.keys.cover(b, int64(b.N)+modelLatencySamples+modelTTFBSamples)

	// Throughput: modelBenchParallelism clients per core, keep-alive connections.
	url := e.api.URL() + "/v1/chat/completions"
	b.SetParallelism(modelBenchParallelism)
	loaded := timeParallel(b, func() (time.Duration, error) {
		return e.post(url, e.nextKey(), modelBenchBody, false)
	})

	// Added latency: one request at a time, alternating the service and the upstream directly,
	// so that both see the same machine.
	var via, direct []time.Duration
	for range modelLatencySamples {
		d, err := e.post(e.upstream.URL+"/v1/chat/completions", "", modelBenchBody, false)
		if err != nil {
			b.Fatalf("direct call: %v", err)
		}
		direct = append(direct, d)
		if d, err = e.post(url, e.nextKey(), modelBenchBody, false); err != nil {
			b.Fatalf("call through the service: %v", err)
		}
		via = append(via, d)
	}
	sortDurations(via)
	sortDurations(direct)

	// Time to the first chunk of a stream, the same way.
	var viaTTFB, directTTFB []time.Duration
	for range modelTTFBSamples {
		d, err := e.post(e.upstream.URL+"/v1/chat/completions", "", modelBenchStreamBody, true)
		if err != nil {
			b.Fatalf("direct stream: %v", err)
		}
		directTTFB = append(directTTFB, d)
		if d, err = e.post(url, e.nextKey(), modelBenchStreamBody, true); err != nil {
			b.Fatalf("stream through the service: %v", err)
		}
		viaTTFB = append(viaTTFB, d)
	}
	sortDurations(viaTTFB)
	sortDurations(directTTFB)

	b.ReportMetric(percentile(via, 0.50), "p50-µs")
	b.ReportMetric(percentile(via, 0.50)-percentile(direct, 0.50), "p50-added-µs")
	b.ReportMetric(percentile(via, 0.99)-percentile(direct, 0.99), "p99-added-µs")
	b.ReportMetric(float64(len(loaded))/b.Elapsed().Seconds(), "req/s")
	b.ReportMetric(percentile(loaded, 0.50), "loaded-p50-µs")
	b.ReportMetric(percentile(viaTTFB, 0.50)-percentile(directTTFB, 0.50), "ttfb-added-µs")
}
