package testenv

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy forwards TCP connections from a loopback port of its own to a target, and can cut them:
// Cut closes every connection and refuses new ones, which is what a restart of the target looks
// like to its clients; Stall keeps every connection open and accepts new ones but forwards
// nothing, which is what a network partition or a hung target looks like; Restore accepts (and
// forwards) again. It lets a test take a shared
// service (Postgres) away from the programs under test without touching the service.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu      sync.Mutex
	ln      net.Listener  // nil while cut
	stalled chan struct{} // non-nil while stalled; closed by Restore
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// NewProxy starts a proxy to target (host:port) on a free loopback port. It stops when the test
// ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testenv: proxy listen: %v", err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.Cut()
		p.wg.Wait()
	})
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Cut closes the listener and every open connection (ending a Stall): new connections are refused
// until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		_ = c.Close()
		delete(p.conns, c)
	}
	if p.stalled != nil { // the writers waiting find their connections closed
		close(p.stalled)
		p.stalled = nil
	}
}

// Stall stops forwarding: the bytes already sent and those sent from now on wait, connections stay
// open and new ones are accepted, until Restore.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled == nil {
		p.stalled = make(chan struct{})
	}
}

// Restore forwards again after Stall, and accepts connections again, on the same port, after Cut.
func (p *Proxy) Restore() {
	p.t.Helper()
	p.mu.Lock()
	if p.stalled != nil {
		close(p.stalled)
		p.stalled = nil
	}
	cut := p.ln == nil
	p.mu.Unlock()
	if !cut {
		return
	}
	var (
		ln  net.Listener
		err error
	)
	// The port was ours a moment ago; give the kernel a few tries to hand it back.
	for range 50 {
		if ln, err = net.Listen("tcp", p.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("testenv: proxy listen again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // closed by Cut
			}
			p.wg.Go(func() { p.forward(ln, c) })
		}
	})
}

// forward joins one client connection to a new connection to the target, until either ends or
// the proxy is cut.
func (p *Proxy) forward(ln net.Listener, client net.Conn) {
	upstream, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		_ = client.Close()
		return
	}
	if !p.track(ln, client, upstream) {
		_ = client.Close()
		_ = upstream.Close()
		return
	}
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			_ = client.Close()
			_ = upstream.Close()
			p.mu.Lock()
			delete(p.conns, client)
			delete(p.conns, upstream)
			p.mu.Unlock()
		})
	}
	var wg sync.WaitGroup
	for _, pair := range [][2]net.Conn{{upstream, client}, {client, upstream}} {
		wg.Go(func() {
			defer closeBoth()
			_, _ = io.Copy(stallWriter{p, pair[0]}, pair[1]) // ends when either side closes, or Cut closes both
		})
	}
	wg.Wait()
}

// track registers the two ends of a forwarded connection, unless the listener that accepted it
// was cut meanwhile.
func (p *Proxy) track(ln net.Listener, conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != ln {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// stallWriter writes to w, waiting while its proxy is stalled.
type stallWriter struct {
	p *Proxy
	w io.Writer
}

func (s stallWriter) Write(b []byte) (int, error) {
	s.p.mu.Lock()
	stalled := s.p.stalled
	s.p.mu.Unlock()
	if stalled != nil {
		<-stalled
	}
	return s.w.Write(b)
}
