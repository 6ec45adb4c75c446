// Package push holds the owner's Web Push subscriptions (RFC 8030, RFC 8291, RFC 8292): one per
// browser the owner asked to be alerted on, and the small message a notification becomes on it.
package push

import (
	"bytes"
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/webhook"
)

// MaxPerAccount is how many browsers an account's owner may be alerted on: subscribing one more
// replaces the oldest (a browser the owner no longer uses is the likeliest to go first).
const MaxPerAccount = 10

// MaxEndpoint is the longest push endpoint accepted, in bytes.
const MaxEndpoint = webhook.MaxURL

// TTL is how long a push service keeps an alert for a browser that is offline.
const TTL = 24 * time.Hour

// NotificationsPage is the console page an alert opens.
const NotificationsPage = "/app/notifications"

// Longest title and body of an alert, in runes: a push message carries at most 4 KB once
// encrypted, and a system notification shows a few lines anyway.
const (
	MaxTitle = 120
	MaxBody  = 600
)

// Subscription is one browser's push subscription: where its push service takes messages
// (Endpoint) and the keys the messages are encrypted to (P256dh, the browser's P-256 public key,
// and Auth, its authentication secret; both base64url as PushSubscription.toJSON gives them).
type Subscription struct {
	ID        string
	AccountID string
	Endpoint  string
	P256dh    string
	Auth      string
	CreatedAt time.Time
}

// Host returns the endpoint's host, to name the push service a subscription goes through.
func (s Subscription) Host() string {
	rest, ok := strings.CutPrefix(s.Endpoint, "https://")
	if !ok {
		rest, _ = strings.CutPrefix(s.Endpoint, "http://")
	}
	host, _, _ := strings.Cut(rest, "/")
	return host
}

// Validate checks a subscription as a browser sends it: the endpoint an absolute https URL of a
// public host (plain http to loopback only when allowPrivate, for tests), p256dh an uncompressed
// P-256 point (65 bytes starting 0x04) and auth 16 bytes, both base64url. Errors name the field.
func Validate(endpoint, p256dh, auth string, allowPrivate bool) error {
	if err := webhook.ValidateURL(endpoint, allowPrivate); err != nil {
		var de *domain.Error
		if errors.As(err, &de) {
			out := *de
			out.Field = "endpoint"
			return &out
		}
		return err
	}
	if k, err := decodeKey(p256dh); err != nil || len(k) != 65 || k[0] != 4 {
		return domain.Invalid("p256dh", "p256dh must be a P-256 public key in base64url (65 bytes)")
	}
	if k, err := decodeKey(auth); err != nil || len(k) != 16 {
		return domain.Invalid("auth", "auth must be 16 bytes in base64url")
	}
	return nil
}

// decodeKey reads base64url with or without padding, as browsers and libraries write it.
func decodeKey(s string) ([]byte, error) {
	if len(s) > 200 {
		return nil, errors.New("too long")
	}
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// Gone reports whether a push service's answer says the subscription no longer exists (404 or
// 410, RFC 8030 section 7.3): it is deleted rather than tried again.
func Gone(status int) bool { return status == 404 || status == 410 }

// Delivered reports whether a push service took the message (2xx; 201 Created by RFC 8030).
func Delivered(status int) bool { return status >= 200 && status < 300 }

// Message is what a browser's service worker gets: the notification's title and body, and the
// console page to open when it is clicked.
type Message struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
}

// NewMessage returns the alert of a notification, its title and body cut to MaxTitle and MaxBody
// runes.
func NewMessage(title, body string) Message {
	return Message{Title: cut(title, MaxTitle), Body: cut(body, MaxBody), URL: NotificationsPage}
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Keys are the service's VAPID key pair (RFC 8292), both base64url: Public, the uncompressed
// P-256 point browsers subscribe with (applicationServerKey), Private, the scalar that signs the
// push services' JWTs, and Subject, the operator's contact (mailto: or https:) the JWT names.
type Keys struct {
	Public  string
	Private string
	Subject string
}

// String names the public key only: a Keys printed or logged never shows the private one.
func (k Keys) String() string { return "vapid " + k.Public }

// GoString is String, for %#v.
func (k Keys) GoString() string { return k.String() }

// CheckKeys checks a VAPID key pair given by the operator: public an uncompressed P-256 point and
// private its 32-byte scalar, both base64url, the one the other's public key. The error never
// holds the private key.
func CheckKeys(public, private string) error {
	pub, err := decodeKey(public)
	if err != nil || len(pub) != 65 || pub[0] != 4 {
		return errors.New("the public key is not an uncompressed P-256 point in base64url (65 bytes)")
	}
	priv, err := decodeKey(private)
	if err != nil || len(priv) != 32 {
		return errors.New("the private key is not a P-256 scalar in base64url (32 bytes)")
	}
	k, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return errors.New("the private key is not a valid P-256 scalar")
	}
	if !bytes.Equal(k.PublicKey().Bytes(), pub) {
		return errors.New("the private key does not belong to the public key")
	}
	return nil
}

// CheckSubject checks the VAPID subject: a mailto: address or an https URL (RFC 8292 section 2.1).
func CheckSubject(subject string) error {
	if (strings.HasPrefix(subject, "mailto:") && strings.Contains(subject, "@")) ||
		(strings.HasPrefix(subject, "https://") && len(subject) > len("https://")) {
		return nil
	}
	return errors.New("the subject must be a mailto: address or an https URL, e.g. mailto:ops@example.com")
}

// DefaultSubject is the subject when the operator gives none: the service's public address when
// it is https, else a mailto: address of no one.
func DefaultSubject(publicURL string) string {
	if strings.HasPrefix(publicURL, "https://") {
		return publicURL
	}
	return "mailto:no-reply@localhost"
}
