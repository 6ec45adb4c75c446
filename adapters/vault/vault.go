// Package vault seals the secrets the service must read back (webhook signing secrets) with
// AES-256-GCM under a key from the configuration, so that the store never holds them in the
// clear.
package vault

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/svcagent/svc/ports"
)

// KeySize is the length of a key, in bytes.
const KeySize = 32

// version1 starts every sealed value made with AES-256-GCM and a 12-byte random nonce. A later
// format (or key) takes another version byte, so that old values still open.
const version1 byte = 1

// Errors of the vault. None of them carries key material or plaintext.
var (
	ErrKey    = errors.New("vault: the key must be 32 bytes, given as base64 or hex")
	ErrSealed = errors.New("vault: sealed value is damaged, or was sealed with another key")
)

// AESGCM seals with AES-256-GCM: a sealed value is the version byte, the random nonce, and the
// ciphertext with its tag; the version byte is authenticated too. It implements ports.Vault and is
// safe for concurrent use.
type AESGCM struct {
	aead cipher.AEAD
}

var _ ports.Vault = (*AESGCM)(nil)

// New returns a vault sealing with key, which must be KeySize bytes.
func New(key []byte) (*AESGCM, error) {
	if len(key) != KeySize {
		return nil, ErrKey
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	return &AESGCM{aead: aead}, nil
}

// Seal encrypts plaintext under a fresh random nonce: sealing the same text twice gives two
// different values.
func (v *AESGCM) Seal(plaintext string) ([]byte, error) {
	ns := v.aead.NonceSize()
	out := make([]byte, 1+ns, 1+ns+len(plaintext)+v.aead.Overhead())
	out[0] = version1
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("vault: nonce: %w", err)
	}
	return v.aead.Seal(out, out[1:], []byte(plaintext), out[:1]), nil
}

// Open decrypts a value made by Seal. A damaged value, one of an unknown version, or one sealed
// under another key gives ErrSealed.
func (v *AESGCM) Open(sealed []byte) (string, error) {
	ns := v.aead.NonceSize()
	if len(sealed) < 1+ns+v.aead.Overhead() || sealed[0] != version1 {
		return "", ErrSealed
	}
	plain, err := v.aead.Open(nil, sealed[1:1+ns], sealed[1+ns:], sealed[:1])
	if err != nil {
		return "", ErrSealed
	}
	return string(plain), nil
}

// ParseKey decodes a key given in the configuration: 32 bytes as hex (64 characters) or base64
// (standard or URL alphabet, padded or not). Surrounding space is ignored.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	for _, enc := range []*base64.Encoding{
		base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding,
	} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == KeySize {
			return b, nil
		}
	}
	return nil, ErrKey
}
