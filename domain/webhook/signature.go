package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The request headers of a delivery (spec part 6), and its content type and user agent.
const (
	HeaderSignature = "SVC-Signature"
	HeaderEvent     = "SVC-Event"
	HeaderDelivery  = "SVC-Delivery"
	ContentType     = "application/json"
	UserAgent       = "svc-webhooks/1.0"
)

// DefaultTolerance is how old (or how far ahead) a signature's timestamp may be for Verify: the
// five minutes the spec recommends to receivers.
const DefaultTolerance = 5 * time.Minute

// Errors of Verify.
var (
	ErrMalformed = errors.New("webhook: malformed signature header")
	ErrStale     = errors.New("webhook: signature timestamp outside the tolerance")
	ErrMismatch  = errors.New("webhook: no v1 signature matches the body")
)

// Sign returns the SVC-Signature value of body sent at unix time t:
// "t=<t>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with secret>".
func Sign(secret string, t int64, body []byte) string {
	ts := strconv.FormatInt(t, 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

// mac is the HMAC-SHA256 of "<ts>.<body>" keyed with secret.
func mac(secret, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Headers returns the request headers of one delivery attempt: the signature, the event type
// (SVC-Event), the event id (SVC-Delivery, the same on every attempt), the JSON content type and
// the user agent.
func Headers(eventID, eventType, signature string) map[string]string {
	return map[string]string{
		HeaderSignature: signature,
		HeaderEvent:     eventType,
		HeaderDelivery:  eventID,
		"Content-Type":  ContentType,
		"User-Agent":    UserAgent,
	}
}

// Verify checks an SVC-Signature header against the raw body as a receiver should: the header
// carries one t and at least one v1 (several during a secret's rotation), one v1 must equal the
// HMAC of "<t>.<body>" (compared in constant time), and t must lie within tolerance of now
// (DefaultTolerance when tolerance ≤ 0). It returns ErrMalformed, ErrStale or ErrMismatch.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	var (
		ts   string
		sigs [][]byte
	)
	for part := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrMalformed
		}
		switch k {
		case "t":
			if ts != "" {
				return ErrMalformed
			}
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil || len(sig) != sha256.Size {
				return ErrMalformed
			}
			sigs = append(sigs, sig)
		}
		// Other schemes are ignored, so that new ones can be added.
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrMalformed
	}
	if age := now.Sub(time.Unix(t, 0)); age > tolerance || age < -tolerance {
		return ErrStale
	}
	want := mac(secret, ts, body)
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			return nil
		}
	}
	return ErrMismatch
}
