// Package actiontoken reads the action tokens an agent writes in its replies ([OPEN:url],
// [CART:id:qty], [CHECKOUT]) into structured actions, and renders those actions for the channel
// the reply goes to. It is a leaf: it imports only the standard library.
package actiontoken

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Action is a structured action parsed out of an agent reply's action tokens: Open with URL,
// Cart with ProductID and Qty, Checkout.
type Action struct {
	Type      string
	URL       string
	ProductID string
	Qty       int
}

// The action types (Action.Type).
const (
	Open     = "open"     // open a page of the site: URL
	Cart     = "cart"     // add a product or variation to the cart: ProductID and Qty
	Checkout = "checkout" // go to the checkout
)

// MaxQty is the largest quantity a cart token may carry.
const MaxQty = 999

// DefaultCheckoutPath is the checkout path of a site that names none (the WooCommerce default).
const DefaultCheckoutPath = "/checkout/"

// Site is the website the actions of a reply belong to.
type Site struct {
	// Hosts are the site's host names ("shop.example", "www.shop.example"); an OPEN link must be
	// on one of them or on a subdomain of one. With no hosts any http(s) link is allowed.
	Hosts []string
	// BaseURL is the site's address ("https://shop.example"): relative OPEN links resolve
	// against it and the add-to-cart and checkout links of the messaging channel start with it.
	BaseURL string
	// CheckoutPath is the path of the checkout page; empty means DefaultCheckoutPath.
	CheckoutPath string
}

// tokenPattern matches anything shaped like a token: a bracketed name of letters, with an
// argument after a colon. Whether it is a token is for isToken to say.
var tokenPattern = regexp.MustCompile(`\[([A-Za-z][A-Za-z_]*)(?::([^\[\]\r\n]*))?\]`)

// isToken reports whether a bracketed name (and argument, when hasArg) is an action token: one
// of the known names in any case, well formed or not, or an unknown upper-case name with an
// argument ([DELETE:1]). Other bracketed text ("[note]", "[1]", "[NEW]") is ordinary text.
func isToken(name string, hasArg bool) bool {
	switch strings.ToUpper(name) {
	case "OPEN", "CART", "CHECKOUT":
		return true
	}
	return hasArg && name == strings.ToUpper(name)
}

// Parse removes every action token from an agent reply and returns the text left, tidied where
// tokens were (no double spaces, no space before punctuation, no line left empty by a token),
// and the actions of the well-formed tokens in order. A token that is malformed, unknown or
// points outside the site gives no action and is removed all the same: a cart token needs a
// product id of letters, digits, '.', '_' or '-' and a quantity from 1 to MaxQty; an OPEN link
// must be an absolute http(s) URL on one of the site's hosts, or a path starting with "/" that
// resolves against the site's BaseURL. The text returned holds no token: parsing it again gives
// it back unchanged and no actions.
func Parse(reply string, site Site) (text string, actions []Action) {
	text, actions = strip(reply, site)
	for { // removing a token may join its neighbours into a new one: "[CAR[CHECKOUT]T:1:1]"
		next, _ := strip(text, site)
		if next == text {
			return text, actions
		}
		text = next
	}
}

// strip removes the tokens of s and returns what is left and the actions of the tokens.
func strip(s string, site Site) (string, []Action) {
	var (
		actions []Action
		out     string
		last    int
		found   bool
	)
	for _, m := range tokenPattern.FindAllStringSubmatchIndex(s, -1) {
		name, arg, hasArg := s[m[2]:m[3]], "", m[4] >= 0
		if hasArg {
			arg = s[m[4]:m[5]]
		}
		if !isToken(name, hasArg) {
			continue
		}
		if found {
			out = join(out, s[last:m[0]])
		} else {
			out, found = s[:m[0]], true
		}
		last = m[1]
		if a, ok := site.action(strings.ToUpper(name), arg, hasArg); ok {
			actions = append(actions, a)
		}
	}
	if !found {
		return s, nil
	}
	return join(out, s[last:]), actions
}

// join joins the text before a removed token and the text after it, leaving one space where
// the token stood between words and none at a line's ends or before punctuation. A token alone
// on its line takes its line with it, and one at the start of the reply the blank space after it.
func join(before, after string) string {
	l := strings.TrimRight(before, " \t")
	r := strings.TrimLeft(after, " \t")
	switch {
	case l == "":
		return strings.TrimLeft(r, " \t\r\n")
	case strings.HasSuffix(l, "\n"):
		lt, rt := strings.TrimRight(l, "\r\n"), strings.TrimLeft(r, "\r\n")
		breaks := l[len(lt):]
		if b := r[:len(r)-len(rt)]; len(b) > len(breaks) {
			breaks = b
		}
		return lt + breaks + rt
	case r == "" || strings.ContainsRune(".,;:!?)]}…\r\n", []rune(r)[0]):
		return l + r
	case len(l) < len(before) || len(r) < len(after):
		return l + " " + r
	default:
		return l + r
	}
}

// action returns the action of a well-formed token.
func (s Site) action(name, arg string, hasArg bool) (Action, bool) {
	switch name {
	case "OPEN":
		if u, ok := s.resolve(arg); hasArg && ok {
			return Action{Type: Open, URL: u}, true
		}
	case "CART":
		id, qty, ok := strings.Cut(arg, ":")
		id, qty = strings.TrimSpace(id), strings.TrimSpace(qty)
		if n, valid := quantity(qty); ok && valid && validID(id) {
			return Action{Type: Cart, ProductID: id, Qty: n}, true
		}
	case "CHECKOUT":
		if !hasArg {
			return Action{Type: Checkout}, true
		}
	}
	return Action{}, false
}

// resolve returns the absolute URL an OPEN token points to, when the site allows it.
func (s Site) resolve(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", false
	}
	if strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//") && !strings.HasPrefix(raw, "/\\") {
		base, err := url.Parse(s.BaseURL)
		if err != nil || !isWeb(base) {
			return "", false
		}
		ref, err := url.Parse(raw)
		if err != nil {
			return "", false
		}
		return base.ResolveReference(ref).String(), true
	}
	u, err := url.Parse(raw)
	if err != nil || !isWeb(u) || !s.allows(u.Hostname()) {
		return "", false
	}
	return u.String(), true
}

// isWeb reports whether u is an absolute http(s) URL with a host and no user name, which would
// disguise the host ("https://shop.example@evil.example").
func isWeb(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.User == nil
}

// allows reports whether host is one of the site's hosts or a subdomain of one.
func (s Site) allows(host string) bool {
	if len(s.Hosts) == 0 {
		return true
	}
	host = bareHost(host)
	for _, h := range s.Hosts {
		if h = bareHost(h); h != "" && (host == h || strings.HasSuffix(host, "."+h)) {
			return true
		}
	}
	return false
}

// bareHost returns a host name lower case, without scheme, port, path, trailing dot or "www.",
// so that "https://WWW.Shop.example:443/" and "shop.example" compare equal.
func bareHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if _, rest, ok := strings.Cut(h, "://"); ok {
		h = rest
	}
	if i := strings.IndexAny(h, "/:?#"); i >= 0 {
		h = h[:i]
	}
	return strings.TrimPrefix(strings.TrimSuffix(h, "."), "www.")
}

// validID reports whether id can name a product or variation: 1 to 64 letters, digits, '.',
// '_' or '-'.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// quantity reads a cart quantity: digits only, from 1 to MaxQty.
func quantity(s string) (int, bool) {
	if s == "" || len(s) > 3 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 1 && n <= MaxQty
}

// Channel is where a reply goes (channel.Channel is one): Links reports whether it shows actions
// as links in the text, having no buttons.
type Channel interface {
	Links() bool
}

// Render returns the reply text as the channel shows it. The website chat and the API carry the
// actions structured beside the text, so their text is returned unchanged. The messaging channel
// has no buttons: each action becomes a link on its own line after the text, an OPEN link as
// is, a cart action as the store's add-to-cart link (BaseURL + "/?add-to-cart=<id>&quantity=<qty>")
// and checkout as BaseURL + CheckoutPath. A link already in the text or given twice is written
// once; cart and checkout links need a BaseURL.
func Render(text string, actions []Action, ch Channel, site Site) string {
	if !ch.Links() {
		return text
	}
	var links []string
	for _, a := range actions {
		link := site.link(a)
		if link == "" || strings.Contains(text, link) || slices.Contains(links, link) {
			continue
		}
		links = append(links, link)
	}
	if len(links) == 0 {
		return text
	}
	if text = strings.TrimRight(text, " \t\r\n"); text == "" {
		return strings.Join(links, "\n")
	}
	return text + "\n\n" + strings.Join(links, "\n")
}

// link returns the link that stands for an action in the messaging channel, or "".
func (s Site) link(a Action) string {
	base := strings.TrimRight(strings.TrimSpace(s.BaseURL), "/")
	switch a.Type {
	case Open:
		if u, err := url.Parse(a.URL); err == nil && isWeb(u) {
			return a.URL
		}
	case Cart:
		if base != "" && validID(a.ProductID) && a.Qty >= 1 && a.Qty <= MaxQty {
			return base + "/?add-to-cart=" + url.QueryEscape(a.ProductID) + "&quantity=" + strconv.Itoa(a.Qty)
		}
	case Checkout:
		if base != "" {
			path := s.CheckoutPath
			if path == "" {
				path = DefaultCheckoutPath
			}
			if !strings.HasPrefix(path, "/") {
				path = "/" + path
			}
			return base + path
		}
	}
	return ""
}
