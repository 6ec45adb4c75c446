package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzVerify checks the signature verifier on any input: a header signed with Sign verifies; a
// changed body, timestamp or signature, another secret, or a header of one's own making never
// does unless it carries the right v1 for its own t; and no header makes it panic.
func FuzzVerify(f *testing.F) {
	f.Add("whsec_test", []byte(`{"id":"evt_1"}`), int64(1700000000), "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925", uint16(0), byte(1))
	f.Add("whsec_x", []byte{}, int64(0), "", uint16(3), byte(0x80))
	f.Add("", []byte("body"), int64(-1), "t=,v1=", uint16(0), byte(0xff))
	f.Add("s", []byte("b"), int64(1<<62), "t=1,t=2,v1=00", uint16(7), byte(2))
	f.Add("s", []byte("b"), int64(1), "v1=zz,t=1", uint16(1), byte(1))
	f.Add("s", []byte("b"), int64(1), "t=1,v1="+strings.Repeat("0", 64)+",v0=abc,v1", uint16(9), byte(4))
	f.Add("s", []byte("b"), int64(1), " t = 1 , v1 = ab ", uint16(0), byte(1))
	f.Add("s", []byte("b"), int64(1), "t=+1,v1="+strings.Repeat("A", 64), uint16(0), byte(1))
	f.Add("s", []byte("b"), int64(1), "t=9223372036854775808,v1=", uint16(0), byte(1))
	f.Add("s", []byte("b"), int64(-9223372036854775808), ",,,=,t==,v1==", uint16(0), byte(1))
	f.Add("s", []byte("b"), int64(9223372036854775807), "t=9223372036854775807", uint16(0), byte(255))
	f.Fuzz(func(t *testing.T, secret string, body []byte, ts int64, header string, pos uint16, flip byte) {
		now := time.Unix(ts, 0)

		// Any header: no panic, and acceptance only with the right v1 for the header's own t.
		if err := Verify(secret, header, body, now, 0); err == nil {
			if !carriesSignature(secret, header, body) {
				t.Fatalf("Verify accepted %q for body %q without its signature", header, body)
			}
		} else if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrStale) && !errors.Is(err, ErrMismatch) {
			t.Fatalf("Verify(%q) = %v, not one of its errors", header, err)
		}

		// Sign then verify.
		signed := Sign(secret, ts, body)
		if err := Verify(secret, signed, body, now, 0); err != nil {
			t.Fatalf("Verify(Sign(t=%d)) = %v", ts, err)
		}
		if flip == 0 {
			flip = 1
		}
		// A changed body.
		if len(body) > 0 {
			changed := append([]byte(nil), body...)
			changed[int(pos)%len(changed)] ^= flip
			if err := Verify(secret, signed, changed, now, 0); !errors.Is(err, ErrMismatch) {
				t.Fatalf("Verify of a changed body = %v, want ErrMismatch", err)
			}
		}
		if err := Verify(secret, signed, append(append([]byte(nil), body...), flip), now, 0); !errors.Is(err, ErrMismatch) {
			t.Fatalf("Verify of a longer body = %v, want ErrMismatch", err)
		}
		// A changed timestamp, with the same v1.
		sig := signed[strings.Index(signed, ",v1=")+len(",v1="):]
		other := ts + int64(flip)
		if other == ts {
			other = ts - 1
		}
		if err := Verify(secret, "t="+strconv.FormatInt(other, 10)+",v1="+sig, body, time.Unix(other, 0), 0); !errors.Is(err, ErrMismatch) {
			t.Fatalf("Verify with t changed from %d to %d = %v, want ErrMismatch", ts, other, err)
		}
		// A changed signature.
		raw, err := hex.DecodeString(sig)
		if err != nil {
			t.Fatalf("Sign wrote v1=%q, not hex", sig)
		}
		raw[int(pos)%len(raw)] ^= flip
		if err := Verify(secret, "t="+strconv.FormatInt(ts, 10)+",v1="+hex.EncodeToString(raw), body, now, 0); !errors.Is(err, ErrMismatch) {
			t.Fatalf("Verify with a changed signature = %v, want ErrMismatch", err)
		}
		// Another secret.
		if err := Verify(secret+"x", signed, body, now, 0); !errors.Is(err, ErrMismatch) {
			t.Fatalf("Verify with another secret = %v, want ErrMismatch", err)
		}
		// Too old, too far ahead.
		for _, d := range []time.Duration{DefaultTolerance + time.Second, -DefaultTolerance - time.Second} {
			if err := Verify(secret, signed, body, now.Add(d), 0); !errors.Is(err, ErrStale) {
				t.Fatalf("Verify %v away = %v, want ErrStale", d, err)
			}
		}
	})
}

// carriesSignature reports whether header has a t and, among its v1 values, the HMAC-SHA256 of
// "<t>.<body>" keyed with secret (the recipe of spec part 6, computed here independently).
func carriesSignature(secret, header string, body []byte) bool {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts + "."))
	h.Write(body)
	want := hex.EncodeToString(h.Sum(nil))
	for _, s := range sigs {
		if strings.EqualFold(s, want) {
			return true
		}
	}
	return false
}
