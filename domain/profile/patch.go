package profile

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
)

// Limits of the profile's texts, in characters.
const (
	MaxBusinessName = 200
	MaxTone         = 200
	MaxDescription  = 2000
	MaxInstructions = 4000
	MaxLanguages    = 10
	MaxContactField = 500
	MaxDisplayName  = 100
	MaxURL          = 2048
	MaxGreeting     = 500
	MaxSuggestions  = 6
	MaxSuggestion   = 120
	MaxLanguageKeys = 20
)

// Patch is a partial change of the profile: a nil field keeps its value.
type Patch struct {
	BusinessName *string
	Languages    *[]string
	Tone         *string
	Description  *string
	Instructions *string
	Contact      *ContactPatch
	Channels     *ChannelsPatch
}

// ContactPatch is a partial change of the contact details.
type ContactPatch struct {
	Email, Phone, Address, Hours *string
}

// ChannelsPatch is a partial change of the channel switches.
type ChannelsPatch struct {
	API, Web, Messaging *bool
}

// AppearancePatch is a partial change of the appearance. Greeting and Suggestions merge per
// language: a language given with a nil value is removed.
type AppearancePatch struct {
	Name        *string
	AvatarURL   *string
	Greeting    map[string]*string
	Suggestions map[string]*[]string
}

// Apply validates the patch and applies it to p. On error p is unchanged.
func (p *Profile) Apply(ch Patch) error {
	next := *p
	if ch.BusinessName != nil {
		name, err := text("business_name", *ch.BusinessName, MaxBusinessName, true)
		if err != nil {
			return err
		}
		next.BusinessName = name
	}
	if ch.Languages != nil {
		langs, err := languages(*ch.Languages)
		if err != nil {
			return err
		}
		next.Languages = langs
	}
	if ch.Tone != nil {
		tone, err := text("tone", *ch.Tone, MaxTone, false)
		if err != nil {
			return err
		}
		if strings.ContainsAny(tone, "\r\n") {
			return domain.Invalid("tone", "tone must be one line, such as \"friendly\" or \"warm and concise\"")
		}
		next.Tone = tone
	}
	for _, f := range []struct {
		name string
		src  *string
		dst  *string
		max  int
	}{
		{"description", ch.Description, &next.Description, MaxDescription},
		{"instructions", ch.Instructions, &next.Instructions, MaxInstructions},
	} {
		if f.src == nil {
			continue
		}
		v, err := text(f.name, *f.src, f.max, false)
		if err != nil {
			return err
		}
		*f.dst = v
	}
	if ch.Contact != nil {
		c, err := applyContact(next.Contact, *ch.Contact)
		if err != nil {
			return err
		}
		next.Contact = c
	}
	if ch.Channels != nil {
		setBool(&next.Channels.API, ch.Channels.API)
		setBool(&next.Channels.Web, ch.Channels.Web)
		setBool(&next.Channels.Messaging, ch.Channels.Messaging)
	}
	*p = next
	return nil
}

// ApplyAppearance validates the patch and applies it to p's appearance. On error p is unchanged.
func (p *Profile) ApplyAppearance(ch AppearancePatch) error {
	next := p.Appearance
	if ch.Name != nil {
		name, err := text("name", *ch.Name, MaxDisplayName, false)
		if err != nil {
			return err
		}
		next.Name = name
	}
	if ch.AvatarURL != nil {
		u := strings.TrimSpace(*ch.AvatarURL)
		if u != "" && !webURL(u) {
			return domain.Invalid("avatar_url", "avatar_url must be an absolute http(s) URL of at most %d characters", MaxURL)
		}
		next.AvatarURL = u
	}
	if ch.Greeting != nil {
		if err := distinctLanguages("greeting", keys(ch.Greeting)); err != nil {
			return err
		}
		g := copyMap(next.Greeting)
		for _, lang := range keys(ch.Greeting) { // in order: the same patch is refused the same way
			v := ch.Greeting[lang]
			code, err := languageKey("greeting", lang)
			if err != nil {
				return err
			}
			if v == nil || !domain.HasVisible(*v) { // blank: no greeting
				delete(g, code)
				continue
			}
			t, err := text("greeting."+code, *v, MaxGreeting, true)
			if err != nil {
				return err
			}
			g[code] = t
		}
		if len(g) > MaxLanguageKeys {
			return domain.Invalid("greeting", "greeting may hold at most %d languages", MaxLanguageKeys)
		}
		next.Greeting = g
	}
	if ch.Suggestions != nil {
		if err := distinctLanguages("suggestions", keys(ch.Suggestions)); err != nil {
			return err
		}
		s := copyMap(next.Suggestions)
		for _, lang := range keys(ch.Suggestions) {
			v := ch.Suggestions[lang]
			code, err := languageKey("suggestions", lang)
			if err != nil {
				return err
			}
			if v == nil || len(*v) == 0 {
				delete(s, code)
				continue
			}
			if len(*v) > MaxSuggestions {
				return domain.Invalid("suggestions."+code, "at most %d suggestions per language", MaxSuggestions)
			}
			list := make([]string, 0, len(*v))
			for j, item := range *v {
				t, err := text("suggestions."+code+"["+strconv.Itoa(j)+"]", item, MaxSuggestion, true)
				if err != nil {
					return err
				}
				list = append(list, t)
			}
			s[code] = list
		}
		if len(s) > MaxLanguageKeys {
			return domain.Invalid("suggestions", "suggestions may hold at most %d languages", MaxLanguageKeys)
		}
		next.Suggestions = s
	}
	p.Appearance = next
	return nil
}

func applyContact(c Contact, ch ContactPatch) (Contact, error) {
	if ch.Email != nil {
		e := strings.TrimSpace(*ch.Email)
		if e != "" && !email(e) {
			return c, domain.Invalid("contact.email", "contact.email is not an e-mail address")
		}
		c.Email = e
	}
	for _, f := range []struct {
		name string
		src  *string
		dst  *string
	}{
		{"contact.phone", ch.Phone, &c.Phone},
		{"contact.address", ch.Address, &c.Address},
		{"contact.hours", ch.Hours, &c.Hours},
	} {
		if f.src == nil {
			continue
		}
		v, err := text(f.name, *f.src, MaxContactField, false)
		if err != nil {
			return c, err
		}
		*f.dst = v
	}
	return c, nil
}

var langPattern = regexp.MustCompile(`^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$`)

// NormalizeLanguage checks a language code (en, pt, pt-BR, es, zh-Hant …) and puts it in its usual
// case: the language lower case, a two-letter region upper case.
func NormalizeLanguage(code string) (string, bool) {
	code = strings.TrimSpace(strings.ReplaceAll(code, "_", "-"))
	if !langPattern.MatchString(code) {
		return "", false
	}
	lang, region, found := strings.Cut(code, "-")
	lang = strings.ToLower(lang)
	if !found {
		return lang, true
	}
	if len(region) == 2 {
		return lang + "-" + strings.ToUpper(region), true
	}
	return lang + "-" + strings.ToUpper(region[:1]) + strings.ToLower(region[1:]), true
}

func languages(in []string) ([]string, error) {
	if len(in) == 0 {
		return nil, domain.Invalid("languages", "languages needs at least one language code")
	}
	if len(in) > MaxLanguages {
		return nil, domain.Invalid("languages", "at most %d languages", MaxLanguages)
	}
	out := make([]string, 0, len(in))
	for i, code := range in {
		norm, ok := NormalizeLanguage(code)
		if !ok {
			at := "languages[" + strconv.Itoa(i) + "]"
			return nil, domain.Invalid(at, "%s is not a language code such as en, pt, pt-BR or es", domain.Quote(code))
		}
		if !slices.Contains(out, norm) {
			out = append(out, norm)
		}
	}
	return out, nil
}

func languageKey(field, code string) (string, error) {
	norm, ok := NormalizeLanguage(code)
	if !ok {
		return "", domain.Invalid(field, "%s is not a language code such as en, pt, pt-BR or es", domain.Quote(code))
	}
	return norm, nil
}

// text trims s and checks its length and that it holds no control characters but line breaks
// and tabs. A text of invisible characters only (zero-width spaces) is blank, as one of spaces:
// "" when optional (a display name of them would hide the business name), refused when required.
func text(field, s string, max int, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if required && s == "" {
		return "", domain.Invalid(field, "%s must not be empty", field)
	}
	if !utf8.ValidString(s) {
		return "", domain.Invalid(field, "%s is not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", domain.Invalid(field, "%s must be at most %d characters (got %d)", field, max, n)
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return "", domain.Invalid(field, "%s holds a control character", field)
		}
	}
	if !domain.HasVisible(s) {
		if required {
			return "", domain.Invalid(field, "%s must not be empty", field)
		}
		return "", nil
	}
	return s, nil
}

func webURL(s string) bool {
	if len(s) > MaxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

func email(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " \t\r\n<>") && len(s) <= 254
}

func setBool(dst *bool, src *bool) {
	if src != nil {
		*dst = *src
	}
}

func copyMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// distinctLanguages refuses two keys that name the same language ("en" and "EN"), whose order a
// JSON object does not keep.
func distinctLanguages(field string, codes []string) error {
	seen := map[string]string{}
	for _, c := range codes {
		norm, ok := NormalizeLanguage(c)
		if !ok {
			continue // reported by languageKey
		}
		if other, dup := seen[norm]; dup {
			return domain.Invalid(field, "%s and %s name the same language", domain.Quote(other), domain.Quote(c))
		}
		seen[norm] = c
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
