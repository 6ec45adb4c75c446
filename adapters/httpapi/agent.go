package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain/profile"
)

// GET /v1/agent, PATCH /v1/agent, PATCH /v1/agent/appearance

type contactJSON struct {
	Email   string `json:"email"`
	Phone   string `json:"phone"`
	Address string `json:"address"`
	Hours   string `json:"hours"`
}

type appearanceJSON struct {
	Name        string              `json:"name"`
	AvatarURL   string              `json:"avatar_url"`
	Greeting    map[string]string   `json:"greeting"`
	Suggestions map[string][]string `json:"suggestions"`
}

type agentJSON struct {
	Object       string         `json:"object"`
	BusinessName string         `json:"business_name"`
	Languages    []string       `json:"languages"`
	Tone         string         `json:"tone"`
	Description  string         `json:"description"`
	Instructions string         `json:"instructions"`
	Contact      contactJSON    `json:"contact"`
	Channels     channelsJSON   `json:"channels"`
	Appearance   appearanceJSON `json:"appearance"`
	Configured   bool           `json:"configured"`
	UpdatedAt    *string        `json:"updated_at"`
}

func appearanceOf(a profile.Appearance) appearanceJSON {
	out := appearanceJSON{Name: a.Name, AvatarURL: a.AvatarURL, Greeting: a.Greeting, Suggestions: a.Suggestions}
	if out.Greeting == nil {
		out.Greeting = map[string]string{}
	}
	if out.Suggestions == nil {
		out.Suggestions = map[string][]string{}
	}
	return out
}

func agentOf(p profile.Profile) agentJSON {
	langs := p.Languages
	if langs == nil {
		langs = []string{}
	}
	out := agentJSON{
		Object:       "agent",
		BusinessName: p.BusinessName,
		Languages:    langs,
		Tone:         p.Tone,
		Description:  p.Description,
		Instructions: p.Instructions,
		Contact:      contactJSON(p.Contact),
		Channels:     channelsJSON{API: p.Channels.API, Web: p.Channels.Web, Messaging: p.Channels.Messaging},
		Appearance:   appearanceOf(p.Appearance),
		Configured:   p.Configured(),
	}
	if !p.UpdatedAt.IsZero() {
		s := stamp(p.UpdatedAt)
		out.UpdatedAt = &s
	}
	return out
}

// agentPatchJSON is the body of PATCH /v1/agent: every field optional.
type agentPatchJSON struct {
	BusinessName *string   `json:"business_name"`
	Languages    *[]string `json:"languages"`
	Tone         *string   `json:"tone"`
	Description  *string   `json:"description"`
	Instructions *string   `json:"instructions"`
	Contact      *struct {
		Email   *string `json:"email"`
		Phone   *string `json:"phone"`
		Address *string `json:"address"`
		Hours   *string `json:"hours"`
	} `json:"contact"`
	Channels *struct {
		API       *bool `json:"api"`
		Web       *bool `json:"web"`
		Messaging *bool `json:"messaging"`
	} `json:"channels"`
}

func (b agentPatchJSON) patch() profile.Patch {
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

// appearancePatchJSON is the body of PATCH /v1/agent/appearance.
type appearancePatchJSON struct {
	Name        *string              `json:"name"`
	AvatarURL   *string              `json:"avatar_url"`
	Greeting    map[string]*string   `json:"greeting"`
	Suggestions map[string]*[]string `json:"suggestions"`
}

func (s *Server) getAgent(c *gin.Context) {
	p, _ := principal(c)
	prof, err := s.uc.Profiles.Get(c.Request.Context(), p.Account.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, agentOf(prof))
}

func (s *Server) patchAgent(c *gin.Context) {
	p, _ := principal(c)
	var body agentPatchJSON
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	prof, err := s.uc.Profiles.Update(c.Request.Context(), p.Account.ID, body.patch())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, agentOf(prof))
}

func (s *Server) patchAppearance(c *gin.Context) {
	p, _ := principal(c)
	var body appearancePatchJSON
	if err := decodeJSON(c, &body); err != nil {
		s.fail(c, err)
		return
	}
	prof, err := s.uc.Profiles.UpdateAppearance(c.Request.Context(), p.Account.ID, profile.AppearancePatch{
		Name: body.Name, AvatarURL: body.AvatarURL, Greeting: body.Greeting, Suggestions: body.Suggestions})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, agentOf(prof))
}
