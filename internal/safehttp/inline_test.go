package safehttp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// inlineServer is a loopback server that counts the connections it accepted.
func inlineServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

func inlineClient() *http.Client {
	return New(Options{AllowPrivate: true, Inline: true, MaxIdleConnsPerHost: 4})
}

func post(t *testing.T, c *http.Client, url, body string) (int, string) {
	t.Helper()
	resp, err := c.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return resp.StatusCode, string(b)
}

func TestInlineReusesAndReplacesConnections(t *testing.T) {
	srv, conns := inlineServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.URL.Query().Get("close") != "" {
			w.Header().Set("Connection", "close")
		}
		if r.URL.Query().Get("chunked") != "" {
			w.(http.Flusher).Flush() // no Content-Length: the body is chunked
		}
		_, _ = w.Write([]byte("echo:" + string(b)))
	})
	c := inlineClient()
	for i, q := range []string{"", "?chunked=1", ""} {
		if code, body := post(t, c, srv.URL+"/"+q, "hi"); code != 200 || body != "echo:hi" {
			t.Fatalf("request %d: %d %q", i, code, body)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for three requests in a row, want 1", n)
	}

	// The server closes the idle connection: the next request notices before writing and dials.
	srv.CloseClientConnections()
	time.Sleep(50 * time.Millisecond) // the FIN arrives
	if code, body := post(t, c, srv.URL, "again"); code != 200 || body != "echo:again" {
		t.Fatalf("after the server closed the connection: %d %q", code, body)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections, want 2", n)
	}

	// An answer that closes its connection (Connection: close) is read to its end; the next
	// request dials.
	if code, body := post(t, c, srv.URL+"/?close=1", "bye"); code != 200 || body != "echo:bye" {
		t.Fatalf("an answer with Connection: close: %d %q", code, body)
	}
	if code, body := post(t, c, srv.URL, "next"); code != 200 || body != "echo:next" || conns.Load() != 3 {
		t.Fatalf("after Connection: close: %d %q, %d connections, want 3", code, body, conns.Load())
	}

	// A body closed before its end leaves the connection unusable: it is closed, not pooled.
	resp, err := c.Post(srv.URL, "text/plain", strings.NewReader(strings.Repeat("x", 10000)))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if code, _ := post(t, c, srv.URL, "x"); code != 200 || conns.Load() != 4 {
		t.Fatalf("after a body left unread: %d, %d connections, want 4", code, conns.Load())
	}
}

func TestInlineCancelsAndTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv, _ := inlineServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			_, _ = w.Write([]byte("first"))
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	c := inlineClient()

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("x"))
	if _, err := c.Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting for headers, cancelled: %v", err)
	}

	// Cancelled while reading the body of a stream.
	ctx, cancel = context.WithCancel(context.Background())
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/stream", strings.NewReader("x"))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "first" {
		t.Fatalf("first piece: %q %v", buf, err)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := resp.Body.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("reading the body, cancelled: %v", err)
	}
	_ = resp.Body.Close()

	// Closed on another goroutine while a read waits: the read ends.
	resp, err = c.Post(srv.URL+"/stream", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(50*time.Millisecond, func() { _ = resp.Body.Close() })
	done := make(chan error, 1)
	go func() { _, err := resp.Body.Read(buf); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a read on a body closed meanwhile succeeded")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("closing the body did not end the read")
	}

	// The wait for headers is bounded.
	slow := New(Options{AllowPrivate: true, Inline: true, ResponseHeaderTimeout: 50 * time.Millisecond})
	start := time.Now()
	if _, err := slow.Post(srv.URL, "text/plain", strings.NewReader("x")); err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("headers that never come: %v after %v", err, time.Since(start))
	}
}

func TestInlineStillGuards(t *testing.T) {
	c := New(Options{Inline: true})
	_, err := c.Post("http://127.0.0.1:1/", "text/plain", strings.NewReader("x"))
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("loopback without AllowPrivate: %v", err)
	}
	// A name that resolves to the metadata address is refused at the dial, as without Inline.
	c = New(Options{Inline: true, Resolve: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
	}})
	_, err = c.Post("http://metadata.example/", "text/plain", strings.NewReader("x"))
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("a name resolving to the metadata address: %v", err)
	}
}

// BenchmarkRoundTrip compares one request at a time to a loopback server through the standard
// Transport and through the inline path (Options.Inline): the difference is the Transport's
// hand-offs to its connection goroutines.
func BenchmarkRoundTrip(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte(strings.Repeat("y", 400)))
	}))
	defer srv.Close()
	body := strings.Repeat("x", 300)
	for _, inline := range []bool{false, true} {
		name := map[bool]string{false: "transport", true: "inline"}[inline]
		b.Run(name, func(b *testing.B) {
			c := New(Options{AllowPrivate: true, Inline: inline})
			for b.Loop() {
				resp, err := c.Post(srv.URL, "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		})
	}
}

// TestInlineRetriesAClosedIdleConnection: a server that closes a kept connection as the next
// request arrives on it (a keep-alive timeout racing the request) answers nothing; the request is
// sent again on a new connection when its body can be made again, and fails otherwise.
func TestInlineRetriesAClosedIdleConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func(c net.Conn) {
				defer c.Close()
				br := bufio.NewReader(c)
				for served := 0; ; served++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					b, _ := io.ReadAll(req.Body)
					if served == 1 { // the second request on a connection: closed unanswered
						return
					}
					_, _ = fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\necho:%s", len(b)+5, b)
				}
			}(c)
		}
	}()
	url := "http://" + ln.Addr().String() + "/"
	c := inlineClient()
	for i, body := range []string{"one", "two"} { // two: its connection closes, a new one answers
		if code, got := post(t, c, url, body); code != 200 || got != "echo:"+body {
			t.Fatalf("request %d: %d %q", i, code, got)
		}
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections, want 2 (the retry's)", n)
	}
	// A body that cannot be made again is not sent twice.
	req, _ := http.NewRequest(http.MethodPost, url, io.NopCloser(strings.NewReader("three")))
	resp, err := c.Do(req)
	if err == nil {
		_ = resp.Body.Close()
		t.Fatal("a request whose body cannot be made again was sent again on a closed connection")
	}
}
