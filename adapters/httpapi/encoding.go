package httpapi

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/svcagent/svc/domain"
)

// A request body may come compressed (Content-Encoding: gzip or deflate, as OpenAI's and
// Stripe's clients may send, and `curl --data-binary @body.json.gz -H 'Content-Encoding: gzip'`).
// It is read decompressed, and the decompressed bytes are held to the same cap as a plain body:
// a small body that inflates past it (a zip bomb) is refused as a body over the cap, having
// inflated no more than the cap. Any other coding is refused by name.

const headerContentEncoding = "Content-Encoding"

// decodedBody returns the body to read for a request of the given Content-Encoding values,
// already capped at limit bytes as sent (raw): raw itself when there is no coding (or identity),
// a decompressing reader capped at limit decompressed bytes for gzip and deflate, and an error
// naming the header otherwise.
func decodedBody(w http.ResponseWriter, raw io.ReadCloser, values []string, limit int64) (io.ReadCloser, error) {
	coding := ""
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.ToLower(strings.TrimSpace(part))
			if part == "" || part == "identity" {
				continue
			}
			if coding != "" {
				return nil, domain.Invalid(headerContentEncoding,
					"one Content-Encoding at most is supported (gzip or deflate); send the body compressed once")
			}
			coding = part
		}
	}
	var open func(io.Reader) (io.ReadCloser, error)
	switch coding {
	case "":
		return raw, nil
	case "gzip", "x-gzip":
		open = func(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) }
	case "deflate":
		open = openDeflate
	default:
		return nil, domain.Invalid(headerContentEncoding,
			"Content-Encoding %s is not supported: send the body uncompressed, or with gzip or deflate", domain.Quote(coding))
	}
	return &inflating{w: w, raw: raw, open: open, coding: coding, limit: limit}, nil
}

// openDeflate reads HTTP's deflate: the zlib format (RFC 9110), or, as some clients send it, raw
// deflate data; the first two bytes tell them apart.
func openDeflate(r io.Reader) (io.ReadCloser, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(2)
	if err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	if head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// inflating decompresses a body on its first read (so that a bad stream is the decoding's 400,
// not the middleware's), capped at limit decompressed bytes.
type inflating struct {
	w      http.ResponseWriter
	raw    io.ReadCloser
	open   func(io.Reader) (io.ReadCloser, error)
	coding string
	limit  int64
	r      io.Reader
	dec    io.Closer
	err    error
}

func (z *inflating) Read(b []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.r == nil {
		dec, err := z.open(z.raw)
		if err != nil {
			z.err = z.fault(err)
			return 0, z.err
		}
		z.dec = dec
		z.r = http.MaxBytesReader(z.w, dec, z.limit)
	}
	n, err := z.r.Read(b)
	if err != nil && err != io.EOF {
		z.err = z.fault(err)
		return n, z.err
	}
	return n, err
}

// fault keeps a cap's error as it is (a body over the cap, raw or decompressed) and names the
// header for a stream that does not decompress.
func (z *inflating) fault(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return err
	}
	return domain.Invalid(headerContentEncoding, "the request body is not valid %s data (Content-Encoding: %s)", z.coding, z.coding)
}

func (z *inflating) Close() error {
	if z.dec != nil {
		z.dec.Close()
	}
	return z.raw.Close()
}
