// Package profile holds what the owner tells the agent (app/chat) about the business: its name,
// languages, tone, contact, the chat's appearance and the channel switches, with the rules a change
// must follow. The interface calls it "the agent" (/v1/agent); in the code the agent is the one that
// answers customers, and this is its profile.
package profile

import (
	"strings"
	"time"

	"github.com/svcagent/svc/domain/language"
)

// Channels says which channels the owner has switched on.
type Channels struct {
	API       bool
	Web       bool
	Messaging bool
}

// AllOn is the default: every channel answers.
var AllOn = Channels{API: true, Web: true, Messaging: true}

// Contact is how customers reach the business when the agent cannot help.
type Contact struct {
	Email   string
	Phone   string
	Address string
	Hours   string
}

// Empty reports whether no contact detail is set.
func (c Contact) Empty() bool { return c == Contact{} }

// Appearance is how the chat looks: the agent's display name, avatar, the greeting and the
// suggested questions per language code.
type Appearance struct {
	Name        string
	AvatarURL   string
	Greeting    map[string]string
	Suggestions map[string][]string
}

// Profile is the agent of one account.
type Profile struct {
	AccountID    string
	BusinessName string
	Languages    []string
	Tone         string
	Description  string
	Instructions string
	Contact      Contact
	Channels     Channels
	Appearance   Appearance
	UpdatedAt    time.Time
}

// Default returns the profile of an account whose owner has not set anything yet.
func Default(accountID string) Profile {
	return Profile{
		AccountID:  accountID,
		Languages:  []string{},
		Channels:   AllOn,
		Appearance: Appearance{Greeting: map[string]string{}, Suggestions: map[string][]string{}},
	}
}

// Configured reports whether the agent may reply: it needs a business name.
func (p Profile) Configured() bool { return strings.TrimSpace(p.BusinessName) != "" }

// DisplayName is the name the chat shows: the appearance's name, else the business name.
func (p Profile) DisplayName() string {
	if p.Appearance.Name != "" {
		return p.Appearance.Name
	}
	return p.BusinessName
}

// Language returns the agent's first language, or "en".
func (p Profile) Language() string {
	if len(p.Languages) > 0 {
		return p.Languages[0]
	}
	return "en"
}

// ReplyLanguage is the language to answer message in: the message's own when the service speaks
// it, in the profile's regional form (pt-BR) when the profile has one; else the agent's first
// language.
func (p Profile) ReplyLanguage(message string) string {
	return p.Speaking(language.Detect(message, language.Base(p.Language())))
}

// Speaking is the code the agent answers in for a language lang ("en", "pt", "es"): the
// profile's regional form of it (pt-BR) when the profile has one, else lang.
func (p Profile) Speaking(lang string) string {
	for _, l := range p.Languages {
		if language.Base(l) == lang {
			return l
		}
	}
	return lang
}
