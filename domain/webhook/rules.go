package webhook

import (
	"encoding/base64"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/event"
)

// MaxPerAccount is how many webhooks an account may have.
const MaxPerAccount = 10

// MaxURL is the longest receiver URL accepted, in bytes.
const MaxURL = 2048

// AllEvents, alone in Events, subscribes a webhook to every event type.
const AllEvents = "*"

// SecretBytes is how many random bytes NewSecret expects.
const SecretBytes = 32

// NewSecret returns a signing secret made of random (SecretBytes bytes from a secure source):
// SecretPrefix followed by their unpadded base64url form.
func NewSecret(random []byte) string {
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(random)
}

// ValidateURL checks a receiver URL: absolute, https (plain http only to a loopback host, and
// only when allowPrivate, for local tests), without credentials or fragment, at most MaxURL
// bytes. Without allowPrivate, a host that is plainly not public (localhost, a loopback,
// private, link-local or unspecified address literal) is refused too; the dial-time guard
// catches the rest. Errors name the field "url".
func ValidateURL(raw string, allowPrivate bool) error {
	if raw == "" {
		return domain.Invalid("url", "url is required")
	}
	if len(raw) > MaxURL {
		return domain.Invalid("url", "url must be at most %d characters", MaxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" || u.Hostname() == "" {
		return domain.Invalid("url", "url must be an absolute https URL")
	}
	if u.User != nil {
		return domain.Invalid("url", "url must not contain credentials")
	}
	if u.Fragment != "" || strings.HasSuffix(raw, "#") {
		return domain.Invalid("url", "url must not contain a fragment")
	}
	host := u.Hostname()
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !allowPrivate || !loopback(host) {
			return domain.Invalid("url", "url must use https")
		}
	default:
		return domain.Invalid("url", "url must use https")
	}
	if !allowPrivate && notPublic(host) {
		return domain.Invalid("url", "url must point to a public address")
	}
	return nil
}

// ValidateEvents checks a webhook's event list and returns it without duplicates, in the given
// order: a non-empty list of event types of the spec, or exactly ["*"]. Errors name the field
// "events", or the entry at fault ("events[2]").
func ValidateEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, domain.Invalid("events", `events must list event types, or be ["*"]`)
	}
	out := make([]string, 0, len(events))
	for i, e := range events {
		if e == AllEvents {
			continue
		}
		if !event.Known(event.Type(e)) {
			at := "events[" + strconv.Itoa(i) + "]"
			return nil, domain.Invalid(at, "unknown event type %s", domain.Quote(e))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	if slices.Contains(events, AllEvents) {
		if len(out) > 0 {
			return nil, domain.Invalid("events", `"*" must be the only entry of events`)
		}
		return []string{AllEvents}, nil
	}
	return out, nil
}

// loopback reports whether host is localhost (or a name under it) or a loopback address.
func loopback(host string) bool {
	if localhost(host) {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// notPublic reports whether host is localhost or an address literal that is loopback, private,
// link-local, unspecified or multicast.
func notPublic(host string) bool {
	if localhost(host) {
		return true
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified() || a.IsMulticast()
}

func localhost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}
