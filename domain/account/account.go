// Package account holds the business account, its API keys and the rules that guard them.
package account

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// Status says whether an account may use the service.
type Status string

// The account statuses.
const (
	Active   Status = "active"
	Inactive Status = "inactive"
)

// ParseStatus validates a status name.
func ParseStatus(s string) (Status, error) {
	switch Status(s) {
	case Active, Inactive:
		return Status(s), nil
	}
	return "", domain.Invalid("status", "status must be %q or %q", Active, Inactive)
}

// Account is one business using the service. Plan names a plan of the configured plan table;
// InteractionLimit, when above zero, replaces the plan's allowance for this account.
type Account struct {
	ID               string
	Name             string
	Plan             string
	InteractionLimit int
	Status           Status
	OwnerEmail       string
	WidgetToken      string
	AllowedDomains   []string
	DeveloperBonus   bool
	// DeveloperSince is when a key of the account first completed an MCP initialize (zero:
	// never), and DeveloperClient the client that did, "name version".
	DeveloperSince  time.Time
	DeveloperClient string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// MaxNameLength bounds an account name.
const MaxNameLength = 200

// ValidateName checks an account name: 1 to MaxNameLength characters, not blank.
func ValidateName(name string) error {
	n := utf8.RuneCountInString(strings.TrimSpace(name))
	if n == 0 {
		return domain.Invalid("name", "name is required")
	}
	if n > MaxNameLength {
		return domain.Invalid("name", "name must be at most %d characters", MaxNameLength)
	}
	return nil
}

// ValidateEmail does the light check an owner e-mail gets: empty, or one @ with text on both sides.
func ValidateEmail(email string) error {
	if email == "" {
		return nil
	}
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 || strings.ContainsAny(email, " \t\r\n<>") {
		return domain.Invalid("owner_email", "owner_email is not an e-mail address")
	}
	return nil
}

// Usable returns the error a request gets when the account may not be used: 403 account_inactive.
func (a Account) Usable() error {
	if a.Status != Active {
		return domain.Errorf(domain.CodeAccountInactive, "the account that owns this key is not active")
	}
	return nil
}

// KeyPrefix starts every secret API key.
const KeyPrefix = "svc_live_"

// Key is an API key. Only its hash is kept; Last4 lets a person recognise it.
type Key struct {
	ID                  string
	AccountID           string
	Name                string
	Hash                string
	Last4               string
	SendWithoutApproval bool
	CreatedAt           time.Time
	RevokedAt           time.Time
	// LastUsedAt is when the key last authenticated a request, to the minute (zero: never).
	LastUsedAt time.Time
}

// Revoked reports whether the key was revoked.
func (k Key) Revoked() bool { return !k.RevokedAt.IsZero() }

// HashSecret returns the stored form of a secret token (API key, client token, plugin token):
// the hex SHA-256. The tokens carry at least 32 random bytes, so a fast hash is enough.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// LooksLikeKey reports whether s has the form of an API key (prefix and a plausible length),
// so that other credentials are turned away before any lookup.
func LooksLikeKey(s string) bool {
	return strings.HasPrefix(s, KeyPrefix) && len(s) >= len(KeyPrefix)+32 && len(s) <= 200
}

// Last4Of returns the last four characters of a secret, for display.
func Last4Of(secret string) string {
	if len(secret) < 4 {
		return secret
	}
	return secret[len(secret)-4:]
}
