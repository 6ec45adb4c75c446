package safehttp

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"code.dny.dev/ssrf"
	"golang.org/x/net/idna"
)

// refusedTargets are spellings of loopback, metadata and other non-public hosts that a browser,
// a resolver or Go's HTTP client reads as such (issue 11, defect 5). Each must be refused by
// CheckTarget without allowPrivate.
var refusedTargets = []string{
	"https://127.0.0.1/",
	"https://2130706433/",
	"https://0x7f.1/",
	"https://0x7F000001/",
	"https://127.1/",
	"https://127.0.1/",
	"https://127.0.0.1./",
	"https://0177.0.0.1/",
	"https://0177.1/",
	"https://017700000001/",
	"https://[::1]/",
	"https://[::127.0.0.1]/",
	"https://[::ffff:127.0.0.1]/",
	"https://[::ffff:7f00:1]/",
	"https://[64:ff9b::7f00:1]/",
	"https://[64:ff9b::a9fe:a9fe]/",
	"https://[fe80::1%25eth0]/",
	"https://１２７.０.０.１/",
	"https://１２７。０。０。１/",
	"https://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/",
	"https://２１３０７０６４３３/",
	"https://169.254.169.254/latest/meta-data/",
	"https://2852039166/",
	"https://0xa9fea9fe/",
	"https://0251.0376.0251.0376/",
	"https://169.254.43518/",
	"https://0/",
	"https://0.0.0.0/",
	"https://10.0.0.1/",
	"https://012.1/",
	"https://192.168.1.1:8443/x",
	"https://172.16.0.1/",
	"https://100.64.0.1/",
	"https://224.0.0.1/",
	"https://255.255.255.255/",
	"https://localhost/",
	"https://LOCALHOST./",
	"https://localhost:8443/hook",
	"https://api.localhost/",
	"https://ｌｏｃａｌｈｏｓｔ/",
	"https://printer.local/",
	"https://nas.home.arpa/",
	"https://db.internal/",
	"https://intranet/",
	"https://intranet./",
	"https://INTRANET/hook",
	"https://metadata/computeMetadata/v1/",
	"http://127.0.0.1:8080/",
	// Not valid hosts at all: a browser refuses them, so must we.
	"https://1.2.3.4.5/",
	"https://example.0x/",
	"https://08.0.0.1/",
	"https://256.0.0.1/",
	"https://example..com/",
	"https://.example.com/",
	"https://exa_mple.com%EF%BC%8F/",
	"https://xn--/",
	"https://xn--a.com/",
	"ftp://example.com/",
}

// acceptedTargets are ordinary public URLs.
var acceptedTargets = []string{
	"https://example.com/hooks",
	"https://hooks.example.co.uk:8443/x",
	"https://EXAMPLE.com./hook?token=x",
	"https://api.example.com/v1/hooks/svc",
	"https://my_host.example.com/",
	"https://bücher.example/",
	"https://xn--bcher-kva.example/",
	"https://r3---sn-apo3qvuoxuxbt-j5pe.example.com/",
	"https://93.184.215.14/hook",
	"https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook",
	"http://example.com/crawl",
	"https://1.1.1.1:8443/",
	"https://example.com:443/",
}

func TestCheckTarget(t *testing.T) {
	for _, raw := range refusedTargets {
		t.Run("refused "+raw, func(t *testing.T) {
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatalf("url.Parse(%q): %v", raw, err)
			}
			err = CheckTarget(u, false)
			if err == nil {
				t.Fatalf("CheckTarget(%s) accepted it", raw)
			}
			if !errors.Is(err, ErrBlocked) && !errors.Is(err, ErrHost) && !errors.Is(err, ErrScheme) {
				t.Errorf("CheckTarget(%s) = %v, want ErrBlocked, ErrHost or ErrScheme", raw, err)
			}
		})
	}
	for _, raw := range acceptedTargets {
		t.Run("accepted "+raw, func(t *testing.T) {
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatalf("url.Parse(%q): %v", raw, err)
			}
			if err := CheckTarget(u, false); err != nil {
				t.Errorf("CheckTarget(%s) = %v, want nil", raw, err)
			}
		})
	}
}

func TestCheckTargetAllowPrivate(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want error
	}{
		{"http://127.0.0.1:8080/hook", nil},
		{"http://localhost:8080/hook", nil},
		{"http://2130706433:8080/hook", nil},
		{"http://[::ffff:127.0.0.1]:8080/", nil},
		{"https://10.1.2.3/", nil},
		{"http://receiver:9000/", nil}, // a container's name, in local tests
		{"https://example.com/hook", nil},
		{"https://169.254.169.254/", ErrBlocked}, // link-local stays refused
		{"https://2852039166/", ErrBlocked},
		{"https://[64:ff9b::7f00:1]/", ErrBlocked},
		{"https://0.0.0.0/", ErrBlocked},
		{"https://1.2.3.4.5/", ErrHost},
		{"gopher://127.0.0.1/", ErrScheme},
	} {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", tt.url, err)
		}
		if err := CheckTarget(u, true); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("CheckTarget(%s, allowPrivate) = %v, want %v", tt.url, err, tt.want)
		}
	}
}

func TestParseHost(t *testing.T) {
	v4 := func(s string) Host { return Host{Addr: netip.MustParseAddr(s)} }
	for _, tt := range []struct {
		in   string
		want Host
		err  bool
	}{
		{in: "Example.COM", want: Host{Name: "example.com"}},
		{in: "example.com.", want: Host{Name: "example.com"}},
		{in: "ＥＸＡＭＰＬＥ。ｃｏｍ", want: Host{Name: "example.com"}},
		{in: "bücher.example", want: Host{Name: "xn--bcher-kva.example"}},
		{in: "127.0.0.1", want: v4("127.0.0.1")},
		{in: "127.0.0.1.", want: v4("127.0.0.1")},
		{in: "2130706433", want: v4("127.0.0.1")},
		{in: "0x7f.1", want: v4("127.0.0.1")},
		{in: "0X7F.0.0.1", want: v4("127.0.0.1")},
		{in: "0177.0.0.1", want: v4("127.0.0.1")},
		{in: "127.1", want: v4("127.0.0.1")},
		{in: "１２７.０.０.１", want: v4("127.0.0.1")},
		{in: "2852039166", want: v4("169.254.169.254")},
		{in: "0x", want: v4("0.0.0.0")},
		{in: "1.0x", want: v4("1.0.0.0")},
		{in: "::127.0.0.1", want: Host{Addr: netip.MustParseAddr("::127.0.0.1")}},
		{in: "fe80::1%eth0", want: Host{Addr: netip.MustParseAddr("fe80::1")}},
		{in: "", err: true},
		{in: ".", err: true},
		{in: "1.2.3.4.5", err: true},
		{in: "example.123", err: true},
		{in: "08", err: true},
		{in: "4294967296", err: true},
		{in: "256.1.1.1", err: true},
		{in: "a..b", err: true},
		{in: "a b.com", err: true},
		{in: "a/b.com", err: true},
		{in: "x:y", err: true},
		{in: "0\xf9", err: true},
		{in: strings.Repeat("a", 64) + ".com", err: true},
		{in: strings.Repeat("a.", 127) + "com", err: true},
	} {
		got, err := ParseHost(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseHost(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrHost) {
			t.Errorf("ParseHost(%q) error %v does not match ErrHost", tt.in, err)
		}
	}
}

// FuzzCheckTarget checks the URL validator on any input: it never panics; whatever it accepts
// (without allowPrivate) denotes no special-range address however its host is read (by ParseHost,
// by netip, by the legacy inet_aton forms, after Go's HTTP client's own IDNA mapping), is not
// localhost or a single label, and passes the delivery-time URL check too; and ParseHost's result
// reads back as itself.
func FuzzCheckTarget(f *testing.F) {
	for _, s := range refusedTargets {
		f.Add(s)
	}
	for _, s := range acceptedTargets {
		f.Add(s)
	}
	f.Add("https://[::ffff:169.254.169.254]:80/")
	f.Add("https://0x.0x.0x.0x/")
	f.Add("https://x\u200d.example/")
	guardian := ssrf.New(ssrf.WithAnyPort())
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		host := u.Hostname()
		if h, err := ParseHost(host); err == nil {
			again, err := ParseHost(h.String())
			if err != nil || again != h {
				t.Fatalf("ParseHost(%q) = %+v, but ParseHost(%q) = %+v, %v", host, h, h.String(), again, err)
			}
		}
		if CheckTarget(u, false) != nil {
			return
		}
		h, err := ParseHost(host)
		if err != nil {
			t.Fatalf("CheckTarget accepted %q, whose host %q does not parse: %v", raw, host, err)
		}
		readings := []netip.Addr{h.Addr}
		if a, ok := literalAddr(host); ok {
			readings = append(readings, a)
		}
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			if a, ok := literalAddr(ascii); ok {
				readings = append(readings, a)
			}
		}
		for _, a := range readings {
			if a.IsValid() && guardian.SafeAddr(a.WithZone("")) != nil {
				t.Fatalf("CheckTarget accepted %q, whose host reads as %s, a special address", raw, a)
			}
		}
		if !h.Addr.IsValid() && (!strings.Contains(h.Name, ".") || isLocalhost(h.Name)) {
			t.Fatalf("CheckTarget accepted %q, a local or single-label name %q", raw, h.Name)
		}
		if err := CheckURL(u, false); err != nil {
			t.Fatalf("CheckTarget accepted %q, which the delivery-time check refuses: %v", raw, err)
		}
	})
}

func TestExplain(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"https://2130706433/", "its host is 127.0.0.1 (loopback address)"},
		{"https://2852039166/", "its host is 169.254.169.254 (link-local (cloud metadata) address)"},
		{"https://[::ffff:127.0.0.1]/", "its host is ::ffff:127.0.0.1 (IPv4-mapped loopback address)"},
		{"https://intranet/", "its host is a single-label name"},
		{"https://localhost/", "its host is a loopback name"},
		{"https://db.internal/", "its host is a private-use name"},
		{"https://1.2.3.4.5/", "its host is not a valid host name or address"},
		{"ftp://example.com/", "only http and https URLs are allowed"},
		{"https://example.com:65536/", "its port is not a number up to 65535"},
	} {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := Explain(CheckTarget(u, false)); got != tt.want {
			t.Errorf("Explain(CheckTarget(%s)) = %q, want %q", tt.url, got, tt.want)
		}
	}
	if got := Explain(nil); got != "" {
		t.Errorf("Explain(nil) = %q, want empty", got)
	}
}
