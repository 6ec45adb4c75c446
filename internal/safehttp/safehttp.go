// Package safehttp builds outbound HTTP clients that cannot be pointed at the service's own
// network: every connection is checked at dial time, on the resolved IP address, against the IANA
// special-purpose ranges (loopback, private, link-local and the metadata address, CGNAT, ULA,
// IPv4-mapped IPv6, NAT64, multicast, reserved …). Because the check runs after DNS resolution
// and on every dial, neither DNS rebinding nor a redirect can slip past it. URLs whose host is an
// address literal in a refused range (including legacy forms such as 2130706433, 0x7f000001 and
// 127.1) fail before any dial, with a clear reason.
//
// The crawler, the webhook sender and the model client all use it; none uses
// the standard library's default client.
package safehttp

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// Default timeouts, used where Options leaves one zero.
const (
	DefaultDialTimeout           = 5 * time.Second
	DefaultTLSHandshakeTimeout   = 5 * time.Second
	DefaultResponseHeaderTimeout = 10 * time.Second
	DefaultTimeout               = 30 * time.Second
)

// DefaultMaxIdleConnsPerHost is how many idle connections to one host are kept by default: few,
// for clients that reach many hosts (crawls, webhooks).
const DefaultMaxIdleConnsPerHost = 4

// maxIdleConns caps the idle connections kept in all.
const maxIdleConns = 100

// maxHeaderBytes caps the response headers a server may send.
const maxHeaderBytes = 64 << 10

var (
	// ErrBlocked is matched (errors.Is) by every refusal of a destination address; the concrete
	// error is a *BlockedError naming the address and why it was refused.
	ErrBlocked = errors.New("destination refused")
	// ErrScheme is returned for a URL whose scheme is not http or https.
	ErrScheme = errors.New("only http and https URLs are allowed")
	// ErrTooManyRedirects is returned when a response redirects more often than
	// Options.MaxRedirects allows.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrTooLarge is returned by ReadLimited when the body is larger than allowed.
	ErrTooLarge = errors.New("body too large")
)

// Options configures a client made by New. The zero value is a safe client: private targets
// refused, default timeouts, redirects not followed.
type Options struct {
	// AllowPrivate lets loopback and private (RFC 1918, ULA) addresses through, for local tests
	// (SVC_ALLOW_PRIVATE_TARGETS). Link-local addresses (the cloud metadata address among them)
	// and every other special range stay refused.
	AllowPrivate bool
	// DialTimeout bounds one TCP connect.
	DialTimeout time.Duration
	// TLSHandshakeTimeout bounds one TLS handshake.
	TLSHandshakeTimeout time.Duration
	// ResponseHeaderTimeout bounds the wait for response headers once the request is written.
	ResponseHeaderTimeout time.Duration
	// Timeout bounds a whole request, redirects and reading the body included.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 means none: the 3xx response itself is
	// returned. Every hop is checked like the first.
	MaxRedirects int
	// MaxIdleConnsPerHost is how many idle connections are kept per host for reuse
	// (DefaultMaxIdleConnsPerHost when 0): raise it for a client that sends many requests at once
	// to one host.
	MaxIdleConnsPerHost int
	// Inline makes plain-http requests on the caller's goroutine, HTTP/1.1 over a pool of its own
	// (inline.go), instead of through the standard Transport's connection goroutines: for a
	// client of one near upstream whose every request waits for it (the model relay). https
	// requests still take the standard Transport.
	Inline bool
	// Resolve, when set, replaces the system resolver (custom DNS, tests). Whatever it returns
	// is checked at dial time like any other resolved address.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)

	// allowAddrs are exact address:port pairs treated as public; only this package's tests set
	// it, to stand a loopback server in for a public host.
	allowAddrs []netip.AddrPort
}

func (o Options) withDefaults() Options {
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	if o.TLSHandshakeTimeout <= 0 {
		o.TLSHandshakeTimeout = DefaultTLSHandshakeTimeout
	}
	if o.ResponseHeaderTimeout <= 0 {
		o.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxIdleConnsPerHost <= 0 {
		o.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	}
	if o.MaxRedirects < 0 {
		o.MaxRedirects = 0
	}
	return o
}

// New returns an HTTP client whose every connection passes the SSRF guard. It never uses a
// proxy from the environment (the guard would then check the proxy, not the target).
func New(o Options) *http.Client {
	o = o.withDefaults()
	p := newPolicy(o.AllowPrivate, o.allowAddrs)
	d := &dialer{
		net:     &net.Dialer{Timeout: o.DialTimeout, KeepAlive: 30 * time.Second, Control: p.control},
		resolve: o.Resolve,
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.dialContext,
		ForceAttemptHTTP2:      true,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    o.TLSHandshakeTimeout,
		ResponseHeaderTimeout:  o.ResponseHeaderTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           maxIdleConns,
		MaxIdleConnsPerHost:    o.MaxIdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	g := &guard{next: transport, policy: p}
	if o.Inline {
		g.inline = newInline(d.dialContext, o.ResponseHeaderTimeout, o.MaxIdleConnsPerHost)
	}
	maxRedirects := o.MaxRedirects
	return &http.Client{
		Transport: g,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if maxRedirects == 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > maxRedirects {
				return fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, maxRedirects)
			}
			return nil
		},
	}
}

// ReadLimited reads all of r, up to limit bytes; a longer body is an ErrTooLarge error.
func ReadLimited(r io.Reader, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	return b, nil
}

// guard checks each request's URL before it reaches the transport: the first request and every
// redirect hop pass through it.
type guard struct {
	next   *http.Transport
	inline *inline // plain-http requests, when Options.Inline
	policy policy
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := g.policy.checkURL(req.URL); err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	if g.inline != nil && strings.EqualFold(req.URL.Scheme, "http") {
		return g.inline.RoundTrip(req)
	}
	return g.next.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the transports.
func (g *guard) CloseIdleConnections() {
	g.next.CloseIdleConnections()
	if g.inline != nil {
		g.inline.CloseIdleConnections()
	}
}

// dialer dials through net.Dialer, whose Control function checks each resolved address; with a
// Resolve hook it resolves first and dials the addresses one by one.
type dialer struct {
	net     *net.Dialer
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

func (d *dialer) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if d.resolve == nil {
		return d.net.DialContext(ctx, network, address)
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return d.net.DialContext(ctx, network, address)
	}
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, &net.DNSError{Err: err.Error(), Name: host}
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := d.net.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		if firstErr == nil || errors.Is(err, ErrBlocked) {
			firstErr = err
		}
	}
	return nil, firstErr
}

// policy decides which addresses may be dialled.
type policy struct {
	allowPrivate bool
	allowAddrs   []netip.AddrPort
	guardian     *ssrf.Guardian
}

func newPolicy(allowPrivate bool, allowAddrs []netip.AddrPort) policy {
	return policy{
		allowPrivate: allowPrivate,
		allowAddrs:   allowAddrs,
		// Any port: the scheme check limits what is spoken, and tests use loopback ports.
		guardian: ssrf.New(ssrf.WithAnyPort()),
	}
}

// control is the net.Dialer Control function: it runs after DNS resolution, just before the
// socket connects, for every connection.
func (p policy) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{Host: address, Class: "unparsable", err: err}
	}
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return &BlockedError{Host: address, Addr: ap.Addr(), Class: "non-TCP", err: fmt.Errorf("network %s", network)}
	}
	return p.check(ap, "")
}

// check refuses ap unless it is public (or allowed by the options); host names what was asked
// for, for the error message.
func (p policy) check(ap netip.AddrPort, host string) error {
	addr := ap.Addr().WithZone("")
	plain := addr.Unmap()
	for _, a := range p.allowAddrs {
		if a.Addr() == plain && a.Port() == ap.Port() {
			return nil
		}
	}
	if p.allowPrivate && (plain.IsLoopback() || plain.IsPrivate()) {
		return nil
	}
	if err := p.guardian.SafeAddr(addr); err != nil {
		if host == "" {
			host = addr.String()
		}
		return &BlockedError{Host: host, Addr: addr, Class: classify(addr), err: err}
	}
	return nil
}

// BlockedError is a refused destination. It matches ErrBlocked.
type BlockedError struct {
	// Host is what was asked for: a host name or an address.
	Host string
	// Addr is the refused address.
	Addr netip.Addr
	// Class names the kind of address: "loopback", "private", "link-local" …
	Class string
	err   error
}

func (e *BlockedError) Error() string {
	if e.Addr.IsValid() && e.Host != e.Addr.String() {
		return fmt.Sprintf("refused: %s is %s, not a public address (%s)", e.Host, e.Addr, e.Class)
	}
	return fmt.Sprintf("refused: %s is not a public address (%s)", e.Host, e.Class)
}

// Is makes errors.Is(err, ErrBlocked) true.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// Unwrap returns the guard's own reason.
func (e *BlockedError) Unwrap() error { return e.err }

var (
	cgnat   = netip.MustParsePrefix("100.64.0.0/10")
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	nat64l  = netip.MustParsePrefix("64:ff9b:1::/48")
	this4   = netip.MustParsePrefix("0.0.0.0/8")
	bcast   = netip.MustParseAddr("255.255.255.255")
	docsV4  = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("203.0.113.0/24")}
	metaV4  = netip.MustParseAddr("169.254.169.254")
	sixTo4  = netip.MustParsePrefix("2002::/16")
	teredo  = netip.MustParsePrefix("2001::/32")
	siteLoc = netip.MustParsePrefix("fec0::/10")
)

// classify names the kind of a refused address, for messages.
func classify(a netip.Addr) string {
	if a.Is4In6() {
		return "IPv4-mapped " + classify(a.Unmap())
	}
	switch {
	case a == metaV4:
		return "link-local (cloud metadata)"
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified(), this4.Contains(a):
		return "unspecified"
	case a.IsPrivate():
		if a.Is6() {
			return "private (unique local)"
		}
		return "private"
	case a.IsLinkLocalUnicast(), siteLoc.Contains(a):
		return "link-local"
	case cgnat.Contains(a):
		return "private (shared CGNAT)"
	case a == bcast:
		return "broadcast"
	case a.IsMulticast():
		return "multicast"
	case nat64.Contains(a), nat64l.Contains(a):
		return "NAT64"
	case sixTo4.Contains(a), teredo.Contains(a):
		return "tunnelled"
	}
	for _, p := range docsV4 {
		if p.Contains(a) {
			return "documentation"
		}
	}
	return "reserved"
}
