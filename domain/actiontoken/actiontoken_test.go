package actiontoken

import (
	"go/build"
	"reflect"
	"strings"
	"testing"

	"github.com/svcagent/svc/domain/channel"
)

var shop = Site{Hosts: []string{"shop.example"}, BaseURL: "https://shop.example", CheckoutPath: "/finalizar-compra/"}

func open(u string) Action { return Action{Type: Open, URL: u} }
func cart(id string, qty int) Action {
	return Action{Type: Cart, ProductID: id, Qty: qty}
}

var checkout = Action{Type: Checkout}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		reply   string
		site    Site
		text    string
		actions []Action
	}{
		{"no tokens", "We open at 9. See you!", shop, "We open at 9. See you!", nil},
		{"no tokens keeps spacing", "Line one  \n\n  indented", shop, "Line one  \n\n  indented", nil},
		{"open at the end", "Here is our menu [OPEN:https://shop.example/menu]", shop,
			"Here is our menu", []Action{open("https://shop.example/menu")}},
		{"open before punctuation", "See the menu [OPEN:https://shop.example/menu].", shop,
			"See the menu.", []Action{open("https://shop.example/menu")}},
		{"open between words", "See [OPEN:https://shop.example/menu] our menu", shop,
			"See our menu", []Action{open("https://shop.example/menu")}},
		{"open at the start", "[OPEN:https://shop.example/menu] Here it is", shop,
			"Here it is", []Action{open("https://shop.example/menu")}},
		{"subdomain and www", "[OPEN:https://www.shop.example/a] [OPEN:http://blog.shop.example/b]", shop,
			"", []Action{open("https://www.shop.example/a"), open("http://blog.shop.example/b")}},
		{"relative path", "Our cakes [OPEN:/product/cake/?size=l]", shop,
			"Our cakes", []Action{open("https://shop.example/product/cake/?size=l")}},
		{"spaces inside the token", "Menu: [OPEN: https://shop.example/menu ]", shop,
			"Menu:", []Action{open("https://shop.example/menu")}},
		{"lower-case name", "Menu [open:https://shop.example/menu]", shop,
			"Menu", []Action{open("https://shop.example/menu")}},
		{"cart and checkout", "Added 2 cakes [CART:123:2] and a tea [CART:var-9_1.b:1]. Ready? [CHECKOUT]", shop,
			"Added 2 cakes and a tea. Ready?", []Action{cart("123", 2), cart("var-9_1.b", 1), checkout}},
		{"adjacent tokens", "Done! [CART:1:1][CART:2:3] [CHECKOUT]", shop,
			"Done!", []Action{cart("1", 1), cart("2", 3), checkout}},
		{"max qty", "[CART:7:999]", shop, "", []Action{cart("7", 999)}},
		{"token alone on its line", "Your cart:\n[CART:5:1]\nAnything else?", shop,
			"Your cart:\nAnything else?", []Action{cart("5", 1)}},
		{"token alone in its paragraph", "Your cart.\n\n[CHECKOUT]\n\nThanks!", shop,
			"Your cart.\n\nThanks!", []Action{checkout}},

		// Malformed and unknown tokens are dropped without an action.
		{"cart without qty", "Added [CART:12] it", shop, "Added it", nil},
		{"cart qty zero", "Added [CART:12:0].", shop, "Added.", nil},
		{"cart qty too big", "Added [CART:12:1000].", shop, "Added.", nil},
		{"cart qty negative", "Added [CART:12:-1].", shop, "Added.", nil},
		{"cart qty not a number", "Added [CART:12:two].", shop, "Added.", nil},
		{"cart qty decimal", "Added [CART:12:1.5].", shop, "Added.", nil},
		{"cart empty id", "Added [CART::1].", shop, "Added.", nil},
		{"cart id with spaces", "Added [CART:12 3:1].", shop, "Added.", nil},
		{"cart too many parts", "Added [CART:1:2:3].", shop, "Added.", nil},
		{"cart without args", "Added [CART].", shop, "Added.", nil},
		{"checkout with args", "Go [CHECKOUT:now]!", shop, "Go!", nil},
		{"open without url", "Look [OPEN] here", shop, "Look here", nil},
		{"open empty", "Look [OPEN:] here", shop, "Look here", nil},
		{"unknown token", "Sure [DELETE:1] done", shop, "Sure done", nil},
		{"unknown token with underscore", "Sure [ADD_TO_CART:1:2] done", shop, "Sure done", nil},

		// Links outside the site are dropped.
		{"other host", "Try [OPEN:https://evil.example/x] this", shop, "Try this", nil},
		{"host suffix is not a subdomain", "[OPEN:https://evilshop.example/]", shop, "", nil},
		{"javascript", "Click [OPEN:javascript:alert(1)]", shop, "Click", nil},
		{"mailto", "Write [OPEN:mailto:a@shop.example]", shop, "Write", nil},
		{"protocol-relative", "Go [OPEN://evil.example/x]", shop, "Go", nil},
		{"user info hides the host", "[OPEN:https://shop.example@evil.example/]", shop, "", nil},
		{"url with spaces", "[OPEN:https://shop.example/a b]", shop, "", nil},
		{"relative without base", "[OPEN:/menu]", Site{}, "", nil},
		{"no hosts allows any web link", "[OPEN:https://any.example/p]", Site{},
			"", []Action{open("https://any.example/p")}},
		{"no hosts still needs http", "[OPEN:ftp://any.example/p]", Site{}, "", nil},
		{"hosts written loosely", "[OPEN:https://Shop.Example:8443/p]", Site{Hosts: []string{" https://WWW.shop.example/ "}},
			"", []Action{open("https://Shop.Example:8443/p")}},
		{"empty host entry allows nothing", "[OPEN:https://any.example/p]", Site{Hosts: []string{""}}, "", nil},

		// Ordinary bracketed text stays.
		{"bracketed text", "See note [note] and ref [1] and [NEW] and [] and [Note: keep]", shop,
			"See note [note] and ref [1] and [NEW] and [] and [Note: keep]", nil},
		{"token inside brackets", "[note [CHECKOUT]]", shop, "[note]", []Action{checkout}},
		{"tokens that form a new one", "[CAR[CHECKOUT]T:1:1] ok", shop, "ok", []Action{checkout}},
		{"bracket spanning lines", "[OPEN:https://shop.example/\nx]", shop, "[OPEN:https://shop.example/\nx]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, actions := Parse(tt.reply, tt.site)
			if text != tt.text {
				t.Errorf("Parse(%q) text = %q, want %q", tt.reply, text, tt.text)
			}
			if !reflect.DeepEqual(actions, tt.actions) {
				t.Errorf("Parse(%q) actions = %+v, want %+v", tt.reply, actions, tt.actions)
			}
		})
	}
}

func TestRender(t *testing.T) {
	actions := []Action{
		open("https://shop.example/menu"),
		cart("123", 2),
		checkout,
	}
	tests := []struct {
		name    string
		text    string
		actions []Action
		ch      channel.Channel
		site    Site
		want    string
	}{
		{"web keeps the text", "Here you go!", actions, channel.Web, shop, "Here you go!"},
		{"api keeps the text", "Here you go!", actions, channel.API, shop, "Here you go!"},
		{"messaging appends links", "Here you go!", actions, channel.Messaging, shop,
			"Here you go!\n\nhttps://shop.example/menu\nhttps://shop.example/?add-to-cart=123&quantity=2\nhttps://shop.example/finalizar-compra/"},
		{"default checkout path", "Ready?", []Action{checkout}, channel.Messaging,
			Site{BaseURL: "https://shop.example/"}, "Ready?\n\nhttps://shop.example/checkout/"},
		{"checkout path without slash", "Ready?", []Action{checkout}, channel.Messaging,
			Site{BaseURL: "https://shop.example", CheckoutPath: "pay"}, "Ready?\n\nhttps://shop.example/pay"},
		{"no actions", "Hello", nil, channel.Messaging, shop, "Hello"},
		{"empty text", "", []Action{cart("9", 1)}, channel.Messaging, shop,
			"https://shop.example/?add-to-cart=9&quantity=1"},
		{"link already in the text", "Menu: https://shop.example/menu", []Action{open("https://shop.example/menu")},
			channel.Messaging, shop, "Menu: https://shop.example/menu"},
		{"duplicate links once", "Hi  \n", []Action{checkout, checkout}, channel.Messaging, shop,
			"Hi\n\nhttps://shop.example/finalizar-compra/"},
		{"cart and checkout need a base", "Ok", []Action{cart("1", 1), checkout}, channel.Messaging,
			Site{}, "Ok"},
		{"invalid actions give no link", "Ok", []Action{open("javascript:alert(1)"), cart("a b", 1), cart("1", 0), {Type: "delete"}},
			channel.Messaging, shop, "Ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(tt.text, tt.actions, tt.ch, tt.site); got != tt.want {
				t.Errorf("Render(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestParseThenRender(t *testing.T) {
	reply := "Added the sourdough [CART:41:2]. Checkout here [CHECKOUT] or keep browsing [OPEN:/shop/]."
	text, actions := Parse(reply, shop)
	got := Render(text, actions, channel.Messaging, shop)
	want := "Added the sourdough. Checkout here or keep browsing.\n\n" +
		"https://shop.example/?add-to-cart=41&quantity=2\nhttps://shop.example/finalizar-compra/\nhttps://shop.example/shop/"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// hasToken reports whether text still holds something Parse would remove.
func hasToken(text string) bool {
	for _, m := range tokenPattern.FindAllStringSubmatchIndex(text, -1) {
		if isToken(text[m[2]:m[3]], m[4] >= 0) {
			return true
		}
	}
	return false
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Here is our menu [OPEN:https://shop.example/menu].",
		"Added [CART:123:2] and [CART:x] [CHECKOUT]",
		"[CAR[CHECKOUT]T:1:1]",
		"[note] [1] [DELETE:1] [OPEN:/a b]",
		"a [OPEN :x] b",
		"Line\n[CHECKOUT]\n\nnext",
		"[OPEN:https://shop.example@evil.example/]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		text, actions := Parse(reply, shop)
		if hasToken(text) {
			t.Fatalf("Parse(%q) left a token in %q", reply, text)
		}
		again, more := Parse(text, shop)
		if again != text || len(more) != 0 {
			t.Fatalf("Parse(Parse(%q)) = %q, %v; want %q and no actions", reply, again, more, text)
		}
		for _, a := range actions {
			switch a.Type {
			case Open:
				if !strings.HasPrefix(a.URL, "https://") && !strings.HasPrefix(a.URL, "http://") {
					t.Fatalf("Parse(%q) gave a non-web link %q", reply, a.URL)
				}
			case Cart:
				if !validID(a.ProductID) || a.Qty < 1 || a.Qty > MaxQty {
					t.Fatalf("Parse(%q) gave a bad cart action %+v", reply, a)
				}
			case Checkout:
			default:
				t.Fatalf("Parse(%q) gave an unknown action %+v", reply, a)
			}
		}
		_ = Render(text, actions, channel.Messaging, shop)
	})
}

// TestLeaf checks that the package imports only the standard library, so that whatever parses
// or renders actions pulls in nothing else of the module.
func TestLeaf(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
			t.Errorf("actiontoken imports %s: a leaf imports only the standard library", imp)
		}
	}
}
