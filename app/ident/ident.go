// Package ident makes identifiers and secrets from the operating system's random source.
package ident

import (
	"crypto/rand"
	"time"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// New returns prefix, an underscore and 24 random base62 characters (about 142 bits): "acct_…".
func New(prefix string) string { return prefix + "_" + random(24) }

// Secret returns prefix followed by 43 random base62 characters (about 256 bits), for credentials
// such as "svc_live_…" keys. Only its hash is ever stored.
func Secret(prefix string) string { return prefix + random(43) }

// random returns n base62 characters drawn uniformly (rejection sampling keeps it unbiased).
func random(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("ident: the random source failed: " + err.Error()) // crypto/rand.Read never fails on supported systems
		}
		for _, b := range buf {
			if b >= 248 { // 248 = 4 × 62: keep the modulo unbiased
				continue
			}
			out = append(out, alphabet[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
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
	return prefix + "_" + string(head[:]) + random(24-orderedTimeChars)
}
