package plugin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcagent/svc/domain"
	"github.com/svcagent/svc/domain/plugin"
)

func field(err error) string {
	e, _ := domain.AsError(err)
	if e == nil {
		return ""
	}
	return e.Field
}

func TestParseRequest(t *testing.T) {
	const site, ret = "https://shop.example", "https://shop.example/wp-admin/admin.php?page=svc"
	for _, tc := range []struct {
		name                       string
		site, ret, state, lang, wo string
		field                      string
	}{
		{"ok", site, ret, "abc", "pt-BR", "1", ""},
		{"subdirectory install", "https://shop.example/blog", "https://shop.example/blog/wp-admin/options-general.php", "s", "", "", ""},
		{"https return for an http site", "http://shop.example", "https://shop.example/wp-admin/", "s", "", "0", ""},
		{"another host", site, "https://evil.example/wp-admin/admin.php", "s", "", "", "return"},
		{"a subdomain", site, "https://a.shop.example/wp-admin/", "s", "", "", "return"},
		{"another port", site, "https://shop.example:8443/wp-admin/", "s", "", "", "return"},
		{"downgrade to http", site, "http://shop.example/wp-admin/", "s", "", "", "return"},
		{"user name disguise", site, "https://shop.example@evil.example/wp-admin/", "s", "", "", "return"},
		{"outside the admin path", site, "https://shop.example/checkout/", "s", "", "", "return"},
		{"wp-admin as a file", site, "https://shop.example/wp-admin", "s", "", "", "return"},
		{"dot segments", site, "https://shop.example/wp-admin/../evil", "s", "", "", "return"},
		{"encoded slash", site, "https://shop.example/wp-admin%2F..%2Fx/", "s", "", "", "return"},
		{"protocol-relative", site, "//evil.example/wp-admin/", "s", "", "", "return"},
		{"javascript", site, "javascript:alert(1)//wp-admin/", "s", "", "", "return"},
		{"fragment", site, ret + "#x", "s", "", "", "return"},
		{"site not a URL", "shop.example", ret, "s", "", "", "site"},
		{"no state", site, ret, "", "", "", "state"},
		{"state with a space", site, ret, "a b", "", "", "state"},
		{"long state", site, ret, strings.Repeat("s", plugin.MaxState+1), "", "", "state"},
		{"bad lang", site, ret, "s", "xx", "", "lang"},
		{"bad woo", site, ret, "s", "", "maybe", "woo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := plugin.ParseRequest(tc.site, tc.ret, tc.state, tc.lang, tc.wo)
			if field(err) != tc.field || (tc.field == "") != (err == nil) {
				t.Fatalf("ParseRequest = %+v, %v; want field %q", r, err, tc.field)
			}
		})
	}
}

func TestReturnURLAndCode(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	r, err := plugin.ParseRequest("https://www.shop.example", "https://www.shop.example/wp-admin/admin.php?page=svc", "x&y=1", "", "1")
	if err != nil {
		t.Fatal(err)
	}
	p := plugin.NewPending("creq", r, now)
	if got, want := p.ReturnURL("svc_code_1"), "https://www.shop.example/wp-admin/admin.php?page=svc&state=x%26y%3D1&svc_code=svc_code_1"; got != want {
		t.Errorf("ReturnURL = %s, want %s", got, want)
	}
	if !p.Open(now.Add(plugin.StateTTL-time.Second)) || p.Open(now.Add(plugin.StateTTL)) {
		t.Error("a request must be open for 30 minutes exactly")
	}
	c := plugin.NewCode("h", "acct", p, now)
	used := c
	used.UsedAt = now
	for _, tc := range []struct {
		name string
		c    plugin.Code
		site string
		at   time.Time
		ok   bool
	}{
		{"fresh", c, "https://shop.example/", now.Add(9 * time.Minute), true},
		{"www and path ignored", c, "http://www.shop.example/shop", now, true},
		{"at 10 minutes", c, "https://shop.example", now.Add(plugin.CodeTTL), false},
		{"used", used, "https://shop.example", now, false},
		{"another site", c, "https://other.example", now, false},
		{"no site", c, "", now, false},
	} {
		if err := tc.c.Redeem(tc.site, tc.at); (err == nil) != tc.ok {
			t.Errorf("%s: Redeem = %v", tc.name, err)
		}
	}
}

func intp(n int) *int { return &n }

func TestValidateItems(t *testing.T) {
	page := plugin.Item{Title: "About", URL: "https://shop.example/about", Content: "About us"}
	many := make([]plugin.Item, plugin.MaxItems+1)
	for i := range many {
		many[i] = page
		many[i].URL = page.URL + "/" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + "-" + strings.Repeat("y", i/26)
	}
	for _, tc := range []struct {
		name  string
		items []plugin.Item
		field string
	}{
		{"ok", []plugin.Item{page, {Type: "product", Title: "Bike", URL: "https://shop.example/bike", Content: "A bike", Price: "10.50",
			Currency: "EUR", Stock: intp(2), CartID: "42", Options: []plugin.Option{{Name: "Red", CartID: "43"}}}}, ""},
		{"max items", many[:plugin.MaxItems], ""},
		{"max chars", []plugin.Item{{URL: page.URL, Content: strings.Repeat("é", plugin.MaxItemChars)}}, ""},
		{"nil", nil, "pages"},
		{"301 items", many, "pages"},
		{"4001 characters", []plugin.Item{page, {URL: page.URL + "2", Content: strings.Repeat("a", plugin.MaxItemChars+1)}}, "pages[1].content"},
		{"another site", []plugin.Item{{URL: "https://evil.example/", Content: "x"}}, "pages[0].url"},
		{"same url twice", []plugin.Item{page, page}, "pages[1].url"},
		{"unknown type", []plugin.Item{{Type: "order", URL: page.URL, Content: "x"}}, "pages[0].type"},
		{"price on a page", []plugin.Item{{URL: page.URL, Content: "x", Price: "1"}}, "pages[0].type"},
		{"bad price", []plugin.Item{{Type: "product", URL: page.URL, Content: "x", Price: "1,50"}}, "pages[0].price"},
		{"bad cart id", []plugin.Item{{Type: "product", URL: page.URL, Content: "x", CartID: "4:2"}}, "pages[0].cart_id"},
		{"option without cart id", []plugin.Item{{Type: "product", URL: page.URL, Content: "x", Options: []plugin.Option{{Name: "M"}}}}, "pages[0].options[0].cart_id"},
		{"empty", []plugin.Item{{URL: page.URL}}, "pages[0].content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := plugin.ValidateItems("pages", tc.items, "shop.example")
			if field(err) != tc.field || (tc.field == "") != (err == nil) {
				t.Fatalf("ValidateItems = %v; want field %q", err, tc.field)
			}
		})
	}
}

func TestItemPage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		item      plugin.Item
		cart      string
		inContent []string
	}{
		{"page", plugin.Item{Title: "About", URL: "https://s.example/a", Content: "Hi"}, "", []string{"Hi"}},
		{"simple product in stock", plugin.Item{Type: "product", Content: "Steel bike", Price: "499.00", Currency: "EUR", Stock: intp(3), CartID: "77"},
			"77", []string{"Price: 499.00 EUR.", "3 in stock", "Cart id: 77."}},
		{"untracked stock", plugin.Item{Type: "product", Content: "Bell", CartID: "5"}, "5", []string{"in stock"}},
		{"out of stock", plugin.Item{Type: "product", Content: "Lamp", Stock: intp(0), CartID: "6"}, "", []string{"out of stock", "Cart id: 6."}},
		{"options: first in stock", plugin.Item{Type: "product", Content: "Shirt", Price: "20", Currency: "USD", CartID: "9",
			Options: []plugin.Option{{Name: "S", Stock: intp(0), CartID: "10"}, {Name: "M", Price: "22", Stock: intp(4), CartID: "11"}}},
			"11", []string{"Option S, out of stock, cart id 10.", "Option M, 22 USD, 4 in stock, cart id 11."}},
	} {
		p := tc.item.Page()
		if p.Cart != tc.cart {
			t.Errorf("%s: Cart = %q, want %q", tc.name, p.Cart, tc.cart)
		}
		for _, s := range tc.inContent {
			if !strings.Contains(p.Content, s) {
				t.Errorf("%s: content %q lacks %q", tc.name, p.Content, s)
			}
		}
	}
}

func TestSaleAmount(t *testing.T) {
	ok := plugin.Sale{VisitorID: "0b6b1c1e-8f5a-4c1e-9d3e-2a1b3c4d5e6f", OrderID: 7, Total: "49.90", Currency: "EUR",
		Items: []plugin.SaleItem{{Name: "Bike", Qty: 1}}}
	for _, tc := range []struct {
		name   string
		mutate func(*plugin.Sale)
		field  string
		amount float64
	}{
		{"ok", func(*plugin.Sale) {}, "", 49.9},
		{"no visitor", func(s *plugin.Sale) { s.VisitorID = "" }, "", 49.9},
		{"whole number", func(s *plugin.Sale) { s.Total = "12" }, "", 12},
		{"bad visitor", func(s *plugin.Sale) { s.VisitorID = "ABC" }, "visitor_id", 0},
		{"no order", func(s *plugin.Sale) { s.OrderID = 0 }, "order_id", 0},
		{"negative total", func(s *plugin.Sale) { s.Total = "-1" }, "total", 0},
		{"comma", func(s *plugin.Sale) { s.Total = "1,5" }, "total", 0},
		{"exponent", func(s *plugin.Sale) { s.Total = "1e3" }, "total", 0},
		{"no currency", func(s *plugin.Sale) { s.Currency = "" }, "currency", 0},
		{"zero qty", func(s *plugin.Sale) { s.Items[0].Qty = 0 }, "items[0].qty", 0},
	} {
		s := ok
		s.Items = append([]plugin.SaleItem(nil), ok.Items...)
		tc.mutate(&s)
		got, err := s.Amount()
		if field(err) != tc.field || (tc.field == "") != (err == nil) || got != tc.amount {
			t.Errorf("%s: Amount = %v, %v; want %v, field %q", tc.name, got, err, tc.amount, tc.field)
		}
	}
	if r := ok.Reference(); r != "order 7" {
		t.Errorf("Reference = %q", r)
	}
}
