// Package openai is the client of an OpenAI-compatible upstream (OpenAI, vLLM, Ollama, the
// llama.cpp server …): chat completions, whole or streamed, and embeddings.
//
// It speaks the wire format directly, with encoding/json over net/http: the domain's request and
// reply (domain/model) are the chat-completions shape already, so the mapping is one small struct
// per wire object, every field is carried as sent (JSON Schemas pass through as raw JSON), and
// retries, timeouts, the SSRF guard and error mapping stay in one place under our control.
//
// Why not the official SDK (github.com/openai/openai-go, issue 12), decided per path:
//
//   - The relay (/v1/chat/completions, /v1/responses, /v1/embeddings, model svc) cannot pass the
//     caller's body through as it is: it reads every field it forwards anyway (the limits of spec
//     part 8 on text, images and max_tokens, the tokens it counts, the JSON format it checks and
//     asks again for, the Responses form it turns into a chat completion, the unknown fields it
//     drops), and what it need not read, JSON Schemas and tool-call arguments, it already carries
//     as raw bytes. So the choice is whose types carry the fields, and BenchmarkWire
//     (sdk_bench_test.go; an agent-sized request of 6 messages, 2 KB of Brain text and one tool,
//     and a typical reply) measured on 2026-11-25 on this 2-core machine under load, 3 runs each:
//     encoding 10–18 µs, 4 KB and 11 allocations with these types against 106–128 µs, 28 KB and 208
//     allocations with openai.ChatCompletionNewParams (its tool parameters are a map[string]any, so
//     each JSON Schema must be decoded to be sent); decoding a reply 5–8 µs and 17 allocations
//     against 29–37 µs and 77 with openai.ChatCompletion. The SDK would add about 0.12–0.14 ms to
//     every relayed call, a third of the service's whole p50 overhead (BenchmarkModelOverhead in
//     tests/, embedded +0.33–0.42 ms): the relay keeps these types.
//   - The agent (app/chat's ModelReplier) builds its requests in domain words (domain/model) and
//     sends them through the same port (ports.ChatModel) and this same client: the app layer may
//     not import a library that does I/O (tests/architecture_test.go), and a second encoding of
//     the same port for its calls would add code, not remove it. Its latency is the model's
//     (hundreds of milliseconds), so speed does not decide there; one encoder does.
//
// The SDK stays what the end-to-end tests use as the client of the compatible endpoints
// (tests/models_test.go), which checks that what this package and app/compat write is what the
// maintained SDK reads.
//
// Calls are retried on 408, 409, 429 and 5xx answers and on connection failures and timeouts,
// with exponential backoff (or the upstream's Retry-After, capped), but never once a piece of a
// stream has been passed on. What still fails is 503 model_unavailable; content the upstream's
// safety filter refused is 400 content_policy; a request the upstream rejects is 400
// invalid_request naming the upstream's param. A wrong API key or model name is the operator's
// problem: it is logged at error level and answered as model_unavailable.
package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

// Defaults, used where Options leaves a field zero.
const (
	DefaultTimeout    = 60 * time.Second
	DefaultMaxRetries = 2
	DefaultRetryBase  = 500 * time.Millisecond
)

// MaxBodyBytes caps a reply's body, and the whole of a stream.
const MaxBodyBytes = 16 << 20

const (
	chatPath       = "/chat/completions"
	embeddingsPath = "/embeddings"

	maxErrorBytes  = 64 << 10
	maxRetryWait   = 10 * time.Second
	maxMessageLen  = 1000
	unavailableMsg = "the model is unavailable right now; try again"
)

// Options configures a Client.
type Options struct {
	// BaseURL includes the version path: https://api.openai.com/v1, http://localhost:11434/v1.
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Model is used for requests that name none.
	Model string
	// EmbeddingModel is the model Embed asks for.
	EmbeddingModel string
	// ImageModel is the model Create asks for pictures; empty: no pictures.
	ImageModel string
	// Timeout bounds one attempt of a non-streamed call, request to last byte; for a stream it
	// bounds the wait for the response headers and then for each next piece.
	Timeout time.Duration
	// MaxRetries is how many times a failed call is tried again; 0 means DefaultMaxRetries, a
	// negative value none.
	MaxRetries int
	// RetryBase is the first backoff delay; each further retry doubles it.
	RetryBase time.Duration
	// HTTPClient replaces the SSRF-guarded client (tests). Its own Timeout, if any, applies on
	// top of Timeout, streams included.
	HTTPClient *http.Client
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.RetryBase <= 0 {
		o.RetryBase = DefaultRetryBase
	}
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	return o
}

// Client calls an OpenAI-compatible upstream. It implements ports.ChatModel and ports.Embedder
// and is safe for concurrent use.
type Client struct {
	opts Options
	hc   *http.Client
	log  *zap.Logger
}

var (
	_ ports.ChatModel = (*Client)(nil)
	_ ports.Embedder  = (*Client)(nil)
)

// upstreamIdleConns is how many idle connections to the upstream are kept for reuse: one host
// serving every model call of the process, many at once.
const upstreamIdleConns = 100

// New returns a Client for the upstream at opts.BaseURL. Unless opts.HTTPClient is set it makes
// its own SSRF-guarded client: the upstream's address is the operator's choice, often a model
// server on the local network, so private and loopback targets are allowed, while link-local
// (the cloud metadata address) and the other special ranges stay refused; redirects are not
// followed.
func New(opts Options, log *zap.Logger) *Client {
	opts = opts.withDefaults()
	if log == nil {
		log = zap.NewNop()
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = safehttp.New(safehttp.Options{
			AllowPrivate:          true,
			MaxIdleConnsPerHost:   upstreamIdleConns,
			ResponseHeaderTimeout: opts.Timeout,
			Inline:                true, // a near upstream (plain http) is called without goroutine hand-offs
			Timeout:               opts.Timeout,
		})
		// Each attempt is bounded by its own context instead (see Options.Timeout), which
		// leaves a stream free to run as long as pieces keep coming.
		hc.Timeout = 0
	}
	return &Client{opts: opts, hc: hc, log: log.With(zap.String("upstream", redactURL(opts.BaseURL)))}
}

// failure is a failed attempt that ends, once retries are spent or not allowed, in
// model_unavailable.
type failure struct {
	err      error
	retry    bool          // another attempt may succeed
	after    time.Duration // the upstream's Retry-After
	operator bool          // the configuration is wrong: log it
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

var errTimeout = errors.New("the model upstream did not answer in time")

// post sends body to path and passes a 200 answer's body to read. It retries failures (see the
// package comment) and turns the last one into model_unavailable. Errors read returns that are
// not failures (a domain error, fn's error in a stream) are returned as they are.
func (c *Client) post(ctx context.Context, path string, body []byte, stream bool, read func(io.Reader) error) error {
	for attempt := 0; ; attempt++ {
		err := c.attempt(ctx, path, body, stream, read)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var f *failure
		if !errors.As(err, &f) {
			return err
		}
		if !f.retry || attempt >= c.opts.MaxRetries {
			return c.unavailable(f)
		}
		wait := c.backoff(attempt, f.after)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return c.unavailable(f)
		}
		c.log.Debug("model upstream call failed, retrying",
			zap.String("path", path), zap.Int("attempt", attempt+1), zap.Duration("wait", wait), zap.Error(f.err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// attempt makes one request. It is bounded by Timeout: as a whole when not streamed, and while
// waiting for each next read of a stream.
func (c *Client) attempt(ctx context.Context, path string, body []byte, stream bool, read func(io.Reader) error) error {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(c.opts.Timeout, func() { cancel(errTimeout) })
	defer timer.Stop()

	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.opts.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return &failure{err: fmt.Errorf("model upstream URL: %w", err), operator: true}
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if c.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}

	resp, err := c.hc.Do(req)
	if err != nil {
		if errors.Is(err, safehttp.ErrBlocked) || errors.Is(err, safehttp.ErrScheme) {
			return &failure{err: err, operator: true}
		}
		return c.timedOut(actx, &failure{err: err, retry: true})
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.statusError(resp)
	}
	var r io.Reader = resp.Body
	if stream {
		r = &idleReader{r: r, timer: timer, d: c.opts.Timeout}
	}
	err = read(r)
	var f *failure
	if errors.As(err, &f) {
		return c.timedOut(actx, f)
	}
	return err
}

// timedOut names the timeout as f's cause when the attempt's own timer ended it.
func (c *Client) timedOut(actx context.Context, f *failure) *failure {
	if errors.Is(context.Cause(actx), errTimeout) {
		f.err = fmt.Errorf("%w (%s): %w", errTimeout, c.opts.Timeout, f.err)
	}
	return f
}

// idleReader pushes the attempt's timeout back whenever data arrives.
type idleReader struct {
	r     io.Reader
	timer *time.Timer
	d     time.Duration
}

func (r *idleReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.timer.Reset(r.d)
	}
	return n, err
}

// backoff is how long to wait before retry attempt+1: the upstream's Retry-After, or RetryBase
// doubled per attempt with jitter; at most maxRetryWait.
func (c *Client) backoff(attempt int, after time.Duration) time.Duration {
	if after > 0 {
		return min(after, maxRetryWait)
	}
	d := min(c.opts.RetryBase<<attempt, maxRetryWait)
	return d/2 + rand.N(d/2+1)
}

// unavailable is the model_unavailable error for a failure that will not be retried.
func (c *Client) unavailable(f *failure) error {
	if f.operator {
		c.log.Error("the model upstream refuses the service's configuration", zap.Error(f.err))
	}
	return &domain.Error{Code: domain.CodeModelUnavailable, Message: unavailableMsg, RetryAfter: f.after, Err: f.err}
}

// retryAfter reads how long the upstream asks to wait: retry-after-ms (OpenAI), or Retry-After
// in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return max(time.Duration(s*float64(time.Second)), 0)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// redactURL drops a password from u, for logs.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return p.Redacted()
}
