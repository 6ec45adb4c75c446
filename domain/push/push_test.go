package push_test

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/push"
)

var b64 = base64.RawURLEncoding.EncodeToString

func keyPair(t *testing.T) (public, private string) {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return b64(k.PublicKey().Bytes()), b64(k.Bytes())
}

func TestValidate(t *testing.T) {
	p256dh, _ := keyPair(t)
	auth := b64([]byte("0123456789abcdef"))
	compressed := make([]byte, 33)
	compressed[0] = 2
	tests := []struct {
		name                   string
		endpoint, p256dh, auth string
		allowPrivate           bool
		wantField              string
	}{
		{"a browser's subscription", "https://updates.push.services.mozilla.com/wpush/v2/gAAA", p256dh, auth, false, ""},
		{"padded base64url keys", "https://push.example/1", p256dh + "=", b64([]byte("0123456789abcdef")) + "==", false, ""},
		{"http to loopback for tests", "http://127.0.0.1:8080/p", p256dh, auth, true, ""},
		{"http", "http://push.example/1", p256dh, auth, false, "endpoint"},
		{"http to loopback without allowPrivate", "http://127.0.0.1:8080/p", p256dh, auth, false, "endpoint"},
		{"a private address", "https://10.0.0.1/p", p256dh, auth, false, "endpoint"},
		{"credentials", "https://u:p@push.example/1", p256dh, auth, false, "endpoint"},
		{"too long", "https://push.example/" + strings.Repeat("a", push.MaxEndpoint), p256dh, auth, false, "endpoint"},
		{"a compressed point", "https://push.example/1", b64(compressed), auth, false, "p256dh"},
		{"standard base64", "https://push.example/1", strings.ReplaceAll(base64.StdEncoding.EncodeToString(make([]byte, 65)), "A", "+"), auth, false, "p256dh"},
		{"a 15-byte auth", "https://push.example/1", p256dh, b64(make([]byte, 15)), false, "auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := push.Validate(tt.endpoint, tt.p256dh, tt.auth, tt.allowPrivate)
			if tt.wantField == "" {
				if err != nil {
					t.Errorf("Validate = %v, want nil", err)
				}
				return
			}
			if de, ok := err.(*domain.Error); !ok || de.Code != domain.CodeInvalidRequest || de.Field != tt.wantField {
				t.Errorf("Validate = %v, want invalid_request on %s", err, tt.wantField)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	for _, tt := range []struct {
		status          int
		gone, delivered bool
	}{{201, false, true}, {200, false, true}, {404, true, false}, {410, true, false}, {400, false, false}, {413, false, false}, {429, false, false}, {503, false, false}} {
		if push.Gone(tt.status) != tt.gone || push.Delivered(tt.status) != tt.delivered {
			t.Errorf("%d: Gone %t Delivered %t, want %t %t", tt.status, push.Gone(tt.status), push.Delivered(tt.status), tt.gone, tt.delivered)
		}
	}
}

func TestNewMessage(t *testing.T) {
	tests := []struct {
		name, title, body string
		wantTitle         int // runes
		wantBody          int
	}{
		{"short", "New sale", "Order #7.", 8, 9},
		{"cut to the limits, with an ellipsis", strings.Repeat("é", 500), strings.Repeat("ü", 5000), push.MaxTitle, push.MaxBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := push.NewMessage(tt.title, tt.body)
			if utf8.RuneCountInString(m.Title) != tt.wantTitle || utf8.RuneCountInString(m.Body) != tt.wantBody || m.URL != "/app/notifications" {
				t.Errorf("NewMessage: %d, %d runes, url %q", utf8.RuneCountInString(m.Title), utf8.RuneCountInString(m.Body), m.URL)
			}
			if tt.wantTitle == push.MaxTitle && !strings.HasSuffix(m.Title, "…") {
				t.Errorf("a cut title ends %q", m.Title[len(m.Title)-4:])
			}
		})
	}
}

func TestCheckKeys(t *testing.T) {
	public, private := keyPair(t)
	other, _ := keyPair(t)
	tests := []struct {
		name, public, private string
		ok                    bool
	}{
		{"a pair", public, private, true},
		{"a pair, padded", public + "=", private + "=", true},
		{"another's public key", other, private, false},
		{"a short public key", public[:20], private, false},
		{"a short private key", public, private[:20], false},
		{"a zero scalar", public, b64(make([]byte, 32)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := push.CheckKeys(tt.public, tt.private)
			if (err == nil) != tt.ok {
				t.Errorf("CheckKeys = %v, want ok %t", err, tt.ok)
			}
			if err != nil && strings.Contains(err.Error(), private) {
				t.Errorf("the error shows the private key: %v", err)
			}
		})
	}
}

func TestSubject(t *testing.T) {
	for _, tt := range []struct {
		subject string
		ok      bool
	}{{"mailto:ops@example.com", true}, {"https://example.com", true}, {"ops@example.com", false}, {"http://example.com", false}, {"mailto:", false}, {"https://", false}} {
		if err := push.CheckSubject(tt.subject); (err == nil) != tt.ok {
			t.Errorf("CheckSubject(%q) = %v, want ok %t", tt.subject, err, tt.ok)
		}
	}
	if got := push.DefaultSubject("https://svc.example"); got != "https://svc.example" {
		t.Errorf("DefaultSubject(https) = %q", got)
	}
	if got := push.DefaultSubject("http://localhost:8080"); push.CheckSubject(got) != nil {
		t.Errorf("DefaultSubject(http) = %q, not a valid subject", got)
	}
}

func TestKeysNeverShowThePrivateKey(t *testing.T) {
	k := push.Keys{Public: "BPUBLIC", Private: "PRIVATE-SCALAR", Subject: "mailto:ops@example.com"}
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v", k), fmt.Sprintf("%+v", k), fmt.Sprintf("%#v", k), fmt.Sprintf("%s", k)} {
		if strings.Contains(s, "PRIVATE") || !strings.Contains(s, "BPUBLIC") {
			t.Errorf("printed %q", s)
		}
	}
}

func TestHost(t *testing.T) {
	for endpoint, want := range map[string]string{"https://fcm.googleapis.com/fcm/send/x": "fcm.googleapis.com", "http://127.0.0.1:9/p": "127.0.0.1:9"} {
		if got := (push.Subscription{Endpoint: endpoint}).Host(); got != want {
			t.Errorf("Host(%s) = %q, want %q", endpoint, got, want)
		}
	}
}
