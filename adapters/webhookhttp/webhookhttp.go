// Package webhookhttp sends webhook deliveries over HTTP: one signed POST per attempt through the
// SSRF-guarded client of internal/safehttp, with the receiver's timeout and no redirects followed.
package webhookhttp

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
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
// code, how long it took, and why it failed, as one of webhook's Fail… categories (the
// transport's own words, which name the service's resolver and addresses, are logged, not
// returned). Only a 2xx answer is a success. The caller fills the attempt's webhook, event and
// number.
func (s *Sender) Send(ctx context.Context, req webhook.Request) webhook.Attempt {
	start := time.Now()
	a := webhook.Attempt{At: start.UTC()}
	var cause error
	a.StatusCode, a.Error, cause = s.post(ctx, req)
	a.Duration = time.Since(start)
	if a.Error != "" {
		fields := []zap.Field{
			zap.String("host", host(req.URL)),
			zap.Int("status", a.StatusCode),
			zap.Duration("duration", a.Duration),
			zap.String("error", a.Error),
		}
		if cause != nil {
			fields = append(fields, zap.String("cause", cause.Error()))
		}
		s.log.Info("webhook attempt failed", fields...)
	}
	return a
}

// post makes the request and returns the status code and, on failure, its category and the
// error behind it (without the URL).
func (s *Sender) post(ctx context.Context, req webhook.Request) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return 0, webhook.FailInvalidURL, errors.New("the URL cannot be parsed")
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", webhook.UserAgent)
	}
	resp, err := s.client.Do(hr)
	if err != nil {
		err = withoutURL(err)
		return 0, classify(ctx, err), err
	}
	defer resp.Body.Close()
	// Drain (up to the cap) so that the connection can be reused, and so that a receiver that
	// stalls in its body runs into the timeout.
	if _, err := io.Copy(io.Discard, io.LimitReader(resp.Body, s.opts.MaxBodyBytes)); err != nil &&
		resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, classify(ctx, err), err // a 2xx whose body never ends is no answer
	}
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return code, "", nil
	case code >= 300 && code < 400:
		return code, webhook.FailRedirect, nil
	default:
		return code, webhook.FailHTTPStatus, nil
	}
}

// withoutURL drops the *url.Error wrapper, whose text is the URL (whose query may carry a token).
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// classify sorts a request error into one of webhook's Fail… categories, by the errors' types.
func classify(ctx context.Context, err error) string {
	var (
		dns       *net.DNSError
		timeout   interface{ Timeout() bool }
		verify    *tls.CertificateVerificationError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
		alert     tls.AlertError
	)
	switch {
	case errors.Is(err, safehttp.ErrBlocked):
		return webhook.FailBlocked
	case errors.Is(err, safehttp.ErrScheme):
		return webhook.FailInvalidURL
	case errors.As(err, &dns): // not found, or no answer in time
		return webhook.FailDNS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &timeout) && timeout.Timeout(), errors.Is(ctx.Err(), context.DeadlineExceeded):
		return webhook.FailTimeout
	case errors.Is(err, context.Canceled), ctx.Err() != nil:
		return webhook.FailCanceled
	case errors.Is(err, syscall.ECONNREFUSED):
		return webhook.FailConnectRefused
	case errors.As(err, &verify), errors.As(err, &authority), errors.As(err, &hostname), errors.As(err, &invalid),
		errors.As(err, &record), errors.As(err, &alert), errors.Is(err, http.ErrSchemeMismatch):
		return webhook.FailTLS
	}
	return webhook.FailNetwork
}

// host returns the host of a URL, for logs; never its path or query.
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
