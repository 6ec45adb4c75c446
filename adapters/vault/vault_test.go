package vault_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/svcagent/svc/adapters/vault"
)

func newVault(t *testing.T) *vault.AESGCM {
	t.Helper()
	v, err := vault.New(bytes.Repeat([]byte{7}, vault.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRoundTrip(t *testing.T) {
	v := newVault(t)
	for _, plain := range []string{"whsec_" + strings.Repeat("x", 43), "", "ünïcødé ✓", strings.Repeat("long", 1000)} {
		sealed, err := v.Seal(plain)
		if err != nil {
			t.Fatal(err)
		}
		if plain != "" && bytes.Contains(sealed, []byte(plain)) {
			t.Errorf("sealed value holds the plaintext")
		}
		got, err := v.Open(sealed)
		if err != nil || got != plain {
			t.Errorf("Open(Seal(%.20q)) = %.20q, %v", plain, got, err)
		}
	}
}

func TestDistinctCiphertexts(t *testing.T) {
	v := newVault(t)
	a, _ := v.Seal("whsec_same")
	b, _ := v.Seal("whsec_same")
	if bytes.Equal(a, b) {
		t.Error("the same plaintext sealed twice gave the same value")
	}
	if a[0] != 1 || b[0] != 1 {
		t.Errorf("version bytes %d, %d; want 1", a[0], b[0])
	}
}

func TestTamperDetected(t *testing.T) {
	v := newVault(t)
	sealed, err := v.Seal("whsec_secret")
	if err != nil {
		t.Fatal(err)
	}
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x01
		if got, err := v.Open(bad); !errors.Is(err, vault.ErrSealed) {
			t.Errorf("flipping byte %d: Open = %q, %v; want ErrSealed", i, got, err)
		}
	}
	for _, bad := range [][]byte{nil, {}, {1}, sealed[:len(sealed)-1], append(bytes.Clone(sealed), 0)} {
		if _, err := v.Open(bad); !errors.Is(err, vault.ErrSealed) {
			t.Errorf("Open(%d bytes) = %v, want ErrSealed", len(bad), err)
		}
	}
}

func TestWrongKeyFails(t *testing.T) {
	sealed, err := newVault(t).Seal("whsec_secret")
	if err != nil {
		t.Fatal(err)
	}
	other, err := vault.New(bytes.Repeat([]byte{8}, vault.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.Open(sealed); !errors.Is(err, vault.ErrSealed) || got != "" {
		t.Errorf("Open with another key = %q, %v; want ErrSealed", got, err)
	}
}

func TestNewRejectsBadKeys(t *testing.T) {
	for _, n := range []int{0, 16, 24, 31, 33, 64} {
		if _, err := vault.New(make([]byte, n)); !errors.Is(err, vault.ErrKey) {
			t.Errorf("New(%d bytes) = %v, want ErrKey", n, err)
		}
	}
}

func TestParseKey(t *testing.T) {
	key := make([]byte, vault.KeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	key[0], key[1] = 0xfb, 0xff // '+' and '/' in standard base64, '-' and '_' in URL base64
	for _, s := range []string{
		hex.EncodeToString(key),
		strings.ToUpper(hex.EncodeToString(key)),
		base64.StdEncoding.EncodeToString(key),
		base64.RawStdEncoding.EncodeToString(key),
		base64.URLEncoding.EncodeToString(key),
		base64.RawURLEncoding.EncodeToString(key),
		"  " + base64.StdEncoding.EncodeToString(key) + "\n",
	} {
		got, err := vault.ParseKey(s)
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("ParseKey(%q) = %x, %v; want %x", s, got, err, key)
		}
	}
	short := base64.StdEncoding.EncodeToString(key[:16])
	for _, s := range []string{"", "not a key", short, hex.EncodeToString(key[:31]), hex.EncodeToString(key) + "00"} {
		_, err := vault.ParseKey(s)
		if !errors.Is(err, vault.ErrKey) {
			t.Errorf("ParseKey(%q) = %v, want ErrKey", s, err)
		}
		if s != "" && err != nil && strings.Contains(err.Error(), s) {
			t.Errorf("ParseKey error shows the key: %v", err)
		}
	}
}
