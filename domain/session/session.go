// Package session holds client sessions: short-lived tokens that let an app chat in one
// conversation without the secret API key.
package session

import (
	"strings"
	"time"

	"github.com/svcagent/svc/domain"
)

// TokenPrefix starts every client session token.
const TokenPrefix = "svc_cs_"

// TTL bounds, in minutes (spec part 8).
const (
	MinTTL     = 5
	MaxTTL     = 1440
	DefaultTTL = 60
)

// Session is a client session bound to one conversation. Only the token's hash is kept.
type Session struct {
	ID             string
	AccountID      string
	KeyID          string // the API key that created it: revoking the key revokes the session
	ConversationID string
	CustomerName   string
	Hash           string
	ExpiresAt      time.Time
	CreatedAt      time.Time
}

// TTL checks ttl_minutes (0 means the default) and returns the lifetime.
func TTL(minutes int, given bool) (time.Duration, error) {
	if !given {
		minutes = DefaultTTL
	}
	if minutes < MinTTL || minutes > MaxTTL {
		return 0, domain.Invalid("ttl_minutes", "ttl_minutes must be between %d and %d", MinTTL, MaxTTL)
	}
	return time.Duration(minutes) * time.Minute, nil
}

// Expired reports whether the session is over at now.
func (s Session) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

// LooksLikeToken reports whether s has the form of a client token.
func LooksLikeToken(s string) bool {
	return strings.HasPrefix(s, TokenPrefix) && len(s) >= len(TokenPrefix)+32 && len(s) <= 200
}
