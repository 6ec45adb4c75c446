// Package widget holds the website chat widget's rules: its saved style, the domains it may run
// on, the visitor who chats through it, and the snippet that puts it on a site for each framework.
package widget

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/channel"
)

// The sides of the screen the chat may sit on.
const (
	Left  = "left"
	Right = "right"
)

// The themes of the chat.
const (
	Light = "light"
	Dark  = "dark"
)

// Style is what the owner saves for the widget: the side of the screen, the theme, the main
// colour (#rrggbb) and whether visitors may drag the chat. The script's data-* attributes take
// priority over it.
type Style struct {
	Position string
	Theme    string
	Accent   string
	Drag     bool
}

// DefaultStyle is the style of an account that saved none.
var DefaultStyle = Style{Position: Right, Theme: Light, Accent: "#2563eb", Drag: true}

// StylePatch is a change of the style; a nil field keeps what is saved.
type StylePatch struct {
	Position *string
	Theme    *string
	Accent   *string
	Drag     *bool
}

// Empty reports whether the patch changes nothing.
func (p StylePatch) Empty() bool {
	return p.Position == nil && p.Theme == nil && p.Accent == nil && p.Drag == nil
}

// Apply returns s changed by p, or 400 invalid_request naming the first field at fault.
func (s Style) Apply(p StylePatch) (Style, error) {
	if p.Position != nil {
		pos, err := ParsePosition(*p.Position)
		if err != nil || pos == "" {
			return Style{}, domain.Invalid("position", "position must be %q or %q", Left, Right)
		}
		s.Position = pos
	}
	if p.Theme != nil {
		switch *p.Theme {
		case Light, Dark:
			s.Theme = *p.Theme
		default:
			return Style{}, domain.Invalid("theme", "theme must be %q or %q", Light, Dark)
		}
	}
	if p.Accent != nil {
		c, ok := Color(*p.Accent)
		if !ok {
			return Style{}, domain.Invalid("accent", "accent must be a colour in hex, #rgb or #rrggbb")
		}
		s.Accent = c
	}
	if p.Drag != nil {
		s.Drag = *p.Drag
	}
	return s, nil
}

// ParsePosition checks a position: "" (none given), "left" or "right".
func ParsePosition(s string) (string, error) {
	switch s {
	case "", Left, Right:
		return s, nil
	}
	return "", domain.Invalid("position", "position must be %q or %q", Left, Right)
}

// Color returns a hex colour (#rgb or #rrggbb, any case) as #rrggbb in lower case.
func Color(s string) (string, bool) {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return "", false
	}
	hex := strings.ToLower(s[1:])
	for _, r := range hex {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return "", false
		}
	}
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	return "#" + hex, true
}

// Langs are the languages of the widget's own words (data-lang).
var Langs = []string{"en", "pt", "pt-BR", "es"}

// ParseLang checks a language of the widget: "" (the page's), en, pt, pt-BR or es, in any case;
// it returns the canonical form.
func ParseLang(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	for _, l := range Langs {
		if strings.EqualFold(s, l) || strings.EqualFold(strings.ReplaceAll(s, "_", "-"), l) {
			return l, nil
		}
	}
	return "", domain.Invalid("lang", "lang must be one of %s", strings.Join(Langs, ", "))
}

// ValidateVisitor checks a visitor id: the uuid of the svc_visitor cookie, in its canonical form
// (8-4-4-4-12 lower-case hex digits).
func ValidateVisitor(field, id string) error {
	if len(id) != 36 {
		return domain.Invalid(field, "%s must be a uuid (the svc_visitor cookie)", field)
	}
	for i, r := range id {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return domain.Invalid(field, "%s must be a uuid (the svc_visitor cookie)", field)
			}
		default:
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return domain.Invalid(field, "%s must be a uuid in lower case (the svc_visitor cookie)", field)
			}
		}
	}
	return nil
}

// ContactID is the contact of a visitor in conversations and events: web:<uuid>.
func ContactID(visitor string) string { return string(channel.Web) + ":" + visitor }

// MaxDomains bounds the allowed domains of an account.
const MaxDomains = 100

// NormalizeDomains checks the allowed domains an owner gives and returns them normalised: host
// names in lower case without scheme, port, path or trailing dot, "*." kept in front of a
// wildcard, duplicates dropped, order kept. An empty list means any domain.
func NormalizeDomains(in []string) ([]string, error) {
	if len(in) > MaxDomains {
		return nil, domain.Invalid("domains", "at most %d domains", MaxDomains)
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for i, raw := range in {
		d, ok := normalizeDomain(raw)
		if !ok {
			return nil, domain.Invalid("domains["+strconv.Itoa(i)+"]", "not a host name: give example.com or *.example.com")
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func normalizeDomain(raw string) (string, bool) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	wild := strings.HasPrefix(s, "*.")
	s = strings.TrimPrefix(s, "*.")
	s = stripPort(s)
	s = strings.TrimSuffix(s, ".")
	if !validHost(s) || wild && !strings.Contains(s, ".") {
		return "", false
	}
	if wild {
		return "*." + s, true
	}
	return s, true
}

func stripPort(s string) string {
	if i := strings.LastIndexByte(s, ':'); i >= 0 && !strings.Contains(s[:i], ":") {
		if _, err := strconv.Atoi(s[i+1:]); err == nil {
			return s[:i]
		}
	}
	return s
}

// validHost accepts ASCII host names (IDNs in their xn-- form) of up to 253 characters.
func validHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// Allowed reports whether a page whose Origin header is origin may use the widget of an account
// with the allowed domains: any origin when the list is empty; else the origin's host must equal
// an entry, or be a subdomain of an entry written "*.example.com" (the entry's apex needs its
// own entry). Scheme and port play no part. A missing or opaque ("null") origin is refused when
// the list is not empty.
func Allowed(domains []string, origin string) bool {
	if len(domains) == 0 {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for _, d := range domains {
		if base, ok := strings.CutPrefix(d, "*."); ok {
			if strings.HasSuffix(host, "."+base) {
				return true
			}
		} else if host == d {
			return true
		}
	}
	return false
}
