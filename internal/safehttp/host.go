package safehttp

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// CheckURL reports whether u may be requested by a client made with the given AllowPrivate
// setting, without dialling: the scheme must be http or https, and a host that is an address
// literal (in any form a resolver might accept, such as 2130706433, 0x7f000001 or 127.1) must
// not be in a refused range. A host name passes; its addresses are checked at dial time.
func CheckURL(u *url.URL, allowPrivate bool) error {
	return newPolicy(allowPrivate, nil).checkURL(u)
}

// checkScheme refuses a missing URL and any scheme but http and https.
func checkScheme(u *url.URL) error {
	if u == nil {
		return fmt.Errorf("%w: no URL", ErrScheme)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return nil
	}
	return fmt.Errorf("%w: %q", ErrScheme, u.Scheme)
}

// checkURL is the fast, pre-dial check of a request's URL.
func (p policy) checkURL(u *url.URL) error {
	if err := checkScheme(u); err != nil {
		return err
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("%w: the URL has no host", ErrBlocked)
	}
	port := uint16(80)
	if strings.EqualFold(u.Scheme, "https") {
		port = 443
	}
	if ps := u.Port(); ps != "" {
		n, err := strconv.ParseUint(ps, 10, 16)
		if err != nil {
			return &BlockedError{Host: u.Host, Class: "invalid port", err: err}
		}
		port = uint16(n)
	}
	if addr, ok := literalAddr(host); ok {
		return p.check(netip.AddrPortFrom(addr, port), host)
	}
	if isLocalhost(host) && !p.allowPrivate {
		return &BlockedError{Host: host, Class: "loopback", err: fmt.Errorf("%s is a loopback name", host)}
	}
	return nil
}

// isLocalhost reports whether host is localhost or a name under it (RFC 6761), which resolvers
// answer with loopback addresses.
func isLocalhost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// literalAddr returns the address a host string denotes when it is an address literal: a
// standard IPv4 or IPv6 address (zone dropped), or a legacy IPv4 form that inet_aton and the
// WHATWG URL standard accept.
func literalAddr(host string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.WithZone(""), true
	}
	return parseLegacyIPv4(host)
}

// parseLegacyIPv4 parses the inet_aton forms of an IPv4 address: one to four parts separated by
// dots, each decimal, octal (leading 0) or hexadecimal (leading 0x), the last part filling the
// remaining bytes: 2130706433, 0x7f000001, 0177.0.0.1, 127.1 and 127.0.0.1. (a trailing dot).
func parseLegacyIPv4(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return netip.Addr{}, false
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, s := range parts {
		n, ok := parseLegacyPart(s)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 0xff {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseLegacyPart(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
		if s == "" {
			return 0, true
		}
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > 0xffffffff {
		return 0, false
	}
	return n, true
}
