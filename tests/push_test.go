package tests

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/hkdf"
)

// pushService is a browser's push service on loopback: it records every message and answers the
// status it is set to (201 Created, as RFC 8030 says, until told otherwise).
type pushService struct {
	srv    *httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	got    []pushRequest
}

type pushRequest struct {
	path   string
	header http.Header
	body   []byte
}

func newPushService(t *testing.T) *pushService {
	p := &pushService{}
	p.status.Store(http.StatusCreated)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodPost {
			p.mu.Lock()
			p.got = append(p.got, pushRequest{path: r.URL.Path, header: r.Header.Clone(), body: b})
			p.mu.Unlock()
		}
		w.WriteHeader(int(p.status.Load()))
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// wait returns the n-th message (from 1) once it came.
func (p *pushService) wait(t *testing.T, n int) pushRequest {
	t.Helper()
	var req pushRequest
	waitFor(t, 30*time.Second, fmt.Sprintf("push message %d", n), func() (bool, string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.got) >= n {
			req = p.got[n-1]
			return true, ""
		}
		return false, fmt.Sprintf("%d messages", len(p.got))
	})
	return req
}

// pushBrowser is what a browser keeps of its push subscription: its P-256 key pair (p256dh is
// the public half) and its authentication secret.
type pushBrowser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

func newPushBrowser(t *testing.T) pushBrowser {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return pushBrowser{key: k, auth: auth}
}

func (b pushBrowser) form(endpoint string) url.Values {
	return url.Values{"endpoint": {endpoint}, "p256dh": {base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes())},
		"auth": {base64.RawURLEncoding.EncodeToString(b.auth)}}
}

// decrypt opens an aes128gcm message encrypted to the browser (RFC 8291, RFC 8188: one record).
func (b pushBrowser) decrypt(t *testing.T, body []byte) []byte {
	t.Helper()
	if len(body) < 21 {
		t.Fatalf("a %d-byte body has no aes128gcm header", len(body))
	}
	salt, idlen := body[:16], int(body[20])
	rs := binary.BigEndian.Uint32(body[16:20])
	if idlen != 65 || len(body) < 21+idlen {
		t.Fatalf("keyid of %d bytes, want the server's 65-byte public key", idlen)
	}
	serverPub, record := body[21:21+idlen], body[21+idlen:]
	if uint32(len(record)) > rs {
		t.Fatalf("a record of %d bytes in a record size of %d", len(record), rs)
	}
	asPub, err := ecdh.P256().NewPublicKey(serverPub)
	if err != nil {
		t.Fatalf("the keyid is not a P-256 point: %v", err)
	}
	secret, err := b.key.ECDH(asPub)
	if err != nil {
		t.Fatal(err)
	}
	expand := func(secret, salt, info []byte, n int) []byte {
		out := make([]byte, n)
		if _, err := io.ReadFull(hkdf.New(sha256.New, secret, salt, info), out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	keyInfo := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), serverPub...)
	ikm := expand(secret, b.auth, keyInfo, 32)
	cek := expand(ikm, salt, []byte("Content-Encoding: aes128gcm\x00"), 16)
	nonce := expand(ikm, salt, []byte("Content-Encoding: nonce\x00"), 12)
	block, err := aes.NewCipher(cek)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		t.Fatalf("the message does not decrypt with the browser's keys: %v", err)
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		t.Fatalf("the last record's padding delimiter is missing")
	}
	return plain[:len(plain)-1]
}

// checkVAPID checks a push's Authorization (RFC 8292): "vapid t=<JWT>, k=<public key>", the JWT
// signed with ES256 by that key, for the push service's origin, expiring within 24 hours, with
// a mailto: or https: subject; and that k is the key the console gave browsers.
func checkVAPID(t *testing.T, header http.Header, origin, wantKey string) {
	t.Helper()
	m := regexp.MustCompile(`^vapid t=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$`).FindStringSubmatch(header.Get("Authorization"))
	if m == nil {
		t.Fatalf("Authorization %q, want vapid t=<JWT>, k=<key>", header.Get("Authorization"))
	}
	if m[4] != wantKey {
		t.Errorf("k=%s, want the console's applicationServerKey %s", m[4], wantKey)
	}
	dec := func(s string) []byte {
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			t.Fatalf("JWT part %q: %v", s, err)
		}
		return b
	}
	var head struct{ Alg, Typ string }
	if err := json.Unmarshal(dec(m[1]), &head); err != nil || head.Alg != "ES256" {
		t.Errorf("JWT header %s, want alg ES256", dec(m[1]))
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := json.Unmarshal(dec(m[2]), &claims); err != nil {
		t.Fatal(err)
	}
	if claims.Aud != origin {
		t.Errorf("JWT aud %q, want the push service's origin %q", claims.Aud, origin)
	}
	if exp := time.Unix(claims.Exp, 0); exp.Before(time.Now()) || exp.After(time.Now().Add(24*time.Hour)) {
		t.Errorf("JWT exp %v: want within 24 hours", exp)
	}
	if !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:") {
		t.Errorf("JWT sub %q, want mailto: or https:", claims.Sub)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), dec(m[4]))
	if err != nil {
		t.Fatalf("k is not a P-256 point: %v", err)
	}
	sig := dec(m[3])
	if len(sig) != 64 {
		t.Fatalf("ES256 signature of %d bytes, want 64", len(sig))
	}
	digest := sha256.Sum256([]byte(m[1] + "." + m[2]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Error("the VAPID JWT's signature does not verify with k")
	}
}

var (
	pushKeyAttr = regexp.MustCompile(`data-key="([A-Za-z0-9_-]+)"`)
	pushRowID   = regexp.MustCompile(`id="push-(push_[A-Za-z0-9_-]+)"`)
)

// TestPushSaleAlert: the owner turns on alerts for a browser in the console (its push service a
// loopback server, its keys the test's); a sale reported by the site plugin reaches that push
// service as a VAPID-signed aes128gcm message that the browser's keys open to the sale's title;
// when the push service answers 410 Gone, the subscription is deleted.
func TestPushSaleAlert(t *testing.T) { onStacks(t, testPushSaleAlert) }

func testPushSaleAlert(t *testing.T, s stack) {
	binaries(t)
	private := []string{"SVC_ALLOW_PRIVATE_TARGETS", "true"}
	api := s.startAPI(t, private...)
	if s.production {
		s.startWorker(t, private...)
	}
	a := consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	configureAgent(t, api, a.key)
	owner := newOwnerBrowser(t, api.URL())
	owner.signIn("lu@example.com", "correct horse battery")

	page := owner.get("/app/notifications")
	key := pushKeyAttr.FindStringSubmatch(page.body)
	if page.status != http.StatusOK || key == nil || !strings.Contains(page.body, "Alert me on this device") ||
		!strings.Contains(page.body, `src="/app/static/push.js"`) {
		t.Fatalf("GET /app/notifications: %d, no push form with the VAPID key:\n%s", page.status, page.body)
	}
	if pub, err := base64.RawURLEncoding.DecodeString(key[1]); err != nil || len(pub) != 65 || pub[0] != 4 {
		t.Fatalf("data-key %q is not an uncompressed P-256 point in base64url", key[1])
	}
	sw := owner.get("/app/sw.js")
	if sw.status != http.StatusOK || !strings.HasPrefix(sw.header.Get("Content-Type"), "text/javascript") ||
		!strings.Contains(sw.body, "showNotification") || !strings.Contains(sw.body, "notificationclick") {
		t.Errorf("GET /app/sw.js: %d %q", sw.status, sw.header.Get("Content-Type"))
	}

	ps := newPushService(t)
	browser := newPushBrowser(t)
	endpoint := ps.srv.URL + "/push/device-1"
	// A refused subscription changes nothing; the browser's is kept once, however often it is sent.
	if p := owner.post("/app/notifications", "/app/notifications/push", browser.form("http://push.example/x")); p.status != http.StatusBadRequest {
		t.Errorf("an http endpoint of a public host: %d, want 400", p.status)
	}
	for range 2 {
		if p := owner.post("/app/notifications", "/app/notifications/push", browser.form(endpoint)); p.status != http.StatusSeeOther || p.location != "/app/notifications" {
			t.Fatalf("POST /app/notifications/push: %d %q\n%s", p.status, p.location, p.body)
		}
	}
	page = owner.get("/app/notifications")
	if rows := pushRowID.FindAllStringSubmatch(page.body, -1); len(rows) != 1 || !strings.Contains(page.body, `data-endpoint="`+endpoint+`"`) {
		t.Fatalf("the notifications page lists %d devices, want the one subscribed (twice):\n%s", len(rows), page.body)
	}

	// The site plugin connects and reports a sale.
	email, password := "lu@example.com", "correct horse battery"
	const site = "https://shop.example"
	connect := api.URL() + "/cms/connect?" + url.Values{"site": {site}, "return": {site + "/wp-admin/admin.php?page=svc"}, "state": {"s1"}, "woo": {"1"}}.Encode()
	back, err := url.Parse(approveHTTP(t, api, email, password, connect))
	if err != nil {
		t.Fatal(err)
	}
	ex := callJSON(t, "POST", api.URL()+"/cms/exchange", map[string]any{"code": back.Query().Get("svc_code"), "site": site})
	if ex.status != http.StatusOK {
		t.Fatalf("POST /cms/exchange: %s", ex)
	}
	token := ex.body.str("token")
	sale := func(order int) {
		t.Helper()
		r := callJSON(t, "POST", api.URL()+"/cms/sale", map[string]any{"token": token, "order_id": order, "order_name": fmt.Sprintf("#%d", order),
			"total": "12.50", "currency": "EUR"})
		if r.status != http.StatusCreated {
			t.Fatalf("POST /cms/sale: %s", r)
		}
	}
	sale(1001)

	got := ps.wait(t, 1)
	if got.path != "/push/device-1" {
		t.Errorf("pushed to %s, want /push/device-1", got.path)
	}
	if ce := got.header.Get("Content-Encoding"); ce != "aes128gcm" {
		t.Errorf("Content-Encoding %q, want aes128gcm", ce)
	}
	if ttl := got.header.Get("TTL"); ttl != "86400" {
		t.Errorf("TTL %q, want 86400 (24 hours)", ttl)
	}
	if u := got.header.Get("Urgency"); u != "normal" {
		t.Errorf("Urgency %q, want normal", u)
	}
	checkVAPID(t, got.header, ps.srv.URL, key[1])
	var msg struct{ Title, Body, URL string }
	plain := browser.decrypt(t, got.body)
	if err := json.Unmarshal(plain, &msg); err != nil {
		t.Fatalf("the message is not JSON: %q", plain)
	}
	if !strings.Contains(msg.Title, "New sale: 12.50 EUR") || msg.URL != "/app/notifications" {
		t.Errorf("the alert %q, want the sale's title and the notifications page", plain)
	}
	if p := owner.get("/app/notifications"); len(pushRowID.FindAllString(p.body, -1)) != 1 {
		t.Errorf("after a delivered push the page lists %d devices, want 1", len(pushRowID.FindAllString(p.body, -1)))
	}

	// The push service says the subscription is gone: it is deleted.
	ps.status.Store(http.StatusGone)
	sale(1002)
	ps.wait(t, 2)
	waitFor(t, 30*time.Second, "the gone subscription deleted", func() (bool, string) {
		p := owner.get("/app/notifications")
		return len(pushRowID.FindAllString(p.body, -1)) == 0 && strings.Contains(p.body, "No device is alerted yet."), p.body
	})
}

// TestPushButtonBrowser drives the notifications page's push buttons in headless Chromium. The
// browser's push service cannot be reached from a test, so the page's PushManager is stood in for
// (before the console's script runs) by one that answers with the test's subscription, on
// loopback; everything else is the console's: its service worker registered for /app/, the
// subscription posted with the CSRF token, the device listed, then removed by Stop alerting.
func TestPushButtonBrowser(t *testing.T) {
	binaries(t)
	chromium := chromiumPath(t)
	s := newEmbedded(t)
	api := s.startAPI(t, "SVC_ALLOW_PRIVATE_TARGETS", "true")
	consoleOwner(t, s, "Padaria Lu", "lu@example.com", "correct horse battery")
	ps := newPushService(t)
	form := newPushBrowser(t).form(ps.srv.URL + "/push/chromium")
	ctx := browser(t, chromium)
	fake := `(() => {
  const sub = {
    endpoint: ` + jsString(form.Get("endpoint")) + `,
    toJSON() { return { endpoint: this.endpoint, keys: { p256dh: ` + jsString(form.Get("p256dh")) + `, auth: ` + jsString(form.Get("auth")) + ` } }; },
    unsubscribe() { localStorage.removeItem("push-sub"); return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (opts) {
    const k = new Uint8Array(opts.applicationServerKey);
    localStorage.setItem("push-key", btoa(String.fromCharCode(...k)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
    localStorage.setItem("push-visible", String(opts.userVisibleOnly));
    localStorage.setItem("push-sub", "1");
    return Promise.resolve(sub);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(localStorage.getItem("push-sub") ? sub : null); };
})();`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fake}); err != nil {
		t.Fatal(err)
	}
	runJS(t, ctx, "open the notifications page", chromedp.Navigate(api.URL()+"/app/notifications"))
	waitJS(t, ctx, "the sign-in page", `location.pathname === "/app/login" && !!document.querySelector("#password")`)
	runJS(t, ctx, "sign in",
		chromedp.SendKeys(chromedp.CSS("#email"), "lu@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse battery"),
		chromedp.Click(chromedp.CSS(`form[action="/app/login"] button[type=submit]`)))
	waitJS(t, ctx, "the push buttons, this device not alerted",
		`location.pathname === "/app/notifications" && !document.querySelector("#push-form").hidden && document.querySelector("#push-unsupported").hidden &&
		 !document.querySelector("#push-enable").hidden && document.querySelector("#push-disable").hidden &&
		 document.querySelector("#push-status").textContent === "This device is not alerted."`)

	runJS(t, ctx, "Alert me on this device", chromedp.Click(chromedp.CSS("#push-enable")))
	waitJS(t, ctx, "the device listed, this device alerted",
		`document.querySelectorAll("#push-devices tbody tr").length === 1 && !document.querySelector("#push-disable").hidden &&
		 document.querySelector("#push-status").textContent === "This device is alerted."`)
	wantJS(t, ctx, "subscribed with the VAPID key, user-visible only",
		`localStorage.getItem("push-key") === document.querySelector("#push-form").dataset.key && localStorage.getItem("push-visible") === "true"`)
	waitJS(t, ctx, "the console's service worker controls the page",
		`!!navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL.endsWith("/app/sw.js")`)
	if p := pushRowID.FindAllString(evaluate[string](t, ctx, "the page", `document.body.innerHTML`), -1); len(p) != 1 {
		t.Errorf("devices listed: %v", p)
	}
	consoleShot(t, ctx, "notifications-push")

	runJS(t, ctx, "Stop alerting this device", chromedp.Click(chromedp.CSS("#push-disable")))
	waitJS(t, ctx, "no device listed, this device not alerted",
		`!document.querySelector("#push-devices") && !document.querySelector("#push-enable").hidden && localStorage.getItem("push-sub") === null &&
		 document.querySelector("#push-status").textContent === "This device is not alerted."`)
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
