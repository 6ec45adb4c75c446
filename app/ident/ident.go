// Package ident makes identifiers and secrets from the operating system's random source.
package ident

import (
	"crypto/rand"
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
