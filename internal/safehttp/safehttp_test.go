package safehttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// canary is a listener that counts the connections it accepts: a refused request must never
// reach it.
type canary struct {
	ln       net.Listener
	accepted atomic.Int64
}

// newCanary listens on addr; where that cannot be done (no IPv6 loopback), the canary stays
// deaf and counts nothing.
func newCanary(t *testing.T, network, addr string) *canary {
	t.Helper()
	c := &canary{}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Logf("cannot listen on %s: %v", addr, err)
		return c
	}
	c.ln = ln
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepted.Add(1)
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return c
}

func (c *canary) port() string {
	_, p, _ := net.SplitHostPort(c.ln.Addr().String())
	return p
}

// resolver maps host names to addresses without any network.
func resolver(m map[string][]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		ss, ok := m[host]
		if !ok {
			return nil, errors.New("no such host")
		}
		out := make([]netip.Addr, len(ss))
		for i, s := range ss {
			out[i] = netip.MustParseAddr(s)
		}
		return out, nil
	}
}

func mustAddrPort(t *testing.T, hostport string) netip.AddrPort {
	t.Helper()
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

// TestRefused is the SSRF table of issue 3: every request is refused with ErrBlocked and no
// connection reaches the canary listening on loopback.
func TestRefused(t *testing.T) {
	c4 := newCanary(t, "tcp4", "127.0.0.1:0")
	port := c4.port()
	c6 := newCanary(t, "tcp6", "[::1]:"+port)

	// A server on loopback that the guard is told to treat as public, and which redirects to
	// private addresses.
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(redirector.Close)
	redirAP := mustAddrPort(t, redirector.Listener.Addr().String())
	allowed := "http://allowed.example:" + strconv.Itoa(int(redirAP.Port()))

	opts := Options{
		MaxRedirects: 5,
		Timeout:      5 * time.Second,
		Resolve: resolver(map[string][]string{
			"allowed.example":  {"127.0.0.1"},
			"public.example":   {"127.0.0.1"},
			"mapped.example":   {"::ffff:127.0.0.1"},
			"nat64.example":    {"64:ff9b::7f00:1"},
			"rebind.example":   {"::1"},
			"metadata.example": {"169.254.169.254"},
		}),
		allowAddrs: []netip.AddrPort{redirAP},
	}
	client := New(opts)

	tests := []struct {
		name string
		url  string
	}{
		{"loopback", "http://127.0.0.1:" + port},
		{"loopback v6", "http://[::1]:" + port},
		{"metadata", "http://169.254.169.254/latest/meta-data/"},
		{"private 10/8", "http://10.0.0.1"},
		{"private 172.16/12", "http://172.16.0.1"},
		{"private 192.168/16", "http://192.168.1.1"},
		{"CGNAT", "http://100.64.0.1"},
		{"ULA", "http://[fc00::1]"},
		{"link-local v6", "http://[fe80::1]"},
		{"link-local v6 with zone", "http://[fe80::1%25lo]"},
		{"IPv4-mapped loopback", "http://[::ffff:127.0.0.1]:" + port},
		{"IPv4-mapped metadata", "http://[::ffff:169.254.169.254]"},
		{"decimal", "http://2130706433:" + port},
		{"hex", "http://0x7f000001:" + port},
		{"octal", "http://0177.0.0.1:" + port},
		{"short", "http://127.1:" + port},
		{"trailing dot", "http://127.0.0.1.:" + port},
		{"this network", "http://0.0.0.0:" + port},
		{"unspecified v6", "http://[::]:" + port},
		{"broadcast", "http://255.255.255.255"},
		{"multicast", "http://224.0.0.1"},
		{"NAT64 literal", "http://[64:ff9b::7f00:1]"},
		{"localhost", "http://localhost:" + port},
		{"name resolving to loopback", "http://public.example:" + port},
		{"name resolving to mapped loopback", "http://mapped.example:" + port},
		{"name resolving to NAT64 loopback", "http://nat64.example:" + port},
		{"name resolving to v6 loopback", "http://rebind.example:" + port},
		{"name resolving to metadata", "http://metadata.example"},
		{"redirect to loopback literal", allowed + "/?to=" + url.QueryEscape("http://127.0.0.1:"+port+"/")},
		{"redirect to name resolving to loopback", allowed + "/?to=" + url.QueryEscape("http://public.example:"+port+"/")},
		{"redirect to decimal loopback", allowed + "/?to=" + url.QueryEscape("http://2130706433:"+port+"/")},
		{"redirect to metadata", allowed + "/?to=" + url.QueryEscape("http://169.254.169.254/")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Do(req)
			if err == nil {
				_ = resp.Body.Close()
				t.Fatalf("GET %s: got %s, want refused", tt.url, resp.Status)
			}
			if !errors.Is(err, ErrBlocked) {
				t.Fatalf("GET %s: %v, want ErrBlocked", tt.url, err)
			}
			var be *BlockedError
			if !errors.As(err, &be) || be.Class == "" {
				t.Fatalf("GET %s: %v carries no BlockedError with a class", tt.url, err)
			}
			var opErr *net.OpError
			if strings.HasPrefix(tt.name, "name resolving") && !errors.As(err, &opErr) {
				t.Fatalf("GET %s: %v was not refused at dial time", tt.url, err)
			}
		})
	}

	// The allowed host really is reachable: the refusals above are the guard's doing.
	resp, err := client.Get(allowed + "/?to=/ok")
	if err != nil {
		t.Fatalf("allowed host: %v", err)
	}
	_ = resp.Body.Close()

	if n := c4.accepted.Load() + c6.accepted.Load(); n != 0 {
		t.Fatalf("canary accepted %d connections, want 0", n)
	}
}

// TestDialTimeCheck bypasses the pre-dial URL check and talks to the transport directly: the
// dial-time check alone refuses whatever the system resolver produces.
func TestDialTimeCheck(t *testing.T) {
	c4 := newCanary(t, "tcp4", "127.0.0.1:0")
	port := c4.port()
	transport := New(Options{}).Transport.(*guard).next
	for _, u := range []string{
		"http://127.0.0.1:" + port,
		"http://localhost:" + port,
		"http://[::ffff:127.0.0.1]:" + port,
	} {
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := transport.RoundTrip(req)
		if err == nil {
			_ = resp.Body.Close()
			t.Fatalf("GET %s: got %s, want refused", u, resp.Status)
		}
		var opErr *net.OpError
		if !errors.Is(err, ErrBlocked) || !errors.As(err, &opErr) {
			t.Fatalf("GET %s: %v, want ErrBlocked from the dialer", u, err)
		}
	}
	if n := c4.accepted.Load(); n != 0 {
		t.Fatalf("canary accepted %d connections, want 0", n)
	}
}

func TestAllowPrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	client := New(Options{
		AllowPrivate: true,
		Timeout:      5 * time.Second,
		Resolve:      resolver(map[string][]string{"site.test": {"127.0.0.1"}}),
	})

	for _, u := range []string{
		srv.URL,
		"http://site.test:" + port,
		"http://[::ffff:127.0.0.1]:" + port,
	} {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		body, err := ReadLimited(resp.Body, 100)
		_ = resp.Body.Close()
		if err != nil || string(body) != "hello" {
			t.Fatalf("GET %s: %q, %v", u, body, err)
		}
	}

	// Link-local (the metadata address) stays refused.
	for _, u := range []string{"http://169.254.169.254/", "http://[fe80::1]/", "http://100.64.0.1/"} {
		if _, err := client.Get(u); !errors.Is(err, ErrBlocked) {
			t.Fatalf("GET %s with AllowPrivate: %v, want ErrBlocked", u, err)
		}
	}
}

func TestScheme(t *testing.T) {
	client := New(Options{AllowPrivate: true})
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/", "gopher://127.0.0.1:70/", "data:text/plain,hi"} {
		if _, err := client.Get(u); !errors.Is(err, ErrScheme) {
			t.Errorf("GET %s: %v, want ErrScheme", u, err)
		}
	}
}

func TestRedirects(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/?n=%d", n-1), http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "done")
	}))
	t.Cleanup(srv.Close)

	tests := []struct {
		name         string
		maxRedirects int
		hops         int
		wantStatus   int
		wantErr      error
	}{
		{"not followed", 0, 1, http.StatusFound, nil},
		{"within the cap", 3, 3, http.StatusOK, nil},
		{"over the cap", 2, 3, 0, ErrTooManyRedirects},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := New(Options{AllowPrivate: true, MaxRedirects: tt.maxRedirects})
			resp, err := client.Get(fmt.Sprintf("%s/?n=%d", srv.URL, tt.hops))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
		})
	}
}

func TestReadLimited(t *testing.T) {
	tests := []struct {
		body    string
		max     int64
		wantErr bool
	}{
		{"", 0, false},
		{"abc", 3, false},
		{"abcd", 3, true},
		{"abc", 10, false},
	}
	for _, tt := range tests {
		b, err := ReadLimited(strings.NewReader(tt.body), tt.max)
		if tt.wantErr {
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("ReadLimited(%q, %d) = %v, want ErrTooLarge", tt.body, tt.max, err)
			}
			continue
		}
		if err != nil || string(b) != tt.body {
			t.Errorf("ReadLimited(%q, %d) = %q, %v", tt.body, tt.max, b, err)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		addr         string
		allowPrivate bool
		wantClass    string // "" when allowed
	}{
		{"8.8.8.8", false, ""},
		{"1.1.1.1", false, ""},
		{"2606:4700:4700::1111", false, ""},
		{"::ffff:8.8.8.8", false, "IPv4-mapped reserved"},
		{"127.0.0.1", false, "loopback"},
		{"127.255.0.9", false, "loopback"},
		{"::1", false, "loopback"},
		{"10.1.2.3", false, "private"},
		{"172.31.255.255", false, "private"},
		{"192.168.0.1", false, "private"},
		{"100.127.0.1", false, "private (shared CGNAT)"},
		{"169.254.169.254", false, "link-local (cloud metadata)"},
		{"169.254.1.1", false, "link-local"},
		{"fe80::1", false, "link-local"},
		{"fd12:3456::1", false, "private (unique local)"},
		{"0.0.0.0", false, "unspecified"},
		{"0.1.2.3", false, "unspecified"},
		{"::", false, "unspecified"},
		{"255.255.255.255", false, "broadcast"},
		{"224.0.0.251", false, "multicast"},
		{"ff02::1", false, "multicast"},
		{"::ffff:127.0.0.1", false, "IPv4-mapped loopback"},
		{"64:ff9b::a00:1", false, "NAT64"},
		{"192.0.2.1", false, "documentation"},
		{"240.0.0.1", false, "reserved"},
		{"2002:7f00:1::", false, "tunnelled"},
		{"127.0.0.1", true, ""},
		{"::1", true, ""},
		{"10.0.0.1", true, ""},
		{"fc00::1", true, ""},
		{"::ffff:192.168.1.1", true, ""},
		{"169.254.169.254", true, "link-local (cloud metadata)"},
		{"100.64.0.1", true, "private (shared CGNAT)"},
	}
	for _, tt := range tests {
		p := newPolicy(tt.allowPrivate, nil)
		err := p.control("tcp", netip.AddrPortFrom(netip.MustParseAddr(tt.addr), 80).String(), nil)
		if tt.wantClass == "" {
			if err != nil {
				t.Errorf("%s (allowPrivate %v): %v, want allowed", tt.addr, tt.allowPrivate, err)
			}
			continue
		}
		var be *BlockedError
		if !errors.As(err, &be) || be.Class != tt.wantClass {
			t.Errorf("%s (allowPrivate %v): %v, want class %q", tt.addr, tt.allowPrivate, err, tt.wantClass)
		}
	}
}

func TestLegacyIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not an address
	}{
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0X7F000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"10.1", "10.0.0.1"},
		{"0x0a.0x0.0x0.0x1", "10.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"4294967296", ""},
		{"256.1.1.1", ""},
		{"1.2.3.4.5", ""},
		{"08.0.0.1", ""},
		{"example.com", ""},
		{"1e1", ""},
		{"", ""},
		{"1..1", ""},
		{"-1", ""},
		{"+1", ""},
	}
	for _, tt := range tests {
		got, ok := parseLegacyIPv4(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("parseLegacyIPv4(%q) = %s, want not an address", tt.in, got)
			}
			continue
		}
		if !ok || got.String() != tt.want {
			t.Errorf("parseLegacyIPv4(%q) = %s, %v, want %s", tt.in, got, ok, tt.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url          string
		allowPrivate bool
		want         error
	}{
		{"https://example.com/", false, nil},
		{"http://8.8.8.8/", false, nil},
		{"http://127.0.0.1/", false, ErrBlocked},
		{"http://127.0.0.1/", true, nil},
		{"http://LOCALHOST./", false, ErrBlocked},
		{"http://api.localhost/", false, ErrBlocked},
		{"http://localhost/", true, nil},
		{"http://169.254.169.254/", true, ErrBlocked},
		{"ftp://example.com/", false, ErrScheme},
		{"javascript:alert(1)", false, ErrScheme},
		{"http:///path", false, ErrBlocked},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckURL(u, tt.allowPrivate); !errors.Is(err, tt.want) {
			t.Errorf("CheckURL(%s, %v) = %v, want %v", tt.url, tt.allowPrivate, err, tt.want)
		}
	}
}

// TestIdleConnsPerHost checks how many connections to one host a client keeps for reuse: after
// 8 requests at once, a second round of 8 dials again for all but the idle ones kept.
func TestIdleConnsPerHost(t *testing.T) {
	const parallel = 8
	// gate holds the requests of a round until all of them have arrived, so that the round
	// really needs parallel connections.
	type gate struct {
		arrived atomic.Int64
		all     chan struct{}
	}
	for _, tt := range []struct {
		perHost   int
		wantDials int // in the second round
	}{
		{0, parallel - DefaultMaxIdleConnsPerHost},
		{parallel, 0},
	} {
		t.Run(fmt.Sprint(tt.perHost), func(t *testing.T) {
			var dials atomic.Int64
			var current atomic.Pointer[gate]
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				g := current.Load()
				if g.arrived.Add(1) == parallel {
					close(g.all)
				}
				<-g.all
				_, _ = io.WriteString(w, "ok")
			}))
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					dials.Add(1)
				}
			}
			srv.Start()
			t.Cleanup(srv.Close)
			client := New(Options{AllowPrivate: true, Timeout: 5 * time.Second, MaxIdleConnsPerHost: tt.perHost})
			round := func() int64 {
				dials.Store(0)
				current.Store(&gate{all: make(chan struct{})})
				errs := make(chan error, parallel)
				for range parallel {
					go func() {
						resp, err := client.Get(srv.URL)
						if err == nil {
							_, err = io.Copy(io.Discard, resp.Body)
							_ = resp.Body.Close()
						}
						errs <- err
					}()
				}
				for range parallel {
					if err := <-errs; err != nil {
						t.Fatalf("GET: %v", err)
					}
				}
				return dials.Load()
			}
			if n := round(); n != parallel {
				t.Fatalf("first round dialled %d connections; want %d", n, parallel)
			}
			if n := round(); n != int64(tt.wantDials) {
				t.Errorf("second round dialled %d connections; want %d", n, tt.wantDials)
			}
		})
	}
}
