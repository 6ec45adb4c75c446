// Package plugin holds the rules of the site plugin protocol (spec 4.9): the connection request
// and its return address, the single-use connect code, the site's connection and its secret
// plugin token, the items a sync sends, and the sale a store reports.
package plugin

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/knowledge"
	"github.com/svcagent/svc/domain/widget"
)

// Limits of the protocol (spec part 8).
const (
	CodeTTL      = 10 * time.Minute // a connect code
	StateTTL     = 30 * time.Minute // a connection request and its state
	MaxItems     = 300              // items of one sync
	MaxItemChars = 4000             // characters of one item's content
	MaxState     = 200
	MaxOptions   = 100
	MaxOrderName = 200
	MaxSaleItems = 200
)

// TokenPrefix starts every plugin token, CodePrefix every connect code.
const (
	TokenPrefix = "svc_plg_"
	CodePrefix  = "svc_code_"
)

// Request is a connection request of a site's plugin (GET /cms/connect): the site, where the
// browser goes back to, the plugin's state, the language of the pages and the store flag.
type Request struct {
	Site   string // the site's address, as given
	Return string // the plugin's admin page the browser returns to
	State  string
	Lang   string
	Woo    bool
}

// Host returns the site's key: its host name, lower case, without "www.".
func (r Request) Host() string { return knowledge.SiteOf(r.Site) }

// ParseRequest checks a connection request, naming the field at fault: site an absolute http(s)
// address without user name; return an http(s) address on the same host and port as site whose
// path is an admin path (a /wp-admin/ directory, at the root or under the site's own path);
// state 1 to MaxState printable characters; lang one of the widget's; woo "", 0, 1, true, false.
// A return address that fails is never followed: the caller shows an error page.
func ParseRequest(site, ret, state, lang, woo string) (Request, error) {
	su, err := url.Parse(site)
	if err != nil || !web(su) {
		return Request{}, domain.Invalid("site", "site must be the site's absolute http(s) address")
	}
	ru, err := url.Parse(ret)
	if err != nil || !web(ru) || ru.Fragment != "" {
		return Request{}, domain.Invalid("return", "return must be an absolute http(s) address")
	}
	if !strings.EqualFold(su.Host, ru.Host) || su.Scheme != ru.Scheme && !(su.Scheme == "http" && ru.Scheme == "https") {
		return Request{}, domain.Invalid("return", "return must be on the site's own host")
	}
	if !AdminPath(ru.EscapedPath()) {
		return Request{}, domain.Invalid("return", "return must be an admin page of the site (…/wp-admin/…)")
	}
	if state == "" || len(state) > MaxState || strings.ContainsFunc(state, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return Request{}, domain.Invalid("state", "state must be 1 to %d printable characters", MaxState)
	}
	l, err := widget.ParseLang(lang)
	if err != nil {
		return Request{}, err
	}
	w, err := parseFlag(woo)
	if err != nil {
		return Request{}, err
	}
	return Request{Site: strings.TrimRight(su.String(), "/"), Return: ru.String(), State: state, Lang: l, Woo: w}, nil
}

// AdminPath reports whether an escaped URL path is a WordPress-style admin path: it has a
// "wp-admin" directory segment, no dot segments, no encoded slashes or backslashes.
func AdminPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.Contains(strings.ToLower(p), "%2f") ||
		strings.Contains(strings.ToLower(p), "%5c") {
		return false
	}
	segs := strings.Split(p, "/")
	admin := false
	for i, s := range segs {
		if s == "." || s == ".." || strings.HasPrefix(s, "%2e") || strings.HasPrefix(s, "%2E") {
			return false
		}
		if s == "wp-admin" && i < len(segs)-1 {
			admin = true
		}
	}
	return admin
}

func web(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.User == nil && u.Opaque == ""
}

func parseFlag(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "", "0", "false", "no":
		return false, nil
	case "1", "true", "yes":
		return true, nil
	}
	return false, domain.Invalid("woo", "woo must be 1 or 0")
}

// Pending is a connection request waiting for the owner's approval, kept StateTTL.
type Pending struct {
	ID        string
	Request   Request
	CreatedAt time.Time
	ExpiresAt time.Time
}

// NewPending returns the pending request of r made at now.
func NewPending(id string, r Request, now time.Time) Pending {
	return Pending{ID: id, Request: r, CreatedAt: now, ExpiresAt: now.Add(StateTTL)}
}

// Open reports whether the request may still be approved at now.
func (p Pending) Open(now time.Time) bool { return now.Before(p.ExpiresAt) }

// ReturnURL is where the browser goes once the owner approved: the return address with
// svc_code and state added to its query.
func (p Pending) ReturnURL(code string) string {
	u, err := url.Parse(p.Request.Return)
	if err != nil { // checked by ParseRequest
		return ""
	}
	q := u.Query()
	q.Set("svc_code", code)
	q.Set("state", p.Request.State)
	u.RawQuery = q.Encode()
	return u.String()
}

// Code is a connect code: single use, CodeTTL, for the site it was made for. Only its hash is
// stored.
type Code struct {
	Hash      string
	AccountID string
	Request   Request
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time
}

// NewCode returns the code of hash approved by the account for the pending request at now.
func NewCode(hash, accountID string, p Pending, now time.Time) Code {
	return Code{Hash: hash, AccountID: accountID, Request: p.Request, CreatedAt: now, ExpiresAt: now.Add(CodeTTL)}
}

// Redeem checks that the code may be exchanged for the site at now: unused, unexpired and made
// for that site. Every refusal is the same 400 naming code, so that a caller learns nothing of
// which.
func (c Code) Redeem(site string, now time.Time) error {
	if !c.UsedAt.IsZero() || !now.Before(c.ExpiresAt) || knowledge.SiteOf(site) == "" || knowledge.SiteOf(site) != c.Request.Host() {
		return ErrCode
	}
	return nil
}

// ErrCode refuses a connect code that is unknown, used, expired or for another site.
var ErrCode = domain.Invalid("code", "the code is unknown, used, expired or made for another site; connect again")

// Counts are what the last sync of a site sent.
type Counts struct {
	Pages    int
	Posts    int
	Products int
	Chars    int
}

// Connection is a site connected to an account through the plugin; TokenHash is the hash of its
// secret plugin token. A revoked connection's token authenticates nothing.
type Connection struct {
	ID         string
	AccountID  string
	Site       string // the host key (Request.Host)
	SiteURL    string
	Platform   string
	Woo        bool
	Lang       string
	TokenHash  string
	CreatedAt  time.Time
	RevokedAt  time.Time
	LastSyncAt time.Time
	LastSync   Counts
}

// Revoked reports whether the connection was disconnected.
func (c Connection) Revoked() bool { return !c.RevokedAt.IsZero() }

// Types of synced item.
const (
	TypePage    = "page"
	TypePost    = "post"
	TypeProduct = "product"
)

// Option is a variation of a product: its own price, stock and cart id.
type Option struct {
	Name   string
	Price  string
	Stock  *int
	CartID string
}

// Item is one published page, post or product a sync sends.
type Item struct {
	Type     string
	Title    string
	URL      string
	Content  string
	Price    string
	Currency string
	Stock    *int // nil: not tracked (available)
	CartID   string
	Options  []Option
}

// ValidateItems checks the items of a sync, naming the field at fault: at most MaxItems, each
// with a content of at most MaxItemChars characters, an absolute URL on the site, a known type,
// and for products sane prices and cart ids. Nothing is cut: more is refused.
func ValidateItems(field string, items []Item, site string) error {
	if items == nil {
		return domain.Invalid(field, "%s is required (an array of {type, title, url, content})", field)
	}
	if len(items) > MaxItems {
		return domain.Invalid(field, "at most %d items per sync (got %d)", MaxItems, len(items))
	}
	seen := make(map[string]int, len(items))
	for i, it := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		switch it.Type {
		case "", TypePage, TypePost, TypeProduct:
		default:
			return domain.Invalid(f+".type", "%s.type must be page, post or product", f)
		}
		if n := utf8.RuneCountInString(it.Content); n > MaxItemChars {
			return domain.Invalid(f+".content", "%s.content must be at most %d characters (got %d)", f, MaxItemChars, n)
		}
		if strings.TrimSpace(it.Content) == "" && strings.TrimSpace(it.Title) == "" {
			return domain.Invalid(f+".content", "%s needs a title or a content", f)
		}
		if utf8.RuneCountInString(it.Title) > knowledge.MaxTitle {
			return domain.Invalid(f+".title", "%s.title must be at most %d characters", f, knowledge.MaxTitle)
		}
		if !knowledge.WebURL(it.URL) || knowledge.SiteOf(it.URL) != site {
			return domain.Invalid(f+".url", "%s.url must be an absolute http(s) address on the connected site", f)
		}
		if j, dup := seen[it.URL]; dup {
			return domain.Invalid(f+".url", "%s.url is also the url of %s[%d]", f, field, j)
		}
		seen[it.URL] = i
		if err := it.validateProduct(f); err != nil {
			return err
		}
	}
	return nil
}

func (it Item) validateProduct(f string) error {
	if it.Type != TypeProduct {
		if it.Price != "" || it.Stock != nil || it.CartID != "" || it.Options != nil || it.Currency != "" {
			return domain.Invalid(f+".type", "%s: price, stock, cart_id and options belong to products", f)
		}
		return nil
	}
	if it.Price != "" && !decimal(it.Price) {
		return domain.Invalid(f+".price", "%s.price must be a decimal number such as 12.50", f)
	}
	if it.Currency != "" && (len(it.Currency) != 3 || strings.ToUpper(it.Currency) != it.Currency) {
		return domain.Invalid(f+".currency", "%s.currency must be a currency code such as EUR", f)
	}
	if it.CartID != "" && !CartID(it.CartID) {
		return domain.Invalid(f+".cart_id", "%s.cart_id must be 1 to 64 letters, digits, '.', '_' or '-'", f)
	}
	if len(it.Options) > MaxOptions {
		return domain.Invalid(f+".options", "at most %d options", MaxOptions)
	}
	for j, o := range it.Options {
		of := fmt.Sprintf("%s.options[%d]", f, j)
		if strings.TrimSpace(o.Name) == "" || utf8.RuneCountInString(o.Name) > knowledge.MaxTitle {
			return domain.Invalid(of+".name", "%s.name is required (at most %d characters)", of, knowledge.MaxTitle)
		}
		if o.Price != "" && !decimal(o.Price) {
			return domain.Invalid(of+".price", "%s.price must be a decimal number such as 12.50", of)
		}
		if !CartID(o.CartID) {
			return domain.Invalid(of+".cart_id", "%s.cart_id must be 1 to 64 letters, digits, '.', '_' or '-'", of)
		}
	}
	return nil
}

// CartID reports whether id can name a product or variation in a cart token.
func CartID(id string) bool {
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

// Page is the item as the Brain keeps it: a product's content is followed by its price, stock
// and cart ids, in words, so that the agent can answer with them; its Cart is the id the agent
// may offer to add (the product's, or its first option in stock), empty when none is in stock.
func (it Item) Page() knowledge.Page {
	p := knowledge.Page{URL: it.URL, Title: strings.TrimSpace(it.Title), Content: strings.TrimSpace(it.Content)}
	if it.Type != TypeProduct {
		return p
	}
	var b strings.Builder
	b.WriteString(p.Content)
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	if it.Price != "" {
		fmt.Fprintf(&b, "Price: %s.\n", money(it.Price, it.Currency))
	}
	if len(it.Options) == 0 {
		b.WriteString(stock(it.Stock) + ".\n")
		if it.CartID != "" {
			fmt.Fprintf(&b, "Cart id: %s.\n", it.CartID)
			if available(it.Stock) {
				p.Cart = it.CartID
			}
		}
	}
	for _, o := range it.Options {
		price := ""
		if o.Price != "" {
			price = ", " + money(o.Price, it.Currency)
		}
		fmt.Fprintf(&b, "Option %s%s, %s, cart id %s.\n", strings.TrimSpace(o.Name), price, stock(o.Stock), o.CartID)
		if p.Cart == "" && available(o.Stock) {
			p.Cart = o.CartID
		}
	}
	p.Content = strings.TrimSpace(b.String())
	return p
}

func money(price, currency string) string {
	if currency == "" {
		return price
	}
	return price + " " + currency
}

func available(stock *int) bool { return stock == nil || *stock > 0 }

func stock(n *int) string {
	switch {
	case n == nil:
		return "in stock"
	case *n <= 0:
		return "out of stock"
	}
	return strconv.Itoa(*n) + " in stock"
}

// Count returns what the items hold: pages, posts, products and characters of content.
func Count(items []Item) Counts {
	var c Counts
	for _, it := range items {
		switch it.Type {
		case TypePost:
			c.Posts++
		case TypeProduct:
			c.Products++
		default:
			c.Pages++
		}
		c.Chars += utf8.RuneCountInString(it.Content)
	}
	return c
}

// decimal reports whether s is a non-negative decimal number: digits, optionally a point and
// up to 4 more digits.
func decimal(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || len(whole) > 12 || strings.Trim(whole, "0123456789") != "" {
		return false
	}
	if dot && (frac == "" || len(frac) > 4 || strings.Trim(frac, "0123456789") != "") {
		return false
	}
	return true
}

// SaleItem is a line of a reported order: a product name and a quantity.
type SaleItem struct {
	Name string
	Qty  int
}

// Sale is an order a store reports once it is paid. Payment data and addresses are never part
// of it.
type Sale struct {
	VisitorID string
	OrderID   int64
	OrderName string
	Total     string
	Currency  string
	Items     []SaleItem
}

// Amount checks the sale, naming the field at fault, and returns its total as a number.
// visitor_id may be empty (an order without the cookie), else the cookie's uuid.
func (s Sale) Amount() (float64, error) {
	if s.VisitorID != "" {
		if err := widget.ValidateVisitor("visitor_id", s.VisitorID); err != nil {
			return 0, err
		}
	}
	if s.OrderID <= 0 {
		return 0, domain.Invalid("order_id", "order_id must be a positive integer")
	}
	if utf8.RuneCountInString(s.OrderName) > MaxOrderName {
		return 0, domain.Invalid("order_name", "order_name must be at most %d characters", MaxOrderName)
	}
	if !decimal(s.Total) {
		return 0, domain.Invalid("total", "total must be a decimal number in a string, such as \"12.50\"")
	}
	if s.Currency == "" {
		return 0, domain.Invalid("currency", "currency is required (an ISO 4217 code such as EUR)")
	}
	if len(s.Items) > MaxSaleItems {
		return 0, domain.Invalid("items", "at most %d items", MaxSaleItems)
	}
	for i, it := range s.Items {
		f := fmt.Sprintf("items[%d]", i)
		if strings.TrimSpace(it.Name) == "" || utf8.RuneCountInString(it.Name) > knowledge.MaxTitle {
			return 0, domain.Invalid(f+".name", "%s.name is required (at most %d characters)", f, knowledge.MaxTitle)
		}
		if it.Qty < 1 || it.Qty > 1_000_000 {
			return 0, domain.Invalid(f+".qty", "%s.qty must be a positive integer", f)
		}
	}
	v, err := strconv.ParseFloat(s.Total, 64)
	if err != nil {
		return 0, domain.Invalid("total", "total must be a decimal number in a string, such as \"12.50\"")
	}
	return v, nil
}

// Reference is the conversion's reference of the sale: the order's name, else its number.
func (s Sale) Reference() string {
	if n := strings.TrimSpace(s.OrderName); n != "" {
		return n
	}
	return "order " + strconv.FormatInt(s.OrderID, 10)
}
