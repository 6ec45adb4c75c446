// Package agent holds the account's AI agent: its business profile and channel switches.
package agent

import (
	"strings"
	"time"
)

// Channels says which channels the owner has switched on.
type Channels struct {
	API       bool
	Web       bool
	Messaging bool
}

// AllOn is the default: every channel answers.
var AllOn = Channels{API: true, Web: true, Messaging: true}

// Profile is the agent of one account.
type Profile struct {
	AccountID    string
	BusinessName string
	Languages    []string
	Tone         string
	Channels     Channels
	UpdatedAt    time.Time
}

// Default returns the profile of an account whose owner has not set anything yet.
func Default(accountID string) Profile {
	return Profile{AccountID: accountID, Channels: AllOn}
}

// Configured reports whether the agent may reply: it needs a business name.
func (p Profile) Configured() bool { return strings.TrimSpace(p.BusinessName) != "" }
