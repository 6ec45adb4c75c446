// Package webhookhttp sends webhook deliveries over HTTP: one signed POST per attempt through the
// SSRF-guarded client of internal/safehttp, with the receiver's timeout and no redirects followed.
package webhookhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/google/wire"
	"go.uber.org/zap"

	"github.com/svcagent/svc/domain/webhook"
	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

// Set provides the sender, bound to ports.WebhookSender, from Options and a *zap.Logger.
var Set = wire.NewSet(New, wire.Bind(new(ports.WebhookSender), new(*Sender)))

// DefaultMaxBodyBytes is how much of a receiver's answer is read (and thrown away) by default.
const DefaultMaxBodyBytes = 64 << 10

// Options configure a Sender; zero fields take the defaults.
type Options struct {
	// AllowPrivate lets deliveries reach loopback and private addresses, for local tests
	// (SVC_ALLOW_PRIVATE_TARGETS).
	AllowPrivate bool
	// Timeout bounds one whole attempt: connect, request, answer and its body (default
	// webhook.Timeout, the spec's 10 s).
	Timeout time.Duration
	// MaxBodyBytes is how much of the answer is read before the connection is dropped (default
	// DefaultMaxBodyBytes).
	MaxBodyBytes int64
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = webhook.Timeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return o
}

// Sender makes delivery attempts. It implements ports.WebhookSender and is safe for concurrent
// use.
type Sender struct {
	client *http.Client
	opts   Options
	log    *zap.Logger
}

var _ ports.WebhookSender = (*Sender)(nil)

// New returns a Sender with its own guarded client.
func New(opts Options, log *zap.Logger) *Sender {
	opts = opts.withDefaults()
	client := safehttp.New(safehttp.Options{
		AllowPrivate:          opts.AllowPrivate,
		DialTimeout:           min(safehttp.DefaultDialTimeout, opts.Timeout),
		TLSHandshakeTimeout:   min(safehttp.DefaultTLSHandshakeTimeout, opts.Timeout),
		ResponseHeaderTimeout: opts.Timeout,
		Timeout:               opts.Timeout,
		MaxRedirects:          0, // a 3xx is the answer, and a failure
	})
	return &Sender{client: client, opts: opts, log: log}
}

// Send POSTs req.Body with req.Headers to req.URL once and reports what happened: the status
// code, how long it took, and why it failed ("timeout", "refused: private address",
// "redirect not followed (302)", "status 500", or the transport's error without the URL). Only a
// 2xx answer is a success. The caller fills the attempt's webhook, event and number.
func (s *Sender) Send(ctx context.Context, req webhook.Request) webhook.Attempt {
	start := time.Now()
	a := webhook.Attempt{At: start.UTC()}
	a.StatusCode, a.Error = s.post(ctx, req)
	a.Duration = time.Since(start)
	if a.Error != "" {
		s.log.Debug("webhook attempt failed",
			zap.String("host", host(req.URL)),
			zap.Int("status", a.StatusCode),
			zap.Duration("duration", a.Duration),
			zap.String("error", a.Error))
	}
	return a
}

// post makes the request and returns the status code and the failure, if any.
func (s *Sender) post(ctx context.Context, req webhook.Request) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return 0, "invalid url"
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", webhook.UserAgent)
	}
	resp, err := s.client.Do(hr)
	if err != nil {
		return 0, describe(ctx, err)
	}
	defer resp.Body.Close()
	// Drain (up to the cap) so that the connection can be reused, and so that a receiver that
	// stalls in its body runs into the timeout.
	if _, err := io.Copy(io.Discard, io.LimitReader(resp.Body, s.opts.MaxBodyBytes)); err != nil &&
		resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, describe(ctx, err) // a 2xx whose body never ends is no answer
	}
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return code, ""
	case code >= 300 && code < 400:
		return code, fmt.Sprintf("redirect not followed (%d)", code)
	default:
		return code, fmt.Sprintf("status %d", code)
	}
}

// describe turns a request error into a short reason that is safe to show and log: never the URL,
// whose query may carry a token.
func describe(ctx context.Context, err error) string {
	var timeout interface{ Timeout() bool }
	switch {
	case errors.Is(err, safehttp.ErrBlocked):
		return "refused: private address"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return "timeout"
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return "canceled"
	case errors.Is(err, safehttp.ErrScheme):
		return "refused: only http and https URLs"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// host returns the host of a URL, for logs; never its path or query.
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
