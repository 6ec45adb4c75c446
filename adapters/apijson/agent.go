package apijson

import "github.com/svcagent/svc/domain/profile"

// Contact is the agent's contact details.
type Contact struct {
	Email   string `json:"email"`
	Phone   string `json:"phone"`
	Address string `json:"address"`
	Hours   string `json:"hours"`
}

// Appearance is how the agent shows itself on the web channel.
type Appearance struct {
	Name        string              `json:"name"`
	AvatarURL   string              `json:"avatar_url"`
	Greeting    map[string]string   `json:"greeting"`
	Suggestions map[string][]string `json:"suggestions"`
}

// Agent is the body of GET and PATCH /v1/agent and PATCH /v1/agent/appearance (the get_agent,
// update_agent and update_appearance tools).
type Agent struct {
	Object       string     `json:"object"`
	BusinessName string     `json:"business_name"`
	Languages    []string   `json:"languages"`
	Tone         string     `json:"tone"`
	Description  string     `json:"description"`
	Instructions string     `json:"instructions"`
	Contact      Contact    `json:"contact"`
	Channels     Channels   `json:"channels"`
	Appearance   Appearance `json:"appearance"`
	Configured   bool       `json:"configured"`
	UpdatedAt    *string    `json:"updated_at"`
}

// AppearanceOf is a as the API gives it: no nil maps.
func AppearanceOf(a profile.Appearance) Appearance {
	out := Appearance{Name: a.Name, AvatarURL: a.AvatarURL, Greeting: a.Greeting, Suggestions: a.Suggestions}
	if out.Greeting == nil {
		out.Greeting = map[string]string{}
	}
	if out.Suggestions == nil {
		out.Suggestions = map[string][]string{}
	}
	return out
}

// AgentOf is the agent of profile p.
func AgentOf(p profile.Profile) Agent {
	langs := p.Languages
	if langs == nil {
		langs = []string{}
	}
	out := Agent{
		Object:       "agent",
		BusinessName: p.BusinessName,
		Languages:    langs,
		Tone:         p.Tone,
		Description:  p.Description,
		Instructions: p.Instructions,
		Contact:      Contact(p.Contact),
		Channels:     Channels{API: p.Channels.API, Web: p.Channels.Web, Messaging: p.Channels.Messaging},
		Appearance:   AppearanceOf(p.Appearance),
		Configured:   p.Configured(),
	}
	if !p.UpdatedAt.IsZero() {
		s := Stamp(p.UpdatedAt)
		out.UpdatedAt = &s
	}
	return out
}

// AgentPatch is the body of PATCH /v1/agent (the update_agent tool's arguments): every field
// optional.
type AgentPatch struct {
	BusinessName *string   `json:"business_name,omitempty" jsonschema:"the business's name"`
	Languages    *[]string `json:"languages,omitempty" jsonschema:"the languages the agent answers in, e.g. [\"en\",\"pt-BR\"]"`
	Tone         *string   `json:"tone,omitempty" jsonschema:"the agent's tone of voice"`
	Description  *string   `json:"description,omitempty" jsonschema:"what the business does"`
	Instructions *string   `json:"instructions,omitempty" jsonschema:"standing instructions for the agent"`
	Contact      *struct {
		Email   *string `json:"email,omitempty"`
		Phone   *string `json:"phone,omitempty"`
		Address *string `json:"address,omitempty"`
		Hours   *string `json:"hours,omitempty"`
	} `json:"contact,omitempty" jsonschema:"the contact details the agent may give"`
	Channels *struct {
		API       *bool `json:"api,omitempty"`
		Web       *bool `json:"web,omitempty"`
		Messaging *bool `json:"messaging,omitempty"`
	} `json:"channels,omitempty" jsonschema:"the channels the agent answers on"`
}

// Patch is the profile change of b.
func (b AgentPatch) Patch() profile.Patch {
	p := profile.Patch{BusinessName: b.BusinessName, Languages: b.Languages, Tone: b.Tone,
		Description: b.Description, Instructions: b.Instructions}
	if b.Contact != nil {
		p.Contact = &profile.ContactPatch{Email: b.Contact.Email, Phone: b.Contact.Phone, Address: b.Contact.Address, Hours: b.Contact.Hours}
	}
	if b.Channels != nil {
		p.Channels = &profile.ChannelsPatch{API: b.Channels.API, Web: b.Channels.Web, Messaging: b.Channels.Messaging}
	}
	return p
}

// AppearancePatch is the body of PATCH /v1/agent/appearance (the update_appearance tool's
// arguments).
type AppearancePatch struct {
	Name        *string              `json:"name,omitempty" jsonschema:"the name the agent shows"`
	AvatarURL   *string              `json:"avatar_url,omitempty" jsonschema:"an https URL of the avatar image"`
	Greeting    map[string]*string   `json:"greeting,omitempty" jsonschema:"the greeting per language; null removes one"`
	Suggestions map[string]*[]string `json:"suggestions,omitempty" jsonschema:"suggested first questions per language; null removes a language"`
}

// Patch is the appearance change of b.
func (b AppearancePatch) Patch() profile.AppearancePatch {
	return profile.AppearancePatch{Name: b.Name, AvatarURL: b.AvatarURL, Greeting: b.Greeting, Suggestions: b.Suggestions}
}
