// Package ident makes identifiers and secrets from the operating system's random source.
package ident

import (
	"crypto/rand"
	"strings"
	"time"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// New returns prefix, an underscore and 24 random base62 characters (about 142 bits): "acct_…".
func New(prefix string) string {
	var b randomBuf
	return prefix + "_" + string(b.random(24))
}

// Secret returns prefix followed by 43 random base62 characters (about 256 bits), for credentials
// such as "svc_live_…" keys. Only its hash is ever stored.
func Secret(prefix string) string {
	var b randomBuf
	var s strings.Builder // prefix + string(…) would allocate twice: the runtime may return either part alone
	s.Grow(len(prefix) + 43)
	s.WriteString(prefix)
	s.Write(b.random(43))
	return s.String()
}

// randomBuf holds random's characters and the random bytes they are drawn from, on the caller's
// stack: an identifier is then one allocation, the string itself (its parts are joined in one).
type randomBuf struct {
	out [maxRandom]byte
	src [maxRandom + maxRandom/4 + 8]byte
}

// maxRandom is the most characters random draws at once (Secret's 43).
const maxRandom = 43

// random returns n (at most maxRandom) base62 characters drawn uniformly (rejection sampling keeps
// it unbiased), in b.
func (b *randomBuf) random(n int) []byte {
	out := b.out[:0:n]
	buf := b.src[:n+n/4+8]
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("ident: the random source failed: " + err.Error()) // crypto/rand.Read never fails on supported systems
		}
		for _, c := range buf {
			if c >= 248 { // 248 = 4 × 62: keep the modulo unbiased
				continue
			}
			out = append(out, alphabet[c%62])
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// orderedTimeChars is the number of leading characters of Ordered that hold the time.
const orderedTimeChars = 8

// Ordered returns an identifier of the same form as New (prefix, an underscore and 24 base62
// characters) whose first 8 characters are the time at (from the caller's clock) in milliseconds
// (base62, so that identifiers made later sort after earlier ones, byte for byte) and the other 16
// random (about 95 bits). It is for rows written many times a second (a reply's messages, job, charge and
// event): a b-tree keyed by random identifiers gets each new row in a different page, so every
// row written changes a page of its own, while ordered ones land together at the index's end.
func Ordered(prefix string, at time.Time) string {
	ms := uint64(max(at.UnixMilli(), 0))
	var head [orderedTimeChars]byte
	for i := orderedTimeChars - 1; i >= 0; i-- {
		head[i] = alphabet[ms%62]
		ms /= 62
	}
	var b randomBuf
	return prefix + "_" + string(head[:]) + string(b.random(24-orderedTimeChars))
}
