package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain/profile"
)

// The agent page: what PATCH /v1/agent and PATCH /v1/agent/appearance change, through the same
// use cases (profiles.Service Update and UpdateAppearance). The form's fields are named as the
// API's (business_name, contact.email, greeting.pt-BR …), so an error's field names the input.

// tones are the tone input's suggestions; the tone is the owner's own words.
var tones = []string{"friendly", "professional", "formal", "casual", "warm", "concise"}

// agentLanguages are the languages the appearance form has a greeting and suggestions for: the
// agent's, else the console's language (which the profile form also offers).
func agentLanguages(p profile.Profile, consoleLang string) []string {
	if len(p.Languages) > 0 {
		return p.Languages
	}
	return []string{consoleLang}
}

func (c *Console) agentPage(ctx *gin.Context) {
	p, err := c.uc.Profiles.Get(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	type perLanguage struct{ Code, Greeting, Suggestions string }
	var langs []perLanguage
	for _, code := range agentLanguages(p, c.lang(ctx)) {
		langs = append(langs, perLanguage{Code: code, Greeting: p.Appearance.Greeting[code],
			Suggestions: strings.Join(p.Appearance.Suggestions[code], "\n")})
	}
	saved := ctx.Query("saved") // where a change redirects to (Post/Redirect/Get)
	c.render(ctx, http.StatusOK, "agent", map[string]any{"Profile": p, "Languages": strings.Join(agentLanguages(p, c.lang(ctx)), ", "),
		"PerLanguage": langs, "Tones": tones, "Saved": saved == "profile" || saved == "appearance"})
}

// field is a form field: its name, its length limit and whether it is a textarea.
type field struct {
	name      string
	max       int
	multiline bool
}

// formFields reads the fields the form holds, in order, each checked at the edge (text) and with a
// textarea's CRLF made LF; a field the form lacks is left out (nil: kept as it is).
func formFields(ctx *gin.Context, fields []field) (map[string]*string, error) {
	out := map[string]*string{}
	for _, f := range fields {
		if _, ok := ctx.GetPostForm(f.name); !ok {
			continue
		}
		v, err := text(ctx, f.name, f.max, f.multiline)
		if err != nil {
			return nil, err
		}
		v = strings.ReplaceAll(v, "\r\n", "\n")
		out[f.name] = &v
	}
	return out, nil
}

// agentProfile saves the profile form: the same change as PATCH /v1/agent with the fields the form
// holds (a field left out keeps its value).
func (c *Console) agentProfile(ctx *gin.Context) {
	f, err := formFields(ctx, []field{{"business_name", profile.MaxBusinessName, false}, {"languages", 200, false},
		{"tone", profile.MaxTone, false}, {"description", profile.MaxDescription, true}, {"instructions", profile.MaxInstructions, true},
		{"contact.email", profile.MaxContactField, false}, {"contact.phone", profile.MaxContactField, false},
		{"contact.address", profile.MaxContactField, false}, {"contact.hours", profile.MaxContactField, false}})
	if err != nil {
		c.fail(ctx, err)
		return
	}
	patch := profile.Patch{BusinessName: f["business_name"], Tone: f["tone"], Description: f["description"], Instructions: f["instructions"],
		Contact: &profile.ContactPatch{Email: f["contact.email"], Phone: f["contact.phone"], Address: f["contact.address"], Hours: f["contact.hours"]}}
	if l := f["languages"]; l != nil {
		langs := strings.FieldsFunc(*l, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' })
		patch.Languages = &langs
	}
	if _, err := c.uc.Profiles.Update(ctx, c.acct(ctx).ID, patch); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/agent?saved=profile")
}

// agentAppearance saves the appearance form: the same change as PATCH /v1/agent/appearance, with a
// greeting and suggestions (one a line) for each of the agent's languages the form holds; an empty
// one is removed, the other languages' are kept.
func (c *Console) agentAppearance(ctx *gin.Context) {
	acct := c.acct(ctx)
	p, err := c.uc.Profiles.Get(ctx, acct.ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	fields := []field{{"name", profile.MaxDisplayName, false}, {"avatar_url", profile.MaxURL, false}}
	for _, code := range agentLanguages(p, c.lang(ctx)) {
		fields = append(fields, field{"greeting." + code, profile.MaxGreeting, false},
			field{"suggestions." + code, (profile.MaxSuggestion + 2) * (profile.MaxSuggestions + 1), true})
	}
	f, err := formFields(ctx, fields)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	patch := profile.AppearancePatch{Name: f["name"], AvatarURL: f["avatar_url"], Greeting: map[string]*string{}, Suggestions: map[string]*[]string{}}
	for name, v := range f {
		if code, ok := strings.CutPrefix(name, "greeting."); ok {
			patch.Greeting[code] = v
		} else if code, ok := strings.CutPrefix(name, "suggestions."); ok {
			list := []string{}
			for _, line := range strings.Split(*v, "\n") {
				if line = strings.TrimSpace(line); line != "" {
					list = append(list, line)
				}
			}
			patch.Suggestions[code] = &list
		}
	}
	if _, err := c.uc.Profiles.UpdateAppearance(ctx, acct.ID, patch); err != nil {
		c.fail(ctx, err)
		return
	}
	back(ctx, "/agent?saved=appearance")
}
