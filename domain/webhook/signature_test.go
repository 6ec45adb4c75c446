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

func TestSign(t *testing.T) {
	// Computed independently: printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
	const want = "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925"
	got := Sign("whsec_test", 1700000000, []byte(`{"id":"evt_1"}`))
	if got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
	for _, other := range []string{
		Sign("whsec_other", 1700000000, []byte(`{"id":"evt_1"}`)),
		Sign("whsec_test", 1700000001, []byte(`{"id":"evt_1"}`)),
		Sign("whsec_test", 1700000000, []byte(`{"id":"evt_2"}`)),
	} {
		if other[len("t=1700000000,"):] == got[len("t=1700000000,"):] {
			t.Errorf("%q signs like %q", other, got)
		}
	}
}

// TestVerifyStandardLibrary checks a signature the way the documentation tells a receiver to,
// with the standard library only: split the header, recompute the HMAC-SHA256 of "t.body" over the
// raw body, compare in constant time, and refuse a t older than five minutes.
func TestVerifyStandardLibrary(t *testing.T) {
	secret := "whsec_Zm9vYmFyYmF6cXV4"
	body := []byte(`{"id":"evt_1","type":"message.replied","created_at":"2026-11-21T12:00:00.000Z","data":{"reply":"Hi"}}`)
	now := time.Date(2026, 11, 21, 12, 0, 3, 0, time.UTC)
	header := Sign(secret, now.Add(-3*time.Second).Unix(), body)

	receiverVerify := func(header string, body []byte, now time.Time) bool {
		var ts, v1 string
		for _, part := range strings.Split(header, ",") {
			k, v, _ := strings.Cut(part, "=")
			switch k {
			case "t":
				ts = v
			case "v1":
				v1 = v
			}
		}
		sec, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || now.Sub(time.Unix(sec, 0)) > 5*time.Minute {
			return false
		}
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(ts + "." + string(body)))
		got, err := hex.DecodeString(v1)
		return err == nil && hmac.Equal(got, m.Sum(nil))
	}

	if !receiverVerify(header, body, now) {
		t.Fatalf("the documented recipe rejects %q", header)
	}
	reformatted := []byte(strings.ReplaceAll(string(body), ",", ", "))
	if receiverVerify(header, reformatted, now) {
		t.Error("the recipe accepts a body that is not the raw one")
	}
	if receiverVerify(header, body, now.Add(5*time.Minute)) {
		t.Error("the recipe accepts a signature older than five minutes")
	}
}

func TestVerify(t *testing.T) {
	const secret = "whsec_test"
	body := []byte(`{"id":"evt_1"}`)
	now := time.Unix(1700000000, 0)
	sig := func(at time.Time) string { return Sign(secret, at.Unix(), body) }
	v1 := func(at time.Time) string { _, v, _ := strings.Cut(sig(at), ",v1="); return v }

	tests := []struct {
		name   string
		secret string
		header string
		body   []byte
		tol    time.Duration
		want   error
	}{
		{"valid", secret, sig(now), body, 0, nil},
		{"valid 4 min old", secret, sig(now.Add(-4 * time.Minute)), body, 0, nil},
		{"valid with spaces", secret, strings.ReplaceAll(sig(now), ",", ", "), body, 0, nil},
		{"second v1 matches (rotation)", secret, "t=1700000000,v1=" + strings.Repeat("00", 32) + ",v1=" + v1(now), body, 0, nil},
		{"unknown scheme ignored", secret, sig(now) + ",v0=abc", body, 0, nil},
		{"stale", secret, sig(now.Add(-6 * time.Minute)), body, 0, ErrStale},
		{"stale under a short tolerance", secret, sig(now.Add(-2 * time.Minute)), body, time.Minute, ErrStale},
		{"far in the future", secret, sig(now.Add(6 * time.Minute)), body, 0, ErrStale},
		{"wrong secret", "whsec_other", sig(now), body, 0, ErrMismatch},
		{"body changed", secret, sig(now), []byte(`{"id":"evt_2"}`), 0, ErrMismatch},
		{"t changed", secret, "t=1700000001,v1=" + v1(now), body, 0, ErrMismatch},
		{"empty", secret, "", body, 0, ErrMalformed},
		{"no t", secret, "v1=" + v1(now), body, 0, ErrMalformed},
		{"no v1", secret, "t=1700000000", body, 0, ErrMalformed},
		{"two t", secret, "t=1700000000,t=1700000000,v1=" + v1(now), body, 0, ErrMalformed},
		{"bad t", secret, "t=now,v1=" + v1(now), body, 0, ErrMalformed},
		{"bad hex", secret, "t=1700000000,v1=zz", body, 0, ErrMalformed},
		{"short v1", secret, "t=1700000000,v1=" + v1(now)[:10], body, 0, ErrMalformed},
		{"no equals", secret, "t=1700000000,v1", body, 0, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(tt.secret, tt.header, tt.body, now, tt.tol)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	got := Headers("evt_1", "message.replied", "t=1,v1=ab")
	want := map[string]string{
		"SVC-Signature": "t=1,v1=ab",
		"SVC-Event":     "message.replied",
		"SVC-Delivery":  "evt_1",
		"Content-Type":  "application/json",
		"User-Agent":    "svc-webhooks/1.0",
	}
	if len(got) != len(want) {
		t.Errorf("Headers = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("header %s = %q, want %q", k, got[k], v)
		}
	}
}
