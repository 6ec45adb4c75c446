package safehttp

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrHost is matched (errors.Is) by the refusal of a URL host that is not a valid host name or
// address.
var ErrHost = errors.New("invalid host")

// errPort is CheckTarget's refusal of a port that is not a number up to 65535.
var errPort = fmt.Errorf("%w: the port is not a number up to 65535", ErrHost)

// Host is a URL's host as a browser reads it (the WHATWG URL standard's host parser): either an
// IP address, or a domain name in its ASCII form, lower case, without a trailing dot.
type Host struct {
	// Name is the domain name, when the host is not an address.
	Name string
	// Addr is the address, when the host is one.
	Addr netip.Addr
}

// String returns the host's canonical form: the address, or the name.
func (h Host) String() string {
	if h.Addr.IsValid() {
		return h.Addr.String()
	}
	return h.Name
}

// hostProfile maps a host name as the WHATWG URL standard's "domain to ASCII" does: UTS #46
// mapping, non-transitional (full-width digits and dots become ASCII, upper case becomes lower
// case), with the Bidi and joiner rules but neither STD3 nor hyphen rules.
var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false))

// Limits of a DNS name (RFC 1035).
const (
	maxNameLen  = 253
	maxLabelLen = 63
)

// ParseHost reads host (a URL's Hostname(): no brackets, no port) as a browser would: an IPv6
// address when it has a colon (its zone dropped); otherwise the name is mapped to ASCII (UTS #46),
// and a name whose last label is a number is an IPv4 address in any of the WHATWG forms
// (2130706433, 0x7f.1, 0177.0.0.1, 127.1, a trailing dot) or no valid host at all. A name must be
// made of labels of letters, digits, hyphens and underscores. Errors match ErrHost.
func ParseHost(host string) (Host, error) {
	if host == "" {
		return Host{}, fmt.Errorf("%w: empty", ErrHost)
	}
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() {
			return Host{}, fmt.Errorf("%w: %q is not an IPv6 address", ErrHost, host)
		}
		return Host{Addr: a.WithZone("")}, nil
	}
	ascii, err := hostProfile.ToASCII(host)
	if err == nil && ascii != host {
		// The mapping is idempotent on valid names: a result that maps again to something else
		// came from input the mapping only patched up (invalid UTF-8, say).
		var again string
		if again, err = hostProfile.ToASCII(ascii); err == nil && again != ascii {
			err = errors.New("unstable mapping")
		}
	}
	if err != nil || !utf8.ValidString(host) {
		return Host{}, fmt.Errorf("%w: %q is not a valid host name", ErrHost, host)
	}
	if endsInNumber(ascii) {
		a, ok := parseLegacyIPv4(ascii)
		if !ok {
			return Host{}, fmt.Errorf("%w: %q is not a valid IPv4 address", ErrHost, host)
		}
		return Host{Addr: a}, nil
	}
	name := strings.TrimSuffix(ascii, ".")
	if len(name) > maxNameLen {
		return Host{}, fmt.Errorf("%w: the host name is longer than %d characters", ErrHost, maxNameLen)
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > maxLabelLen || strings.IndexFunc(label, notNameChar) >= 0 {
			return Host{}, fmt.Errorf("%w: %q is not a valid host name", ErrHost, host)
		}
	}
	return Host{Name: name}, nil
}

// notNameChar reports whether r may not appear in a host name's label (after the mapping to
// lower-case ASCII).
func notNameChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
}

// endsInNumber is the WHATWG URL standard's "ends in a number" check: the last label (a single
// trailing dot ignored) is decimal digits, or a number in the IPv4 parser's forms (0x1f, 017).
func endsInNumber(host string) bool {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseLegacyPart(last)
	return ok
}

// privateSuffixes are the special-use names that never denote a public host: localhost
// (RFC 6761), mDNS (RFC 6762), home networks (RFC 8375) and ICANN's private-use .internal.
var privateSuffixes = []string{"localhost", "local", "home.arpa", "internal"}

// privateName reports whether name (lower case, no trailing dot) is, or is under, one of
// privateSuffixes.
func privateName(name string) bool {
	for _, s := range privateSuffixes {
		if name == s || strings.HasSuffix(name, "."+s) {
			return true
		}
	}
	return false
}

// CheckTarget is the check of a URL the service will request later (a webhook receiver, a
// crawl's start page), made when the URL is given: the scheme is http or https, and its host,
// read as a browser reads it (ParseHost), is a public address (the dial-time rules) or a domain
// name of at least two labels that is not localhost or another private-use name. allowPrivate
// lets loopback and private addresses and local names through, as the client does. Errors match
// ErrScheme, ErrHost or ErrBlocked (a *BlockedError). It does not resolve the name: the dial-time
// guard still checks the addresses a name resolves to.
func CheckTarget(u *url.URL, allowPrivate bool) error {
	if err := checkScheme(u); err != nil {
		return err
	}
	raw := u.Hostname()
	h, err := ParseHost(raw)
	if err != nil {
		return err
	}
	port := uint16(80)
	if strings.EqualFold(u.Scheme, "https") {
		port = 443
	}
	if ps := u.Port(); ps != "" {
		n, err := strconv.ParseUint(ps, 10, 16)
		if err != nil {
			return errPort
		}
		port = uint16(n)
	}
	if h.Addr.IsValid() {
		return newPolicy(allowPrivate, nil).check(netip.AddrPortFrom(h.Addr, port), raw)
	}
	if allowPrivate {
		return nil
	}
	switch {
	case isLocalhost(h.Name):
		return &BlockedError{Host: raw, Class: "loopback name", err: fmt.Errorf("%s is a loopback name", h.Name)}
	case privateName(h.Name):
		return &BlockedError{Host: raw, Class: "private-use name", err: fmt.Errorf("%s is a local name", h.Name)}
	case !strings.Contains(h.Name, "."):
		return &BlockedError{Host: raw, Class: "single-label name", err: fmt.Errorf("%s has no domain", h.Name)}
	}
	return nil
}

// Explain returns why CheckTarget refused a URL, in a short sentence that is safe to show the
// caller: it names the address a host was read as, never the raw host.
func Explain(err error) string {
	var be *BlockedError
	switch {
	case errors.As(err, &be) && be.Addr.IsValid():
		return fmt.Sprintf("its host is %s (%s address)", be.Addr, be.Class)
	case errors.As(err, &be):
		return "its host is a " + be.Class
	case errors.Is(err, ErrScheme):
		return "only http and https URLs are allowed"
	case errors.Is(err, errPort):
		return "its port is not a number up to 65535"
	case errors.Is(err, ErrHost):
		return "its host is not a valid host name or address"
	case err == nil:
		return ""
	}
	return "it cannot be requested"
}
