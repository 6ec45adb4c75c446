//go:build unix

package netconn

import (
	"errors"
	"io"
	"net"
	"syscall"
)

// errUnexpectedData is a connection that has bytes waiting while idle: the server spoke (a
// shutdown notice) and the connection's protocol state is unknown.
var errUnexpectedData = errors.New("idle connection has unread data")

// Alive reads from an idle connection without blocking: nothing to read means it is alive; the
// end of the stream, an error or unexpected bytes mean it is not. A connection that does not give
// access to its socket (TLS is unwrapped first) is taken as alive.
func Alive(c net.Conn) error {
	if u, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = u.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	var readErr error
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		n, err := syscall.Read(int(fd), b[:])
		switch {
		case n > 0:
			readErr = errUnexpectedData
		case n == 0 && err == nil:
			readErr = io.EOF
		case errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK):
			readErr = nil
		default:
			readErr = err
		}
		return true // never wait for the socket to become readable
	})
	if err != nil {
		return err
	}
	return readErr
}
