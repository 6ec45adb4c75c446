// Package owner holds the owner's sign-in to the console: the credential (an e-mail and a
// password hash) and the server-side sessions it opens.
package owner

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// Password bounds: at least MinPassword characters, at most MaxPasswordBytes bytes (bcrypt reads
// no further).
const (
	MinPassword      = 10
	MaxPasswordBytes = 72
)

// SessionTTL is how long a console session lasts from sign-in.
const SessionTTL = 7 * 24 * time.Hour

// TokenPrefix starts every console session token (the cookie's value).
const TokenPrefix = "svc_os_"

// Credential is what signs an owner in to the account's console. Hash is the password's hash.
type Credential struct {
	AccountID string
	Email     string
	Hash      string
	UpdatedAt time.Time
}

// Session is a signed-in owner. Only the hash of its token is kept.
type Session struct {
	Hash      string
	AccountID string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// NewSession is a session of accountID for the token of hash, opened at now.
func NewSession(hash, accountID string, now time.Time) Session {
	return Session{Hash: hash, AccountID: accountID, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
}

// Expired reports whether the session is over at now.
func (s Session) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

// NormalizeEmail is the form an e-mail is stored and looked up in: trimmed, lower case.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidateEmail checks a sign-in e-mail: one @ with text on both sides, no spaces or angle
// brackets, at most 254 bytes.
func ValidateEmail(email string) error {
	at := strings.LastIndexByte(email, '@')
	if email == "" || at <= 0 || at == len(email)-1 || len(email) > 254 ||
		strings.ContainsAny(email, " \t\r\n<>") || !utf8.ValidString(email) {
		return domain.Invalid("email", "email is not an e-mail address")
	}
	return nil
}

// ValidatePassword checks a new password: MinPassword characters or more, at most
// MaxPasswordBytes bytes, valid UTF-8 without control characters.
func ValidatePassword(p string) error {
	switch {
	case !utf8.ValidString(p):
		return domain.Invalid("password", "password must be valid UTF-8")
	case utf8.RuneCountInString(p) < MinPassword:
		return domain.Invalid("password", "password must have at least %d characters", MinPassword)
	case len(p) > MaxPasswordBytes:
		return domain.Invalid("password", "password must be at most %d bytes", MaxPasswordBytes)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return domain.Invalid("password", "password must not contain control characters")
		}
	}
	return nil
}

// LooksLikeToken reports whether s has the form of a console session token.
func LooksLikeToken(s string) bool {
	return strings.HasPrefix(s, TokenPrefix) && len(s) >= len(TokenPrefix)+32 && len(s) <= 200
}

// SafeNext returns where to go after sign-in: next when it is a path on this site ("/…", not
// "//…" nor "/\…", no control characters), else fallback. It stops an open redirect.
func SafeNext(next, fallback string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		len(next) > 2000 || !utf8.ValidString(next) {
		return fallback
	}
	for _, r := range next {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return fallback
		}
	}
	return next
}
