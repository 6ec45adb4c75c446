package console

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/profile"
)

// The agent page: what PATCH /v1/agent and PATCH /v1/agent/appearance change, through the same
// use cases (profiles.Service Update and UpdateAppearance). A refused value shows the form again
// with the field marked (forms.go); a change saved redirects back (Post/Redirect/Get).

// tones are the tone input's suggestions; the tone is the owner's own words.
var tones = []string{"friendly", "professional", "formal", "casual", "warm", "concise"}

// profileForm's inputs are the fields of PATCH /v1/agent, the contact's without "contact.".
var profileForm = form{name: "profile", inputs: []string{"business_name", "languages", "tone", "description", "instructions",
	"email", "phone", "address", "hours"}}

// appearanceForm has a greeting and suggestions input for each of langs (greeting-pt-br).
func appearanceForm(langs []string) form {
	f := form{name: "appearance", inputs: []string{"name", "avatar_url"}}
	for _, code := range langs {
		f.inputs = append(f.inputs, perLanguageInput("greeting", code), perLanguageInput("suggestions", code))
	}
	return f
}

func perLanguageInput(field, code string) string { return field + "-" + strings.ToLower(code) }

// languageNames name the languages the agent most often speaks, each in its own words; another
// code is shown as it is.
var languageNames = map[string]string{"en": "English", "pt": "Português", "pt-BR": "Português (Brasil)", "es": "Español"}

// languageLabel is how the agent page names a language of the agent: "Português (Brasil), pt-BR".
func languageLabel(code string) string {
	if name, ok := languageNames[code]; ok {
		return name + ", " + code
	}
	return code
}

// agentLanguages are the languages the appearance form has a greeting and suggestions for: the
// agent's, else the console's language (which the profile form also offers).
func agentLanguages(p profile.Profile, consoleLang string) []string {
	if len(p.Languages) > 0 {
		return p.Languages
	}
	return []string{consoleLang}
}

func (c *Console) agentPage(ctx *gin.Context) { c.agentPageWith(ctx, http.StatusOK, nil) }

func (c *Console) agentPageWith(ctx *gin.Context, status int, extra map[string]any) {
	p, err := c.uc.Profiles.Get(ctx, c.acct(ctx).ID)
	if err != nil {
		c.fail(ctx, err)
		return
	}
	type perLanguage struct{ Code, Label, Greeting, GreetingInput, Suggestions, SuggestionsInput string }
	var langs []perLanguage
	codes := agentLanguages(p, c.lang(ctx))
	for _, code := range codes {
		langs = append(langs, perLanguage{Code: code, Label: languageLabel(code), Greeting: p.Appearance.Greeting[code], GreetingInput: perLanguageInput("greeting", code),
			Suggestions: strings.Join(p.Appearance.Suggestions[code], "\n"), SuggestionsInput: perLanguageInput("suggestions", code)})
	}
	saved := ctx.Query("saved") // where a change redirects to (Post/Redirect/Get)
	data := map[string]any{"Profile": p, "Languages": strings.Join(codes, ", "), "PerLanguage": langs, "Tones": tones,
		"Saved": status == http.StatusOK && (saved == "profile" || saved == "appearance")}
	maps.Copy(data, extra)
	c.render(ctx, status, "agent", data)
}

// field is a form input: its name, the API's name of its field, its length limit and whether it
// is a textarea.
type field struct {
	input, api string
	max        int
	multiline  bool
}

// formFields reads the inputs the form holds, in order, each checked at the edge (text, the
// refusal naming the API's field) and with a textarea's CRLF made LF; the result is keyed by the
// API's field, an input the form lacks left out (nil: kept as it is).
func formFields(ctx *gin.Context, fields []field) (map[string]*string, error) {
	out := map[string]*string{}
	for _, f := range fields {
		if _, ok := ctx.GetPostForm(f.input); !ok {
			continue
		}
		v, err := text(ctx, f.input, f.max, f.multiline)
		if err != nil {
			return nil, named(err, f.input, f.api)
		}
		v = strings.ReplaceAll(v, "\r\n", "\n")
		out[f.api] = &v
	}
	return out, nil
}

// named returns err, a refusal of field from, as one of field to, its message naming to.
func named(err error, from, to string) error {
	e, ok := domain.AsError(err)
	if !ok || e.Field != from {
		return err
	}
	msg := e.Message
	if rest, ok := strings.CutPrefix(msg, from); ok {
		msg = to + rest
	}
	args := slices.Clone(e.Args)
	for i, a := range args {
		if a == any(from) {
			args[i] = to
		}
	}
	return &domain.Error{Code: e.Code, Field: to, Message: msg, Err: err, Format: e.Format, Args: args}
}

// agentProfile saves the profile form: the same change as PATCH /v1/agent with the fields the form
// holds (a field left out keeps its value).
func (c *Console) agentProfile(ctx *gin.Context) {
	f, err := formFields(ctx, []field{{"business_name", "business_name", profile.MaxBusinessName, false}, {"languages", "languages", 200, false},
		{"tone", "tone", profile.MaxTone, false}, {"description", "description", profile.MaxDescription, true},
		{"instructions", "instructions", profile.MaxInstructions, true}, {"email", "contact.email", profile.MaxContactField, false},
		{"phone", "contact.phone", profile.MaxContactField, false}, {"address", "contact.address", profile.MaxContactField, false},
		{"hours", "contact.hours", profile.MaxContactField, false}})
	if err == nil {
		patch := profile.Patch{BusinessName: f["business_name"], Tone: f["tone"], Description: f["description"], Instructions: f["instructions"],
			Contact: &profile.ContactPatch{Email: f["contact.email"], Phone: f["contact.phone"], Address: f["contact.address"], Hours: f["contact.hours"]}}
		if l := f["languages"]; l != nil {
			langs := strings.FieldsFunc(*l, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' })
			patch.Languages = &langs
		}
		_, err = c.uc.Profiles.Update(ctx, c.acct(ctx).ID, patch)
	}
	if err != nil {
		c.refuse(ctx, err, profileForm, c.agentPageWith)
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
	codes := agentLanguages(p, c.lang(ctx))
	fields := []field{{"name", "name", profile.MaxDisplayName, false}, {"avatar_url", "avatar_url", profile.MaxURL, false}}
	for _, code := range codes {
		fields = append(fields, field{perLanguageInput("greeting", code), "greeting." + code, profile.MaxGreeting, false},
			field{perLanguageInput("suggestions", code), "suggestions." + code, (profile.MaxSuggestion + 2) * (profile.MaxSuggestions + 1), true})
	}
	f, err := formFields(ctx, fields)
	if err == nil {
		patch := profile.AppearancePatch{Name: f["name"], AvatarURL: f["avatar_url"], Greeting: map[string]*string{}, Suggestions: map[string]*[]string{}}
		for _, code := range codes {
			if v := f["greeting."+code]; v != nil {
				patch.Greeting[code] = v
			}
			if v := f["suggestions."+code]; v != nil {
				list := []string{}
				for _, line := range strings.Split(*v, "\n") {
					if line = strings.TrimSpace(line); line != "" {
						list = append(list, line)
					}
				}
				patch.Suggestions[code] = &list
			}
		}
		_, err = c.uc.Profiles.UpdateAppearance(ctx, acct.ID, patch)
	}
	if err != nil {
		// The domain names a language's field greeting.pt-BR; the form's input is greeting-pt-br.
		if e, ok := domain.AsError(err); ok {
			if i := slices.IndexFunc(fields, func(f field) bool { return f.api == e.Field }); i >= 0 {
				err = &domain.Error{Code: e.Code, Field: fields[i].input, Message: e.Message, Err: err, Format: e.Format, Args: e.Args}
			}
		}
		c.refuse(ctx, err, appearanceForm(codes), c.agentPageWith)
		return
	}
	back(ctx, "/agent?saved=appearance")
}
