package messaging

import (
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
)

func TestConnect(t *testing.T) {
	wa := Secrets{AccessToken: "tok", AppSecret: "sec", VerifyToken: "ver"}
	tests := []struct {
		name      string
		app       App
		phone     string
		secrets   Secrets
		wantField string // "" when valid
	}{
		{"whatsapp", WhatsApp, "1055", wa, ""},
		{"whatsapp without phone", WhatsApp, "", wa, "phone_number_id"},
		{"whatsapp phone not digits", WhatsApp, "10a5", wa, "phone_number_id"},
		{"whatsapp without token", WhatsApp, "1055", Secrets{AppSecret: "s", VerifyToken: "v"}, "access_token"},
		{"whatsapp without app secret", WhatsApp, "1055", Secrets{AccessToken: "t", VerifyToken: "v"}, "app_secret"},
		{"whatsapp without verify token", WhatsApp, "1055", Secrets{AccessToken: "t", AppSecret: "s"}, "verify_token"},
		{"whatsapp token with a space", WhatsApp, "1055", Secrets{AccessToken: "t t", AppSecret: "s", VerifyToken: "v"}, "access_token"},
		{"telegram", Telegram, "", Secrets{BotToken: "123:abc"}, ""},
		{"telegram blank token", Telegram, "", Secrets{BotToken: "  "}, "bot_token"},
		{"telegram token with a newline", Telegram, "", Secrets{BotToken: "123:a\nb"}, "bot_token"},
		{"telegram token too long", Telegram, "", Secrets{BotToken: strings.Repeat("a", 4097)}, "bot_token"},
		{"telegram token without the bot id", Telegram, "", Secrets{BotToken: "abc"}, "bot_token"},
		{"telegram token whose bot id is not digits", Telegram, "", Secrets{BotToken: "bot:abc"}, "bot_token"},
		{"unknown app", "signal", "", Secrets{BotToken: "x"}, "channel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Connect(tt.app, tt.phone, tt.secrets)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				return
			}
			e, ok := domain.AsError(err)
			if !ok || e.Code != domain.CodeInvalidRequest || e.Field != tt.wantField {
				t.Fatalf("Connect: %v, want invalid_request on %s", err, tt.wantField)
			}
		})
	}
}

func TestContacts(t *testing.T) {
	tests := []struct {
		id      string
		app     App
		address string
		ok      bool
	}{
		{"whatsapp:15551234567", WhatsApp, "15551234567", true},
		{"telegram:4242", Telegram, "4242", true},
		{"telegram:-1001234", Telegram, "-1001234", true},
		{"whatsapp:+1555", "", "", false},
		{"whatsapp:", "", "", false},
		{"api:15551234567", "", "", false},
		{"telegram:12a", "", "", false},
		{"telegram:--1", "", "", false},
		{"15551234567", "", "", false},
		{"whatsapp:" + strings.Repeat("1", 65), "", "", false},
	}
	for _, tt := range tests {
		app, address, ok := ParseContact(tt.id)
		if app != tt.app || address != tt.address || ok != tt.ok {
			t.Errorf("ParseContact(%q) = %q, %q, %v; want %q, %q, %v", tt.id, app, address, ok, tt.app, tt.address, tt.ok)
		}
		if tt.ok && ContactID(app, address) != tt.id {
			t.Errorf("ContactID(%q, %q) = %q, want %q", app, address, ContactID(app, address), tt.id)
		}
	}
}

func TestAnswerable(t *testing.T) {
	text := Inbound{ID: "wamid.1", From: "1555", Kind: KindText, Text: "hi"}
	tests := []struct {
		name string
		edit func(m *Inbound)
		want bool
	}{
		{"text", func(*Inbound) {}, true},
		{"a sticker", func(m *Inbound) { m.Kind, m.Text = KindOther, "" }, false},
		{"a file alone, with its note", func(m *Inbound) { m.Kind, m.Text = KindFile, "\uFFFC image" }, true},
		{"a file without its note", func(m *Inbound) { m.Kind, m.Text = KindFile, "" }, false},
		{"no id", func(m *Inbound) { m.ID = "" }, false},
		{"id too long", func(m *Inbound) { m.ID = strings.Repeat("x", 201) }, false},
		{"sender not an address", func(m *Inbound) { m.From = "15 55" }, false},
		{"invalid UTF-8", func(m *Inbound) { m.Text = "hi \xff" }, false},
		{"NUL", func(m *Inbound) { m.Text = "hi\x00" }, false},
	}
	for _, tt := range tests {
		m := text
		tt.edit(&m)
		if got := m.Answerable(); got != tt.want {
			t.Errorf("%s: Answerable = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestVerifySignature(t *testing.T) {
	body := []byte(`{"object":"whatsapp_business_account"}`)
	good := Sign("s3cret", body)
	tests := []struct {
		name   string
		secret string
		body   []byte
		header string
		want   bool
	}{
		{"good", "s3cret", body, good, true},
		{"upper-case hex", "s3cret", body, SignaturePrefix + strings.ToUpper(strings.TrimPrefix(good, SignaturePrefix)), true},
		{"missing", "s3cret", body, "", false},
		{"no prefix", "s3cret", body, strings.TrimPrefix(good, SignaturePrefix), false},
		{"sha1 prefix", "s3cret", body, "sha1=" + strings.TrimPrefix(good, SignaturePrefix), false},
		{"not hex", "s3cret", body, SignaturePrefix + "zz", false},
		{"other secret", "other", body, good, false},
		{"body changed", "s3cret", append([]byte(" "), body...), good, false},
		{"empty secret", "", body, Sign("", body), false},
	}
	for _, tt := range tests {
		if got := VerifySignature(tt.secret, tt.body, tt.header); got != tt.want {
			t.Errorf("%s: VerifySignature = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSameSecret(t *testing.T) {
	tests := []struct {
		stored, sent string
		want         bool
	}{
		{"abc", "abc", true},
		{"abc", "abd", false},
		{"abc", "ab", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := SameSecret(tt.stored, tt.sent); got != tt.want {
			t.Errorf("SameSecret(%q, %q) = %v, want %v", tt.stored, tt.sent, got, tt.want)
		}
	}
}

func TestValidHook(t *testing.T) {
	tests := []struct {
		hook string
		want bool
	}{
		{HookPrefix + strings.Repeat("a", 43), true},
		{HookPrefix + strings.Repeat("a", 19), false},
		{HookPrefix + strings.Repeat("a", 81), false},
		{"xx_" + strings.Repeat("a", 43), false},
		{HookPrefix + strings.Repeat("a", 42) + "-", false},
	}
	for _, tt := range tests {
		if got := ValidHook(tt.hook); got != tt.want {
			t.Errorf("ValidHook(%q) = %v, want %v", tt.hook, got, tt.want)
		}
	}
}

func TestSendErrorRetryable(t *testing.T) {
	tests := []struct {
		status int
		want   bool
	}{
		{0, true}, {429, true}, {500, true}, {503, true}, {400, false}, {401, false}, {403, false}, {404, false},
	}
	for _, tt := range tests {
		e := &SendError{App: WhatsApp, Status: tt.status, RetryAfter: time.Second}
		if got := e.Retryable(); got != tt.want {
			t.Errorf("status %d: Retryable = %v, want %v", tt.status, got, tt.want)
		}
		if !strings.Contains(e.Error(), "whatsapp") {
			t.Errorf("Error() = %q, want the app named", e.Error())
		}
	}
}

// TestSendErrorWithoutAnswer: an app that gave no answer (Status 0: a DNS failure, a refused
// connection, a timeout) is said not to have been reached, not to have refused the message.
func TestSendErrorWithoutAnswer(t *testing.T) {
	e := &SendError{App: Telegram, Reason: "dial tcp: lookup api.telegram.org: no such host"}
	if msg := e.Error(); strings.Contains(msg, "refused the message") || !strings.Contains(msg, "telegram could not be reached") ||
		!strings.Contains(msg, "no such host") {
		t.Errorf("Error() = %q, want that telegram could not be reached, with the cause", msg)
	}
	e = &SendError{App: WhatsApp, Status: 400, Reason: "Invalid parameter"}
	if msg := e.Error(); msg != "whatsapp refused the message: status 400: Invalid parameter" {
		t.Errorf("Error() = %q, want the refusal with its status and reason", msg)
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Do you have bread?", "Do you have bread?"},
		{"Olá, tudo bem? 🍞", "Olá, tudo bem? 🍞"},
		{"line one\nline two\ttab", "line one\nline two\ttab"},
		{"Windows\r\nbreak\rold Mac", "Windows\nbreak\nold Mac"},
		{"bell\a, nul\x00, esc\x1b[1m, del\x7f, c1\u0085", "bell, nul, esc[1m, del, c1"},
		{"bad \xff utf-8", "bad  utf-8"},
		{"\x00\x01", ""},
	}
	for _, tt := range tests {
		if got := CleanText(tt.in); got != tt.want {
			t.Errorf("CleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	m := Inbound{ID: "wamid.1", From: "351910000001", Name: "Ana\x1b", Kind: KindText, Text: "hi\x00 there"}.Cleaned()
	if m.Name != "Ana" || m.Text != "hi there" || !m.Answerable() {
		t.Errorf("Cleaned() = %+v, want the name and text without controls, answerable", m)
	}
}

func TestChoice(t *testing.T) {
	tests := []struct{ title, description, want string }{
		{"Cancel", "", "Cancel"},
		{" Priority Mail Express ", "Next Day to 2 Days", "Priority Mail Express — Next Day to 2 Days"},
		{"Opening hours", "  ", "Opening hours"},
		{"", "a description alone", ""},
		{"  ", "", ""},
	}
	for _, tt := range tests {
		if got := Choice(tt.title, tt.description); got != tt.want {
			t.Errorf("Choice(%q, %q) = %q, want %q", tt.title, tt.description, got, tt.want)
		}
	}
}

// TestInboxKey checks the keys inbound messages are recorded under: a Telegram update's names its
// bot (the same bot under a new token keeps it, another bot does not), a WhatsApp message's is
// its id alone.
func TestInboxKey(t *testing.T) {
	tests := []struct {
		name string
		app  App
		sec  Secrets
		id   string
		want string
	}{
		{"telegram", Telegram, Secrets{BotToken: "123456:secret-a"}, "42", "telegram:123456:42"},
		{"telegram, the same bot under a new token", Telegram, Secrets{BotToken: "123456:secret-b"}, "42", "telegram:123456:42"},
		{"telegram, another bot", Telegram, Secrets{BotToken: "777:secret-a"}, "42", "telegram:777:42"},
		{"telegram, a token without a bot id", Telegram, Secrets{BotToken: "secret"}, "42", "telegram::42"},
		{"whatsapp", WhatsApp, Secrets{AccessToken: "123456:x"}, "wamid.HBgL", "whatsapp:wamid.HBgL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewInbox(Connection{App: tt.app}, tt.sec).Key(tt.id); got != tt.want {
				t.Errorf("Key = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBotID(t *testing.T) {
	for token, want := range map[string]string{
		"123456:ABC-DEF1234ghIkl": "123456",
		"1:x":                     "1",
		":x":                      "",
		"abc:x":                   "",
		"123456":                  "",
		"-5:x":                    "",
		"123456789012345678901:x": "",
	} {
		if got := BotID(token); got != want {
			t.Errorf("BotID(%q) = %q, want %q", token, got, want)
		}
	}
}

// TestInboxKeep checks how long each app's records keep a second delivery out: Telegram's less
// than the week after which a bot's update_ids start afresh, WhatsApp's more than Meta's 7 days
// of deliveries again, and the records stored as long as the longest.
func TestInboxKeep(t *testing.T) {
	week := 7 * 24 * time.Hour
	if k := Telegram.InboxKeep(); k < 24*time.Hour || k >= week {
		t.Errorf("Telegram keeps %v, want at least Telegram's 24 hours of deliveries and less than a week", k)
	}
	if k := WhatsApp.InboxKeep(); k <= week {
		t.Errorf("WhatsApp keeps %v, want more than Meta's 7 days of deliveries", k)
	}
	for _, app := range []App{WhatsApp, Telegram} {
		if app.InboxKeep() > InboxRetention {
			t.Errorf("%s keeps %v, longer than the records are stored (%v)", app, app.InboxKeep(), InboxRetention)
		}
	}
}
