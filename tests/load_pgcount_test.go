package tests

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/url"
	"sync/atomic"
	"testing"
)

// binDirEnv names, in a stack's environment, a directory whose programs start() runs instead of
// this build's (the load harness's BENCH_BASE_BIN); it is not passed to the program.
const binDirEnv = "SVC_TEST_BIN_DIR"

// pgCounter is a loopback proxy in front of Postgres that counts what its clients send: the
// statements (simple Query messages and Execute messages of the extended protocol) and the round
// trips (a simple Query, or a Sync that ends an extended-protocol exchange).
type pgCounter struct {
	dsn          string // the database's DSN with the proxy's address
	stmts, trips atomic.Int64
}

// pgCounts is what a pgCounter counted.
type pgCounts struct{ stmts, trips int64 }

func (c pgCounts) since(before pgCounts) pgCounts {
	return pgCounts{stmts: c.stmts - before.stmts, trips: c.trips - before.trips}
}

// newPGCounter starts a counting proxy to the server of dsn, until the end of the test.
func newPGCounter(t testing.TB, dsn string) *pgCounter {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("pgCounter: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("pgCounter: %v", err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	server := u.Host
	proxied := *u
	proxied.Host = ln.Addr().String()
	c := &pgCounter{dsn: proxied.String()}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go c.serve(conn, server)
		}
	}()
	return c
}

func (c *pgCounter) snapshot() pgCounts {
	if c == nil {
		return pgCounts{}
	}
	return pgCounts{stmts: c.stmts.Load(), trips: c.trips.Load()}
}

// serve relays one client connection to the server: the server's bytes as they come, the
// client's message by message, counting them.
func (c *pgCounter) serve(client net.Conn, server string) {
	defer client.Close()
	up, err := net.Dial("tcp", server)
	if err != nil {
		return
	}
	defer up.Close()
	go func() {
		_, _ = io.Copy(client, up)
		_ = client.Close()
	}()
	r := bufio.NewReaderSize(client, 64<<10)
	w := bufio.NewWriterSize(up, 64<<10)
	// The startup message (and an SSL or GSS request before it) has no type byte.
	for started := false; !started; {
		var head [8]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		size := binary.BigEndian.Uint32(head[:4])
		code := binary.BigEndian.Uint32(head[4:])
		started = code != 80877103 && code != 80877104 // SSLRequest, GSSENCRequest
		if _, err := w.Write(head[:]); err != nil {
			return
		}
		if _, err := io.CopyN(w, r, int64(size)-8); err != nil {
			return
		}
		if w.Flush() != nil {
			return
		}
	}
	for {
		var head [5]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		switch head[0] {
		case 'Q':
			c.stmts.Add(1)
			c.trips.Add(1)
		case 'E':
			c.stmts.Add(1)
		case 'S':
			c.trips.Add(1)
		}
		if _, err := w.Write(head[:]); err != nil {
			return
		}
		if _, err := io.CopyN(w, r, int64(binary.BigEndian.Uint32(head[1:]))-4); err != nil {
			return
		}
		if r.Buffered() == 0 && w.Flush() != nil { // a client's batch goes on together
			return
		}
	}
}
