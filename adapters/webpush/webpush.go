// Package webpush sends the owner's alerts to browsers by Web Push: each message encrypted to the
// subscription's keys (RFC 8291, aes128gcm) and signed with the service's VAPID key (RFC 8292) by
// github.com/SherClockHolmes/webpush-go, and POSTed to the browser's push service (RFC 8030)
// through the SSRF-guarded client of internal/safehttp.
package webpush

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/google/wire"

	"github.com/svcagent/svc/domain/push"
	"github.com/svcagent/svc/internal/safehttp"
	"github.com/svcagent/svc/ports"
)

// Set provides the sender, bound to ports.PushSender, from Options.
var Set = wire.NewSet(New, wire.Bind(new(ports.PushSender), new(*Sender)))

// Timeout bounds one push: connect, request and answer.
const Timeout = 10 * time.Second

// maxAnswer is how much of a push service's answer is read (and thrown away).
const maxAnswer = 16 << 10

// Options configure a Sender.
type Options struct {
	// Keys sign every push (VAPID).
	Keys push.Keys
	// AllowPrivate lets pushes reach loopback and private addresses, for local tests
	// (SVC_ALLOW_PRIVATE_TARGETS).
	AllowPrivate bool
}

// Sender sends pushes. It implements ports.PushSender and is safe for concurrent use.
type Sender struct {
	opts   Options
	client *http.Client
}

var _ ports.PushSender = (*Sender)(nil)

// New returns a Sender with its own guarded client: no redirects followed, Timeout a push.
func New(opts Options) *Sender {
	client := safehttp.New(safehttp.Options{
		AllowPrivate:          opts.AllowPrivate,
		DialTimeout:           min(safehttp.DefaultDialTimeout, Timeout),
		TLSHandshakeTimeout:   min(safehttp.DefaultTLSHandshakeTimeout, Timeout),
		ResponseHeaderTimeout: Timeout,
		Timeout:               Timeout,
		MaxRedirects:          0,
	})
	return &Sender{opts: opts, client: client}
}

// Send encrypts payload to s and POSTs it to s's endpoint with a TTL of push.TTL and normal
// urgency. It returns the push service's status; an error (without the endpoint, which is a
// capability) when the message could not be made or no answer came.
func (p *Sender) Send(ctx context.Context, s push.Subscription, payload []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	res, err := webpush.SendNotificationWithContext(ctx, payload,
		&webpush.Subscription{Endpoint: s.Endpoint, Keys: webpush.Keys{P256dh: s.P256dh, Auth: s.Auth}},
		&webpush.Options{
			HTTPClient:      p.client,
			Subscriber:      subscriber(p.opts.Keys.Subject),
			TTL:             int(push.TTL / time.Second),
			Urgency:         webpush.UrgencyNormal,
			VAPIDPublicKey:  p.opts.Keys.Public,
			VAPIDPrivateKey: p.opts.Keys.Private,
		})
	if err != nil {
		return 0, fmt.Errorf("push to %s: %w", s.Host(), withoutURL(err))
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, maxAnswer))
	return res.StatusCode, nil
}

// subscriber is the JWT's sub as webpush-go takes it: an https URL as it is, an e-mail address
// without its mailto: (the library adds it back).
func subscriber(subject string) string {
	if strings.HasPrefix(subject, "https:") {
		return subject
	}
	return strings.TrimPrefix(subject, "mailto:")
}

func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
