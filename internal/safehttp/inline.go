package safehttp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/svcagent/svc/internal/netconn"
)

// inline makes plain-http HTTP/1.1 requests on the caller's goroutine (Options.Inline). The
// standard Transport hands every request to a connection's writer goroutine and its answer back
// from the connection's reader goroutine, and each hand-off may wake a thread (a futex call and
// a scheduler's spin), which is costly on a small virtual machine: one request at a time to a
// loopback server, 67–75 µs through the Transport against 49–54 µs inline (BenchmarkRoundTrip,
// 2 cores), and the gap is wider when the processes go idle between requests, as a relay's do.
// Here the caller writes the request and reads the answer itself; between requests
// a connection waits in a pool, and is checked for a close by the server (a peek that does not
// block) before it is used again, as the Transport's reader would have noticed it.
//
// It is for a plain-http upstream on a near network (a model server on this machine or the
// local network); https keeps the standard Transport (HTTP/2, TLS). Connections come from the
// same guarded dialer, so every address is checked as before.
type inline struct {
	dial           func(ctx context.Context, network, address string) (net.Conn, error)
	headerTimeout  time.Duration
	maxIdlePerHost int

	mu   sync.Mutex
	idle map[string][]*inlineConn // by host:port, the most recently used last
}

// inlineIdleTimeout is how long an idle connection is kept: the standard Transport's
// IdleConnTimeout.
const inlineIdleTimeout = 90 * time.Second

type inlineConn struct {
	conn   net.Conn
	br     *bufio.Reader
	bw     *bufio.Writer
	idleAt time.Time
}

func newInline(dial func(ctx context.Context, network, address string) (net.Conn, error), headerTimeout time.Duration, maxIdlePerHost int) *inline {
	return &inline{dial: dial, headerTimeout: headerTimeout, maxIdlePerHost: maxIdlePerHost, idle: map[string][]*inlineConn{}}
}

// hostPort is the address a request goes to.
func hostPort(req *http.Request) string {
	if req.URL.Port() == "" {
		return net.JoinHostPort(req.URL.Hostname(), "80")
	}
	return req.URL.Host
}

// RoundTrip sends req on an idle connection to its host, or a new one, and reads the answer's
// headers. The body is read from the connection as the caller reads it; the connection goes
// back to the pool when the body was read to its end and closed.
//
// A server may close an idle connection just as a request goes out on it (a model server's
// keep-alive timeout): when a reused connection fails before any byte of an answer came back,
// the request is sent once more on a new connection, as the standard Transport does, if its
// body can be made again (GetBody).
func (t *inline) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	addr := hostPort(req)
	for attempt := 1; ; attempt++ {
		pc, reused, err := t.get(ctx, addr)
		if err != nil {
			closeBody(req)
			return nil, err
		}
		// A cancelled request (the caller's context) ends the connection's pending read or write.
		stop := context.AfterFunc(ctx, func() { _ = pc.conn.SetDeadline(time.Unix(1, 0)) })
		resp, answered, err := t.exchange(req, pc)
		if err == nil {
			resp.Body = &inlineBody{t: t, pc: pc, addr: addr, body: resp.Body, stop: stop, ctx: ctx,
				keep: !resp.Close && !req.Close}
			return resp, nil
		}
		stop()
		_ = pc.conn.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if reused && !answered && attempt == 1 {
			if again, ok := rewound(req); ok {
				req = again
				continue
			}
		}
		return nil, err
	}
}

// rewound returns req with a fresh copy of its body, or false when the body cannot be made again.
func rewound(req *http.Request) (*http.Request, bool) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, true
	}
	if req.GetBody == nil {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	again := *req
	again.Body = body
	return &again, true
}

// exchange writes req and reads the answer's headers (after any informational answers);
// answered tells whether any byte of an answer came back.
func (t *inline) exchange(req *http.Request, pc *inlineConn) (resp *http.Response, answered bool, err error) {
	if err := req.Write(pc.bw); err != nil {
		return nil, false, err
	}
	if err := pc.bw.Flush(); err != nil {
		return nil, false, err
	}
	if t.headerTimeout > 0 {
		_ = pc.conn.SetReadDeadline(time.Now().Add(t.headerTimeout))
	}
	lr := &io.LimitedReader{R: pc.conn, N: maxHeaderBytes}
	pc.br.Reset(lr)
	for {
		resp, err := http.ReadResponse(pc.br, req)
		if err != nil {
			if lr.N <= 0 {
				return nil, true, fmt.Errorf("the answer's headers pass %d bytes", maxHeaderBytes)
			}
			return nil, lr.N < maxHeaderBytes, err
		}
		if resp.StatusCode >= 100 && resp.StatusCode < 200 {
			if resp.StatusCode == http.StatusSwitchingProtocols {
				return nil, true, errors.New("the server switched protocols")
			}
			continue
		}
		// The body is read without the header's bound; whatever the reader holds stays.
		lr.N = 1<<63 - 1
		if t.headerTimeout > 0 {
			_ = pc.conn.SetReadDeadline(time.Time{})
			if req.Context().Err() != nil { // cancelled meanwhile: its deadline must stand
				_ = pc.conn.SetDeadline(time.Unix(1, 0))
			}
		}
		return resp, true, nil
	}
}

// get returns an idle connection to addr that the server has not closed (reused), or dials one.
func (t *inline) get(ctx context.Context, addr string) (pc *inlineConn, reused bool, err error) {
	for {
		pc := t.take(addr)
		if pc == nil {
			break
		}
		if time.Since(pc.idleAt) < inlineIdleTimeout && netconn.Alive(pc.conn) == nil {
			return pc, true, nil
		}
		_ = pc.conn.Close()
	}
	conn, err := t.dial(ctx, "tcp", addr)
	if err != nil {
		return nil, false, err
	}
	return &inlineConn{conn: conn, br: bufio.NewReaderSize(conn, 4096), bw: bufio.NewWriterSize(conn, 4096)}, false, nil
}

func (t *inline) take(addr string) *inlineConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := t.idle[addr]
	if len(list) == 0 {
		return nil
	}
	pc := list[len(list)-1]
	list[len(list)-1] = nil
	t.idle[addr] = list[:len(list)-1]
	return pc
}

// put keeps pc for the next request to addr, or closes it when the pool is full.
func (t *inline) put(addr string, pc *inlineConn) {
	pc.idleAt = time.Now()
	t.mu.Lock()
	if len(t.idle[addr]) < t.maxIdlePerHost {
		t.idle[addr] = append(t.idle[addr], pc)
		pc = nil
	}
	t.mu.Unlock()
	if pc != nil {
		_ = pc.conn.Close()
	}
}

// CloseIdleConnections closes the pooled connections.
func (t *inline) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle = map[string][]*inlineConn{}
	t.mu.Unlock()
	for _, list := range idle {
		for _, pc := range list {
			_ = pc.conn.Close()
		}
	}
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// inlineBody is an answer's body: its connection goes back to the pool once the body was read
// to its end and closed, and is closed otherwise.
type inlineBody struct {
	t    *inline
	pc   *inlineConn
	addr string
	body io.ReadCloser
	stop func() bool
	ctx  context.Context
	keep bool // the connection may serve another request

	mu     sync.Mutex
	eof    bool
	failed bool
	closed bool
}

func (b *inlineBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errors.New("http: read on closed response body")
	}
	n, err := b.body.Read(p)
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil:
		b.failed = true
		if cerr := b.ctx.Err(); cerr != nil {
			err = cerr
		}
	}
	return n, err
}

func (b *inlineBody) Close() error {
	if !b.mu.TryLock() {
		// A read is under way on another goroutine: closing the connection ends it (the
		// Transport's bodies behave so too); the read then finds the body closed.
		err := b.pc.conn.Close()
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.closed {
			b.closed = true
			b.stop()
		}
		return err
	}
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if b.stop() && b.keep && b.eof && !b.failed {
		b.t.put(b.addr, b.pc)
		return nil
	}
	return b.pc.conn.Close()
}
